/**
 * King pattern (Chess Programming Wiki: King Pattern); twin of `native/core/king.h`.
 * Signed int64 inside, unsigned bigints out: see the header of `lib/board/bitboard.ts`.
 */
import {
  PAWN_RANKS, RANK_2, antiBits, attackTable, chebyshevDistance, badSquare, diagBits, distanceBatch, eastOne, fileBits,
  fileOf, flipVertical, nortOne,
  rankBits, rankOf, soutOne, squareBit, westOne, fillDistance, highHalf, lowHalf, lookupSquares,
} from '../../board/bitboard.js';
import { arrKingAttacks, kingAttacksBits, kingAttacksI64 } from '../../board/leapers.js';

/** King attacks of every king in the set (unsigned). */
export function kingAttacksSet(kings: bigint): bigint {
  return BigInt.asUintN(64, kingAttacksI64(BigInt.asIntN(64, kings)));
}

/** One king path fill cycle (King Pattern, Flood Fill Algorithms): the kings and the squares they attack. */
export function kingFill(kings: bigint): bigint {
  return kingAttacksSet(kings) | kings;
}

/** King attacks from one square, by lookup. */
export function kingAttacks(sq: number): bigint {
  return arrKingAttacks[sq];
}

// ---- Pawn shield ----

/** pawnShieldMask by [color * 64 + kingSq], unsigned. */
const shieldMask: bigint[] = [];
/** Bit index of the mask's west square on the rank next to the back rank, by [color * 64 + kingSq]; -1: no mask. */
const shieldNearShift = new Int8Array(128);
/** The same for the rank one further; shifts kept as bigints to avoid a conversion per call. */
const shieldNearShiftBig = new BigInt64Array(128);
const shieldFarShiftBig = new BigInt64Array(128);
for (let color = 0; color < 2; color++) {
  for (let sq = 0; sq < 64; sq++) {
    const i = color * 64 + sq;
    const relativeRank = color === 0 ? rankOf(sq) : 7 - rankOf(sq);
    if (relativeRank > 1) {
      shieldMask.push(0n);
      shieldNearShift[i] = -1;
      continue;
    }
    const f = fileOf(sq);
    const westFile = f <= 2 ? 0 : f >= 5 ? 5 : f - 1;
    const near = (color === 0 ? 1 : 6) * 8 + westFile;
    const far = (color === 0 ? 2 : 5) * 8 + westFile;
    shieldMask.push((7n << BigInt(near)) | (7n << BigInt(far)));
    shieldNearShift[i] = near;
    shieldNearShiftBig[i] = BigInt(near);
    shieldFarShiftBig[i] = BigInt(far);
  }
}

/** Pawn-shield mask of a king of `color` on `kingSq` (see backend.ts for the shapes); 0n off the first two ranks. */
export function pawnShieldMask(color: number, kingSq: number): bigint {
  return shieldMask[color * 64 + kingSq];
}

/** Dense 0..63 index of the shield pawns: bits 0-2 the near rank west to east, bits 3-5 the far rank. */
export function pawnShieldIndex(color: number, kingSq: number, pawns: bigint): number {
  const i = color * 64 + kingSq;
  if (shieldNearShift[i] < 0) return 0;
  const p = BigInt.asIntN(64, pawns);
  return Number(BigInt.asIntN(64, ((p >> shieldNearShiftBig[i]) & 7n) | (((p >> shieldFarShiftBig[i]) & 7n) << 3n)));
}

// ---- Distant checks ----

/** `arrKingAttacks[sq] & ~taboo`: where the king may go. */
export function kingMoveTargets(kingSq: number, taboo: bigint): bigint {
  return BigInt.asUintN(64, kingAttacksBits[kingSq] & ~BigInt.asIntN(64, taboo));
}

/** The King Pattern page's dirSet as an if/else chain (precedence slip fixed): 15 no move, 1 rank, 2 file, 4 diag, 8 anti, 0. */
export function distantCheckLinesBranchy(kingSq: number, taboo: bigint): number {
  const moveTargets = BigInt.asIntN(64, kingAttacksBits[kingSq] & ~BigInt.asIntN(64, taboo));
  if (moveTargets === 0n) return 15;
  const pattern = BigInt.asIntN(64, moveTargets | squareBit[kingSq]);
  if (BigInt.asIntN(64, pattern & rankBits[kingSq]) === pattern) return 1;
  if (BigInt.asIntN(64, pattern & fileBits[kingSq]) === pattern) return 2;
  if (BigInt.asIntN(64, pattern & diagBits[kingSq]) === pattern) return 4;
  if (BigInt.asIntN(64, pattern & antiBits[kingSq]) === pattern) return 8;
  return 0;
}

