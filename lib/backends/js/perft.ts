/**
 * Perft for the JS backend; twin of `native/core/perft.h`.
 *
 * `perft` counts the leaves of the legal move tree with bulk counting at the last ply (the number
 * of legal moves, counted set-wise without writing them). `perftStats` adds the chess programming
 * wiki's columns over the leaf moves (backend.ts, MoveBackend.perftStats): each leaf move is
 * classified where it is generated, from the parent board — capture, en passant, castling,
 * promotion, and its checkKind (direct: the moved piece, or the castling rook, attacks the enemy
 * king through the occupancy after the move; discovered: the move vacates the only blocker between
 * one of our sliders and the enemy king, or, en passant, our sliders see the king once both pawns
 * are gone) — with no make/unmake. Only a checking leaf is played, to learn whether it mates.
 */
import type { Position } from '../../core/types.js';
import { PACKED_POSITION_WORDS } from '../../core/types.js';
import { packedOf } from '../../core/position.js';
import { kingBlockers } from '../../board/blockers.js';
import { packedProblem } from '../../core/packed-rules.js';
import {
  BOARD, C960, EP, KNIGHT, MAX_MOVES, MOVES, PAWN_ATTACKS, PLY_WORDS, SIDE,
  attacked, generate, kingSquareAt, loadPacked, play, typeAt,
} from '../../board/movegen.js';
import { LINE, bishopHalves, rookHalves } from '../../board/sliders.js';
import { loadPosition } from './load-position.js';

/** Out-array of the slider lookups and kingBlockers below. */
const ATT = new Int32Array(6);

/** Deepest perft the contract allows. */
export const MAX_PERFT_DEPTH = 20;

function checkDepth(fn: string, depth: number): void {
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_PERFT_DEPTH) {
    throw new RangeError(`${fn}: depth must be an integer 0..${MAX_PERFT_DEPTH}, got ${depth}`);
  }
}

/** The packed words of a Position as int32 halves. */
function halvesOf(packed: BigUint64Array): Int32Array {
  return new Int32Array(packed.buffer, packed.byteOffset, PACKED_POSITION_WORDS * 2);
}

function perftAt(p: number, depth: number): number {
  if (depth === 1) return generate(p, true);
  const n = generate(p, false);
  const base = p * MAX_MOVES;
  let nodes = 0;
  for (let i = 0; i < n; i++) {
    play(p, MOVES[base + i]!);
    nodes += perftAt(p + 1, depth - 1);
  }
  return nodes;
}

/** Writes the legal moves of pos to out (length >= MAX_MOVES) and returns their number. */
export function legalMoves(pos: Position, out: Uint16Array): number {
  if (out.length < MAX_MOVES) throw new RangeError(`legalMoves: out must hold at least ${MAX_MOVES} moves, got ${out.length}`);
  loadPosition(pos);
  const n = generate(0, false);
  out.set(MOVES.subarray(0, n));
  return n;
}

export function perft(pos: Position, depth: number): number {
  checkDepth('perft', depth);
  if (depth === 0) return 1;
  loadPosition(pos);
  return perftAt(0, depth);
}

// ------------------------------------------------------------------ statistics

