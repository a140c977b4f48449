/**
 * see, seeGe and seeBatch on every backend, against the exchange played out capture by capture in
 * reference-motifs.ts (seeRef): hand-made positions whose value is worked out in the comments
 * (the classic rook-takes-defended-pawn 100 - 500, x-rays, pins, the king rule, en passant,
 * promotion, castling), every legal capture (and some quiet moves) of random positions and of the
 * fixture games, seeGe at thresholds around the value, seeBatch against the single calls byte for
 * byte, and the errors (an illegal move is a MoveError everywhere, in a batch too).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backends, jsApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';
import { rng } from '../patterns/reference.js';
import { boardFromFen, fenFromBoard, randomBoard, randomEpBoard, uci } from '../patterns/reference-checks.js';
import { legalMoves, seeRef } from './reference-motifs.js';
import { parsePgn } from '../../lib/games/index.js';
import { encodeMove } from '../../lib/moves/moves.js';

/** [what, FEN, UCI move, value worked out by hand]. */
const HAND: [string, string, string, number][] = [
  // RxP, the pawn defended by a pawn: +100, then cxd5 takes the rook: 100 - 500.
  ['rook takes a pawn defended by a pawn', '4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1', 'd1d5', -400],
  ['rook takes an undefended pawn', '4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1', 'd1d5', 100],
  // Rd2xd5 Rd7xd5 Rd1xd5 (the x-ray behind d2) Rd8xd5: white ends 100 - 500 + 500 - 500 = -400
  // whether it recaptures or not.
  ['doubled rooks on both sides (x-rays)', '3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1', 'd2d5', -400],
  // The pawn e6 would take back, but it is pinned to its king by the rook e1, which stays on the
  // board: it takes no part, the rook wins the pawn.
  ['the defender is pinned', '4k3/8/4p3/3p4/8/8/8/3RR2K w - - 0 1', 'd1d5', 100],
  // Without the pin (the white rook gone) exd5 wins the rook.
  ['the same defender, not pinned', '4k3/8/4p3/3p4/8/8/8/3R3K w - - 0 1', 'd1d5', -400],
  // The black king would take the rook, but the bishop f3 covers d5: the king may not.
  ['the king may not take a covered piece', '8/8/4k3/3p4/8/5B2/8/K2R4 w - - 0 1', 'd1d5', 100],
  ['the king takes an uncovered piece', '8/8/4k3/3p4/8/8/8/K2R4 w - - 0 1', 'd1d5', -400],
  // En passant takes the pawn d5 (100); the rook d8 takes back on d6: 100 - 100.
  ['en passant, recaptured', 'k2r4/8/8/3pP3/8/8/8/K7 w - d6 0 1', 'e5d6', 0],
  ['en passant', 'k7/8/8/3pP3/8/8/8/K7 w - d6 0 1', 'e5d6', 100],
  // exd8=Q takes the rook (500); the king c8 takes back what counts as a pawn: 500 - 100.
  ['a promotion counts as a pawn', '2kr4/4P3/8/8/8/8/8/K7 w - - 0 1', 'e7d8q', 400],
  ['castling', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 'e1g1', 0],
  // A quiet queen move to a square the pawn c5 attacks: nothing taken, the queen lost.
  ['a quiet move into a pawn attack', '4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1', 'd1d4', -900],
  // Nxe7 takes the bishop (300); of its defenders the queen (before the king) takes the knight back
  // (300); white has nothing left: 0.
  ['knight takes a bishop defended by the queen', '4k3/3qb3/8/3N4/8/8/8/4K3 w - - 0 1', 'd5e7', 0],
];

/** Every legal move of a FEN that captures, plus every fourth quiet move. */
function movesOf(fen: string): string[] {
  const b = boardFromFen(fen);
  const all = legalMoves(b);
  return all.filter((m, i) => b.cells[m.to] || (b.cells[m.from]!.type === 0 && m.to === b.ep) || i % 4 === 0).map(uci);
}

const randomFen = (seed: number): string => {
  const next = rng(seed);
  return fenFromBoard(seed % 5 === 0 ? randomEpBoard(next) : randomBoard(next, 4 + (seed % 11)));
};

/** [FEN, move, reference value] over the fixture games (every capture and some quiet moves of every 3rd position). */
function gameCases(): [string, string, number][] {
  const out: [string, string, number][] = [];
  for (const file of ['chessbase.pgn', 'quirky.pgn']) {
    const text = readFileSync(new URL(`../fixtures/pgn/${file}`, import.meta.url), 'utf8');
    for (const g of parsePgn(text)) {
      if (g.error || g.moves.includes('0000')) continue;
      let pos = jsApi.parseFen(g.startFen);
      g.moves.forEach((m, ply) => {
        if (ply % 3 === 0) {
          const fen = jsApi.toFen(pos);
          for (const mv of movesOf(fen)) out.push([fen, mv, seeRef(boardFromFen(fen), move(mv))!]);
        }
        pos = jsApi.makeMove(pos, m);
      });
    }
  }
  return out;
}

/** A UCI string as reference-checks' Move. */
function move(u: string) {
  const code = encodeMove(u);
  return { from: code & 63, to: (code >> 6) & 63, promotion: code >> 12 };
}

