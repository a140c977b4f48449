// Node-API glue for native/core/king.h.
#include "args.h"

namespace bbp::addon {
namespace {

using DirSet = int (*)(U64, int);

Napi::Value pawnShieldMaskCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const int color = args.color(0, "color");
  const int kingSq = args.square(1, "kingSq");
  return args.ok() ? bigint(info, pawnShieldMask(color, kingSq)) : args.undefined();
}

Napi::Value pawnShieldMaskBatch(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int color = args.color(0, "color");
  const auto kingSqs = args.squares(1, "kingSqs");
  const auto out = args.array<U64>(2, "out");
  if (args.batch(out, kingSqs)) kernelsOf(info).pawnShieldMaskBatch(color, kingSqs.data, out.data, out.length);
  return args.undefined();
}

Napi::Value pawnShieldIndexCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int color = args.color(0, "color");
  const int kingSq = args.square(1, "kingSq");
  const U64 pawns = args.bitboard(2, "pawns");
  return args.ok() ? number(info, pawnShieldIndex(color, kingSq, pawns)) : args.undefined();
}

Napi::Value pawnShieldIndexBatch(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const int color = args.color(0, "color");
  const auto kingSqs = args.squares(1, "kingSqs");
  const auto pawns = args.array<U64>(2, "pawns");
  const auto out = args.array<std::uint8_t>(3, "out");
  if (args.batch(out, kingSqs, pawns))
    kernelsOf(info).pawnShieldIndexBatch(color, kingSqs.data, pawns.data, out.data, out.length);
  return args.undefined();
}

Napi::Value kingMoveTargetsCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const int kingSq = args.square(0, "kingSq");
  const U64 taboo = args.bitboard(1, "taboo");
  return args.ok() ? bigint(info, kingMoveTargets(kingSq, taboo)) : args.undefined();
}

Napi::Value kingMoveTargetsBatch(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const auto kingSqs = args.squares(0, "kingSqs");
  const auto taboo = args.array<U64>(1, "taboo");
  const auto out = args.array<U64>(2, "out");
  if (args.batch(out, kingSqs, taboo))
    kernelsOf(info).kingMoveTargetsBatch(kingSqs.data, taboo.data, out.data, out.length);
  return args.undefined();
}

// distantCheckLines and its variants differ only in the dirSet they call.
Napi::Value distantCheckLinesOf(const Napi::CallbackInfo& info, DirSet dirSet) {
  Args args(info, 2);
  const int kingSq = args.square(0, "kingSq");
  const U64 taboo = args.bitboard(1, "taboo");
  if (!args.ok()) return args.undefined();
  return number(info, distantCheckLinesBy(dirSet, kingSq, taboo));
}

Napi::Value distantCheckLinesCall(const Napi::CallbackInfo& info) {
  return distantCheckLinesOf(info, kernelsOf(info).dirSet);
}

Napi::Value distantCheckLinesSse41(const Napi::CallbackInfo& info) {
  return distantCheckLinesOf(info, kernelsOf(info).dirSetSse41);
}

template <DirSet F>
Napi::Value distantCheckLinesVariant(const Napi::CallbackInfo& info) {
  return distantCheckLinesOf(info, F);
}

Napi::Value distantCheckLinesBatch(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const auto kingSqs = args.squares(0, "kingSqs");
  const auto taboo = args.array<U64>(1, "taboo");
  const auto out = args.array<std::uint8_t>(2, "out");
  if (args.batch(out, kingSqs, taboo))
    kernelsOf(info).distantCheckLinesBatch(kingSqs.data, taboo.data, out.data, out.length);
  return args.undefined();
}

Napi::Value caughtableAreaCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int kingColor = args.color(0, "kingColor");
  const int sideToMove = args.color(1, "sideToMove");
  const int kingSq = args.square(2, "kingSq");
  return args.ok() ? bigint(info, caughtableArea(kingColor, sideToMove, kingSq)) : args.undefined();
}

