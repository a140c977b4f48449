/**
 * Native and JS backends give identical answers for moves and perft: fast-check properties over
 * random legal-looking positions (built by test/patterns/reference-checks.ts from a seed) and random games
 * from them. Skipped when native is not loaded (BITBOARD_PATTERNS_BACKEND=js).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparedApis, comparedRows, jsApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { fenFromBoard, randomBoard, randomEpBoard } from '../patterns/reference-checks.js';
import { MOVE_TOPIC_FUNCTIONS } from './reference-moves.js';

import { NUM_RUNS } from '../support/arbitraries.js';

/** The functions the properties below compare. */
const COMPARED = ['legalMoves', 'legalMovesEncoded', 'makeMove', 'perft', 'perftStats', 'perftDivide', 'perftBatch',
  'perftAsync', 'perftStatsAsync'];

const fen = fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
  const next = rng(seed);
  return fenFromBoard(seed % 4 === 0 ? randomEpBoard(next) : randomBoard(next, 1 + (seed % 12)));
});

describe.skipIf(comparedApis.length === 0).each(comparedRows)('%s and JS agree: moves and perft', (_label, native) => {

  it('covers every function of the topic', () => {
    // The properties below call each of these on both backends; a new moves function fails here
    // until a property compares it.
    expect([...MOVE_TOPIC_FUNCTIONS].sort()).toEqual([...COMPARED].sort());
    for (const name of MOVE_TOPIC_FUNCTIONS) expect(typeof (native as Record<string, unknown>)[name], name).toBe('function');
  });

  it('perft and perftStats with { threads }, perftAsync and perftStatsAsync: the same counts', async () => {
    await fc.assert(fc.asyncProperty(fen, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), async (f, threads, depth) => {
      const j = jsApi.parseFen(f);
      const n = native.parseFen(f);
      const d = Math.min(depth, 3);
      const nodes = jsApi.perft(j, d);
      expect(native.perft(n, d, { threads })).toBe(nodes);
      expect(jsApi.perft(j, d, { threads })).toBe(nodes);
      const stats = jsApi.perftStats(j, Math.min(d, 2));
      expect(native.perftStats(n, Math.min(d, 2), { threads })).toEqual(stats);
      expect(await native.perftAsync(n, d, { threads })).toBe(nodes);
      expect(await jsApi.perftAsync(j, d, { threads })).toBe(nodes);
      expect(await native.perftStatsAsync(n, Math.min(d, 2), { threads })).toEqual(stats);
      expect(await jsApi.perftStatsAsync(j, Math.min(d, 2), { threads })).toEqual(stats);
    }), { numRuns: 60 });
  });

  it('legalMoves, legalMovesEncoded (as sets), perft 1..3, perftStats 2, perftDivide 2', () => {
    fc.assert(fc.property(fen, (f) => {
      const j = jsApi.parseFen(f);
      const n = native.parseFen(f);
      expect(native.legalMoves(n)).toEqual(jsApi.legalMoves(j));
      expect(Array.from(native.legalMovesEncoded(n)).sort()).toEqual(Array.from(jsApi.legalMovesEncoded(j)).sort());
      for (const d of [1, 2, 3]) expect(native.perft(n, d), `${f} depth ${d}`).toBe(jsApi.perft(j, d));
      expect(native.perftStats(n, 2)).toEqual(jsApi.perftStats(j, 2));
      expect([...native.perftDivide(n, 2)]).toEqual([...jsApi.perftDivide(j, 2)]);
    }), { numRuns: NUM_RUNS });
  });

  it('random games: makeMove gives the same FEN, perftBatch the same counts', () => {
    fc.assert(fc.property(fen, fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), (f, picks) => {
      let j = jsApi.parseFen(f);
      let n = native.parseFen(f);
      const seen = [j];
      for (const pick of picks) {
        const moves = jsApi.legalMoves(j);
        if (!moves.length) break;
        const m = moves[pick % moves.length]!;
        j = jsApi.makeMove(j, m);
        n = native.makeMove(n, m);
        expect(native.toFen(n), m).toBe(jsApi.toFen(j));
        seen.push(j);
      }
      const packed = jsApi.packPositions(seen);
      expect(Array.from(native.perftBatch(packed, 2))).toEqual(Array.from(jsApi.perftBatch(packed, 2)));
    }), { numRuns: 100 });
  });
});