/**
 * The King Pattern page's branchless dirSet: a sum of compares. No special case for "no move": the king square
 * alone lies on all four lines, which sums to 15.
 */
export function distantCheckLinesBranchless(kingSq: number, taboo: bigint): number {
  const pattern = BigInt.asIntN(64,
    (kingAttacksBits[kingSq] & ~BigInt.asIntN(64, taboo)) | squareBit[kingSq]);
  return (BigInt.asIntN(64, pattern & rankBits[kingSq]) === pattern ? 1 : 0)
    + (BigInt.asIntN(64, pattern & fileBits[kingSq]) === pattern ? 2 : 0)
    + (BigInt.asIntN(64, pattern & diagBits[kingSq]) === pattern ? 4 : 0)
    + (BigInt.asIntN(64, pattern & antiBits[kingSq]) === pattern ? 8 : 0);
}

/**
 * The API's distantCheckLines: the branchless variant, the faster one in the bench (the two always
 * agree: at most one line can hold the pattern).
 */
export const distantCheckLines = distantCheckLinesBranchless;

// ---- Set-wise rule of the square ----

/**
 * Black king, white (the pawns' side) to move, by the King Pattern page's fill: widen the king's rank by the
 * king's distance to the 8th rank, fill south-west/south-east down to the 3rd rank, then make the
 * 2nd rank a copy of the 3rd (a double push costs one move; the King Pattern page's `soutOne(...) | 0xff` is
 * wrong for a king on its 2nd rank, which catches nothing there).
 */
function blackKingPawnsToMove(sq: number): bigint {
  let caughtable = squareBit[sq];
  for (let i = 0; i < 7 - rankOf(sq); i++) caughtable |= westOne(caughtable) | eastOne(caughtable);
  for (let i = 0; i < rankOf(sq) - 2; i++) {
    caughtable |= soutOne(westOne(caughtable) | caughtable | eastOne(caughtable));
  }
  const third = (caughtable >> 16n) & 0xffn;
  caughtable = (caughtable & ~RANK_2) | (third << 8n);
  return BigInt.asIntN(64, caughtable & PAWN_RANKS);
}

/** arrCaughtableArea[kingColor][sideToMove][sq] flattened, signed form. */
const caughtableBits = new BigInt64Array(256);
/** The same, unsigned. */
const caughtableArr: bigint[] = new Array<bigint>(256).fill(0n);
{
  const BLACK_PAWNS_TO_MOVE = (1 * 2 + 0) * 64;
  const BLACK_KING_TO_MOVE = (1 * 2 + 1) * 64;
  for (let sq = 0; sq < 64; sq++) caughtableBits[BLACK_PAWNS_TO_MOVE + sq] = blackKingPawnsToMove(sq);
  // With the tempo the king may first step anywhere it attacks: the rule of the square with one move
  // more. Or it takes a pawn next to it at once, which the distance race misses for a pawn on its
  // initial rank beside or in front of a king on its back rank (black Kb1 takes Pa2).
  for (let sq = 0; sq < 64; sq++) {
    let area = caughtableBits[BLACK_PAWNS_TO_MOVE + sq] | (kingAttacksBits[sq] & PAWN_RANKS);
    for (let to = 0; to < 64; to++) {
      if (chebyshevDistance(sq, to) === 1) area |= caughtableBits[BLACK_PAWNS_TO_MOVE + to];
    }
    caughtableBits[BLACK_KING_TO_MOVE + sq] = area;
  }
  // A white king is the black one mirrored rank-wise; "king to move" maps to "king to move".
  for (let stm = 0; stm < 2; stm++) {
    for (let sq = 0; sq < 64; sq++) {
      caughtableBits[stm * 64 + sq] = flipVertical(caughtableBits[(2 + 1 - stm) * 64 + (sq ^ 56)]);
    }
  }
  for (let i = 0; i < 256; i++) caughtableArr[i] = BigInt.asUintN(64, caughtableBits[i]);
}

