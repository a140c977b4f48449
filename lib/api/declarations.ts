/**
 * One declaration per public function: its name (the key), its topic, the kind of each argument,
 * the kind of its result, its batch form, and whether it is a cheap lookup.
 *
 * Everything else follows from this table:
 * - the facade (`lib/api/create-api.ts`, `createApi`) checks each argument by its kind, in one place, then
 *   calls the backend member of the same name (or the declaration's `call`);
 * - cheap lookups are answered by the JS backend even when the native addon is loaded (a Node-API
 *   call costs more than a table lookup); everything else goes to the addon when it loads;
 * - the named exports of every entry point (`tsup.config.ts` writes them at build time);
 * - the tests' tables: bad input per argument kind (test/core/errors.test.ts) and native-vs-JS
 *   properties per argument kind (test/properties*.test.ts);
 * - the bench's api cases (bench/sections/api.mjs).
 *
 * A declaration is plain data plus, where the public function is more than "check the arguments,
 * call the backend member", a `call` that receives the checked arguments. The TypeScript signature
 * of each function is the declaration's type parameter.
 */
import type { Bitboard, CheckKind, Position, Square } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
/** A colour argument: 0 (white) or 1 (black), checked at run time. */
type Color = number;
import type { FenOptions, PositionInit, ToFenOptions } from '../core/position.js';
import type { PerftStats } from '../moves/moves.js';
import type { PerftAsyncOptions, PerftOptions } from '../moves/perft.js';

/** What an argument is; the facade's check for each kind is `SCALAR_CHECKS` in lib/api/create-api.ts. */
export type ArgKind =
  // scalars
  | 'square' | 'color' | 'bitboard' | 'squareOrSet' | 'direction' | 'depth' | 'divideDepth'
  // a signed integer of centipawns, -100000..100000 (seeGe's threshold)
  | 'centipawns'
  // optional scalars (undefined allowed): 'path' defaults to every square, 'optColor' to the side to move,
  // 'optBitboard' to what the function says, 'optBatchColor' to 2 (each position's side to move)
  | 'path' | 'optColor' | 'optBitboard' | 'batchColor' | 'optBatchColor'
  // arrays, one element per batch item: the first array argument sets the count n
  | 'squares' | 'sets' | 'paths'
  // positions and moves
  | 'position' | 'kbnkPosition' | 'positions' | 'positionList' | 'fen' | 'init' | 'uci' | 'moveBuffer'
  // options objects (undefined allowed): perft's `{ threads }`, the async perfts' `{ threads, signal }`,
  // parseFen's `{ chess960 }`, toFen's `{ shredder }`
  | 'perftOptions' | 'perftAsyncOptions' | 'fenOptions' | 'toFenOptions';

/** What a function returns (for documentation, the bench and the property tests). */
export type ResultKind =
  | 'bitboard' | 'number' | 'boolean' | 'string' | 'position' | 'checkKind' | 'strings' | 'moveCodes'
  | 'perftStats' | 'perftDivide' | 'u64' | 'u8' | 'i8' | 'f64';

/** The element type of a batch output, and the output's elements per batch item. */
export type OutKind = 'u64' | 'u8' | 'i8' | 'f64';

export type Topic = 'king' | 'knight' | 'sliders' | 'positions' | 'checks' | 'motifs' | 'moves' | 'kbnk' | 'outcome' | 'polyglot';

export interface Declaration {
  readonly topic: Topic;
  /** [argument name, kind] in order. */
  readonly args: readonly (readonly [name: string, kind: ArgKind])[];
  readonly result: ResultKind;
  /**
   * Batch forms: the type of the optional trailing `out` (allocated, zeroed, when left out) and
   * its elements per batch item (default 1).
   */
  readonly out?: OutKind;
  readonly outWidth?: number;
  /** This function is the batch form of that one (same argument names in plural). */
  readonly batchOf?: string;
  /** A cheap lookup: the facade answers it in JS even when the addon is loaded. */
  readonly cheap?: boolean;
  /** Where the backend holds it when not at `Backend[name]` (e.g. 'variants.pinnedPiecesXray'). */
  readonly member?: string;
  /** Lives in `api.variants`; 'optional' = present only on some builds or CPUs. */
  readonly variant?: 'always' | 'optional';
  /** Returns a Promise of its result kind (argument errors still throw at once). */
  readonly async?: boolean;
  /**
   * The body when it is more than `backend[member](...checkedArgs)`: called with the backend, then
   * the checked arguments. (Typed loosely: `BackendMembers` below makes `Backend` depend on this
   * table's type, so the table's type may not depend on `Backend`'s members.)
   */
  readonly call?: (...args: never[]) => unknown;
  /**
   * A deprecated older form: a call with one argument more than `args` (not undefined) is answered
   * by the declaration named here, with the same arguments (e.g. `isInsufficientMaterial(pos, color)`,
   * which is `hasInsufficientMaterial(pos, color)`).
   */
  readonly deprecatedForm?: string;
}

/** A declaration carrying its public TypeScript signature F (a phantom type: nothing at run time). */
export type Declared<F> = Declaration & { readonly __signature?: F };

/**
 * A declaration with its signature F. The overloads keep, in the type, whether it has a `call`, a
 * `member` or an `out` (the declaration's other fields are widened to Declaration), which is what
 * `BackendMembers` below derives the Backend's members from.
 */
function fn<F>(d: Declaration & { readonly call: Call }): Declared<F> & { readonly call: Call };
function fn<F>(d: Declaration & { readonly member: string }): Declared<F> & { readonly member: string };
function fn<F>(d: Declaration & { readonly out: OutKind }): Declared<F> & { readonly out: OutKind };
function fn<F>(d: Declaration): Declared<F>;
function fn<F>(d: Declaration): Declared<F> {
  return d;
}
type Call = NonNullable<Declaration['call']>;

type Sq = Square;
type BB = Bitboard;
type U8 = Uint8Array;
type U64 = BigUint64Array;
type SetFn = (set: BB) => BB;
type SetBatch = (sets: U64, out?: U64) => U64;