/** Adds the statistics of the leaf moves of ply p (the columns of PERFT_STATS_COLUMNS) to out. */
function classifyLeaves(p: number, out: Float64Array): void {
  const B = BOARD;
  const n = generate(p, false);
  const o = p * PLY_WORDS;
  const base = p * MAX_MOVES;
  // The board's words as this loop needs them (movegen.ts's layout): white's and black's sets, ours
  // and the enemy's, the enemy king.
  const us = B[o + SIDE]!, ours = o + 2 * us, theirs = o + 2 - 2 * us;
  const ownLo = B[ours]!, ownHi = B[ours + 1]!, enLo = B[theirs]!, enHi = B[theirs + 1]!;
  const occLo = B[o]! | B[o + 2]!, occHi = B[o + 1]! | B[o + 3]!;
  const ek = kingSquareAt(o, us ^ 1);
  const ekLo = ek < 32 ? 1 << ek : 0;
  const ekHi = ek < 32 ? 0 : 1 << (ek - 32);
  const qLo = B[o + 12]!;
  const qHi = B[o + 13]!;
  const obLo = (B[o + 8]! | qLo) & ownLo;
  const obHi = (B[o + 9]! | qHi) & ownHi;
  const orLo = (B[o + 10]! | qLo) & ownLo;
  const orHi = (B[o + 11]! | qHi) & ownHi;
  const ep = B[o + EP]!;
  const c960 = B[o + C960]!;

  // Discovered-check candidates: our pieces alone between one of our sliders and the enemy king.
  kingBlockers(BOARD, o, ek, us, occLo, occHi, ATT, 0);
  const candLo = ATT[0]! & ownLo;
  const candHi = ATT[1]! & ownHi;

  let captures = 0;
  let enPassant = 0;
  let castles = 0;
  let promotions = 0;
  let checks = 0;
  let discovered = 0;
  let double = 0;
  let mates = 0;
  for (let i = 0; i < n; i++) {
    const move = MOVES[base + i]!;
    const from = move & 63;
    const to = (move >> 6) & 63;
    const promotion = move >> 12;
    const type = typeAt(o, from);
    const fromLo = from < 32 ? 1 << from : 0;
    const fromHi = from < 32 ? 0 : 1 << (from - 32);
    const toLo = to < 32 ? 1 << to : 0;
    const toHi = to < 32 ? 0 : 1 << (to - 32);
    let aLo = (occLo & ~fromLo) | toLo;
    let aHi = (occHi & ~fromHi) | toHi;
    const isEp = type === 0 && to === ep;
    if (c960 !== 0 && type === 5 && ((ownLo & toLo) | (ownHi & toHi)) !== 0) {
      // Chess960 castling (the king takes its own rook): the child's lines to the enemy king.
      castles++;
      play(p, move);
      const q = o + PLY_WORDS;
      const cLo = B[q]! | B[q + 2]!, cHi = B[q + 1]! | B[q + 3]!;
      const rt = (from & 56) + (to > from ? 5 : 3);
      const rtLo = rt < 32 ? 1 << rt : 0, rtHi = rt < 32 ? 0 : 1 << (rt - 32);
      const cq = o + PLY_WORDS + 2 * us;
      const rLo = (B[q + 10]! | B[q + 12]!) & B[cq]!, rHi = (B[q + 11]! | B[q + 13]!) & B[cq + 1]!;
      const bLo = (B[q + 8]! | B[q + 12]!) & B[cq]!, bHi = (B[q + 9]! | B[q + 13]!) & B[cq + 1]!;
      rookHalves(ek, cLo, cHi, ATT, 0);
      const direct = ((ATT[0]! & rtLo) | (ATT[1]! & rtHi)) !== 0;
      let disc = ((ATT[0]! & rLo & ~rtLo) | (ATT[1]! & rHi & ~rtHi)) !== 0;
      bishopHalves(ek, cLo, cHi, ATT, 0);
      disc ||= ((ATT[0]! & bLo) | (ATT[1]! & bHi)) !== 0;
      if (direct || disc) {
        checks++;
        if (!direct) discovered++;
        else if (disc) double++;
        if (generate(p + 1, true) === 0) mates++;
      }
      continue;
    }
    const isCastle = c960 === 0 && type === 5 && (to - from === 2 || from - to === 2);
    if ((enLo & toLo) | (enHi & toHi)) captures++;
    if (isEp) {
      captures++;
      enPassant++;
      const cap = us === 0 ? to - 8 : to + 8;
      if (cap < 32) aLo &= ~(1 << cap); else aHi &= ~(1 << (cap - 32));
    }
    if (promotion !== 0) promotions++;

    let direct = false;
    if (isCastle) {
      castles++;
      const rookFrom = to > from ? from + 3 : from - 4;
      const rookTo = to > from ? from + 1 : from - 1;
      // The rook squares share the king's rank, hence its half.
      const rb = (1 << (rookFrom & 31)) | (1 << (rookTo & 31));
      if (from < 32) aLo ^= rb; else aHi ^= rb;
      rookHalves(rookTo, aLo, aHi, ATT, 0);
      direct = ((ATT[0]! & ekLo) | (ATT[1]! & ekHi)) !== 0;
    } else {
      switch (promotion !== 0 ? promotion : type) {
        case 0: {
          const pa = (us * 64 + to) << 1;
          direct = ((PAWN_ATTACKS[pa]! & ekLo) | (PAWN_ATTACKS[pa + 1]! & ekHi)) !== 0;
          break;
        }
        case 1:
          direct = ((KNIGHT[to << 1]! & ekLo) | (KNIGHT[(to << 1) + 1]! & ekHi)) !== 0;
          break;
        case 2:
          bishopHalves(to, aLo, aHi, ATT, 0);
          direct = ((ATT[0]! & ekLo) | (ATT[1]! & ekHi)) !== 0;
          break;
        case 3:
          rookHalves(to, aLo, aHi, ATT, 0);
          direct = ((ATT[0]! & ekLo) | (ATT[1]! & ekHi)) !== 0;
          break;
        case 4:
          bishopHalves(to, aLo, aHi, ATT, 0);
          direct = ((ATT[0]! & ekLo) | (ATT[1]! & ekHi)) !== 0;
          if (!direct) {
            rookHalves(to, aLo, aHi, ATT, 0);
            direct = ((ATT[0]! & ekLo) | (ATT[1]! & ekHi)) !== 0;
          }
          break;
        default:
          break;
      }
    }

    let disc: boolean;
    if (isEp) {
      // Both pawns leave their squares: look along every line from the enemy king.
      rookHalves(ek, aLo, aHi, ATT, 0);
      disc = ((ATT[0]! & orLo) | (ATT[1]! & orHi)) !== 0;
      if (!disc) {
        bishopHalves(ek, aLo, aHi, ATT, 0);
        disc = ((ATT[0]! & obLo) | (ATT[1]! & obHi)) !== 0;
      }
    } else {
      const at = (ek * 64 + from) << 1;
      disc = ((candLo & fromLo) | (candHi & fromHi)) !== 0 && ((LINE[at]! & toLo) | (LINE[at + 1]! & toHi)) === 0;
    }

    if (direct || disc) {
      checks++;
      if (!direct) discovered++;
      else if (disc) double++;
      play(p, move);
      if (generate(p + 1, true) === 0) mates++;
    }
  }
  out[0] += n;
  out[1] += captures;
  out[2] += enPassant;
  out[3] += castles;
  out[4] += promotions;
  out[5] += checks;
  out[6] += discovered;
  out[7] += double;
  out[8] += mates;
}

