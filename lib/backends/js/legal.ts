/**
 * Whether one move is legal on the board at ply 0 of movegen.ts's stack, from the moving piece
 * alone, in two steps: here, the pseudo-legal test (the piece reaches the square: the move rules of
 * the Chess Programming Wiki's Move Generation page); then, once the move is played on ply 1, the
 * king-safety test of the page's "pseudo-legal, then legal" scheme (`kingSafeAfter`: the mover's
 * king not attacked on the new board, en passant's two vacated squares included). A king step is
 * decided here: its square is not attacked with the king lifted off the board (a slider's ray
 * through the king's old square counts). Castling is left to the generator's castling rules.
 */
import { pawnAttackTable } from './bitboard.js';
import { knightAttackTable } from './knight.js';
import { BOARD, EP, PLY_WORDS, SIDE, attacked, kingSquareAt } from './movegen.js';
import { kingAttackTable } from './king.js';
import { BETWEEN, BISHOP_EMPTY, ROOK_EMPTY } from './sliders.js';

const KNIGHT = knightAttackTable.halves;
const KING = kingAttackTable.halves;
/** Pawn captures: [(color * 64 + sq) * 2]. */
const PAWN_ATTACKS = pawnAttackTable.halves;

/** Bit sq of the set whose halves are lo, hi. */
const has = (lo: number, hi: number, sq: number): boolean => (sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1) !== 0;

/** quickLegality's answers besides 0 (not legal). */
export const LEGAL = 2;
export const PSEUDO_LEGAL = 1;
export const CASTLING_MOVE = -1;

/**
 * For from -> to (promotion 0 none, 1 knight .. 4 queen) on ply 0: LEGAL for a king step to a safe
 * square, PSEUDO_LEGAL when the piece reaches the square (legal when kingSafeAfter says so once the
 * move is played on ply 1), 0 when it is not legal, CASTLING_MOVE for a king move that is no step
 * (legal when movegen.ts castlingIsLegal says so).
 */
export function quickLegality(from: number, to: number, promotion: number): number {
  const B = BOARD;
  if (((from | to) >>> 6) !== 0 || promotion >>> 0 > 4) return 0;
  const us = B[SIDE]!;
  const them = us ^ 1;
  const ownLo = B[2 * us]!, ownHi = B[2 * us + 1]!;
  const enLo = B[2 * them]!, enHi = B[2 * them + 1]!;
  if (!has(ownLo, ownHi, from)) return 0;
  const k = kingSquareAt(0, us);
  if (from === k) {
    // Castling (standard: two squares; Chess960: the king taking its own rook) is castlingIsLegal's.
    if (promotion !== 0 || has(ownLo, ownHi, to) || !has(KING[from << 1]!, KING[(from << 1) + 1]!, to)) return CASTLING_MOVE;
    const liftLo = from < 32 ? ~(1 << from) : -1, liftHi = from < 32 ? -1 : ~(1 << (from - 32));
    return attacked(0, them, to, (ownLo | enLo) & liftLo, (ownHi | enHi) & liftHi, 0, 0) ? 0 : LEGAL;
  }
  if (has(ownLo, ownHi, to)) return 0;
  const fromWord = from >> 5, fromBit = 1 << (from & 31);
  let type = 0;
  while (type < 5 && (B[4 + 2 * type + fromWord]! & fromBit) === 0) type++;
  if (type === 5) return 0;
  const promotes = type === 0 && to >> 3 === (us === 0 ? 7 : 0);
  if (promotes !== (promotion !== 0)) return 0;
  const occLo = ownLo | enLo, occHi = ownHi | enHi;

  let reaches: boolean;
  if (type === 0) {
    const step = us === 0 ? 8 : -8;
    if (to === from + step) reaches = !has(occLo, occHi, to);
    else if (to === from + 2 * step && from >> 3 === (us === 0 ? 1 : 6)) reaches = !has(occLo, occHi, from + step) && !has(occLo, occHi, to);
    else if (has(PAWN_ATTACKS[(us * 64 + from) << 1]!, PAWN_ATTACKS[((us * 64 + from) << 1) + 1]!, to)) {
      // En passant: the square empty, the pawn that passed it behind it (kingSafeAfter then sees the
      // board with both pawns gone from their squares, the horizontal pin included).
      const passed = us === 0 ? to - 8 : to + 8;
      reaches = to === B[EP] ? !has(occLo, occHi, to) && has(enLo & B[4]!, enHi & B[5]!, passed) : has(enLo, enHi, to);
    } else reaches = false;
  } else if (type === 1) {
    reaches = has(KNIGHT[from << 1]!, KNIGHT[(from << 1) + 1]!, to);
  } else {
    // A slider reaches a square on one of its lines (the empty-board rays) with nothing between.
    const at = (from * 64 + to) << 1;
    reaches = ((type !== 3 && has(BISHOP_EMPTY[from << 1]!, BISHOP_EMPTY[(from << 1) + 1]!, to))
      || (type !== 2 && has(ROOK_EMPTY[from << 1]!, ROOK_EMPTY[(from << 1) + 1]!, to)))
      && ((BETWEEN[at]! & occLo) | (BETWEEN[at + 1]! & occHi)) === 0;
  }
  return reaches ? PSEUDO_LEGAL : 0;
}

/**
 * After a PSEUDO_LEGAL move of a piece other than the king is played from ply 0 to ply 1: whether
 * the mover's king (on `k`) is safe there, which makes the move legal.
 */
export function kingSafeAfter(k: number): boolean {
  const B = BOARD;
  const n = PLY_WORDS;
  const them = B[n + SIDE]!;
  return !attacked(n, them, k, B[n]! | B[n + 2]!, B[n + 1]! | B[n + 3]!, 0, 0);
}
