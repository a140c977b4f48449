// Node-API glue for native/core/knight.h (glue.h's registrations).
#include "glue.h"

namespace bbp::addon {

void exportKnight(Napi::Env env, Napi::Object exports, Napi::Object variants) {
  exportPair<knightAttacks, U64, Square>(env, exports, "knightAttacks(square)", "knightAttacksBatch(squares, out)");
  // The eight direction steps of the Knight Pattern page, and the sets made from them.
  exportSetFunctions<knightAttacksSet, knightFill, forkTargetSquares, noNoEa, noEaEa, soEaEa, soSoEa, noNoWe, noWeWe,
                     soWeWe, soSoWe>(env, exports, {"knightAttacksSet", "knightFill", "forkTargetSquares", "noNoEa",
                                                    "noEaEa", "soEaEa", "soSoEa", "noNoWe", "noWeWe", "soWeWe", "soSoWe"});
  exportPair<knightDistance, std::int8_t, Square, Square, Set>(env, exports, "knightDistance(from, to, path)",
                                                               "knightDistanceBatch(from, to, path, out)");
  exportPair<knightForkMoves, U64, Set, Set, Set, Set, Set>(
      env, exports, "knightForkMoves(knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks)",
      "knightForkMovesBatch(knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks, out)");

  exportCall<knightAttacksSetEastWest, Set>(env, variants, "knightAttacksSetEastWest(set)");
  exportCall<knightAttacksSetParallel, Set>(env, variants, "knightAttacksSetParallel(set)");
}

}  // namespace bbp::addon
