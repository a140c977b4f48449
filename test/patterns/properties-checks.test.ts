/**
 * Native and JS backends give identical answers for the checks-and-pins topic: fast-check
 * properties over arbitrary bitboards, squares, directions and random legal-looking positions
 * (built by test/patterns/reference-checks.ts from a seed), for every function, batch form and variant.
 * Skipped when native is not loaded (BITBOARD_PATTERNS_BACKEND=js).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../lib/api/create-api.js';
import { DECLARATIONS, type ArgKind, type Declaration } from '../../lib/api/declarations.js';
import { NUM_RUNS, anySet, color, square } from '../support/arbitraries.js';
import { comparedApis, comparedRows, jsApi } from '../support/backends.js';
import { rng } from './reference.js';
import {
  CHECK_TOPIC_FUNCTIONS, boardFromFen, fenFromBoard, pseudoMoves, randomBoard, randomEpBoard, uci,
} from './reference-checks.js';

const direction = fc.oneof(fc.integer({ min: 0, max: 7 }),
  fc.constantFrom('nort', 'noEa', 'east', 'soEa', 'sout', 'soWe', 'west', 'noWe'));
/** A FEN of a random legal-looking position (one in four with an en-passant chance). */
const fen = fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
  const next = rng(seed);
  return fenFromBoard(seed % 4 === 0 ? randomEpBoard(next) : randomBoard(next, 1 + (seed % 12)));
});
/** A FEN and a move string: a pseudo-legal move (legal or not), or any from/to/promotion. */
const fenAndMove = fc.tuple(fen, fc.nat(), square, square, fc.constantFrom('', '', '', 'q', 'n', 'b', 'r')).map(([f, i, a, b, p]) => {
  const moves = pseudoMoves(boardFromFenCached(f));
  const names = 'abcdefgh';
  const any = `${names[a % 8]}${Math.floor(a / 8) + 1}${names[b % 8]}${Math.floor(b / 8) + 1}${p}`;
  return [f, moves.length && i % 4 !== 0 ? uci(moves[i % moves.length]!) : any] as const;
});

const boardCache = new Map<string, ReturnType<typeof boardFromFen>>();
function boardFromFenCached(f: string) {
  let b = boardCache.get(f);
  if (!b) boardCache.set(f, (b = boardFromFen(f)));
  return b;
}

type AnyFn = (...args: unknown[]) => unknown;
function fn(api: Api, name: string): AnyFn {
  let v: unknown = api;
  for (const part of name.split('.')) v = (v as Record<string, unknown>)[part];
  return (v as AnyFn).bind(name.startsWith('variants.') ? api.variants : api);
}

/** A comparable outcome: the value (typed arrays as arrays, positions as their FEN and packed words) or the error. */
function outcome(f: () => unknown): unknown {
  try {
    const v = f();
    if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>);
    if (typeof v === 'object' && v !== null && 'packed' in v) return Array.from((v as { packed: BigUint64Array }).packed);
    return v;
  } catch (e) {
    return { error: (e as Error).name, field: (e as { field?: string }).field };
  }
}

/**
 * [name, arbitrary of the arguments with FENs standing for positions]. A FEN argument `{ fen }` is
 * parsed by each API itself, so the Positions compared are the backends' own.
 */
type FenArg = { fen: string };
const P = (f: string): FenArg => ({ fen: f });
const position = fen.map(P);
const positions = fc.array(fen, { maxLength: 12 }).map((fs) => fs.map(P));

