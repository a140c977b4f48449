/**
 * King patterns (Chess Programming Wiki: King Pattern) against the wiki diagrams and the brute-force references of
 * test/patterns/reference.ts, on every backend.
 */
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import {
  ALL_SQUARES_LIST, FULL, bit, caughtableAreaRef, checkBatch, checkDistanceBatch, checkDistanceOnRandomPaths, chebyshev, diagram, distantCheckLinesRef, fileOf, has,
  hasShield, kingAttacksRef, kingAttacksSetRef, kingDistanceRef, kingMoveTargetsRef, kingNeighbours,
  pawnShieldIndexRef, pawnShieldMaskRef, randomSet, randomSets, randomSetsOf, randomSquare, randomSquares, rankOf, ranksWhere, rng, setOf, show,
  sq, squareAt, squaresAreConnectedRef, squaresIn,
} from './reference.js';

/** Ranks 2-7: where pawns can stand. backend.ts masks caughtableArea to these ranks. */
const PAWN_RANKS = ranksWhere((r) => r >= 1 && r <= 6);

const u8 = (xs: number[]) => Uint8Array.from(xs);
const u64 = (xs: bigint[]) => BigUint64Array.from(xs);

// ------------------------------------------------------------------ wiki diagrams (King Pattern)

/** "For instance a king on g2". */
const SEED_KING_G2 = diagram(`
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . 1 1 1
  . . . . . 1 . 1
  . . . . . 1 1 1
`);

/** "This mask might be used for kings on f1-h1 or f1-h2". */
const SEED_SHIELD_F1_H2 = diagram(`
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . 1 1 1
  . . . . . 1 1 1
  . . . . . . . .
`);

/** The wiki page's rule of the square, black king on g5, white to move: the last of the three pictures. */
const SEED_CAUGHT_G5_WTM = diagram(`
  . . . . . . . . . . . . . . . . . . . . . . . .
  . . . . . . . . . . . . . . . . . . . . . . . .
  . . . . . . . . . . . . . . . . . . . . . . . .
  . . . . . . K . . . . 1 1 1 K 1 . . . 1 1 1 K 1
  . . . . . . . . . . 1 1 1 1 1 1 . . 1 1 1 1 1 1
  . . . . . . . . . 1 1 1 1 1 1 1 . 1 1 1 1 1 1 1
  . . . . . . . . 1 1 1 1 1 1 1 1 . 1 1 1 1 1 1 1
  . . . . . . . . 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
`, { ones: '1K', boards: 3, board: 2 });

/** The same king, black to move: the right-hand picture. */
const SEED_CAUGHT_G5_BTM = diagram(`
  . . . . . . . . . . . . . . . .
  . . . . . . . . . . . . . . . .
  . . . . . K K K . . . 1 1 1 1 1
  . . . . . K K K . . 1 1 1 1 K 1
  . . . . . K K K . 1 1 1 1 1 1 1
  . . . . . . . . 1 1 1 1 1 1 1 1
  . . . . . . . . 1 1 1 1 1 1 1 1
  . . . . . . . . 1 1 1 1 1 1 1 1
`, { ones: '1K', boards: 2, board: 1 });

/** "Can a king on a1 reach h8 along this path?" F = from, T = to; both stand on the path. */
const SEED_PATH = `
  . . . . . . 1 T
  . . 1 1 1 1 . .
  . 1 . . . . . .
  . . 1 1 1 1 . .
  . . . . . . 1 .
  . . . . . . . 1
  . . . . . . 1 .
  F 1 1 1 1 1 . .
`;

/** The wiki page's path with g4 taken away: h3 and f5 are no longer joined. */
const BROKEN_PATH = `
  . . . . . . 1 T
  . . 1 1 1 1 . .
  . 1 . . . . . .
  . . 1 1 1 1 . .
  . . . . . . . .
  . . . . . . . 1
  . . . . . . 1 .
  F 1 1 1 1 1 . .
`;

// ------------------------------------------------------------------ a small king-versus-pawn game

/**
 * Does the lone king of `kingColor` stop the enemy pawn, with best play on both sides? The pawn side
 * pushes (single, or double from its initial rank) or, when blocked, passes (it has moves elsewhere);
 * the king captures a pawn or a new queen next to it, and otherwise steps to any square the pawn does
 * not attack. A pawn promotes successfully when the king, to move, is not next to the new queen.
 */
