/**
 * Checks and pinned pieces (Chess Programming Wiki: Checks and Pinned Pieces); twin of `native/core/checks.h`.
 *
 * Pinned pieces, pinners, discovered-check candidates and pin rays come from the one blocker
 * primitive, `kingBlockers` (blockers.ts); the page's x-ray and opposite-ray methods stay as the two
 * documented variants (`checkVariants`, the Backend's `variants`). The hot code works on int32 halves (lo = a1..h4, hi =
 * a5..h8), the backend's one representation for it: single-position functions read a Position's sets
 * through the SCRATCH buffer into halves and return unsigned bigints; the batch forms read the packed
 * words as int32 halves and check each position's consistency first, like the native side (a
 * RangeError naming the function and the position index).
 */
import { BISHOP, KING, KNIGHT, PACKED_POSITION_WORDS, PAWN, QUEEN, ROOK } from '../../core/types.js';
import type { CheckVariants } from '../contract.js';
import { packedIsValid, packedProblem } from '../../core/packed-rules.js';
import { pawnAttackTable } from '../../board/bitboard.js';
import { kingBlockers } from '../../board/blockers.js';
import { arrKingAttacks, arrKnightAttacks } from '../../board/leapers.js';
import {
  BETWEEN, HALVES, LINE, SCRATCH, between, bishopAttacks, fromHalves, queenAttacks, rayAttacks, rookAttacks,
  xrayBishopAttacks, xrayRookAttacks,
} from '../../board/sliders.js';

const ALL = 0xffffffffffffffffn;

/** What the functions below read: a Position, or a batch slot unpacked from its words. */
interface Board {
  readonly colors: readonly bigint[];
  readonly pieces: readonly bigint[];
  readonly sideToMove: number;
  readonly castling: number;
  readonly epSquare: number;
  /** Chess960 (a Position has them): castling is then the king taking its own rook. */
  readonly chess960?: boolean;
  readonly castlingFiles?: readonly number[];
}

/** pawnAttacks[color * 64 + sq]: squares a pawn of `color` on sq attacks. */
const pawnAttacks = pawnAttackTable.unsigned;

/** Lowest square of a set, -1 when empty. */
export function lowestSquare(set: bigint): number {
  SCRATCH[0] = set;
  const lo = HALVES[0]!;
  if (lo !== 0) return 31 - Math.clz32(lo & -lo);
  const hi = HALVES[1]!;
  return hi !== 0 ? 63 - Math.clz32(hi & -hi) : -1;
}

const bit = (sq: number): bigint => 1n << BigInt(sq);
const occupancy = (b: Board): bigint => b.colors[0]! | b.colors[1]!;
const kingSquare = (b: Board, color: number): number => lowestSquare(b.colors[color]! & b.pieces[KING]!);

/**
 * The Checks and Pinned Pieces page's attacksTo for any square: pieces of one colour, given as six sets already masked by
 * that colour (pawns .. king), attacking sq with sliders blocked by `occupied`.
 */
function attackersFrom(p: bigint, n: bigint, bsh: bigint, r: bigint, q: bigint, k: bigint,
  byColor: number, sq: number, occupied: bigint): bigint {
  return (pawnAttacks[(byColor ^ 1) * 64 + sq]! & p) | (arrKnightAttacks[sq]! & n) | (arrKingAttacks[sq]! & k)
    | (bishopAttacks(sq, occupied) & (bsh | q)) | (rookAttacks(sq, occupied) & (r | q));
}

function attackersToBoard(b: Board, sq: number, byColor: number, occupied: bigint): bigint {
  const own = b.colors[byColor]!;
  const pc = b.pieces;
  return attackersFrom(pc[PAWN]! & own, pc[KNIGHT]! & own, pc[BISHOP]! & own, pc[ROOK]! & own, pc[QUEEN]! & own,
    pc[KING]! & own, byColor, sq, occupied);
}

function checkersBoard(b: Board, color: number): bigint {
  const k = kingSquare(b, color);
  return k < 0 ? 0n : attackersToBoard(b, k, color ^ 1, occupancy(b));
}

