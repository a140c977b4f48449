/**
 * The blockers of a king (Chess Programming Wiki: Checks and Pinned Pieces, Pin, Discovered Check);
 * twin of `native/core/blockers.h`: the pieces that stand alone between a king square and a slider
 * that would see it on an empty board, those sliders, and the checkers. The one primitive behind pinned pieces and
 * their pinners, discovered-check candidates, pin rays, move generation, perft and the batch analysis
 * (the page's x-ray and opposite-ray methods stay in lib/backends/js/checks.ts as the two documented variants).
 *
 * Works on int32 halves (lo = a1..h4, hi = a5..h8), the representation of all hot code in this
 * backend: a board is read from an Int32Array in the packed-position layout (words 0..15: white,
 * black, then pawns .. kings, each lo then hi), which is also movegen.ts's ply layout.
 */
import { BETWEEN, BISHOP_EMPTY, ROOK_EMPTY } from './sliders.js';
import { pawnAttackTable } from './bitboard.js';
import { kingAttackTable, knightAttackTable } from './leapers.js';

const KNIGHT = knightAttackTable.halves;
const KING = kingAttackTable.halves;
const PAWN = pawnAttackTable.halves;

/** "Exactly one square" for a set given as halves. */
export const singleSquare = (lo: number, hi: number): boolean =>
  (lo === 0) !== (hi === 0) && (lo & (lo - 1)) === 0 && (hi & (hi - 1)) === 0;

/**
 * The blockers of the king on `kingSq` against the sliders of `sliderColor` on the board at
 * board[o ..], lines seen through the occupancy (occLo, occHi). Writes out[at], out[at + 1]: the
 * blockers (either colour; the king's own are pinned, sliderColor's are its discovered-check
 * candidates); out[at + 2], out[at + 3]: the pinners (the sliders whose lone blocker has the king's
 * colour, sliderColor ^ 1); out[at + 4], out[at + 5]: the checkers (sliderColor's pieces attacking
 * the king square: the sliders with nothing between, and the knights, pawns and king on their
 * attack tables). Every line is walked only from a slider that is on it, through the BETWEEN table,
 * so a king with no enemy slider on its lines costs no slider lookup at all.
 */
export function kingBlockers(board: Int32Array, o: number, kingSq: number, sliderColor: number,
  occLo: number, occHi: number, out: Int32Array, at: number): void {
  const k2 = kingSq << 1;
  const qLo = board[o + 12]!;
  const qHi = board[o + 13]!;
  const sideLo = board[o + 2 * sliderColor]!;
  const sideHi = board[o + 2 * sliderColor + 1]!;
  // The sliders that would see the king on an empty board; each is a checker with no piece between,
  // and has a blocker with exactly one.
  const snLo = ((ROOK_EMPTY[k2]! & (board[o + 10]! | qLo)) | (BISHOP_EMPTY[k2]! & (board[o + 8]! | qLo))) & sideLo;
  const snHi = ((ROOK_EMPTY[k2 + 1]! & (board[o + 11]! | qHi)) | (BISHOP_EMPTY[k2 + 1]! & (board[o + 9]! | qHi))) & sideHi;
  const kingSideLo = board[o + 2 * (sliderColor ^ 1)]!;
  const kingSideHi = board[o + 2 * (sliderColor ^ 1) + 1]!;
  const p2 = ((sliderColor ^ 1) * 64 + kingSq) << 1;
  let cLo = ((KNIGHT[k2]! & board[o + 6]!) | (PAWN[p2]! & board[o + 4]!) | (KING[k2]! & board[o + 14]!)) & sideLo;
  let cHi = ((KNIGHT[k2 + 1]! & board[o + 7]!) | (PAWN[p2 + 1]! & board[o + 5]!) | (KING[k2 + 1]! & board[o + 15]!)) & sideHi;
  let bLo = 0, bHi = 0, pLo = 0, pHi = 0;
  const row = kingSq << 7;
  for (let half = 0; half < 2; half++) {
    let sn = half === 0 ? snLo : snHi;
    while (sn !== 0) {
      const s = 31 - Math.clz32(sn & -sn);
      sn &= sn - 1;
      const x = row + ((s + 32 * half) << 1);
      const iLo = BETWEEN[x]! & occLo;
      const iHi = BETWEEN[x + 1]! & occHi;
      if ((iLo | iHi) === 0) {
        if (half === 0) cLo |= 1 << s; else cHi |= 1 << s;
      } else if (singleSquare(iLo, iHi)) {
        bLo |= iLo;
        bHi |= iHi;
        if ((iLo & kingSideLo) | (iHi & kingSideHi)) {
          if (half === 0) pLo |= 1 << s; else pHi |= 1 << s;
        }
      }
    }
  }
  out[at] = bLo;
  out[at + 1] = bHi;
  out[at + 2] = pLo;
  out[at + 3] = pHi;
  out[at + 4] = cLo;
  out[at + 5] = cHi;
}
