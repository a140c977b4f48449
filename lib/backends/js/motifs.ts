/**
 * Tactical motifs and the static exchange evaluation (Chess Programming Wiki: Hanging Piece, Double
 * Attack, Pin, Skewer, Discovered Attack, Static Exchange Evaluation, SEE - The Swap Algorithm);
 * twin of `native/core/motifs.h`, with the definitions of lib/api/declarations.ts.
 *
 * Works on int32 halves (lo = a1..h4, hi = a5..h8): a board is 16 halves in the packed layout
 * (white, black, then pawns .. kings, each lo then hi) in the module's board buffer M, loaded from a
 * Position's own halves or from packed words. Values: pawn 1, knight 3, bishop 3, rook 5, queen 9,
 * the king 100 (more than any piece: "worth more than the king" never holds). A colour defends a
 * square when it attacks it (the union of its pieces' attacks through the current occupancy).
 */
import type { Position } from '../../core/types.js';
import { PACKED_POSITION_WORDS, SEE_ILLEGAL } from '../../core/types.js';
import { positionOfHalves, writeSets } from '../../core/position-record.js';
import { pawnAttackTable } from '../../board/bitboard.js';
import { kingBlockers } from '../../board/blockers.js';
import { kingAttackTable, knightAttackTable } from '../../board/leapers.js';
import { BETWEEN, bishopHalves, fromHalves, rookHalves } from '../../board/sliders.js';
import { packedProblem } from '../../core/packed-rules.js';
import { makeMove } from './makemove.js';

const KNIGHT = knightAttackTable.halves;
const KING = kingAttackTable.halves;
/** Pawn captures: [(color * 64 + sq) * 2]. */
const PAWN = pawnAttackTable.halves;

/** The board: 16 halves (white, black, pawns, knights, bishops, rooks, queens, kings). */
const M = new Int32Array(16);
/** Slider lookups' output. */
const T = new Int32Array(4);
/** The squares each colour attacks: [white lo, white hi, black lo, black hi]. */
const A = new Int32Array(4);
/**
 * The results of the line walks: R[0..1] the mode's set (relativePins of the sliders' enemy, or
 * skewers / discoveredAttacks of the sliders' colour); with several modes at once, R[2..3]
 * relativePins, R[4..5] skewers, R[6..7] discoveredAttacks.
 */
const R = new Int32Array(8);

const MOTIF_VALUE = [1, 3, 3, 5, 9, 100];
const SEE_VALUE = [100, 300, 300, 500, 900, 0];

const low = (x: number): number => 31 - Math.clz32(x & -x);
const has = (j: number, sq: number): boolean => ((M[j + (sq >> 5)]! >>> (sq & 31)) & 1) !== 0;

/** The type on sq (which holds a piece). */
function typeOn(sq: number): number {
  const w = sq >> 5, b = 1 << (sq & 31);
  for (let t = 0; t < 5; t++) if (M[4 + 2 * t + w]! & b) return t;
  return 5;
}
const valueOn = (sq: number): number => MOTIF_VALUE[typeOn(sq)]!;

/** The square of the king of `color`. */
function kingSquare(color: number): number {
  const lo = M[14]! & M[2 * color]!;
  return lo !== 0 ? low(lo) : 32 + low(M[15]! & M[2 * color + 1]!);
}

/** Squares `color` attacks with sliders seen through (occLo, occHi), into A[2 * color ..]. */
function attackedBy(color: number, occLo: number, occHi: number): void {
  let aLo = 0, aHi = 0;
  const ownLo = M[2 * color]!, ownHi = M[2 * color + 1]!;
  const k2 = kingSquare(color) << 1;
  aLo |= KING[k2]!;
  aHi |= KING[k2 + 1]!;
  const pawnRow = color * 128;
  const qLo = M[12]!, qHi = M[13]!;
  for (let half = 0; half < 2; half++) {
    const base = 32 * half;
    const own = half === 0 ? ownLo : ownHi;
    for (let x = M[4 + half]! & own; x !== 0; x &= x - 1) {
      const i = (low(x) + base) << 1;
      aLo |= PAWN[pawnRow + i]!;
      aHi |= PAWN[pawnRow + i + 1]!;
    }
    for (let x = M[6 + half]! & own; x !== 0; x &= x - 1) {
      const i = (low(x) + base) << 1;
      aLo |= KNIGHT[i]!;
      aHi |= KNIGHT[i + 1]!;
    }
    for (let x = (M[8 + half]! | (half === 0 ? qLo : qHi)) & own; x !== 0; x &= x - 1) {
      bishopHalves(low(x) + base, occLo, occHi, T, 0);
      aLo |= T[0]!;
      aHi |= T[1]!;
    }
    for (let x = (M[10 + half]! | (half === 0 ? qLo : qHi)) & own; x !== 0; x &= x - 1) {
      rookHalves(low(x) + base, occLo, occHi, T, 0);
      aLo |= T[0]!;
      aHi |= T[1]!;
    }
  }
  A[2 * color] = aLo;
  A[2 * color + 1] = aHi;
}

