/**
 * Bad input for every public function, on every backend: the error class DESIGN.md promises and
 * never a crash or a silent answer. Then the same bad input straight into the native addon (no
 * facade checks in between), which must check again and throw the same classes.
 */
import { describe, expect, it } from 'vitest';
import { SET_FUNCTIONS } from '../lib/backend.js';
import { loadNative } from '../lib/native.js';
import { backends, nativeApi } from './backends.js';

type Kind =
  | 'square' | 'color' | 'bitboard' | 'squareOrSet' | 'optBitboard'
  | 'squares' | 'sets' | 'optSets' | 'outU64' | 'outU8' | 'outI8';

const N = 5;

/** Every public function and the kind of each argument, in order (facade signatures). */
const SPECS: [string, Kind[]][] = [
  ['kingAttacks', ['square']],
  ['knightAttacks', ['square']],
  ['kingAttacksBatch', ['squares', 'outU64']],
  ['knightAttacksBatch', ['squares', 'outU64']],
  ...SET_FUNCTIONS.map((n): [string, Kind[]] => [n, ['bitboard']]),
  ...SET_FUNCTIONS.map((n): [string, Kind[]] => [`${n}Batch`, ['sets', 'outU64']]),
  ['pawnShieldMask', ['color', 'square']],
  ['pawnShieldMaskBatch', ['color', 'squares', 'outU64']],
  ['pawnShieldIndex', ['color', 'square', 'bitboard']],
  ['pawnShieldIndexBatch', ['color', 'squares', 'sets', 'outU8']],
  ['kingMoveTargets', ['square', 'bitboard']],
  ['kingMoveTargetsBatch', ['squares', 'sets', 'outU64']],
  ['distantCheckLines', ['square', 'bitboard']],
  ['distantCheckLinesBatch', ['squares', 'sets', 'outU8']],
  ['caughtableArea', ['color', 'color', 'square']],
  ['caughtableAreaBatch', ['color', 'color', 'squares', 'outU64']],
  ['uncatchablePassers', ['bitboard', 'color', 'color', 'square']],
  ['uncatchablePassersBatch', ['sets', 'color', 'color', 'squares', 'outU64']],
  ['squaresAreConnected', ['squareOrSet', 'squareOrSet', 'bitboard']],
  ['squaresAreConnectedBatch', ['sets', 'sets', 'sets', 'outU8']],
  ['kingDistance', ['square', 'square', 'optBitboard']],
  ['kingDistanceBatch', ['squares', 'squares', 'optSets', 'outI8']],
  ['knightDistance', ['square', 'square', 'optBitboard']],
  ['knightDistanceBatch', ['squares', 'squares', 'optSets', 'outI8']],
  ['knightForkMoves', ['bitboard', 'bitboard', 'bitboard', 'bitboard', 'bitboard']],
  ['knightForkMovesBatch', ['sets', 'sets', 'sets', 'sets', 'sets', 'outU64']],
  ['variants.distantCheckLinesBranchy', ['square', 'bitboard']],
  ['variants.distantCheckLinesBranchless', ['square', 'bitboard']],
  ['variants.distantCheckLinesSse41', ['square', 'bitboard']],
  ['variants.knightAttacksSetEastWest', ['bitboard']],
  ['variants.knightAttacksSetParallel', ['bitboard']],
];

/** The backend (raw) signature: no squares as numbers where sets go, no defaults, `out` required. */
function rawKind(k: Kind): Kind {
  if (k === 'squareOrSet' || k === 'optBitboard') return 'bitboard';
  if (k === 'optSets') return 'sets';
  return k;
}

function valid(kind: Kind): unknown {
  switch (kind) {
    case 'square': return 10;
    case 'color': return 1;
    case 'bitboard': case 'optBitboard': return 0x1234_5678_9abc_def0n;
    case 'squareOrSet': return 5;
    case 'squares': return Uint8Array.from([0, 9, 27, 54, 63]);
    case 'sets': case 'optSets': return BigUint64Array.from([0n, 1n, 0xffn, 0x8000_0000_0000_0000n, 0xffff_ffff_ffff_ffffn]);
    case 'outU64': return new BigUint64Array(N);
    case 'outU8': return new Uint8Array(N);
    case 'outI8': return new Int8Array(N);
  }
}