/** Sliders of `color` that move along rook lines / bishop lines. */
const rookLike = (b: Board, color: number): bigint => b.colors[color]! & (b.pieces[ROOK]! | b.pieces[QUEEN]!);
const bishopLike = (b: Board, color: number): bigint => b.colors[color]! & (b.pieces[BISHOP]! | b.pieces[QUEEN]!);

// ---- Pins, pinners, discovered-check candidates and pin rays: kingBlockers (blockers.ts) ----

/** A board's eight sets as int32 halves in the packed layout (blockers.ts), and kingBlockers' result. */
const W = new Int32Array(16);
const BLOCKERS = new Int32Array(6);

/** kingBlockers of the king on `kingSq` of board b against the sliders of `sliderColor`, into BLOCKERS. */
function blockersOf(b: Board, kingSq: number, sliderColor: number): void {
  for (let j = 0; j < 8; j++) {
    SCRATCH[0] = j < 2 ? b.colors[j]! : b.pieces[j - 2]!;
    W[2 * j] = HALVES[0]!;
    W[2 * j + 1] = HALVES[1]!;
  }
  kingBlockers(W, 0, kingSq, sliderColor, W[0]! | W[2]!, W[1]! | W[3]!, BLOCKERS, 0);
}

/** Pinned pieces of `color`: its blockers against the enemy sliders. */
export function pinnedPieces(b: Board, color: number): bigint {
  const k = kingSquare(b, color);
  if (k < 0) return 0n;
  blockersOf(b, k, color ^ 1);
  return fromHalves(BLOCKERS[0]! & W[2 * color]!, BLOCKERS[1]! & W[2 * color + 1]!);
}

/** The enemy sliders pinning pieces of `color`. */
export function pinners(b: Board, color: number): bigint {
  const k = kingSquare(b, color);
  if (k < 0) return 0n;
  blockersOf(b, k, color ^ 1);
  return fromHalves(BLOCKERS[2]!, BLOCKERS[3]!);
}

/** Pieces of `color` alone between one of its sliders and the enemy king. */
export function discoveredCheckCandidates(b: Board, color: number): bigint {
  const k = kingSquare(b, color ^ 1);
  if (k < 0) return 0n;
  blockersOf(b, k, color);
  return fromHalves(BLOCKERS[0]! & W[2 * color]!, BLOCKERS[1]! & W[2 * color + 1]!);
}

/** From the king to the pinner of the piece on sq (the pinner included); every square when it is not pinned. */
export function pinRay(b: Board, sq: number): bigint {
  const s = bit(sq);
  const color = b.colors[0]! & s ? 0 : b.colors[1]! & s ? 1 : -1;
  if (color < 0) return ALL;
  const k = kingSquare(b, color);
  if (k < 0 || k === sq) return ALL;
  blockersOf(b, k, color ^ 1);
  const w = sq >> 5;
  const sqBit = 1 << (sq & 31);
  if ((BLOCKERS[w]! & sqBit) === 0) return ALL;
  // Two pinners may share the line (one on each side of the king): take the one behind sq.
  const at = (k * 64 + sq) << 1;
  let lo = BLOCKERS[2]! & LINE[at]!;
  let hi = BLOCKERS[3]! & LINE[at + 1]!;
  while ((lo | hi) !== 0) {
    let p: number;
    if (lo !== 0) { p = 31 - Math.clz32(lo & -lo); lo &= lo - 1; } else { p = 63 - Math.clz32(hi & -hi); hi &= hi - 1; }
    if (BETWEEN[((k * 64 + p) << 1) + w]! & sqBit) return between(k, p) | bit(p);
  }
  return ALL; // not reached: a pinned piece has its pinner on that line
}

// ---- The two documented variants of pinned pieces (the Checks and Pinned Pieces page) ----

