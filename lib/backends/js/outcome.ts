/**
 * The rules that end a game (FIDE Laws of Chess, Article 5.2, 9.2, 9.3 and 9.6) for the JS backend;
 * twin of `native/core/outcome.h` (read its header for the rules: the insufficient-material
 * approximation, what makes two positions the same, the order of the checks). Boards are int32
 * halves as on movegen.ts's ply stack: words 0..15 the colour and piece sets (lo, hi each), 16 the
 * side to move, 17 the castling rights, 18 the en-passant square or -1.
 */
import type { Position } from '../../core/types.js';
import { packedOf } from '../../core/position.js';
import { popcount32 } from '../../board/bits.js';
import { BOARD, EP, IN_CHECK, MAX_MOVES, MOVES, PLY_WORDS, SIDE, play } from '../../board/movegen.js';

/** Terminations (native/core/outcome.h Termination); an outcome code is termination | winner << 4. */
export const OUTCOME_ONGOING = 0;
export const OUTCOME_CHECKMATE = 1;
export const OUTCOME_INSUFFICIENT_MATERIAL = 2;
export const OUTCOME_STALEMATE = 3;
export const OUTCOME_SEVENTYFIVE_MOVES = 4;
export const OUTCOME_FIVEFOLD_REPETITION = 5;
export const OUTCOME_FIFTY_MOVES = 6;
export const OUTCOME_THREEFOLD_REPETITION = 7;
export const OUTCOME_WINNER_SHIFT = 4;

/** Words of a board that repetition compares. */
export const BOARD_WORDS = 19;

// a1 is a dark square: c1, e1, g1, b2, ... (the same pattern in both halves).
const DARK = 0xaa55aa55 | 0;

/** native/core/outcome.h insufficientMaterial on the board at w[o ..]. */
export function insufficientHalves(w: Int32Array, o: number, color: number): boolean {
  const ownLo = w[o + 2 * color]!, ownHi = w[o + 2 * color + 1]!;
  const otherLo = w[o + 2 * (color ^ 1)]!, otherHi = w[o + 2 * (color ^ 1) + 1]!;
  const pawnLo = w[o + 4]!, pawnHi = w[o + 5]!;
  const knightLo = w[o + 6]!, knightHi = w[o + 7]!;
  const bishopLo = w[o + 8]!, bishopHi = w[o + 9]!;
  if ((ownLo & (pawnLo | w[o + 10]! | w[o + 12]!)) | (ownHi & (pawnHi | w[o + 11]! | w[o + 13]!))) return false;
  if ((ownLo & knightLo) | (ownHi & knightHi)) {
    const helpers = (otherLo & ~(w[o + 14]! | w[o + 12]!)) | (otherHi & ~(w[o + 15]! | w[o + 13]!));
    return popcount32(ownLo) + popcount32(ownHi) <= 2 && helpers === 0;
  }
  if ((ownLo & bishopLo) | (ownHi & bishopHi)) {
    const dark = (bishopLo & DARK) | (bishopHi & DARK);
    const light = (bishopLo & ~DARK) | (bishopHi & ~DARK);
    const oneColour = dark === 0 || light === 0;
    return oneColour && (pawnLo | pawnHi) === 0 && (knightLo | knightHi) === 0;
  }
  return true;
}

/** The backend function: `color` cannot checkmate by any series of legal moves (the approximation). */
export function hasInsufficientMaterial(pos: Position, color: number): boolean {
  const p = packedOf(pos);
  return insufficientHalves(new Int32Array(p.buffer, p.byteOffset, 16), 0, color);
}

/** The backend function: neither side can checkmate (the position's insufficient material). */
export function isInsufficientMaterial(pos: Position): boolean {
  const p = packedOf(pos);
  const halves = new Int32Array(p.buffer, p.byteOffset, 16);
  return insufficientHalves(halves, 0, 0) && insufficientHalves(halves, 0, 1);
}

/** Same position in the sense of 9.2.3 (boards with en passant kept only when a capture is legal). */
export function samePosition(a: Int32Array, i: number, b: Int32Array, j: number): boolean {
  for (let k = 0; k < BOARD_WORDS; k++) if (a[i + k] !== b[j + k]) return false;
  return true;
}

/** How many of the n boards of `history` are the same position as the board at b[j ..]. */
function occurrences(history: Int32Array, from: number, n: number, b: Int32Array, j: number): number {
  let k = 0;
  for (let i = from; i < n; i++) if (samePosition(history, i * BOARD_WORDS, b, j)) k++;
  return k;
}

/**
 * native/core/outcome.h gameOutcome: the outcome code of a game whose last board is history's
 * board n - 1 (n >= 1; the boards since the last capture or pawn move), also on movegen.ts's ply
 * stack at ply p with its `count` legal moves listed (san.generateClean), `halfmove` its clock.
 * Ply p + 1 is used as scratch.
 */
export function gameOutcome(history: Int32Array, n: number, halfmove: number, p: number, count: number): number {
  const o = p * PLY_WORDS;
  const side = BOARD[o + SIDE]!;
  if (count === 0 && BOARD[o + IN_CHECK] !== 0) return OUTCOME_CHECKMATE | ((side === 0 ? 2 : 1) << OUTCOME_WINNER_SHIFT);
  if (insufficientHalves(BOARD, o, 0) && insufficientHalves(BOARD, o, 1)) return OUTCOME_INSUFFICIENT_MATERIAL;
  if (count === 0) return OUTCOME_STALEMATE;
  if (halfmove >= 150) return OUTCOME_SEVENTYFIVE_MOVES;
  const last = (n - 1) * BOARD_WORDS;
  const here = occurrences(history, 0, n, history, last);
  if (here >= 5) return OUTCOME_FIVEFOLD_REPETITION;
  const listed = Math.min(count, MAX_MOVES);
  const base = p * MAX_MOVES;
  const them = 2 * (side ^ 1);
  // A move that is no capture and no pawn move (9.3: the clock counts those).
  const quiet = (m: number): boolean => {
    const from = m & 63, to = (m >> 6) & 63;
    return ((BOARD[o + them + (to >> 5)]! >>> (to & 31)) & 1) === 0 && ((BOARD[o + 4 + (from >> 5)]! >>> (from & 31)) & 1) === 0;
  };
  if (halfmove >= 100) return OUTCOME_FIFTY_MOVES;
  if (halfmove === 99) for (let i = 0; i < listed; i++) if (quiet(MOVES[base + i]!)) return OUTCOME_FIFTY_MOVES;
  if (here >= 3) return OUTCOME_THREEFOLD_REPETITION;
  let pair = false;
  for (let i = 0; i + 1 < n && !pair; i++) {
    if (history[i * BOARD_WORDS + 16] !== side && occurrences(history, i + 1, n, history, i * BOARD_WORDS) >= 1) pair = true;
  }
  if (pair) {
    const next = o + PLY_WORDS;
    for (let i = 0; i < listed; i++) {
      const m = MOVES[base + i]!;
      if (!quiet(m)) continue;
      play(p, m);
      BOARD[next + EP] = -1; // a quiet move leaves no en-passant square
      if (occurrences(history, 0, n, BOARD, next) >= 2) return OUTCOME_THREEFOLD_REPETITION;
    }
  }
  return OUTCOME_ONGOING;
}
