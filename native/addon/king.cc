// Node-API glue for native/core/king.h (glue.h's registrations).
#include "glue.h"

namespace bbp::addon {

// The King Pattern functions are registered from their declarations (generated/registrations.cc);
// the dirSet variants here.
void exportKing(Napi::Env env, Napi::Object, Napi::Object variants) {
  exportCall<distantCheckLinesWith<dirSetBranchy>, Square, Set>(env, variants, "distantCheckLinesBranchy(kingSq, taboo)");
  exportCall<distantCheckLinesWith<dirSetBranchless>, Square, Set>(env, variants,
                                                                   "distantCheckLinesBranchless(kingSq, taboo)");
  if (env.GetInstanceData<AddonState>()->kernels->distantCheckLinesSse41)
    exportCall<&Kernels::distantCheckLinesSse41, Square, Set>(env, variants, "distantCheckLinesSse41(kingSq, taboo)");
}

}  // namespace bbp::addon