/** The page's x-ray method: enemy sliders seen from the king through one of its own pieces, and the pieces between. */
function pinnedXray(b: Board, color: number): bigint {
  const k = kingSquare(b, color);
  if (k < 0) return 0n;
  const own = b.colors[color]!;
  const occ = occupancy(b);
  SCRATCH[0] = (xrayRookAttacks(occ, own, k) & rookLike(b, color ^ 1)) | (xrayBishopAttacks(occ, own, k) & bishopLike(b, color ^ 1));
  let lo = HALVES[0]!;
  let hi = HALVES[1]!;
  let pinned = 0n;
  while ((lo | hi) !== 0) {
    let p: number;
    if (lo !== 0) { p = 31 - Math.clz32(lo & -lo); lo &= lo - 1; } else { p = 63 - Math.clz32(hi & -hi); hi &= hi - 1; }
    pinned |= between(p, k) & own;
  }
  return pinned;
}

/** What one pass of opposite ray-directions finds for `color`. */
export interface OppositeRays {
  /** Pieces of `color` pinned to their king. */
  pinned: bigint;
  /** The enemy sliders pinning them. */
  pinners: bigint;
  /** Empty squares between the king of `color` and the enemy sliders checking it from a distance. */
  blockSquares: bigint;
  /** Pieces of `color` alone between one of its sliders and the enemy king. */
  discoveredCheckCandidates: bigint;
}

/**
 * The Checks and Pinned Pieces page's opposite ray-directions (DirGolem): per direction, the enemy sliders' occluded
 * attacks meet the king's attacks in the opposite direction on the empty squares between (check),
 * on the one piece between (a pin if it is ours), or not at all. The same with our sliders against
 * the enemy king gives the discovered-check candidates.
 */
export function oppositeRays(b: Board, color: number): OppositeRays {
  const result = { pinned: 0n, pinners: 0n, blockSquares: 0n, discoveredCheckCandidates: 0n };
  const k = kingSquare(b, color);
  const enemyKing = kingSquare(b, color ^ 1);
  if (k < 0 || enemyKing < 0) return result;
  const own = b.colors[color]!;
  const empty = ALL ^ occupancy(b);
  const kingBit = bit(k);
  const enemyKingBit = bit(enemyKing);
  const enemyRook = rookLike(b, color ^ 1);
  const enemyBishop = bishopLike(b, color ^ 1);
  const ownRook = rookLike(b, color);
  const ownBishop = bishopLike(b, color);
  for (let d = 0; d < 8; d++) {
    const back = d ^ 4;
    const enemySliders = (d & 1) === 0 ? enemyRook : enemyBishop;
    const fromEnemy = rayAttacks(d, enemySliders, empty);
    const meet = fromEnemy & rayAttacks(back, kingBit, empty);
    if (fromEnemy & kingBit) result.blockSquares |= meet & empty;
    const pinnedHere = meet & own;
    if (pinnedHere !== 0n) {
      result.pinned |= pinnedHere;
      result.pinners |= rayAttacks(back, pinnedHere, empty) & enemySliders;
    }
    const ownSliders = (d & 1) === 0 ? ownRook : ownBishop;
    result.discoveredCheckCandidates |= rayAttacks(d, ownSliders, empty) & rayAttacks(back, enemyKingBit, empty) & own;
  }
  return result;
}


function checkBlockBoard(b: Board, color: number): bigint {
  const c = checkersBoard(b, color);
  if (c === 0n || (c & (c - 1n)) !== 0n) return 0n;
  return between(lowestSquare(c), kingSquare(b, color));
}

// ---- checkKind ----

const PROMOTION_TYPES = [-1, KNIGHT, BISHOP, ROOK, QUEEN];

/**
 * checkKind of a Chess960 castling move, the king (on from) taking its own rook (on to): FIDE Laws,
 * Appendix: Chess960 rules (twin of checks.h chess960CastleKind).
 */
