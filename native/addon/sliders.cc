// Node-API glue for native/core/sliders.h (glue.h's registrations): rook/bishop/queen attacks
// through the kernel table's lookup (magic or PEXT), Kogge-Stone ray attacks, x-ray attacks,
// between/line.
#include "glue.h"

namespace bbp::addon {
namespace {

// The magic lookups whatever the table chose (checkVariants.rookAttacksMagic / bishopAttacksMagic).
U64 rookAttacksMagic(int sq, U64 occupied) { return MagicSliders{magicTables()}.rook(sq, occupied); }
U64 bishopAttacksMagic(int sq, U64 occupied) { return MagicSliders{magicTables()}.bishop(sq, occupied); }

}  // namespace

// The declared functions are registered from their declarations (generated/registrations.cc); here
// the variants (api.variants), which name the square `sq`.
void exportSliders(Napi::Env env, Napi::Object, Napi::Object checkVariants) {
  exportCall<rookAttacksMagic, Square, Set>(env, checkVariants, "rookAttacksMagic(sq, occupied)");
  exportCall<bishopAttacksMagic, Square, Set>(env, checkVariants, "bishopAttacksMagic(sq, occupied)");
  if (env.GetInstanceData<AddonState>()->kernels->rookAttacksPext) {
    exportCall<&Kernels::rookAttacksPext, Square, Set>(env, checkVariants, "rookAttacksPext(sq, occupied)");
    exportCall<&Kernels::bishopAttacksPext, Square, Set>(env, checkVariants, "bishopAttacksPext(sq, occupied)");
  }
}

}  // namespace bbp::addon