/** The set -> set functions (and their batch forms) of the King and Knight Pattern pages. */
const setFunction = (topic: Topic, cheap = true) => fn<SetFn>({ topic, args: [['set', 'bitboard']], result: 'bitboard', cheap });
const setBatch = (topic: Topic, batchOf: string) =>
  fn<SetBatch>({ topic, args: [['sets', 'sets']], result: 'u64', out: 'u64', batchOf });

// Implementations of the functions that are more than one backend call live with their topic.
import {
  attackersToCall, checkersCall, checkKindCall, isInCheckCall,
} from '../moves/checks.js';
import {
  createPositionCall, packPositionsCall, parseFenCall, toFenCall,
} from '../core/position.js';
import {
  legalMovesCall, legalMovesEncodedCall, makeMoveCall, perftDivideCall,
} from '../moves/moves.js';
import { perftAsyncCall, perftCall, perftStatsAsyncCall, perftStatsCall } from '../moves/perft.js';
import { kbnkEvalCall } from '../tablebases/kbnk.js';
import { seeCall, seeGeCall } from '../moves/motifs.js';

/**
 * Every public function of `createApi` (the variants under `variants.`). Keep topics together;
 * a new function is one entry here, its C++ core, its JS twin and its test (ARCHITECTURE.md).
 */
