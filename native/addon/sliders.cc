// Node-API glue for native/core/sliders.h (glue.h's registrations): rook/bishop/queen attacks
// through the kernel table's lookup (magic or PEXT), Kogge-Stone ray attacks, x-ray attacks,
// between/line.
#include "glue.h"

namespace bbp::addon {
namespace {

// The magic lookups whatever the table chose (variants.rookAttacksMagic / bishopAttacksMagic).
U64 rookAttacksMagic(int sq, U64 occupied) { return MagicSliders{magicTables()}.rook(sq, occupied); }
U64 bishopAttacksMagic(int sq, U64 occupied) { return MagicSliders{magicTables()}.bishop(sq, occupied); }

}  // namespace

// The declared functions are registered from their declarations (generated/registrations.cc); here
// the variants (api.variants), which name the square `sq`.
void exportSliders(Napi::Env env, Napi::Object, Napi::Object variants) {
  exportCall<rookAttacksMagic, Square, Set>(env, variants, "rookAttacksMagic(sq, occupied)");
  exportCall<bishopAttacksMagic, Square, Set>(env, variants, "bishopAttacksMagic(sq, occupied)");
  if (env.GetInstanceData<AddonState>()->kernels->rookAttacksPext) {
    exportCall<&Kernels::rookAttacksPext, Square, Set>(env, variants, "rookAttacksPext(sq, occupied)");
    exportCall<&Kernels::bishopAttacksPext, Square, Set>(env, variants, "bishopAttacksPext(sq, occupied)");
  }
}

}  // namespace bbp::addon
