// Node-API glue for native/core/knight.h (glue.h's registrations).
#include "glue.h"

namespace bbp::addon {

void exportKnight(Napi::Env env, Napi::Object exports, Napi::Object variants) {
  exportPair<knightAttacks, U64, Square>(env, exports, "knightAttacks(square)", "knightAttacksBatch(squares, out)");
  exportPair<knightAttacksSet, U64, Set>(env, exports, "knightAttacksSet(set)", "knightAttacksSetBatch(sets, out)");
  exportPair<knightFill, U64, Set>(env, exports, "knightFill(set)", "knightFillBatch(sets, out)");
  exportPair<forkTargetSquares, U64, Set>(env, exports, "forkTargetSquares(set)", "forkTargetSquaresBatch(sets, out)");
  // The eight direction steps of the Knight Pattern page.
  exportPair<noNoEa, U64, Set>(env, exports, "noNoEa(set)", "noNoEaBatch(sets, out)");
  exportPair<noEaEa, U64, Set>(env, exports, "noEaEa(set)", "noEaEaBatch(sets, out)");
  exportPair<soEaEa, U64, Set>(env, exports, "soEaEa(set)", "soEaEaBatch(sets, out)");
  exportPair<soSoEa, U64, Set>(env, exports, "soSoEa(set)", "soSoEaBatch(sets, out)");
  exportPair<noNoWe, U64, Set>(env, exports, "noNoWe(set)", "noNoWeBatch(sets, out)");
  exportPair<noWeWe, U64, Set>(env, exports, "noWeWe(set)", "noWeWeBatch(sets, out)");
  exportPair<soWeWe, U64, Set>(env, exports, "soWeWe(set)", "soWeWeBatch(sets, out)");
  exportPair<soSoWe, U64, Set>(env, exports, "soSoWe(set)", "soSoWeBatch(sets, out)");
  exportPair<knightDistance, std::int8_t, Square, Square, Set>(env, exports, "knightDistance(from, to, path)",
                                                               "knightDistanceBatch(from, to, path, out)");
  exportPair<knightForkMoves, U64, Set, Set, Set, Set, Set>(
      env, exports, "knightForkMoves(knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks)",
      "knightForkMovesBatch(knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks, out)");

  exportCall<knightAttacksSetEastWest, Set>(env, variants, "knightAttacksSetEastWest(set)");
  exportCall<knightAttacksSetParallel, Set>(env, variants, "knightAttacksSetParallel(set)");
}

}  // namespace bbp::addon
