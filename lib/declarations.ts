/**
 * One declaration per public function: its name (the key), its topic, the kind of each argument,
 * the kind of its result, its batch form, and whether it is a cheap lookup.
 *
 * Everything else follows from this table:
 * - the facade (`lib/api.ts`, `createApi`) checks each argument by its kind, in one place, then
 *   calls the backend member of the same name (or the declaration's `call`);
 * - cheap lookups are answered by the JS backend even when the native addon is loaded (a Node-API
 *   call costs more than a table lookup); everything else goes to the addon when it loads;
 * - the named exports of every entry point (`tsup.config.ts` writes them at build time);
 * - the tests' tables: bad input per argument kind (test/errors.test.ts) and native-vs-JS
 *   properties per argument kind (test/properties*.test.ts);
 * - the bench's api cases (bench/sections/api.mjs).
 *
 * A declaration is plain data plus, where the public function is more than "check the arguments,
 * call the backend member", a `call` that receives the checked arguments. The TypeScript signature
 * of each function is the declaration's type parameter.
 */
import type { Backend, Bitboard, CheckKind, Position, Square } from './backend.js';
/** A colour argument: 0 (white) or 1 (black), checked at run time. */
type Color = number;
import type { PositionInit } from './position.js';
import type { PerftStats } from './moves.js';

/** What an argument is; the facade's check for each kind is in lib/validate.ts (`ARG_CHECKS`). */
export type ArgKind =
  // scalars
  | 'square' | 'color' | 'bitboard' | 'squareOrSet' | 'direction' | 'depth' | 'divideDepth'
  // optional scalars (undefined allowed): 'path' defaults to every square, 'optColor' to the side to move,
  // 'optBitboard' to what the function says, 'optBatchColor' to 2 (each position's side to move)
  | 'path' | 'optColor' | 'optBitboard' | 'batchColor' | 'optBatchColor'
  // arrays, one element per batch item: the first array argument sets the count n
  | 'squares' | 'sets' | 'paths'
  // positions and moves
  | 'position' | 'kbnkPosition' | 'positions' | 'positionList' | 'fen' | 'init' | 'uci' | 'moveBuffer';

/** What a function returns (for documentation, the bench and the property tests). */
export type ResultKind =
  | 'bitboard' | 'number' | 'boolean' | 'string' | 'position' | 'checkKind' | 'strings' | 'moveCodes'
  | 'perftStats' | 'perftDivide' | 'u64' | 'u8' | 'i8' | 'f64';

/** The element type of a batch output, and the output's elements per batch item. */
export type OutKind = 'u64' | 'u8' | 'i8' | 'f64';

export type Topic = 'king' | 'knight' | 'sliders' | 'positions' | 'checks' | 'moves' | 'kbnk';

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
  /** Where the backend holds it when not at `Backend[name]` (e.g. 'checkVariants.pinnedPiecesXray'). */
  readonly member?: string;
  /** Lives in `api.variants`; 'optional' = present only on some builds or CPUs. */
  readonly variant?: 'always' | 'optional';
  /** The body when it is more than `backend[member](...checkedArgs)`. */
  readonly call?: (b: Backend, ...args: never[]) => unknown;
}

/** A declaration carrying its public TypeScript signature F (a phantom type: nothing at run time). */
export type Declared<F> = Declaration & { readonly __signature?: F };

const fn = <F>(d: Declaration): Declared<F> => d;

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
} from './checks.js';
import {
  createPositionCall, packPositionsCall, parseFenCall, toFenCall,
} from './position.js';
import {
  legalMovesCall, legalMovesEncodedCall, makeMoveCall, perftDivideCall, perftStatsCall,
} from './moves.js';
import { kbnkEvalCall } from './kbnk.js';

/**
 * Every public function of `createApi` (the variants under `variants.`). Keep topics together;
 * a new function is one entry here, its backend members and its tests (ARCHITECTURE.md).
 */
