/** Bit counting on the two number forms the package computes with: int32 halves and bigints. */

/** Set bits of a 32-bit value (SWAR count: pairs, nibbles, bytes, then a multiply sums the bytes). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Set bits among the 64 of a bitboard (signed or unsigned form). */
export function popcount(b: bigint): number {
  return popcount32(Number(BigInt.asUintN(32, b))) + popcount32(Number(BigInt.asUintN(32, b >> 32n)));
}
