/**
 * The Polyglot opening-book format's position key ("Polyglot book format",
 * http://hgm.nubati.net/book_format.html); twin of `native/core/polyglot.h`. The key is the XOR of the
 * format's random numbers for each piece on its square, each castling right, the en-passant file and
 * white to move. The en-passant file counts only when a pawn of the side to move stands next to the
 * pawn that has just made the double step (the format's rule: a pseudo-legal capture, legality not
 * asked). Computed on the packed words' int32 halves; one bigint is made at the end.
 */
import { PACKED_POSITION_WORDS, type Position } from '../../core/types.js';
import { packedOf } from '../../core/position.js';
import { POLYGLOT_RANDOM_HALVES as R } from './polyglot-random.js';

const CASTLE = 768;
const EN_PASSANT = 772;
const TURN = 780;

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
 * The key of the packed position whose words are w32[at .. at + 19] as int32 halves (word k: low
 * half at at + 2k, high half at at + 2k + 1; lib/core/types.ts's layout), into keyLo / keyHi.
 */
function keyHalves(w32: Int32Array, at: number): void {
  keyLo = 0;
  keyHi = 0;
  const state = w32[at + 16]!;
  const sideToMove = state & 1;
  let pawnsLo = 0, pawnsHi = 0;
  for (let color = 0; color < 2; ++color) {
    const cLo = w32[at + 2 * color]!, cHi = w32[at + 2 * color + 1]!;
    for (let type = 0; type < 6; ++type) {
      const lo = cLo & w32[at + 4 + 2 * type]!, hi = cHi & w32[at + 5 + 2 * type]!;
      // kind = 2 * type + 1 for white, 2 * type for black (black pawn 0, white pawn 1, ...).
      const kind = 2 * type + (color === 0 ? 1 : 0);
      if (lo !== 0) xorSquares(lo, 0, kind);
      if (hi !== 0) xorSquares(hi, 32, kind);
      if (type === 0 && color === sideToMove) {
        pawnsLo = lo;
        pawnsHi = hi;
      }
    }
  }
  const castling = (state >> 1) & 15;
  for (let right = 0; right < 4; ++right) {
    if (castling & (1 << right)) {
      keyLo ^= R[2 * (CASTLE + right)]!;
      keyHi ^= R[2 * (CASTLE + right) + 1]!;
    }
  }
  const epSquare = (state >> 8) & 255;
  if (epSquare < 64) {
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

const keyOfHalves = (): bigint => (BigInt(keyHi >>> 0) << 32n) | BigInt(keyLo >>> 0);

/** The Polyglot key of a Position (read from its packed words, no bigint per set). */
export function polyglotKey(pos: Position): bigint {
  const words = packedOf(pos);
  keyHalves(new Int32Array(words.buffer, words.byteOffset, 2 * PACKED_POSITION_WORDS), 0);
  return keyOfHalves();
}

/**
 * The Polyglot key of packed position i of a batch, given the batch's words as int32 halves
 * (validated by the caller), for the batch analysis.
 */
export function polyglotKeyOfHalves(w32: Int32Array, i: number): bigint {
  keyHalves(w32, 2 * PACKED_POSITION_WORDS * i);
  return keyOfHalves();
}

/**
 * The Polyglot key of the packed position at w32[at ..] (int32 halves) as two int32 halves,
 * out[0] the low and out[1] the high one: no bigint, for lookups in tables of keys.
 */
export function polyglotKeyHalves(w32: Int32Array, at: number, out: Int32Array): void {
  keyHalves(w32, at);
  out[0] = keyLo;
  out[1] = keyHi;
}