function statsAt(p: number, depth: number, out: Float64Array): void {
  if (depth === 1) {
    classifyLeaves(p, out);
    return;
  }
  const n = generate(p, false);
  const base = p * MAX_MOVES;
  for (let i = 0; i < n; i++) {
    play(p, MOVES[base + i]!);
    statsAt(p + 1, depth - 1, out);
  }
}

export function perftStats(pos: Position, depth: number, out: Float64Array): void {
  checkDepth('perftStats', depth);
  if (out.length !== 9) throw new RangeError(`perftStats: out must have 9 elements, got ${out.length}`);
  out.fill(0);
  if (depth === 0) {
    out[0] = 1;
    return;
  }
  loadPacked(halvesOf(packedOf(pos)), 0, 0);
  statsAt(0, depth, out);
}

// ------------------------------------------------------------------ batch

export function perftBatch(positions: BigUint64Array, depth: number, out: Float64Array): void {
  checkDepth('perftBatch', depth);
  if (positions.length < out.length * PACKED_POSITION_WORDS) {
    throw new RangeError(`perftBatch: positions must hold ${out.length * PACKED_POSITION_WORDS} words for ${out.length} results, got ${positions.length}`);
  }
  if (out.length === 0) return;  // positions may then be over a detached buffer, which no view can be made on
  const words = new Int32Array(positions.buffer, positions.byteOffset, positions.length * 2);
  for (let i = 0; i < out.length; i++) {
    const problem = packedProblem(positions, i * PACKED_POSITION_WORDS);
    if (problem) throw new RangeError(`perftBatch: position ${i}: ${problem}`);
    loadPacked(words, i * PACKED_POSITION_WORDS * 2, 0);
    // The side not to move in check would let the generator take a king: refuse it.
    const side = BOARD[SIDE]!;
    if (attacked(0, side, kingSquareAt(0, side ^ 1), BOARD[0]! | BOARD[2]!, BOARD[1]! | BOARD[3]!, 0, 0)) {
      throw new RangeError(`perftBatch: position ${i}: the side not to move is in check`);
    }
    out[i] = depth === 0 ? 1 : perftAt(0, depth);
  }
}