/** Squares (ranks 2-7) of enemy passers a king of `kingColor` on `kingSq` catches by the rule of the square. */
export function caughtableArea(kingColor: number, sideToMove: number, kingSq: number): bigint {
  return caughtableArr[(kingColor * 2 + sideToMove) * 64 + kingSq];
}

/** `passers & ~caughtableArea(kingColor, sideToMove, kingSq)`. */
export function uncatchablePassers(passers: bigint, kingColor: number, sideToMove: number, kingSq: number): bigint {
  return BigInt.asUintN(64,
    BigInt.asIntN(64, passers) & ~caughtableBits[(kingColor * 2 + sideToMove) * 64 + kingSq]);
}

// ---- Flood fills ----
//
// The fills loop, and Node 20's optimizing compiler crashes the process (RepresentationChanger:
// "Phi of kRepTagged (SignedBigInt64) cannot be changed to kRepWord64") on a loop-carried int64
// bigint. So the loops run on the board as two int32 halves (lo = a1..h4, hi = a5..h8), which is
// also the fastest thing V8 does.

/** Low half (ranks 1-4) of one king-fill step `set | kingAttacks(set)`, sets as int32 halves. */
export function kingFillLo(lo: number, hi: number): number {
  const h = lo | ((lo << 1) & 0xfefefefe) | ((lo >>> 1) & 0x7f7f7f7f);
  const hh = hi | ((hi << 1) & 0xfefefefe) | ((hi >>> 1) & 0x7f7f7f7f);
  return h | (h << 8) | (h >>> 8) | (hh << 24);
}

/** High half (ranks 5-8) of one king-fill step. */
export function kingFillHi(lo: number, hi: number): number {
  const h = lo | ((lo << 1) & 0xfefefefe) | ((lo >>> 1) & 0x7f7f7f7f);
  const hh = hi | ((hi << 1) & 0xfefefefe) | ((hi >>> 1) & 0x7f7f7f7f);
  return hh | (hh << 8) | (hh >>> 8) | (h >>> 24);
}

/** Steffan Westcott's 8-way flood fill: does a path inside `path` join a bit of `from` to a bit of `to`? */
export function squaresAreConnected(from: bigint, to: bigint, path: bigint): boolean {
  const pathLo = lowHalf(path);
  const pathHi = highHalf(path);
  let lo = lowHalf(from) & pathLo;
  let hi = highHalf(from) & pathHi;
  const toLo = lowHalf(to) & pathLo;
  const toHi = highHalf(to) & pathHi;
  if ((lo | hi) === 0 || (toLo | toHi) === 0) return false;
  while (((lo & toLo) | (hi & toHi)) === 0) {
    const nextLo = kingFillLo(lo, hi) & pathLo;
    const nextHi = kingFillHi(lo, hi) & pathHi;
    if (nextLo === lo && nextHi === hi) return false; // the fill has stopped
    lo = nextLo;
    hi = nextHi;
  }
  return true;
}

/** The squares of `path` the 8-way flood fill from `from` reaches, run until it stops (native/core/king.h). */
export function kingPathFill(from: bigint, path: bigint): bigint {
  const pathLo = lowHalf(path);
  const pathHi = highHalf(path);
  let lo = lowHalf(from) & pathLo;
  let hi = highHalf(from) & pathHi;
  for (;;) {
    const nextLo = kingFillLo(lo, hi) & pathLo;
    const nextHi = kingFillHi(lo, hi) & pathHi;
    if (nextLo === lo && nextHi === hi) break;
    lo = nextLo;
    hi = nextHi;
  }
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/** out[i] = kingPathFill(from[i], path[i]). */
export function kingPathFillBatch(from: BigUint64Array, path: BigUint64Array, out: BigUint64Array): void {
  for (let i = 0; i < out.length; i++) out[i] = kingPathFill(from[i]!, path[i]!);
}

/** Fewest king steps from `from` to `to` on squares of `path` (both ends included); -1 if none. */
export function kingDistance(from: number, to: number, path: bigint): number {
  return fillDistance(from, to, path, kingFillLo, kingFillHi);
}

/**
 * The King Pattern page's measure of king attacks: a king attacks the squares at Chebyshev distance
 * one (the Distance page): max(file distance, rank distance).
 */
export { chebyshevDistance };

// ---- Batch forms ----

/** out[i] = kingAttacks(squares[i]). */
export const kingAttacksBatch = lookupSquares('kingAttacksBatch', arrKingAttacks);

/** out[i] = kingFill(sets[i]). */
export function kingFillBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = kingFill(sets[i]); }
/** out[i] = kingAttacksSet(sets[i]). */
export function kingAttacksSetBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = kingAttacksSet(sets[i]); }

