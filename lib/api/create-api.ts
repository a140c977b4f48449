/**
 * The typed public API over a backend, built from the declarations (lib/api/declarations.ts): each
 * argument is checked by its kind, here and nowhere else in the facade; batch outputs the caller
 * did not pass are allocated (zeroed); then the backend member (or the declaration's `call`) runs.
 *
 * `lib/index.ts` builds it over the native backend with the JS backend answering the cheap
 * lookups (or over one forced backend); `bitboard-patterns/native` and `/js` over one backend each,
 * so all entry points check their input the same way and throw the same errors.
 */
import type { Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { MAX_MOVES, PACKED_POSITION_WORDS, RAY_DIRECTIONS } from '../core/types.js';
import { createBatchApi } from '../batch/batch.js';
import {
  DECLARATIONS, type ArgKind, type Declaration, type Declarations, type FunctionName, type OutKind, type SignatureOf,
} from './declarations.js';
import { kbnkSquaresOf } from '../tablebases/kbnk.js';
import { MAX_PERFT_DEPTH, parseUci } from '../moves/moves.js';
import { MAX_PERFT_THREADS, defaultPerftThreads, isAbortSignal, type CheckedPerftOptions } from '../moves/perft.js';
import { isPosition } from '../core/position.js';
import {
  MAX_U64, checkArray, checkBitboard, checkCentipawns, checkColor, checkSquare, checkSquareOrSet, checkThreads, outArray,
} from '../core/validate.js';

export type { Bitboard, Square, Color, KnightDirection } from '../core/types.js';
export { WHITE, BLACK, KNIGHT_DIRECTIONS } from '../core/types.js';
export { MAX_PERFT_DEPTH, encodeMove, decodeMove, type PerftStats } from '../moves/moves.js';

/** Every square: the default `path` of the distance functions. */
export const ALL_SQUARES = MAX_U64;

// ---------------------------------------------------------------- argument checks by kind

/** A Position made by parseFen / createPosition / makeMove, else a TypeError. */
function checkPosition(fn: string, what: string, v: unknown): Position {
  if (!isPosition(v)) {
    throw new TypeError(`${fn}: ${what} must be a Position from parseFen or createPosition, got ${v === null ? 'null' : typeof v}`);
  }
  return v;
}

/** 0 | 1, or 2 = each position's side to move (the batch forms). */
function checkBatchColor(fn: string, what: string, v: unknown): number {
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${what} must be a number, got ${typeof v}`);
  if (v !== 0 && v !== 1 && v !== 2) {
    throw new RangeError(`${fn}: ${what} must be 0 (white), 1 (black) or 2 (each position's side to move), got ${v}`);
  }
  return v;
}

/** A direction number 0..7 or its RAY_DIRECTIONS name. */
function checkDirection(fn: string, what: string, v: unknown): number {
  if (typeof v === 'string') {
    const d = (RAY_DIRECTIONS as readonly string[]).indexOf(v);
    if (d < 0) throw new RangeError(`${fn}: ${what} must be one of ${RAY_DIRECTIONS.join(', ')} or 0..7, got ${JSON.stringify(v.slice(0, 20))}`);
    return d;
  }
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${what} must be a number 0..7 or a direction name, got ${typeof v}`);
  if (!Number.isInteger(v) || v < 0 || v > 7) throw new RangeError(`${fn}: ${what} must be an integer 0..7, got ${v}`);
  return v;
}

function checkDepth(fn: string, what: string, v: unknown, min: number): number {
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${what} must be a number, got ${typeof v}`);
  if (!Number.isInteger(v) || v < min || v > MAX_PERFT_DEPTH) {
    throw new RangeError(`${fn}: ${what} must be an integer ${min}..${MAX_PERFT_DEPTH}, got ${v}`);
  }
  return v;
}

