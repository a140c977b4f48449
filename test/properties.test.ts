/**
 * Native and JS backends give identical answers: fast-check properties over arbitrary 64-bit
 * bitboards and squares, for every function and every batch form. Skipped when native is not
 * loaded (BITBOARD_PATTERNS_BACKEND=js).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNIGHT_DIRECTIONS } from '../lib/backend.js';
import type { Api } from '../lib/api.js';
import { NUM_RUNS, anySet, color, square } from './arbitraries.js';
import { comparedApis, comparedRows, jsApi } from './backends.js';
import { CHECK_TOPIC_FUNCTIONS } from './reference-checks.js';
import { MOVE_TOPIC_FUNCTIONS } from './reference-moves.js';

const squareOrSet = fc.oneof(square, anySet);

const u8 = (xs: number[]) => Uint8Array.from(xs);
const u64 = (xs: bigint[]) => BigUint64Array.from(xs);
const batchOf = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { maxLength: 40 });

type AnyFn = (...args: unknown[]) => unknown;

function fn(api: Api, name: string): AnyFn {
  let v: unknown = api;
  for (const part of name.split('.')) v = (v as Record<string, unknown>)[part];
  return v as AnyFn;
}

/** Comparable form of a result: typed arrays as plain arrays. */
const plain = (v: unknown): unknown => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<unknown>) : v);

/** Single calls: [function name, arbitrary of its argument list]. */
const SINGLE: [string, fc.Arbitrary<unknown[]>][] = [
  ['kingAttacks', fc.tuple(square)],
  ['knightAttacks', fc.tuple(square)],
  ...(['kingAttacksSet', 'knightAttacksSet', 'knightFill', 'forkTargetSquares', ...KNIGHT_DIRECTIONS] as const)
    .map((n): [string, fc.Arbitrary<unknown[]>] => [n, fc.tuple(anySet)]),
  ['pawnShieldMask', fc.tuple(color, square)],
  ['pawnShieldIndex', fc.tuple(color, square, anySet)],
  ['kingMoveTargets', fc.tuple(square, anySet)],
  ['distantCheckLines', fc.tuple(square, anySet)],
  ['caughtableArea', fc.tuple(color, color, square)],
  ['uncatchablePassers', fc.tuple(anySet, color, color, square)],
  ['squaresAreConnected', fc.tuple(squareOrSet, squareOrSet, anySet)],
  ['kingDistance', fc.tuple(square, square, anySet)],
  ['knightDistance', fc.tuple(square, square, anySet)],
  ['knightForkMoves', fc.tuple(anySet, anySet, anySet, anySet, anySet)],
  ['variants.distantCheckLinesBranchy', fc.tuple(square, anySet)],
  ['variants.distantCheckLinesBranchless', fc.tuple(square, anySet)],
  ['variants.knightAttacksSetEastWest', fc.tuple(anySet)],
  ['variants.knightAttacksSetParallel', fc.tuple(anySet)],
  ['cornerDistance', fc.tuple(square, square)],
  ['kbnkEvalSquares', fc.tuple(square, square, square, square)],
];

