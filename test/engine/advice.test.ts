/**
 * judgeMove against lichess's published rule, restated here from its definition: winning chances
 * 2 / (1 + e^(−0.00368208·cp)) − 1 from the mover's view; a drop of 0.1 / 0.2 / 0.3 is an
 * inaccuracy / mistake / blunder; mate created (judged by the eval before) and mate lost (judged by
 * the eval after) with the thresholds 700 and 999 centipawns. A fast-check property compares the
 * centipawn case with a brute-force restatement on random scores.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeMove, winningChances } from '../../lib/engine/index.js';

const logistic = (cp: number) => 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;

describe('judgeMove (lichess rule)', () => {
  it('winning chances: 0 at 0 cp, odd, towards ±1', () => {
    expect(winningChances(0)).toBe(0);
    expect(winningChances(300)).toBeCloseTo(-winningChances(-300), 12);
    expect(winningChances(5000)).toBeGreaterThan(0.99);
  });

  it('centipawn drops from either side', () => {
    // White plays from +0.5 to -0.5: drop of wc(50) - wc(-50) = 2·wc(50) ≈ 0.18: inaccuracy.
    expect(judgeMove({ cp: 50 }, { cp: -50 }, 0)).toBe('inaccuracy');
    expect(judgeMove({ cp: 0 }, { cp: -150 }, 0)).toBe('mistake'); // wc(150) ≈ 0.27
    expect(judgeMove({ cp: 0 }, { cp: -250 }, 0)).toBe('blunder'); // ≈ 0.43
    expect(judgeMove({ cp: 0 }, { cp: 250 }, 1)).toBe('blunder'); // the same for Black
    expect(judgeMove({ cp: 0 }, { cp: 250 }, 0)).toBeNull(); // a gain
    expect(judgeMove({ cp: 900 }, { cp: 750 }, 0)).toBeNull(); // winning anyway: a small drop in chances (0.05)
  });

  it('mate created and mate lost', () => {
    expect(judgeMove({ cp: 20 }, { mate: -3 }, 0)).toBe('blunder');
    expect(judgeMove({ cp: -800 }, { mate: -3 }, 0)).toBe('mistake');
    expect(judgeMove({ cp: -1200 }, { mate: -3 }, 0)).toBe('inaccuracy');
    expect(judgeMove({ cp: -20 }, { mate: 3 }, 1)).toBe('blunder'); // Black now gets mated
    expect(judgeMove({ mate: 2 }, { cp: 1200 }, 0)).toBe('inaccuracy');
    expect(judgeMove({ mate: 2 }, { cp: 800 }, 0)).toBe('mistake');
    expect(judgeMove({ mate: 2 }, { cp: 100 }, 0)).toBe('blunder');
    expect(judgeMove({ mate: 2 }, { mate: -1 }, 0)).toBe('blunder');
    expect(judgeMove({ mate: -2 }, { cp: -100 }, 1)).toBe('blunder'); // Black had mate and let it go
    expect(judgeMove({ mate: 2 }, { mate: 4 }, 0)).toBeNull(); // slower mate: not judged
    expect(judgeMove({ mate: -2 }, { mate: -1 }, 0)).toBeNull();
    expect(judgeMove({ mate: 1 }, { mate: 0 }, 0)).toBeNull(); // mate given
  });

  it('property: the centipawn case equals the rule restated', () => {
    fc.assert(fc.property(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -3000, max: 3000 }), fc.constantFrom<0 | 1>(0, 1), (a, b, mover) => {
      const s = mover === 0 ? 1 : -1;
      const drop = logistic(s * a) - logistic(s * b);
      const want = drop >= 0.3 ? 'blunder' : drop >= 0.2 ? 'mistake' : drop >= 0.1 ? 'inaccuracy' : null;
      expect(judgeMove({ cp: a }, { cp: b }, mover)).toBe(want);
    }));
  });
});
