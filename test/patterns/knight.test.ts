/**
 * Knight patterns (Chess Programming Wiki: Knight Pattern) against the wiki diagrams and the brute-force references
 * of test/patterns/reference.ts, on every backend.
 */
import { describe, expect, it } from 'vitest';
import { KNIGHT_DIRECTIONS } from '../../lib/core/types.js';
import { backends } from '../support/backends.js';
import {
  ALL_SQUARES_LIST, FULL, KNIGHT_STEPS, bit, checkBatch, checkDistanceBatch, checkDistanceOnRandomPaths, diagram, forkTargetSquaresRef, knightAttacksRef,
  knightAttacksSetRef, knightDistanceRef, knightForkMovesRef, knightStepRef, randomSet, randomSets, randomSetsOf, randomSquares,
  rng, setOf, show, sq, squaresIn,
} from './reference.js';

const u8 = (xs: number[]) => Uint8Array.from(xs);
const u64 = (xs: bigint[]) => BigUint64Array.from(xs);

// ------------------------------------------------------------------ wiki diagrams (Knight Pattern)

/** "For instance a knight on d4". */
const SEED_KNIGHT_D4 = diagram(`
  . . . . . . . .
  . . . . . . . .
  . . 1 . 1 . . .
  . 1 . . . 1 . .
  . . . . . . . .
  . 1 . . . 1 . .
  . . 1 . 1 . . .
  . . . . . . . .
`);

/**
 * The wiki page's "applied six times on the otherwise empty board", copied as printed. The first row of
 * pictures is headed "1. Fill 2. Fill 3. Fill" but holds four boards: the knight on a1, then fills 1-3.
 */
const SEED_FILLS_0_TO_3 = `
  . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
  . . . . . . . . . . . . . . . . . . . . . . . . . 1 . 1 . . . .
  . . . . . . . . . . . . . . . . . . . . . . . . 1 . 1 . 1 . . .
  . . . . . . . . . . . . . . . . 1 . 1 . . . . . 1 1 1 1 . 1 . .
  . . . . . . . . . . . . . . . . . 1 . 1 . . . . 1 1 1 1 1 . 1 .
  . . . . . . . . . 1 . . . . . . 1 1 . . 1 . . . 1 1 . 1 1 1 . .
  . . . . . . . . . . 1 . . . . . . . 1 1 . . . . 1 . 1 1 1 . 1 .
  1 . . . . . . . 1 . . . . . . . 1 . 1 . 1 . . . 1 1 1 1 1 1 . .
`;
/** "4. Fill 5. Fill 6. Fill". */
const SEED_FILLS_4_TO_6 = `
  . 1 . 1 . 1 . . 1 1 1 1 1 1 1 . 1 1 1 1 1 1 1 1
  1 1 1 1 1 . 1 . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
  1 1 1 1 1 1 . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
  1 1 1 1 1 1 1 . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
  1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
  1 1 1 1 1 1 1 . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
  1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
  1 1 1 1 1 1 1 . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
`;
const SEED_FILLS = [
  ...[0, 1, 2, 3].map((board) => diagram(SEED_FILLS_0_TO_3, { boards: 4, board })),
  ...[0, 1, 2].map((board) => diagram(SEED_FILLS_4_TO_6, { boards: 3, board })),
];