const GAME_CASES = gameCases();

describe('the reference', () => {
  it.each(HAND)('%s: %s %s is %i', (_what, fen, mv, value) => {
    expect(seeRef(boardFromFen(fen), move(mv))).toBe(value);
  });
});

describe.each(backends)('%s: static exchange evaluation', (_label, api) => {
  it.each(HAND)('%s', (_what, fen, mv, value) => {
    const pos = api.parseFen(fen);
    expect(api.see(pos, mv)).toBe(value);
    for (const t of [value - 1, value, value + 1]) expect(api.seeGe(pos, mv, t)).toBe(value >= t);
  });

  it('matches the reference on the legal moves of random positions, seeGe too', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: -1000, max: 1000 }), (seed, t) => {
      const fen = randomFen(seed);
      const pos = api.parseFen(fen);
      for (const mv of movesOf(fen)) {
        const want = seeRef(boardFromFen(fen), move(mv))!;
        expect(api.see(pos, mv), `${fen} ${mv}`).toBe(want);
        expect(api.seeGe(pos, mv, t), `${fen} ${mv} >= ${t}`).toBe(want >= t);
        expect(api.seeGe(pos, mv, want)).toBe(true);
        expect(api.seeGe(pos, mv, want + 1)).toBe(false);
      }
    }), { numRuns: 200 });
  });

  it(`matches the reference on positions of the fixture games (${GAME_CASES.length} moves)`, () => {
    expect(GAME_CASES.length).toBeGreaterThan(200);
    for (const [fen, mv, want] of GAME_CASES) expect(api.see(api.parseFen(fen), mv), `${fen} ${mv}`).toBe(want);
    // Real games have losing and winning captures both.
    expect(GAME_CASES.some(([, , v]) => v < 0) && GAME_CASES.some(([, , v]) => v > 0)).toBe(true);
  });

  it('seeBatch gives the single calls, byte for byte', () => {
    const cases = [...HAND.map(([, f, m]) => [f, m] as const), ...GAME_CASES.slice(0, 400).map(([f, m]) => [f, m] as const)];
    const batch = api.PositionBatch.fromFens(cases.map(([f]) => f));
    const moves = Uint16Array.from(cases.map(([, m]) => encodeMove(m)));
    const got = api.seeBatch(batch, moves);
    expect(got).toBeInstanceOf(Int16Array);
    const singles = Int16Array.from(cases.map(([f, m]) => api.see(api.parseFen(f), m)));
    expectSameBytes(got, singles, 'seeBatch vs see');
    // Into a given out array, and the same on the JS backend.
    const out = new Int16Array(cases.length);
    expect(api.seeBatch(batch, moves, out)).toBe(out);
    expectSameBytes(out, jsApi.seeBatch(jsApi.PositionBatch.fromFens(cases.map(([f]) => f)), moves), 'seeBatch vs the JS backend');
  });

  it('skips the slots of lines that did not parse', () => {
    const batch = api.PositionBatch.fromFens(['4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1', 'not a fen']);
    expect(Array.from(api.seeBatch(batch, Uint16Array.from([encodeMove('d1d5'), 0])))).toEqual([100, 0]);
  });

  it('an illegal move is a MoveError, in a batch with its index; bad arguments are TypeErrors and RangeErrors', () => {
    const pos = api.parseFen('4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1');
    expect(() => api.see(pos, 'd1d8')).toThrow(expect.objectContaining({ name: 'MoveError' }));
    expect(() => api.see(pos, 'e8d8')).toThrow(expect.objectContaining({ name: 'MoveError' }));
    expect(() => api.seeGe(pos, 'd1d6', 0)).toThrow(expect.objectContaining({ name: 'MoveError' }));
    expect(() => api.seeGe(pos, 'd1d5', 0.5)).toThrow(RangeError);
    expect(() => api.seeGe(pos, 'd1d5', 100001)).toThrow(RangeError);
    expect(() => api.seeGe(pos, 'd1d5', '0' as unknown as number)).toThrow(TypeError);
    const batch = api.PositionBatch.fromFens(['4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1', '4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1']);
    expect(() => api.seeBatch(batch, Uint16Array.from([encodeMove('d1d5'), encodeMove('d1d8')])))
      .toThrow(expect.objectContaining({ name: 'MoveError', message: expect.stringContaining('1') }));
    expect(() => api.seeBatch(batch, new Uint16Array(3))).toThrow(RangeError);
    expect(() => api.seeBatch(batch, new Uint8Array(2) as unknown as Uint16Array)).toThrow(TypeError);
    expect(() => api.seeBatch(batch, new Uint16Array(2), new Int32Array(2) as unknown as Int16Array)).toThrow(TypeError);
    expect(() => api.seeBatch({} as never, new Uint16Array(2))).toThrow(TypeError);
    const words = batch.words.slice();
    words[10] = words[11]!; // white and black overlap in position 1
    expect(() => api.seeBatch(api.PositionBatch.fromPacked(words), Uint16Array.from([encodeMove('d1d5'), encodeMove('d1d5')])))
      .toThrow(RangeError);
  });
});
