/**
 * Sliding pieces: rook/bishop/queen attacks, Kogge-Stone ray attacks, x-rays, between/line;
 * twin of `native/core/sliders.h`.
 *
 * Method. A bigint cannot be split into numbers cheaply with `Number(BigInt.asIntN(32, x))`, but a
 * store into a one-element BigUint64Array and two reads of an Int32Array view over the same bytes
 * are cheap. So the sliders work on the
 * occupancy as two int32 halves (lo = a1..h4, hi = a5..h8): each line's six inner occupancy bits
 * are gathered into an index (rank: a shift; file, diagonals: one `Math.imul` collapse per half,
 * exact, no magic numbers to search), the attack halves come from small Int32Array tables built at
 * load, and the result leaves through the same scratch buffer as one bigint. Kindergarten bitboards
 * with a bigint multiply, classical rays with a bitscan and a square-by-square walk were all
 * several times slower in the bench.
 * No loop here carries a `BigInt.asIntN(64, ...)` value (see lib/backends/js/king.ts on the V8 crash).
 */
import { antiBits, diagBits, fileBits, rankBits } from './bitboard.js';

/** The conversion buffer: write a bitboard to SCRATCH[0], read its halves from HALVES[0] (lo) and HALVES[1] (hi). */
export const SCRATCH = new BigUint64Array(1);
export const HALVES = new Int32Array(SCRATCH.buffer);
if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  throw new Error('bitboard-patterns: the JS backend needs a little-endian platform');
}

/** An unsigned bigint from two int32 halves. */
export function fromHalves(lo: number, hi: number): bigint {
  HALVES[0] = lo;
  HALVES[1] = hi;
  return SCRATCH[0];
}

// ---- Tables ----

/** firstRankAttacks[pos * 64 + inner]: 8-bit attack mask of a slider on `pos` of an 8-square line whose inner occupancy (bits 1..6) is `inner`. */
const firstRankAttacks = new Uint8Array(512);
for (let pos = 0; pos < 8; pos++) {
  for (let inner = 0; inner < 64; inner++) {
    const occ = inner << 1;
    let m = 0;
    for (let x = pos + 1; x < 8; x++) { m |= 1 << x; if (occ & (1 << x)) break; }
    for (let x = pos - 1; x >= 0; x--) { m |= 1 << x; if (occ & (1 << x)) break; }
    firstRankAttacks[pos * 64 + inner] = m;
  }
}

/** Int32 halves of the diagonal and anti-diagonal through each square. */
const diagLo = new Int32Array(64);
const diagHi = new Int32Array(64);
const antiLo = new Int32Array(64);
const antiHi = new Int32Array(64);
/**
 * Attack halves by [(sq * 64 + inner) * 2 + half], one table per line kind: the backend's one set of
 * slider tables (the hot code reads them through rookHalves / bishopHalves / queenHalves below).
 */
const rankAtt = new Int32Array(8192);
const fileAtt = new Int32Array(8192);
const diagAtt = new Int32Array(8192);
const antiAtt = new Int32Array(8192);

/** Bits 0..3 of n moved to bits 0, 8, 16, 24: four ranks of one file. */
const spreadToFile = (n: number): number => (n & 1) | ((n & 2) << 7) | ((n & 4) << 14) | ((n & 8) << 21);

for (let sq = 0; sq < 64; sq++) {
  SCRATCH[0] = diagBits[sq]!;
  diagLo[sq] = HALVES[0]!;
  diagHi[sq] = HALVES[1]!;
  SCRATCH[0] = antiBits[sq]!;
  antiLo[sq] = HALVES[0]!;
  antiHi[sq] = HALVES[1]!;
  const r = sq >> 3;
  const f = sq & 7;
  for (let inner = 0; inner < 64; inner++) {
    const k = (sq * 64 + inner) * 2;
    const alongRank = firstRankAttacks[f * 64 + inner]!; // bit = file
    const alongFile = firstRankAttacks[r * 64 + inner]!; // bit = rank
    const rank = alongRank << ((r & 3) * 8);
    rankAtt[k] = r < 4 ? rank : 0;
    rankAtt[k + 1] = r < 4 ? 0 : rank;
    fileAtt[k] = spreadToFile(alongFile & 15) << f;
    fileAtt[k + 1] = spreadToFile(alongFile >> 4) << f;
    const files = Math.imul(alongRank, 0x01010101); // the attacked files, on every rank
    diagAtt[k] = files & diagLo[sq]!;
    diagAtt[k + 1] = files & diagHi[sq]!;
    antiAtt[k] = files & antiLo[sq]!;
    antiAtt[k + 1] = files & antiHi[sq]!;
  }
}

