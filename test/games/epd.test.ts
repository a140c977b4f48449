/**
 * EPD (PGN standard, section 16.2) on both backends: the Bratko-Kopec test suite (Bratko and Kopec,
 * "A Test for Comparison of Human and Computer Performance in Chess", 1982; the 24 positions as the
 * EPD file circulated with it) with each best move's UCI checked by hand and by chess.js, operations
 * of every kind, malformed lines, round trips toEpd -> parseEpd on random positions, and native == JS.
 */
import { Chess } from 'chess.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEpdApi, EpdError, type EpdOps } from '../../lib/games/epd.js';
import { FenError } from '../../lib/core/position.js';
import { NUM_RUNS } from '../support/arbitraries.js';
import { CPW_CHESS960_POSITIONS } from '../support/chess960.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { fenFromBoard, randomBoard } from '../patterns/reference-checks.js';

/** The Bratko-Kopec suite and the UCI of each best move, worked out by hand from the diagram. */
const BRATKO_KOPEC: [line: string, bm: string[]][] = [
  ['1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";', ['d6d1']],
  ['3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5; id "BK.02";', ['d4d5']],
  ['2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - bm f5; id "BK.03";', ['f6f5']],
  ['rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - bm e6; id "BK.04";', ['e5e6']],
  ['r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - bm Nd5 a4; id "BK.05";', ['c3d5', 'a2a4']],
  ['2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - bm g6; id "BK.06";', ['g5g6']],
  ['1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - bm Nf6; id "BK.07";', ['h5f6']],
  ['4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - bm f5; id "BK.08";', ['f4f5']],
  ['2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - bm f5; id "BK.09";', ['f4f5']],
  ['3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - bm Ne5; id "BK.10";', ['c6e5']],
  ['2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - bm f4; id "BK.11";', ['f2f4']],
  ['r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - bm Bf5; id "BK.12";', ['d7f5']],
  ['r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - bm b4; id "BK.13";', ['b2b4']],
  ['rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - bm Qd2 Qe1; id "BK.14";', ['d1d2', 'd1e1']],
  ['2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - bm Qxg7+; id "BK.15";', ['g4g7']],
  ['r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - bm Ne4; id "BK.16";', ['d2e4']],
  ['r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - bm h5; id "BK.17";', ['h7h5']],
  ['r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - bm Nb3; id "BK.18";', ['c5b3']],
  ['3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - bm Rxe4; id "BK.19";', ['e8e4']],
  ['r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - bm g4; id "BK.20";', ['g3g4']],
  ['3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - bm Nh6; id "BK.21";', ['f5h6']],
  ['2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - bm Bxe4; id "BK.22";', ['b7e4']],
  ['r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - bm f6; id "BK.23";', ['f7f6']],
  ['r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - bm f4; id "BK.24";', ['f2f4']],
];

const epdBackends: [string, ReturnType<typeof createEpdApi>, typeof jsApi][] = [['js', createEpdApi('js'), jsApi]];
if (nativeApi) epdBackends.push(['native', createEpdApi('native'), nativeApi]);

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

