/**
 * Legal move generation for the JS backend; twin of `native/core/movegen.h`.
 *
 * No make/test/unmake filtering: every move written is legal by construction, from the Checks and Pinned Pieces page's
 * primitives computed once per node — the checkers of our king, our pinned pieces (each confined
 * to the line through its king), and the check mask (the checker plus checkBlockSquares under a
 * single check; king moves only under double check). King steps are tested against the enemy's
 * attacks with our king lifted off the board (so it cannot hide behind itself on a checking ray);
 * castling crosses only unattacked squares; an en-passant capture is checked by lifting both pawns
 * (the horizontal pin "K P p r" on one rank is the case no pin set can see).
 *
 * Representation. Nothing here is a BigInt: V8 (Node 20) runs 64-bit BigInt code far slower than
 * int32 code and can crash on loop-carried int64 BigInts (see lib/backends/js/king.ts). Every set is two int32
 * halves, lo = a1..h4 (squares 0..31) and hi = a5..h8 (32..63), which is also how a position's
 * packed BigUint64Array reads through an Int32Array view (little-endian). Boards live on a ply
 * stack `BOARD`, `PLY_WORDS` int32 words per ply:
 *   0,1 white  2,3 black  4..15 pawns, knights, bishops, rooks, queens, kings (lo, hi each)
 *   16 side to move  17 castling rights (CASTLE_* bits)  18 en-passant square or -1
 *   19 in check (written by generate)  20 Chess960 (C960)
 * `play` copies a ply into the next one and applies the move there (copy-make: undo is free).
 * Moves are 16-bit codes (lib/core/types.ts: from | to << 6 | promotion << 12) on a per-ply move stack.
 *
 * Sliding attacks, between / line and the pins (blockers.ts kingBlockers) come from the tables of
 * sliders.ts, the leaper attacks from leapers.ts and bitboard.ts: one set of tables for the
 * whole backend, read here through their int32-halves views.
 */

import { pawnAttackTable } from './bitboard.js';
import { kingBlockers } from './blockers.js';
import { kingAttackTable, knightAttackTable } from './leapers.js';
import { BETWEEN, BISHOP_EMPTY, LINE, ROOK_EMPTY, bishopHalves, rookHalves } from './sliders.js';
import { popcount32 } from './bits.js';

export const PLY_WORDS = 21;
export const SIDE = 16;
export const CASTLING = 17;
export const EP = 18;
/**
 * 20: 0 for a standard position; for a Chess960 one CHESS960_FLAG | the packed rook file fields
 * (lib/core/chess960.ts: 3 bits per right K, Q, k, q, the rook's file XOR h / a / h / a).
 */
export const C960 = 20;
export const CHESS960_FLAG = 1 << 12;
/** The standard rook file of each right K, Q, k, q. */
const STANDARD_ROOK_FILE = [7, 0, 7, 0];
/** Deepest ply the stacks hold (perft depth is limited to 20 by the contract). */
export const MAX_PLY = 64;
export const MAX_MOVES = 256;

/** The board stack (see the file comment). */
export const BOARD = new Int32Array(MAX_PLY * PLY_WORDS);
/** The move stack: ply p's moves start at p * MAX_MOVES. */
export const MOVES = new Uint16Array(MAX_PLY * MAX_MOVES);

// ------------------------------------------------------------------ tables (int32 halves: [2i] lo, [2i+1] hi)
// The one set of tables of the backend: leapers from leapers.ts / bitboard.ts (halves views
// of their attack tables), sliders, between, line and the empty-board rays from sliders.ts.

const KNIGHT = knightAttackTable.halves;
const KING = kingAttackTable.halves;
/** Pawn captures: [(color * 64 + sq) * 2]. */
const PAWN_ATTACKS = pawnAttackTable.halves;
/** Castling rights kept when a move touches the square (from or to). */
export const KEEP_RIGHTS = new Int32Array(64).fill(15);
KEEP_RIGHTS[4] = 15 & ~3; KEEP_RIGHTS[7] = 15 & ~1; KEEP_RIGHTS[0] = 15 & ~2;
KEEP_RIGHTS[60] = 15 & ~12; KEEP_RIGHTS[63] = 15 & ~4; KEEP_RIGHTS[56] = 15 & ~8;

