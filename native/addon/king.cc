// Node-API glue for native/core/king.h (glue.h's registrations).
#include "glue.h"

namespace bbp::addon {

void exportKing(Napi::Env env, Napi::Object exports, Napi::Object variants) {
  exportPair<kingAttacks, U64, Square>(env, exports, "kingAttacks(square)", "kingAttacksBatch(squares, out)");
  exportSetFunctions<kingAttacksSet, kingFill>(env, exports, {"kingAttacksSet", "kingFill"});
  exportPair<pawnShieldMask, U64, Color, Square>(env, exports, "pawnShieldMask(color, kingSq)",
                                                 "pawnShieldMaskBatch(color, kingSqs, out)");
  // The two batch loops below run from the kernel table (compiled per CPU path).
  exportCall<pawnShieldIndex, Color, Square, Set>(env, exports, "pawnShieldIndex(color, kingSq, pawns)");
  exportBatch<&Kernels::pawnShieldIndexBatch, Color, Squares, Sets, Out<std::uint8_t>>(
      env, exports, "pawnShieldIndexBatch(color, kingSqs, pawns, out)");
  exportPair<kingMoveTargets, U64, Square, Set>(env, exports, "kingMoveTargets(kingSq, taboo)",
                                                "kingMoveTargetsBatch(kingSqs, taboo, out)");
  exportPair<caughtableArea, U64, Color, Color, Square>(env, exports, "caughtableArea(kingColor, sideToMove, kingSq)",
                                                        "caughtableAreaBatch(kingColor, sideToMove, kingSqs, out)");
  exportCall<uncatchablePassers, Set, Color, Color, Square>(env, exports,
                                                           "uncatchablePassers(passers, kingColor, sideToMove, kingSq)");
  exportBatch<&Kernels::uncatchablePassersBatch, Sets, Color, Color, Squares, Out<U64>>(
      env, exports, "uncatchablePassersBatch(passers, kingColor, sideToMove, kingSqs, out)");
  exportPair<kingPathFill, U64, Set, Set>(env, exports, "kingPathFill(from, path)", "kingPathFillBatch(from, path, out)");
  exportPair<squaresAreConnected, std::uint8_t, Set, Set, Set>(env, exports, "squaresAreConnected(from, to, path)",
                                                               "squaresAreConnectedBatch(from, to, path, out)");
  exportPair<kingDistance, std::int8_t, Square, Square, Set>(env, exports, "kingDistance(from, to, path)",
                                                             "kingDistanceBatch(from, to, path, out)");
  // dirSet differs per CPU path: the kernel table's.
  exportCall<&Kernels::distantCheckLines, Square, Set>(env, exports, "distantCheckLines(kingSq, taboo)");
  exportBatch<&Kernels::distantCheckLinesBatch, Squares, Sets, Out<std::uint8_t>>(
      env, exports, "distantCheckLinesBatch(kingSqs, taboo, out)");

  exportCall<distantCheckLinesWith<dirSetBranchy>, Square, Set>(env, variants, "distantCheckLinesBranchy(kingSq, taboo)");
  exportCall<distantCheckLinesWith<dirSetBranchless>, Square, Set>(env, variants,
                                                                   "distantCheckLinesBranchless(kingSq, taboo)");
  if (env.GetInstanceData<AddonState>()->kernels->distantCheckLinesSse41)
    exportCall<&Kernels::distantCheckLinesSse41, Square, Set>(env, variants, "distantCheckLinesSse41(kingSq, taboo)");
}

}  // namespace bbp::addon