type Case = [label: string, value: unknown, error: typeof TypeError | typeof RangeError];

const BAD_SQUARES: Case[] = [
  ['1.5', 1.5, RangeError], ['NaN', NaN, RangeError], ['-1', -1, RangeError], ['64', 64, RangeError],
  ['Infinity', Infinity, RangeError], ['-Infinity', -Infinity, RangeError],
  ["'3'", '3', TypeError], ['3n', 3n, TypeError], ['undefined', undefined, TypeError], ['null', null, TypeError],
  ['{}', {}, TypeError],
];
const BAD_COLORS: Case[] = [
  ['2', 2, RangeError], ['-1', -1, RangeError], ['0.5', 0.5, RangeError], ['NaN', NaN, RangeError],
  ["'1'", '1', TypeError], ['1n', 1n, TypeError], ['undefined', undefined, TypeError],
];
const OUT_OF_RANGE_BIGINTS: Case[] = [
  ['-1n', -1n, RangeError], ['2n**64n', 2n ** 64n, RangeError], ['-(2n**63n)', -(2n ** 63n), RangeError],
];
/** Bad values for a bitboard that may also be left out (the distance functions' path). */
const BAD_BITBOARD_VALUES: Case[] = [...OUT_OF_RANGE_BIGINTS, ["'3'", '3', TypeError], ['null', null, TypeError]];
const BAD_BITBOARDS: Case[] = [
  ...BAD_BITBOARD_VALUES, ['3 (a number)', 3, TypeError], ['0 (a number)', 0, TypeError], ['1.5', 1.5, TypeError],
  ['undefined', undefined, TypeError],
];

function badArrays(good: 'squares' | 'sets'): Case[] {
  const wrongTypes: Case[] = good === 'squares'
    ? [
      ['BigUint64Array', new BigUint64Array(N), TypeError],
      ['Uint16Array', new Uint16Array(N), TypeError],
      ['Int8Array', new Int8Array(N), TypeError],
      ['plain array', [0, 1, 2, 3, 4], TypeError],
    ]
    : [
      ['Uint8Array', new Uint8Array(N), TypeError],
      ['Uint16Array', new Uint16Array(N), TypeError],
      ['BigInt64Array', new BigInt64Array(N), TypeError],
      ['plain array', [0n, 1n, 2n, 3n, 4n], TypeError],
    ];
  const Good = good === 'squares' ? Uint8Array : BigUint64Array;
  return [
    ...wrongTypes,
    ['null', null, TypeError],
    ['a bigint', 1n, TypeError],
    [`length ${N + 1}`, new Good(N + 1), RangeError],
    [`length ${N - 1}`, new Good(N - 1), RangeError],
  ];
}

function badOut(kind: 'outU64' | 'outU8' | 'outI8'): Case[] {
  const [Good, Wrong] = kind === 'outU64' ? [BigUint64Array, Uint8Array] as const
    : kind === 'outU8' ? [Uint8Array, Int8Array] as const : [Int8Array, Uint8Array] as const;
  return [
    [`${Wrong.name}`, new Wrong(N), TypeError],
    ['Uint16Array', new Uint16Array(N), TypeError],
    ['plain array', [0, 0, 0, 0, 0], TypeError],
    ['null', null, TypeError],
    [`length ${N + 1}`, new Good(N + 1), RangeError],
    [`length ${N - 1}`, new Good(N - 1), RangeError],
  ];
}

function badValues(kind: Kind, raw: boolean): Case[] {
  switch (kind) {
    case 'square': return BAD_SQUARES;
    case 'color': return BAD_COLORS;
    case 'bitboard': return BAD_BITBOARDS;
    case 'optBitboard': return BAD_BITBOARD_VALUES; // undefined means "all squares" here
    case 'squareOrSet': return [...BAD_SQUARES.filter(([, v]) => typeof v !== 'bigint'), ...OUT_OF_RANGE_BIGINTS];
    case 'squares': return badArrays('squares');
    case 'sets': return badArrays('sets');
    case 'optSets': return badArrays('sets'); // undefined means "all squares" here
    case 'outU64': case 'outU8': case 'outI8':
      return raw ? [...badOut(kind), ['undefined', undefined, TypeError]] : badOut(kind);
  }
}