function chess960CastleKind(b: Board, from: number, to: number, promotion: number): number {
  const us = b.sideToMove, them = us ^ 1, rank = us === 0 ? 0 : 56;
  const files = b.castlingFiles!;
  let r = -1;
  for (let x = 2 * us; x < 2 * us + 2; x++) if ((b.castling & (1 << x)) && files[x]! >= 0 && rank + files[x]! === to) r = x;
  if (r < 0 || promotion !== 0 || kingSquare(b, us) !== from) return -1;
  const kingSide = (r & 1) === 0;
  const kt = rank + (kingSide ? 6 : 2), rt = rank + (kingSide ? 5 : 3);
  const occ = b.colors[0]! | b.colors[1]!;
  const movers = bit(from) | bit(to);
  const span = (a: number, c: number): bigint => between(a, c) | bit(c);
  if (occ & (span(from, kt) | span(to, rt)) & ~movers) return -1;
  for (const sq of [from, ...squaresOf(between(from, kt)), kt]) if (attackersToBoard(b, sq, them, occ) !== 0n) return -1;
  const pc = b.pieces, own = b.colors[us]!, enemy = b.colors[them]!;
  const occAfter = (occ & ~movers) | bit(kt) | bit(rt);
  if (attackersFrom(pc[PAWN]! & enemy, pc[KNIGHT]! & enemy, pc[BISHOP]! & enemy, pc[ROOK]! & enemy,
    pc[QUEEN]! & enemy, pc[KING]! & enemy, them, kt, occAfter) !== 0n) return -1;
  const sets: bigint[] = [];
  for (let t = 0; t < 6; t++) sets.push(pc[t]! & own & ~movers);
  sets[KING] = sets[KING]! | bit(kt);
  sets[ROOK] = sets[ROOK]! | bit(rt);
  const enemyKing = kingSquare(b, them);
  const givers = attackersFrom(sets[PAWN]!, sets[KNIGHT]!, sets[BISHOP]!, sets[ROOK]!, sets[QUEEN]!, sets[KING]!, us, enemyKing, occAfter);
  const mover = bit(rt);
  return (givers & mover ? 1 : 0) | (givers & ~mover ? 2 : 0);
}

/** The squares of a set, ascending. */
function squaresOf(set: bigint): number[] {
  const out: number[] = [];
  for (let sq = 0; set !== 0n; sq++, set >>= 1n) if (set & 1n) out.push(sq);
  return out;
}