/** out[i] = pawnShieldMask(color, kingSqs[i]). */
export function pawnShieldMaskBatch(color: number, kingSqs: Uint8Array, out: BigUint64Array): void {
  for (let i = 0; i < out.length; i++) {
    const sq = kingSqs[i];
    if (sq > 63) throw badSquare('pawnShieldMaskBatch', i, sq);
    out[i] = shieldMask[color * 64 + sq];
  }
}

/** out[i] = pawnShieldIndex(color, kingSqs[i], pawns[i]). */
export function pawnShieldIndexBatch(color: number, kingSqs: Uint8Array, pawns: BigUint64Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) {
    const sq = kingSqs[i];
    if (sq > 63) throw badSquare('pawnShieldIndexBatch', i, sq);
    out[i] = pawnShieldIndex(color, sq, pawns[i]);
  }
}

/** out[i] = kingMoveTargets(kingSqs[i], taboo[i]). */
export function kingMoveTargetsBatch(kingSqs: Uint8Array, taboo: BigUint64Array, out: BigUint64Array): void {
  for (let i = 0; i < out.length; i++) {
    const sq = kingSqs[i];
    if (sq > 63) throw badSquare('kingMoveTargetsBatch', i, sq);
    out[i] = kingMoveTargets(sq, taboo[i]);
  }
}

/** out[i] = distantCheckLines(kingSqs[i], taboo[i]) (the faster variant). */
export function distantCheckLinesBatch(kingSqs: Uint8Array, taboo: BigUint64Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) {
    const sq = kingSqs[i];
    if (sq > 63) throw badSquare('distantCheckLinesBatch', i, sq);
    out[i] = distantCheckLines(sq, taboo[i]);
  }
}

/** out[i] = caughtableArea(kingColor, sideToMove, kingSqs[i]). */
export function caughtableAreaBatch(kingColor: number, sideToMove: number, kingSqs: Uint8Array, out: BigUint64Array): void {
  const base = (kingColor * 2 + sideToMove) * 64;
  for (let i = 0; i < out.length; i++) {
    const sq = kingSqs[i];
    if (sq > 63) throw badSquare('caughtableAreaBatch', i, sq);
    out[i] = caughtableArr[base + sq];
  }
}

/** out[i] = uncatchablePassers(passers[i], kingColor, sideToMove, kingSqs[i]). */
export function uncatchablePassersBatch(passers: BigUint64Array, kingColor: number, sideToMove: number,
  kingSqs: Uint8Array, out: BigUint64Array): void {
  for (let i = 0; i < out.length; i++) {
    const sq = kingSqs[i];
    if (sq > 63) throw badSquare('uncatchablePassersBatch', i, sq);
    out[i] = uncatchablePassers(passers[i], kingColor, sideToMove, sq);
  }
}

/** out[i] = 1 when squaresAreConnected(from[i], to[i], path[i]), else 0. */
export function squaresAreConnectedBatch(from: BigUint64Array, to: BigUint64Array, path: BigUint64Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = squaresAreConnected(from[i], to[i], path[i]) ? 1 : 0;
}

/** out[i] = kingDistance(from[i], to[i], path[i]). */
export const kingDistanceBatch = distanceBatch('kingDistanceBatch', kingDistance);

/** out[i] = chebyshevDistance(a[i], b[i]). */
export function chebyshevDistanceBatch(a: Uint8Array, b: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x > 63) throw badSquare('chebyshevDistanceBatch', i, x);
    if (y > 63) throw badSquare('chebyshevDistanceBatch', i, y);
    out[i] = chebyshevDistance(x, y);
  }
}