/** The functions whose arguments need more than an arbitrary per argument kind. */
const HAND: [string, fc.Arbitrary<unknown[]>][] = [
  ...(['rookAttacksBatch', 'bishopAttacksBatch', 'queenAttacksBatch']).map((n): [string, fc.Arbitrary<unknown[]>] => [n,
    fc.array(fc.tuple(square, anySet), { maxLength: 40 }).map((xs) => [Uint8Array.from(xs.map((x) => x[0])), BigUint64Array.from(xs.map((x) => x[1]))])]),
  ['parseFen', fc.tuple(fen)],
  ['toFen', fc.tuple(position)],
  ['createPosition', fc.tuple(position).map(([p]) => [{ spreadOf: p }])],
  ['packPositions', fc.tuple(positions)],
  ['checkKind', fenAndMove.map(([f, m]) => [P(f), m])],
  ['checkersBatch', fc.tuple(positions, fc.constantFrom(0, 1, 2, undefined)).map(([ps, c]) => [{ packed: ps }, c])],
  ['pinnedPiecesBatch', fc.tuple(positions, fc.constantFrom(0, 1, 2)).map(([ps, c]) => [{ packed: ps }, c])],
  ['discoveredCheckCandidatesBatch', fc.tuple(positions, fc.constantFrom(0, 1, 2)).map(([ps, c]) => [{ packed: ps }, c])],
  ['checkAnalysisBatch', positions.map((ps) => [{ packed: ps }])],
];
/** An arbitrary per argument kind: every other function of the topics is compared on these. */
const KIND_ARBITRARIES: Partial<Record<ArgKind, fc.Arbitrary<unknown>>> = {
  square, color, bitboard: anySet, direction, position,
  optBitboard: fc.option(anySet, { nil: undefined }), optColor: fc.option(color, { nil: undefined }),
};
const handNames = new Set(HAND.map(([n]) => n));
const PROPS: [string, fc.Arbitrary<unknown[]>][] = [...HAND, ...CHECK_TOPIC_FUNCTIONS
  .filter((n) => !handNames.has(n) && !n.endsWith('Pext'))
  .map((n): [string, fc.Arbitrary<unknown[]>] => [n, fc.tuple(...(DECLARATIONS as Record<string, Declaration>)[n]!.args.map(([a, k]) => {
    const arb = KIND_ARBITRARIES[k];
    if (!arb) throw new Error(`${n}: no arbitrary for argument ${a} of kind ${k}; add one or a HAND entry`);
    return arb;
  }))])];

/** Turns the FEN stand-ins into each API's own Positions (or packed arrays). */
function materialize(api: Api, args: unknown[]): unknown[] {
  const one = (a: unknown): unknown => {
    if (typeof a !== 'object' || a === null) return a;
    if ('fen' in a) return api.parseFen((a as FenArg).fen);
    if ('spreadOf' in a) return { ...api.parseFen((a as { spreadOf: FenArg }).spreadOf.fen) };
    if ('packed' in a) return api.packPositions((a as { packed: FenArg[] }).packed.map((p) => api.parseFen(p.fen)));
    if (Array.isArray(a)) return a.map(one);
    return a;
  };
  return args.map(one);
}

describe.skipIf(comparedApis.length === 0).each(comparedRows)('%s and JS agree (checks and pinned pieces)', (_label, native) => {

  it('covers every function of the topic, and the topic list is complete', () => {
    expect(PROPS.map(([n]) => n).sort()).toEqual([...CHECK_TOPIC_FUNCTIONS].filter((n) => !n.endsWith('Pext')).sort());
    for (const name of CHECK_TOPIC_FUNCTIONS) {
      if (!name.endsWith('Pext')) expect(typeof fn(jsApi, name), name).toBe('function');
    }
  });

  it.each(PROPS)('%s', (name, args) => {
    const n = fn(native, name);
    const j = fn(jsApi, name);
    fc.assert(fc.property(args, (a) => {
      expect(outcome(() => n(...materialize(native, a)))).toEqual(outcome(() => j(...materialize(jsApi, a))));
    }), { numRuns: NUM_RUNS });
  });

  it('the PEXT sliders, where the CPU has BMI2, equal the JS sliders', () => {
    const { rookAttacksPext, bishopAttacksPext } = native.variants;
    if (!rookAttacksPext || !bishopAttacksPext) return;
    fc.assert(fc.property(square, anySet, (s, occ) => {
      expect(rookAttacksPext(s, occ)).toBe(jsApi.rookAttacks(s, occ));
      expect(bishopAttacksPext(s, occ)).toBe(jsApi.bishopAttacks(s, occ));
    }), { numRuns: NUM_RUNS });
  });
});
