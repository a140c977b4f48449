/**
 * Making a move on a position for the JS backend; twin of `native/core/makemove.h`: the Chess
 * Programming Wiki's copy-make, plus the game state the packed words carry (FEN's halfmove clock and
 * fullmove number, capped at MAX_CLOCK). A move is legal when the generator would produce it, told
 * from the moving piece alone (legal.ts; castling by the generator's own castling rules); an
 * en-passant square no legal capture uses is cleared, so equal positions have equal FENs.
 *
 * The everyday path (`makeMovePosition`) copies the position's set halves and changes the few the
 * move touches; castling, en passant and Chess960 positions take the ply stack of movegen.ts
 * (`play`), as the packed path (`makeMove`) does for every move.
 */
import type { Color, Position } from '../../core/types.js';
import { PACKED_POSITION_WORDS } from '../../core/types.js';
import { MAX_CLOCK } from '../../core/position.js';
import { PositionRecord, setHalvesAt, writeSetHalves } from '../../core/position-record.js';
import type { SetHalves } from '../../board/bitboard.js';
import {
  BOARD, C960, CASTLING, EP, KEEP_RIGHTS, PLY_WORDS, SIDE, castlingIsLegal, enPassantCount, kingSquareAt, play,
} from '../../board/movegen.js';
import { CASTLING_MOVE, PSEUDO_LEGAL, kingSafeAfter, movedType, quickLegality } from '../../board/legal.js';
import { loadPosition } from './load-position.js';

/** The int32 halves of packed words (little-endian: word k is halves 2k, 2k + 1). */
const halves = (words: BigUint64Array): Int32Array => new Int32Array(words.buffer, words.byteOffset, words.length * 2);
let lastOut: BigUint64Array | undefined;
let lastOutHalves: Int32Array | undefined;

/** The halfmove clock and fullmove number after the move played by `played` (set by it). */
let nextClock = 0;
let nextFullmove = 0;

/** quickLegality for from -> to (promotion 0 none, 1 knight .. 4 queen) in `pos`. */
const quickIn = (pos: Position, from: number, to: number, promotion: number): number =>
  quickLegality(PositionRecord.setsOf(pos as PositionRecord), pos.sideToMove, pos.epSquare, from, to, promotion);

/**
 * Plays from -> to (promotion 0 none, 1 knight .. 4 queen), whose quickLegality is `quick`, from
 * `pos` on ply 0 into ply 1 of the board and sets nextClock / nextFullmove; false, the board's ply 1
 * undefined, when the move is not legal in `pos`.
 */
function played(pos: Position, quick: number, from: number, to: number, promotion: number): boolean {
  const B = BOARD;
  const us = pos.sideToMove;
  if (quick === 0) return false;
  loadPosition(pos);
  const code = from | (to << 6) | (promotion << 12);
  if (quick === CASTLING_MOVE && !castlingIsLegal(code)) return false;
  const capture = (B[2 * (us ^ 1) + (to >> 5)]! & (1 << (to & 31))) !== 0;
  play(0, code);
  if (quick !== CASTLING_MOVE && !kingSafeAfter(PLY_WORDS, kingSquareAt(PLY_WORDS, us))) return false;
  nextClock = movedType === 0 || capture ? 0 : Math.min(pos.halfmoveClock + 1, MAX_CLOCK);
  nextFullmove = Math.min(pos.fullmoveNumber + us, MAX_CLOCK);
  // Only a double step sets an en-passant square, which stays if a legal capture uses it.
  if (B[PLY_WORDS + EP]! >= 0 && enPassantCount(1) === 0) B[PLY_WORDS + EP] = -1;
  return true;
}

/**
 * Whether from -> to (promotion 0 none, 1 knight .. 4 queen) is a legal move of `pos` other than
 * castling (what a SAN text with a piece letter or a pawn's square names).
 */
export function isLegalPieceMove(pos: Position, from: number, to: number, promotion: number): boolean {
  const quick = quickIn(pos, from, to, promotion);
  return quick !== CASTLING_MOVE && played(pos, quick, from, to, promotion);
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
  if (!played(pos, quickIn(pos, from, to, promotion), from, to, promotion)) return false;
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

/** The Position at ply 1 of the board after `played`. */
function playedPosition(): Position {
  const B = BOARD;
  const o = PLY_WORDS;
  const c960 = B[o + C960]!;
  return new PositionRecord(setHalvesAt(BOARD, o), B[o + SIDE]! as Color, B[o + CASTLING]!, B[o + EP]!, nextClock, nextFullmove,
    c960 & 0xfff, c960 !== 0);
}

/**
 * The Position after from -> to, made without packed words in between (the everyday makeMove's
 * path); undefined when the move is not legal in `pos`.
 */
export function makeMovePosition(pos: Position, from: number, to: number, promotion: number): Position | undefined {
  const s: SetHalves = PositionRecord.setsOf(pos as PositionRecord);
  const us = pos.sideToMove;
  const quick = quickLegality(s, us, pos.epSquare, from, to, promotion);
  if (quick !== PSEUDO_LEGAL || pos.chess960) return played(pos, quick, from, to, promotion) ? playedPosition() : undefined;
  // Copy-make on the halves: the mover leaves `from` and lands on `to` (as the promoted piece), a
  // piece standing on `to` is taken.
  const type = movedType;
  const them = us ^ 1;
  const n = setHalvesAt(s, 0) as number[];
  const fw = from >> 5, fb = 1 << (from & 31), tw = to >> 5, tb = 1 << (to & 31);
  const capture = (n[2 * them + tw]! & tb) !== 0;
  if (capture) {
    n[2 * them + tw] ^= tb;
    let t = 0;
    while ((n[4 + 2 * t + tw]! & tb) === 0) t++;
    n[4 + 2 * t + tw] ^= tb;
  }
  n[2 * us + fw] ^= fb;
  n[2 * us + tw] |= tb;
  n[4 + 2 * type + fw] ^= fb;
  n[4 + 2 * (promotion !== 0 ? promotion : type) + tw] |= tb;
  // The king-safety test (and an en-passant square's) reads the new board from ply 1.
  const B = BOARD;
  const o = PLY_WORDS;
  writeSetHalves(n, B, o);
  B[o + SIDE] = them;
  if (!kingSafeAfter(o, kingSquareAt(o, us))) return undefined;
  let ep = -1;
  if (type === 0 && (to - from === 16 || from - to === 16)) {
    // A double step's en-passant square stays when a legal capture uses it.
    B[o + EP] = (from + to) >> 1;
    if (enPassantCount(1) !== 0) ep = B[o + EP]!;
  }
  return new PositionRecord(n, them as Color, pos.castling & KEEP_RIGHTS[from]! & KEEP_RIGHTS[to]!, ep,
    type === 0 || capture ? 0 : Math.min(pos.halfmoveClock + 1, MAX_CLOCK), Math.min(pos.fullmoveNumber + us, MAX_CLOCK));
}