function attackedByBoth(): void {
  const occLo = M[0]! | M[2]!, occHi = M[1]! | M[3]!;
  attackedBy(0, occLo, occHi);
  attackedBy(1, occLo, occHi);
}

/** hanging on the loaded board with A filled: own non-king pieces attacked and not defended. */
function hangingLoaded(color: number): bigint {
  const them = color ^ 1;
  return fromHalves(M[2 * color]! & ~M[14]! & A[2 * them]! & ~A[2 * color]!,
    M[2 * color + 1]! & ~M[15]! & A[2 * them + 1]! & ~A[2 * color + 1]!);
}

/** More than one square in the set (lo, hi). */
const several = (lo: number, hi: number): boolean => ((lo & (lo - 1)) | (hi & (hi - 1))) !== 0 || (lo !== 0 && hi !== 0);

/** forks on the loaded board with A filled. */
function forksLoaded(color: number): bigint {
  const them = color ^ 1;
  const occLo = M[0]! | M[2]!, occHi = M[1]! | M[3]!;
  const eLo = M[2 * them]!, eHi = M[2 * them + 1]!;
  const ownLo = M[2 * color]!, ownHi = M[2 * color + 1]!;
  // Targets for any attacker: the enemy king and the undefended enemy pieces.
  const baseLo = (eLo & M[14]!) | (eLo & ~A[2 * them]!);
  const baseHi = (eHi & M[15]!) | (eHi & ~A[2 * them + 1]!);
  // ... and the pieces worth more than the attacker.
  const qLo = eLo & M[12]! & ~M[14]!, qHi = eHi & M[13]! & ~M[15]!;
  const rLo = (eLo & M[10]!) | qLo, rHi = (eHi & M[11]!) | qHi;
  const mLo = (eLo & (M[6]! | M[8]!)) | rLo, mHi = (eHi & (M[7]! | M[9]!)) | rHi;
  let resLo = 0, resHi = 0;
  const pawnRow = color * 128;
  for (let half = 0; half < 2; half++) {
    const base = 32 * half;
    const own = half === 0 ? ownLo : ownHi;
    const put = (s: number): void => {
      if (half === 0) resLo |= 1 << s; else resHi |= 1 << s;
    };
    for (let x = M[4 + half]! & own; x !== 0; x &= x - 1) {
      const s = low(x);
      const i = pawnRow + ((s + base) << 1);
      if (several(PAWN[i]! & (baseLo | mLo), PAWN[i + 1]! & (baseHi | mHi))) put(s);
    }
    for (let x = M[6 + half]! & own; x !== 0; x &= x - 1) {
      const s = low(x);
      const i = (s + base) << 1;
      if (several(KNIGHT[i]! & (baseLo | rLo), KNIGHT[i + 1]! & (baseHi | rHi))) put(s);
    }
    for (let x = M[8 + half]! & own; x !== 0; x &= x - 1) {
      const s = low(x);
      bishopHalves(s + base, occLo, occHi, T, 0);
      if (several(T[0]! & (baseLo | rLo), T[1]! & (baseHi | rHi))) put(s);
    }
    for (let x = M[10 + half]! & own; x !== 0; x &= x - 1) {
      const s = low(x);
      rookHalves(s + base, occLo, occHi, T, 0);
      if (several(T[0]! & (baseLo | qLo), T[1]! & (baseHi | qHi))) put(s);
    }
    for (let x = M[12 + half]! & own; x !== 0; x &= x - 1) {
      const s = low(x);
      bishopHalves(s + base, occLo, occHi, T, 0);
      rookHalves(s + base, occLo, occHi, T, 2);
      if (several((T[0]! | T[2]!) & baseLo, (T[1]! | T[3]!) & baseHi)) put(s);
    }
    for (let x = M[14 + half]! & own; x !== 0; x &= x - 1) {
      const s = low(x);
      const i = (s + base) << 1;
      if (several(KING[i]! & baseLo, KING[i + 1]! & baseHi)) put(s);
    }
  }
  return fromHalves(resLo, resHi);
}