function raceSolver(kingColor: number) {
  const pawnColor = 1 - kingColor;
  const forward = pawnColor === 0 ? 1 : -1;
  const promotionRank = pawnColor === 0 ? 7 : 0;
  const initialRank = pawnColor === 0 ? 1 : 6;
  const memo = new Map<number, boolean>();
  const pawnAttacks = (p: number) => [-1, 1].map((df) => [fileOf(p) + df, rankOf(p) + forward])
    .filter(([f, r]) => f! >= 0 && f! < 8).map(([f, r]) => squareAt(f!, r!));

  function kingStops(p: number, k: number, kingToMove: boolean): boolean {
    const key = (p * 64 + k) * 2 + (kingToMove ? 1 : 0);
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (kingToMove) {
      if (chebyshev(k, p) <= 1) result = true;
      else {
        const attacked = pawnAttacks(p);
        const moves = kingNeighbours(k).filter((t) => t !== p && !attacked.includes(t));
        result = moves.length === 0 || moves.some((t) => kingStops(p, t, false));
      }
    } else {
      const pushes: number[] = [];
      const one = squareAt(fileOf(p), rankOf(p) + forward);
      if (one !== k) {
        pushes.push(one);
        const two = squareAt(fileOf(p), rankOf(p) + 2 * forward);
        if (rankOf(p) === initialRank && two !== k) pushes.push(two);
      }
      if (pushes.length === 0) result = kingStops(p, k, true);
      else {
        result = pushes.every((t) => (rankOf(t) === promotionRank ? chebyshev(k, t) <= 1 : kingStops(t, k, true)));
      }
    }
    memo.set(key, result);
    return result;
  }
  return kingStops;
}

