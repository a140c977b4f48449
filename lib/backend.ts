/**
 * The contract both backends implement (native addon and pure-TS BigInt twin).
 *
 * The public facade (`lib/api.ts`) validates argument *types*, scalar ranges and typed-array
 * lengths before calling a backend, and allocates batch outputs, so backends receive:
 * - squares as integers 0..63, colours as 0 | 1, bitboards as bigints in 0..2^64-1;
 * - batch arrays of the right type, all of length `out.length`.
 * Backends must still range-check the *elements* of batch square arrays (a Uint8Array can hold
 * 64..255) and throw a RangeError naming the function and index; the native backend re-checks
 * everything else too (never trust JS), the JS backend need not.
 *
 * Semantics are defined once, here; both twins must give identical answers on every input.
 */

export type Bitboard = bigint;
export type Square = number;
export type Color = 0 | 1;

export const WHITE = 0 as const;
export const BLACK = 1 as const;

/** The eight knight direction steps of the seed, in this order. */
export const KNIGHT_DIRECTIONS = [
  'noNoEa', 'noEaEa', 'soEaEa', 'soSoEa', 'noNoWe', 'noWeWe', 'soWeWe', 'soSoWe',
] as const;
export type KnightDirection = (typeof KNIGHT_DIRECTIONS)[number];

/** Set -> set functions: the same shape, single call and batch. */
export const SET_FUNCTIONS = [
  'kingAttacksSet', 'knightAttacksSet', 'knightFill', 'forkTargetSquares', ...KNIGHT_DIRECTIONS,
] as const;
export type SetFunction = (typeof SET_FUNCTIONS)[number];

/** Square -> set lookups. */
export const SQUARE_FUNCTIONS = ['kingAttacks', 'knightAttacks'] as const;
export type SquareFunction = (typeof SQUARE_FUNCTIONS)[number];

type SetFns = { [K in SetFunction]: (set: bigint) => bigint };
type SetBatchFns = { [K in SetFunction as `${K}Batch`]: (sets: BigUint64Array, out: BigUint64Array) => void };
type SquareFns = { [K in SquareFunction]: (sq: number) => bigint };
type SquareBatchFns = { [K in SquareFunction as `${K}Batch`]: (squares: Uint8Array, out: BigUint64Array) => void };

/**
 * Implementation variants the seeds show side by side. The API uses the fastest (measured in
 * bench/); the others are kept so tests can prove they agree and the bench can compare them.
 */
export interface Variants {
  /** dirSet with the seed's if/else chain (precedence slip fixed: `(pattern & line) == pattern`). */
  distantCheckLinesBranchy(kingSq: number, taboo: bigint): number;
  /** dirSet as the seed's sum of boolean compares. */
  distantCheckLinesBranchless(kingSq: number, taboo: bigint): number;
  /**
   * dirSet with SSE4.1 `_mm_cmpeq_epi64` over the 64-entry {rank, file, diag, anti} table.
   * Native only; `undefined` on the JS backend and on builds/CPUs without SSE4.1.
   */
  distantCheckLinesSse41?: (kingSq: number, taboo: bigint) => number;
  /** Multiple knight attacks, the seed's east/west version. */
  knightAttacksSetEastWest(knights: bigint): bigint;
  /** Multiple knight attacks, the seed's l1/l2/r1/r2 version ("more parallelism"). */
  knightAttacksSetParallel(knights: bigint): bigint;
}

export interface Backend extends SetFns, SetBatchFns, SquareFns, SquareBatchFns {
  readonly name: 'native' | 'js';
  /** Which code path runs: 'sse4.1+popcnt', 'portable' (native) or 'bigint' (js). */
  readonly cpuPath: string;
  readonly variants: Variants;

  // ---- King (seed: King Pattern) ----

