/**
 * chebyshevDistance (the King Pattern page: "a king attacks all squares in Moore neighborhood, that
 * is squares with a Chebyshev distance of one", the Distance page) against the page's diagrams as
 * literal bitboards and a breadth-first search of king steps on the empty board, on every backend.
 */
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { diagram, sq } from './reference.js';

/** The King Pattern page's "For instance a king on g2", as a literal: f1 g1 h1, f2 h2, f3 g3 h3. */
const KING_G2_ATTACKS = 0x0000_0000_00e0_a0e0n;

/** Brute force: king steps from `from` to every square of an empty board, by breadth-first search. */
function kingStepsFrom(from: number): number[] {
  const steps = new Array<number>(64).fill(-1);
  steps[from] = 0;
  const queue = [from];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (let df = -1; df <= 1; df++) {
      for (let dr = -1; dr <= 1; dr++) {
        const f = (s & 7) + df;
        const r = (s >> 3) + dr;
        if (f < 0 || f > 7 || r < 0 || r > 7) continue;
        const t = r * 8 + f;
        if (steps[t] === -1) {
          steps[t] = steps[s]! + 1;
          queue.push(t);
        }
      }
    }
  }
  return steps;
}
const BFS = Array.from({ length: 64 }, (_, from) => kingStepsFrom(from));

describe.each(backends)('chebyshevDistance: %s', (_name, api) => {
  it("the squares at distance one from g2 are the page's king-on-g2 diagram", () => {
    expect(diagram(`
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . . . . . .
      . . . . . 1 1 1
      . . . . . 1 . 1
      . . . . . 1 1 1
    `)).toBe(KING_G2_ATTACKS);
    let ring = 0n;
    for (let s = 0; s < 64; s++) if (api.chebyshevDistance(sq('g2'), s) === 1) ring |= 1n << BigInt(s);
    expect(ring).toBe(KING_G2_ATTACKS);
  });

  it('a king on e5 is 1, 2 and 3 from e6, e7 and e8 (the page\'s "distance = rank(kingSquare) ^ 7" diagram)', () => {
    expect(['e6', 'e7', 'e8'].map((t) => api.chebyshevDistance(sq('e5'), sq(t)))).toEqual([1, 2, 3]);
    expect(api.chebyshevDistance(sq('e5'), sq('e8'))).toBe((sq('e5') >> 3) ^ 7);
  });

  it('equals the breadth-first king steps for all 4096 pairs of squares', () => {
    for (let a = 0; a < 64; a++) {
      for (let b = 0; b < 64; b++) expect(api.chebyshevDistance(a, b), `${a} ${b}`).toBe(BFS[a]![b]);
    }
  });

  it('the batch form gives the single answers, into a given out or a new one', () => {
    const a = Uint8Array.from({ length: 4096 }, (_, i) => i >> 6);
    const b = Uint8Array.from({ length: 4096 }, (_, i) => i & 63);
    const want = Uint8Array.from({ length: 4096 }, (_, i) => BFS[i >> 6]![i & 63]!);
    expect(api.chebyshevDistanceBatch(a, b)).toEqual(want);
    const out = new Uint8Array(4096).fill(99);
    expect(api.chebyshevDistanceBatch(a, b, out)).toBe(out);
    expect(out).toEqual(want);
  });

  it('a batch square above 63 is a RangeError naming its index', () => {
    expect(() => api.chebyshevDistanceBatch(Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 64, 5])))
      .toThrow(RangeError);
    expect(() => api.chebyshevDistanceBatch(Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 64, 5])))
      .toThrow(/\b1\b/);
  });
});