describe.each(backends)('%s', (_name, api) => {
  // ---------------------------------------------------------------- single knights

  describe('knightAttacks', () => {
    it('is the wiki diagram for a knight on d4', () => {
      expect(show(api.knightAttacks(sq('d4')))).toBe(show(SEED_KNIGHT_D4));
    });

    it('matches the coordinate reference on all 64 squares', () => {
      for (const s of ALL_SQUARES_LIST) expect(api.knightAttacks(s), `square ${s}`).toBe(knightAttacksRef(s));
    });

    it('has two targets in a corner and never wraps', () => {
      expect(squaresIn(api.knightAttacks(sq('a1')))).toEqual([sq('c2'), sq('b3')]);
      expect(squaresIn(api.knightAttacks(sq('h8')))).toEqual([sq('f7'), sq('g6')].sort((a, b) => a - b));
      expect(squaresIn(api.knightAttacks(sq('h4')))).toEqual(['g2', 'f3', 'f5', 'g6'].map(sq));
    });
  });

  describe('direction steps', () => {
    it('lists the eight seed directions in order', () => {
      expect([...KNIGHT_DIRECTIONS]).toEqual(Object.keys(KNIGHT_STEPS));
    });

    it.each(Object.keys(KNIGHT_STEPS) as (keyof typeof KNIGHT_STEPS)[])('%s on every single square', (dir) => {
      for (const s of ALL_SQUARES_LIST) expect(api[dir](bit(s)), `${dir} ${s}`).toBe(knightStepRef(dir, bit(s)));
    });

    it('moves d4 where the wiki page compass points', () => {
      const d4 = bit(sq('d4'));
      expect(api.noNoEa(d4)).toBe(bit(sq('e6'))); // +17
      expect(api.noEaEa(d4)).toBe(bit(sq('f5'))); // +10
      expect(api.soEaEa(d4)).toBe(bit(sq('f3'))); // -6
      expect(api.soSoEa(d4)).toBe(bit(sq('e2'))); // -15
      expect(api.noNoWe(d4)).toBe(bit(sq('c6'))); // +15
      expect(api.noWeWe(d4)).toBe(bit(sq('b5'))); // +6
      expect(api.soWeWe(d4)).toBe(bit(sq('b3'))); // -10
      expect(api.soSoWe(d4)).toBe(bit(sq('c2'))); // -17
    });

    it('drops steps that leave the board on random sets', () => {
      const next = rng(11);
      for (const set of randomSets(next, 150)) {
        for (const dir of KNIGHT_DIRECTIONS) expect(api[dir](set), `${dir} ${show(set)}`).toBe(knightStepRef(dir, set));
      }
    });
  });

  // ---------------------------------------------------------------- sets of knights

  describe('knightAttacksSet and its variants', () => {
    const forms = () => [
      ['knightAttacksSet', api.knightAttacksSet],
      ['knightAttacksSetEastWest', api.variants.knightAttacksSetEastWest],
      ['knightAttacksSetParallel', api.variants.knightAttacksSetParallel],
    ] as const;

    it('each equals knightAttacks for single knights', () => {
      for (const [name, f] of forms()) for (const s of ALL_SQUARES_LIST) expect(f(bit(s)), `${name} ${s}`).toBe(knightAttacksRef(s));
    });

    it('each is empty for no knights and the whole board for a full board', () => {
      for (const [name, f] of forms()) {
        expect(f(0n), name).toBe(0n);
        expect(f(FULL), name).toBe(FULL);
      }
    });

    it('each is the union of the per-square references on random sets', () => {
      const next = rng(12);
      for (const set of randomSets(next, 400)) {
        const want = knightAttacksSetRef(set);
        for (const [name, f] of forms()) expect(f(set), `${name} ${show(set)}`).toBe(want);
      }
    });
  });

  describe('knightFill', () => {
    it('reproduces the wiki page six fills from a1', () => {
      expect(SEED_FILLS[0]).toBe(bit(sq('a1')));
      let set = SEED_FILLS[0]!;
      for (let i = 1; i <= 6; i++) {
        set = api.knightFill(set);
        expect(show(set), `fill ${i}`).toBe(show(SEED_FILLS[i]!));
      }
    });

    it('is knights | their attacks on random sets', () => {
      const next = rng(13);
      for (const set of randomSets(next, 300)) expect(api.knightFill(set)).toBe(set | knightAttacksSetRef(set));
    });
  });

  // ---------------------------------------------------------------- distance

  describe('knightDistance', () => {
    it('matches BFS on the full board (default path) for all 64 x 64 pairs', () => {
      const byRef = new Map<number, number>();
      for (const a of ALL_SQUARES_LIST) {
        for (const b of ALL_SQUARES_LIST) {
          const want = knightDistanceRef(a, b, FULL);
          byRef.set(want, (byRef.get(want) ?? 0) + 1);
          const got = api.knightDistance(a, b);
          if (got !== want) expect(got, `${a} -> ${b}`).toBe(want);
          const gotFull = api.knightDistance(a, b, FULL);
          if (gotFull !== want) expect(gotFull, `${a} -> ${b} (explicit path)`).toBe(want);
        }
      }
      expect(Math.max(...byRef.keys())).toBe(6); // the board's knight diameter
    });

    it('knows the classic cases', () => {
      expect(api.knightDistance(sq('a1'), sq('b2'))).toBe(4); // corner to its diagonal neighbour
      expect(api.knightDistance(sq('a1'), sq('h8'))).toBe(6);
      expect(api.knightDistance(sq('d4'), sq('d5'))).toBe(3);
      expect(api.knightDistance(sq('e4'), sq('e4'))).toBe(0);
      expect(api.knightDistance(sq('e4'), sq('e4'), bit(sq('e4')))).toBe(0);
      expect(api.knightDistance(sq('e4'), sq('e4'), FULL & ~bit(sq('e4')))).toBe(-1); // both ends must be on the path
    });

    it('is -1 when unreachable or an end is off the path', () => {
      expect(api.knightDistance(sq('a1'), sq('h8'), setOf([sq('a1'), sq('h8')]))).toBe(-1);
      expect(api.knightDistance(sq('a1'), sq('c2'), FULL & ~bit(sq('c2')))).toBe(-1);
      expect(api.knightDistance(sq('a1'), sq('c2'), FULL & ~bit(sq('a1')))).toBe(-1);
      expect(api.knightDistance(sq('a1'), sq('c2'), 0n)).toBe(-1);
      // a1's only exits are b3 and c2; without them nothing is reachable.
      expect(api.knightDistance(sq('a1'), sq('h8'), FULL & ~setOf([sq('b3'), sq('c2')]))).toBe(-1);
      expect(api.knightDistance(sq('a1'), sq('d4'), setOf(['a1', 'b3', 'd4'].map(sq)))).toBe(2);
    });

    it('matches a BFS reference on random paths', () => checkDistanceOnRandomPaths(api.knightDistance, knightDistanceRef, 14, [0.5, 0.65, 0.8, 0.9]));
  });

  // ---------------------------------------------------------------- forks

  describe('forkTargetSquares', () => {
    it('finds the family-fork square c7 for targets e8 and a8', () => {
      expect(api.forkTargetSquares(setOf([sq('e8'), sq('a8')]))).toBe(bit(sq('c7')));
      expect(api.forkTargetSquares(0n)).toBe(0n);
      expect(api.forkTargetSquares(bit(sq('e4')))).toBe(0n); // one target is no fork
    });

    it('is every square whose knight attacks hold two or more targets, on random target sets', () => {
      const next = rng(15);
      for (const targets of randomSets(next, 300)) {
        expect(api.forkTargetSquares(targets), show(targets)).toBe(forkTargetSquaresRef(targets));
      }
    });

    it('is the common attackers of any two targets, for all pairs', () => {
      for (const a of ALL_SQUARES_LIST) {
        for (let b = a + 1; b < 64; b++) {
          const got = api.forkTargetSquares(bit(a) | bit(b));
          const want = knightAttacksRef(a) & knightAttacksRef(b);
          if (got !== want) expect(show(got), `targets ${a} ${b}`).toBe(show(want));
        }
      }
    });
  });

  describe('knightForkMoves', () => {
    it('keeps the fork square our knight reaches unless it is taboo', () => {
      const knights = bit(sq('b5'));
      const targets = setOf([sq('e8'), sq('a8')]);
      expect(api.knightForkMoves(knights, targets, 0n, 0n, 0n)).toBe(bit(sq('c7')));
      expect(api.knightForkMoves(knights, targets, bit(sq('c7')), 0n, 0n)).toBe(0n);
      expect(api.knightForkMoves(knights, targets, 0n, bit(sq('c7')), 0n)).toBe(0n);
      expect(api.knightForkMoves(knights, targets, 0n, 0n, bit(sq('c7')))).toBe(0n);
      expect(api.knightForkMoves(bit(sq('b4')), targets, 0n, 0n, 0n)).toBe(0n); // b4 does not reach c7
    });

    it('is its definition, built from the references, on random inputs', () => {
      const next = rng(16);
      let nonEmpty = 0;
      for (let i = 0; i < 300; i++) {
        const knights = randomSet(next, [0.03, 0.1, 0.3][i % 3]);
        const targets = randomSet(next, [0.1, 0.2, 0.4][i % 3]);
        const own = randomSet(next, 0.2);
        const pawnAttacks = randomSet(next, 0.15);
        const knightAttacks = randomSet(next, 0.1);
        const want = knightForkMovesRef(knights, targets, own, pawnAttacks, knightAttacks);
        if (want !== 0n) nonEmpty++;
        expect(api.knightForkMoves(knights, targets, own, pawnAttacks, knightAttacks)).toBe(want);
      }
      expect(nonEmpty).toBeGreaterThan(50);
    });
  });

  // ---------------------------------------------------------------- batch forms

  describe('batch forms equal the single calls', () => {
    const sets = (n: number, next: () => number) => randomSetsOf(n, next, [0.05, 0.3, 0.7]);

    it('knightAttacksBatch', () => checkBatch(BigUint64Array, 0xbeefn, (n, next) => {
      const s = randomSquares(n, next);
      return { run: (out) => api.knightAttacksBatch(u8(s), out), expected: s.map((x) => api.knightAttacks(x)) };
    }));

    const setFunctions = ['knightAttacksSet', 'knightFill', 'forkTargetSquares', ...KNIGHT_DIRECTIONS] as const;
    it.each(setFunctions)('%sBatch', (name) => checkBatch(BigUint64Array, 0xbeefn, (n, next) => {
      const s = sets(n, next);
      return { run: (out) => api[`${name}Batch`](u64(s), out), expected: s.map((x) => api[name](x)) };
    }));

    it('knightDistanceBatch, with a path and with the default path', () => checkDistanceBatch(api.knightDistanceBatch, api.knightDistance, 0.7));

    it('knightForkMovesBatch', () => checkBatch(BigUint64Array, 0xbeefn, (n, next) => {
      const k = sets(n, next);
      const t = sets(n, next);
      const own = sets(n, next);
      const pa = sets(n, next);
      const ka = sets(n, next);
      return {
        run: (out) => api.knightForkMovesBatch(u64(k), u64(t), u64(own), u64(pa), u64(ka), out),
        expected: k.map((x, i) => api.knightForkMoves(x, t[i]!, own[i]!, pa[i]!, ka[i]!)),
      };
    }));
  });
});
