/**
 * Moves topic, facade side: UCI move text, move codes, and the public functions that are more
 * than one backend call (legal moves as text, make-move, perft divide and stats). The move
 * generation itself is the backend's (native/core/movegen.h, lib/js/movegen.ts).
 */
import type { Backend, PerftStatsColumn, Position } from './backend.js';
import { KING, MAX_MOVES, PAWN, ROOK } from './backend.js';
import { MAX_CLOCK, MoveError, createPosition as createPositionWith } from './position.js';

/** Deepest perft depth accepted. */
export const MAX_PERFT_DEPTH = 20;

/** perftStats: the Chess Programming Wiki's Perft Results columns, counted over the leaf moves. */
export type PerftStats = { [K in PerftStatsColumn]: number };

const PROMOTION_LETTERS = ' nbrq';
const FILES = 'abcdefgh';
const squareText = (sq: number): string => `${FILES[sq & 7]}${(sq >> 3) + 1}`;

/** A UCI move taken apart by the facade's `uci` argument check. */
export interface UciMove {
  readonly text: string;
  readonly from: number;
  readonly to: number;
  readonly promotion: number;
}

/** 'e2e4' / 'e7e8q' -> its squares and promotion 0..4; TypeError for a non-string, MoveError when malformed. */
export function parseUci(fn: string, move: unknown): UciMove {
  if (typeof move !== 'string') throw new TypeError(`${fn}: move must be a UCI string like 'e2e4', got ${typeof move}`);
  const m = /^([a-h])([1-8])([a-h])([1-8])([nbrq]?)$/.exec(move);
  if (!m) throw new MoveError(move, `${fn}: not a UCI move (like e2e4, or e7e8q for a promotion)`);
  const square = (file: string, rank: string) => (Number(rank) - 1) * 8 + FILES.indexOf(file);
  return { text: move, from: square(m[1]!, m[2]!), to: square(m[3]!, m[4]!), promotion: m[5] ? PROMOTION_LETTERS.indexOf(m[5]) : 0 };
}

/** 'e7e8q' -> its 16-bit code `from | to << 6 | promotion << 12` (promotion 0 none, 1 n, 2 b, 3 r, 4 q). MoveError when malformed. */
export function encodeMove(move: string): number {
  const { from, to, promotion } = parseUci('encodeMove', move);
  return from | (to << 6) | (promotion << 12);
}

/** A 16-bit move code -> its UCI string. RangeError for a number that is no move code. */
export function decodeMove(code: number): string {
  if (typeof code !== 'number') throw new TypeError(`decodeMove: code must be a number, got ${typeof code}`);
  const from = code & 63;
  const to = (code >> 6) & 63;
  const promotion = code >> 12;
  if (!Number.isInteger(code) || code < 0 || promotion > 4 || from === to) {
    throw new RangeError(`decodeMove: not a move code (from | to << 6 | promotion << 12, promotion 0..4, from != to): ${code}`);
  }
  return `${squareText(from)}${squareText(to)}${promotion ? PROMOTION_LETTERS[promotion] : ''}`;
}

// One move buffer per backend: the facade's calls are synchronous, so it is never shared by two calls.
const buffers = new WeakMap<Backend, Uint16Array>();
function moveBuffer(b: Backend): Uint16Array {
  let buffer = buffers.get(b);
  if (!buffer) buffers.set(b, (buffer = new Uint16Array(MAX_MOVES)));
  return buffer;
}

/** The legal move codes of a position, in a new array. */
function codesOf(b: Backend, pos: Position): Uint16Array {
  const buffer = moveBuffer(b);
  return buffer.slice(0, b.legalMoves(pos, buffer));
}

const bitOf = (sq: number): bigint => 1n << BigInt(sq);
/** Castling rights lost when a move starts or ends on a square. */
const RIGHTS_LOST: Record<number, number> = { 4: 3, 7: 1, 0: 2, 60: 12, 63: 4, 56: 8 };

/**
 * The position after a move that legalMoves produced (see makeMove for the conventions): the
 * Chess Programming Wiki's copy-make on the bitboard board definition.
 */