const RELATIVE_PINS = 1, SKEWERS = 2, DISCOVERED = 4;

/**
 * For each slider of `sliderColor` and each line it moves on, the first piece of each ray (mid) and
 * the next one beyond it (far); the motif `mode` decides what goes into R.
 */
function linePairs(mode: number, sliderColor: number): void {
  const occLo = M[0]! | M[2]!, occHi = M[1]! | M[3]!;
  const ownLo = M[2 * sliderColor]!, ownHi = M[2 * sliderColor + 1]!;
  const qLo = M[12]!, qHi = M[13]!;
  R.fill(0);
  for (let diag = 0; diag < 2; diag++) {
    const tj = diag === 0 ? 10 : 8;
    for (let half = 0; half < 2; half++) {
      for (let x = (M[tj + half]! | (half === 0 ? qLo : qHi)) & (half === 0 ? ownLo : ownHi); x !== 0; x &= x - 1) {
        const sq = low(x) + 32 * half;
        if (diag === 0) rookHalves(sq, occLo, occHi, T, 0); else bishopHalves(sq, occLo, occHi, T, 0);
        const fLo = T[0]! & occLo, fHi = T[1]! & occHi;
        if (diag === 0) rookHalves(sq, occLo ^ fLo, occHi ^ fHi, T, 2); else bishopHalves(sq, occLo ^ fLo, occHi ^ fHi, T, 2);
        const row = sq << 7;
        for (let h2 = 0; h2 < 2; h2++) {
          for (let far = h2 === 0 ? T[2]! & occLo & ~fLo : T[3]! & occHi & ~fHi; far !== 0; far &= far - 1) {
            const t2 = low(far) + 32 * h2;
            const bi = row + (t2 << 1);
            const bLo = BETWEEN[bi]! & occLo;
            const mid = bLo !== 0 ? low(bLo) : 32 + low(BETWEEN[bi + 1]! & occHi);
            pair(mode, sliderColor, sq, mid, t2);
          }
        }
      }
    }
  }
}

/** Sets bit sq of the set at R[j], R[j + 1]. */
const mark = (j: number, sq: number): void => { R[j + (sq >> 5)] |= 1 << (sq & 31); };

function pair(mode: number, sliderColor: number, sq: number, mid: number, far: number): void {
  const them = sliderColor ^ 1;
  // One mode writes R[0..1]; several write each to its own pair.
  const single = mode === RELATIVE_PINS || mode === SKEWERS || mode === DISCOVERED;
  const midOurs = has(2 * sliderColor, mid);
  const farTheirs = has(2 * them, far);
  if (mode & RELATIVE_PINS) {
    // Pieces of `them` (the pinned side), neither the king, the far one worth more.
    if (!midOurs && farTheirs && !has(14, mid) && !has(14, far) && valueOn(far) > valueOn(mid)) mark(single ? 0 : 2, mid);
  }
  if (mode & SKEWERS && !midOurs && farTheirs) {
    const v2 = valueOn(far);
    const defended = ((A[2 * them + (far >> 5)]! >>> (far & 31)) & 1) !== 0;
    if (valueOn(mid) > v2 && (!defended || v2 > valueOn(sq))) mark(single ? 0 : 4, sq);
  }
  if (mode & DISCOVERED && midOurs && farTheirs) {
    const defended = ((A[2 * them + (far >> 5)]! >>> (far & 31)) & 1) !== 0;
    if (has(14, far) || !defended || valueOn(far) > valueOn(sq)) mark(single ? 0 : 6, mid);
  }
}

