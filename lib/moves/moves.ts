/**
 * Moves topic, facade side: UCI move text, move codes, and the public functions that are more
 * than one backend call (legal moves as text, make-move, perft divide and stats). The move
 * generation itself is the backend's (native/core/movegen.h, lib/board/movegen.ts).
 */
import type { PerftStatsColumn, Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { MAX_MOVES, PACKED_POSITION_WORDS } from '../core/types.js';
import { MoveError } from '../core/position.js';
import { positionOfHalves, sortedUci, uciOfCode } from '../core/position-record.js';

/** Deepest perft depth accepted. */
export const MAX_PERFT_DEPTH = 20;

/** perftStats: the Chess Programming Wiki's Perft Results columns, counted over the leaf moves. */
export type PerftStats = { [K in PerftStatsColumn]: number };

const PROMOTION_LETTERS = ' nbrq';

/**
 * A UCI move as the facade's `uci` argument check gives it: its 16-bit code `from | to << 6 |
 * promotion << 12`, which `uciOfCode` turns back into the same text.
 */
export type UciMove = number;

/** 'e2e4' / 'e7e8q' -> its move code (promotion 0..4); TypeError for a non-string, MoveError when malformed. */
export function parseUci(fn: string, move: unknown): UciMove {
  if (typeof move !== 'string') throw new TypeError(`${fn}: move must be a UCI string like 'e2e4', got ${typeof move}`);
  // /^[a-h][1-8][a-h][1-8][nbrq]?$/ by character codes.
  const from = squareAt(move, 0), to = squareAt(move, 2);
  const promotion = move.length === 5 ? PROMOTION_CODES.indexOf(move.charCodeAt(4)) : move.length === 4 ? 0 : -1;
  if (from < 0 || to < 0 || promotion < 0 || promotion === 0 && move.length === 5) {
    throw new MoveError(move, `${fn}: not a UCI move (like e2e4, or e7e8q for a promotion)`);
  }
  return from | (to << 6) | (promotion << 12);
}

/** The square named at move[i], move[i + 1] ('a1' .. 'h8'), or -1. */
function squareAt(move: string, i: number): number {
  const file = move.charCodeAt(i) - 0x61, rank = move.charCodeAt(i + 1) - 0x31;
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 ? rank * 8 + file : -1;
}
/** Character codes of PROMOTION_LETTERS (index 0, the space, matches no UCI move). */
const PROMOTION_CODES = Array.from(PROMOTION_LETTERS, (c) => c.charCodeAt(0));

/** 'e7e8q' -> its 16-bit code `from | to << 6 | promotion << 12` (promotion 0 none, 1 n, 2 b, 3 r, 4 q). MoveError when malformed. */
export function encodeMove(move: string): number {
  return parseUci('encodeMove', move);
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
  return uciOfCode(code);
}

// One move buffer and one position buffer for all backends: the facade's calls are synchronous, so
// they are never shared by two calls.
const MOVE_BUFFER = new Uint16Array(MAX_MOVES);
function moveBuffer(_b: Backend): Uint16Array {
  return MOVE_BUFFER;
}
const PLAYED = new BigUint64Array(PACKED_POSITION_WORDS);
const PLAYED_HALVES = new Int32Array(PLAYED.buffer);

/** The legal move codes of a position, in a new array. */
function codesOf(b: Backend, pos: Position): Uint16Array {
  const buffer = moveBuffer(b);
  return buffer.slice(0, b.legalMoves(pos, buffer));
}

/**
 * The position after a move (the backend's makeMove: native/core/makemove.h, lib/backends/js/makemove.ts),
 * or undefined when the move is not legal in pos.
 */
function play(b: Backend, pos: Position, from: number, to: number, promotion: number): Position | undefined {
  if (b.makeMovePosition) return b.makeMovePosition(pos, from, to, promotion);
  return b.makeMove(pos, from, to, promotion, PLAYED) ? positionOfHalves(PLAYED_HALVES, 0) : undefined;
}

export function legalMovesCall(b: Backend, pos: Position): string[] {
  return sortedUci(MOVE_BUFFER, b.legalMoves(pos, MOVE_BUFFER));
}

export function legalMovesEncodedCall(b: Backend, pos: Position, out: Uint16Array): Uint16Array {
  return out.subarray(0, b.legalMoves(pos, out));
}

export function makeMoveCall(b: Backend, pos: Position, move: UciMove): Position {
  const next = play(b, pos, move & 63, (move >> 6) & 63, move >> 12);
  if (!next) throw new MoveError(uciOfCode(move), 'makeMove: not a legal move in this position');
  return next;
}

/** The positions after each legal move, in the backend's move order. */
export function childrenOf(b: Backend, pos: Position): Position[] {
  return Array.from(codesOf(b, pos), (code) => play(b, pos, code & 63, (code >> 6) & 63, code >> 12)!);
}

export function perftDivideCall(b: Backend, pos: Position, depth: number): Map<string, number> {
  const result = new Map<string, number>();
  for (const move of Array.from(codesOf(b, pos), decodeMove).sort()) {
    const code = encodeMove(move);
    result.set(move, b.perft(play(b, pos, code & 63, (code >> 6) & 63, code >> 12)!, depth - 1));
  }
  return result;
}
