/**
 * Whether one move is legal, from the moving piece alone, in two steps: here, the pseudo-legal test
 * on the position's own set halves (the piece reaches the square: the move rules of the Chess
 * Programming Wiki's Move Generation page); then, once the move is played, the king-safety test of
 * the page's "pseudo-legal, then legal" scheme (`kingSafeAfter`: the mover's king not attacked on
 * the new board, which also covers a king step, a pinned piece and en passant's two vacated
 * squares). Castling is left to the generator's castling rules.
 */
import { pawnAttackTable, type SetHalves } from './bitboard.js';
import { BOARD, SIDE, attacked } from './movegen.js';
import { kingAttackTable, knightAttackTable } from './leapers.js';
import { BETWEEN, BISHOP_EMPTY, ROOK_EMPTY } from './sliders.js';

const KNIGHT = knightAttackTable.halves;
const KING = kingAttackTable.halves;
/** Pawn captures: [(color * 64 + sq) * 2]. */
const PAWN_ATTACKS = pawnAttackTable.halves;

/** Bit sq of the set whose halves are lo, hi. */
const has = (lo: number, hi: number, sq: number): boolean => (sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1) !== 0;

/** quickLegality's answers: 0 (not legal) or the kind of pseudo-legal move it is. */
export const PSEUDO_LEGAL = 1;
export const EN_PASSANT = 2;
export const CASTLING_MOVE = 3;

/** The type (0 pawn .. 5 king) of the piece the last quickLegality found on `from`. */
export let movedType = 0;

/**
 * For from -> to (promotion 0 none, 1 knight .. 4 queen) in the position of set halves `s` (the
 * packed words 0..7), `us` to move, en-passant square `ep` (-1 none): PSEUDO_LEGAL when the piece
 * reaches the square, EN_PASSANT for a pawn taking en passant (both legal when kingSafeAfter says so
 * once the move is played), CASTLING_MOVE for a king move that is no step (legal when movegen.ts
 * castlingIsLegal says so), 0 when it is not legal. Sets movedType.
 */
export function quickLegality(s: SetHalves, us: number, ep: number, from: number, to: number, promotion: number): number {
  if (((from | to) >>> 6) !== 0 || promotion >>> 0 > 4) return 0;
  const them = us ^ 1;
  const ownLo = s[2 * us]!, ownHi = s[2 * us + 1]!;
  const enLo = s[2 * them]!, enHi = s[2 * them + 1]!;
  if (!has(ownLo, ownHi, from)) return 0;
  const fromWord = from >> 5, fromBit = 1 << (from & 31);
  let type = 0;
  while (type < 6 && (s[4 + 2 * type + fromWord]! & fromBit) === 0) type++;
  movedType = type;
  if (type === 5) {
    // Castling (standard: two squares; Chess960: the king taking its own rook) is castlingIsLegal's.
    if (promotion !== 0 || has(ownLo, ownHi, to) || !has(KING[from << 1]!, KING[(from << 1) + 1]!, to)) return CASTLING_MOVE;
    return PSEUDO_LEGAL;
  }
  if (type === 6 || has(ownLo, ownHi, to)) return 0;
  const promotes = type === 0 && to >> 3 === (us === 0 ? 7 : 0);
  if (promotes !== (promotion !== 0)) return 0;
  const occLo = ownLo | enLo, occHi = ownHi | enHi;

  if (type === 0) {
    const step = us === 0 ? 8 : -8;
    if (to === from + step) return has(occLo, occHi, to) ? 0 : PSEUDO_LEGAL;
    if (to === from + 2 * step) {
      return from >> 3 === (us === 0 ? 1 : 6) && !has(occLo, occHi, from + step) && !has(occLo, occHi, to) ? PSEUDO_LEGAL : 0;
    }
    if (!has(PAWN_ATTACKS[(us * 64 + from) << 1]!, PAWN_ATTACKS[((us * 64 + from) << 1) + 1]!, to)) return 0;
    if (to !== ep) return has(enLo, enHi, to) ? PSEUDO_LEGAL : 0;
    // En passant: the square empty, the pawn that passed it behind it.
    const passed = us === 0 ? to - 8 : to + 8;
    return !has(occLo, occHi, to) && has(enLo & s[4]!, enHi & s[5]!, passed) ? EN_PASSANT : 0;
  }
  if (type === 1) return has(KNIGHT[from << 1]!, KNIGHT[(from << 1) + 1]!, to) ? PSEUDO_LEGAL : 0;
  // A slider reaches a square on one of its lines (the empty-board rays) with nothing between.
  const at = (from * 64 + to) << 1;
  return ((type !== 3 && has(BISHOP_EMPTY[from << 1]!, BISHOP_EMPTY[(from << 1) + 1]!, to))
    || (type !== 2 && has(ROOK_EMPTY[from << 1]!, ROOK_EMPTY[(from << 1) + 1]!, to)))
    && ((BETWEEN[at]! & occLo) | (BETWEEN[at + 1]! & occHi)) === 0 ? PSEUDO_LEGAL : 0;
}

/**
 * After a pseudo-legal move other than castling is played onto the board at `n` (movegen.ts's
 * layout, the side to move already switched): whether the mover's king, now on `k`, is safe there,
 * which makes the move legal.
 */
export function kingSafeAfter(n: number, k: number): boolean {
  const B = BOARD;
  const them = B[n + SIDE]!;
  return !attacked(n, them, k, B[n]! | B[n + 2]!, B[n + 1]! | B[n + 3]!, 0, 0);
}