// ---- Sliders over int32 halves ----
// Index helpers: (sq * 64 + inner occupancy of the line) * 2, the offset into the tables above.

function rankIndex(sq: number, lo: number, hi: number): number {
  const r = sq >> 3;
  return (sq * 64 + (((r < 4 ? lo : hi) >>> ((r & 3) * 8 + 1)) & 63)) << 1;
}

function fileIndex(sq: number, lo: number, hi: number): number {
  const f = sq & 7;
  // 0x01020408 moves the bits at 0, 8, 16, 24 to 24..27 without carries: the four ranks of the half.
  const ranks = (Math.imul((lo >>> f) & 0x01010101, 0x01020408) >>> 24)
    | ((Math.imul((hi >>> f) & 0x01010101, 0x01020408) >>> 24) << 4);
  return (sq * 64 + ((ranks >>> 1) & 63)) << 1;
}

function diagIndex(sq: number, lo: number, hi: number): number {
  // A diagonal has at most one square per file: summing the bytes into the top byte gathers its files.
  const files = (Math.imul(lo & diagLo[sq]!, 0x01010101) | Math.imul(hi & diagHi[sq]!, 0x01010101)) >>> 25;
  return (sq * 64 + (files & 63)) << 1;
}

function antiIndex(sq: number, lo: number, hi: number): number {
  const files = (Math.imul(lo & antiLo[sq]!, 0x01010101) | Math.imul(hi & antiHi[sq]!, 0x01010101)) >>> 25;
  return (sq * 64 + (files & 63)) << 1;
}

// ---- Attack halves into an out-array (the hot code's form) ----

/** Rook attacks from sq over the occupancy halves (lo, hi), written to out[at] (lo) and out[at + 1] (hi). */
export function rookHalves(sq: number, lo: number, hi: number, out: Int32Array, at: number): void {
  const a = rankIndex(sq, lo, hi);
  const b = fileIndex(sq, lo, hi);
  out[at] = rankAtt[a]! | fileAtt[b]!;
  out[at + 1] = rankAtt[a + 1]! | fileAtt[b + 1]!;
}

/** Bishop attacks, as rookHalves. */
export function bishopHalves(sq: number, lo: number, hi: number, out: Int32Array, at: number): void {
  const a = diagIndex(sq, lo, hi);
  const b = antiIndex(sq, lo, hi);
  out[at] = diagAtt[a]! | antiAtt[b]!;
  out[at + 1] = diagAtt[a + 1]! | antiAtt[b + 1]!;
}

/** Queen attacks: rook and bishop halves in one pass. */
export function queenHalves(sq: number, lo: number, hi: number, out: Int32Array, at: number): void {
  const a = rankIndex(sq, lo, hi);
  const b = fileIndex(sq, lo, hi);
  const c = diagIndex(sq, lo, hi);
  const d = antiIndex(sq, lo, hi);
  out[at] = rankAtt[a]! | fileAtt[b]! | diagAtt[c]! | antiAtt[d]!;
  out[at + 1] = rankAtt[a + 1]! | fileAtt[b + 1]! | diagAtt[c + 1]! | antiAtt[d + 1]!;
}

// ---- The same on unsigned bigints: through the SCRATCH buffer, in and out ----

/** Rook attacks from sq (blockers included). */
export function rookAttacks(sq: number, occupied: bigint): bigint {
  SCRATCH[0] = occupied;
  rookHalves(sq, HALVES[0]!, HALVES[1]!, HALVES, 0);
  return SCRATCH[0]!;
}

