import { popcount, popcount32 } from './bits.js';
/**
 * Bitboard basics of the BigInt backend; twin of `native/core/bitboard.h`.
 *
 * Representation. Public bitboards are unsigned bigints 0..2^64-1. The hot code of this backend
 * (slider lookups, kingBlockers, move generation, perft, the batch forms) works on int32 halves
 * (lo = a1..h4, hi = a5..h8): a store into a BigUint64Array and two reads of an Int32Array view over
 * it are cheap, int32 arithmetic is V8's fastest, and a packed position reads as halves without a
 * conversion. The set-wise pattern functions of the public API (shifts and fills, leapers.ts,
 * lib/backends/js/king.ts and knight.ts) compute on the *signed* int64 representation of the same 64 bits
 * (`BigInt.asIntN(64, bb)`), because a shift of a whole set is one operation there: V8's
 * optimizing compiler lowers bigint operations whose operands and result are truncated to int64
 * onto plain machine integer ops (a few ns), while any step that may leave the int64 range falls
 * back to heap BigInts (tens of ns and an allocation). Hence every intermediate result is wrapped in
 * `BigInt.asIntN(64, ...)`, right shifts are masked (they are arithmetic on negative values), and
 * results leave through `BigInt.asUintN(64, ...)`. Masks below are given in that signed form; the
 * one-step helpers accept either form and return the signed one.
 *
 * Hot functions spell their masks as bigint *literals* (with the constant's name in a comment):
 * V8 11 only keeps the int64 fast path when the operand is a literal; reading the same value from a
 * module-level const is much slower (see the bench's patterns section).
 */

/** All 64 bits (unsigned), for readers who mask by hand. */
/**
 * The 16 halves of a position's eight sets (colours, then pawns .. kings; lo = a1..h4, hi = a5..h8): a plain array of small integers, not a typed array, because
 * allocating one (and collecting it) costs several times a 16-element array literal.
 */
export type SetHalves = readonly number[];

export const ALL_SQUARES = 0xffffffffffffffffn;

/** File and rank masks (signed int64 representation, like every mask below). */
export const FILE_A = 0x0101010101010101n;
export const FILE_H = BigInt.asIntN(64, 0x8080808080808080n);
export const RANK_1 = 0xffn;
export const RANK_2 = 0xff00n;
export const RANK_3 = 0xff0000n;
export const RANK_8 = BigInt.asIntN(64, 0xff00000000000000n);
/** Ranks 2-7: where pawns can stand. */
export const PAWN_RANKS = 0x00ffffffffffff00n;

/** The King Pattern page's wrap masks. */
export const notAFile = BigInt.asIntN(64, 0xfefefefefefefefen);
export const notABFile = BigInt.asIntN(64, 0xfcfcfcfcfcfcfcfcn);
export const notHFile = 0x7f7f7f7f7f7f7f7fn;
export const notGHFile = 0x3f3f3f3f3f3f3f3fn;

/** Keeps the low 64 - n bits: the mask that turns an arithmetic right shift by n into a logical one. */
export const LOW_56 = 0x00ffffffffffffffn;
export const LOW_48 = 0x0000ffffffffffffn;

/** One step east (towards the h-file), without a-file wrap. Any 64-bit form in, signed out. */
export function eastOne(b: bigint): bigint {
  return BigInt.asIntN(64, (b << 1n) & -0x101010101010102n); // notAFile
}

/** One step west (towards the a-file), without h-file wrap. Any 64-bit form in, signed out. */
export function westOne(b: bigint): bigint {
  return BigInt.asIntN(64, (b >> 1n) & 0x7f7f7f7f7f7f7f7fn); // notHFile
}

/** One step north (towards rank 8). Any 64-bit form in, signed out. */
export function nortOne(b: bigint): bigint {
  return BigInt.asIntN(64, b << 8n);
}

/** One step south (towards rank 1). Any 64-bit form in, signed out. */
export function soutOne(b: bigint): bigint {
  return BigInt.asIntN(64, (b >> 8n) & 0x00ffffffffffffffn);
}

/** Rank 0..7 of a square (a1 = 0, little-endian rank-file mapping). */
export function rankOf(sq: number): number {
  return sq >> 3;
}

/** File 0..7 of a square (a = 0). */
export function fileOf(sq: number): number {
  return sq & 7;
}

