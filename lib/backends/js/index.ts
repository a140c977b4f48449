/**
 * The pure-TypeScript BigInt backend: the same contract as the native addon (`../backend.ts`),
 * used when no native binary loads and importable alone for comparisons.
 */
import type { Backend } from '../contract.js';
import { jsBatch } from './batch.js';
import * as checks from './checks.js';
import * as kbnk from './kbnk.js';
import * as king from './king.js';
import * as knight from './knight.js';
import { makeMove } from './makemove.js';
import * as outcome from './outcome.js';
import * as perft from './perft.js';
import { polyglotKey } from './polyglot.js';
import * as sliders from './sliders.js';
import { jsSanBackend } from './san.js';
import { jsPgnBackend } from './pgn.js';

/** The BigInt implementation of {@link Backend}. */
export const jsBackend: Backend = {
  name: 'js',
  cpuPath: 'bigint',
  batch: jsBatch,
  san: jsSanBackend,
  pgn: jsPgnBackend,
  tbgen: null,
  syzygy: null,
  variants: {
    distantCheckLinesBranchy: king.distantCheckLinesBranchy,
    distantCheckLinesBranchless: king.distantCheckLinesBranchless,
    knightAttacksSetEastWest: knight.knightAttacksSetEastWest,
    knightAttacksSetParallel: knight.knightAttacksSetParallel,
  },

  kingAttacks: king.kingAttacks,
  kingAttacksBatch: king.kingAttacksBatch,
  kingAttacksSet: king.kingAttacksSet,
  kingAttacksSetBatch: king.kingAttacksSetBatch,
  kingFill: king.kingFill,
  kingFillBatch: king.kingFillBatch,
  pawnShieldMask: king.pawnShieldMask,
  pawnShieldMaskBatch: king.pawnShieldMaskBatch,
  pawnShieldIndex: king.pawnShieldIndex,
  pawnShieldIndexBatch: king.pawnShieldIndexBatch,
  kingMoveTargets: king.kingMoveTargets,
  kingMoveTargetsBatch: king.kingMoveTargetsBatch,
  distantCheckLines: king.distantCheckLines,
  distantCheckLinesBatch: king.distantCheckLinesBatch,
  caughtableArea: king.caughtableArea,
  caughtableAreaBatch: king.caughtableAreaBatch,
  uncatchablePassers: king.uncatchablePassers,
  uncatchablePassersBatch: king.uncatchablePassersBatch,
  squaresAreConnected: king.squaresAreConnected,
  squaresAreConnectedBatch: king.squaresAreConnectedBatch,
  kingDistance: king.kingDistance,
  kingDistanceBatch: king.kingDistanceBatch,

  knightAttacks: knight.knightAttacks,
  knightAttacksBatch: knight.knightAttacksBatch,
  knightAttacksSet: knight.knightAttacksSet,
  knightAttacksSetBatch: knight.knightAttacksSetBatch,
  noNoEa: knight.noNoEa,
  noNoEaBatch: knight.noNoEaBatch,
  noEaEa: knight.noEaEa,
  noEaEaBatch: knight.noEaEaBatch,
  soEaEa: knight.soEaEa,
  soEaEaBatch: knight.soEaEaBatch,
  soSoEa: knight.soSoEa,
  soSoEaBatch: knight.soSoEaBatch,
  noNoWe: knight.noNoWe,
  noNoWeBatch: knight.noNoWeBatch,
  noWeWe: knight.noWeWe,
  noWeWeBatch: knight.noWeWeBatch,
  soWeWe: knight.soWeWe,
  soWeWeBatch: knight.soWeWeBatch,
  soSoWe: knight.soSoWe,
  soSoWeBatch: knight.soSoWeBatch,
  knightFill: knight.knightFill,
  knightFillBatch: knight.knightFillBatch,
  knightDistance: knight.knightDistance,
  knightDistanceBatch: knight.knightDistanceBatch,
  forkTargetSquares: knight.forkTargetSquares,
  forkTargetSquaresBatch: knight.forkTargetSquaresBatch,
  knightForkMoves: knight.knightForkMoves,
  knightForkMovesBatch: knight.knightForkMovesBatch,

  rookAttacks: sliders.rookAttacks,
  bishopAttacks: sliders.bishopAttacks,
  queenAttacks: sliders.queenAttacks,
  rookAttacksBatch: sliders.rookAttacksBatch,
  bishopAttacksBatch: sliders.bishopAttacksBatch,
  queenAttacksBatch: sliders.queenAttacksBatch,
  rayAttacks: sliders.rayAttacks,
  xrayRookAttacks: sliders.xrayRookAttacks,
  xrayBishopAttacks: sliders.xrayBishopAttacks,
  between: sliders.between,
  line: sliders.line,

  attackersTo: checks.attackersTo,
  checkers: checks.checkers,
  pinnedPieces: checks.pinnedPieces,
  pinners: checks.pinners,
  discoveredCheckCandidates: checks.discoveredCheckCandidates,
  checkBlockSquares: checks.checkBlockSquares,
  pinRay: checks.pinRay,
  checkKind: checks.checkKind,
  isInsufficientMaterial: outcome.isInsufficientMaterial,
  checkersBatch: checks.checkersBatch,
  pinnedPiecesBatch: checks.pinnedPiecesBatch,
  discoveredCheckCandidatesBatch: checks.discoveredCheckCandidatesBatch,
  checkAnalysisBatch: checks.checkAnalysisBatch,
  checkVariants: checks.checkVariants,

  legalMoves: perft.legalMoves,
  makeMove,
  perft: perft.perft,
  perftStats: perft.perftStats,
  perftBatch: perft.perftBatch,
  cornerDistance: kbnk.cornerDistance,
  manhattanDistance: kbnk.manhattanDistance,
  kbnkEval: kbnk.kbnkEval,
  polyglotKey,
};