  /**
   * Pawn-shield mask for a king of `color` on `kingSq`.
   * Kings on their first two ranks (relative to colour) get six squares: three files on the two
   * ranks in front of the back rank (ranks 2-3 for white, 7-6 for black):
   * - king on files f-h: files f,g,h (the seed: kings on f1-h1 / f1-h2 get f2-h3);
   * - king on files a-c: files a,b,c (mirrored queen side);
   * - central king on d or e: the king file and its two neighbours (d -> c,d,e; e -> d,e,f).
   * Kings further up the board have no shield pattern: 0n.
   */
  pawnShieldMask(color: number, kingSq: number): bigint;
  pawnShieldMaskBatch(color: number, kingSqs: Uint8Array, out: BigUint64Array): void;
  /**
   * Dense index 0..63 of the pawns inside pawnShieldMask: bits 0-2 = the mask's three files
   * (west to east) on the rank next to the back rank, bits 3-5 = the same files one rank further.
   * Pawns outside the mask are ignored; 0 when the mask is empty.
   */
  pawnShieldIndex(color: number, kingSq: number, pawns: bigint): number;
  pawnShieldIndexBatch(color: number, kingSqs: Uint8Array, pawns: BigUint64Array, out: Uint8Array): void;
  /** kingAttacks(kingSq) & ~taboo. */
  kingMoveTargets(kingSq: number, taboo: bigint): bigint;
  kingMoveTargetsBatch(kingSqs: Uint8Array, taboo: BigUint64Array, out: BigUint64Array): void;
  /**
   * The seed's dirSet: 15 when the king has no move; otherwise 1 (rank), 2 (file),
   * 4 (diagonal a1-h8 direction) or 8 (anti-diagonal) when all move targets plus the king square lie
   * on that one line through the king; 0 otherwise.
   */
  distantCheckLines(kingSq: number, taboo: bigint): number;
  distantCheckLinesBatch(kingSqs: Uint8Array, taboo: BigUint64Array, out: Uint8Array): void;
  /**
   * Squares (ranks 2-7 only; pawns never stand on the back ranks) of enemy passers that a king of
   * `kingColor` on `kingSq` catches by the rule of the square, `sideToMove` giving the tempo.
   * A passer on p is caught iff chebyshev(kingSq, promotionSquare(p)) <= pawnMoves(p) + (king to move ? 1 : 0),
   * where pawnMoves counts a double push from the pawn's initial rank as one move, or the king is to
   * move and next to p (it takes the pawn at once: the race formula alone misses black Kb1 vs Pa2).
   */
  caughtableArea(kingColor: number, sideToMove: number, kingSq: number): bigint;
  caughtableAreaBatch(kingColor: number, sideToMove: number, kingSqs: Uint8Array, out: BigUint64Array): void;
  /** passers & ~caughtableArea(kingColor, sideToMove, kingSq). */
  uncatchablePassers(passers: bigint, kingColor: number, sideToMove: number, kingSq: number): bigint;
  uncatchablePassersBatch(passers: BigUint64Array, kingColor: number, sideToMove: number, kingSqs: Uint8Array, out: BigUint64Array): void;
  /** Steffan Westcott's flood fill: an 8-way path inside `path` joins a bit of `from` to a bit of `to`. */
  squaresAreConnected(from: bigint, to: bigint, path: bigint): boolean;
  /** out[i] = 1 when connected, else 0. */
  squaresAreConnectedBatch(from: BigUint64Array, to: BigUint64Array, path: BigUint64Array, out: Uint8Array): void;
  /** Fewest king steps from `from` to `to` standing only on squares of `path` (both ends included); -1 if none. */
  kingDistance(from: number, to: number, path: bigint): number;
  kingDistanceBatch(from: Uint8Array, to: Uint8Array, path: BigUint64Array, out: Int8Array): void;

  // ---- Knight (seed: Knight Pattern) ----

  /** Fewest knight moves from `from` to `to` standing only on squares of `path` (both ends included); -1 if none. */
  knightDistance(from: number, to: number, path: bigint): number;
  knightDistanceBatch(from: Uint8Array, to: Uint8Array, path: BigUint64Array, out: Int8Array): void;
  /**
   * forkTargetSquares(targets) & knightAttacksSet(knights) & ~ownPieces & ~enemyPawnAttacks & ~enemyKnightAttacks:
   * squares a knight of ours can reach, safe from pawns and knights, attacking two or more targets.
   */
  knightForkMoves(knights: bigint, targets: bigint, ownPieces: bigint, enemyPawnAttacks: bigint, enemyKnightAttacks: bigint): bigint;
  knightForkMovesBatch(knights: BigUint64Array, targets: BigUint64Array, ownPieces: BigUint64Array,
    enemyPawnAttacks: BigUint64Array, enemyKnightAttacks: BigUint64Array, out: BigUint64Array): void;
}