/** Bishop attacks from sq (blockers included). */
export function bishopAttacks(sq: number, occupied: bigint): bigint {
  SCRATCH[0] = occupied;
  bishopHalves(sq, HALVES[0]!, HALVES[1]!, HALVES, 0);
  return SCRATCH[0]!;
}

/** Queen attacks from sq: rook | bishop, in one pass over the halves. */
export function queenAttacks(sq: number, occupied: bigint): bigint {
  SCRATCH[0] = occupied;
  queenHalves(sq, HALVES[0]!, HALVES[1]!, HALVES, 0);
  return SCRATCH[0]!;
}

function sliderBatch(fn: string, attacks: (sq: number, occ: bigint) => bigint) {
  return (squares: Uint8Array, occupied: BigUint64Array, out: BigUint64Array): void => {
    for (let i = 0; i < out.length; i++) {
      const sq = squares[i]!;
      if (sq > 63) throw new RangeError(`${fn}: square at index ${i} must be 0..63, got ${sq}`);
      out[i] = attacks(sq, occupied[i]!);
    }
  };
}

export const rookAttacksBatch = sliderBatch('rookAttacksBatch', rookAttacks);
export const bishopAttacksBatch = sliderBatch('bishopAttacksBatch', bishopAttacks);
export const queenAttacksBatch = sliderBatch('queenAttacksBatch', queenAttacks);

// ---- X-rays ----

/** The CPW x-ray: attacks through the first blockers that are in `blockers`. */
export function xrayRookAttacks(occupied: bigint, blockers: bigint, sq: number): bigint {
  const attacks = rookAttacks(sq, occupied);
  const first = blockers & attacks;
  return attacks ^ rookAttacks(sq, occupied ^ first);
}

export function xrayBishopAttacks(occupied: bigint, blockers: bigint, sq: number): bigint {
  const attacks = bishopAttacks(sq, occupied);
  const first = blockers & attacks;
  return attacks ^ bishopAttacks(sq, occupied ^ first);
}

// ---- Kogge-Stone ray attacks (set-wise, one direction) ----
// The Kogge-Stone Algorithm page: three doubling steps of generate and propagate, then one step
// more. On the int32 halves like the rest of this file, so no bigint arithmetic runs per step.

const NOT_A_HALF = 0xfefefefe | 0;
const NOT_H_HALF = 0x7f7f7f7f;
/** Per direction (RAY_DIRECTIONS order): the squares a step moves by (positive: towards h8) and its wrap mask (one half; both halves are alike). */
const RAY_STEP = [8, 9, 1, -7, -8, -9, -1, 7];
const RAY_WRAP = [-1, NOT_A_HALF, NOT_A_HALF, NOT_A_HALF, -1, NOT_H_HALF, NOT_H_HALF, NOT_H_HALF];

/** The low half of the set (lo, hi) shifted by s squares (-63..63; positive: towards h8). */
function shiftedLo(lo: number, hi: number, s: number): number {
  if (s >= 32) return 0;
  if (s > 0) return lo << s;
  if (s > -32) return (lo >>> -s) | (hi << (32 + s));
  return hi >>> (-s - 32);
}
/** The high half of the set (lo, hi) shifted by s squares. */
function shiftedHi(lo: number, hi: number, s: number): number {
  if (s >= 32) return lo << (s - 32);
  if (s > 0) return (hi << s) | (lo >>> (32 - s));
  if (s > -32) return hi >>> -s;
  return 0;
}

/**
 * Occluded fill of `sliders` through `empty` in `direction` (0 nort .. 7 noWe, RAY_DIRECTIONS),
 * then one step more, so the first blocker is included.
 */