/** 0 none, 1 direct, 2 discovered, 3 both; -1 when the move is not legal (see backend.ts). */
function checkKindBoard(b: Board, from: number, to: number, promotion: number): number {
  const us = b.sideToMove;
  const them = us ^ 1;
  const own = b.colors[us]!;
  const enemy = b.colors[them]!;
  const occ = own | enemy;
  const fromBit = bit(from);
  const toBit = bit(to);
  if (b.chess960 && (own & b.pieces[KING]! & fromBit) && (own & b.pieces[ROOK]! & toBit)) return chess960CastleKind(b, from, to, promotion);
  if (!(own & fromBit) || (own & toBit) || from === to) return -1;
  if (!Number.isInteger(promotion) || promotion < 0 || promotion > 4) return -1;
  const enemyKing = kingSquare(b, them);
  if (enemyKing < 0 || enemyKing === to) return -1;
  let type = -1;
  for (let t = 0; t < 6; t++) if (b.pieces[t]! & fromBit) type = t;
  if (type < 0) return -1;

  let captured = enemy & toBit ? to : -1;
  let rookFrom = -1;
  let rookTo = -1;
  let newType = type;
  switch (type) {
    case PAWN: {
      const step = us === 0 ? 8 : -8;
      const lastRank = us === 0 ? 7 : 0;
      if (((to >> 3) === lastRank) !== (promotion !== 0)) return -1;
      if (promotion !== 0) newType = PROMOTION_TYPES[promotion]!;
      if (to === from + step) {
        if (occ & toBit) return -1;
      } else if (to === from + 2 * step) {
        if ((from >> 3) !== (us === 0 ? 1 : 6) || (occ & (toBit | bit(from + step)))) return -1;
      } else if (pawnAttacks[us * 64 + from]! & toBit) {
        if (to === b.epSquare && !(occ & toBit)) captured = to - step;
        else if (!(enemy & toBit)) return -1;
      } else {
        return -1;
      }
      break;
    }
    case KNIGHT:
      if (promotion !== 0 || !(arrKnightAttacks[from]! & toBit)) return -1;
      break;
    case BISHOP:
      if (promotion !== 0 || !(bishopAttacks(from, occ) & toBit)) return -1;
      break;
    case ROOK:
      if (promotion !== 0 || !(rookAttacks(from, occ) & toBit)) return -1;
      break;
    case QUEEN:
      if (promotion !== 0 || !(queenAttacks(from, occ) & toBit)) return -1;
      break;
    default: { // KING
      if (promotion !== 0) return -1;
      if (arrKingAttacks[from]! & toBit) break;
      if (b.chess960) return -1;
      const home = us === 0 ? 4 : 60;
      const kingSide = to === home + 2;
      if (from !== home || (!kingSide && to !== home - 2)) return -1;
      const right = (kingSide ? 1 : 2) << (2 * us);
      if (!(b.castling & right)) return -1;
      rookFrom = kingSide ? home + 3 : home - 4;
      rookTo = kingSide ? home + 1 : home - 1;
      if (!(own & b.pieces[ROOK]! & bit(rookFrom))) return -1;
      if (occ & between(from, rookFrom)) return -1;
      // Not out of check, not through an attacked square; the landing square is checked below.
      if (attackersToBoard(b, from, them, occ) !== 0n || attackersToBoard(b, rookTo, them, occ) !== 0n) return -1;
    }
  }

  // Play the move on the sets and look at both kings.
  let occAfter = (occ & ~fromBit) | toBit;
  if (captured >= 0 && captured !== to) occAfter &= ~bit(captured);
  if (rookFrom >= 0) occAfter = (occAfter & ~bit(rookFrom)) | bit(rookTo);
  const enemyAfter = captured >= 0 ? enemy & ~bit(captured) : enemy;
  const pc = b.pieces;
  const ourKing = type === KING ? to : kingSquare(b, us);
  if (attackersFrom(pc[PAWN]! & enemyAfter, pc[KNIGHT]! & enemyAfter, pc[BISHOP]! & enemyAfter, pc[ROOK]! & enemyAfter,
    pc[QUEEN]! & enemyAfter, pc[KING]! & enemyAfter, them, ourKing, occAfter) !== 0n) return -1;

  const sets: bigint[] = [];
  for (let t = 0; t < 6; t++) sets.push(pc[t]! & own & ~fromBit);
  sets[newType] = sets[newType]! | toBit;
  if (rookFrom >= 0) sets[ROOK] = (sets[ROOK]! & ~bit(rookFrom)) | bit(rookTo);
  const givers = attackersFrom(sets[PAWN]!, sets[KNIGHT]!, sets[BISHOP]!, sets[ROOK]!, sets[QUEEN]!, sets[KING]!,
    us, enemyKing, occAfter);
  const mover = bit(rookFrom >= 0 ? rookTo : to);
  return (givers & mover ? 1 : 0) | (givers & ~mover ? 2 : 0);
}

// ---- The Backend's single-position functions not defined above (a Position is a Board) ----

export { attackersToBoard as attackersTo, checkersBoard as checkers, checkBlockBoard as checkBlockSquares, checkKindBoard as checkKind };

export const checkVariants: CheckVariants = {
  pinnedPiecesXray: pinnedXray,
  pinnedPiecesOppositeRays: (pos, color) => oppositeRays(pos, color).pinned,
  rookAttacksMagic: rookAttacks,
  bishopAttacksMagic: bishopAttacks,
};

// ---- Batch forms over packed positions ----

// The batch forms never make a bigint or an object per position: they read the packed words as int32
// halves through an Int32Array view of the same memory (word j of position i: lo at 20 * i + 2 * j,
// hi one further), analyse each king with the tables of sliders.ts, and write the results' halves
// through a view of `out`: several times faster than six single calls, or than unpacking every
// position into an object (the bench's checks section).

