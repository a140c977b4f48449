/**
 * Making a move on a packed position for the JS backend; twin of `native/core/makemove.h`: the
 * Chess Programming Wiki's copy-make on the ply stack of movegen.ts (`play`), plus the game state
 * the packed words carry (FEN's halfmove clock and fullmove number, capped at MAX_CLOCK). A move is
 * legal when the generator would produce it, told from the moving piece alone (legal.ts; castling by
 * the generator's own castling rules); an en-passant square no legal capture uses is cleared, so
 * equal positions have equal FENs.
 */
import type { Color, Position } from '../../core/types.js';
import { PACKED_POSITION_WORDS } from '../../core/types.js';
import { MAX_CLOCK } from '../../core/position.js';
import { PositionRecord, setHalvesAt } from '../../core/position-record.js';
import { BOARD, C960, CASTLING, EP, PLY_WORDS, SIDE, castlingIsLegal, enPassantCount, kingSquareAt, play } from './movegen.js';
import { CASTLING_MOVE, PSEUDO_LEGAL, kingSafeAfter, quickLegality } from './legal.js';
import { loadPosition } from './load.js';

/** The int32 halves of packed words (little-endian: word k is halves 2k, 2k + 1). */
const halves = (words: BigUint64Array): Int32Array => new Int32Array(words.buffer, words.byteOffset, words.length * 2);
let lastOut: BigUint64Array | undefined;
let lastOutHalves: Int32Array | undefined;

/** The halfmove clock and fullmove number after the move played by `played` (set by it). */
let nextClock = 0;
let nextFullmove = 0;

/**
 * Plays from -> to (promotion 0 none, 1 knight .. 4 queen) from `pos` on ply 0 into ply 1 of the
 * board and sets nextClock / nextFullmove; false, the board's ply 1 undefined, when the move is not
 * legal in `pos`.
 */
function played(pos: Position, from: number, to: number, promotion: number): boolean {
  const B = BOARD;
  loadPosition(pos);
  const us = pos.sideToMove;
  const code = from | (to << 6) | (promotion << 12);
  const quick = quickLegality(from, to, promotion);
  if (quick === 0 || (quick === CASTLING_MOVE && !castlingIsLegal(code))) return false;
  const capture = (B[2 * (us ^ 1) + (to >> 5)]! & (1 << (to & 31))) !== 0;
  const pawn = (B[4 + (from >> 5)]! & (1 << (from & 31))) !== 0;
  play(0, code);
  if (quick === PSEUDO_LEGAL && !kingSafeAfter(kingSquareAt(0, us))) return false;
  nextClock = pawn || capture ? 0 : Math.min(pos.halfmoveClock + 1, MAX_CLOCK);
  nextFullmove = Math.min(pos.fullmoveNumber + us, MAX_CLOCK);
  // Only a double step sets an en-passant square, which stays if a legal capture uses it.
  if (B[PLY_WORDS + EP]! >= 0 && enPassantCount(1) === 0) B[PLY_WORDS + EP] = -1;
  return true;
}

/**
 * Writes the position after from -> to (promotion 0 none, 1 knight .. 4 queen) to `out`
 * (PACKED_POSITION_WORDS words) and returns true; false, leaving `out` as it was, when the move is
 * not legal in `pos`.
 */
export function makeMove(pos: Position, from: number, to: number, promotion: number, out: BigUint64Array): boolean {
  const B = BOARD;
  if (out.length !== PACKED_POSITION_WORDS) {
    throw new RangeError(`makeMove: out must have length ${PACKED_POSITION_WORDS}, got ${out.length}`);
  }
  if (!played(pos, from, to, promotion)) return false;
  const o = PLY_WORDS;
  const ep = B[o + EP]!;
  // The facade passes the same out array each time: one view of it.
  if (out !== lastOut) {
    lastOut = out;
    lastOutHalves = halves(out);
  }
  const h = lastOutHalves!;
  const clock = nextClock;
  for (let i = 0; i < 16; i++) h[i] = B[o + i]!;
  const c960 = B[o + C960]!;
  h[16] = B[o + SIDE]! | (B[o + CASTLING]! << 1) | (c960 !== 0 ? 0x20 : 0) | ((ep < 0 ? 64 : ep) << 8) | ((clock & 0xffff) << 16);
  h[17] = (clock >>> 16) | ((c960 & 0xfff) << 8);
  h[18] = nextFullmove;
  h[19] = 0;
  return true;
}

/**
 * The Position after from -> to, made from the board without the packed words in between (the
 * everyday makeMove's path); undefined when the move is not legal in `pos`.
 */
export function makeMovePosition(pos: Position, from: number, to: number, promotion: number): Position | undefined {
  const B = BOARD;
  if (!played(pos, from, to, promotion)) return undefined;
  const o = PLY_WORDS;
  const c960 = B[o + C960]!;
  return new PositionRecord(setHalvesAt(BOARD, o), B[o + SIDE]! as Color, B[o + CASTLING]!, B[o + EP]!, nextClock, nextFullmove,
    c960 & 0xfff, c960 !== 0);
}
