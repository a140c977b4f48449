/** fast-check arbitraries shared by the property tests (native vs JS). */
import fc from 'fast-check';

export const NUM_RUNS = 300;

const bb = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
/** Sparse and dense sets too: uniform bigints are all about half full. */
export const anySet = fc.oneof(
  bb,
  fc.tuple(bb, bb, bb).map(([a, b, c]) => a & b & c),
  fc.tuple(bb, bb).map(([a, b]) => a | b),
  fc.integer({ min: 0, max: 63 }).map((s) => 1n << BigInt(s)),
  fc.constantFrom(0n, 2n ** 64n - 1n),
);
export const square = fc.integer({ min: 0, max: 63 });
export const color = fc.constantFrom(0, 1);