/** Chebyshev (king) distance between two squares. */
export function chebyshevDistance(a: number, b: number): number {
  return Math.max(Math.abs(rankOf(a) - rankOf(b)), Math.abs(fileOf(a) - fileOf(b)));
}



/** Mirror ranks (rank 1 <-> rank 8): a byte swap. Any form in, signed out. Table building only. */
export function flipVertical(b: bigint): bigint {
  let r = 0n;
  for (let i = 0n; i < 64n; i += 8n) r |= ((b >> i) & 0xffn) << (56n - i);
  return BigInt.asIntN(64, r);
}

/** squareBit[sq] = 1 << sq, signed form. */
export const squareBit = new BigInt64Array(64);

/**
 * The King Pattern page's `kingBits[64]` {rankBits, fileBits, diagBits, antiBits} table, flattened in that
 * order (`kingBits[4 * sq + LINE_RANK]` ...): the whole line of each kind through the square,
 * square included. Signed form. `rankBits` ... `antiBits` are the same lines split per kind.
 */
export const kingBits = new BigInt64Array(256);
export const LINE_RANK = 0;
export const LINE_FILE = 1;
export const LINE_DIAG = 2;
export const LINE_ANTI = 3;
/** The rank through each square. */
export const rankBits = new BigInt64Array(64);
/** The file through each square. */
export const fileBits = new BigInt64Array(64);
/** The diagonal (a1-h8 direction) through each square. */
export const diagBits = new BigInt64Array(64);
/** The anti-diagonal (h1-a8 direction) through each square. */
export const antiBits = new BigInt64Array(64);

const MAIN_DIAG = BigInt.asIntN(64, 0x8040201008040201n);
const MAIN_ANTI = 0x0102040810204080n;

for (let sq = 0; sq < 64; sq++) {
  const r = rankOf(sq);
  const f = fileOf(sq);
  squareBit[sq] = BigInt.asIntN(64, 1n << BigInt(sq));
  rankBits[sq] = BigInt.asIntN(64, RANK_1 << BigInt(8 * r));
  fileBits[sq] = FILE_A << BigInt(f);
  // Shift the long diagonal by whole ranks: north drops bits off the top, south off the bottom.
  const d = f - r;
  diagBits[sq] = d >= 0
    ? BigInt.asIntN(64, (MAIN_DIAG >> BigInt(8 * d)) & (ALL_SQUARES >> BigInt(8 * d)))
    : BigInt.asIntN(64, MAIN_DIAG << BigInt(-8 * d));
  const a = 7 - f - r;
  antiBits[sq] = a >= 0
    ? BigInt.asIntN(64, MAIN_ANTI >> BigInt(8 * a))
    : BigInt.asIntN(64, MAIN_ANTI << BigInt(-8 * a));
  kingBits[4 * sq + LINE_RANK] = rankBits[sq];
  kingBits[4 * sq + LINE_FILE] = fileBits[sq];
  kingBits[4 * sq + LINE_DIAG] = diagBits[sq];
  kingBits[4 * sq + LINE_ANTI] = antiBits[sq];
}

/** The RangeError the batch forms throw for a square element outside 0..63. */
export function badSquare(fn: string, i: number, v: number): RangeError {
  return new RangeError(`${fn}: square at index ${i} must be 0..63, got ${v}`);
}

/** Low 32 bits of a bitboard as an int32. */
export function lowHalf(b: bigint): number {
  return Number(BigInt.asIntN(32, b));
}

/** High 32 bits of a bitboard as an int32. */
export function highHalf(b: bigint): number {
  return Number(BigInt.asIntN(32, b >> 32n));
}

/** One fill step on a board held as int32 halves: the new low or high half. */
export type HalfFill = (lo: number, hi: number) => number;

/**
 * Fewest fill steps from square `from` to square `to` with the fill kept inside `path` (a set-wise
 * breadth-first search, the twin of native fillDistance); -1 when an end is off the path or the fill
 * stops growing. Runs on int32 halves: V8 in Node 20 crashes on loop-carried int64 bigints.
 */