/**
 * One look from the king of `color` of the position at word offset `at` of the halves w (the packed
 * layout), through blockers.ts kingBlockers: out[o], out[o + 1] the enemy pieces checking it;
 * out[o + 2], out[o + 3] its pinned pieces; out[d], out[d + 1] the enemy's discovered-check candidates
 * (the king's blockers of the enemy's colour).
 */
export function kingLook(w: Int32Array, at: number, color: number, out: Int32Array, o: number, d: number): void {
  const ownLo = w[at + 2 * color]!, ownHi = w[at + 2 * color + 1]!;
  const kLo = w[at + 14]! & ownLo;
  const k = kLo !== 0 ? 31 - Math.clz32(kLo & -kLo) : 63 - Math.clz32((w[at + 15]! & ownHi) & -(w[at + 15]! & ownHi));
  kingBlockers(w, at, k, color ^ 1, w[at]! | w[at + 2]!, w[at + 1]! | w[at + 3]!, BLK, 0);
  const sLo = BLK[0]!, sHi = BLK[1]!;
  out[o] = BLK[4]!;
  out[o + 1] = BLK[5]!;
  out[o + 2] = sLo & ownLo;
  out[o + 3] = sHi & ownHi;
  out[d] = sLo & ~ownLo;
  out[d + 1] = sHi & ~ownHi;
}

/** kingLook's kingBlockers out-array. */
const BLK = new Int32Array(6);

/** kingLook's results for one king. */
const LOOK = new Int32Array(8);

// An empty array may be over a detached buffer, which no view can be made on.
const halvesView = (a: BigUint64Array): Int32Array => (a.length === 0 ? new Int32Array(0) : new Int32Array(a.buffer, a.byteOffset, a.length * 2));

function invalidPosition(fn: string, positions: BigUint64Array, i: number): RangeError {
  return new RangeError(`${fn}: position ${i}: ${packedProblem(positions, i * PACKED_POSITION_WORDS) ?? 'inconsistent words'}`);
}

/** Where a single-colour batch form reads kingLook's result. */
const CHECKERS = 0, PINNED = 2, DISCOVERED = 4;

function positionBatch(fn: string, part: number) {
  return (positions: BigUint64Array, color: number, out: BigUint64Array): void => {
    const w = halvesView(positions);
    const o = halvesView(out);
    for (let i = 0; i < out.length; i++) {
      const at = i * 2 * PACKED_POSITION_WORDS;
      if (!packedIsValid(w, at)) throw invalidPosition(fn, positions, i);
      const c = color === 2 ? w[at + 16]! & 1 : color;
      // Discovered-check candidates of c are found from the enemy king.
      kingLook(w, at, part === DISCOVERED ? c ^ 1 : c, LOOK, 0, 4);
      o[2 * i] = LOOK[part]!;
      o[2 * i + 1] = LOOK[part + 1]!;
    }
  };
}

export const checkersBatch = positionBatch('checkersBatch', CHECKERS);
export const pinnedPiecesBatch = positionBatch('pinnedPiecesBatch', PINNED);
export const discoveredCheckCandidatesBatch = positionBatch('discoveredCheckCandidatesBatch', DISCOVERED);

/**
 * Six words per position: checkers of white's king, white's pinned pieces, white's discovered-check
 * candidates, then black's three. A bad position is a RangeError (positions before it are written).
 */
export function checkAnalysisBatch(positions: BigUint64Array, out: BigUint64Array): void {
  const w = halvesView(positions);
  const o = halvesView(out);
  const n = positions.length / PACKED_POSITION_WORDS;
  for (let i = 0; i < n; i++) {
    const at = i * 2 * PACKED_POSITION_WORDS;
    if (!packedIsValid(w, at)) throw invalidPosition('checkAnalysisBatch', positions, i);
    const r = i * 12;
    // Each king's look gives its side's checkers and pinned pieces and the other side's candidates.
    kingLook(w, at, 0, o, r, r + 10);
    kingLook(w, at, 1, o, r + 6, r + 4);
  }
}