describe.each(backends)('%s', (_name, api) => {
  // ---------------------------------------------------------------- attacks

  describe('kingAttacks', () => {
    it('is the wiki diagram for a king on g2', () => {
      expect(show(api.kingAttacks(sq('g2')))).toBe(show(SEED_KING_G2));
    });

    it('is the Chebyshev-1 neighbourhood on all 64 squares', () => {
      for (const s of ALL_SQUARES_LIST) expect(api.kingAttacks(s), `square ${s}`).toBe(kingAttacksRef(s));
    });

    it('gives corners 3, edges 5 and inner squares 8 targets', () => {
      expect(squaresIn(api.kingAttacks(sq('a1')))).toEqual([sq('b1'), sq('a2'), sq('b2')]);
      expect(squaresIn(api.kingAttacks(sq('h8')))).toEqual([sq('g7'), sq('h7'), sq('g8')]);
      expect(squaresIn(api.kingAttacks(sq('a4')))).toEqual([sq('a3'), sq('b3'), sq('b4'), sq('a5'), sq('b5')]);
    });
  });

  describe('kingAttacksSet', () => {
    it('is empty for no kings and the whole board for all squares', () => {
      expect(api.kingAttacksSet(0n)).toBe(0n);
      expect(api.kingAttacksSet(FULL)).toBe(FULL);
    });

    it('equals kingAttacks for every single king', () => {
      for (const s of ALL_SQUARES_LIST) expect(api.kingAttacksSet(bit(s)), `square ${s}`).toBe(kingAttacksRef(s));
    });

    it('is the union of the per-square references on random sets', () => {
      const next = rng(1);
      for (const set of randomSets(next, 400)) expect(api.kingAttacksSet(set), show(set)).toBe(kingAttacksSetRef(set));
    });

    it('does not wrap between the a- and h-files', () => {
      expect(api.kingAttacksSet(setOf([sq('h4')])) & setOf([sq('a3'), sq('a4'), sq('a5')])).toBe(0n);
      expect(api.kingAttacksSet(setOf([sq('a4')])) & setOf([sq('h3'), sq('h4'), sq('h5')])).toBe(0n);
    });
  });

  describe('kingFill', () => {
    /** The squares at Chebyshev distance <= 1 from some king, written square by square. */
    const kingFillRef = (kings: bigint): bigint => {
      let out = 0n;
      for (let s = 0; s < 64; s++) {
        for (let k = 0; k < 64; k++) {
          if ((kings >> BigInt(k)) & 1n && Math.max(Math.abs((s & 7) - (k & 7)), Math.abs((s >> 3) - (k >> 3))) <= 1) out |= bit(s);
        }
      }
      return out;
    };

    it('is a king on g2 with its eight neighbours (f1-h3)', () => {
      expect(api.kingFill(bit(sq('g2')))).toBe(setOf(['f1', 'g1', 'h1', 'f2', 'g2', 'h2', 'f3', 'g3', 'h3'].map(sq)));
    });

    it('is empty for no kings and the whole board for all squares', () => {
      expect(api.kingFill(0n)).toBe(0n);
      expect(api.kingFill(FULL)).toBe(FULL);
    });

    it('is the Chebyshev-1 neighbourhood of the set, kings included, on random sets', () => {
      const next = rng(7);
      for (const set of randomSets(next, 200)) expect(api.kingFill(set), show(set)).toBe(kingFillRef(set));
    });

    it('batch form equals the single call', () => {
      const sets = randomSets(rng(8), 50);
      expect(Array.from(api.kingFillBatch(u64(sets)))).toEqual(sets.map((x) => kingFillRef(x)));
    });
  });

  // ---------------------------------------------------------------- pawn shield

  describe('pawnShieldMask', () => {
    it('is the wiki mask f2-h3 for white kings on f1-h1 and f1-h2', () => {
      for (const k of ['f1', 'g1', 'h1', 'f2', 'g2', 'h2']) {
        expect(show(api.pawnShieldMask(0, sq(k))), k).toBe(show(SEED_SHIELD_F1_H2));
      }
    });

    it('mirrors to a2-c3 on the queen side', () => {
      const queenSide = diagram(`
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        1 1 1 . . . . .
        1 1 1 . . . . .
        . . . . . . . .
      `);
      for (const k of ['a1', 'b1', 'c1', 'a2', 'b2', 'c2']) expect(show(api.pawnShieldMask(0, sq(k))), k).toBe(show(queenSide));
    });

    it('uses ranks 7 and 6 for black', () => {
      const blackKingSide = diagram(`
        . . . . . . . .
        . . . . . 1 1 1
        . . . . . 1 1 1
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
      `);
      const blackQueenSide = diagram(`
        . . . . . . . .
        1 1 1 . . . . .
        1 1 1 . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
      `);
      for (const k of ['f8', 'g8', 'h8', 'f7', 'g7', 'h7']) expect(show(api.pawnShieldMask(1, sq(k))), k).toBe(show(blackKingSide));
      for (const k of ['a8', 'b8', 'c8', 'a7', 'b7', 'c7']) expect(show(api.pawnShieldMask(1, sq(k))), k).toBe(show(blackQueenSide));
    });

    it('centres the mask on d- and e-file kings', () => {
      const dKing = diagram(`
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . 1 1 1 . . .
        . . 1 1 1 . . .
        . . . . . . . .
      `);
      const eKingBlack = diagram(`
        . . . . . . . .
        . . . 1 1 1 . .
        . . . 1 1 1 . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
      `);
      expect(show(api.pawnShieldMask(0, sq('d1')))).toBe(show(dKing));
      expect(show(api.pawnShieldMask(0, sq('d2')))).toBe(show(dKing));
      expect(show(api.pawnShieldMask(1, sq('e8')))).toBe(show(eKingBlack));
      expect(show(api.pawnShieldMask(1, sq('e7')))).toBe(show(eKingBlack));
    });

    it('is 0n for kings beyond their second rank', () => {
      for (const s of ALL_SQUARES_LIST) {
        if (rankOf(s) >= 2) expect(api.pawnShieldMask(0, s), `white ${s}`).toBe(0n);
        if (rankOf(s) <= 5) expect(api.pawnShieldMask(1, s), `black ${s}`).toBe(0n);
      }
    });

    it('matches the reference for all 2 x 64 (colour, square)', () => {
      for (const color of [0, 1]) {
        for (const s of ALL_SQUARES_LIST) expect(api.pawnShieldMask(color, s), `${color} ${s}`).toBe(pawnShieldMaskRef(color, s));
      }
    });
  });

  describe('pawnShieldIndex', () => {
    it('follows the bit layout of backend.ts on hand-worked examples', () => {
      // White king g1, pawns f2 g2 h3: near rank f,g -> bits 0,1; far rank h -> bit 5.
      expect(api.pawnShieldIndex(0, sq('g1'), setOf([sq('f2'), sq('g2'), sq('h3')]))).toBe(0b100011);
      // Black king b8, pawns a7 c6: near rank (7) a -> bit 0; far rank (6) c -> bit 5.
      expect(api.pawnShieldIndex(1, sq('b8'), setOf([sq('a7'), sq('c6')]))).toBe(0b100001);
      // White king e2 (files d,e,f), pawns e3 f2: far e -> bit 4, near f -> bit 2.
      expect(api.pawnShieldIndex(0, sq('e2'), setOf([sq('e3'), sq('f2')]))).toBe(0b010100);
    });

    it('maps the 64 pawn subsets of every mask to 64 distinct indices 0..63, as the reference does', () => {
      const next = rng(2);
      for (const color of [0, 1]) {
        for (const k of ALL_SQUARES_LIST.filter((s) => hasShield(color, s))) {
          const maskSquares = squaresIn(pawnShieldMaskRef(color, k));
          expect(maskSquares).toHaveLength(6);
          const seen = new Set<number>();
          for (let subset = 0; subset < 64; subset++) {
            const pawns = setOf(maskSquares.filter((_, i) => (subset >> i) & 1));
            const index = api.pawnShieldIndex(color, k, pawns);
            expect(index, `${color} ${k} ${show(pawns)}`).toBe(pawnShieldIndexRef(color, k, pawns));
            seen.add(index);
            // Pawns outside the mask change nothing.
            const noise = randomSet(next, 0.5) & ~pawnShieldMaskRef(color, k) & FULL;
            expect(api.pawnShieldIndex(color, k, pawns | noise)).toBe(index);
          }
          expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i));
        }
      }
    });

    it('is 0 for kings without a shield, whatever the pawns', () => {
      const next = rng(3);
      for (const color of [0, 1]) {
        for (const k of ALL_SQUARES_LIST.filter((s) => !hasShield(color, s))) {
          expect(api.pawnShieldIndex(color, k, FULL)).toBe(0);
          expect(api.pawnShieldIndex(color, k, randomSet(next))).toBe(0);
        }
      }
    });
  });

  // ---------------------------------------------------------------- move targets, dirSet

  describe('kingMoveTargets', () => {
    it('is kingAttacks minus taboo on every square', () => {
      const next = rng(4);
      for (const s of ALL_SQUARES_LIST) {
        expect(api.kingMoveTargets(s, 0n)).toBe(kingAttacksRef(s));
        expect(api.kingMoveTargets(s, FULL)).toBe(0n);
        for (let i = 0; i < 20; i++) {
          const taboo = randomSet(next, [0.1, 0.3, 0.5, 0.8][i % 4]);
          expect(api.kingMoveTargets(s, taboo), `${s} ${show(taboo)}`).toBe(kingMoveTargetsRef(s, taboo));
        }
      }
    });
  });

  describe('distantCheckLines (dirSet)', () => {
    it('handles the wiki cases: no move, base rank, file, diagonals, two lines', () => {
      const e1 = sq('e1');
      expect(api.distantCheckLines(e1, kingAttacksRef(e1))).toBe(15);
      expect(api.distantCheckLines(e1, setOf([sq('d2'), sq('e2'), sq('f2')]))).toBe(1); // back rank mate pattern
      const e4 = sq('e4');
      const free = (moves: string[]) => kingAttacksRef(e4) & ~setOf(moves.map(sq));
      expect(api.distantCheckLines(e4, free(['e3', 'e5']))).toBe(2);
      expect(api.distantCheckLines(e4, free(['d3', 'f5']))).toBe(4);
      expect(api.distantCheckLines(e4, free(['f3']))).toBe(8);
      expect(api.distantCheckLines(e4, free(['d3', 'e3']))).toBe(0);
      expect(api.distantCheckLines(e4, 0n)).toBe(0);
    });

    it('matches the reference, with all three variants equal, over every square and every neighbourhood subset', () => {
      const next = rng(5);
      const { distantCheckLinesBranchy, distantCheckLinesBranchless, distantCheckLinesSse41 } = api.variants;
      let count = 0;
      for (const k of ALL_SQUARES_LIST) {
        const ring = kingNeighbours(k);
        const ringSet = setOf(ring);
        for (let subset = 0; subset < 1 << ring.length; subset++) {
          // Squares outside the neighbourhood must not matter, so add some.
          const noise = randomSet(next, 0.5) & ~ringSet & FULL;
          const taboo = setOf(ring.filter((_, i) => (subset >> i) & 1)) | noise;
          const want = distantCheckLinesRef(k, taboo);
          const got = api.distantCheckLines(k, taboo);
          if (got !== want) expect(got, `king ${k} taboo ${show(taboo)}`).toBe(want);
          if (distantCheckLinesBranchy(k, taboo) !== want) expect(distantCheckLinesBranchy(k, taboo), `branchy ${k}`).toBe(want);
          if (distantCheckLinesBranchless(k, taboo) !== want) {
            expect(distantCheckLinesBranchless(k, taboo), `branchless ${k} ${show(taboo)}`).toBe(want);
          }
          if (distantCheckLinesSse41 && distantCheckLinesSse41(k, taboo) !== want) {
            expect(distantCheckLinesSse41(k, taboo), `sse41 ${k} ${show(taboo)}`).toBe(want);
          }
          count++;
        }
      }
      // 4 corners x 2^3 + 24 edges x 2^5 + 36 inner x 2^8
      expect(count).toBe(4 * 8 + 24 * 32 + 36 * 256);
    });

    it('exposes the SSE4.1 variant exactly on native SSE4.1 builds', () => {
      if (api.backend !== 'native' || api.cpuPath === 'portable') expect(api.variants.distantCheckLinesSse41).toBeUndefined();
      else expect(typeof api.variants.distantCheckLinesSse41).toBe('function');
    });
  });

  // ---------------------------------------------------------------- rule of the square

  describe('caughtableArea', () => {
    it('is the wiki picture for a black king on g5, white to move (back rank masked)', () => {
      // The wiki page draws rank 1 full and says "we may even mask off the base ranks since pawns can not
      // exist there"; backend.ts does mask them (ranks 2-7 only), so the picture is masked here too.
      expect(show(api.caughtableArea(1, 0, sq('g5')))).toBe(show(SEED_CAUGHT_G5_WTM & PAWN_RANKS));
    });

    it('is the wiki picture for a black king on g5, black to move (back rank masked)', () => {
      expect(show(api.caughtableArea(1, 1, sq('g5')))).toBe(show(SEED_CAUGHT_G5_BTM & PAWN_RANKS));
    });

    it('handles kings on the back ranks (the wiki footnote on eighth-rank kings)', () => {
      // Black king a8, white to move: a white pawn on file f (0-based) needs f <= moves to promotion.
      const a8Wtm = diagram(`
        . . . . . . . .
        1 1 . . . . . .
        1 1 1 . . . . .
        1 1 1 1 . . . .
        1 1 1 1 1 . . .
        1 1 1 1 1 1 . .
        1 1 1 1 1 1 . .
        . . . . . . . .
      `);
      expect(show(api.caughtableArea(1, 0, sq('a8')))).toBe(show(a8Wtm));
      // White king h1, white to move (one tempo more) against black pawns.
      const h1Wtm = diagram(`
        . . . . . . . .
        . 1 1 1 1 1 1 1
        . 1 1 1 1 1 1 1
        . . 1 1 1 1 1 1
        . . . 1 1 1 1 1
        . . . . 1 1 1 1
        . . . . . 1 1 1
        . . . . . . . .
      `);
      expect(show(api.caughtableArea(0, 0, sq('h1')))).toBe(show(h1Wtm));
    });

    it('matches the brute-force race for all 2 x 2 x 64 entries', () => {
      for (const kingColor of [0, 1]) {
        for (const stm of [0, 1]) {
          for (const k of ALL_SQUARES_LIST) {
            const got = api.caughtableArea(kingColor, stm, k);
            expect(show(got), `king ${kingColor} stm ${stm} sq ${k}`).toBe(show(caughtableAreaRef(kingColor, stm, k)));
            expect(got & ~PAWN_RANKS & FULL).toBe(0n);
          }
        }
      }
    });

    it('the tempo only ever grows the area', () => {
      for (const kingColor of [0, 1]) {
        for (const k of ALL_SQUARES_LIST) {
          const without = api.caughtableArea(kingColor, 1 - kingColor, k);
          const withTempo = api.caughtableArea(kingColor, kingColor, k);
          expect(without & ~withTempo).toBe(0n);
        }
      }
    });

    it('agrees exactly with a king-versus-lone-pawn game solved move by move', () => {
      // Every legal start (king not on the pawn, the side not to move not in check) of a pawn on ranks
      // 2-7 against the lone king, solved exactly. The square rule alone is a race to the promotion
      // square; the table also has the king to move take a pawn next to it, which the race misses when
      // the king stands on its back rank by a pawn on its initial rank (black Kb1 takes Pa2: 44
      // positions in all, found by this test against the plain formula).
      const mismatches: string[] = [];
      let positions = 0;
      for (const kingColor of [0, 1]) {
        const kingStops = raceSolver(kingColor);
        const pawnColor = 1 - kingColor;
        for (const stm of [0, 1]) {
          const kingToMove = stm === kingColor;
          for (const k of ALL_SQUARES_LIST) {
            const area = api.caughtableArea(kingColor, stm, k);
            for (const p of squaresIn(PAWN_RANKS)) {
              if (p === k) continue;
              const forward = pawnColor === 0 ? 1 : -1;
              const checked = [-1, 1].some((df) => fileOf(p) + df >= 0 && fileOf(p) + df < 8
                && squareAt(fileOf(p) + df, rankOf(p) + forward) === k);
              if (checked && !kingToMove) continue; // the king side would have moved into check
              positions++;
              if (kingStops(p, k, kingToMove) !== has(area, p)) {
                mismatches.push(`king ${kingColor} on ${k}, pawn on ${p}, stm ${stm}: game ${!has(area, p)}`);
              }
            }
          }
        }
      }
      expect(positions).toBeGreaterThan(10_000);
      expect(mismatches).toEqual([]);
    });

    it('lets a king to move take the pawn next to it (black Kb1 vs Pa2, which the race formula misses)', () => {
      expect(has(api.caughtableArea(1, 1, sq('b1')), sq('a2'))).toBe(true);
      expect(has(api.caughtableArea(1, 0, sq('b1')), sq('a2'))).toBe(false); // white first: a2-a4 escapes
      expect(has(api.caughtableArea(0, 0, sq('g8')), sq('h7'))).toBe(true); // mirrored for a white king
    });
  });

  describe('uncatchablePassers', () => {
    it('is passers & ~caughtableArea on random passers', () => {
      const next = rng(6);
      for (let i = 0; i < 300; i++) {
        const passers = randomSet(next, [0.05, 0.2, 0.6][i % 3]);
        const kingColor = i % 2;
        const stm = (i >> 1) % 2;
        const k = randomSquare(next);
        expect(api.uncatchablePassers(passers, kingColor, stm, k))
          .toBe(passers & ~caughtableAreaRef(kingColor, stm, k) & FULL);
      }
    });

    it('answers the wiki question for the g5 king with white to move', () => {
      // White passers a4, b3, e6, h4 against the black king on g5 (wiki picture): b3 and h4 are inside the square.
      const passers = setOf([sq('a4'), sq('b3'), sq('e6'), sq('h4')]);
      expect(squaresIn(api.uncatchablePassers(passers, 1, 0, sq('g5')))).toEqual([sq('a4'), sq('e6')]);
      expect(api.uncatchablePassers(0n, 1, 0, sq('g5'))).toBe(0n);
    });
  });

  // ---------------------------------------------------------------- paths

  describe('squaresAreConnected', () => {
    const path = diagram(SEED_PATH, { ones: '1FT' });
    const from = diagram(SEED_PATH, { ones: 'F' });
    const to = diagram(SEED_PATH, { ones: 'T' });

    it('finds the wiki page path from a1 to h8, as squares and as sets', () => {
      expect(from).toBe(bit(sq('a1')));
      expect(to).toBe(bit(sq('h8')));
      expect(api.squaresAreConnected(sq('a1'), sq('h8'), path)).toBe(true);
      expect(api.squaresAreConnected(from, to, path)).toBe(true);
      expect(api.squaresAreConnected(to, from, path)).toBe(true);
      expect(api.squaresAreConnected(sq('a1'), to, path)).toBe(true);
    });

    it('is false once the path is broken', () => {
      const broken = diagram(BROKEN_PATH, { ones: '1FT' });
      expect(broken).toBe(path & ~bit(sq('g4')));
      expect(api.squaresAreConnected(sq('a1'), sq('h8'), broken)).toBe(false);
      expect(api.squaresAreConnected(from, to, broken)).toBe(false);
      // Each half is still connected in itself.
      expect(api.squaresAreConnected(sq('a1'), sq('h3'), broken)).toBe(true);
      expect(api.squaresAreConnected(sq('f5'), sq('h8'), broken)).toBe(true);
    });

    it('is false when an end is off the path, and never wraps around the board edge', () => {
      expect(api.squaresAreConnected(sq('a1'), sq('h8'), path & ~bit(sq('a1')))).toBe(false);
      expect(api.squaresAreConnected(sq('a1'), sq('h8'), path & ~bit(sq('h8')))).toBe(false);
      expect(api.squaresAreConnected(0n, to, path)).toBe(false);
      // h4 and a5 are adjacent bits (31, 32) but not neighbours on the board.
      expect(api.squaresAreConnected(sq('h4'), sq('a5'), setOf([sq('h4'), sq('a5')]))).toBe(false);
      expect(api.squaresAreConnected(sq('h4'), sq('g5'), setOf([sq('h4'), sq('g5')]))).toBe(true);
    });

    it('matches a BFS reference on random paths', () => {
      const next = rng(7);
      const outcomes = new Set<boolean>();
      for (let i = 0; i < 400; i++) {
        const path = randomSet(next, [0.35, 0.45, 0.55, 0.65][i % 4]);
        const a = i % 2 === 0 ? randomSquare(next) : randomSet(next, 0.04);
        const b = i % 3 === 0 ? randomSet(next, 0.04) : randomSquare(next);
        const aSet = typeof a === 'number' ? bit(a) : a;
        const bSet = typeof b === 'number' ? bit(b) : b;
        const want = squaresAreConnectedRef(aSet, bSet, path);
        outcomes.add(want);
        expect(api.squaresAreConnected(a, b, path), `${String(a)} -> ${String(b)} ${show(path)}`).toBe(want);
      }
      expect([...outcomes].sort()).toEqual([false, true]);
    });
  });

  describe('kingPathFill', () => {
    /** The squares of `path` a BFS by king steps reaches from the squares of `from` on it. */
    function regionRef(from: bigint, path: bigint): bigint {
      const queue = squaresIn(from & path);
      let seen = from & path;
      while (queue.length > 0) {
        for (const n of kingNeighbours(queue.shift()!)) {
          if (has(path, n) && !has(seen, n)) {
            seen |= bit(n);
            queue.push(n);
          }
        }
      }
      return seen;
    }

    it('fills the whole wiki page path from a1, and only the a1 half once it is broken at g4', () => {
      const path = diagram(SEED_PATH, { ones: '1FT' });
      expect(api.kingPathFill(sq('a1'), path)).toBe(path);
      const broken = diagram(BROKEN_PATH, { ones: '1FT' });
      const a1Half = api.kingPathFill(sq('a1'), broken);
      const h8Half = api.kingPathFill(sq('h8'), broken);
      expect(a1Half & h8Half).toBe(0n);
      expect(a1Half | h8Half).toBe(broken);
      expect(has(a1Half, sq('h3'))).toBe(true);
      expect(has(h8Half, sq('f5'))).toBe(true);
    });

    it('reaches nothing from outside the path, and never wraps around the board edge', () => {
      expect(api.kingPathFill(sq('a1'), 0n)).toBe(0n);
      expect(api.kingPathFill(0n, FULL)).toBe(0n);
      expect(api.kingPathFill(sq('e4'), FULL)).toBe(FULL);
      // h4 and a5 are adjacent bits (31, 32) but not neighbours on the board.
      expect(api.kingPathFill(sq('h4'), setOf([sq('h4'), sq('a5')]))).toBe(bit(sq('h4')));
    });

    it('matches a BFS reference on random paths, single and batch; squaresAreConnected agrees', () => {
      const next = rng(11);
      const froms: bigint[] = [];
      const paths: bigint[] = [];
      for (let i = 0; i < 300; i++) {
        const path = randomSet(next, [0.3, 0.45, 0.6, 0.75][i % 4]);
        const from = i % 2 === 0 ? bit(randomSquare(next)) : randomSet(next, 0.05);
        const to = bit(randomSquare(next));
        const want = regionRef(from, path);
        const got = api.kingPathFill(from, path);
        if (got !== want) expect(show(got), `${show(from)} in ${show(path)}`).toBe(show(want));
        expect((got & to) !== 0n).toBe(squaresAreConnectedRef(from, to, path));
        froms.push(from);
        paths.push(path);
      }
      const out = api.kingPathFillBatch(BigUint64Array.from(froms), BigUint64Array.from(paths));
      expect(Array.from(out)).toEqual(froms.map((f, i) => regionRef(f, paths[i]!)));
    });
  });

  describe('kingDistance', () => {
    it('is the Chebyshev distance on the full board (default path) for all 64 x 64 pairs', () => {
      for (const a of ALL_SQUARES_LIST) {
        for (const b of ALL_SQUARES_LIST) {
          const d = api.kingDistance(a, b);
          if (d !== chebyshev(a, b)) expect(d, `${a} -> ${b}`).toBe(chebyshev(a, b));
          if (api.kingDistance(a, b, FULL) !== d) expect(api.kingDistance(a, b, FULL)).toBe(d);
        }
      }
    });

    it('walks the wiki page path a1 -> h8 in 19 steps', () => {
      // a1-f1 (5), g2 h3 g4 (8), f5-c5 (12), b6 (13), c7-f7 (17), g8 h8 (19).
      const path = diagram(SEED_PATH, { ones: '1FT' });
      expect(api.kingDistance(sq('a1'), sq('h8'), path)).toBe(19);
      expect(api.kingDistance(sq('a1'), sq('h8'), diagram(BROKEN_PATH, { ones: '1FT' }))).toBe(-1);
    });

    it('is 0 from a square to itself, -1 when unreachable or an end is off the path', () => {
      expect(api.kingDistance(sq('e4'), sq('e4'))).toBe(0);
      expect(api.kingDistance(sq('e4'), sq('e4'), bit(sq('e4')))).toBe(0);
      // backend.ts: "standing only on squares of path (both ends included)", so even from === to needs it.
      expect(api.kingDistance(sq('e4'), sq('e4'), FULL & ~bit(sq('e4')))).toBe(-1);
      const wall = ranksWhere((r) => r !== 3); // rank 4 missing: no way up
      expect(api.kingDistance(sq('a1'), sq('h8'), wall)).toBe(-1);
      expect(api.kingDistance(sq('a1'), sq('a3'), wall)).toBe(2);
      expect(api.kingDistance(sq('a1'), sq('h8'), FULL & ~bit(sq('h8')))).toBe(-1);
      expect(api.kingDistance(sq('a1'), sq('h8'), FULL & ~bit(sq('a1')))).toBe(-1);
      expect(api.kingDistance(sq('a1'), sq('b2'), 0n)).toBe(-1);
    });

    it('matches a BFS reference on random paths', () => checkDistanceOnRandomPaths(api.kingDistance, kingDistanceRef, 8, [0.4, 0.55, 0.7, 0.85]));
  });

  // ---------------------------------------------------------------- batch forms

  describe('batch forms equal the single calls', () => {
    const sets = (n: number, next: () => number) => randomSetsOf(n, next, [0.1, 0.5, 0.9]);

    it('kingAttacksBatch', () => checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
      const s = randomSquares(n, next);
      return { run: (out) => api.kingAttacksBatch(u8(s), out), expected: s.map((x) => api.kingAttacks(x)) };
    }));

    it('kingAttacksSetBatch', () => checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
      const s = sets(n, next);
      return { run: (out) => api.kingAttacksSetBatch(u64(s), out), expected: s.map((x) => api.kingAttacksSet(x)) };
    }));

    it('pawnShieldMaskBatch', () => {
      for (const color of [0, 1]) {
        checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
          const s = randomSquares(n, next);
          return { run: (out) => api.pawnShieldMaskBatch(color, u8(s), out), expected: s.map((x) => api.pawnShieldMask(color, x)) };
        });
      }
    });

    it('pawnShieldIndexBatch', () => {
      for (const color of [0, 1]) {
        checkBatch(Uint8Array, 0xee, (n, next) => {
          // Mostly kings on their first two ranks so the indices are not all zero.
          const s = randomSquares(n, next).map((x, i) => (i % 4 === 0 ? x : (color === 0 ? x % 16 : 48 + (x % 16))));
          const p = sets(n, next);
          return {
            run: (out) => api.pawnShieldIndexBatch(color, u8(s), u64(p), out),
            expected: s.map((x, i) => api.pawnShieldIndex(color, x, p[i]!)),
          };
        });
      }
    });

    it('kingMoveTargetsBatch', () => checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
      const s = randomSquares(n, next);
      const t = sets(n, next);
      return { run: (out) => api.kingMoveTargetsBatch(u8(s), u64(t), out), expected: s.map((x, i) => api.kingMoveTargets(x, t[i]!)) };
    }));

    it('distantCheckLinesBatch', () => checkBatch(Uint8Array, 0xee, (n, next) => {
      const s = randomSquares(n, next);
      // Taboo mostly on the king's neighbourhood so every answer (0, 1, 2, 4, 8, 15) shows up.
      const t = s.map((x) => kingAttacksRef(x) & randomSet(next, 0.7));
      return { run: (out) => api.distantCheckLinesBatch(u8(s), u64(t), out), expected: s.map((x, i) => api.distantCheckLines(x, t[i]!)) };
    }));

    it('caughtableAreaBatch', () => {
      for (const kc of [0, 1]) {
        for (const stm of [0, 1]) {
          checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
            const s = randomSquares(n, next);
            return { run: (out) => api.caughtableAreaBatch(kc, stm, u8(s), out), expected: s.map((x) => api.caughtableArea(kc, stm, x)) };
          });
        }
      }
    });

    it('uncatchablePassersBatch', () => {
      for (const kc of [0, 1]) {
        for (const stm of [0, 1]) {
          checkBatch(BigUint64Array, 0xdeadn, (n, next) => {
            const p = sets(n, next);
            const s = randomSquares(n, next);
            return {
              run: (out) => api.uncatchablePassersBatch(u64(p), kc, stm, u8(s), out),
              expected: s.map((x, i) => api.uncatchablePassers(p[i]!, kc, stm, x)),
            };
          });
        }
      }
    });

    it('squaresAreConnectedBatch', () => checkBatch(Uint8Array, 0xee, (n, next) => {
      const f = Array.from({ length: n }, () => bit(randomSquare(next)));
      const t = Array.from({ length: n }, () => randomSet(next, 0.05));
      const p = Array.from({ length: n }, () => randomSet(next, 0.55));
      return {
        run: (out) => api.squaresAreConnectedBatch(u64(f), u64(t), u64(p), out),
        expected: f.map((x, i) => (api.squaresAreConnected(x, t[i]!, p[i]!) ? 1 : 0)),
      };
    }));

    it('kingDistanceBatch, with a path and with the default path', () => checkDistanceBatch(api.kingDistanceBatch, api.kingDistance, 0.6));
  });
});
