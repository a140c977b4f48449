// Node-API glue for native/core/kbnk.h: the KBNK Endgame page's corner distance and the mop-up
// evaluation. The KBNK table comes from the general generator (tbgen.cc).
#include "../core/kbnk.h"
#include "glue.h"

namespace bbp::addon {

void exportKbnk(Napi::Env env, Napi::Object exports) {
  exportCall<cornerDistance, Square, Square>(env, exports, "cornerDistance(bishopSq, kingSq)");
  exportCall<manhattanDistance, Square, Square>(env, exports, "manhattanDistance(a, b)");
  exportCall<kbnkEval, Square, Square, Square, Square>(env, exports, "kbnkEval(strongKing, bishop, knight, weakKing)");
}

}  // namespace bbp::addon