Napi::Value caughtableAreaBatch(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const int kingColor = args.color(0, "kingColor");
  const int sideToMove = args.color(1, "sideToMove");
  const auto kingSqs = args.squares(2, "kingSqs");
  const auto out = args.array<U64>(3, "out");
  if (args.batch(out, kingSqs))
    kernelsOf(info).caughtableAreaBatch(kingColor, sideToMove, kingSqs.data, out.data, out.length);
  return args.undefined();
}

Napi::Value uncatchablePassersCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const U64 passers = args.bitboard(0, "passers");
  const int kingColor = args.color(1, "kingColor");
  const int sideToMove = args.color(2, "sideToMove");
  const int kingSq = args.square(3, "kingSq");
  if (!args.ok()) return args.undefined();
  return bigint(info, uncatchablePassers(passers, kingColor, sideToMove, kingSq));
}

Napi::Value uncatchablePassersBatch(const Napi::CallbackInfo& info) {
  Args args(info, 5);
  const auto passers = args.array<U64>(0, "passers");
  const int kingColor = args.color(1, "kingColor");
  const int sideToMove = args.color(2, "sideToMove");
  const auto kingSqs = args.squares(3, "kingSqs");
  const auto out = args.array<U64>(4, "out");
  if (args.batch(out, passers, kingSqs))
    kernelsOf(info).uncatchablePassersBatch(passers.data, kingColor, sideToMove, kingSqs.data, out.data,
                                            out.length);
  return args.undefined();
}

Napi::Value squaresAreConnectedCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const U64 from = args.bitboard(0, "from");
  const U64 to = args.bitboard(1, "to");
  const U64 path = args.bitboard(2, "path");
  return args.ok() ? Napi::Boolean::New(info.Env(), squaresAreConnected(from, to, path)) : args.undefined();
}

Napi::Value squaresAreConnectedBatch(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const auto from = args.array<U64>(0, "from");
  const auto to = args.array<U64>(1, "to");
  const auto path = args.array<U64>(2, "path");
  const auto out = args.array<std::uint8_t>(3, "out");
  if (args.batch(out, from, to, path))
    kernelsOf(info).squaresAreConnectedBatch(from.data, to.data, path.data, out.data, out.length);
  return args.undefined();
}

}  // namespace

void exportKing(Napi::Env env, Napi::Object exports, Napi::Object variants) {
  exportFunction<pawnShieldMaskCall>(env, exports, "pawnShieldMask");
  exportFunction<pawnShieldMaskBatch>(env, exports, "pawnShieldMaskBatch");
  exportFunction<pawnShieldIndexCall>(env, exports, "pawnShieldIndex");
  exportFunction<pawnShieldIndexBatch>(env, exports, "pawnShieldIndexBatch");
  exportFunction<kingMoveTargetsCall>(env, exports, "kingMoveTargets");
  exportFunction<kingMoveTargetsBatch>(env, exports, "kingMoveTargetsBatch");
  exportFunction<distantCheckLinesCall>(env, exports, "distantCheckLines");
  exportFunction<distantCheckLinesBatch>(env, exports, "distantCheckLinesBatch");
  exportFunction<caughtableAreaCall>(env, exports, "caughtableArea");
  exportFunction<caughtableAreaBatch>(env, exports, "caughtableAreaBatch");
  exportFunction<uncatchablePassersCall>(env, exports, "uncatchablePassers");
  exportFunction<uncatchablePassersBatch>(env, exports, "uncatchablePassersBatch");
  exportFunction<squaresAreConnectedCall>(env, exports, "squaresAreConnected");
  exportFunction<squaresAreConnectedBatch>(env, exports, "squaresAreConnectedBatch");
  exportFunction<distanceSingle<kingDistance>>(env, exports, "kingDistance");
  exportFunction<distanceBatch<&Kernels::kingDistanceBatch>>(env, exports, "kingDistanceBatch");

  exportFunction<distantCheckLinesVariant<dirSetBranchy>>(env, variants, "distantCheckLinesBranchy");
  exportFunction<distantCheckLinesVariant<dirSetBranchless>>(env, variants, "distantCheckLinesBranchless");
  if (env.GetInstanceData<AddonState>()->kernels->dirSetSse41)
    exportFunction<distantCheckLinesSse41>(env, variants, "distantCheckLinesSse41");
}

}  // namespace bbp::addon
