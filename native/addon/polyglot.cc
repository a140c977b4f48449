// Node-API glue for native/core/polyglot.h: the Polyglot book format's key of a packed position
// (validated by the Pos argument kind before the core reads it).
#include "../core/polyglot.h"
#include "glue.h"

namespace bbp::addon {

void exportPolyglot(Napi::Env env, Napi::Object exports) {
  exportCall<polyglotKeyPacked, Pos>(env, exports, "polyglotKey(pos)");
}

}  // namespace bbp::addon
