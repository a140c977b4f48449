/**
 * SAN on both backends against an independent truth: a SAN writer written here square by square from
 * the PGN standard's rules (section 8.2.3: 8.2.3.2 piece letters, 8.2.3.3 disambiguation by file of
 * departure, then rank, then both; 8.2.3.4 pawn captures with the file of departure; 8.2.3.5
 * O-O / O-O-O; 8.2.3.6 "=" promotion; 8.2.3.7 "+" check and "#" checkmate) over the brute-force
 * move generator of test/patterns/reference-checks.ts, round trips (toSan then parseSan) on every legal move of
 * thousands of positions, hand cases, and native-vs-JS properties (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSanApi, SanError } from '../../lib/games/san.js';
import { MoveError } from '../../lib/core/position.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import {
  KING, PAWN, type Board, type Move, boardFromFen, checkersRef, fenFromBoard, legalMovesRef, playMove, randomBoard,
  uci,
} from '../patterns/reference-checks.js';

const sanBackends: [string, ReturnType<typeof createSanApi>][] = [['js', createSanApi('js')]];
if (nativeApi) sanBackends.push(['native', createSanApi('native')]);

const FILES = 'abcdefgh';
const fileOf = (s: number) => FILES[s & 7]!;
const rankOf = (s: number) => String((s >> 3) + 1);

/** The standard's SAN of a legal move, written from the reference board (section 8.2.3). */
function sanRef(b: Board, m: Move): string {
  const p = b.cells[m.from]!;
  let s: string;
  if (p.type === KING && Math.abs(m.to - m.from) === 2) {
    s = m.to > m.from ? 'O-O' : 'O-O-O';
  } else {
    const capture = b.cells[m.to] !== null || (p.type === PAWN && m.to === b.ep);
    if (p.type === PAWN) {
      s = `${capture ? `${fileOf(m.from)}x` : ''}${fileOf(m.to)}${rankOf(m.to)}${m.promotion ? `=${'NBRQ'[m.promotion - 1]}` : ''}`;
    } else {
      const others = legalMovesRef(b).filter((o) => o.to === m.to && o.from !== m.from && b.cells[o.from]!.type === p.type);
      let dis = '';
      if (others.length > 0) {
        if (!others.some((o) => (o.from & 7) === (m.from & 7))) dis = fileOf(m.from);
        else if (!others.some((o) => o.from >> 3 === m.from >> 3)) dis = rankOf(m.from);
        else dis = fileOf(m.from) + rankOf(m.from);
      }
      s = `${' NBRQK'[p.type]}${dis}${capture ? 'x' : ''}${fileOf(m.to)}${rankOf(m.to)}`;
    }
  }
  const after = playMove(b, m);
  if (checkersRef(after, after.side) !== 0n) s += legalMovesRef(after).length === 0 ? '#' : '+';
  return s;
}

/** Positions of random playouts from the start (many knights, rooks, queens to disambiguate). */
function playoutFens(games: number, plies: number, seed: number): string[] {
  const next = rng(seed);
  const fens: string[] = [];
  for (let g = 0; g < games; g++) {
    let pos = jsApi.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    for (let ply = 0; ply < plies; ply++) {
      const moves = jsApi.legalMoves(pos);
      if (moves.length === 0) break;
      fens.push(jsApi.toFen(pos));
      pos = jsApi.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
    }
  }
  return fens;
}

const PLAYOUTS = playoutFens(20, 100, 12);
const RANDOM = Array.from({ length: 400 }, (_, i) => fenFromBoard(randomBoard(rng(900 + i), 2 + (i % 10))));