export const DECLARATIONS = {
  // ---------------------------------------------------------------- King Pattern
  kingAttacks: fn<(square: Sq) => BB>({ topic: 'king', args: [['square', 'square']], result: 'bitboard', cheap: true }),
  kingAttacksBatch: fn<(squares: U8, out?: U64) => U64>({ topic: 'king', args: [['squares', 'squares']], result: 'u64', out: 'u64', batchOf: 'kingAttacks' }),
  kingAttacksSet: setFunction('king'),
  kingAttacksSetBatch: setBatch('king', 'kingAttacksSet'),
  /** One king path fill cycle (King Pattern): `kingAttacksSet(kings) | kings`. */
  kingFill: setFunction('king'),
  kingFillBatch: setBatch('king', 'kingFill'),
  pawnShieldMask: fn<(color: Color, kingSq: Sq) => BB>({ topic: 'king', args: [['color', 'color'], ['kingSq', 'square']], result: 'bitboard', cheap: true }),
  pawnShieldMaskBatch: fn<(color: Color, kingSqs: U8, out?: U64) => U64>({ topic: 'king', args: [['color', 'color'], ['kingSqs', 'squares']], result: 'u64', out: 'u64', batchOf: 'pawnShieldMask' }),
  pawnShieldIndex: fn<(color: Color, kingSq: Sq, pawns: BB) => number>({ topic: 'king', args: [['color', 'color'], ['kingSq', 'square'], ['pawns', 'bitboard']], result: 'number', cheap: true }),
  pawnShieldIndexBatch: fn<(color: Color, kingSqs: U8, pawns: U64, out?: U8) => U8>({ topic: 'king', args: [['color', 'color'], ['kingSqs', 'squares'], ['pawns', 'sets']], result: 'u8', out: 'u8', batchOf: 'pawnShieldIndex' }),
  kingMoveTargets: fn<(kingSq: Sq, taboo: BB) => BB>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'bitboard', cheap: true }),
  kingMoveTargetsBatch: fn<(kingSqs: U8, taboo: U64, out?: U64) => U64>({ topic: 'king', args: [['kingSqs', 'squares'], ['taboo', 'sets']], result: 'u64', out: 'u64', batchOf: 'kingMoveTargets' }),
  distantCheckLines: fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', cheap: true }),
  distantCheckLinesBatch: fn<(kingSqs: U8, taboo: U64, out?: U8) => U8>({ topic: 'king', args: [['kingSqs', 'squares'], ['taboo', 'sets']], result: 'u8', out: 'u8', batchOf: 'distantCheckLines' }),
  caughtableArea: fn<(kingColor: Color, sideToMove: Color, kingSq: Sq) => BB>({ topic: 'king', args: [['kingColor', 'color'], ['sideToMove', 'color'], ['kingSq', 'square']], result: 'bitboard', cheap: true }),
  caughtableAreaBatch: fn<(kingColor: Color, sideToMove: Color, kingSqs: U8, out?: U64) => U64>({ topic: 'king', args: [['kingColor', 'color'], ['sideToMove', 'color'], ['kingSqs', 'squares']], result: 'u64', out: 'u64', batchOf: 'caughtableArea' }),
  uncatchablePassers: fn<(passers: BB, kingColor: Color, sideToMove: Color, kingSq: Sq) => BB>({ topic: 'king', args: [['passers', 'bitboard'], ['kingColor', 'color'], ['sideToMove', 'color'], ['kingSq', 'square']], result: 'bitboard', cheap: true }),
  uncatchablePassersBatch: fn<(passers: U64, kingColor: Color, sideToMove: Color, kingSqs: U8, out?: U64) => U64>({ topic: 'king', args: [['passers', 'sets'], ['kingColor', 'color'], ['sideToMove', 'color'], ['kingSqs', 'squares']], result: 'u64', out: 'u64', batchOf: 'uncatchablePassers' }),
  squaresAreConnected: fn<(from: Sq | BB, to: Sq | BB, path: BB) => boolean>({ topic: 'king', args: [['from', 'squareOrSet'], ['to', 'squareOrSet'], ['path', 'bitboard']], result: 'boolean' }),
  squaresAreConnectedBatch: fn<(from: U64, to: U64, path: U64, out?: U8) => U8>({ topic: 'king', args: [['from', 'sets'], ['to', 'sets'], ['path', 'sets']], result: 'u8', out: 'u8', batchOf: 'squaresAreConnected' }),
  kingDistance: fn<(from: Sq, to: Sq, path?: BB) => number>({ topic: 'king', args: [['from', 'square'], ['to', 'square'], ['path', 'path']], result: 'number' }),
  kingDistanceBatch: fn<(from: U8, to: U8, path?: U64, out?: Int8Array) => Int8Array>({ topic: 'king', args: [['from', 'squares'], ['to', 'squares'], ['path', 'paths']], result: 'i8', out: 'i8', batchOf: 'kingDistance' }),

  // ---------------------------------------------------------------- Knight Pattern
  knightAttacks: fn<(square: Sq) => BB>({ topic: 'knight', args: [['square', 'square']], result: 'bitboard', cheap: true }),
  knightAttacksBatch: fn<(squares: U8, out?: U64) => U64>({ topic: 'knight', args: [['squares', 'squares']], result: 'u64', out: 'u64', batchOf: 'knightAttacks' }),
  knightAttacksSet: setFunction('knight'),
  knightAttacksSetBatch: setBatch('knight', 'knightAttacksSet'),
  noNoEa: setFunction('knight'),
  noNoEaBatch: setBatch('knight', 'noNoEa'),
  noEaEa: setFunction('knight'),
  noEaEaBatch: setBatch('knight', 'noEaEa'),
  soEaEa: setFunction('knight'),
  soEaEaBatch: setBatch('knight', 'soEaEa'),
  soSoEa: setFunction('knight'),
  soSoEaBatch: setBatch('knight', 'soSoEa'),
  noNoWe: setFunction('knight'),
  noNoWeBatch: setBatch('knight', 'noNoWe'),
  noWeWe: setFunction('knight'),
  noWeWeBatch: setBatch('knight', 'noWeWe'),
  soWeWe: setFunction('knight'),
  soWeWeBatch: setBatch('knight', 'soWeWe'),
  soSoWe: setFunction('knight'),
  soSoWeBatch: setBatch('knight', 'soSoWe'),
  knightFill: setFunction('knight'),
  knightFillBatch: setBatch('knight', 'knightFill'),
  knightDistance: fn<(from: Sq, to: Sq, path?: BB) => number>({ topic: 'knight', args: [['from', 'square'], ['to', 'square'], ['path', 'path']], result: 'number' }),
  knightDistanceBatch: fn<(from: U8, to: U8, path?: U64, out?: Int8Array) => Int8Array>({ topic: 'knight', args: [['from', 'squares'], ['to', 'squares'], ['path', 'paths']], result: 'i8', out: 'i8', batchOf: 'knightDistance' }),
  forkTargetSquares: setFunction('knight'),
  forkTargetSquaresBatch: setBatch('knight', 'forkTargetSquares'),
  knightForkMoves: fn<(knights: BB, targets: BB, ownPieces: BB, enemyPawnAttacks: BB, enemyKnightAttacks: BB) => BB>({ topic: 'knight', args: [['knights', 'bitboard'], ['targets', 'bitboard'], ['ownPieces', 'bitboard'], ['enemyPawnAttacks', 'bitboard'], ['enemyKnightAttacks', 'bitboard']], result: 'bitboard', cheap: true }),
  knightForkMovesBatch: fn<(knights: U64, targets: U64, ownPieces: U64, enemyPawnAttacks: U64, enemyKnightAttacks: U64, out?: U64) => U64>({ topic: 'knight', args: [['knights', 'sets'], ['targets', 'sets'], ['ownPieces', 'sets'], ['enemyPawnAttacks', 'sets'], ['enemyKnightAttacks', 'sets']], result: 'u64', out: 'u64', batchOf: 'knightForkMoves' }),

  // ---------------------------------------------------------------- Sliders and lines
  rookAttacks: fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', cheap: true }),
  rookAttacksBatch: fn<(squares: U8, occupied: U64, out?: U64) => U64>({ topic: 'sliders', args: [['squares', 'squares'], ['occupied', 'sets']], result: 'u64', out: 'u64', batchOf: 'rookAttacks' }),
  bishopAttacks: fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', cheap: true }),
  bishopAttacksBatch: fn<(squares: U8, occupied: U64, out?: U64) => U64>({ topic: 'sliders', args: [['squares', 'squares'], ['occupied', 'sets']], result: 'u64', out: 'u64', batchOf: 'bishopAttacks' }),
  queenAttacks: fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', cheap: true }),
  queenAttacksBatch: fn<(squares: U8, occupied: U64, out?: U64) => U64>({ topic: 'sliders', args: [['squares', 'squares'], ['occupied', 'sets']], result: 'u64', out: 'u64', batchOf: 'queenAttacks' }),
  rayAttacks: fn<(direction: number | 'nort' | 'noEa' | 'east' | 'soEa' | 'sout' | 'soWe' | 'west' | 'noWe', sliders: BB, empty: BB) => BB>({ topic: 'sliders', args: [['direction', 'direction'], ['sliders', 'bitboard'], ['empty', 'bitboard']], result: 'bitboard', cheap: true }),
  xrayRookAttacks: fn<(occupied: BB, blockers: BB, square: Sq) => BB>({ topic: 'sliders', args: [['occupied', 'bitboard'], ['blockers', 'bitboard'], ['square', 'square']], result: 'bitboard', cheap: true }),
  xrayBishopAttacks: fn<(occupied: BB, blockers: BB, square: Sq) => BB>({ topic: 'sliders', args: [['occupied', 'bitboard'], ['blockers', 'bitboard'], ['square', 'square']], result: 'bitboard', cheap: true }),
  between: fn<(a: Sq, b: Sq) => BB>({ topic: 'sliders', args: [['a', 'square'], ['b', 'square']], result: 'bitboard', cheap: true }),
  line: fn<(a: Sq, b: Sq) => BB>({ topic: 'sliders', args: [['a', 'square'], ['b', 'square']], result: 'bitboard', cheap: true }),

  // ---------------------------------------------------------------- Positions
  parseFen: fn<(fen: string) => Position>({ topic: 'positions', args: [['fen', 'fen']], result: 'position', call: parseFenCall }),
  toFen: fn<(pos: Position) => string>({ topic: 'positions', args: [['pos', 'position']], result: 'string', call: toFenCall }),
  createPosition: fn<(init: PositionInit) => Position>({ topic: 'positions', args: [['init', 'init']], result: 'position', call: createPositionCall }),
  packPositions: fn<(positions: readonly Position[]) => U64>({ topic: 'positions', args: [['positions', 'positionList']], result: 'u64', call: packPositionsCall }),

  // ---------------------------------------------------------------- Checks and Pinned Pieces
  attackersTo: fn<(pos: Position, square: Sq, byColor: Color, occupied?: BB) => BB>({ topic: 'checks', args: [['pos', 'position'], ['square', 'square'], ['byColor', 'color'], ['occupied', 'optBitboard']], result: 'bitboard', call: attackersToCall }),
  checkers: fn<(pos: Position, color?: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'optColor']], result: 'bitboard', call: checkersCall }),
  isInCheck: fn<(pos: Position, color?: Color) => boolean>({ topic: 'checks', args: [['pos', 'position'], ['color', 'optColor']], result: 'boolean', call: isInCheckCall }),
  pinnedPieces: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  pinners: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  discoveredCheckCandidates: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  checkBlockSquares: fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard' }),
  pinRay: fn<(pos: Position, square: Sq) => BB>({ topic: 'checks', args: [['pos', 'position'], ['square', 'square']], result: 'bitboard' }),
  checkKind: fn<(pos: Position, move: string) => CheckKind>({ topic: 'checks', args: [['pos', 'position'], ['move', 'uci']], result: 'checkKind', call: checkKindCall }),
  checkersBatch: fn<(positions: U64, color?: number, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions'], ['color', 'optBatchColor']], result: 'u64', out: 'u64', batchOf: 'checkers' }),
  pinnedPiecesBatch: fn<(positions: U64, color: number, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions'], ['color', 'batchColor']], result: 'u64', out: 'u64', batchOf: 'pinnedPieces' }),
  discoveredCheckCandidatesBatch: fn<(positions: U64, color: number, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions'], ['color', 'batchColor']], result: 'u64', out: 'u64', batchOf: 'discoveredCheckCandidates' }),
  checkAnalysisBatch: fn<(positions: U64, out?: U64) => U64>({ topic: 'checks', args: [['positions', 'positions']], result: 'u64', out: 'u64', outWidth: 6 }),

  // ---------------------------------------------------------------- Moves and perft
  legalMoves: fn<(pos: Position) => string[]>({ topic: 'moves', args: [['pos', 'position']], result: 'strings', call: legalMovesCall }),
  legalMovesEncoded: fn<(pos: Position, out?: Uint16Array) => Uint16Array>({ topic: 'moves', args: [['pos', 'position'], ['out', 'moveBuffer']], result: 'moveCodes', call: legalMovesEncodedCall }),
  makeMove: fn<(pos: Position, move: string) => Position>({ topic: 'moves', args: [['pos', 'position'], ['move', 'uci']], result: 'position', call: makeMoveCall }),
  perft: fn<(pos: Position, depth: number) => number>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'depth']], result: 'number' }),
  perftStats: fn<(pos: Position, depth: number) => PerftStats>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'depth']], result: 'perftStats', call: perftStatsCall }),
  perftDivide: fn<(pos: Position, depth: number) => Map<string, number>>({ topic: 'moves', args: [['pos', 'position'], ['depth', 'divideDepth']], result: 'perftDivide', call: perftDivideCall }),
  perftBatch: fn<(positions: U64, depth: number, out?: Float64Array) => Float64Array>({ topic: 'moves', args: [['positions', 'positions'], ['depth', 'depth']], result: 'f64', out: 'f64', batchOf: 'perft' }),

  // ---------------------------------------------------------------- KBNK Endgame
  cornerDistance: fn<(bishopSq: Sq, kingSq: Sq) => number>({ topic: 'kbnk', args: [['bishopSq', 'square'], ['kingSq', 'square']], result: 'number', cheap: true }),
  kbnkEval: fn<(pos: Position) => number>({ topic: 'kbnk', args: [['pos', 'kbnkPosition']], result: 'number', cheap: true, call: kbnkEvalCall }),
  kbnkEvalSquares: fn<(strongKing: Sq, bishop: Sq, knight: Sq, weakKing: Sq) => number>({ topic: 'kbnk', args: [['strongKing', 'square'], ['bishop', 'square'], ['knight', 'square'], ['weakKing', 'square']], result: 'number', cheap: true, member: 'kbnkEval' }),

  // ---------------------------------------------------------------- Variants (api.variants)
  'variants.pinnedPiecesXray': fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard', variant: 'always', member: 'checkVariants.pinnedPiecesXray' }),
  'variants.pinnedPiecesOppositeRays': fn<(pos: Position, color: Color) => BB>({ topic: 'checks', args: [['pos', 'position'], ['color', 'color']], result: 'bitboard', variant: 'always', member: 'checkVariants.pinnedPiecesOppositeRays' }),
  'variants.rookAttacksMagic': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'always', member: 'checkVariants.rookAttacksMagic' }),
  'variants.bishopAttacksMagic': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'always', member: 'checkVariants.bishopAttacksMagic' }),
  'variants.rookAttacksPext': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'optional', member: 'checkVariants.rookAttacksPext' }),
  'variants.bishopAttacksPext': fn<(square: Sq, occupied: BB) => BB>({ topic: 'sliders', args: [['square', 'square'], ['occupied', 'bitboard']], result: 'bitboard', variant: 'optional', member: 'checkVariants.bishopAttacksPext' }),
  'variants.distantCheckLinesBranchy': fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', variant: 'always', member: 'variants.distantCheckLinesBranchy' }),
  'variants.distantCheckLinesBranchless': fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', variant: 'always', member: 'variants.distantCheckLinesBranchless' }),
  'variants.distantCheckLinesSse41': fn<(kingSq: Sq, taboo: BB) => number>({ topic: 'king', args: [['kingSq', 'square'], ['taboo', 'bitboard']], result: 'number', variant: 'optional', member: 'variants.distantCheckLinesSse41' }),
  'variants.knightAttacksSetEastWest': fn<(knights: BB) => BB>({ topic: 'knight', args: [['knights', 'bitboard']], result: 'bitboard', variant: 'always', member: 'variants.knightAttacksSetEastWest' }),
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
