/**
 * The fuzzers' random numbers: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator) seeded
 * from the SHA-256 of `${seed}/${index}`, so that case `index` of a run can be replayed alone.
 * Returns numbers in [0, 1).
 */
import { createHash } from 'node:crypto';

export function seeded(seed, index) {
  const h = createHash('sha256').update(`${seed}/${index}`).digest();
  let a = h.readUInt32LE(0), b = h.readUInt32LE(4), c = h.readUInt32LE(8), d = h.readUInt32LE(12);
  return () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b | 0) + d | 0;
    d = d + 1 | 0;
    a = b ^ b >>> 9;
    b = c + (c << 3) | 0;
    c = c << 21 | c >>> 11;
    c = c + t | 0;
    return (t >>> 0) / 4294967296;
  };
}
