/**
 * The outcome of each game read from PGN (lib/games/outcome.ts), on both readers. Truths: hand-built
 * games whose end follows from the FIDE Laws of Chess (the article cited per case), and random
 * playouts judged by a reference written here over chessops (its legal moves, checkmate, stalemate,
 * insufficient material and FEN with the legal en-passant square): python-chess's meaning of
 * `outcome(claim_draw=True)`, counting repetitions over the whole game from its start; the two
 * readers agree game by game.
 */
import { Chess } from 'chessops/chess';
import { makeFen, parseFen as chessopsFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseUci, makeUci } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import { parsePgn, readPgn, readPgnPositions, readPgnRecords } from '../../lib/games/pgn.js';
import { G, GAME_RECORD, PGN_OUTCOME, PGN_LAST_CHUNK } from '../../lib/backends/js/pgn.js';
import { OUTCOME_TERMINATIONS, type PgnOutcome } from '../../lib/games/outcome.js';
import { nativeApi, wasmApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

const pgnBackends: ('js' | 'native' | 'wasm')[] = [...(['js'] as const), ...(nativeApi ? ['native'] as const : []), ...(wasmApi ? ['wasm'] as const : [])];

const game = (movetext: string, fen?: string) =>
  `[Event "t"]\n${fen ? `[SetUp "1"]\n[FEN "${fen}"]\n` : ''}\n${movetext}\n`;
const draw = (termination: PgnOutcome['termination']): PgnOutcome => ({ termination, winner: null });

// [what it shows, PGN, expected outcome]
const CASES: [string, string, PgnOutcome | null][] = [
  // 5.1.1: the player who checkmates wins (the fool's mate).
  ['checkmate, black wins (5.1.1)', game('1. f3 e5 2. g4 Qh4# 0-1'), { termination: 'checkmate', winner: 'black' }],
  ['checkmate, white wins (5.1.1)', game("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"), { termination: 'checkmate', winner: 'white' }],
  // 5.2.1: no legal move and not in check (Sam Loyd's ten-move stalemate).
  ['stalemate (5.2.1)', game('1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2'), draw('stalemate')],
  // 5.2.2: no series of legal moves can mate (K v K after the last capture).
  ['insufficient material, K v K (5.2.2)', game('1. Kxd2 *', '4k3/8/8/8/8/8/3r4/4K3 w - - 0 1'), draw('insufficient material')],
  // A stalemate with K+B v K: insufficient material is checked first (python-chess's order).
  ['insufficient material before stalemate (5.2.2)', game('1. Bd6 *', 'k7/8/1K6/8/5B2/8/8/8 w - - 0 1'), draw('insufficient material')],
  // K+N v K+N can still be mated (a helpmate): no outcome.
  ['K+N v K+N goes on', game('1. Kxd2 *', '4k3/8/4n3/8/8/8/3r4/4KN2 w - - 0 1'), null],
  // 9.6.2: 75 moves of each player without a capture or pawn move end the game...
  ['seventy-five moves (9.6.2)', game('1. Ra3 *', '4k3/8/8/8/8/8/R7/4K3 w - - 149 100'), draw('seventyfive moves')],
  // ... unless the last move mated (9.6.2: checkmate takes precedence).
  ['checkmate on the 75th move (9.6.2)', game('1. Rh8# *', 'k7/8/1K6/8/8/8/8/7R w - - 149 100'), { termination: 'checkmate', winner: 'white' }],
  // 9.3.2: the last 50 moves of each player with no capture or pawn move: claimable.
  ['fifty moves (9.3.2)', game('1. Ra3 *', '4k3/8/8/8/8/8/R7/4K3 w - - 99 100'), draw('fifty moves')],
  // 9.3.1: the next move would complete the 50 (black has a quiet king move).
  ['fifty moves by the next move (9.3.1)', game('1. Ra3 *', '4k3/8/8/8/8/8/R7/4K3 w - - 98 100'), draw('fifty moves')],
  ['48.5 moves: nothing yet', game('1. Ra3 *', '4k3/8/8/8/8/8/R7/4K3 w - - 97 100'), null],
  // 9.3.1 needs a move that is no capture and no pawn move: black's only moves are a7's pushes.
  ['fifty moves: no quiet move to claim with', game('1. Kb1 *', '7k/p5R1/5R1P/8/8/8/8/K7 w - - 98 100'), null],
  // 9.6.1: the same position five times (the start position after four knight round trips).
  ['fivefold repetition (9.6.1)', game('1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 *'), draw('fivefold repetition')],
  // 9.2.2: the same position a third time: claimable.
  ['threefold repetition (9.2.2)', game('1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *'), draw('threefold repetition')],
  // 9.2.1: the next move (4... Ng8) would make the start position appear the third time.
  ['threefold repetition by the next move (9.2.1)', game('1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *'), draw('threefold repetition')],
  // 9.2.3: after 2... d5 en passant (exd6) is possible, so that position is not the one after
  // 4... Nb8; the next move 6... Nb8 would make it only the second.
  ['repetition: a possible en passant makes a position differ (9.2.3)', game('1. e4 Nf6 2. e5 d5 3. Nf3 Nc6 4. Ng1 Nb8 5. Nf3 Nc6 6. Ng1 *'), null],
  // 9.2.3: after 1... d5 the en-passant capture exd6 would expose the king on h5 to the rook on a5:
  // not possible, so that position is the one after 3... Ke8, and 5... Ke8 would make it the third.
  ['repetition: an impossible en passant does not count (9.2.3)', game('1... d5 2. Kh6 Ke7 3. Kh5 Ke8 4. Kh6 Ke7 5. Kh5 *', '4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1'), draw('threefold repetition')],
  // 9.2.3: the same squares but without the castling rights of the start: not a repetition of it.
  ['repetition: lost castling rights make a position differ (9.2.3)', game('1. Nf3 Nf6 2. Rg1 Rg8 3. Rh1 Rh8 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 *'), null],
  // Null moves (PGN "--") pass the move: the side to move differs around them. The start
  // position with white to move comes back after each knight round trip of white's.
  ['null moves: the start position twice', game('1. Nf3 -- 2. Ng1 -- *'), null],
  ['null moves: the start position three times (9.2.2)', game('1. Nf3 -- 2. Ng1 -- 3. Nf3 -- 4. Ng1 -- *'), draw('threefold repetition')],
  ['a game in progress', game('1. e4 e5 2. Nf3 *'), null],
  ['no moves', game('*'), null],
];

describe.each(pgnBackends)('game outcome (%s reader)', (backend) => {
  it.each(CASES)('%s', (_what, pgn, expected) => {
    const [g] = parsePgn(pgn, { backend });
    expect(g!.error).toBeUndefined();
    expect(g!.outcome).toEqual(expected);
  });

  it('readPgn and readPgnPositions({ games: true }) give the same outcomes as parsePgn', async () => {
    const text = CASES.map((c) => c[1]).join('\n');
    const expected = parsePgn(text, { backend }).map((g) => g.outcome);
    expect(expected).toEqual(CASES.map((c) => c[2]));
    const streamed: unknown[] = [];
    for await (const g of readPgn(text, { backend })) streamed.push(g.outcome);
    expect(streamed).toEqual(expected);
    const fromPositions: unknown[] = [];
    for await (const c of readPgnPositions(text, { backend, games: true })) fromPositions.push(...c.games.map((g) => g.outcome));
    expect(fromPositions).toEqual(expected);
  });

  it('a bad game has no outcome; { outcome: false } leaves the field out', () => {
    const text = `${game('1. f3 e5 2. g4 Qh5 3. Qh4# 0-1')}\n${game('1. f3 e5 2. g4 Qh4# 0-1')}`;
    const [bad, good] = parsePgn(text, { backend });
    expect(bad!.error?.reason).toBe('illegal move');
    expect(bad!.outcome).toBeNull();
    expect(good!.outcome).toEqual({ termination: 'checkmate', winner: 'black' });
    const [off] = parsePgn(game('1. f3 e5 2. g4 Qh4# 0-1'), { backend, outcome: false });
    expect('outcome' in off!).toBe(false);
    expect(() => parsePgn('', { backend, outcome: 1 as never })).toThrow(TypeError);
  });
});

/** python-chess's outcome(claim_draw=True) of a game, over chessops (see the file comment). */
function referenceOutcome(startFen: string, ucis: string[]): PgnOutcome | null {
  const pos = Chess.fromSetup(chessopsFen(startFen).unwrap()).unwrap();
  const key = (p: Chess) => makeFen(p.toSetup()).split(' ').slice(0, 4).join(' ');
  const seen = [key(pos)];
  for (const u of ucis) {
    pos.play(parseUci(u)!);
    seen.push(key(pos));
  }
  const count = (k: string) => seen.filter((s) => s === k).length;
  if (pos.isCheckmate()) return { termination: 'checkmate', winner: pos.turn === 'white' ? 'black' : 'white' };
  if (pos.isInsufficientMaterial()) return draw('insufficient material');
  if (pos.isStalemate()) return draw('stalemate');
  if (pos.halfmoves >= 150) return draw('seventyfive moves');
  const here = count(key(pos));
  if (here >= 5) return draw('fivefold repetition');
  const moves: { uci: string; zeroing: boolean }[] = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const pawn = pos.board.get(from)?.role === 'pawn';
      const capture = pos.board.get(to)?.color === (pos.turn === 'white' ? 'black' : 'white');
      moves.push({ uci: makeUci({ from, to, promotion: pawn && (to < 8 || to >= 56) ? 'queen' : undefined }), zeroing: pawn || capture });
    }
  }
  if (pos.halfmoves >= 100 || (pos.halfmoves === 99 && moves.some((m) => !m.zeroing))) return draw('fifty moves');
  if (here >= 3) return draw('threefold repetition');
  for (const m of moves) {
    const child = pos.clone();
    child.play(parseUci(m.uci)!);
    if (count(key(child)) >= 2) return draw('threefold repetition');
  }
  return null;
}

