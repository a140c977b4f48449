/**
 * bitboard-patterns: chess bitboard patterns with a native (C++/Node-API) core and a pure-TS twin.
 *
 * The facade picks the backend once, at load: the native addon when it loads, else the JS backend
 * with a one-time warning. With the addon loaded, each function is routed to the faster backend for
 * it (lib/routing.ts, lib/routing-table.ts: measured by the bench); `routing` says which one each
 * function uses. `BITBOARD_PATTERNS_BACKEND=native|js` forces one backend for every function, no
 * routing; forcing `native` where the addon cannot load throws, saying why.
 */
import { createApi } from './api.js';
import type { Backend } from './backend.js';
import { jsBackend } from './js/index.js';
import { loadNative, requestedBackend } from './native.js';
import { describeRouting, routeBackend, type Routing } from './routing.js';

function chooseBackend(): Backend {
  const wanted = requestedBackend();
  if (wanted === 'js') return jsBackend;
  try {
    return loadNative();
  } catch (e) {
    if (wanted === 'native') {
      throw new Error(`BITBOARD_PATTERNS_BACKEND=native, but ${(e as Error).message}`, { cause: e });
    }
    process.emitWarning(`bitboard-patterns: using the JS backend (slower): ${(e as Error).message}`, {
      code: 'BITBOARD_PATTERNS_JS_FALLBACK',
      detail: 'Set BITBOARD_PATTERNS_BACKEND=js to choose the JS backend explicitly and silence this warning.',
    });
    return jsBackend;
  }
}

function facadeBackend(): Backend {
  const chosen = chooseBackend();
  // Forced (either way) or JS only: one backend for everything, no routing.
  if (chosen.name === 'js' || requestedBackend() === 'native') return chosen;
  return routeBackend(chosen, jsBackend);
}

const facade = facadeBackend();
const api = createApi(facade);

/**
 * Which backend each function of this facade calls ('native' | 'js'; variants as `variants.name`):
 * the measured routing table when the addon is loaded, else one backend for all.
 */
export const routing: Routing = describeRouting(api, facade, facade.name === 'native' ? jsBackend : null);
export { ROUTING_TABLE, type Route, type Routing } from './routing.js';

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
