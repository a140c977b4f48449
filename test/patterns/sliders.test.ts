/**
 * Sliding attacks, rays, x-rays and lines against the square-by-square walks of
 * test/patterns/reference-checks.ts, on every backend (and every implementation variant it carries).
 */
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import {
  ALL_SQUARES_LIST, FULL, bit, checkBatch, diagram, randomSet, randomSets, randomSquare, rng, setOf, show, sq,
} from './reference.js';
import {
  BISHOP_DIRS, ROOK_DIRS, betweenRef, bishopRef, lineRef, queenRef, rayAttacksRef, rookRef, xrayRef,
} from './reference-checks.js';

const RAY_NAMES = ['nort', 'noEa', 'east', 'soEa', 'sout', 'soWe', 'west', 'noWe'] as const;
const u8 = (xs: number[]) => Uint8Array.from(xs);
const u64 = (xs: bigint[]) => BigUint64Array.from(xs);

/** 64 squares x 42 occupancies (empty, full, 40 random of mixed densities). */
const OCCUPANCIES = randomSets(rng(3), 40);

type SliderFn = (sq: number, occ: bigint) => bigint;

/** Compares f with the reference on every square and occupancy; reports the first few misses. */
function expectSlider(f: SliderFn, ref: SliderFn) {
  const misses: string[] = [];
  for (const occ of OCCUPANCIES) {
    for (const s of ALL_SQUARES_LIST) {
      const got = f(s, occ);
      const want = ref(s, occ);
      if (got !== want && misses.length < 3) misses.push(`sq ${s} occ 0x${occ.toString(16)}: got${show(got)}want${show(want)}`);
    }
  }
  expect(misses).toEqual([]);
}

