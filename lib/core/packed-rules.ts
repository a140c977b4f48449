/**
 * The rules a packed position holds (the packed layout of `types.ts`): its sets consistent, one king
 * a side, the state bits in range, and parseFen's board rules (lib/core/position.ts) on the words;
 * twin of the checks in native/core/position.h. The Position record, the JS backend's batch forms
 * and its single calls over packed words all ask these.
 */
import { PACKED_POSITION_WORDS } from './types.js';
import { ROOK_FILES_SHIFT, STATE_CHESS960, chess960CastlingProblem } from './chess960.js';
import { singleSquare } from '../board/blockers.js';

/** Consistency of one packed position and parseFen's board rules, the same as the native side; undefined when fine. */
export function packedProblem(w: BigUint64Array, at: number): string | undefined {
  const white = w[at]!;
  const black = w[at + 1]!;
  if (white & black) return 'white and black pieces overlap';
  let types = 0n;
  for (let t = 0; t < 6; t++) {
    if (types & w[at + 2 + t]!) return 'two piece types share a square';
    types |= w[at + 2 + t]!;
  }
  if (types !== (white | black)) return 'the piece-type sets and the colour sets cover different squares';
  const kings = w[at + 7]!;
  for (const [set, name] of [[white & kings, 'white'], [black & kings, 'black']] as const) {
    if (set === 0n || (set & (set - 1n)) !== 0n) return `${name} must have exactly one king`;
  }
  const state = w[at + 8]!;
  if (state & 0xc0n) return 'state bits 6-7 must be zero';
  const ep = Number((state >> 8n) & 255n);
  if (ep > 64) return 'en-passant code must be 0..64';
  if (ep !== 64 && (ep >> 3) !== ((state & 1n) ? 2 : 5)) {
    return 'en-passant square must be on the 6th rank (white to move) or the 3rd (black to move)';
  }
  return fenRuleProblem(new Int32Array(w.buffer, w.byteOffset + at * 8, PACKED_POSITION_WORDS * 2), 0);
}

// The rules of parseFen beyond the sets' consistency (lib/core/position.ts validate), on the halves of a
// packed position (twin of native/core/position.h): no pawn on the first or last rank; each castling
// right with its king and rook at home (X-FEN's KQkq: e1 with h1 / a1, e8 with h8 / a8); an en-passant
// square with a pawn of the side not to move in front of it, itself and the square behind it empty.
const CASTLING_KING = [4, 4, 60, 60];
const CASTLING_ROOK = [7, 0, 63, 56];
const CASTLING_PROBLEMS = [
  'castling right K needs the white king on e1 and a white rook on h1',
  'castling right Q needs the white king on e1 and a white rook on a1',
  'castling right k needs the black king on e8 and a black rook on h8',
  'castling right q needs the black king on e8 and a black rook on a8',
];
const EP_PROBLEM = 'en-passant square needs a pawn of the side not to move in front of it, and itself and the square behind it empty';

/** Bit sq of the set whose halves are w[j], w[j + 1]. */
const halfBit = (w: Int32Array, j: number, sq: number): number => (w[j + (sq >> 5)]! >>> (sq & 31)) & 1;

/**
 * parseFen's remaining board rules on the halves of the position at half offset `at`, whose sets
 * are consistent, kings counted and en-passant square on its rank; undefined when they hold.
 */
export function fenRuleProblem(w: Int32Array, at: number): string | undefined {
  if ((w[at + 4]! & 0xff) | (w[at + 5]! & (0xff << 24))) return 'pawn on the first or last rank';
  const state = w[at + 16]!;
  const castling = (state >> 1) & 15;
  const rookFields = (w[at + 17]! >>> ROOK_FILES_SHIFT) & 0xfff;
  if (state & STATE_CHESS960) {
    const problem = chess960CastlingProblem(w, at, castling, rookFields);
    if (problem) return problem;
  } else if (rookFields) return 'castling rook files other than h and a are for Chess960 positions only';
  for (let r = 0; r < 4 && !(state & STATE_CHESS960); r++) {
    if (!(castling & (1 << r))) continue;
    const own = at + 2 * (r >> 1);
    const king = CASTLING_KING[r]!, rook = CASTLING_ROOK[r]!;
    if (!(halfBit(w, own, king) & halfBit(w, at + 14, king) & halfBit(w, own, rook) & halfBit(w, at + 10, rook))) return CASTLING_PROBLEMS[r];
  }
  const ep = (state >>> 8) & 255;
  if (ep !== 64) {
    const blackToMove = state & 1;
    const pawnSq = blackToMove ? ep + 8 : ep - 8;
    const originSq = blackToMove ? ep - 8 : ep + 8;
    const enemy = at + (blackToMove ? 0 : 2);
    if (!(halfBit(w, enemy, pawnSq) & halfBit(w, at + 4, pawnSq)) || halfBit(w, at, ep) | halfBit(w, at + 2, ep)
      || halfBit(w, at, originSq) | halfBit(w, at + 2, originSq)) return EP_PROBLEM;
  }
  return undefined;
}

/** packedProblem's rules on the halves of the position at word offset `at` (20 per position). */
export function packedIsValid(w: Int32Array, at: number): boolean {
  let seenLo = 0;
  let seenHi = 0;
  let sharedLo = 0;
  let sharedHi = 0;
  for (let j = at + 4; j < at + 16; j += 2) {
    sharedLo |= seenLo & w[j]!;
    sharedHi |= seenHi & w[j + 1]!;
    seenLo |= w[j]!;
    seenHi |= w[j + 1]!;
  }
  const whiteLo = w[at]!, whiteHi = w[at + 1]!, blackLo = w[at + 2]!, blackHi = w[at + 3]!;
  const kingsLo = w[at + 14]!, kingsHi = w[at + 15]!;
  const state = w[at + 16]!;
  const ep = (state >>> 8) & 255;
  return ((whiteLo & blackLo) | (whiteHi & blackHi) | sharedLo | sharedHi
    | (seenLo ^ (whiteLo | blackLo)) | (seenHi ^ (whiteHi | blackHi)) | (state & 0xc0)) === 0
    && singleSquare(whiteLo & kingsLo, whiteHi & kingsHi) && singleSquare(blackLo & kingsLo, blackHi & kingsHi)
    && (ep === 64 || (ep >> 3) === ((state & 1) !== 0 ? 2 : 5))
    && fenRuleProblem(w, at) === undefined;
}