export const DECLARATIONS = {
  // ---------------------------------------------------------------- King Pattern
  /** Squares a king on `sq` attacks (table lookup). `kingAttacks(14) === 0xe0a0e0n` (g2). */
  kingAttacks: fn<(square: Sq) => BB>({ topic: 'king', args: [['square', 'square']], result: 'bitboard', cheap: true }),
  /** `kingAttacks` for every square of a Uint8Array. */
  kingAttacksBatch: fn<(squares: U8, out?: U64) => U64>({ topic: 'king', args: [['squares', 'squares']], result: 'u64', out: 'u64', batchOf: 'kingAttacks' }),
  /** Union of the attacks of every king in the set, by the King Pattern page's shift calculation. */
  kingAttacksSet: setFunction('king'),
  /** The batch form of `kingAttacksSet`: one result per element, into `out` (allocated, zeroed, when left out). */
  kingAttacksSetBatch: setBatch('king', 'kingAttacksSet'),
  /** One king path fill cycle (King Pattern): `kingAttacksSet(kings) | kings`. */
  kingFill: setFunction('king'),
  /** The batch form of `kingFill`: one result per element, into `out` (allocated, zeroed, when left out). */
  kingFillBatch: setBatch('king', 'kingFill'),
  /**
   * The pawn-shield mask of a king: six squares (three files, the two ranks in front of its back
   * rank) for a king on its first two ranks; wing kings (files a-c, f-h) get their wing's three
   * files, central kings (d, e) the king file and its neighbours; 0n for kings further up.
   */
  pawnShieldMask: fn<(color: Color, kingSq: Sq) => BB>({ topic: 'king', args: [['color', 'color'], ['kingSq', 'square']], result: 'bitboard', cheap: true }),
  /** The batch form of `pawnShieldMask`: one result per element, into `out` (allocated, zeroed, when left out). */
  pawnShieldMaskBatch: fn<(color: Color, kingSqs: U8, out?: U64) => U64>({ topic: 'king', args: [['color', 'color'], ['kingSqs', 'squares']], result: 'u64', out: 'u64', batchOf: 'pawnShieldMask' }),
  /**
   * Dense index 0..63 of the `pawns` inside the king's shield mask, to address a table of
   * shield patterns: bits 0-2 the mask's files west to east on the rank next to the back rank,
   * bits 3-5 the rank after. 0 when the mask is empty.
   */
  pawnShieldIndex: fn<(color: Color, kingSq: Sq, pawns: BB) => number>({ topic: 'king', args: [['color', 'color'], ['kingSq', 'square'], ['pawns', 'bitboard']], result: 'number', cheap: true }),
  /** The batch form of `pawnShieldIndex`: one result per element, into `out` (allocated, zeroed, when left out). */
  pawnShieldIndexBatch: fn<(color: Color, kingSqs: U8, pawns: U64, out?: U8) => U8>({ topic: 'king', args: [['color', 'color'], ['kingSqs', 'squares'], ['pawns', 'sets']], result: 'u8', out: 'u8', batchOf: 'pawnShieldIndex' }),
  /** King move targets: `kingAttacks(kingSq) & ~taboo` (taboo = own pieces | enemy attacks). */
  kingMoveTargets: fn<(kingSq: Sq, taboo: BB) => BB>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'bitboard', cheap: true }),
  /** The batch form of `kingMoveTargets`: one result per element, into `out` (allocated, zeroed, when left out). */
  kingMoveTargetsBatch: fn<(kingSqs: U8, taboo: U64, out?: U64) => U64>({ topic: 'king', args: [['kingSqs', 'squares'], ['taboo', 'sets']], result: 'u64', out: 'u64', batchOf: 'kingMoveTargets' }),
  /**
   * The King Pattern page's dirSet: lines along which a king is vulnerable to distant checks. 15 when it has no
   * move; 1 rank, 2 file, 4 diagonal, 8 anti-diagonal when all its moves stay on that line; else 0.
   */
  distantCheckLines: fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', cheap: true }),
  /** The batch form of `distantCheckLines`: one result per element, into `out` (allocated, zeroed, when left out). */
  distantCheckLinesBatch: fn<(kingSqs: U8, taboo: U64, out?: U8) => U8>({ topic: 'king', args: [['kingSqs', 'squares'], ['taboo', 'sets']], result: 'u8', out: 'u8', batchOf: 'distantCheckLines' }),
  /**
   * Set-wise rule of the square: squares (ranks 2-7) where an enemy passer is caught by a king of
   * `kingColor` on `kingSq`, with `sideToMove` to move. Double pushes from the initial rank count.
   * A passer on p is caught iff chebyshev(kingSq, promotion square of p) <= its pawn moves (+1 with
   * the king to move), or the king is to move and next to p (it takes the pawn at once).
   */
  caughtableArea: fn<(kingColor: Color, sideToMove: Color, kingSq: Sq) => BB>({ topic: 'king', args: [['kingColor', 'color'], ['sideToMove', 'color'], ['kingSq', 'square']], result: 'bitboard', cheap: true }),
  /** The batch form of `caughtableArea`: one result per element, into `out` (allocated, zeroed, when left out). */
  caughtableAreaBatch: fn<(kingColor: Color, sideToMove: Color, kingSqs: U8, out?: U64) => U64>({ topic: 'king', args: [['kingColor', 'color'], ['sideToMove', 'color'], ['kingSqs', 'squares']], result: 'u64', out: 'u64', batchOf: 'caughtableArea' }),
  /** The passers the king cannot catch: `passers & ~caughtableArea(kingColor, sideToMove, kingSq)`. */
  uncatchablePassers: fn<(passers: BB, kingColor: Color, sideToMove: Color, kingSq: Sq) => BB>({ topic: 'king', args: [['passers', 'bitboard'], ['kingColor', 'color'], ['sideToMove', 'color'], ['kingSq', 'square']], result: 'bitboard', cheap: true }),
  /** The batch form of `uncatchablePassers`: one result per element, into `out` (allocated, zeroed, when left out). */
  uncatchablePassersBatch: fn<(passers: U64, kingColor: Color, sideToMove: Color, kingSqs: U8, out?: U64) => U64>({ topic: 'king', args: [['passers', 'sets'], ['kingColor', 'color'], ['sideToMove', 'color'], ['kingSqs', 'squares']], result: 'u64', out: 'u64', batchOf: 'uncatchablePassers' }),
  /**
   * Westcott's flood fill: is there an 8-way connected path of `path` squares from `from` to `to`?
   * `from` and `to` are squares or sets (any bit of one reaching any bit of the other).
   */
  squaresAreConnected: fn<(from: Sq | BB, to: Sq | BB, path: BB) => boolean>({ topic: 'king', args: [['from', 'squareOrSet'], ['to', 'squareOrSet'], ['path', 'bitboard']], result: 'boolean' }),
  /** Batch form over sets; `out[i]` is 1 when connected, else 0. */
  squaresAreConnectedBatch: fn<(from: U64, to: U64, path: U64, out?: U8) => U8>({ topic: 'king', args: [['from', 'sets'], ['to', 'sets'], ['path', 'sets']], result: 'u8', out: 'u8', batchOf: 'squaresAreConnected' }),
  /**
   * The squares of `path` that Westcott's 8-way flood fill (the King Pattern page's
   * squaresAreConnected) reaches from `from`, run until it stops: the region of `path` a king on
   * `from` can walk to. `from` outside `path` reaches nothing.
   */
  kingPathFill: fn<(from: Sq | BB, path: BB) => BB>({ topic: 'king', args: [['from', 'squareOrSet'], ['path', 'bitboard']], result: 'bitboard' }),
  /** The batch form of `kingPathFill`: one result per element, into `out` (allocated, zeroed, when left out). */
  kingPathFillBatch: fn<(from: U64, path: U64, out?: U64) => U64>({ topic: 'king', args: [['from', 'sets'], ['path', 'sets']], result: 'u64', out: 'u64', batchOf: 'kingPathFill' }),
  /** Fewest king steps from `from` to `to` on squares of `path` (default: all), -1 if unreachable. */
  kingDistance: fn<(from: Sq, to: Sq, path?: BB) => number>({ topic: 'king', args: [['from', 'square'], ['to', 'square'], ['path', 'path']], result: 'number' }),
  /** Batch form; `path` defaults to all squares for every element; out is an Int8Array. */
  kingDistanceBatch: fn<(from: U8, to: U8, path?: U64, out?: Int8Array) => Int8Array>({ topic: 'king', args: [['from', 'squares'], ['to', 'squares'], ['path', 'paths']], result: 'i8', out: 'i8', batchOf: 'kingDistance' }),
  /**
   * Chebyshev distance of two squares (the Distance page, which the King Pattern page names: a king
   * attacks the squares at Chebyshev distance one): max(file distance, rank distance), 0..7, the
   * king steps between them on an empty board.
   * @example chebyshevDistance(6, 63) // g1 to h8: 7
   */
  chebyshevDistance: fn<(a: Sq, b: Sq) => number>({ topic: 'king', args: [['a', 'square'], ['b', 'square']], result: 'number', cheap: true }),
  /** The batch form of `chebyshevDistance`: one result per element, into `out` (allocated, zeroed, when left out). */
  chebyshevDistanceBatch: fn<(a: U8, b: U8, out?: U8) => U8>({ topic: 'king', args: [['a', 'squares'], ['b', 'squares']], result: 'u8', out: 'u8', batchOf: 'chebyshevDistance' }),

  // ---------------------------------------------------------------- Knight Pattern
  /** Squares a knight on `sq` attacks (table lookup). `knightAttacks(27) === 0x142200221400n` (d4). */
  knightAttacks: fn<(square: Sq) => BB>({ topic: 'knight', args: [['square', 'square']], result: 'bitboard', cheap: true }),
  /** The batch form of `knightAttacks`: one result per element, into `out` (allocated, zeroed, when left out). */
  knightAttacksBatch: fn<(squares: U8, out?: U64) => U64>({ topic: 'knight', args: [['squares', 'squares']], result: 'u64', out: 'u64', batchOf: 'knightAttacks' }),
  /** Union of the attacks of every knight in the set (the Knight Pattern page's parallel-prefix calculation). */
  knightAttacksSet: setFunction('knight'),
  /** The batch form of `knightAttacksSet`: one result per element, into `out` (allocated, zeroed, when left out). */
  knightAttacksSetBatch: setBatch('knight', 'knightAttacksSet'),
  /** One knight direction step of every bit, the Knight Pattern page's `noNoEa` (+17): wraps masked off. */
  noNoEa: setFunction('knight'),
  /** The batch form of `noNoEa`: one result per element, into `out` (allocated, zeroed, when left out). */
  noNoEaBatch: setBatch('knight', 'noNoEa'),
  /** The Knight Pattern page's `noEaEa` (+10). */
  noEaEa: setFunction('knight'),
  /** The batch form of `noEaEa`: one result per element, into `out` (allocated, zeroed, when left out). */
  noEaEaBatch: setBatch('knight', 'noEaEa'),
  /** The Knight Pattern page's `soEaEa` (-6). */
  soEaEa: setFunction('knight'),
  /** The batch form of `soEaEa`: one result per element, into `out` (allocated, zeroed, when left out). */
  soEaEaBatch: setBatch('knight', 'soEaEa'),
  /** The Knight Pattern page's `soSoEa` (-15). */
  soSoEa: setFunction('knight'),
  /** The batch form of `soSoEa`: one result per element, into `out` (allocated, zeroed, when left out). */
  soSoEaBatch: setBatch('knight', 'soSoEa'),
  /** The Knight Pattern page's `noNoWe` (+15). */
  noNoWe: setFunction('knight'),
  /** The batch form of `noNoWe`: one result per element, into `out` (allocated, zeroed, when left out). */
  noNoWeBatch: setBatch('knight', 'noNoWe'),
  /** The Knight Pattern page's `noWeWe` (+6). */
  noWeWe: setFunction('knight'),
  /** The batch form of `noWeWe`: one result per element, into `out` (allocated, zeroed, when left out). */
  noWeWeBatch: setBatch('knight', 'noWeWe'),
  /** The Knight Pattern page's `soWeWe` (-10). */
  soWeWe: setFunction('knight'),
  /** The batch form of `soWeWe`: one result per element, into `out` (allocated, zeroed, when left out). */
  soWeWeBatch: setBatch('knight', 'soWeWe'),
  /** The Knight Pattern page's `soSoWe` (-17). */
  soSoWe: setFunction('knight'),
  /** The batch form of `soSoWe`: one result per element, into `out` (allocated, zeroed, when left out). */
  soSoWeBatch: setBatch('knight', 'soSoWe'),
  /** One knight fill cycle: `knightAttacksSet(knights) | knights`. */
  knightFill: setFunction('knight'),
  /** The batch form of `knightFill`: one result per element, into `out` (allocated, zeroed, when left out). */
  knightFillBatch: setBatch('knight', 'knightFill'),
  /** Fewest knight moves from `from` to `to` on squares of `path` (default: all), -1 if unreachable. */
  knightDistance: fn<(from: Sq, to: Sq, path?: BB) => number>({ topic: 'knight', args: [['from', 'square'], ['to', 'square'], ['path', 'path']], result: 'number' }),
  /** The batch form of `knightDistance`: one result per element, into `out` (allocated, zeroed, when left out). */
  knightDistanceBatch: fn<(from: U8, to: U8, path?: U64, out?: Int8Array) => Int8Array>({ topic: 'knight', args: [['from', 'squares'], ['to', 'squares'], ['path', 'paths']], result: 'i8', out: 'i8', batchOf: 'knightDistance' }),
  /** Squares from which a knight attacks two or more of `targets` (the Knight Pattern page's branchless fork set). */
  forkTargetSquares: setFunction('knight'),
  /** The batch form of `forkTargetSquares`: one result per element, into `out` (allocated, zeroed, when left out). */
  forkTargetSquaresBatch: setBatch('knight', 'forkTargetSquares'),
  /**
   * Fork moves with the Knight Pattern page's forced properties: fork squares of `targets` that our `knights`
   * attack, not occupied by `ownPieces` and not attacked by enemy pawns or knights.
   */
  knightForkMoves: fn<(knights: BB, targets: BB, ownPieces: BB, enemyPawnAttacks: BB, enemyKnightAttacks: BB) => BB>({ topic: 'knight', args: [['knights', 'bitboard'], ['targets', 'bitboard'], ['ownPieces', 'bitboard'], ['enemyPawnAttacks', 'bitboard'], ['enemyKnightAttacks', 'bitboard']], result: 'bitboard', cheap: true }),
  /** The batch form of `knightForkMoves`: one result per element, into `out` (allocated, zeroed, when left out). */
  knightForkMovesBatch: fn<(knights: U64, targets: U64, ownPieces: U64, enemyPawnAttacks: U64, enemyKnightAttacks: U64, out?: U64) => U64>({ topic: 'knight', args: [['knights', 'sets'], ['targets', 'sets'], ['ownPieces', 'sets'], ['enemyPawnAttacks', 'sets'], ['enemyKnightAttacks', 'sets']], result: 'u64', out: 'u64', batchOf: 'knightForkMoves' }),

  // ---------------------------------------------------------------- Sliders and lines
  /** Rook attacks from `sq` through `occupied` (the first blocker on each ray included). */
  rookAttacks: fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', cheap: true }),
  /** The batch form of `rookAttacks`: one result per element, into `out` (allocated, zeroed, when left out). */
  rookAttacksBatch: fn<(squares: U8, occupied: U64, out?: U64) => U64>({ topic: 'sliders', args: [['squares', 'squares'], ['occupied', 'sets']], result: 'u64', out: 'u64', batchOf: 'rookAttacks' }),
  /** Bishop attacks from `sq` through `occupied`. */
  bishopAttacks: fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', cheap: true }),
  /** The batch form of `bishopAttacks`: one result per element, into `out` (allocated, zeroed, when left out). */
  bishopAttacksBatch: fn<(squares: U8, occupied: U64, out?: U64) => U64>({ topic: 'sliders', args: [['squares', 'squares'], ['occupied', 'sets']], result: 'u64', out: 'u64', batchOf: 'bishopAttacks' }),
  /** Queen attacks: rook | bishop. */
  queenAttacks: fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', cheap: true }),
  /** The batch form of `queenAttacks`: one result per element, into `out` (allocated, zeroed, when left out). */
  queenAttacksBatch: fn<(squares: U8, occupied: U64, out?: U64) => U64>({ topic: 'sliders', args: [['squares', 'squares'], ['occupied', 'sets']], result: 'u64', out: 'u64', batchOf: 'queenAttacks' }),
  /**
   * Set-wise occluded attacks of all `sliders` in one direction (0..7 or a RAY_DIRECTIONS name:
   * 'nort', 'noEa', 'east', 'soEa', 'sout', 'soWe', 'west', 'noWe'), by Kogge-Stone fill through
   * `empty`; the first non-empty square of each ray is included.
   */
  rayAttacks: fn<(direction: number | 'nort' | 'noEa' | 'east' | 'soEa' | 'sout' | 'soWe' | 'west' | 'noWe', sliders: BB, empty: BB) => BB>({ topic: 'sliders', args: [['direction', 'direction'], ['sliders', 'bitboard'], ['empty', 'bitboard']], result: 'bitboard', cheap: true }),
  /** Rook x-ray: the squares seen from `sq` through its first blockers that are in `blockers`. */
  xrayRookAttacks: fn<(occupied: BB, blockers: BB, square: Sq) => BB>({ topic: 'sliders', args: [['occupied', 'bitboard'], ['blockers', 'bitboard'], ['square', 'square']], result: 'bitboard', cheap: true }),
  /** Bishop x-ray, likewise. */
  xrayBishopAttacks: fn<(occupied: BB, blockers: BB, square: Sq) => BB>({ topic: 'sliders', args: [['occupied', 'bitboard'], ['blockers', 'bitboard'], ['square', 'square']], result: 'bitboard', cheap: true }),
  /** Squares strictly between `a` and `b` on a shared rank, file or diagonal; 0n otherwise (and for a === b). */
  between: fn<(a: Sq, b: Sq) => BB>({ topic: 'sliders', args: [['a', 'square'], ['b', 'square']], result: 'bitboard', cheap: true }),
  /** The whole line (edge to edge) through `a` and `b`; 0n when they share none (or a === b). */
  line: fn<(a: Sq, b: Sq) => BB>({ topic: 'sliders', args: [['a', 'square'], ['b', 'square']], result: 'bitboard', cheap: true }),

  // ---------------------------------------------------------------- Positions
  /**
   * FEN -> Position (six fields, or four with clocks 0 and 1). A FenError names the field and
   * the offending text; the board rules are in docs/batch-analysis.md (Layout). Chess960: a Shredder-FEN castling field
   * (rook file letters, `HFhf`) makes a Chess960 position by itself; `{ chess960: true }` also reads
   * X-FEN (`KQkq` for the outermost rooks, a file letter for an inner one).
   * @example parseFen('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9').chess960 // true
   */
  parseFen: fn<(fen: string, options?: FenOptions) => Position>({ topic: 'positions', args: [['fen', 'fen'], ['options', 'fenOptions']], result: 'position', call: parseFenCall }),
  /** Position -> FEN (six fields); a Chess960 position's castling as X-FEN, or Shredder-FEN with `{ shredder: true }`. */
  toFen: fn<(pos: Position, options?: ToFenOptions) => string>({ topic: 'positions', args: [['pos', 'position'], ['options', 'toFenOptions']], result: 'string', call: toFenCall }),
  /**
   * A Position from bitboards: `{ pieces: { white: { king, pawns, ... }, black: { ... } }, sideToMove,
   * castling, epSquare, halfmoveClock, fullmoveNumber }` or `{ colors, pieces: [6 sets], ... }`;
   * the same rules as FEN, broken ones a PositionError naming the field.
   */
  createPosition: fn<(init: PositionInit) => Position>({ topic: 'positions', args: [['init', 'init']], result: 'position', call: createPositionCall }),
  /**
   * The Polyglot opening-book format's key of the position (http://hgm.nubati.net/book_format.html),
   * the key Polyglot books are sorted by: the XOR of the format's published random numbers for each
   * piece on its square, each castling right, the en-passant file and white to move. The en-passant
   * file counts only when a pawn of the side to move stands beside the pawn that has just made the
   * double step (the format's rule; whether the capture is legal is not asked).
   * @example polyglotKey(parseFen(STARTING_FEN)) // 0x463b96181691fc9cn
   */
  polyglotKey: fn<(pos: Position) => bigint>({ topic: 'polyglot', args: [['pos', 'position']], result: 'u64' }),
  /** Positions -> one BigUint64Array (PACKED_POSITION_WORDS words each) for the batch forms. */
  packPositions: fn<(positions: readonly Position[]) => U64>({ topic: 'positions', args: [['positions', 'positionList']], result: 'u64', call: packPositionsCall }),

  // ---------------------------------------------------------------- Checks and Pinned Pieces
  /** Pieces of `byColor` attacking `sq`; sliders see through `occupied` (default: the position's pieces). */
  attackersTo: fn<(pos: Position, square: Sq, byColor: Color, occupied?: BB) => BB>({ topic: 'checks', args: [['pos', 'position'], ['square', 'square'], ['byColor', 'color'], ['occupied', 'optBitboard']], result: 'bitboard', call: attackersToCall }),
  /** Enemy pieces checking the king of `color` (default: the side to move). */
  checkers: fn<(pos: Position, color?: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'optColor']], result: 'bitboard', call: checkersCall }),
  /** Is the king of `color` (default: the side to move) in check? */
  isInCheck: fn<(pos: Position, color?: Color) => boolean>({ topic: 'checks', args: [['pos', 'position'], ['color', 'optColor']], result: 'boolean', call: isInCheckCall }),
  /** Pieces of `color` absolutely pinned to their king by enemy sliders. */
  pinnedPieces: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /** The enemy sliders pinning pieces of `color`. */
  pinners: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /** Pieces of `color` that give discovered check by leaving the line between one of its sliders and the enemy king. */
  discoveredCheckCandidates: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /**
   * Empty squares that block the one distant slider check on the king of `color` (strictly between
   * the king and its checker); 0n when not in check, in double check, or when the checker is a
   * knight, a pawn or an adjacent piece.
   */
  checkBlockSquares: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /** Where the piece on `sq` may move as far as pins allow: `between(king, pinner) | pinner`, or every square (unpinned, empty). */
  pinRay: fn<(pos: Position, square: Sq) => BB>({ topic: 'checks', args: [['pos', 'position'], ['square', 'square']], result: 'bitboard' }),
  /**
   * The check a UCI move ('e2e4', 'e7e8q', castling as the king's move 'e1g1', in a Chess960
   * position as the king taking its own rook 'g1h1') of the side to move
   * gives: 'none', 'direct', 'discovered' or 'double'. A malformed or illegal move is a MoveError.
   */
  checkKind: fn<(pos: Position, move: string) => CheckKind>({ topic: 'checks', args: [['pos', 'position'], ['move', 'uci']], result: 'checkKind', call: checkKindCall }),
  /**
   * True when `color` cannot checkmate by any series of legal moves (FIDE Laws of Chess 5.2.2 and
   * 9.6.2), judged by material and bishop square colours, the usual approximation (python-chess's,
   * chessops'): pawns, rooks or queens can mate; a lone knight (with the king) cannot when the other
   * side has only its king and queens (anything else can block its own king: a helpmate); bishops
   * cannot when every bishop on the board stands on one square colour and there is no pawn or knight
   * anywhere; a bare king cannot.
   * @example hasInsufficientMaterial(parseFen('8/8/4k3/8/8/2B5/8/4K3 w - - 0 1'), WHITE) // true
   */
  hasInsufficientMaterial: fn<(pos: Position, color: Color) => boolean>({ topic: 'outcome', args: [['pos', 'position'], ['color', 'color']], result: 'boolean' }),
  /**
   * True when neither side can checkmate by any series of legal moves (`hasInsufficientMaterial` of
   * both sides): the game is drawn (FIDE Laws of Chess 5.2.2), as python-chess's, chessops' and
   * shakmaty's `isInsufficientMaterial()` answer.
   *
   * Deprecated form: `isInsufficientMaterial(pos, color)` answers for one side, as
   * `hasInsufficientMaterial(pos, color)` does; it keeps working.
   * @example isInsufficientMaterial(parseFen('8/8/4k3/8/8/2B5/8/4K3 w - - 0 1')) // true
   */
  isInsufficientMaterial: fn<{
    /** @deprecated Answers for one side: use `hasInsufficientMaterial(pos, color)`. */
    (pos: Position, color: Color): boolean;
    (pos: Position): boolean;
  }>({ topic: 'outcome', args: [['pos', 'position']], result: 'boolean', deprecatedForm: 'hasInsufficientMaterial' }),
  /** checkers for each packed position; color 0 | 1, or 2 / omitted for each position's side to move. */
  checkersBatch: fn<(positions: U64, color?: number, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions'], ['color', 'optBatchColor']], result: 'u64', out: 'u64', batchOf: 'checkers' }),
  /** pinnedPieces for each packed position; color 0 | 1, or 2 for each position's side to move. */
  pinnedPiecesBatch: fn<(positions: U64, color: number, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions'], ['color', 'batchColor']], result: 'u64', out: 'u64', batchOf: 'pinnedPieces' }),
  /** discoveredCheckCandidates for each packed position; color 0 | 1, or 2 for each side to move. */
  discoveredCheckCandidatesBatch: fn<(positions: U64, color: number, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions'], ['color', 'batchColor']], result: 'u64', out: 'u64', batchOf: 'discoveredCheckCandidates' }),
  /**
   * The three batch forms above for both colours in one pass: CHECK_ANALYSIS_WORDS (6) words per
   * packed position, [checkers, pinnedPieces, discoveredCheckCandidates] of white, then of black;
   * `out` (6 * n words) is allocated when left out. Each position is checked in the pass: a bad one
   * is a RangeError naming its index, after which `out`'s contents are unspecified.
   */
  checkAnalysisBatch: fn<(positions: U64, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions']], result: 'u64', out: 'u64', outWidth: 6 }),

  // ---------------------------------------------------------------- Tactical motifs and SEE
  // Values: pawn 1, knight 3, bishop 3, rook 5, queen 9; the king has no value but counts as a
  // target. "Attacks" and "defends" use the current occupancy, as attackersTo does (pinned pieces and
  // the king attack and defend too). Chess Programming Wiki: Hanging Piece, Double Attack, Pin,
  // Skewer, Discovered Attack, Static Exchange Evaluation, SEE - The Swap Algorithm.
  /** `color`'s pieces other than the king that the other side attacks and `color` does not defend. */
  hanging: fn<(pos: Position, color: Color) => BB>({ topic: 'motifs', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /**
   * Forks: `color`'s pieces (any type, king and pawns included) that attack at least two targets: the
   * enemy king, an enemy piece worth more than the attacker (nothing is worth more than a king), or
   * an enemy piece its side does not defend.
   */
  forks: fn<(pos: Position, color: Color) => BB>({ topic: 'motifs', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /**
   * Relative pins: `color`'s pieces other than the king that an enemy slider attacks along a line it
   * moves on, where the next piece beyond them on that ray is a piece of `color` other than the
   * king, worth more than the pinned piece. (Pins to the king are `pinnedPieces`.)
   */
  relativePins: fn<(pos: Position, color: Color) => BB>({ topic: 'motifs', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /**
   * Skewers: `color`'s sliders that attack an enemy piece t1 along a ray whose next piece beyond t1
   * is an enemy piece t2, where t1 is the king or worth more than t2, and t2 is either undefended or
   * worth more than the slider.
   */
  skewers: fn<(pos: Position, color: Color) => BB>({ topic: 'motifs', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /**
   * Discovered attacks: `color`'s pieces (the king included) that stand alone between a `color`
   * slider and an enemy target on a line the slider moves on; a target is the enemy king, an enemy
   * piece worth more than the slider, or an undefended enemy piece. (The king case is
   * `discoveredCheckCandidates`.)
   */
  discoveredAttacks: fn<(pos: Position, color: Color) => BB>({ topic: 'motifs', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  /**
   * The static exchange evaluation of a legal UCI move in centipawns (pawn 100, knight 300, bishop
   * 300, rook 500, queen 900), by the chess programming wiki's swap algorithm: the move is made
   * (whatever it loses), then each side recaptures on the target square with its least valuable
   * attacker (of several of one type, the one on the lowest square, a1 = 0); attackers behind
   * sliders (x-rays) join as the pieces in front leave; either side may stop when going on would
   * lose more; a piece pinned to its own king (pins as they stand before the move) takes no part
   * while the piece pinning it is still on the board; the king recaptures only when the other side
   * has no attacker left (by the same rules); en passant takes a pawn; promotions count as pawns
   * (no promotion gain, the promoted piece is worth a pawn); castling is 0. A malformed or illegal
   * move is a MoveError.
   * @example see(parseFen('4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1'), 'd1d5') // RxP, PxR: 100 - 500 = -400
   */
  see: fn<(pos: Position, move: string) => number>({ topic: 'motifs', args: [['pos', 'position'], ['move', 'uci']], result: 'number', call: seeCall }),
  /**
   * `see(pos, move) >= threshold` (threshold: an integer -100000..100000 centipawns), answered with
   * bounds first (the exchange ends between the capture and the capture less the mover) and the
   * swap list only when they do not decide. A malformed or illegal move is a MoveError.
   */
  seeGe: fn<(pos: Position, move: string, threshold: number) => boolean>({ topic: 'motifs', args: [['pos', 'position'], ['move', 'uci'], ['threshold', 'centipawns']], result: 'boolean', call: seeGeCall }),

  // ---------------------------------------------------------------- Moves and perft
  /**
   * The legal moves of the side to move as UCI strings ('e2e4', 'e7e8q', castling 'e1g1'), sorted.
   * In a Chess960 position (`pos.chess960`) castling is the king taking its own rook ('e1h1', 'b1a1'),
   * the UCI_Chess960 form engines use, even when the setup is the standard one.
   */
  legalMoves: fn<(pos: Position) => string[]>({ topic: 'moves', args: [['pos', 'position']], result: 'strings', call: legalMovesCall }),
  /**
   * The legal moves as 16-bit codes (`from | to << 6 | promotion << 12`, see encodeMove), in the
   * backend's order: a subarray of `out` (a Uint16Array of at least MAX_MOVES = 256, allocated
   * when omitted) holding exactly the moves.
   */
  legalMovesEncoded: fn<(pos: Position, out?: Uint16Array) => Uint16Array>({ topic: 'moves', args: [['pos', 'position'], ['out', 'moveBuffer']], result: 'moveCodes', call: legalMovesEncodedCall }),
  /**
   * The position after a legal UCI move (castling as the king's move, 'e1g1'; in Chess960 the king
   * taking its own rook): a new validated
   * Position. Castling rights go when the king or a rook leaves its square or a rook is taken
   * there; the en-passant square is set only when an en-passant capture is legal next; the
   * halfmove clock restarts after a pawn move or a capture; the fullmove number grows after
   * Black's move (both clocks stop at 1,000,000). A malformed or illegal move is a MoveError.
   */
  makeMove: fn<(pos: Position, move: string) => Position>({ topic: 'moves', args: [['pos', 'position'], ['move', 'uci']], result: 'position', call: makeMoveCall, cheap: true }),
  /**
   * Leaf nodes of the legal move tree `depth` plies deep (0..20; depth 0 is 1), bulk-counted at the
   * last ply. `options.threads` (an integer 1..256, default all cores, os.availableParallelism()):
   * native threads the tree is split over near the root; the count is the same for every value
   * (the JS backend checks it and counts on the calling thread).
   */
  perft: fn<(pos: Position, depth: number, options?: PerftOptions) => number>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'depth'], ['options', 'perftOptions']], result: 'number', call: perftCall }),
  /**
   * perft with the chess programming wiki's columns, counted over the leaf moves: nodes, captures
   * (en passant included), enPassant, castles, promotions (each piece), checks (all kinds),
   * discoveryChecks (discovered only, not double), doubleChecks, checkmates. `options.threads` as
   * for perft.
   */
  perftStats: fn<(pos: Position, depth: number, options?: PerftOptions) => PerftStats>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'depth'], ['options', 'perftOptions']], result: 'perftStats', call: perftStatsCall }),
  /**
   * perft off the main thread (native: a libuv worker driving `options.threads` native threads,
   * default all cores; JS: on the main thread, one subtree per event-loop turn). `options.signal`
   * (an AbortSignal) cancels it: the promise rejects with the signal's reason (an AbortError unless
   * abort() was given another). Argument errors throw at once (TypeError, RangeError), as perft's do.
   */
  perftAsync: fn<(pos: Position, depth: number, options?: PerftAsyncOptions) => Promise<number>>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'depth'], ['options', 'perftAsyncOptions']], result: 'number', async: true, call: perftAsyncCall }),
  /** perftStats off the main thread, cancellable: as perftAsync. */
  perftStatsAsync: fn<(pos: Position, depth: number, options?: PerftAsyncOptions) => Promise<PerftStats>>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'depth'], ['options', 'perftAsyncOptions']], result: 'perftStats', async: true, call: perftStatsAsyncCall }),
  /**
   * Per legal move, the perft of the position after it at `depth - 1` (depth 1..20): a Map from UCI
   * move to count, in move order. The counts sum to perft(pos, depth); comparing two generators'
   * divides finds the move where they disagree.
   */
  perftDivide: fn<(pos: Position, depth: number) => Map<string, number>>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'divideDepth']], result: 'perftDivide', call: perftDivideCall }),
  /** perft of each packed position (packPositions), into a Float64Array (allocated when omitted). */
  perftBatch: fn<(positions: U64, depth: number, out?: Float64Array) => Float64Array>({ topic: 'moves', args: [['positions', 'positions'], ['depth', 'depth']], result: 'f64', out: 'f64', batchOf: 'perft' }),

  // ---------------------------------------------------------------- KBNK Endgame
  /**
   * The KBNK Endgame page's bit-twiddled Manhattan distance from `kingSq` to the nearest corner of the colour
   * of `bishopSq` (0..7): 0 in a1/h8 for a dark-squared bishop, in h1/a8 for a light-squared one.
   * The page's formula: `b = -1879048192*b >> 31; k = (k>>3) + ((k^b) & 7); k = (15*(k>>3)^k)-(k>>3)`.
   */
  cornerDistance: fn<(bishopSq: Sq, kingSq: Sq) => number>({ topic: 'kbnk', args: [['bishopSq', 'square'], ['kingSq', 'square']], result: 'number', cheap: true }),
  /**
   * Manhattan distance of two squares (the Chess Programming Wiki's Distance page, linked from the KBNK
   * Endgame page): file distance plus rank distance, 0..14; the mop-up evaluation's king-to-king term.
   * @example manhattanDistance(0, 63) // a1 to h8: 14
   */
  manhattanDistance: fn<(a: Sq, b: Sq) => number>({ topic: 'kbnk', args: [['a', 'square'], ['b', 'square']], result: 'number', cheap: true }),
  /**
   * The KBNK mop-up score of a KBNK Position (either colour strong), from the strong side's view
   * whoever is to move: 0..154, higher = better for the side with bishop and knight.
   * `(7 - cornerDistance(bishop, weakKing)) * 16 + (7 - chebyshev(kings)) * 4 + (14 - manhattan(kings))`:
   * a step of the lone king towards a corner of the bishop's colour (16) outweighs any change of
   * the king distance (at most 6). Other material is a RangeError.
   */
  kbnkEval: fn<(pos: Position) => number>({ topic: 'kbnk', args: [['pos', 'kbnkPosition']], result: 'number', cheap: true, call: kbnkEvalCall }),
  /** kbnkEval from four squares (no legality check): strong king, bishop, knight, weak king. */
  kbnkEvalSquares: fn<(strongKing: Sq, bishop: Sq, knight: Sq, weakKing: Sq) => number>({ topic: 'kbnk', args: [['strongKing', 'square'], ['bishop', 'square'], ['knight', 'square'], ['weakKing', 'square']], result: 'number', cheap: true, member: 'kbnkEval' }),

  // ---------------------------------------------------------------- Variants (api.variants)
  /** Pinned pieces by the x-ray method of the Checks and Pinned Pieces page (x-ray attacks from the king through its own pieces). */
  'variants.pinnedPiecesXray': fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard', variant: 'always', member: 'variants.pinnedPiecesXray' }),
  /** Pinned pieces by opposite ray-directions (the Checks and Pinned Pieces page's DirGolem proposal). */
  'variants.pinnedPiecesOppositeRays': fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard', variant: 'always', member: 'variants.pinnedPiecesOppositeRays' }),
  /** Rook attacks by magic multiplication (native) / the JS method (js). */
  'variants.rookAttacksMagic': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'always', member: 'variants.rookAttacksMagic' }),
  /** Bishop attacks by magic multiplication (native) / the JS method (js). */
  'variants.bishopAttacksMagic': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'always', member: 'variants.bishopAttacksMagic' }),
  /** Rook attacks indexed with BMI2 PEXT: native on CPUs with BMI2 only, else undefined. */
  'variants.rookAttacksPext': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'optional', member: 'variants.rookAttacksPext' }),
  /** Bishop attacks indexed with BMI2 PEXT: native on CPUs with BMI2 only, else undefined. */
  'variants.bishopAttacksPext': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'optional', member: 'variants.bishopAttacksPext' }),
  /** distantCheckLines with the King Pattern page's if/else dirSet chain. */
  'variants.distantCheckLinesBranchy': fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', variant: 'always', member: 'variants.distantCheckLinesBranchy' }),
  /** distantCheckLines with the King Pattern page's branchless dirSet (a sum of compares). */
  'variants.distantCheckLinesBranchless': fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', variant: 'always', member: 'variants.distantCheckLinesBranchless' }),
  /** distantCheckLines with the King Pattern page's SSE4.1 dirSet: native with SSE4.1 only, else undefined. */
  'variants.distantCheckLinesSse41': fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', variant: 'optional', member: 'variants.distantCheckLinesSse41' }),
  /** Multiple knight attacks, the Knight Pattern page's east/west version. */
  'variants.knightAttacksSetEastWest': fn<(knights: BB) => BB>({ topic: 'knight', args: [['knights', 'bitboard']], result: 'bitboard', variant: 'always', member: 'variants.knightAttacksSetEastWest' }),
  /** Multiple knight attacks, the Knight Pattern page's l1/l2/r1/r2 version (more parallelism). */
  'variants.knightAttacksSetParallel': fn<(knights: BB) => BB>({ topic: 'knight', args: [['knights', 'bitboard']], result: 'bitboard', variant: 'always', member: 'variants.knightAttacksSetParallel' }),
} as const satisfies Record<string, Declaration>;