/** A packed positions array: PACKED_POSITION_WORDS words per position. */
function checkPositions(fn: string, what: string, v: unknown): BigUint64Array {
  const arr = checkArray(fn, what, v, BigUint64Array);
  if (arr.length % PACKED_POSITION_WORDS !== 0) {
    throw new RangeError(`${fn}: ${what} must hold ${PACKED_POSITION_WORDS} words per position (see packPositions), got ${arr.length} words`);
  }
  return arr;
}

function checkPositionList(fn: string, what: string, v: unknown): readonly Position[] {
  if (!Array.isArray(v)) throw new TypeError(`${fn}: ${what} must be an array of Positions, got ${typeof v}`);
  v.forEach((p, i) => checkPosition(fn, `${what}[${i}]`, p));
  return v;
}

function checkMoveBuffer(fn: string, what: string, v: unknown): Uint16Array {
  const buffer = v === undefined ? new Uint16Array(MAX_MOVES) : checkArray(fn, what, v, Uint16Array);
  if (buffer.length < MAX_MOVES) throw new RangeError(`${fn}: ${what} must have at least ${MAX_MOVES} elements, got ${buffer.length}`);
  return buffer;
}

/**
 * perft's options `{ threads }` (an integer 1..MAX_PERFT_THREADS, default all cores) and, for the
 * async forms, `signal` (an AbortSignal): each property read once, here, so the backends see plain
 * checked values. A property whose read throws (a getter, a Proxy trap) is a TypeError naming it.
 */
function checkPerftOptions(fn: string, what: string, v: unknown, async: boolean): CheckedPerftOptions {
  if (v === undefined) return { threads: defaultPerftThreads(), signal: undefined };
  if (typeof v !== 'object' || v === null) {
    throw new TypeError(`${fn}: ${what} must be an object like { threads: 2 }, got ${v === null ? 'null' : typeof v}`);
  }
  const read = (key: string): unknown => {
    try {
      return (v as Record<string, unknown>)[key];
    } catch (e) {
      throw new TypeError(`${fn}: ${what}.${key} could not be read (its getter or Proxy trap threw)`, { cause: e });
    }
  };
  const t = read('threads');
  const threads = checkThreads(fn, `${what}.threads`, t === undefined ? defaultPerftThreads() : t, MAX_PERFT_THREADS);
  const signal = async ? read('signal') : undefined;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new TypeError(`${fn}: ${what}.signal must be an AbortSignal, got ${signal === null ? 'null' : typeof signal}`);
  }
  return { threads, signal: signal as AbortSignal | undefined };
}

/** Scalar and object kinds: (function name, argument name, value) -> the checked value. */
const SCALAR_CHECKS: Partial<Record<ArgKind, (fn: string, what: string, v: unknown) => unknown>> = {
  square: checkSquare,
  color: checkColor,
  centipawns: checkCentipawns,
  bitboard: checkBitboard,
  squareOrSet: checkSquareOrSet,
  direction: checkDirection,
  depth: (fn, what, v) => checkDepth(fn, what, v, 0),
  divideDepth: (fn, what, v) => checkDepth(fn, what, v, 1),
  path: (fn, what, v) => (v === undefined ? ALL_SQUARES : checkBitboard(fn, what, v)),
  optColor: (fn, what, v) => (v === undefined ? undefined : checkColor(fn, what, v)),
  optBitboard: (fn, what, v) => (v === undefined ? undefined : checkBitboard(fn, what, v)),
  batchColor: checkBatchColor,
  optBatchColor: (fn, what, v) => (v === undefined ? 2 : checkBatchColor(fn, what, v)),
  position: checkPosition,
  kbnkPosition: (fn, _what, v) => kbnkSquaresOf(fn, v),
  positionList: checkPositionList,
  fen: (_fn, _what, v) => v, // parseFen's own checks name the FEN field
  init: (_fn, _what, v) => v, // createPosition's own checks name the init field
  uci: (fn, _what, v) => parseUci(fn, v),
  moveBuffer: checkMoveBuffer,
  perftOptions: (fn, what, v) => checkPerftOptions(fn, what, v, false),
  perftAsyncOptions: (fn, what, v) => checkPerftOptions(fn, what, v, true),
  fenOptions: (_fn, _what, v) => v, // parseFen's own checks name the option
  toFenOptions: (_fn, _what, v) => v, // toFen's own checks name the option
};

