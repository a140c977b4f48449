/** Square names and bitboard <-> square-list helpers (little-endian rank-file: a1 = 0, h8 = 63). */
import { checkBitboard, checkSquare } from './validate.js';

const FILES = 'abcdefgh';
/** The name of every square, a1 .. h8 (hot paths read it unchecked). */
export const SQUARE_NAMES: readonly string[] = Array.from({ length: 64 }, (_, sq) => `${FILES[sq & 7]}${(sq >> 3) + 1}`);

/** 'e4' -> 28. Throws a RangeError for anything that is not a square name. */
export function parseSquare(name: string): number {
  if (typeof name !== 'string') throw new TypeError(`parseSquare: name must be a string, got ${typeof name}`);
  const m = /^([a-h])([1-8])$/.exec(name);
  if (!m) throw new RangeError(`parseSquare: not a square name (a1..h8): ${JSON.stringify(name.slice(0, 20))}`);
  return (Number(m[2]) - 1) * 8 + FILES.indexOf(m[1]!);
}

/** 28 -> 'e4'. */
export function squareName(sq: number): string {
  checkSquare('squareName', 'square', sq);
  return SQUARE_NAMES[sq]!;
}

/** The set of the given squares (numbers or names): `bitboardOf('a1', 'h8') === 0x8000000000000001n`. */
export function bitboardOf(...squares: (number | string)[]): bigint {
  let bb = 0n;
  for (const s of squares) bb |= 1n << BigInt(typeof s === 'string' ? parseSquare(s) : checkSquare('bitboardOf', 'square', s));
  return bb;
}

/** The squares of a set, ascending. */
export function squaresOf(bb: bigint): number[] {
  checkBitboard('squaresOf', 'set', bb);
  const out: number[] = [];
  for (let sq = 0; bb !== 0n; sq++, bb >>= 1n) if (bb & 1n) out.push(sq);
  return out;
}