export function fillDistance(from: number, to: number, path: bigint, fillLo: HalfFill, fillHi: HalfFill): number {
  const pathLo = lowHalf(path);
  const pathHi = highHalf(path);
  let lo = (from < 32 ? 1 << from : 0) & pathLo;
  let hi = (from < 32 ? 0 : 1 << (from - 32)) & pathHi;
  const toLo = (to < 32 ? 1 << to : 0) & pathLo;
  const toHi = (to < 32 ? 0 : 1 << (to - 32)) & pathHi;
  if ((lo | hi) === 0 || (toLo | toHi) === 0) return -1;
  let steps = 0;
  while (((lo & toLo) | (hi & toHi)) === 0) {
    const nextLo = fillLo(lo, hi) & pathLo;
    const nextHi = fillHi(lo, hi) & pathHi;
    if (nextLo === lo && nextHi === hi) return -1; // the fill has stopped
    lo = nextLo;
    hi = nextHi;
    steps++;
  }
  return steps;
}

/** The batch form of a square lookup: out[i] = table[squares[i]], squares range-checked. */
export function lookupSquares(fn: string, table: readonly bigint[]): (squares: Uint8Array, out: BigUint64Array) => void {
  return (squares, out) => {
    for (let i = 0; i < out.length; i++) {
      const sq = squares[i];
      if (sq > 63) throw badSquare(fn, i, sq);
      out[i] = table[sq];
    }
  };
}

/**
 * One attack table in the three forms its readers need, built once: `unsigned` (public lookups return
 * an entry as is, allocating nothing), `signed` (set-wise arithmetic) and `halves`, an Int32Array view
 * of the same memory ([2 * i] lo = a1..h4, [2 * i + 1] hi = a5..h8) for the hot code, which works on
 * int32 halves.
 */
export interface AttackTable {
  readonly unsigned: bigint[];
  readonly signed: BigInt64Array;
  readonly halves: Int32Array;
}

/** The AttackTable of `size` entries whose entry i is `attacksI64(i)` (signed). */
export function attackTable(size: number, attacksI64: (i: number) => bigint): AttackTable {
  const signed = new BigInt64Array(size);
  const unsigned: bigint[] = [];
  for (let i = 0; i < size; i++) {
    signed[i] = attacksI64(i);
    unsigned.push(BigInt.asUintN(64, signed[i]!));
  }
  return { unsigned, signed, halves: new Int32Array(signed.buffer) };
}

/** Pawn attacks by [color * 64 + sq]: the squares a pawn of that colour on sq attacks. */
export const pawnAttackTable = attackTable(128, (i) => {
  const sides = BigInt.asIntN(64, eastOne(squareBit[i & 63]!) | westOne(squareBit[i & 63]!));
  return i < 64 ? nortOne(sides) : soutOne(sides);
});

/** The batch form of a path distance (kingDistance, knightDistance): out[i] = distance(from[i], to[i], path[i]). */
export function distanceBatch(fn: string, distance: (from: number, to: number, path: bigint) => number) {
  return (from: Uint8Array, to: Uint8Array, path: BigUint64Array, out: Int8Array): void => {
    for (let i = 0; i < out.length; i++) {
      const a = from[i]!;
      const b = to[i]!;
      if (a > 63) throw badSquare(fn, i, a);
      if (b > 63) throw badSquare(fn, i, b);
      out[i] = distance(a, b, path[i]!);
    }
  };
}

// ---- Square lists, for code that walks a board square by square (the tablebase generator, the
// Syzygy probe's move generator) instead of with sets.

function squareLists(steps: readonly (readonly [number, number])[], slide: boolean): number[][][] {
  return steps.map(([df, dr]) => Array.from({ length: 64 }, (_, sq) => {
    const out: number[] = [];
    for (let f = fileOf(sq) + df, r = rankOf(sq) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      out.push(r * 8 + f);
      if (!slide) break;
    }
    return out;
  }));
}
function bySquare(lists: number[][][]): number[][] {
  return Array.from({ length: 64 }, (_, sq) => lists.flatMap((l) => l[sq]!));
}
/** KING_TARGETS[sq]: the squares a king on sq steps to. */
export const KING_TARGETS = bySquare(squareLists([[1, 1], [1, 0], [1, -1], [0, 1], [0, -1], [-1, 1], [-1, 0], [-1, -1]], false));
/** KNIGHT_TARGETS[sq]: the squares a knight on sq jumps to. */
export const KNIGHT_TARGETS = bySquare(squareLists([[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]], false));
/** RAYS[dir][sq]: the squares from sq outwards, nearest first; dirs 0..3 rook-wise, 4..7 bishop-wise. */
export const RAYS = squareLists([[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]], true);

export { popcount };
