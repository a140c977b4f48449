/**
 * Argument checks shared by the facade. Every public entry point goes through these, so a bad
 * argument is a clear exception (DESIGN.md, Conventions) whichever backend runs.
 */

export const MAX_U64 = 0xffff_ffff_ffff_ffffn;

function describe(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (v === null) return 'null';
  if (typeof v === 'object') return v.constructor?.name ?? 'object';
  return String(v);
}

/** An integer in lo..hi given as a JS number: TypeError for other types, RangeError otherwise. */
function integerIn(fn: string, what: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${what} must be a number, got ${typeof v} ${describe(v)}`);
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`${fn}: ${what} must be an integer ${lo}..${hi}, got ${describe(v)}`);
  }
  return v;
}

/**
 * A thread count (an options object's `threads`): an integer 1..max given as a number. Not a number
 * (a string, a bigint, null) is a TypeError, a number out of range or not whole a RangeError.
 */
export function checkThreads(fn: string, what: string, v: unknown, max: number): number {
  return integerIn(fn, what, v, 1, max);
}

export function checkSquare(fn: string, what: string, v: unknown): number {
  return integerIn(fn, what, v, 0, 63);
}

/** A centipawn threshold (seeGe): an integer -100000..100000. */
export function checkCentipawns(fn: string, what: string, v: unknown): number {
  return integerIn(fn, what, v, -100000, 100000);
}

export function checkColor(fn: string, what: string, v: unknown): number {
  return integerIn(fn, `${what} (0 = white, 1 = black)`, v, 0, 1);
}

export function checkBitboard(fn: string, what: string, v: unknown): bigint {
  if (typeof v !== 'bigint') {
    throw new TypeError(`${fn}: ${what} must be a bigint bitboard (e.g. 0x${'ff'}n), got ${typeof v} ${describe(v)}`);
  }
  if (v < 0n || v > MAX_U64) throw new RangeError(`${fn}: ${what} must be in 0..2^64-1, got ${describe(v)}`);
  return v;
}

/** A square number or a bitboard, as a set. */
export function checkSquareOrSet(fn: string, what: string, v: unknown): bigint {
  return typeof v === 'number' ? 1n << BigInt(checkSquare(fn, what, v)) : checkBitboard(fn, what, v);
}

type TypedArrayCtor = BigUint64ArrayConstructor | Uint8ArrayConstructor | Int8ArrayConstructor
  | Uint16ArrayConstructor | Int16ArrayConstructor | Float64ArrayConstructor;
type InstanceOf<C> = C extends new (n: number) => infer T ? T : never;

// The engine's own accessors of a typed array: they read the internal slots, so a subclass or an
// object with its own `length` cannot lie to them, and a Proxy is no typed array to them at all.
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsic = (key: PropertyKey) => Object.getOwnPropertyDescriptor(TYPED_ARRAY, key)!.get!;
const kindOf = intrinsic(Symbol.toStringTag) as (this: unknown) => string | undefined;
const lengthOf = intrinsic('length') as (this: unknown) => number;
const bufferOf = intrinsic('buffer') as (this: unknown) => ArrayBufferLike;
const byteOffsetOf = intrinsic('byteOffset') as (this: unknown) => number;
const byteLengthOf = intrinsic('byteLength') as (this: unknown) => number;

/** A typed array whose buffer was transferred away (its length reads 0). */
function isDetached(buffer: ArrayBufferLike): boolean {
  if (buffer.byteLength !== 0) return false;
  try {
    new Uint8Array(buffer, 0, 0); // eslint-disable-line no-new
    return false;
  } catch {
    return true;
  }
}

/** A typed array whose buffer was transferred away (read through the engine's own accessors). */
export function isDetachedArray(v: ArrayBufferView): boolean {
  return lengthOf.call(v) === 0 && isDetached(bufferOf.call(v));
}

/** Two typed arrays over overlapping bytes of one buffer (read through the engine's own accessors). */
export function sharesMemory(a: ArrayBufferView, b: ArrayBufferView): boolean {
  const ab = bufferOf.call(a), bb = bufferOf.call(b);
  if (ab !== bb) return false;
  const ao = byteOffsetOf.call(a), bo = byteOffsetOf.call(b);
  const al = byteLengthOf.call(a), bl = byteLengthOf.call(b);
  return al > 0 && bl > 0 && ao < bo + bl && bo < ao + al;
}

/**
 * A typed array of exactly `ctor`'s element type and, when given, exactly `length` elements, as a
 * plain array of that type over the same memory (so no code after the check sees an overridden
 * `length`). TypeError for anything else, a detached array included; RangeError for a wrong length.
 */
export function checkArray<C extends TypedArrayCtor>(
  fn: string, what: string, v: unknown, ctor: C, length?: number,
): InstanceOf<C> {
  if (kindOf.call(v) !== ctor.name) throw new TypeError(`${fn}: ${what} must be a ${ctor.name}, got ${describe(v)}`);
  const n = lengthOf.call(v);
  if (n === 0 && isDetached(bufferOf.call(v))) {
    throw new TypeError(`${fn}: ${what} is a detached ${ctor.name} (its ArrayBuffer was transferred)`);
  }
  if (length !== undefined && n !== length) {
    throw new RangeError(`${fn}: ${what} must have ${length} elements like the first input, got ${n}`);
  }
  if (Object.getPrototypeOf(v) === ctor.prototype && !Object.hasOwn(v as object, 'length')) return v as InstanceOf<C>;
  return new ctor(bufferOf.call(v) as ArrayBuffer, byteOffsetOf.call(v), n) as InstanceOf<C>;
}

/** The caller's output array, checked, or a new (zeroed) one of `length` elements. */
export function outArray<C extends TypedArrayCtor>(fn: string, v: unknown, ctor: C, length: number): InstanceOf<C> {
  if (v === undefined) return new ctor(length) as InstanceOf<C>;
  return checkArray(fn, 'out', v, ctor, length);
}

/** A file name: a string (a number would be taken for a file descriptor) without NUL characters. */
export function checkPath(fn: string, file: unknown): string {
  if (typeof file !== 'string') throw new TypeError(`${fn}: file must be a path string, got ${file === null ? 'null' : typeof file}`);
  if (file.length === 0 || file.includes('\0')) throw new RangeError(`${fn}: file must be a non-empty path without NUL characters`);
  return file;
}