const OUT_TYPES: Record<OutKind, BigUint64ArrayConstructor | Uint8ArrayConstructor | Int8ArrayConstructor | Float64ArrayConstructor> = {
  u64: BigUint64Array, u8: Uint8Array, i8: Int8Array, f64: Float64Array,
};

/** An array argument: checked against the batch length n (-1 until the first array sets it). */
function checkBatchArg(fn: string, what: string, kind: ArgKind, v: unknown, n: number): BigUint64Array | Uint8Array {
  const length = n < 0 ? undefined : n;
  switch (kind) {
    case 'squares': return checkArray(fn, what, v, Uint8Array, length);
    case 'sets': return checkArray(fn, what, v, BigUint64Array, length);
    case 'paths': return v === undefined ? new BigUint64Array(n).fill(ALL_SQUARES) : checkArray(fn, what, v, BigUint64Array, length);
    case 'positions': return checkPositions(fn, what, v);
    default: throw new Error(`${fn}: ${kind} is not an array kind`);
  }
}

const ARRAY_KINDS = new Set<ArgKind>(['squares', 'sets', 'paths', 'positions']);

// ---------------------------------------------------------------- building the API

type AnyFn = (...args: unknown[]) => unknown;

/** The backend member a declaration names ('variants.x' or a top-level name). */
function memberOf(b: Backend, name: string, d: Declaration): AnyFn | undefined {
  const path = (d.member ?? name).split('.');
  let v: unknown = b;
  for (const part of path) v = (v as Record<string, unknown> | undefined)?.[part];
  return typeof v === 'function' ? (v as AnyFn) : undefined;
}

/** One public function from its declaration, over backend `b`. */
function build(name: string, d: Declaration, b: Backend): AnyFn | undefined {
  const fn = name.replace(/^variants\./, '');
  const member = d.call ? undefined : memberOf(b, name, d);
  if (!d.call && !member) return undefined;
  const impl: AnyFn = d.call ? (d.call as (b: Backend, ...a: unknown[]) => unknown).bind(null, b) : member!;

  if (d.out === undefined && !d.args.some(([, k]) => ARRAY_KINDS.has(k))) {
    // Single calls: the wrapper's code is compiled per function (not one closure shared by all), so
    // each has its own type feedback and V8 inlines its checks and the backend call into it.
    const params = d.args.map((_, i) => `a${i}`);
    const calls = d.args.map((_, i) => `c${i}(fn, w${i}, a${i})`);
    // eslint-disable-next-line no-new-func
    const make = new Function('impl', 'fn', ...d.args.map((_, i) => `c${i}`), ...d.args.map((_, i) => `w${i}`),
      `return function ${fn}(${params.join(', ')}) { return impl(${calls.join(', ')}); };`);
    return make(impl, fn, ...d.args.map(([, kind]) => SCALAR_CHECKS[kind]!), ...d.args.map(([what]) => what)) as AnyFn;
  }

  // Batch forms: arrays share one length n (the first array sets it); `out` follows the arguments.
  const arity = d.args.length;
  const Out = d.out && OUT_TYPES[d.out];
  const width = d.outWidth ?? 1;
  return (...args: unknown[]) => {
    const checked = new Array<unknown>(arity + (Out ? 1 : 0));
    let n = -1;
    for (let i = 0; i < arity; i++) {
      const [what, kind] = d.args[i]!;
      if (ARRAY_KINDS.has(kind)) {
        const arr = checkBatchArg(fn, what, kind, args[i], n);
        if (n < 0) n = kind === 'positions' ? arr.length / PACKED_POSITION_WORDS : arr.length;
        checked[i] = arr;
      } else {
        checked[i] = SCALAR_CHECKS[kind]!(fn, what, args[i]);
      }
    }
    if (!Out) return impl(...checked);
    const given = args[arity];
    const out = outArray(fn, given, Out, width * n);
    checked[arity] = out;
    impl(...checked);
    return given ?? out;
  };
}