/** Random operations for a position: bm / am from its legal moves, a pv along a random line, strings, integers. */
function randomOps(api: typeof jsApi, fen: string, next: () => number): EpdOps {
  const pos = api.parseFen(fen);
  const legal = api.legalMoves(pos);
  const ops: EpdOps = {};
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  if (legal.length && next() < 0.8) ops.bm = [...new Set([pick(legal), pick(legal)])];
  if (legal.length && next() < 0.4) ops.am = [pick(legal)];
  if (legal.length && next() < 0.5) {
    const pv: string[] = [];
    let at = pos;
    for (let i = 0; i < 1 + Math.floor(next() * 5); i++) {
      const moves = api.legalMoves(at);
      if (!moves.length) break;
      const m = pick(moves);
      pv.push(m);
      at = api.makeMove(at, m);
    }
    ops.pv = pv;
  }
  if (next() < 0.7) ops.id = `pos ${Math.floor(next() * 1000)}; "x"`.replace(/"/g, '');
  if (next() < 0.5) ops.acd = Math.floor(next() * 40);
  if (next() < 0.5) ops.ce = Math.floor(next() * 2000) - 1000;
  if (next() < 0.3) ops.dm = Math.floor(next() * 20) - 10;
  if (next() < 0.5) ops.c0 = next() < 0.2 ? '' : 'a comment; with a semicolon';
  if (next() < 0.3) ops.noop = [];
  if (next() < 0.3) ops.xyz_1 = ['token', 'another'];
  ops.hmvc = pos.halfmoveClock;
  ops.fmvn = pos.fullmoveNumber;
  return ops;
}

describe.each(epdBackends)('EPD (%s)', (_name, epd, api) => {
  it.each(BRATKO_KOPEC)('Bratko-Kopec %s', (line, bm) => {
    const { position, ops } = epd.parseEpd(line);
    const fields = line.split(' ').slice(0, 4).join(' ');
    expect(api.toFen(position)).toBe(`${fields} 0 1`);
    expect(ops.bm).toEqual(bm);
    expect(ops.id).toMatch(/^BK\.\d\d$/);
    expect(Object.keys(ops)).toEqual(['bm', 'id']);
    // chess.js reads the same SAN as the same moves.
    const sans = line.split(' bm ')[1]!.split(';')[0]!.split(' ');
    expect(sans.map((s) => new Chess(`${fields} 0 1`).move(s).lan)).toEqual(bm);
    // Written back, the line is the suite's line: the same SAN, the same order.
    expect(epd.toEpd(position, ops)).toBe(line);
  });

  it('Chess960: Shredder-FEN lines by themselves, X-FEN with { chess960 }, castling SAN, written back', () => {
    // The chess programming wiki's Chess960 perft positions, as EPD lines: Shredder-FEN is Chess960 as it stands.
    for (const fen of CPW_CHESS960_POSITIONS) {
      const fields = fen.split(' ').slice(0, 4).join(' ');
      const { position } = epd.parseEpd(`${fields} id "cpw";`);
      expect(position.chess960).toBe(true);
      expect(api.toFen(position, { shredder: true })).toBe(`${fields} 0 1`);
      expect(epd.toEpd(position, { id: 'cpw' }, { shredder: true })).toBe(`${fields} id "cpw";`);
      expect(epd.toEpd(position, { id: 'cpw' })).toBe(`${api.toFen(position).split(' ').slice(0, 4).join(' ')} id "cpw";`);
    }
    // King e1, rooks b1 and g1 (X-FEN KQkq names the outermost rooks). FIDE Laws, Chess960 appendix:
    // O-O-O puts the king on c1 and the rook on d1, written as the king taking its own rook (b1).
    const line = '1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - bm O-O-O; id "960";';
    expect(thrown(() => epd.parseEpd(line))).toBeInstanceOf(FenError);
    const { position, ops } = epd.parseEpd(line, { chess960: true });
    expect(position.chess960).toBe(true);
    expect(position.castlingFiles).toEqual([6, 1, 6, 1]);
    expect(ops.bm).toEqual(['e1b1']);
    expect(api.legalMoves(position)).toContain('e1b1');
    expect(epd.toEpd(position, ops)).toBe(line);
    expect(epd.toEpd(position, ops, { shredder: true })).toBe('1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - bm O-O-O; id "960";');
    // Bad options name the function.
    expect(() => epd.parseEpd(line, { chess960: 'yes' } as never)).toThrow(/^parseEpd: options.chess960 must be a boolean/);
    expect(() => epd.toEpd(position, ops, 5 as never)).toThrow(/^toEpd: options must be an object/);
  });

  it('operations of every kind: moves, strings, integers, clocks, unknown opcodes', () => {
    const line = ' rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4; am f3 g4; pm Nf3; sm c4;'
      + ' pv e4 e5 Nf3 Nc6 Bb5; id "opening; test"; c0 "first"; c9 ""; v0 "Ruy Lopez"; acd 12; acn 123456;'
      + ' acs 3; ce -35; dm 4; hmvc 7; fmvn 42; rc 2; noop; tcsi 1.2.3.4 1; eco "C60" ';
    const { position, ops } = epd.parseEpd(line);
    expect(ops).toEqual({
      bm: ['e2e4', 'd2d4'], am: ['f2f3', 'g2g4'], pm: 'g1f3', sm: 'c2c4', pv: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5'],
      id: 'opening; test', c0: 'first', c9: '', v0: 'Ruy Lopez', acd: 12, acn: 123456, acs: 3, ce: -35, dm: 4, hmvc: 7,
      fmvn: 42, rc: 2, noop: [], tcsi: ['1.2.3.4', '1'], eco: 'C60',
    });
    expect(position.halfmoveClock).toBe(7);
    expect(position.fullmoveNumber).toBe(42);
    // The last semicolon may be missing; several spaces and tabs separate as one.
    expect(epd.parseEpd('8/8/8/8/8/2k5/8/K7 w - -\tacd   5').ops).toEqual({ acd: 5 });
    expect(epd.parseEpd('8/8/8/8/8/2k5/8/K7 w - -').ops).toEqual({});
    expect(epd.parseEpd('8/8/8/8/8/2k5/8/K7 w - - dm -2;').ops.dm).toBe(-2);
  });

  it('malformed lines: EpdError with its problem, FenError for the position fields, TypeError / RangeError for non-lines', () => {
    const base = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -';
    const cases: [string, string][] = [
      ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq', 'fields'],
      ['', 'fields'],
      [`${base} 1bm e4;`, 'opcode'],
      [`${base} bm e4; ;`, 'opcode'],
      [`${base} abcdefghijklmnop 1;`, 'opcode'],
      [`${base} id "unterminated;`, 'unterminated'],
      [`${base} id "a"b;`, 'operand'],
      [`${base} id a"b";`, 'operand'],
      [`${base} id "a" "b";`, 'operand'],
      [`${base} id;`, 'operand'],
      [`${base} bm;`, 'operand'],
      [`${base} pm e4 d4;`, 'operand'],
      [`${base} acd 1 2;`, 'operand'],
      [`${base} bm e5;`, 'move'],
      [`${base} bm Nc3 Zz9;`, 'move'],
      [`${base} am Ke2;`, 'move'],
      [`${base} pv e4 e5 e4;`, 'move'],
      [`${base} acd x;`, 'number'],
      [`${base} ce 1.5;`, 'number'],
      [`${base} acd 1234567890123456;`, 'number'],
      [`${base} hmvc -1;`, 'number'],
      [`${base} fmvn 0;`, 'number'],
      [`${base} id "a"; id "b";`, 'duplicate'],
    ];
    for (const [line, problem] of cases) {
      const e = thrown(() => epd.parseEpd(line));
      expect(e, line).toBeInstanceOf(EpdError);
      expect((e as EpdError).problem, line).toBe(problem);
    }
    expect(() => epd.parseEpd('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - bm e4;')).toThrow(FenError);
    expect(() => epd.parseEpd('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - bm e4;')).toThrow(FenError);
    expect(() => epd.parseEpd(`${base} hmvc 2000000;`)).toThrow(FenError);
    expect(() => epd.parseEpd(42 as never)).toThrow(TypeError);
    expect(() => epd.parseEpd(`${base} c0 "${'x'.repeat(5000)}";`)).toThrow(RangeError);
  });

  it('toEpd refuses what it cannot write, naming the operation', () => {
    const pos = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    const cases: [EpdOps, string][] = [
      [{ bm: ['e2e5'] }, 'move'], [{ bm: 'e2e4' as never }, 'move'], [{ pm: 'e7e5' }, 'move'], [{ pv: ['e2e4', 'e2e4'] }, 'move'],
      [{ acd: 1.5 }, 'number'], [{ acd: 'deep' as never }, 'number'], [{ id: 'has "quotes"' }, 'operand'], [{ id: 3 as never }, 'operand'],
      [{ foo: ['two words'] }, 'operand'], [{ foo: {} as never }, 'operand'], [{ '1x': 'a' }, 'opcode'],
    ];
    for (const [ops, problem] of cases) {
      const e = thrown(() => epd.toEpd(pos, ops));
      expect(e, JSON.stringify(ops)).toBeInstanceOf(EpdError);
      expect((e as EpdError).problem, JSON.stringify(ops)).toBe(problem);
    }
    expect(() => epd.toEpd({} as never)).toThrow(TypeError);
    expect(() => epd.toEpd(pos, null as never)).toThrow(TypeError);
    expect(epd.toEpd(pos)).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -');
    expect(epd.toEpd(pos, { noop: [], id: 'x', bm: undefined })).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - noop; id "x";');
  });

  it('round trip: parseEpd(toEpd(pos, ops)) gives the position (clocks through hmvc / fmvn) and the operations back', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      const next = rng(seed);
      const fen = fenFromBoard(randomBoard(next, 1 + (seed % 12)));
      const ops = randomOps(api, fen, next);
      const line = epd.toEpd(api.parseFen(fen), ops);
      const back = epd.parseEpd(line);
      expect(api.toFen(back.position), line).toBe(api.toFen(api.parseFen(fen)));
      expect(back.ops, line).toEqual(ops);
      expect(epd.toEpd(back.position, back.ops)).toBe(line);
      // chess.js reads the written SAN as the same moves.
      for (const [uci, san] of (ops.bm ?? []).map((m, i) => [m, line.split(' bm ')[1]!.split(';')[0]!.split(' ')[i]!])) {
        expect(new Chess(fen).move(san).lan).toBe(uci);
      }
    }), { numRuns: NUM_RUNS });
  });
});

describe.runIf(nativeApi)('EPD: native and JS agree', () => {
  const js = createEpdApi('js');
  const native = createEpdApi('native');
  it('on random lines, good and damaged', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(), fc.string({ maxLength: 6 }), (seed, cut, junk) => {
      const next = rng(seed);
      const fen = fenFromBoard(randomBoard(next, 1 + (seed % 12)));
      const line = js.toEpd(jsApi.parseFen(fen), randomOps(jsApi, fen, next));
      for (const text of [line, line.slice(0, cut % (line.length + 1)) + junk]) {
        const a = (() => { try { const r = js.parseEpd(text); return { fen: jsApi.toFen(r.position), ops: r.ops }; } catch (e) { return (e as Error).constructor.name; } })();
        const b = (() => { try { const r = native.parseEpd(text); return { fen: nativeApi!.toFen(r.position), ops: r.ops }; } catch (e) { return (e as Error).constructor.name; } })();
        expect(b, text).toEqual(a);
      }
    }), { numRuns: NUM_RUNS });
  });
});
