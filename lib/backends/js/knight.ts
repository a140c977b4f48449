/**
 * Knight pattern (Chess Programming Wiki: Knight Pattern); twin of `native/core/knight.h`.
 * Signed int64 inside, unsigned bigints out: see the header of `lib/board/bitboard.ts`.
 */
import {
  attackTable, badSquare, distanceBatch, eastOne, squareBit, westOne, fillDistance, lookupSquares,
} from '../../board/bitboard.js';
import { arrKnightAttacks, knightAttacksEastWestI64 } from '../../board/leapers.js';

// Right shifts are arithmetic on the signed form: their masks also clear the copied sign bits.
// Masks are literals on purpose (see bitboard.ts): notAFile = -0x101010101010102n, notABFile = -0x303030303030304n.

/** Knight step north-north-east (+17), unsigned in and out. */
export function noNoEa(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) << 17n) & -0x101010101010102n); // notAFile
}
/** Knight step north-east-east (+10). */
export function noEaEa(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) << 10n) & -0x303030303030304n); // notABFile
}
/** Knight step south-east-east (-6). */
export function soEaEa(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) >> 6n) & 0xfcfcfcfcfcfcfcn); // notABFile, top 6 bits clear
}
/** Knight step south-south-east (-15). */
export function soSoEa(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) >> 15n) & 0xfefefefefefen); // notAFile, top 15 bits clear
}
/** Knight step north-north-west (+15). */
export function noNoWe(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) << 15n) & 0x7f7f7f7f7f7f7f7fn); // notHFile
}
/** Knight step north-west-west (+6). */
export function noWeWe(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) << 6n) & 0x3f3f3f3f3f3f3f3fn); // notGHFile
}
/** Knight step south-west-west (-10). */
export function soWeWe(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) >> 10n) & 0x3f3f3f3f3f3f3fn); // notGHFile, top 10 bits clear
}
/** Knight step south-south-west (-17). */
export function soSoWe(b: bigint): bigint {
  return BigInt.asUintN(64, (BigInt.asIntN(64, b) >> 17n) & 0x7f7f7f7f7f7fn); // notHFile, top 17 bits clear
}

/** The Knight Pattern page's l1/l2/r1/r2 multiple-knight attacks ("more parallelism"), signed in and out. */
export function knightAttacksParallelI64(knights: bigint): bigint {
  const l1 = BigInt.asIntN(64, (knights >> 1n) & 0x7f7f7f7f7f7f7f7fn); // notHFile
  const l2 = BigInt.asIntN(64, (knights >> 2n) & 0x3f3f3f3f3f3f3f3fn); // notGHFile
  const r1 = BigInt.asIntN(64, (knights << 1n) & -0x101010101010102n); // notAFile
  const r2 = BigInt.asIntN(64, (knights << 2n) & -0x303030303030304n); // notABFile
  const h1 = BigInt.asIntN(64, l1 | r1);
  const h2 = BigInt.asIntN(64, l2 | r2);
  return BigInt.asIntN(64, BigInt.asIntN(64, h1 << 16n) | ((h1 >> 16n) & 0xffffffffffffn)
    | BigInt.asIntN(64, h2 << 8n) | ((h2 >> 8n) & 0xffffffffffffffn));
}

/** Multiple knight attacks, the Knight Pattern page's east/west version (unsigned). */
export function knightAttacksSetEastWest(knights: bigint): bigint {
  return BigInt.asUintN(64, knightAttacksEastWestI64(BigInt.asIntN(64, knights)));
}

/** Multiple knight attacks, the Knight Pattern page's l1/l2/r1/r2 version (unsigned). */
export function knightAttacksSetParallel(knights: bigint): bigint {
  return BigInt.asUintN(64, knightAttacksParallelI64(BigInt.asIntN(64, knights)));
}

/** The variant the API uses, signed: east/west, the faster of the two in the bench. */
export const knightAttacksI64 = knightAttacksEastWestI64;