describe('the reference', () => {
  it('gives every hand-built case (without null moves) its expected outcome', () => {
    for (const [what, pgn, expected] of CASES) {
      const [g] = parsePgn(pgn, { backend: 'js' });
      if (g!.moves.includes('0000')) continue;
      expect(referenceOutcome(g!.startFen, g!.moves), what).toEqual(expected);
    }
  });
});

const SPARSE_STARTS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
  '4k3/8/3n4/8/8/3B4/8/4K3 w - - 90 60',
  '4k3/2p5/8/3P4/8/8/8/R3K3 b Q - 95 70',
  '2k5/8/1r6/8/8/6N1/8/3K4 w - - 140 120',
  '8/8/4k3/8/2p5/8/3P4/4K3 w - - 0 1',
];

/** A random playout as PGN: moves drawn at random, often undoing the side's previous move (a shuffle). */
function playout(next: () => number): { pgn: string; fen: string; ucis: string[] } {
  const fen = SPARSE_STARTS[Math.floor(next() * SPARSE_STARTS.length)]!;
  const pos = Chess.fromSetup(chessopsFen(fen).unwrap()).unwrap();
  const ucis: string[] = [];
  const sans: string[] = [];
  const length = Math.floor(next() * 160);
  for (let ply = 0; ply < length && !pos.isEnd(); ply++) {
    const legal: string[] = [];
    for (const [from, dests] of pos.allDests()) {
      for (const to of dests) {
        const promo = pos.board.get(from)?.role === 'pawn' && (to < 8 || to >= 56) ? 'queen' : undefined;
        legal.push(makeUci({ from, to, promotion: promo }));
      }
    }
    let u = legal[Math.floor(next() * legal.length)]!;
    const back = ucis.length >= 2 ? ucis[ucis.length - 2]!.slice(2, 4) + ucis[ucis.length - 2]!.slice(0, 2) : '';
    if (next() < 0.6 && legal.includes(back)) u = back;
    const move = parseUci(u)!;
    sans.push(makeSan(pos, move));
    pos.play(move);
    ucis.push(u);
  }
  const movetext = sans.map((s, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${s}` : s)).join(' ');
  const black = fen.split(' ')[1] === 'b';
  const text = black && sans.length ? movetext.replace(/^1\. /, '1... ') : movetext;
  return { pgn: game(`${text} *`, fen), fen, ucis };
}

describe('game outcome on random playouts', () => {
  const next = rng(3535);
  const games = Array.from({ length: 300 }, () => playout(next));
  const text = games.map((g) => g.pgn).join('\n');
  const expected = games.map((g) => referenceOutcome(g.fen, g.ucis));

  it('covers every termination', () => {
    const seen = new Set(expected.map((o) => o?.termination ?? null));
    expect([...seen].sort()).toEqual([...OUTCOME_TERMINATIONS].sort());
  });

  it.each(pgnBackends)('the %s reader agrees with the reference on every game', (backend) => {
    const read = parsePgn(text, { backend });
    expect(read.length).toBe(games.length);
    read.forEach((g, i) => {
      expect(g.error).toBeUndefined();
      expect(g.moves.length).toBe(games[i]!.ucis.length);
      expect(g.outcome, games[i]!.pgn).toEqual(expected[i]);
    });
  });

  it.skipIf(!nativeApi)('native and JS records carry the same outcome codes', () => {
    const flags = PGN_OUTCOME | PGN_LAST_CHUNK;
    const a = readPgnRecords(text, flags, {}, 'js');
    const b = readPgnRecords(text, flags, {}, 'native');
    const codes = (r: typeof a) => Array.from({ length: r.games.length / GAME_RECORD }, (_, i) => r.games[i * GAME_RECORD + G.outcome]);
    expect(codes(b)).toEqual(codes(a));
  });
});
