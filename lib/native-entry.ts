/** The native backend on its own (throws at import when the addon cannot load, saying why). */
import { createApi } from './api.js';
import { loadNative } from './native.js';

const api = createApi(loadNative());

export * from './public.js';
export const {
  backend, cpuPath, variants,
  kingAttacks, kingAttacksBatch, kingAttacksSet, kingAttacksSetBatch,
  pawnShieldMask, pawnShieldMaskBatch, pawnShieldIndex, pawnShieldIndexBatch,
  kingMoveTargets, kingMoveTargetsBatch, distantCheckLines, distantCheckLinesBatch,
  caughtableArea, caughtableAreaBatch, uncatchablePassers, uncatchablePassersBatch,
  squaresAreConnected, squaresAreConnectedBatch, kingDistance, kingDistanceBatch,
  knightAttacks, knightAttacksBatch, knightAttacksSet, knightAttacksSetBatch,
  noNoEa, noNoEaBatch, noEaEa, noEaEaBatch, soEaEa, soEaEaBatch, soSoEa, soSoEaBatch,
  noNoWe, noNoWeBatch, noWeWe, noWeWeBatch, soWeWe, soWeWeBatch, soSoWe, soSoWeBatch,
  knightFill, knightFillBatch, knightDistance, knightDistanceBatch,
  forkTargetSquares, forkTargetSquaresBatch, knightForkMoves, knightForkMovesBatch,
  rookAttacks, rookAttacksBatch, bishopAttacks, bishopAttacksBatch, queenAttacks, queenAttacksBatch,
  rayAttacks, xrayRookAttacks, xrayBishopAttacks, between, line,
  parseFen, toFen, createPosition, packPositions,
  attackersTo, checkers, isInCheck, pinnedPieces, pinners, discoveredCheckCandidates, checkBlockSquares, pinRay,
  checkKind, checkersBatch, pinnedPiecesBatch, discoveredCheckCandidatesBatch, checkAnalysisBatch,
  PositionBatch, analyzeBatch, analyzeBatchAsync, toPlanes,
  legalMoves, legalMovesEncoded, makeMove, perft, perftStats, perftAsync, perftStatsAsync, perftDivide, perftBatch,
  cornerDistance, kbnkEval, kbnkEvalSquares,
} = api;
