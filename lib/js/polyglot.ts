/**
 * The Polyglot opening-book format's position key ("Polyglot book format",
 * http://hgm.nubati.net/book_format.html); twin of `native/core/polyglot.h`. The key is the XOR of the
 * format's random numbers for each piece on its square, each castling right, the en-passant file and
 * white to move. The en-passant file counts only when a pawn of the side to move stands next to the
 * pawn that has just made the double step (the format's rule: a pseudo-legal capture, legality not
 * asked). Computed on unsigned 32-bit halves; one bigint is made at the end.
 */
import type { Position } from '../backend.js';
import { POLYGLOT_RANDOM_HALVES as R } from './polyglot-random.js';

const CASTLE = 768;
const EN_PASSANT = 772;
const TURN = 780;
const LOW = 0xffffffffn;

/** The key's two halves (int32 bit patterns), filled by keyHalves. */
let keyLo = 0;
let keyHi = 0;

/** XORs the random numbers of the squares of `set` (a 32-bit half holding squares base..base+31). */
function xorSquares(half: number, base: number, kind: number): void {
  let lo = 0, hi = 0;
  while (half !== 0) {
    const bit = half & -half;
    const index = 2 * (64 * kind + base + 31 - Math.clz32(bit));
    lo ^= R[index]!;
    hi ^= R[index + 1]!;
    half ^= bit;
  }
  keyLo ^= lo;
  keyHi ^= hi;
}

/** Is square `sq` (0..63) in the set given as halves? */
const has = (lo: number, hi: number, sq: number): boolean =>
  sq < 32 ? ((lo >>> sq) & 1) === 1 : ((hi >>> (sq - 32)) & 1) === 1;

/**
 * The key of a board given as its colour and piece-type sets, into keyLo / keyHi. colors: [white, black];
 * pieces: pawns, knights, bishops, rooks, queens, kings; castling the CASTLE_* bits; epSquare 0..63 or
 * -1 / 64 for none.
 */
function keyHalves(colors: readonly bigint[], pieces: readonly bigint[], sideToMove: number, castling: number,
  epSquare: number): void {
  keyLo = 0;
  keyHi = 0;
  let pawnsLo = 0, pawnsHi = 0;
  for (let color = 0; color < 2; ++color) {
    for (let type = 0; type < 6; ++type) {
      const set = colors[color]! & pieces[type]!;
      if (set === 0n) continue;
      const lo = Number(set & LOW), hi = Number(set >> 32n);
      // kind = 2 * type + 1 for white, 2 * type for black (black pawn 0, white pawn 1, ...).
      const kind = 2 * type + (color === 0 ? 1 : 0);
      xorSquares(lo, 0, kind);
      xorSquares(hi, 32, kind);
      if (type === 0 && color === sideToMove) {
        pawnsLo = lo;
        pawnsHi = hi;
      }
    }
  }
  for (let right = 0; right < 4; ++right) {
    if (castling & (1 << right)) {
      keyLo ^= R[2 * (CASTLE + right)]!;
      keyHi ^= R[2 * (CASTLE + right) + 1]!;
    }
  }
  if (epSquare >= 0 && epSquare < 64) {
    // The pawn that made the double step is one rank behind the en-passant square (from the side
    // to move's view); a pawn of the side to move beside it on that rank could capture.
    const pushed = sideToMove === 0 ? epSquare - 8 : epSquare + 8;
    const file = epSquare & 7;
    if ((file > 0 && has(pawnsLo, pawnsHi, pushed - 1)) || (file < 7 && has(pawnsLo, pawnsHi, pushed + 1))) {
      keyLo ^= R[2 * (EN_PASSANT + file)]!;
      keyHi ^= R[2 * (EN_PASSANT + file) + 1]!;
    }
  }
  if (sideToMove === 0) {
    keyLo ^= R[2 * TURN]!;
    keyHi ^= R[2 * TURN + 1]!;
  }
}

/** The Polyglot key of a Position. */
export function polyglotKey(pos: Position): bigint {
  keyHalves(pos.colors, pos.pieces, pos.sideToMove, pos.castling, pos.epSquare);
  return (BigInt(keyHi >>> 0) << 32n) | BigInt(keyLo >>> 0);
}

const COLORS: bigint[] = [0n, 0n];
const PIECES: bigint[] = [0n, 0n, 0n, 0n, 0n, 0n];

/**
 * The Polyglot key of the packed position at words[base .. base + 9] (lib/backend.ts's layout,
 * validated by the caller), for the batch analysis.
 */
export function polyglotKeyOfWords(words: BigUint64Array, base: number): bigint {
  COLORS[0] = words[base]!;
  COLORS[1] = words[base + 1]!;
  for (let t = 0; t < 6; ++t) PIECES[t] = words[base + 2 + t]!;
  const state = Number(words[base + 8]! & 0xffffn);
  keyHalves(COLORS, PIECES, state & 1, (state >> 1) & 15, state >> 8);
  return (BigInt(keyHi >>> 0) << 32n) | BigInt(keyLo >>> 0);
}