describe.each(sanBackends)('%s', (_name, san) => {
  const P = (fen: string) => jsApi.parseFen(fen);

  it('toSan equals the reference writer on every legal move (random boards and playout samples)', () => {
    const fens = [...RANDOM.slice(0, 200), ...PLAYOUTS.filter((_, i) => i % 25 === 0)];
    let moves = 0;
    for (const fen of fens) {
      const b = boardFromFen(fen);
      const pos = P(fen);
      for (const m of legalMovesRef(b)) {
        expect(san.toSan(pos, uci(m)), `${fen} ${uci(m)}`).toBe(sanRef(b, m));
        moves++;
      }
    }
    expect(moves).toBeGreaterThan(2000);
  });

  it('round trip: parseSan(toSan(move)) is the move, for every legal move of thousands of positions', () => {
    let checked = 0;
    for (const fen of [...PLAYOUTS, ...RANDOM]) {
      const pos = P(fen);
      const ucis = jsApi.legalMoves(pos);
      const sans = san.sanMoves(pos);
      expect(sans.length).toBe(ucis.length);
      expect(new Set(sans).size).toBe(sans.length); // SAN names each move once
      for (let i = 0; i < ucis.length; i++) {
        expect(san.parseSan(pos, sans[i]!), `${fen} ${sans[i]}`).toBe(ucis[i]);
        if (checked % 7 === 0) expect(san.parseSan(pos, sans[i]!, { strict: true })).toBe(ucis[i]);
        checked++;
      }
    }
    expect(PLAYOUTS.length + RANDOM.length).toBeGreaterThan(2000);
    expect(checked).toBeGreaterThan(40000);
  });

  it('toSan takes 16-bit move codes too', () => {
    const pos = P('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(san.toSan(pos, 6 | (21 << 6))).toBe('Nf3'); // g1 = 6, f3 = 21
    expect(() => san.toSan(pos, 'e2e5')).toThrow(MoveError);
    expect(() => san.toSan(pos, 'zz')).toThrow(MoveError);
    expect(() => san.toSan(pos, 1.5)).toThrow(RangeError);
  });

  // Hand cases, positions built for each rule of section 8.2.3: [FEN, [UCI move, SAN]...] per position.
  const expectSans = (cases: [fen: string, moves: [uci: string, san: string][]][]) => {
    for (const [fen, moves] of cases) {
      const pos = P(fen);
      for (const [move, want] of moves) expect(san.toSan(pos, move), `${fen} ${move}`).toBe(want);
    }
  };

  it('8.2.3.3 disambiguation: file, then rank, then both', () => expectSans([
    ['4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1', [['b1d2', 'Nbd2'], ['f3d2', 'Nfd2'], ['f3e5', 'Ne5']]],
    ['4k3/8/8/R7/8/8/8/R3K3 w - - 0 1', [['a1a3', 'R1a3'], ['a5a3', 'R5a3']]],
    ['8/8/1k6/8/7Q/8/8/K3Q2Q w - - 0 1', [['h1e4', 'Qh1e4'], ['h4e4', 'Q4e4'], ['e1e4', 'Qee4']]],
    // A pinned knight is no candidate: no disambiguation (8.2.3.3 counts legal moves only).
    ['4k3/4r3/8/8/8/2N5/4N3/4K3 w - - 0 1', [['c3d5', 'Nd5']]],
  ]));

  it('pawn moves, captures, en passant, promotions, castling, check and mate', () => expectSans([
    ['4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1', [['e5d6', 'exd6'], ['e5e6', 'e6']]],
    ['3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1', [['e7e8q', 'e8=Q+'], ['e7d8q', 'exd8=Q+'], ['e7e8n', 'e8=N']]],
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', [['e1g1', 'O-O'], ['e1c1', 'O-O-O']]],
    ['rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2', [['d8h4', 'Qh4#']]],
  ]));

  it('lenient by default: the forms real files hold', () => {
    const start = P('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    for (const text of ['Nf3', 'Ngf3', 'Ng1f3', 'Ng1-f3', 'Nf3+', 'Nf3#', 'Nf3!?', 'Nf3??']) expect(san.parseSan(start, text)).toBe('g1f3');
    for (const text of ['e4', 'Pe4', 'e2e4', 'e2-e4', 'e4!']) expect(san.parseSan(start, text)).toBe('e2e4');
    const queen = P('4k3/8/8/8/8/8/8/3QK3 w - - 0 1');
    expect(san.parseSan(queen, 'Qd1d2')).toBe('d1d2');
    const castle = P('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect(san.parseSan(castle, '0-0')).toBe('e1g1');
    expect(san.parseSan(castle, '0-0-0')).toBe('e1c1');
    expect(san.parseSan(castle, 'O-O+')).toBe('e1g1');
    const ep = P('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1');
    for (const text of ['exd6', 'exd6e.p.', 'ed6', 'exd6+']) expect(san.parseSan(ep, text)).toBe('e5d6');
    const promo = P('3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1');
    for (const text of ['e8Q', 'e8=Q', 'e8=Q+', 'e7e8Q']) expect(san.parseSan(promo, text)).toBe('e7e8q');
    expect(san.parseSan(promo, 'exd8N')).toBe('e7d8n');
    for (const text of ['--', 'Z0']) expect(san.parseSan(start, text)).toBe('0000');
  });

  it('strict mode accepts only the canonical text', () => {
    const start = P('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(san.parseSan(start, 'Nf3', { strict: true })).toBe('g1f3');
    for (const text of ['Ngf3', 'Nf3+', 'e2e4', 'Pe4', 'Nf3!']) {
      const e = (() => { try { san.parseSan(start, text, { strict: true }); } catch (x) { return x; } })() as SanError;
      expect(e).toBeInstanceOf(SanError);
      expect(e.reason).toBe('not canonical');
    }
    const castle = P('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect(() => san.parseSan(castle, '0-0', { strict: true })).toThrow(SanError);
    const promo = P('3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1');
    expect(() => san.parseSan(promo, 'e8=Q', { strict: true })).toThrow(/e8=Q\+/);
    expect(() => san.parseSan(start, '--', { strict: true })).toThrow(/null move/);
  });

  it('SanError: malformed, illegal, ambiguous with the candidates', () => {
    const knights = P('4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1');
    const err = (text: string) => { try { san.parseSan(knights, text); } catch (x) { return x as SanError; } return undefined; };
    const amb = err('Nd2')!;
    expect(amb).toBeInstanceOf(SanError);
    expect(amb.reason).toBe('ambiguous');
    expect(amb.candidates).toEqual(['b1d2', 'f3d2']);
    expect(amb.message).toContain('"Nd2"');
    for (const text of ['Nd3', 'Ke3', 'e4', 'Bb2', 'O-O', 'e8=Q']) expect(err(text)?.reason, text).toBe('illegal');
    for (const text of ['', 'X', 'Xe4', 'Nf9', 'N', 'e', 'Nf3=Q', 'é4', 'O-O-O-O', 'x'.repeat(100)]) expect(err(text)?.reason, text).toBe('malformed');
    expect(() => san.parseSan(knights, 42 as unknown as string)).toThrow(TypeError);
    expect(() => san.parseSan({} as never, 'e4')).toThrow(TypeError);
  });
});

describe.runIf(nativeApi !== undefined)('native and JS agree (fast-check)', () => {
  const js = createSanApi('js');
  const native = nativeApi ? createSanApi('native') : js;
  const fens = [...PLAYOUTS.filter((_, i) => i % 5 === 0), ...RANDOM.slice(0, 200)];
  const outcome = (api: typeof js, fen: string, text: string, strict: boolean) => {
    try {
      return api.parseSan(jsApi.parseFen(fen), text, { strict });
    } catch (e) {
      return e instanceof SanError ? `${e.reason} ${e.candidates.join(',')} ${e.message}` : `other ${String(e)}`;
    }
  };
  it('parseSan gives the same move or the same SanError on SAN-like noise', () => {
    const alphabet = 'NBRQKPabcdefgh12345678x=+#-O0!?.Z ';
    fc.assert(fc.property(fc.constantFrom(...fens), fc.array(fc.constantFrom(...alphabet), { maxLength: 8 }), fc.boolean(), (fen, chars, strict) => {
      const text = chars.join('');
      expect(outcome(native, fen, text, strict)).toBe(outcome(js, fen, text, strict));
    }), { numRuns: 3000 });
  });
  it('parseSan gives the same move or the same SanError for every legal move written short, long and wrong', () => {
    let ambiguous = 0;
    for (const fen of fens) {
      const pos = jsApi.parseFen(fen);
      for (const uci of jsApi.legalMoves(pos)) {
        const text = js.toSan(pos, uci).replace(/[+#]$/, '');
        const m = /^([NBRQK]?)([a-h]?[1-8]?)(x?)([a-h][1-8])(=[NBRQ])?$/.exec(text);
        const forms = [text];
        if (m) {
          const [, piece, , capture, to, promo = ''] = m;
          forms.push(`${piece}${capture}${to}${promo}`, `${piece}${uci.slice(0, 2)}${capture}${to}${promo}`,
            `${piece}${uci.slice(0, 2)}-${to}${promo}`, `${piece === '' ? 'N' : ''}${to}`, `${piece}${to}${promo === '' ? '=Q' : ''}`);
        }
        for (const form of forms) {
          const got = outcome(native, fen, form, false);
          expect(got, `${fen} ${form}`).toBe(outcome(js, fen, form, false));
          if (got.startsWith('ambiguous')) ambiguous++;
        }
      }
    }
    expect(ambiguous).toBeGreaterThan(20);
  });
  it('sanMoves and toSan agree on every position', () => {
    fc.assert(fc.property(fc.constantFrom(...fens), (fen) => {
      const pos = jsApi.parseFen(fen);
      expect(native.sanMoves(pos)).toEqual(js.sanMoves(pos));
    }), { numRuns: 300 });
  });
});