export type Declarations = typeof DECLARATIONS;
export type FunctionName = keyof Declarations;
/** The signature a declaration carries. */
export type SignatureOf<D> = D extends { readonly __signature?: infer F } ? F : never;

/** Top-level public function names (no variants), in declaration order: the entry points' named exports. */
export const FUNCTION_NAMES: readonly string[] = Object.keys(DECLARATIONS).filter((n) => !n.includes('.'));
/** `variants.x` names. */
export const VARIANT_NAMES: readonly string[] = Object.keys(DECLARATIONS).filter((n) => n.startsWith('variants.'));

/** The declaration of a public function name (`variants.x` for a variant), or undefined. */
export function declarationOf(name: string): Declaration | undefined {
  return (DECLARATIONS as Record<string, Declaration>)[name];
}

// ---------------------------------------------------------------- the Backend members they give

/**
 * What a backend receives for an argument of the public type T: the facade has checked it and
 * filled its default, so a square-or-set is a bigint (`Sq | BB`), a direction name a number, an
 * optional argument present.
 */
type BackendArg<T> = bigint extends Exclude<T, undefined> ? bigint
  : number extends Exclude<T, undefined> ? number : Exclude<T, undefined>;

/**
 * The Backend member of a declaration: its public signature with each argument as the backend
 * receives it (argument names kept); a batch form (`out`) takes `out` and returns nothing.
 */
type BackendMember<D> = SignatureOf<D> extends (...args: infer P) => infer R
  ? (...args: { [I in keyof P]-?: BackendArg<P[I]> }) => (D extends { readonly out: OutKind } ? void : R)
  : never;

/** The plain declarations: no `call`, no `member`, not a variant. Their backend member is `name`. */
type PlainName<K> = K extends `${string}.${string}` ? never
  : K extends FunctionName ? Declarations[K] extends { readonly call: Call } | { readonly member: string } ? never : K : never;

/**
 * The Backend members the declarations give: one per plain declaration, typed from its signature.
 * `Backend` (lib/backends/contract.ts) extends them by the augmentation below, so a JS twin or an
 * adapter with a missing member or a wrong signature is a compile error where it is assigned to
 * `Backend`; contract.ts lists by hand only the members no plain declaration gives.
 */
export type BackendMembers = { [K in FunctionName as PlainName<K>]: BackendMember<Declarations[K]> };

declare module '../backends/contract.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DeclaredBackendMembers extends BackendMembers {}
}