type AnyFn = (...args: unknown[]) => unknown;

function lookup(target: object, name: string): AnyFn | undefined {
  let v: unknown = target;
  for (const part of name.split('.')) v = (v as Record<string, unknown>)?.[part];
  return v as AnyFn | undefined;
}

/** Calls `f`, expecting it to throw; returns the error. */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw, but the call returned');
}

/** The bad-input cases of one function: one argument replaced at a time. */
function cases(kinds: Kind[], raw: boolean) {
  const out: { label: string; args: () => unknown[]; error: Case[2]; elementIndex?: number }[] = [];
  kinds.forEach((kind, i) => {
    const k = raw ? rawKind(kind) : kind;
    const base = () => kinds.map((kk) => valid(raw ? rawKind(kk) : kk));
    for (const [label, value, error] of badValues(k, raw)) {
      out.push({ label: `argument ${i} (${k}) = ${label}`, args: () => base().map((v, j) => (j === i ? value : v)), error });
    }
    if (k === 'squares') {
      for (const bad of [64, 255]) {
        out.push({
          label: `argument ${i} (${k}) with element 3 = ${bad}`,
          args: () => base().map((v, j) => (j === i ? Uint8Array.from([1, 2, 3, bad, 4]) : v)),
          error: RangeError,
          elementIndex: 3,
        });
      }
    }
  });
  out.push({ label: 'no arguments', args: () => [], error: TypeError });
  return out;
}

describe.each(backends)('%s', (_name, api) => {
  const specs = SPECS.filter(([name]) => lookup(api, name) !== undefined);

  it('covers every function of the API', () => {
    const functions = Object.entries(api).filter(([, v]) => typeof v === 'function').map(([k]) => k);
    const variants = Object.entries(api.variants).filter(([, v]) => typeof v === 'function').map(([k]) => `variants.${k}`);
    expect(specs.map(([n]) => n).sort()).toEqual([...functions, ...variants].sort());
  });

  describe.each(specs)('%s', (name, kinds) => {
    const f = lookup(api, name)!;

    it('accepts the valid arguments the cases below start from', () => {
      expect(() => f(...kinds.map(valid))).not.toThrow();
      if (kinds.some((k) => k.startsWith('out'))) {
        // Without `out` (and without the optional path) it allocates the result itself.
        const args = kinds.map(valid).slice(0, kinds.findIndex((k) => k.startsWith('out')));
        expect(f(...args)).toHaveLength(N);
      }
    });

    it.each(cases(kinds, false).map((c) => [c.label, c] as const))('%s', (_label, c) => {
      const err = thrown(() => f(...c.args()));
      expect(err).toBeInstanceOf(c.error);
      const fnName = name.replace('variants.', '');
      expect(err.message).toContain(fnName);
      if (c.elementIndex !== undefined) expect(err.message).toMatch(new RegExp(`\\b${c.elementIndex}\\b`));
    });
  });
});

describe.skipIf(!nativeApi)('raw native addon (no facade checks)', () => {
  const raw = nativeApi ? (loadNative() as unknown as object) : {};
  const specs = SPECS.filter(([name]) => lookup(raw, name) !== undefined)
    .map(([name, kinds]): [string, Kind[]] => [name, kinds.map(rawKind)]);

  it('exports every backend function', () => {
    const missing = SPECS.map(([n]) => n).filter((n) => n !== 'variants.distantCheckLinesSse41' && !lookup(raw, n));
    expect(missing).toEqual([]);
  });

  describe.each(specs)('%s', (name, kinds) => {
    const f = lookup(raw, name)!;

    it('accepts the valid arguments the cases below start from', () => {
      expect(() => f(...kinds.map(valid))).not.toThrow();
    });

    it.each(cases(kinds, true).map((c) => [c.label, c] as const))('%s', (_label, c) => {
      const err = thrown(() => f(...c.args()));
      expect(err).toBeInstanceOf(c.error);
      if (c.elementIndex !== undefined) {
        expect(err.message).toContain(name.replace('variants.', ''));
        expect(err.message).toMatch(new RegExp(`\\b${c.elementIndex}\\b`));
      }
    });
  });
});