describe.each(backends)('%s', (_name, api) => {
  describe('rook, bishop and queen attacks', () => {
    it('rookAttacks equals the ray walk for all squares and 42 occupancies', () => expectSlider(api.rookAttacks, rookRef));
    it('bishopAttacks equals the ray walk', () => expectSlider(api.bishopAttacks, bishopRef));
    it('queenAttacks equals the ray walk', () => expectSlider(api.queenAttacks, queenRef));
    it('variants: rookAttacksMagic and bishopAttacksMagic equal the ray walk', () => {
      expectSlider(api.variants.rookAttacksMagic, rookRef);
      expectSlider(api.variants.bishopAttacksMagic, bishopRef);
    });
    it('variants: the PEXT forms equal the ray walk where they exist', () => {
      const { rookAttacksPext, bishopAttacksPext } = api.variants;
      expect(rookAttacksPext === undefined).toBe(bishopAttacksPext === undefined);
      if (rookAttacksPext) expectSlider(rookAttacksPext, rookRef);
      if (bishopAttacksPext) expectSlider(bishopAttacksPext, bishopRef);
    });

    it('literal examples: rook on d4 and bishop on d4 among a few blockers', () => {
      const occ = setOf(['d6', 'b4', 'g4', 'd2', 'f6', 'b2', 'e3', 'a7'].map(sq));
      expect(show(api.rookAttacks(sq('d4'), occ))).toBe(show(diagram(`
        . . . . . . . .
        . . . . . . . .
        . . . 1 . . . .
        . . . 1 . . . .
        . 1 1 . 1 1 1 .
        . . . 1 . . . .
        . . . 1 . . . .
        . . . . . . . .
      `)));
      expect(show(api.bishopAttacks(sq('d4'), occ))).toBe(show(diagram(`
        . . . . . . . .
        1 . . . . . . .
        . 1 . . . 1 . .
        . . 1 . 1 . . .
        . . . . . . . .
        . . 1 . 1 . . .
        . 1 . . . . . .
        . . . . . . . .
      `)));
      // Empty board from a corner: the whole rank and file, the whole long diagonal.
      expect(api.rookAttacks(0, 0n)).toBe(0x01010101010101fen);
      expect(api.bishopAttacks(0, 0n)).toBe(0x8040201008040200n);
      // Full board: the neighbours only.
      expect(api.queenAttacks(sq('e4'), FULL)).toBe(setOf(['d3', 'e3', 'f3', 'd4', 'f4', 'd5', 'e5', 'f5'].map(sq)));
    });

    it.each([
      ['rookAttacksBatch', rookRef], ['bishopAttacksBatch', bishopRef], ['queenAttacksBatch', queenRef],
    ] as const)('%s equals the single calls', (name, ref) => {
      checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
        const squares = Array.from({ length: n }, () => randomSquare(next));
        const occ = Array.from({ length: n }, (_, i) => randomSet(next, [0.1, 0.3, 0.6][i % 3]));
        return {
          run: (out?: BigUint64Array) => api[name](u8(squares), u64(occ), out),
          expected: squares.map((s, i) => ref(s, occ[i]!)),
        };
      });
    });
  });

  describe('rayAttacks', () => {
    const next = rng(11);
    const pairs = Array.from({ length: 150 }, (_, i) => [
      randomSet(next, [0.03, 0.1, 0.3][i % 3]), randomSet(next, [0.5, 0.8, 0.95][i % 3]),
    ] as const);
    pairs.push([FULL, FULL], [FULL, 0n], [0n, FULL], [bit(0) | bit(63), FULL]);

    it.each(RAY_NAMES.map((n, d) => [d, n] as const))('direction %i (%s) equals the per-slider walk, by number and by name', (d, n) => {
      for (const [sliders, empty] of pairs) {
        const want = rayAttacksRef(d, sliders, empty);
        expect(show(api.rayAttacks(d, sliders, empty))).toBe(show(want));
        expect(api.rayAttacks(n, sliders, empty)).toBe(want);
      }
    });

    it('a single slider on an empty board reaches the edge; the first blocker is included', () => {
      // e4 going north-east over an empty board: f5 g6 h7.
      expect(api.rayAttacks(1, bit(sq('e4')), FULL & ~bit(sq('e4')))).toBe(setOf(['f5', 'g6', 'h7'].map(sq)));
      // h-file wrap must not happen: a slider on h4 going east attacks nothing.
      expect(api.rayAttacks('east', bit(sq('h4')), FULL)).toBe(0n);
      expect(api.rayAttacks('west', bit(sq('a4')), FULL)).toBe(0n);
      // b1 going west with a1 occupied: a1 only.
      expect(api.rayAttacks(6, bit(sq('b1')), FULL & ~bit(sq('a1')) & ~bit(sq('b1')))).toBe(bit(sq('a1')));
    });
  });

  describe('x-ray attacks (CPW: attacks ^ attacks(occupied ^ (blockers & attacks)))', () => {
    const next = rng(17);
    const cases = Array.from({ length: 600 }, (_, i) => {
      const occ = randomSet(next, [0.15, 0.3, 0.5][i % 3]);
      return [occ, occ & randomSet(next, 0.5), randomSquare(next)] as const;
    });
    cases.push([FULL, FULL, 27], [0n, 0n, 0], [FULL, 0n, 63]);

    it('xrayRookAttacks equals the walk and the CPW formula', () => {
      for (const [occ, blockers, s] of cases) {
        const want = xrayRef(occ, blockers, s, ROOK_DIRS);
        const attacks = rookRef(s, occ);
        expect(want).toBe(attacks ^ rookRef(s, occ ^ (blockers & attacks))); // the two references agree
        expect(api.xrayRookAttacks(occ, blockers, s)).toBe(want);
      }
    });
    it('xrayBishopAttacks equals the walk and the CPW formula', () => {
      for (const [occ, blockers, s] of cases) {
        const want = xrayRef(occ, blockers, s, BISHOP_DIRS);
        const attacks = bishopRef(s, occ);
        expect(want).toBe(attacks ^ bishopRef(s, occ ^ (blockers & attacks)));
        expect(api.xrayBishopAttacks(occ, blockers, s)).toBe(want);
      }
    });
    it('literal: rook on a1, own piece on a3, enemy on a6: x-ray sees a4 a5 a6', () => {
      const occ = setOf(['a1', 'a3', 'a6'].map(sq));
      expect(api.xrayRookAttacks(occ, bit(sq('a3')), sq('a1'))).toBe(setOf(['a4', 'a5', 'a6'].map(sq)));
      expect(api.xrayRookAttacks(occ, 0n, sq('a1'))).toBe(0n);
    });
  });

  describe('between and line', () => {
    it.each([
      ['between', 'the coordinate walk', betweenRef],
      ['line', 'the collinear squares', lineRef],
    ] as const)('%s equals %s for all 64 x 64 pairs (0n when not aligned or equal)', (name, _truth, ref) => {
      const misses: string[] = [];
      for (const a of ALL_SQUARES_LIST) {
        for (const b of ALL_SQUARES_LIST) {
          if (api[name](a, b) !== ref(a, b) && misses.length < 5) misses.push(`${a}-${b}`);
        }
      }
      expect(misses).toEqual([]);
    });
    it('literal pairs', () => {
      expect(api.between(sq('a1'), sq('h8'))).toBe(0x0040201008040200n);
      expect(api.between(sq('b8'), sq('g8'))).toBe(setOf(['c8', 'd8', 'e8', 'f8'].map(sq)));
      expect(api.between(sq('e4'), sq('e5'))).toBe(0n);
      expect(api.between(sq('a1'), sq('b3'))).toBe(0n);
      expect(api.between(sq('c3'), sq('c3'))).toBe(0n);
      expect(api.line(sq('c3'), sq('c3'))).toBe(0n);
      expect(api.line(sq('b2'), sq('c3'))).toBe(0x8040201008040201n);
      expect(api.line(sq('h1'), sq('g2'))).toBe(0x0102040810204080n);
      expect(api.line(sq('d1'), sq('d7'))).toBe(0x0808080808080808n);
      expect(api.line(sq('a5'), sq('c5'))).toBe(0x000000ff00000000n);
      expect(api.line(sq('a1'), sq('b3'))).toBe(0n);
    });
  });
});
