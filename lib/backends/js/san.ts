/**
 * Standard Algebraic Notation for the JS backend; twin of `native/core/san.h` (PGN standard section
 * 8.2.3): the canonical writer (disambiguation by file, then rank, then both, 8.2.3.3; pawn captures
 * by file of departure; "O-O" / "O-O-O"; "=Q"; "+" / "#") and the lenient reader (over-disambiguation,
 * any or no check marks, "0-0", "e.p.", promotion without "=", "!" / "?" suffixes, "Z0" / "--" null
 * moves). Works on the ply stack of movegen.ts and on bytes (so the PGN reader needs no strings).
 */
import { BOARD, C960, CASTLING, EP, MAX_MOVES, MOVES, PLY_WORDS, SIDE, generate, typeAt } from '../../board/movegen.js';
import * as mg from '../../board/movegen.js';
import { play } from '../../board/movegen.js';
import type { Position } from '../../core/types.js';
import type { SanBackend } from '../contract.js';
import { loadPosition } from './load-position.js';
import { PositionRecord } from '../../core/position-record.js';
import { isLegalPieceMove } from './makemove.js';

export const SAN_OK = 0;
export const SAN_MALFORMED = 1;
export const SAN_ILLEGAL = 2;
export const SAN_AMBIGUOUS = 3;
export const SAN_NULL_MOVE = 4;

const PAWN = 0;
const KNIGHT = 1;
const KING = 5;

/** What a SAN text says (one reused record: the reader is allocation-free). */
export const syntax = { null: false, castle: 0, piece: 0, fromFile: -1, fromRank: -1, to: -1, promotion: 0, capture: false };

const CH_PLUS = 43, CH_HASH = 35, CH_BANG = 33, CH_QUESTION = 63;
const isSuffix = (c: number): boolean => c === CH_PLUS || c === CH_HASH || c === CH_BANG || c === CH_QUESTION;
const isFile = (c: number): boolean => c >= 97 && c <= 104;
const isRank = (c: number): boolean => c >= 49 && c <= 56;
function pieceLetter(c: number): number {
  switch (c) {
    case 78: return 1; // N
    case 66: return 2; // B
    case 82: return 3; // R
    case 81: return 4; // Q
    case 75: return 5; // K
    default: return -1;
  }
}

/** Reads s[start, end) into `syntax`; false when it is no SAN move (malformed). */
export function parseSyntax(s: Uint8Array, start: number, end: number): boolean {
  const x = syntax;
  x.null = false; x.castle = 0; x.piece = PAWN; x.fromFile = -1; x.fromRank = -1; x.to = -1; x.promotion = 0; x.capture = false;
  let n = end;
  while (n > start && isSuffix(s[n - 1]!)) --n;
  if (n - start >= 4 && s[n - 4] === 101 && s[n - 3] === 46 && s[n - 2] === 112 && s[n - 1] === 46) {
    n -= 4;
    while (n > start && isSuffix(s[n - 1]!)) --n;
  }
  const len = n - start;
  if (len === 0 || len > 12) return false;
  const c0 = s[start]!;
  if (len === 2 && ((c0 === 45 && s[start + 1] === 45) || (c0 === 90 && s[start + 1] === 48))) {
    x.null = true;
    return true;
  }
  if (c0 === 79 || c0 === 48) {
    if (len === 3 && s[start + 1] === 45 && s[start + 2] === c0) { x.castle = 1; return true; }
    if (len === 5 && s[start + 1] === 45 && s[start + 2] === c0 && s[start + 3] === 45 && s[start + 4] === c0) { x.castle = 2; return true; }
    return false;
  }
  let i = start;
  if (pieceLetter(c0) >= 0) x.piece = pieceLetter(s[i++]!);
  else if (c0 === 80) ++i; // 'P'
  if (n - i >= 3) {
    const p = pieceLetter(s[n - 1]!);
    if (p >= 1 && p <= 4) {
      x.promotion = p;
      --n;
      if (s[n - 1] === 61) --n; // '='
    }
  }
  if (n - i < 2 || !isFile(s[n - 2]!) || !isRank(s[n - 1]!)) return false;
  x.to = (s[n - 1]! - 49) * 8 + (s[n - 2]! - 97);
  n -= 2;
  let seen = 0;
  for (; i < n; ++i) {
    const c = s[i]!;
    if (isFile(c) && seen < 1) { x.fromFile = c - 97; seen = 1; }
    else if (isRank(c) && seen < 2) { x.fromRank = c - 49; seen = 2; }
    else if ((c === 120 || c === 58 || c === 45) && seen < 3) { x.capture = c !== 45; seen = 3; }
    else return false;
  }
  if (x.piece !== PAWN && x.promotion !== 0) return false;
  return true;
}

