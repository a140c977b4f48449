// Node-API glue for native/core/sliders.h: rook/bishop/queen attacks (single and batch) through the
// kernel table's chosen lookup (magic or PEXT), Kogge-Stone ray attacks, x-ray attacks, between/line.
#include "args.h"

namespace bbp::addon {
namespace {

using SliderFn = U64 (*)(int, U64);

Napi::Value sliderBy(const Napi::CallbackInfo& info, SliderFn fn) {
  Args args(info, 2);
  const int sq = args.square(0, "sq");
  const U64 occupied = args.bitboard(1, "occupied");
  return args.ok() ? bigint(info, fn(sq, occupied)) : args.undefined();
}

template <auto Member>  // &Kernels::rookAttacks, ...
Napi::Value sliderCall(const Napi::CallbackInfo& info) {
  return sliderBy(info, kernelsOf(info).*Member);
}

// The magic lookup whatever the table chose (checkVariants.rookAttacksMagic / bishopAttacksMagic).
template <bool Rook>
Napi::Value sliderMagic(const Napi::CallbackInfo& info) {
  return sliderBy(info, [](int sq, U64 occ) {
    const MagicSliders s{magicTables()};
    return Rook ? s.rook(sq, occ) : s.bishop(sq, occ);
  });
}

template <auto Loop>  // &Kernels::rookAttacksBatch, ...
Napi::Value sliderBatch(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const auto squares = args.squares(0, "squares");
  const auto occupied = args.array<U64>(1, "occupied");
  const auto out = args.array<U64>(2, "out");
  if (args.batch(out, squares, occupied)) (kernelsOf(info).*Loop)(squares.data, occupied.data, out.data, out.length);
  return args.undefined();
}

Napi::Value rayAttacksCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int direction = args.direction(0, "direction");
  const U64 sliders = args.bitboard(1, "sliders");
  const U64 empty = args.bitboard(2, "empty");
  return args.ok() ? bigint(info, kernelsOf(info).rayAttacks(direction, sliders, empty)) : args.undefined();
}

template <auto Member>  // &Kernels::xrayRookAttacks, &Kernels::xrayBishopAttacks
Napi::Value xrayCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const U64 occupied = args.bitboard(0, "occupied");
  const U64 blockers = args.bitboard(1, "blockers");
  const int sq = args.square(2, "sq");
  return args.ok() ? bigint(info, (kernelsOf(info).*Member)(occupied, blockers, sq)) : args.undefined();
}

template <U64 (*F)(int, int)>
Napi::Value squarePairCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const int a = args.square(0, "a");
  const int b = args.square(1, "b");
  return args.ok() ? bigint(info, F(a, b)) : args.undefined();
}

}  // namespace

void exportSliders(Napi::Env env, Napi::Object exports, Napi::Object checkVariants) {
  exportFunction<sliderCall<&Kernels::rookAttacks>>(env, exports, "rookAttacks");
  exportFunction<sliderCall<&Kernels::bishopAttacks>>(env, exports, "bishopAttacks");
  exportFunction<sliderCall<&Kernels::queenAttacks>>(env, exports, "queenAttacks");
  exportFunction<sliderBatch<&Kernels::rookAttacksBatch>>(env, exports, "rookAttacksBatch");
  exportFunction<sliderBatch<&Kernels::bishopAttacksBatch>>(env, exports, "bishopAttacksBatch");
  exportFunction<sliderBatch<&Kernels::queenAttacksBatch>>(env, exports, "queenAttacksBatch");
  exportFunction<rayAttacksCall>(env, exports, "rayAttacks");
  exportFunction<xrayCall<&Kernels::xrayRookAttacks>>(env, exports, "xrayRookAttacks");
  exportFunction<xrayCall<&Kernels::xrayBishopAttacks>>(env, exports, "xrayBishopAttacks");
  exportFunction<squarePairCall<between>>(env, exports, "between");
  exportFunction<squarePairCall<line>>(env, exports, "line");

  exportFunction<sliderMagic<true>>(env, checkVariants, "rookAttacksMagic");
  exportFunction<sliderMagic<false>>(env, checkVariants, "bishopAttacksMagic");
  if (env.GetInstanceData<AddonState>()->kernels->rookAttacksPext) {
    exportFunction<sliderCall<&Kernels::rookAttacksPext>>(env, checkVariants, "rookAttacksPext");
    exportFunction<sliderCall<&Kernels::bishopAttacksPext>>(env, checkVariants, "bishopAttacksPext");
  }
}

}  // namespace bbp::addon