export function play(b: Backend, pos: Position, from: number, to: number, promotion: number): Position {
  const checkersOf = b.checkers;
  const us = pos.sideToMove;
  const them = us ^ 1;
  const colors = [pos.colors[0], pos.colors[1]];
  const pieces = [...pos.pieces];
  const fromBit = bitOf(from);
  const toBit = bitOf(to);
  const type = pieces.findIndex((set) => (set & fromBit) !== 0n);
  const capture = (colors[them]! & toBit) !== 0n;
  if (capture) {
    colors[them]! &= ~toBit;
    for (let t = 0; t < 6; t++) pieces[t]! &= ~toBit;
  }
  colors[us] = (colors[us]! & ~fromBit) | toBit;
  pieces[type] = pieces[type]! & ~fromBit;
  pieces[promotion ? promotion : type] = pieces[promotion ? promotion : type]! | toBit;
  let epSquare = -1;
  if (type === PAWN && to === pos.epSquare) {
    const taken = bitOf(us === 0 ? to - 8 : to + 8);
    colors[them]! &= ~taken;
    pieces[PAWN]! &= ~taken;
  } else if (type === PAWN && Math.abs(to - from) === 16) {
    epSquare = (from + to) / 2;
  } else if (type === KING && Math.abs(to - from) === 2) {
    const rookMove = bitOf(to > from ? from + 3 : from - 4) | bitOf(to > from ? from + 1 : from - 1);
    colors[us]! ^= rookMove;
    pieces[ROOK]! ^= rookMove;
  }
  const fields = {
    colors, pieces,
    sideToMove: them as 0 | 1,
    castling: pos.castling & ~(RIGHTS_LOST[from] ?? 0) & ~(RIGHTS_LOST[to] ?? 0),
    halfmoveClock: type === PAWN || capture ? 0 : Math.min(pos.halfmoveClock + 1, MAX_CLOCK),
    fullmoveNumber: Math.min(pos.fullmoveNumber + us, MAX_CLOCK),
  };
  if (epSquare >= 0) {
    // Kept only when an en-passant capture is legal next (so equal positions have equal FENs).
    const withEp = createPositionWith({ ...fields, epSquare }, checkersOf);
    const buffer = moveBuffer(b);
    const n = b.legalMoves(withEp, buffer);
    const pawns = withEp.pieces[PAWN] & withEp.colors[them];
    for (let i = 0; i < n; i++) {
      const m = buffer[i]!;
      if (((m >> 6) & 63) === epSquare && (pawns & bitOf(m & 63)) !== 0n) return withEp;
    }
  }
  return createPositionWith({ ...fields, epSquare: -1 }, checkersOf);
}

export function legalMovesCall(b: Backend, pos: Position): string[] {
  return Array.from(codesOf(b, pos), decodeMove).sort();
}

export function legalMovesEncodedCall(b: Backend, pos: Position, out: Uint16Array): Uint16Array {
  return out.subarray(0, b.legalMoves(pos, out));
}

export function makeMoveCall(b: Backend, pos: Position, move: UciMove): Position {
  const code = move.from | (move.to << 6) | (move.promotion << 12);
  if (!codesOf(b, pos).includes(code)) throw new MoveError(move.text, 'makeMove: not a legal move in this position');
  return play(b, pos, move.from, move.to, move.promotion);
}

/** The positions after each legal move, in the backend's move order. */
export function childrenOf(b: Backend, pos: Position): Position[] {
  return Array.from(codesOf(b, pos), (code) => play(b, pos, code & 63, (code >> 6) & 63, code >> 12));
}

export function perftDivideCall(b: Backend, pos: Position, depth: number): Map<string, number> {
  const result = new Map<string, number>();
  for (const move of Array.from(codesOf(b, pos), decodeMove).sort()) {
    const code = encodeMove(move);
    result.set(move, b.perft(play(b, pos, code & 63, (code >> 6) & 63, code >> 12), depth - 1));
  }
  return result;
}