function has(o: number, word: number, sq: number): boolean {
  return (BOARD[o + word + (sq >> 5)]! & (1 << (sq & 31))) !== 0;
}

/** Castling is the king's two-square move. */
function isCastle(o: number, m: number): boolean {
  const from = m & 63;
  // Chess960: the king takes its own rook.
  if (BOARD[o + C960]! !== 0) return has(o, 4 + 2 * KING, from) && has(o, 4 + 2 * 3, (m >> 6) & 63) && has(o, 2 * BOARD[o + SIDE]!, (m >> 6) & 63);
  const d = ((m >> 6) & 63) - from;
  return (d === 2 || d === -2) && has(o, 4 + 2 * KING, from);
}

/** `resolve`'s result: the status in the low 3 bits, the move above them when it is SAN_OK. */
export function sanStatus(r: number): number {
  return r & 7;
}
export function sanMove(r: number): number {
  return r >> 3;
}

function matches(o: number, m: number): boolean {
  const x = syntax;
  const from = m & 63;
  const to = (m >> 6) & 63;
  if (x.castle !== 0) return isCastle(o, m) && (x.castle === 1 ? to > from : to < from);
  if (to !== x.to || !has(o, 4 + 2 * x.piece, from) || (x.piece === KING && isCastle(o, m))) return false;
  if ((x.fromFile >= 0 && (from & 7) !== x.fromFile) || (x.fromRank >= 0 && (from >> 3) !== x.fromRank)) return false;
  if ((m >> 12) !== x.promotion) return false;
  // A pawn named without its file moves straight ahead unless a capture was written.
  return !(x.piece === PAWN && x.fromFile < 0 && !x.capture && (from & 7) !== (to & 7));
}

/** The legal move of ply p (its n moves generated at MOVES[p * MAX_MOVES]) that `syntax` names. */
export function resolve(p: number, n: number): number {
  if (syntax.null) return SAN_NULL_MOVE;
  const o = p * PLY_WORDS;
  const base = p * MAX_MOVES;
  let found = 0;
  let count = 0;
  for (let k = 0; k < n; k++) {
    const m = MOVES[base + k]!;
    if (matches(o, m)) {
      if (count === 0) found = m;
      count++;
    }
  }
  if (count === 0) return SAN_ILLEGAL;
  if (count > 1) return SAN_AMBIGUOUS;
  return SAN_OK | (found << 3);
}

/** The moves of ply p that `syntax` names (for the message of an ambiguous move). */
export function candidates(p: number, n: number): number[] {
  const out: number[] = [];
  const o = p * PLY_WORDS;
  for (let k = 0; k < n; k++) if (matches(o, MOVES[p * MAX_MOVES + k]!)) out.push(MOVES[p * MAX_MOVES + k]!);
  return out;
}

const LETTERS = 'PNBRQK';
const FILES = 'abcdefgh';

/**
 * The canonical SAN of the legal move m of ply p (n moves generated there); check 0 none, 1 check,
 * 2 checkmate (the position after the move).
 */
export function write(p: number, n: number, m: number, check: number): string {
  const o = p * PLY_WORDS;
  const from = m & 63;
  const to = (m >> 6) & 63;
  const promo = m >> 12;
  const type = typeAt(o, from);
  let out: string;
  if (isCastle(o, m)) {
    out = to > from ? 'O-O' : 'O-O-O';
  } else {
    const capture = has(o, 0, to) || has(o, 2, to) || (type === PAWN && to === BOARD[o + EP]);
    out = '';
    if (type === PAWN) {
      if (capture) out += FILES[from & 7];
    } else {
      out += LETTERS[type];
      let other = false;
      let sameFile = false;
      let sameRank = false;
      if (type !== KING) {
        const base = p * MAX_MOVES;
        for (let k = 0; k < n; k++) {
          const mk = MOVES[base + k]!;
          const f = mk & 63;
          if (((mk >> 6) & 63) !== to || f === from || !has(o, 4 + 2 * type, f)) continue;
          other = true;
          if ((f & 7) === (from & 7)) sameFile = true;
          if ((f >> 3) === (from >> 3)) sameRank = true;
        }
      }
      if (other) {
        if (!sameFile) out += FILES[from & 7];
        else if (!sameRank) out += String((from >> 3) + 1);
        else out += FILES[from & 7]! + String((from >> 3) + 1);
      }
    }
    if (capture) out += 'x';
    out += FILES[to & 7]! + String((to >> 3) + 1);
    if (promo) out += '=' + LETTERS[promo];
  }
  if (check) out += check === 2 ? '#' : '+';
  return out;
}

