// Node-API glue for native/core/knight.h (glue.h's registrations).
#include "glue.h"

namespace bbp::addon {

// The Knight Pattern functions are registered from their declarations (generated/registrations.cc);
// the multi-knight variants here.
void exportKnight(Napi::Env env, Napi::Object, Napi::Object variants) {
  exportCall<knightAttacksSetEastWest, Set>(env, variants, "knightAttacksSetEastWest(set)");
  exportCall<knightAttacksSetParallel, Set>(env, variants, "knightAttacksSetParallel(set)");
}

}  // namespace bbp::addon
