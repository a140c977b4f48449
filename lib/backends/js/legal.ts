/**
 * Whether one move is legal on the board at ply 0 of movegen.ts's stack, from the moving piece
 * alone: the tests of the Chess Programming Wiki's Legal Move Generation page (the piece reaches the
 * square; under a single check it captures the checker or blocks; a pinned piece stays on its pin
 * line; a double check leaves only king moves) with the king's checkers and pins from one look of
 * blockers.ts kingBlockers. A king step is legal when its square is not attacked with the king lifted
 * off the board (a slider's ray through the king's old square counts). Castling and en-passant
 * captures (the captured pawn leaves the rank) are left to the generator: the answer is then -1.
 */
import { pawnAttackTable } from './bitboard.js';
import { kingBlockers } from './blockers.js';
import { knightAttackTable } from './knight.js';
import { BOARD, EP, SIDE, attacked, kingSquareAt } from './movegen.js';
import { kingAttackTable } from './king.js';
import { BETWEEN, LINE, bishopHalves, rookHalves } from './sliders.js';

const KNIGHT = knightAttackTable.halves;
const KING = kingAttackTable.halves;
/** Pawn captures: [(color * 64 + sq) * 2]. */
const PAWN_ATTACKS = pawnAttackTable.halves;
/** kingBlockers' and the slider lookups' out-array. */
const LOOK = new Int32Array(6);

/** Bit sq of the set whose halves are lo, hi. */
const has = (lo: number, hi: number, sq: number): boolean => (sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1) !== 0;

/**
 * 1 when from -> to (promotion 0 none, 1 knight .. 4 queen) is legal on ply 0, 0 when it is not,
 * -1 for castling or an en-passant capture (ask the generator).
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
    // Castling (standard: two squares; Chess960: the king taking its own rook) asks the generator.
    if (promotion !== 0 || has(ownLo, ownHi, to) || !has(KING[from << 1]!, KING[(from << 1) + 1]!, to)) return -1;
    const liftLo = from < 32 ? ~(1 << from) : -1, liftHi = from < 32 ? -1 : ~(1 << (from - 32));
    return attacked(0, them, to, (ownLo | enLo) & liftLo, (ownHi | enHi) & liftHi, 0, 0) ? 0 : 1;
  }
  if (has(ownLo, ownHi, to)) return 0;
  let type = 0;
  while (type < 5 && !has(B[4 + 2 * type]!, B[5 + 2 * type]!, from)) type++;
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
      if (to === B[EP]) return -1;
      reaches = has(enLo, enHi, to);
    } else reaches = false;
  } else if (type === 1) {
    reaches = has(KNIGHT[from << 1]!, KNIGHT[(from << 1) + 1]!, to);
  } else {
    reaches = false;
    if (type !== 3) {
      bishopHalves(from, occLo, occHi, LOOK, 0);
      reaches = has(LOOK[0]!, LOOK[1]!, to);
    }
    if (!reaches && type !== 2) {
      rookHalves(from, occLo, occHi, LOOK, 0);
      reaches = has(LOOK[0]!, LOOK[1]!, to);
    }
  }
  if (!reaches) return 0;

  kingBlockers(BOARD, 0, k, them, occLo, occHi, LOOK, 0);
  const pinned = has(LOOK[0]! & ownLo, LOOK[1]! & ownHi, from);
  const cLo = LOOK[4]!, cHi = LOOK[5]!;
  if ((cLo | cHi) !== 0) {
    if ((cLo !== 0 && cHi !== 0) || (cLo & (cLo - 1)) !== 0 || (cHi & (cHi - 1)) !== 0) return 0;
    const c = cLo !== 0 ? 31 - Math.clz32(cLo) : 63 - Math.clz32(cHi);
    const at = (k * 64 + c) << 1;
    if (!has(BETWEEN[at]! | cLo, BETWEEN[at + 1]! | cHi, to)) return 0;
  }
  if (pinned) {
    const at = (k * 64 + from) << 1;
    if (!has(LINE[at]!, LINE[at + 1]!, to)) return 0;
  }
  return 1;
}