// ------------------------------------------------------------------ bit helpers


/** Index of the lowest set bit of a non-zero int32. */
function lowest(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Scratch for slider lookups (sliders.ts rookHalves / bishopHalves write [0] lo, [1] hi) and blockers. */
const ATT = new Int32Array(6);

/**
 * Is sq attacked by `them` on the board at `o`, sliders seen through (occLo, occHi), ignoring the
 * enemy pieces in (goneLo, goneHi) (a pawn taken en passant)?
 */
function attacked(o: number, them: number, sq: number, occLo: number, occHi: number, goneLo: number, goneHi: number): boolean {
  const B = BOARD;
  const eLo = B[o + 2 * them]! & ~goneLo;
  const eHi = B[o + 2 * them + 1]! & ~goneHi;
  const s2 = sq << 1;
  const p = ((them ^ 1) * 64 + sq) << 1;
  if ((PAWN_ATTACKS[p]! & B[o + 4]! & eLo) | (PAWN_ATTACKS[p + 1]! & B[o + 5]! & eHi)) return true;
  if ((KNIGHT[s2]! & B[o + 6]! & eLo) | (KNIGHT[s2 + 1]! & B[o + 7]! & eHi)) return true;
  if ((KING[s2]! & B[o + 14]! & eLo) | (KING[s2 + 1]! & B[o + 15]! & eHi)) return true;
  const qLo = B[o + 12]!;
  const qHi = B[o + 13]!;
  const bLo = (B[o + 8]! | qLo) & eLo;
  const bHi = (B[o + 9]! | qHi) & eHi;
  if ((BISHOP_EMPTY[s2]! & bLo) | (BISHOP_EMPTY[s2 + 1]! & bHi)) {
    bishopHalves(sq, occLo, occHi, ATT, 0);
    if ((ATT[0]! & bLo) | (ATT[1]! & bHi)) return true;
  }
  const rLo = (B[o + 10]! | qLo) & eLo;
  const rHi = (B[o + 11]! | qHi) & eHi;
  if ((ROOK_EMPTY[s2]! & rLo) | (ROOK_EMPTY[s2 + 1]! & rHi)) {
    rookHalves(sq, occLo, occHi, ATT, 0);
    if ((ATT[0]! & rLo) | (ATT[1]! & rHi)) return true;
  }
  return false;
}

// ------------------------------------------------------------------ generation

// The emitters take `cursor` (where the next move goes in MOVES, or the running count) and
// `counting` (true: only count, the bulk counting at the last ply; false: write the moves) and
// return the cursor after their moves.

function emitTargets(cursor: number, counting: boolean, from: number, lo: number, hi: number): number {
  if (counting) return cursor + popcount32(lo) + popcount32(hi);
  while (lo !== 0) {
    MOVES[cursor++] = from | (lowest(lo) << 6);
    lo &= lo - 1;
  }
  while (hi !== 0) {
    MOVES[cursor++] = from | ((lowest(hi) + 32) << 6);
    hi &= hi - 1;
  }
  return cursor;
}

/** Pawn moves to the targets (lo, hi), each from `to - delta`; four moves on the last ranks. */
function emitPawnTargets(cursor: number, counting: boolean, delta: number, lo: number, hi: number): number {
  if (counting) return cursor + popcount32(lo) + popcount32(hi) + 3 * (popcount32(lo & 0xff) + popcount32(hi & 0xff000000));
  while (lo !== 0) {
    const to = lowest(lo);
    lo &= lo - 1;
    const m = (to - delta) | (to << 6);
    if (to < 8) {
      MOVES[cursor++] = m | 0x4000; MOVES[cursor++] = m | 0x1000; MOVES[cursor++] = m | 0x3000; MOVES[cursor++] = m | 0x2000;
    } else {
      MOVES[cursor++] = m;
    }
  }
  while (hi !== 0) {
    const to = lowest(hi) + 32;
    hi &= hi - 1;
    const m = (to - delta) | (to << 6);
    if (to >= 56) {
      MOVES[cursor++] = m | 0x4000; MOVES[cursor++] = m | 0x1000; MOVES[cursor++] = m | 0x3000; MOVES[cursor++] = m | 0x2000;
    } else {
      MOVES[cursor++] = m;
    }
  }
  return cursor;
}

/**
 * Pushes and captures of the pawns (pLo, pHi) of side `us`, targets restricted to (mLo, mHi)
 * (the check mask, and the pin line for a pinned pawn). En passant is separate.
 */
function pawnMoves(cursor: number, counting: boolean, us: number, pLo: number, pHi: number, emptyLo: number, emptyHi: number,
  enLo: number, enHi: number, mLo: number, mHi: number): number {
  if (us === 0) {
    const s1Lo = (pLo << 8) & emptyLo;
    const s1Hi = ((pHi << 8) | (pLo >>> 24)) & emptyHi;
    cursor = emitPawnTargets(cursor, counting, 8, s1Lo & mLo, s1Hi & mHi);
    // Rank 3 -> rank 4: both inside the low half.
    cursor = emitPawnTargets(cursor, counting, 16, ((s1Lo & 0xff0000) << 8) & emptyLo & mLo, 0);
    const wLo = pLo & 0x7f7f7f7f; // not the h-file: capture towards the h-file (+9)
    const wHi = pHi & 0x7f7f7f7f;
    cursor = emitPawnTargets(cursor, counting, 9, (wLo << 9) & enLo & mLo, ((wHi << 9) | (wLo >>> 23)) & enHi & mHi);
    const xLo = pLo & 0xfefefefe; // not the a-file: capture towards the a-file (+7)
    const xHi = pHi & 0xfefefefe;
    cursor = emitPawnTargets(cursor, counting, 7, (xLo << 7) & enLo & mLo, ((xHi << 7) | (xLo >>> 25)) & enHi & mHi);
  } else {
    const s1Lo = ((pLo >>> 8) | (pHi << 24)) & emptyLo;
    const s1Hi = (pHi >>> 8) & emptyHi;
    cursor = emitPawnTargets(cursor, counting, -8, s1Lo & mLo, s1Hi & mHi);
    // Rank 6 -> rank 5: both inside the high half.
    cursor = emitPawnTargets(cursor, counting, -16, 0, ((s1Hi & 0xff00) >>> 8) & emptyHi & mHi);
    const wLo = pLo & 0xfefefefe; // capture towards the a-file (-9)
    const wHi = pHi & 0xfefefefe;
    cursor = emitPawnTargets(cursor, counting, -9, ((wLo >>> 9) | (wHi << 23)) & enLo & mLo, (wHi >>> 9) & enHi & mHi);
    const xLo = pLo & 0x7f7f7f7f; // capture towards the h-file (-7)
    const xHi = pHi & 0x7f7f7f7f;
    cursor = emitPawnTargets(cursor, counting, -7, ((xLo >>> 7) | (xHi << 25)) & enLo & mLo, (xHi >>> 7) & enHi & mHi);
  }
  return cursor;
}

/** The king square of `color` on the board at `o`. */
export function kingSquareAt(o: number, color: number): number {
  const B = BOARD;
  const lo = B[o + 14]! & B[o + 2 * color]!;
  return lo !== 0 ? lowest(lo) : 32 + lowest(B[o + 15]! & B[o + 2 * color + 1]!);
}

/** Word of a ply's board that `generate` sets to 1 when the side to move is in check, else 0. */
export const IN_CHECK = 19;

/**
 * Generates the legal moves of the board at ply p: written to MOVES from p * MAX_MOVES when
 * `counting` is false; returns how many there are.
 */
export function generate(p: number, counting: boolean): number {
  const B = BOARD;
  const o = p * PLY_WORDS;
  const start = counting ? 0 : p * MAX_MOVES;
  let cursor = start;
  const us = B[o + SIDE]!;
  const them = us ^ 1;
  const ownLo = B[o + 2 * us]!;
  const ownHi = B[o + 2 * us + 1]!;
  const enLo = B[o + 2 * them]!;
  const enHi = B[o + 2 * them + 1]!;
  const occLo = ownLo | enLo;
  const occHi = ownHi | enHi;
  const k = kingSquareAt(o, us);
  const k2 = k << 1;
  const kLo = k < 32 ? 1 << k : 0;
  const kHi = k < 32 ? 0 : 1 << (k - 32);

  // One look from our king (blockers.ts): the enemy pieces checking it, and its blockers; ours are
  // pinned (enemy sliders on a line through our king with exactly one piece between, ours).
  kingBlockers(BOARD, o, k, them, occLo, occHi, ATT, 0);
  const cLo = ATT[4]!;
  const cHi = ATT[5]!;
  const pinLo = ATT[0]! & ownLo;
  const pinHi = ATT[1]! & ownHi;
  B[o + IN_CHECK] = (cLo | cHi) !== 0 ? 1 : 0;

  // King steps, the king lifted off the board.
  {
    let tLo = KING[k2]! & ~ownLo;
    let tHi = KING[k2 + 1]! & ~ownHi;
    const lLo = occLo ^ kLo;
    const lHi = occHi ^ kHi;
    let okLo = 0;
    let okHi = 0;
    while (tLo !== 0) {
      const t = lowest(tLo);
      tLo &= tLo - 1;
      if (!attacked(o, them, t, lLo, lHi, 0, 0)) okLo |= 1 << t;
    }
    while (tHi !== 0) {
      const t = lowest(tHi);
      tHi &= tHi - 1;
      if (!attacked(o, them, t + 32, lLo, lHi, 0, 0)) okHi |= 1 << t;
    }
    cursor = emitTargets(cursor, counting, k, okLo, okHi);
  }

  const inCheck = (cLo | cHi) !== 0;
  // Double check: the king must move.
  if (inCheck && ((cLo !== 0 && cHi !== 0) || (cLo & (cLo - 1)) !== 0 || (cHi & (cHi - 1)) !== 0)) {
    return cursor - start;
  }

  // Check mask: under a single check, capture the checker or block on checkBlockSquares.
  let mLo = ~ownLo;
  let mHi = ~ownHi;
  if (inCheck) {
    const c = cLo !== 0 ? lowest(cLo) : 32 + lowest(cHi);
    const at = (k * 64 + c) << 1;
    mLo = BETWEEN[at]! | cLo;
    mHi = BETWEEN[at + 1]! | cHi;
  }

  // Knights (a pinned knight never stays on its pin line).
  {
    let lo = B[o + 6]! & ownLo & ~pinLo;
    let hi = B[o + 7]! & ownHi & ~pinHi;
    while (lo !== 0) {
      const s = lowest(lo);
      lo &= lo - 1;
      cursor = emitTargets(cursor, counting, s, KNIGHT[s << 1]! & mLo, KNIGHT[(s << 1) + 1]! & mHi);
    }
    while (hi !== 0) {
      const s = lowest(hi) + 32;
      hi &= hi - 1;
      cursor = emitTargets(cursor, counting, s, KNIGHT[s << 1]! & mLo, KNIGHT[(s << 1) + 1]! & mHi);
    }
  }

  // Sliders: queens appear in both passes, with disjoint targets.
  const qLo = B[o + 12]!;
  const qHi = B[o + 13]!;
  for (let kind = 0; kind < 2; kind++) {
    const t = kind === 0 ? 8 : 10;
    let lo = (B[o + t]! | qLo) & ownLo;
    let hi = (B[o + t + 1]! | qHi) & ownHi;
    while ((lo | hi) !== 0) {
      let s: number;
      let pinned: number;
      if (lo !== 0) { s = lowest(lo); lo &= lo - 1; pinned = pinLo & (1 << s); } else { s = 32 + lowest(hi); hi &= hi - 1; pinned = pinHi & (1 << s); }
      if (kind === 0) bishopHalves(s, occLo, occHi, ATT, 0); else rookHalves(s, occLo, occHi, ATT, 0);
      let tLo = ATT[0]! & mLo;
      let tHi = ATT[1]! & mHi;
      if (pinned !== 0) {
        const at = (k * 64 + s) << 1;
        tLo &= LINE[at]!;
        tHi &= LINE[at + 1]!;
      }
      cursor = emitTargets(cursor, counting, s, tLo, tHi);
    }
  }

  // Pawns: the unpinned ones set-wise, each pinned one along its pin line.
  {
    const pLo = B[o + 4]! & ownLo;
    const pHi = B[o + 5]! & ownHi;
    cursor = pawnMoves(cursor, counting, us, pLo & ~pinLo, pHi & ~pinHi, ~occLo, ~occHi, enLo, enHi, mLo, mHi);
    let lo = pLo & pinLo;
    let hi = pHi & pinHi;
    while ((lo | hi) !== 0) {
      let s: number;
      let bLo = 0;
      let bHi = 0;
      if (lo !== 0) { s = lowest(lo); lo &= lo - 1; bLo = 1 << s; } else { s = 32 + lowest(hi); hi &= hi - 1; bHi = 1 << (s - 32); }
      const at = (k * 64 + s) << 1;
      cursor = pawnMoves(cursor, counting, us, bLo, bHi, ~occLo, ~occHi, enLo, enHi, mLo & LINE[at]!, mHi & LINE[at + 1]!);
    }
  }

  // En passant and castling: the rarer moves, in functions of their own (makeMove asks them alone).
  if (B[o + EP]! >= 0) cursor = enPassantMoves(o, cursor, counting, us, k, ownLo, ownHi, enLo, enHi);
  if ((B[o + CASTLING]! & (3 << 2 * us)) !== 0 && !inCheck) cursor = castlingMoves(o, cursor, counting, us, k, occLo, occHi, ownLo, ownHi);
  return cursor - start;
}

/**
 * The en-passant captures of the side to move `us` (king on k) at o, from `cursor` as generate
 * writes or counts them: lift the capturing and the captured pawn, drop the capturer on the ep
 * square, and ask whether our king is attacked then (covers pins, the horizontal pin and checks
 * alike).
 */
function enPassantMoves(o: number, cursor: number, counting: boolean, us: number, k: number, ownLo: number, ownHi: number,
  enLo: number, enHi: number): number {
  const B = BOARD;
  const them = us ^ 1;
  const occLo = ownLo | enLo, occHi = ownHi | enHi;
  const ep = B[o + EP]!;
  const cap = us === 0 ? ep - 8 : ep + 8;
  const capLo = cap < 32 ? 1 << cap : 0;
  const capHi = cap < 32 ? 0 : 1 << (cap - 32);
  const epLo = ep < 32 ? 1 << ep : 0;
  const epHi = ep < 32 ? 0 : 1 << (ep - 32);
  if ((B[o + 4]! & enLo & capLo) | (B[o + 5]! & enHi & capHi) && ((occLo & epLo) | (occHi & epHi)) === 0) {
    const pa2 = (them * 64 + ep) << 1;
    let fLo = PAWN_ATTACKS[pa2]! & B[o + 4]! & ownLo;
    let fHi = PAWN_ATTACKS[pa2 + 1]! & B[o + 5]! & ownHi;
    while ((fLo | fHi) !== 0) {
      let from: number;
      let bLo = 0;
      let bHi = 0;
      if (fLo !== 0) { from = lowest(fLo); fLo &= fLo - 1; bLo = 1 << from; } else { from = 32 + lowest(fHi); fHi &= fHi - 1; bHi = 1 << (from - 32); }
      const aLo = (occLo & ~bLo & ~capLo) | epLo;
      const aHi = (occHi & ~bHi & ~capHi) | epHi;
      if (!attacked(o, them, k, aLo, aHi, capLo, capHi)) {
        if (counting) cursor++; else MOVES[cursor++] = from | (ep << 6);
      }
    }
  }
  return cursor;
}

/** How many en-passant captures the side to move has at ply p (makeMove keeps the ep square only then). */
export function enPassantCount(p: number): number {
  const B = BOARD;
  const o = p * PLY_WORDS;
  const us = B[o + SIDE]!;
  return enPassantMoves(o, 0, true, us, kingSquareAt(o, us), B[o + 2 * us]!, B[o + 2 * us + 1]!, B[o + 2 * (us ^ 1)]!, B[o + 2 * (us ^ 1) + 1]!);
}

/**
 * The castling moves of the side to move `us` (king on k, not in check) at o, from `cursor` as
 * generate writes or counts them: the right, the rook at home, empty squares between, the king
 * crossing and landing on unattacked squares.
 */
function castlingMoves(o: number, cursor: number, counting: boolean, us: number, k: number, occLo: number, occHi: number,
  ownLo: number, ownHi: number): number {
  const B = BOARD;
  const them = us ^ 1;
  const rights = B[o + CASTLING]!;
  if (B[o + C960]! !== 0) {
    for (let r = 2 * us; r < 2 * us + 2; r++) {
      if ((rights & (1 << r)) === 0 || !chess960CastleOk(o, us, k, r, occLo, occHi)) continue;
      if (counting) cursor++; else MOVES[cursor++] = k | (ROOK_SQ[0]! << 6);
    }
  } else {
    const rookLo = B[o + 10]! & ownLo;
    const rookHi = B[o + 11]! & ownHi;
    // Black's squares and masks are White's moved up 56 squares (24 bits in the high half).
    const occHalf = us === 0 ? occLo : occHi, rookHalf = us === 0 ? rookLo : rookHi;
    const shift = 24 * us, home = 4 + 56 * us;
    if (k === home) {
      if ((rights & (1 << 2 * us)) && (occHalf & (0x60 << shift)) === 0 && (rookHalf & (0x80 << shift))
        && !attacked(o, them, home + 1, occLo, occHi, 0, 0) && !attacked(o, them, home + 2, occLo, occHi, 0, 0)) {
        if (counting) cursor++; else MOVES[cursor++] = home | ((home + 2) << 6);
      }
      if ((rights & (2 << 2 * us)) && (occHalf & (0x0e << shift)) === 0 && (rookHalf & (0x01 << shift))
        && !attacked(o, them, home - 1, occLo, occHi, 0, 0) && !attacked(o, them, home - 2, occLo, occHi, 0, 0)) {
        if (counting) cursor++; else MOVES[cursor++] = home | ((home - 2) << 6);
      }
    }
  }
  return cursor;
}

/**
 * Whether the king move `code` of the side to move at ply 0 is one of its legal castling moves (the
 * king's other moves are makeMove's quick test's). Uses ply 1's move list as scratch.
 */
export function castlingIsLegal(code: number): boolean {
  const B = BOARD;
  const us = B[SIDE]!;
  const k = kingSquareAt(0, us);
  const ownLo = B[2 * us]!, ownHi = B[2 * us + 1]!;
  const occLo = ownLo | B[2 * (us ^ 1)]!, occHi = ownHi | B[2 * (us ^ 1) + 1]!;
  if ((B[CASTLING]! & (3 << 2 * us)) === 0 || attacked(0, us ^ 1, k, occLo, occHi, 0, 0)) return false;
  const n = castlingMoves(0, MAX_MOVES, false, us, k, occLo, occHi, ownLo, ownHi);
  for (let i = MAX_MOVES; i < n; i++) if (MOVES[i] === code) return true;
  return false;
}

// ------------------------------------------------------------------ Chess960 castling

/** The squares of the last chess960CastleOk: king from, king to, rook from, rook to. */
const ROOK_SQ = new Int32Array(4);

/** The rook file of right r on the board at o (Chess960). */
const rookFileAt = (o: number, r: number): number => ((BOARD[o + C960]! >> (3 * r)) & 7) ^ STANDARD_ROOK_FILE[r]!;

const occupiedAt = (lo: number, hi: number, sq: number): boolean => ((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) !== 0;

/**
 * Chess960 castling of right r for the king of `us` on k (FIDE Laws, Appendix: Chess960 rules;
 * twin of checks.h chess960Castling): the king to g / c and the rook to f / d, every square either
 * crosses or lands on empty but for the two of them, the king's squares not attacked, and the king's
 * target not attacked once the rook has left its square. Sets ROOK_SQ.
 */
function chess960CastleOk(o: number, us: number, k: number, r: number, occLo: number, occHi: number): boolean {
  const rank = us === 0 ? 0 : 56, kingSide = (r & 1) === 0;
  const rf = rank + rookFileAt(o, r), kt = rank + (kingSide ? 6 : 2), rt = rank + (kingSide ? 5 : 3);
  ROOK_SQ[0] = rf; ROOK_SQ[1] = kt; ROOK_SQ[2] = rt; ROOK_SQ[3] = k;
  for (const [a, b] of [[k, kt], [rf, rt]] as const) {
    for (let sq = Math.min(a, b); sq <= Math.max(a, b); sq++) {
      if (sq !== k && sq !== rf && occupiedAt(occLo, occHi, sq)) return false;
    }
  }
  const them = us ^ 1;
  for (let sq = Math.min(k, kt); sq <= Math.max(k, kt); sq++) if (attacked(o, them, sq, occLo, occHi, 0, 0)) return false;
  const rfLo = rf < 32 ? 1 << rf : 0, rfHi = rf < 32 ? 0 : 1 << (rf - 32);
  return !attacked(o, them, kt, occLo & ~rfLo, occHi & ~rfHi, 0, 0);
}

/** Castling rights a Chess960 board at o keeps when a move touches sq: all but those whose king or rook stands there. */
function keep960(o: number, sq: number): number {
  let keep = 15;
  for (let r = 0; r < 4; r++) {
    const rank = r < 2 ? 0 : 56;
    if (sq === rank + rookFileAt(o, r) || (sq === kingSquareAt(o, r >> 1) && (sq & 56) === rank)) keep &= ~(1 << r);
  }
  return keep;
}

/** The C960 word with the rook file fields of rights not in `rights` cleared. */
function keepFields(c960: number, rights: number): number {
  let mask = CHESS960_FLAG;
  for (let r = 0; r < 4; r++) if (rights & (1 << r)) mask |= 7 << (3 * r);
  return c960 & mask;
}

/** Plays the Chess960 castling move of `us`, the king on `from` taking its own rook on `to`, from ply o into n. */
function playChess960Castle(o: number, n: number, us: number, from: number, to: number): void {
  const B = BOARD;
  let r = 2 * us;
  if ((us === 0 ? 0 : 56) + rookFileAt(o, r) !== to || !(B[o + CASTLING]! & (1 << r))) r++;
  const rank = us === 0 ? 0 : 56, kingSide = (r & 1) === 0;
  const kt = rank + (kingSide ? 6 : 2), rt = rank + (kingSide ? 5 : 3);
  const clear = (base: number, sq: number): void => { B[base + (sq >> 5)] &= ~(1 << (sq & 31)); };
  const put = (base: number, sq: number): void => { B[base + (sq >> 5)] |= 1 << (sq & 31); };
  clear(n + 2 * us, from); clear(n + 2 * us, to); clear(n + 14, from); clear(n + 10, to);
  put(n + 2 * us, kt); put(n + 2 * us, rt); put(n + 14, kt); put(n + 10, rt);
  const rights = B[o + CASTLING]! & ~(3 << (2 * us));
  B[n + CASTLING] = rights;
  B[n + C960] = keepFields(B[o + C960]!, rights);
  B[n + EP] = -1;
  B[n + SIDE] = us ^ 1;
}

// ------------------------------------------------------------------ playing a move

/** Piece type (0 pawn .. 5 king) on sq in the board at o, -1 when empty. */
export function typeAt(o: number, sq: number): number {
  const B = BOARD;
  const w = sq >> 5;
  const b = 1 << (sq & 31);
  for (let t = 0; t < 6; t++) if (B[o + 4 + 2 * t + w]! & b) return t;
  return -1;
}

const PROMOTED_TYPE = [0, 1, 2, 3, 4];

/** Copies the board at ply p to ply p + 1 and plays `move` (legal) there. */
/**
 * Copies the ply at `o` to the ply at `n` (PLY_WORDS = 21 words), written out: V8 runs the straight
 * stores several times faster than the loop.
 */
export function copyPly(o: number, n: number): void {
  const b = BOARD;
  b[n] = b[o]!;
  b[n + 1] = b[o + 1]!;
  b[n + 2] = b[o + 2]!;
  b[n + 3] = b[o + 3]!;
  b[n + 4] = b[o + 4]!;
  b[n + 5] = b[o + 5]!;
  b[n + 6] = b[o + 6]!;
  b[n + 7] = b[o + 7]!;
  b[n + 8] = b[o + 8]!;
  b[n + 9] = b[o + 9]!;
  b[n + 10] = b[o + 10]!;
  b[n + 11] = b[o + 11]!;
  b[n + 12] = b[o + 12]!;
  b[n + 13] = b[o + 13]!;
  b[n + 14] = b[o + 14]!;
  b[n + 15] = b[o + 15]!;
  b[n + 16] = b[o + 16]!;
  b[n + 17] = b[o + 17]!;
  b[n + 18] = b[o + 18]!;
  b[n + 19] = b[o + 19]!;
  b[n + 20] = b[o + 20]!;
}

export function play(p: number, move: number): void {
  const B = BOARD;
  const o = p * PLY_WORDS;
  const n = o + PLY_WORDS;
  copyPly(o, n);
  const from = move & 63;
  const to = (move >> 6) & 63;
  const promotion = move >> 12;
  const us = B[o + SIDE]!;
  const them = us ^ 1;
  const fw = from >> 5;
  const fb = 1 << (from & 31);
  const tw = to >> 5;
  const tb = 1 << (to & 31);
  const type = typeAt(o, from);
  const c960 = B[o + C960]!;
  if (c960 !== 0 && type === 5 && (B[o + 2 * us + tw]! & tb) !== 0) {
    playChess960Castle(o, n, us, from, to);
    return;
  }
  // A capture on the target square.
  if (B[o + 2 * them + tw]! & tb) {
    B[n + 2 * them + tw] ^= tb;
    for (let t = 0; t < 5; t++) {
      if (B[o + 4 + 2 * t + tw]! & tb) { B[n + 4 + 2 * t + tw] ^= tb; break; }
    }
  }
  B[n + 2 * us + fw] ^= fb;
  B[n + 2 * us + tw] |= tb;
  B[n + 4 + 2 * type + fw] ^= fb;
  B[n + 4 + 2 * (promotion !== 0 ? PROMOTED_TYPE[promotion]! : type) + tw] |= tb;
  let ep = -1;
  if (type === 0) {
    if (to === B[o + EP]) {
      const cap = us === 0 ? to - 8 : to + 8;
      const cw = cap >> 5;
      const cb = 1 << (cap & 31);
      B[n + 2 * them + cw] &= ~cb;
      B[n + 4 + cw] &= ~cb;
    } else if (to - from === 16 || from - to === 16) {
      ep = (from + to) >> 1;
    }
  } else if (c960 === 0 && type === 5 && (to - from === 2 || from - to === 2)) {
    const rookFrom = to > from ? from + 3 : from - 4;
    const rookTo = to > from ? from + 1 : from - 1;
    const rb = (1 << (rookFrom & 31)) | (1 << (rookTo & 31)); // same half: both on the king's rank
    B[n + 2 * us + (rookFrom >> 5)] ^= rb;
    B[n + 10 + (rookFrom >> 5)] ^= rb;
  }
  if (c960 === 0) B[n + CASTLING] = B[o + CASTLING]! & KEEP_RIGHTS[from]! & KEEP_RIGHTS[to]!;
  else {
    const rights = B[o + CASTLING]! & keep960(o, from) & keep960(o, to);
    B[n + CASTLING] = rights;
    B[n + C960] = keepFields(c960, rights);
  }
  B[n + EP] = ep;
  B[n + SIDE] = them;
}

// ------------------------------------------------------------------ loading

/** Reads the packed words of a position through an Int32Array view into ply p. */
export function loadPacked(words: Int32Array, at: number, p: number): void {
  const B = BOARD;
  const o = p * PLY_WORDS;
  for (let i = 0; i < 16; i++) B[o + i] = words[at + i]!;
  const state = words[at + 16]!;
  B[o + SIDE] = state & 1;
  B[o + CASTLING] = (state >> 1) & 15;
  B[o + C960] = state & 0x20 ? CHESS960_FLAG | ((words[at + 17]! >>> 8) & 0xfff) : 0;
  const ep = (state >> 8) & 255;
  B[o + EP] = ep >= 64 ? -1 : ep;
}

// ------------------------------------------------------------------ for perft.ts

export { attacked, popcount32, lowest, KNIGHT, PAWN_ATTACKS };