type TopLevel = { [K in FunctionName as K extends `variants.${string}` ? never : K]: SignatureOf<Declarations[K]> };
type VariantFns = {
  [K in FunctionName as K extends `variants.${infer V}` ? V : never]: Declarations[K] extends { readonly variant: 'optional' }
    ? SignatureOf<Declarations[K]> | undefined : SignatureOf<Declarations[K]>;
};

/** The public API over one backend (see createApi). */
export type Api = TopLevel & ReturnType<typeof createBatchApi> & {
  /** Which backend this API runs on ('native' when the addon is loaded, even where JS answers cheap lookups). */
  readonly backend: 'native' | 'wasm' | 'js';
  /**
   * The code path inside the backend: 'sse4.1+popcnt+bmi2', 'sse4.1+popcnt' or 'portable' (native),
   * 'wasm32+simd128' or 'wasm32' (wasm), 'bigint' (js).
   */
  readonly cpuPath: string;
  /**
   * Alternative implementations, for comparison and benchmarks: dirSet branchy, branchless and
   * SSE4.1 (native with SSE4.1 only, else undefined), the two multi-knight versions, the two pin
   * finders of the Checks and Pinned Pieces page, magic (native) / the JS method (js) and PEXT
   * (native with BMI2) sliders.
   */
  readonly variants: VariantFns;
};

export interface ApiOptions {
  /** The backend answering the functions declared `cheap` (the default facade passes the JS backend). */
  readonly cheap?: Backend;
}

/** `current`, or `older` when called with one argument more than `arity` (a declaration's deprecatedForm). */
function withDeprecatedForm(current: AnyFn, arity: number, older: AnyFn): AnyFn {
  const named = {
    [current.name](...a: unknown[]) { return a.length > arity && a[arity] !== undefined ? older(...a) : current(...a); },
  };
  return named[current.name]!;
}

/** The public API over backend `b`: every declared function, checked by its declaration. */
export function createApi(b: Backend, options: ApiOptions = {}): Api {
  const top: Record<string, unknown> = {};
  const variants: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(DECLARATIONS as Record<string, Declaration>)) {
    const source = d.cheap && options.cheap ? options.cheap : b;
    let f = build(name, d, source);
    if (d.deprecatedForm && f) f = withDeprecatedForm(f, d.args.length, build(d.deprecatedForm,
      (DECLARATIONS as Record<string, Declaration>)[d.deprecatedForm]!, source)!);
    if (name.startsWith('variants.')) variants[name.slice(9)] = f;
    else top[name] = f;
  }
  return {
    ...createBatchApi(b),
    ...top,
    backend: b.name,
    cpuPath: b.cpuPath,
    variants: Object.freeze(variants),
  } as Api;
}

/**
 * Which backend answers each public function of an API over `b` with these options: the cheap
 * lookups the `cheap` backend, everything else (the batch API included) `b`.
 */
export function describeBackends(b: Backend, options: ApiOptions = {}): Readonly<Record<string, 'native' | 'wasm' | 'js'>> {
  const batch = ['PositionBatch', 'analyzeBatch', 'analyzeBatchAsync', 'toPlanes', 'seeBatch'].map((n) => [n, b.name]);
  return Object.freeze(Object.fromEntries([...Object.entries(DECLARATIONS as Record<string, Declaration>)
    .filter(([name, d]) => !(d.variant === 'optional' && !memberOf(b, name, d)))
    .map(([name, d]) => [name, (d.cheap && options.cheap ? options.cheap : b).name]), ...batch]));
}