/** Attacks of every knight in the set (unsigned). */
export function knightAttacksSet(knights: bigint): bigint {
  return BigInt.asUintN(64, knightAttacksI64(BigInt.asIntN(64, knights)));
}

/** Knight attacks from one square, by lookup. */
export function knightAttacks(sq: number): bigint {
  return arrKnightAttacks[sq];
}

/** One knight-fill cycle: `knightAttacks(knights) | knights`. */
export function knightFill(knights: bigint): bigint {
  const k = BigInt.asIntN(64, knights);
  return BigInt.asUintN(64, knightAttacksI64(k) | k);
}

/**
 * The Knight Pattern page's forkTargetSquare, signed in and out: the union of the pairwise intersections of the
 * eight direction attack sets, i.e. squares a knight attacks two or more targets from.
 */
export function forkTargetSquaresI64(targets: bigint): bigint {
  let east = eastOne(targets);
  let west = westOne(targets);
  let attak = BigInt.asIntN(64, east << 16n);
  let forks = BigInt.asIntN(64, BigInt.asIntN(64, west << 16n) & attak);
  attak = BigInt.asIntN(64, attak | BigInt.asIntN(64, west << 16n));
  forks = BigInt.asIntN(64, forks | ((east >> 16n) & 0xffffffffffffn & attak));
  attak = BigInt.asIntN(64, attak | ((east >> 16n) & 0xffffffffffffn));
  forks = BigInt.asIntN(64, forks | ((west >> 16n) & 0xffffffffffffn & attak));
  attak = BigInt.asIntN(64, attak | ((west >> 16n) & 0xffffffffffffn));
  east = eastOne(east);
  west = westOne(west);
  forks = BigInt.asIntN(64, forks | (BigInt.asIntN(64, east << 8n) & attak));
  attak = BigInt.asIntN(64, attak | BigInt.asIntN(64, east << 8n));
  forks = BigInt.asIntN(64, forks | (BigInt.asIntN(64, west << 8n) & attak));
  attak = BigInt.asIntN(64, attak | BigInt.asIntN(64, west << 8n));
  forks = BigInt.asIntN(64, forks | ((east >> 8n) & 0xffffffffffffffn & attak));
  attak = BigInt.asIntN(64, attak | ((east >> 8n) & 0xffffffffffffffn));
  return BigInt.asIntN(64, forks | ((west >> 8n) & 0xffffffffffffffn & attak));
}

/** Squares from which a knight attacks two or more of `targets` (unsigned). */
export function forkTargetSquares(targets: bigint): bigint {
  return BigInt.asUintN(64, forkTargetSquaresI64(BigInt.asIntN(64, targets)));
}

/** Fork squares our knights reach that are not ours and not attacked by enemy pawns or knights. */
export function knightForkMoves(knights: bigint, targets: bigint, ownPieces: bigint,
  enemyPawnAttacks: bigint, enemyKnightAttacks: bigint): bigint {
  const unsafe = BigInt.asIntN(64,
    BigInt.asIntN(64, ownPieces) | BigInt.asIntN(64, enemyPawnAttacks) | BigInt.asIntN(64, enemyKnightAttacks));
  return BigInt.asUintN(64, forkTargetSquaresI64(BigInt.asIntN(64, targets))
    & knightAttacksI64(BigInt.asIntN(64, knights)) & ~unsafe);
}

/** Low half (ranks 1-4) of one knight-fill step, sets as int32 halves (see king.ts on why halves). */
export function knightFillLo(lo: number, hi: number): number {
  const one = ((lo << 1) & 0xfefefefe) | ((lo >>> 1) & 0x7f7f7f7f);
  const oneHi = ((hi << 1) & 0xfefefefe) | ((hi >>> 1) & 0x7f7f7f7f);
  const two = ((lo << 2) & 0xfcfcfcfc) | ((lo >>> 2) & 0x3f3f3f3f);
  const twoHi = ((hi << 2) & 0xfcfcfcfc) | ((hi >>> 2) & 0x3f3f3f3f);
  return lo | (one << 16) | (one >>> 16) | (oneHi << 16) | (two << 8) | (two >>> 8) | (twoHi << 24);
}

