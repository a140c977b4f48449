/**
 * Native and JS backends give identical answers: fast-check properties over arbitrary 64-bit
 * bitboards and squares, for every function and every batch form. Skipped when native is not
 * loaded (BITBOARD_PATTERNS_BACKEND=js).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECLARATIONS, type ArgKind, type Declaration } from '../../lib/api/declarations.js';
import type { Api } from '../../lib/api/create-api.js';
import { NUM_RUNS, anySet, color, square } from '../support/arbitraries.js';
import { comparedApis, comparedRows, jsApi } from '../support/backends.js';
import { CHECK_TOPIC_FUNCTIONS } from './reference-checks.js';
import { MOVE_TOPIC_FUNCTIONS } from '../moves/reference-moves.js';
import { MOTIF_TOPIC_FUNCTIONS } from '../motifs/reference-motifs.js';

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

/** The element arbitrary of each plain argument kind (positions and moves: properties-checks/-moves). */
const ELEMENT: Partial<Record<ArgKind, fc.Arbitrary<unknown>>> = {
  square, color, bitboard: anySet, squareOrSet, path: anySet, squares: square, sets: anySet, paths: anySet,
};
const PLAIN = new Set<ArgKind>(Object.keys(ELEMENT) as ArgKind[]);
const ARRAY = new Set<ArgKind>(['squares', 'sets', 'paths']);

/** Declared functions whose arguments are all plain kinds (checked here), from lib/api/declarations.ts. */
const plainDeclarations = Object.entries(DECLARATIONS as Record<string, Declaration>)
  .filter(([, d]) => d.args.every(([, k]) => PLAIN.has(k)) && d.variant !== 'optional');

/** Single calls: [function name, arbitrary of its argument list]. */
const SINGLE: [string, fc.Arbitrary<unknown[]>][] = plainDeclarations
  .filter(([, d]) => !d.args.some(([, k]) => ARRAY.has(k)))
  .map(([name, d]) => [name, fc.tuple(...d.args.map(([, k]) => ELEMENT[k]!))]);

/**
 * Batch calls: arrays of element tuples turned into one typed array per array argument; scalar
 * arguments (colours) drawn once per call; the optional `path` arrays left out half the time.
 */
const BATCH: [string, fc.Arbitrary<unknown[]>][] = plainDeclarations
  .filter(([, d]) => d.args.some(([, k]) => ARRAY.has(k)))
  .map(([name, d]) => {
    const columns = d.args.map(([, k]) => k).filter((k) => ARRAY.has(k));
    const scalars = d.args.map(([, k]) => k).filter((k) => !ARRAY.has(k));
    return [name, fc.tuple(fc.boolean(), fc.tuple(...scalars.map((k) => ELEMENT[k]!)),
      batchOf(fc.tuple(...columns.map((k) => ELEMENT[k]!)))).map(([withPath, sc, rows]) => {
      let c = 0;
      let v = 0;
      return d.args.map(([, k]) => {
        if (!ARRAY.has(k)) return sc[v++];
        const i = c++;
        if (k === 'paths' && !withPath) return undefined;
        return k === 'squares' ? u8(rows.map((r) => r[i] as number)) : u64(rows.map((r) => r[i] as bigint));
      });
    })];
  });

describe.skipIf(comparedApis.length === 0).each(comparedRows)('%s and JS agree', (_label, native) => {

  it('covers every function of the API (positions, checks and moves in properties-checks/-moves.test.ts)', () => {
    const names = Object.entries(jsApi).filter(([, v]) => typeof v === 'function').map(([k]) => k);
    const variants = Object.keys(jsApi.variants).filter((k) => typeof (jsApi.variants as Record<string, unknown>)[k] === 'function');
    // kbnkEval takes a KBNK Position: both backends are held to the same formula in kbnk.test.ts
    const elsewhere = new Set<string>([...CHECK_TOPIC_FUNCTIONS, ...MOVE_TOPIC_FUNCTIONS, ...MOTIF_TOPIC_FUNCTIONS, 'kbnkEval',
      'PositionBatch', 'analyzeBatch', 'analyzeBatchAsync', 'toPlanes']); // batch: test/batch/batch.test.ts (seeBatch: test/motifs)
    const here = new Set([...SINGLE, ...BATCH].map(([n]) => n));
    expect([...names, ...variants.map((v) => `variants.${v}`)].filter((n) => !elsewhere.has(n) && !here.has(n))).toEqual([]);
    // The plain-argument functions with no property elsewhere are all here (the king and knight topics at least).
    for (const name of ['kingAttacks', 'kingFill', 'kingDistanceBatch', 'knightForkMovesBatch', 'uncatchablePassersBatch', 'cornerDistance']) {
      expect(here.has(name), name).toBe(true);
    }
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