/** Batch calls, built from arrays of element tuples: [name, arbitrary of the argument list]. */
const BATCH: [string, fc.Arbitrary<unknown[]>][] = [
  ['kingAttacksBatch', batchOf(square).map((s) => [u8(s)])],
  ['knightAttacksBatch', batchOf(square).map((s) => [u8(s)])],
  ...(['kingAttacksSet', 'knightAttacksSet', 'knightFill', 'forkTargetSquares', ...KNIGHT_DIRECTIONS] as const)
    .map((n): [string, fc.Arbitrary<unknown[]>] => [`${n}Batch`, batchOf(anySet).map((s) => [u64(s)])]),
  ['pawnShieldMaskBatch', fc.tuple(color, batchOf(square)).map(([c, s]) => [c, u8(s)])],
  ['pawnShieldIndexBatch', fc.tuple(color, batchOf(fc.tuple(square, anySet)))
    .map(([c, xs]) => [c, u8(xs.map((x) => x[0])), u64(xs.map((x) => x[1]))])],
  ['kingMoveTargetsBatch', batchOf(fc.tuple(square, anySet)).map((xs) => [u8(xs.map((x) => x[0])), u64(xs.map((x) => x[1]))])],
  ['distantCheckLinesBatch', batchOf(fc.tuple(square, anySet)).map((xs) => [u8(xs.map((x) => x[0])), u64(xs.map((x) => x[1]))])],
  ['caughtableAreaBatch', fc.tuple(color, color, batchOf(square)).map(([kc, stm, s]) => [kc, stm, u8(s)])],
  ['uncatchablePassersBatch', fc.tuple(color, color, batchOf(fc.tuple(anySet, square)))
    .map(([kc, stm, xs]) => [u64(xs.map((x) => x[0])), kc, stm, u8(xs.map((x) => x[1]))])],
  ['squaresAreConnectedBatch', batchOf(fc.tuple(anySet, anySet, anySet))
    .map((xs) => [u64(xs.map((x) => x[0])), u64(xs.map((x) => x[1])), u64(xs.map((x) => x[2]))])],
  ...(['kingDistanceBatch', 'knightDistanceBatch'] as const).map((n): [string, fc.Arbitrary<unknown[]>] => [n,
    fc.tuple(fc.boolean(), batchOf(fc.tuple(square, square, anySet))).map(([withPath, xs]) => [
      u8(xs.map((x) => x[0])), u8(xs.map((x) => x[1])), withPath ? u64(xs.map((x) => x[2])) : undefined])]),
  ['knightForkMovesBatch', batchOf(fc.tuple(anySet, anySet, anySet, anySet, anySet))
    .map((xs) => [0, 1, 2, 3, 4].map((i) => u64(xs.map((x) => x[i]!))))],
];

describe.skipIf(comparedApis.length === 0).each(comparedRows)('%s and JS agree', (_label, native) => {

  it('covers every function of the API (checks and moves in properties-checks/-moves.test.ts)', () => {
    const names = Object.entries(jsApi).filter(([, v]) => typeof v === 'function').map(([k]) => k);
    const variants = Object.keys(jsApi.variants).filter((k) => typeof (jsApi.variants as Record<string, unknown>)[k] === 'function');
    // kbnkEval takes a KBNK Position: both backends are held to the same formula in kbnk.test.ts
    const elsewhere = new Set<string>([...CHECK_TOPIC_FUNCTIONS, ...MOVE_TOPIC_FUNCTIONS, 'kbnkEval',
      'PositionBatch', 'analyzeBatch', 'analyzeBatchAsync', 'toPlanes']); // batch: test/batch.test.ts
    expect([...SINGLE, ...BATCH].map(([n]) => n).sort())
      .toEqual([...names, ...variants.map((v) => `variants.${v}`)].filter((n) => !elsewhere.has(n)).sort());
  });

  it.each(SINGLE)('%s', (name, args) => {
    const n = fn(native, name);
    const j = fn(jsApi, name);
    fc.assert(fc.property(args, (a) => {
      expect(n(...a)).toBe(j(...a));
    }), { numRuns: NUM_RUNS });
  });

  it.each(BATCH)('%s', (name, args) => {
    const n = fn(native, name);
    const j = fn(jsApi, name);
    fc.assert(fc.property(args, (a) => {
      expect(plain(n(...a))).toEqual(plain(j(...a)));
    }), { numRuns: NUM_RUNS });
  });

  it.skipIf(!native?.variants.distantCheckLinesSse41)('variants.distantCheckLinesSse41 equals the JS dirSet', () => {
    const sse = native.variants.distantCheckLinesSse41!;
    fc.assert(fc.property(square, anySet, (s, taboo) => {
      expect(sse(s, taboo)).toBe(jsApi.distantCheckLines(s, taboo));
    }), { numRuns: NUM_RUNS });
  });
});