/** High half (ranks 5-8) of one knight-fill step. */
export function knightFillHi(lo: number, hi: number): number {
  const one = ((lo << 1) & 0xfefefefe) | ((lo >>> 1) & 0x7f7f7f7f);
  const oneHi = ((hi << 1) & 0xfefefefe) | ((hi >>> 1) & 0x7f7f7f7f);
  const two = ((lo << 2) & 0xfcfcfcfc) | ((lo >>> 2) & 0x3f3f3f3f);
  const twoHi = ((hi << 2) & 0xfcfcfcfc) | ((hi >>> 2) & 0x3f3f3f3f);
  return hi | (oneHi << 16) | (one >>> 16) | (oneHi >>> 16) | (twoHi << 8) | (two >>> 24) | (twoHi >>> 8);
}

/** Fewest knight moves from `from` to `to` on squares of `path` (both ends included); -1 if none. */
export function knightDistance(from: number, to: number, path: bigint): number {
  return fillDistance(from, to, path, knightFillLo, knightFillHi);
}

// ---- Batch forms ----

/** out[i] = knightAttacks(squares[i]). */
export const knightAttacksBatch = lookupSquares('knightAttacksBatch', arrKnightAttacks);

// The set -> set batch loops are written out per function on purpose: one shared higher-order loop
// makes its call site megamorphic in V8, which the bench shows several times slower per element.

/** out[i] = knightAttacksSet(sets[i]). */
export function knightAttacksSetBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = knightAttacksSet(sets[i]); }

/** out[i] = knightFill(sets[i]). */
export function knightFillBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = knightFill(sets[i]); }

/** out[i] = forkTargetSquares(sets[i]). */
export function forkTargetSquaresBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = forkTargetSquares(sets[i]); }

/** out[i] = noNoEa(sets[i]). */
export function noNoEaBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = noNoEa(sets[i]); }
/** out[i] = noEaEa(sets[i]). */
export function noEaEaBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = noEaEa(sets[i]); }
/** out[i] = soEaEa(sets[i]). */
export function soEaEaBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = soEaEa(sets[i]); }
/** out[i] = soSoEa(sets[i]). */
export function soSoEaBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = soSoEa(sets[i]); }
/** out[i] = noNoWe(sets[i]). */
export function noNoWeBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = noNoWe(sets[i]); }
/** out[i] = noWeWe(sets[i]). */
export function noWeWeBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = noWeWe(sets[i]); }
/** out[i] = soWeWe(sets[i]). */
export function soWeWeBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = soWeWe(sets[i]); }
/** out[i] = soSoWe(sets[i]). */
export function soSoWeBatch(sets: BigUint64Array, out: BigUint64Array): void { for (let i = 0; i < out.length; i++) out[i] = soSoWe(sets[i]); }

/** out[i] = knightDistance(from[i], to[i], path[i]). */
export const knightDistanceBatch = distanceBatch('knightDistanceBatch', knightDistance);

/** out[i] = knightForkMoves(knights[i], targets[i], ownPieces[i], enemyPawnAttacks[i], enemyKnightAttacks[i]). */
export function knightForkMovesBatch(knights: BigUint64Array, targets: BigUint64Array, ownPieces: BigUint64Array,
  enemyPawnAttacks: BigUint64Array, enemyKnightAttacks: BigUint64Array, out: BigUint64Array): void {
  for (let i = 0; i < out.length; i++) {
    out[i] = knightForkMoves(knights[i], targets[i], ownPieces[i], enemyPawnAttacks[i], enemyKnightAttacks[i]);
  }
}
