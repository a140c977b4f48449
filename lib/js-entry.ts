/** The pure-TypeScript BigInt backend on its own: same API, same answers, no binary needed. */
import { createApi } from './api.js';
import { jsBackend } from './js/index.js';

const api = createApi(jsBackend);

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