// ---- The public single-position functions ----

export function hanging(pos: Position, color: number): bigint {
  writeSets(pos, M, 0);
  attackedByBoth();
  return hangingLoaded(color);
}

export function forks(pos: Position, color: number): bigint {
  writeSets(pos, M, 0);
  attackedByBoth();
  return forksLoaded(color);
}

export function relativePins(pos: Position, color: number): bigint {
  writeSets(pos, M, 0);
  linePairs(RELATIVE_PINS, color ^ 1);
  return fromHalves(R[0]!, R[1]!);
}

export function skewers(pos: Position, color: number): bigint {
  writeSets(pos, M, 0);
  attackedByBoth();
  linePairs(SKEWERS, color);
  return fromHalves(R[0]!, R[1]!);
}

export function discoveredAttacks(pos: Position, color: number): bigint {
  writeSets(pos, M, 0);
  attackedByBoth();
  linePairs(DISCOVERED, color);
  return fromHalves(R[0]!, R[1]!);
}

/**
 * The motif sets of both colours for the board loaded into M (which: bit k for motif k of hanging,
 * forks, relativePins, skewers, discoveredAttacks), as int32 halves into out[at ..]: motif k's
 * white set at out[at + 4k], out[at + 4k + 1], its black set at out[at + 4k + 2], out[at + 4k + 3].
 */
export function motifsLoaded(out: Int32Array, at: number, which: number): void {
  attackedByBoth();
  for (let c = 0; c < 2; c++) {
    if (which & 1) {
      const them = c ^ 1;
      out[at + 2 * c] = M[2 * c]! & ~M[14]! & A[2 * them]! & ~A[2 * c]!;
      out[at + 2 * c + 1] = M[2 * c + 1]! & ~M[15]! & A[2 * them + 1]! & ~A[2 * c + 1]!;
    }
    if (which & 2) {
      SCRATCH_OUT[0] = forksLoaded(c);
      out[at + 4 + 2 * c] = SCRATCH_HALVES[0]!;
      out[at + 5 + 2 * c] = SCRATCH_HALVES[1]!;
    }
  }
  // One walk of each colour's lines: relativePins of the other colour, skewers and discovered
  // attacks of this one.
  const modes = (which & 4 ? RELATIVE_PINS : 0) | (which & 8 ? SKEWERS : 0) | (which & 16 ? DISCOVERED : 0);
  if (modes === 0) return;
  for (let c = 0; c < 2; c++) {
    linePairs(modes | 8, c);
    const p = at + 8 + 2 * (c ^ 1);
    out[p] = R[2]!;
    out[p + 1] = R[3]!;
    out[at + 12 + 2 * c] = R[4]!;
    out[at + 13 + 2 * c] = R[5]!;
    out[at + 16 + 2 * c] = R[6]!;
    out[at + 17 + 2 * c] = R[7]!;
  }
}

const SCRATCH_OUT = new BigUint64Array(1);
const SCRATCH_HALVES = new Int32Array(SCRATCH_OUT.buffer);

/** Loads the 16 set halves of packed position i of `h` (an Int32Array view of packed words) into M. */
export function loadPackedSets(h: Int32Array, i: number): void {
  const at = i * 2 * PACKED_POSITION_WORDS;
  for (let j = 0; j < 16; j++) M[j] = h[at + j]!;
}

// ---- Static exchange evaluation (SEE - The Swap Algorithm) ----

const BLOCKERS = new Int32Array(6);
/** Pinned pieces (a single square each, as halves) and their pinners, of both colours. */
const PIN_PIECE = new Int32Array(32);
const PIN_PINNER = new Int32Array(32);
let pinCount = 0;
const GAIN = new Int32Array(40);
/** attackersHalves' output. */
const AT = new Int32Array(2);