/** Generates ply p's moves; clears an en-passant square no legal capture uses (makeMove's convention). */
export function generateClean(p: number): number {
  const B = BOARD;
  const o = p * PLY_WORDS;
  const n = generate(p, false);
  const ep = B[o + EP]!;
  if (ep >= 0) {
    const base = p * MAX_MOVES;
    let capture = false;
    for (let k = 0; k < n; k++) {
      const m = MOVES[base + k]!;
      if (((m >> 6) & 63) === ep && has(o, 4, m & 63)) { capture = true; break; }
    }
    if (!capture) B[o + EP] = -1;
  }
  return n;
}

/** The side to move of ply p is in check (valid after `generate` of that ply). */
export function inCheckAt(p: number): boolean {
  return BOARD[p * mg.PLY_WORDS + mg.IN_CHECK] !== 0;
}

/** The null move: ply p + 1 is ply p with the other side to move and no en-passant square. */
export function playNull(p: number): void {
  const o = p * PLY_WORDS;
  const nx = o + PLY_WORDS;
  for (let i = 0; i < 19; i++) BOARD[nx + i] = BOARD[o + i]!;
  BOARD[nx + C960] = BOARD[o + C960]!;
  BOARD[nx + SIDE] = BOARD[o + SIDE]! ^ 1;
  BOARD[nx + EP] = -1;
}

export { CASTLING, KNIGHT };


/**
 * The parse result (as SanBackend.parse) of a SAN text other than castling or a null move, read into
 * `syntax`: the side to move's pieces of the named type on the named file and rank, each tried as a
 * move to the named square by makeMove's legality test; the moves `matches` would accept, without
 * generating the position's other moves.
 */
function resolvePieceMove(pos: Position, out: Uint16Array): number {
  const x = syntax;
  const s = PositionRecord.setsOf(pos as PositionRecord);
  const us = pos.sideToMove;
  let count = 0;
  for (let half = 0; half < 2; half++) {
    for (let set = s[4 + 2 * x.piece + half]! & s[2 * us + half]!; set !== 0; set &= set - 1) {
      const from = 32 * half + mg.lowest(set);
      if ((x.fromFile >= 0 && (from & 7) !== x.fromFile) || (x.fromRank >= 0 && from >> 3 !== x.fromRank)) continue;
      // A pawn named without its file moves straight ahead unless a capture was written.
      if (x.piece === PAWN && x.fromFile < 0 && !x.capture && (from & 7) !== (x.to & 7)) continue;
      if (isLegalPieceMove(pos, from, x.to, x.promotion)) out[count++] = from | (x.to << 6) | (x.promotion << 12);
    }
  }
  return (count === 0 ? SAN_ILLEGAL : count === 1 ? SAN_OK : SAN_AMBIGUOUS) | (count << 8);
}

/** The SAN primitives of the JS backend (Backend.san). */
export const jsSanBackend: SanBackend = {
  write(pos, code) {
    loadPosition(pos);
    const n = generate(0, false);
    let legal = false;
    for (let k = 0; k < n; k++) if (MOVES[k] === code) legal = true;
    if (!legal) return '';
    play(0, code);
    // '+' when the side to move next is in check, '#' when it has no move then: the child's moves
    // are counted only after a check.
    const o = PLY_WORDS;
    const side = BOARD[o + SIDE]!;
    const check = mg.attacked(o, side ^ 1, mg.kingSquareAt(o, side), BOARD[o]! | BOARD[o + 2]!, BOARD[o + 1]! | BOARD[o + 3]!, 0, 0);
    return write(0, n, code, check ? (generate(1, true) === 0 ? 2 : 1) : 0);
  },
  parse(pos, san, out) {
    if (!parseSyntax(san, 0, san.length)) return SAN_MALFORMED;
    const x = syntax;
    if (x.castle === 0 && !x.null) return resolvePieceMove(pos, out);
    loadPosition(pos);
    const n = generate(0, false);
    const r = resolve(0, n);
    const status = sanStatus(r);
    let count = 0;
    if (status === SAN_OK) out[count++] = sanMove(r);
    if (status === SAN_AMBIGUOUS) for (const m of candidates(0, n)) out[count++] = m;
    return status | (count << 8);
  },
  list(pos) {
    loadPosition(pos);
    const n = generate(0, false);
    const codes = MOVES.slice(0, n);
    const sans: string[] = [];
    for (let k = 0; k < n; k++) {
      play(0, codes[k]!);
      const childN = generate(1, false);
      sans.push(write(0, n, codes[k]!, inCheckAt(1) ? (childN === 0 ? 2 : 1) : 0));
    }
    return [codes, sans];
  },
};