export function rayAttacks(direction: number, sliders: bigint, empty: bigint): bigint {
  const s = RAY_STEP[direction]!, wrap = RAY_WRAP[direction]!;
  SCRATCH[0] = sliders;
  let gl = HALVES[0]!, gh = HALVES[1]!;
  SCRATCH[0] = empty;
  let pl = HALVES[0]! & wrap, ph = HALVES[1]! & wrap;
  let t = gl | (pl & shiftedLo(gl, gh, s));
  gh |= ph & shiftedHi(gl, gh, s); gl = t;
  t = pl & shiftedLo(pl, ph, s);
  ph &= shiftedHi(pl, ph, s); pl = t;
  t = gl | (pl & shiftedLo(gl, gh, 2 * s));
  gh |= ph & shiftedHi(gl, gh, 2 * s); gl = t;
  t = pl & shiftedLo(pl, ph, 2 * s);
  ph &= shiftedHi(pl, ph, 2 * s); pl = t;
  t = gl | (pl & shiftedLo(gl, gh, 4 * s));
  gh |= ph & shiftedHi(gl, gh, 4 * s); gl = t;
  return fromHalves(shiftedLo(gl, gh, s) & wrap, shiftedHi(gl, gh, s) & wrap);
}

// ---- between / line and the empty-board rays: built once, as int32 halves ----

/** Squares strictly between a and b on a shared line, halves at [(a * 64 + b) * 2]; 0 when not aligned or a === b. */
export const BETWEEN = new Int32Array(8192);
/** The whole line through a and b (edge to edge), halves at [(a * 64 + b) * 2]; 0 when not aligned or a === b. */
export const LINE = new Int32Array(8192);
/** Rook and bishop attacks on the empty board, halves at [sq * 2]. */
export const ROOK_EMPTY = new Int32Array(128);
export const BISHOP_EMPTY = new Int32Array(128);
{
  const FILE_STEP = [0, 1, 1, 1, 0, -1, -1, -1];
  const RANK_STEP = [1, 1, 0, -1, -1, -1, 0, 1];
  for (let a = 0; a < 64; a++) {
    const lines = [fileBits[a]!, diagBits[a]!, rankBits[a]!, antiBits[a]!]; // directions 0..3 and their opposites
    for (let d = 0; d < 8; d++) {
      SCRATCH[0] = lines[d & 3]!;
      const wholeLo = HALVES[0]!;
      const wholeHi = HALVES[1]!;
      let f = (a & 7) + FILE_STEP[d]!;
      let r = (a >> 3) + RANK_STEP[d]!;
      let passedLo = 0;
      let passedHi = 0;
      while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        const b = r * 8 + f;
        const at = (a * 64 + b) * 2;
        BETWEEN[at] = passedLo;
        BETWEEN[at + 1] = passedHi;
        LINE[at] = wholeLo;
        LINE[at + 1] = wholeHi;
        if (b < 32) passedLo |= 1 << b; else passedHi |= 1 << (b - 32);
        f += FILE_STEP[d]!;
        r += RANK_STEP[d]!;
      }
    }
    // Inner occupancy 0: the attacks on the empty board.
    const o = a * 64 * 2;
    ROOK_EMPTY[2 * a] = rankAtt[o]! | fileAtt[o]!;
    ROOK_EMPTY[2 * a + 1] = rankAtt[o + 1]! | fileAtt[o + 1]!;
    BISHOP_EMPTY[2 * a] = diagAtt[o]! | antiAtt[o]!;
    BISHOP_EMPTY[2 * a + 1] = diagAtt[o + 1]! | antiAtt[o + 1]!;
  }
}

// The public between / line return unsigned bigints: rows made from the halves on first use, so a
// lookup allocates nothing afterwards.
const betweenRows: (bigint[] | undefined)[] = new Array(64).fill(undefined);
const lineRows: (bigint[] | undefined)[] = new Array(64).fill(undefined);

function rowOf(table: Int32Array, a: number): bigint[] {
  const row: bigint[] = [];
  for (let b = 0; b < 64; b++) row.push(fromHalves(table[(a * 64 + b) * 2]!, table[(a * 64 + b) * 2 + 1]!));
  return row;
}

/** Squares strictly between a and b on a shared line; 0n when not aligned or a === b. */
export function between(a: number, b: number): bigint {
  const row = betweenRows[a];
  if (row !== undefined) return row[b]!;
  return (betweenRows[a] = rowOf(BETWEEN, a))[b]!;
}

/** The whole line through a and b (edge to edge); 0n when not aligned or a === b. */
export function line(a: number, b: number): bigint {
  const row = lineRows[a];
  if (row !== undefined) return row[b]!;
  return (lineRows[a] = rowOf(LINE, a))[b]!;
}