/** Pieces of `color` attacking sq through (occLo, occHi), limited to the occupancy. */
function attackersHalves(sq: number, color: number, occLo: number, occHi: number): void {
  const s2 = sq << 1;
  const p2 = ((color ^ 1) * 64 + sq) << 1;
  const ownLo = M[2 * color]! & occLo, ownHi = M[2 * color + 1]! & occHi;
  bishopHalves(sq, occLo, occHi, T, 0);
  rookHalves(sq, occLo, occHi, T, 2);
  AT[0] = ownLo & ((PAWN[p2]! & M[4]!) | (KNIGHT[s2]! & M[6]!) | (KING[s2]! & M[14]!)
    | (T[0]! & (M[8]! | M[12]!)) | (T[2]! & (M[10]! | M[12]!)));
  AT[1] = ownHi & ((PAWN[p2 + 1]! & M[5]!) | (KNIGHT[s2 + 1]! & M[7]!) | (KING[s2 + 1]! & M[15]!)
    | (T[1]! & (M[9]! | M[13]!)) | (T[3]! & (M[11]! | M[13]!)));
}

function seePins(occLo: number, occHi: number): void {
  pinCount = 0;
  for (let c = 0; c < 2; c++) {
    const k = kingSquare(c);
    kingBlockers(M, 0, k, c ^ 1, occLo, occHi, BLOCKERS, 0);
    const pLo = BLOCKERS[0]! & M[2 * c]!, pHi = BLOCKERS[1]! & M[2 * c + 1]!;
    const row = k << 7;
    for (let half = 0; half < 2; half++) {
      for (let x = BLOCKERS[2 + half]!; x !== 0; x &= x - 1) {
        const s = low(x);
        const q = s + 32 * half;
        const mLo = BETWEEN[row + (q << 1)]! & pLo, mHi = BETWEEN[row + (q << 1) + 1]! & pHi;
        if ((mLo | mHi) === 0) continue;
        PIN_PIECE[2 * pinCount] = mLo;
        PIN_PIECE[2 * pinCount + 1] = mHi;
        PIN_PINNER[2 * pinCount] = half === 0 ? 1 << s : 0;
        PIN_PINNER[2 * pinCount + 1] = half === 0 ? 0 : 1 << s;
        pinCount++;
      }
    }
  }
}

/** The swap list of a legal move (not castling) on the board in M into GAIN; returns its depth. */
function swapList(us: number, epSquare: number, from: number, to: number): number {
  let occLo = M[0]! | M[2]!, occHi = M[1]! | M[3]!;
  seePins(occLo, occHi);
  const tw = to >> 5, tb = 1 << (to & 31);
  const moverType = typeOn(from);
  let goneLo = 0, goneHi = 0;
  GAIN[0] = 0;
  if (M[2 * (us ^ 1) + tw]! & tb) {
    GAIN[0] = SEE_VALUE[typeOn(to)]!;
    if (tw === 0) goneLo = tb; else goneHi = tb;
  } else if (moverType === 0 && to === epSquare) {
    const taken = us === 0 ? to - 8 : to + 8;
    GAIN[0] = SEE_VALUE[0]!;
    if (taken < 32) { goneLo = 1 << taken; occLo ^= goneLo; } else { goneHi = 1 << (taken - 32); occHi ^= goneHi; }
  }
  if (from < 32) occLo ^= 1 << from; else occHi ^= 1 << (from - 32);
  if (tw === 0) occLo |= tb; else occHi |= tb;
  let onSquare = SEE_VALUE[moverType]!;
  let originLo = from < 32 ? 1 << from : 0, originHi = from < 32 ? 0 : 1 << (from - 32);
  let side = us ^ 1;
  let d = 0;
  let exLo = 0, exHi = 0;
  for (let i = 0; i < pinCount; i++) {
    if (((PIN_PINNER[2 * i]! & goneLo) | (PIN_PINNER[2 * i + 1]! & goneHi)) === 0) {
      exLo |= PIN_PIECE[2 * i]!;
      exHi |= PIN_PIECE[2 * i + 1]!;
    }
  }
  for (;;) {
    attackersHalves(to, side, occLo, occHi);
    const aLo = AT[0]! & ~exLo, aHi = AT[1]! & ~exHi;
    if ((aLo | aHi) === 0) break;
    let type = 0;
    while (((aLo & M[4 + 2 * type]!) | (aHi & M[5 + 2 * type]!)) === 0) type++;
    const xLo = aLo & M[4 + 2 * type]!;
    let fLo = 0, fHi = 0;
    if (xLo !== 0) fLo = xLo & -xLo; else { const xHi = aHi & M[5 + 2 * type]!; fHi = xHi & -xHi; }
    if (type === 5) {
      // The king recaptures only when nothing can take it back.
      attackersHalves(to, side ^ 1, occLo ^ fLo, occHi ^ fHi);
      if (((AT[0]! & ~exLo) | (AT[1]! & ~exHi)) !== 0) break;
    }
    d++;
    GAIN[d] = onSquare - GAIN[d - 1]!;
    goneLo |= originLo;
    goneHi |= originHi;
    exLo = 0;
    exHi = 0;
    for (let i = 0; i < pinCount; i++) {
      if (((PIN_PINNER[2 * i]! & goneLo) | (PIN_PINNER[2 * i + 1]! & goneHi)) === 0) {
        exLo |= PIN_PIECE[2 * i]!;
        exHi |= PIN_PIECE[2 * i + 1]!;
      }
    }
    onSquare = SEE_VALUE[type]!;
    originLo = fLo;
    originHi = fHi;
    occLo ^= fLo;
    occHi ^= fHi;
    side ^= 1;
  }
  return d;
}

