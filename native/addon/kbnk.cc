// Node-API glue for native/core/kbnk.h: the KBNK Endgame page's corner distance and the mop-up
// evaluation. The KBNK table comes from the general generator (tbgen.cc).
#include "../core/kbnk.h"
#include "glue.h"

namespace bbp::addon {

// cornerDistance and manhattanDistance are registered from their declarations
// (generated/registrations.cc).
void exportKbnk(Napi::Env env, Napi::Object exports) {
  exportCall<kbnkEval, Square, Square, Square, Square>(env, exports, "kbnkEval(strongKing, bishop, knight, weakKing)");
}

}  // namespace bbp::addon
