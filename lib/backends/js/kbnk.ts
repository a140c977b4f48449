/**
 * KBNK (Chess Programming Wiki: KBNK Endgame) in plain JS numbers; twin of `native/core/kbnk.h`. The
 * distance-to-mate table is the KBNvK case of the general generator (lib/backends/js/tbgen.ts).
 *
 * - `cornerDistance`: the KBNK Endgame page's branch-free bit twiddle, in int32 arithmetic (`Math.imul` keeps the
 *   multiplication modulo 2^32 exactly like the C `int` version).
 * - `kbnkEval`: the mop-up score of the contract (lib/core/types.ts).
 */
// ---------------------------------------------------------------------------- evaluation

/**
 * The KBNK Endgame page's manhattanDistance2ClosestCornerOfBishopSquareColor: Manhattan distance of king square
 * `k` to the closest corner of the colour of bishop square `b` (0..7).
 */
export function cornerDistance(b: number, k: number): number {
  b = Math.imul(-1879048192, b) >> 31; // 0 | -1 to mirror: the sign bit is the parity of file + rank
  k = (k >> 3) + ((k ^ b) & 7); // rank + (mirrored) file
  k = ((Math.imul(15, k >> 3) ^ k) - (k >> 3)); // if (k > 7) k = 14 - k
  return k;
}

/** Manhattan distance (the Distance page, linked from the KBNK Endgame page): file plus rank distance, 0..14. */
export function manhattanDistance(a: number, b: number): number {
  return Math.abs((a & 7) - (b & 7)) + Math.abs((a >> 3) - (b >> 3));
}

/** The contract's mop-up score (lib/core/types.ts): 0..154, higher = better for the strong side. */
export function kbnkEval(strongKing: number, bishop: number, _knight: number, weakKing: number): number {
  const chebyshev = Math.max(Math.abs((strongKing & 7) - (weakKing & 7)), Math.abs((strongKing >> 3) - (weakKing >> 3)));
  return (7 - cornerDistance(bishop, weakKing)) * 16 + (7 - chebyshev) * 4 + (14 - manhattanDistance(strongKing, weakKing));
}