/** The swap list folded back: each side takes the better of stopping and going on. */
function seeValue(us: number, epSquare: number, from: number, to: number): number {
  for (let d = swapList(us, epSquare, from, to); d > 0; d--) GAIN[d - 1] = Math.min(GAIN[d - 1]!, -GAIN[d]!);
  return GAIN[0]!;
}

/** Castling: the king moving two files, or onto its own rook (Chess960). */
function isCastling(us: number, from: number, to: number): boolean {
  if (!has(14, from)) return false;
  return has(2 * us, to) || Math.abs((from & 7) - (to & 7)) === 2;
}

/** A move's legality by the make-move test every JS path uses (castling, en passant, Chess960 included). */
const AFTER = new BigUint64Array(PACKED_POSITION_WORDS);
const isLegal = (pos: Position, from: number, to: number, promotion: number): boolean =>
  makeMove(pos, from, to, promotion, AFTER);

export function see(pos: Position, from: number, to: number, promotion: number): number {
  if (!isLegal(pos, from, to, promotion)) return SEE_ILLEGAL;
  writeSets(pos, M, 0);
  const us = pos.sideToMove;
  if (isCastling(us, from, to)) return 0;
  return seeValue(us, pos.epSquare, from, to);
}

export function seeGe(pos: Position, from: number, to: number, promotion: number, threshold: number): number {
  if (!isLegal(pos, from, to, promotion)) return -1;
  writeSets(pos, M, 0);
  const us = pos.sideToMove;
  if (isCastling(us, from, to)) return 0 >= threshold ? 1 : 0;
  const moverType = typeOn(from);
  let captured = 0;
  if (has(2 * (us ^ 1), to)) captured = SEE_VALUE[typeOn(to)]!;
  else if (moverType === 0 && to === pos.epSquare) captured = SEE_VALUE[0]!;
  if (captured < threshold) return 0;
  if (captured - SEE_VALUE[moverType]! >= threshold) return 1;
  return seeValue(us, pos.epSquare, from, to) >= threshold ? 1 : 0;
}

/** The batch form (BatchBackend.seeBatch): -1, or 2 * i (invalid position i), 2 * i + 1 (illegal move i). */
export function seeBatchWords(words: BigUint64Array, valid: Uint8Array | null, moves: Uint16Array, out: Int16Array): number {
  const n = words.length / PACKED_POSITION_WORDS;
  const h = new Int32Array(words.buffer, words.byteOffset, words.length * 2);
  for (let i = 0; i < n; i++) {
    if (valid && !valid[i]) {
      out[i] = 0;
      continue;
    }
    const at = i * PACKED_POSITION_WORDS;
    if (packedProblem(words, at)) return 2 * i;
    const m = moves[i]!;
    const from = m & 63, to = (m >> 6) & 63, promotion = (m >> 12) & 7;
    const pos = positionOfHalves(h, 2 * at);
    if (!isLegal(pos, from, to, promotion)) return 2 * i + 1;
    loadPackedSets(h, i);
    out[i] = isCastling(pos.sideToMove, from, to) ? 0 : seeValue(pos.sideToMove, pos.epSquare, from, to);
  }
  return -1;
}
