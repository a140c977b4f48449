// Node-API glue for native/core/checks.h and position.h. Positions arrive packed (a BigUint64Array
// of PACKED_POSITION_WORDS words, see lib/backend.ts) and are validated here before any kernel reads
// them; batch forms validate every position and name the first bad one by index.
#include "args.h"

namespace bbp::addon {
namespace {

Napi::Value attackersToCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const U64* pos = args.position(0, "pos");
  const int sq = args.square(1, "sq");
  const int byColor = args.color(2, "byColor");
  const U64 occupied = args.bitboard(3, "occupied");
  return args.ok() ? bigint(info, kernelsOf(info).attackersTo(pos, sq, byColor, occupied)) : args.undefined();
}

// (pos, color) -> bitboard: checkers, pinnedPieces, pinners, ...
template <auto Member>
Napi::Value positionColorCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const U64* pos = args.position(0, "pos");
  const int color = args.color(1, "color");
  return args.ok() ? bigint(info, (kernelsOf(info).*Member)(pos, color)) : args.undefined();
}

Napi::Value pinRayCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const U64* pos = args.position(0, "pos");
  const int sq = args.square(1, "sq");
  return args.ok() ? bigint(info, kernelsOf(info).pinRay(pos, sq)) : args.undefined();
}

Napi::Value checkKindCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const U64* pos = args.position(0, "pos");
  const int from = args.square(1, "from");
  const int to = args.square(2, "to");
  const int promotion = args.promotion(3, "promotion");
  return args.ok() ? number(info, kernelsOf(info).checkKind(pos, from, to, promotion)) : args.undefined();
}

template <auto Loop>  // &Kernels::checkersBatch, ...
Napi::Value positionBatch(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int color = args.colorOrSideToMove(1, "color");
  const auto out = args.array<U64>(2, "out");
  const auto positions = args.positions(0, "positions", out.length);
  if (args.ok()) (kernelsOf(info).*Loop)(positions.data, color, out.data, out.length);
  return args.undefined();
}

// (positions, out): six words per position, each position checked inside the kernel's one pass.
Napi::Value checkAnalysisBatchCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const auto out = args.array<U64>(1, "out");
  const auto positions = args.positionsFor(0, "positions", out, kCheckAnalysisWords);
  if (!args.ok()) return args.undefined();
  const std::size_t n = positions.length / kPackedPositionWords;
  const std::size_t bad = kernelsOf(info).checkAnalysisBatch(positions.data, out.data, n);
  if (bad != n) args.invalidPosition(positions, bad);
  return args.undefined();
}

}  // namespace

void exportChecks(Napi::Env env, Napi::Object exports, Napi::Object checkVariants) {
  exportFunction<attackersToCall>(env, exports, "attackersTo");
  exportFunction<positionColorCall<&Kernels::checkers>>(env, exports, "checkers");
  exportFunction<positionColorCall<&Kernels::pinnedPieces>>(env, exports, "pinnedPieces");
  exportFunction<positionColorCall<&Kernels::pinners>>(env, exports, "pinners");
  exportFunction<positionColorCall<&Kernels::discoveredCheckCandidates>>(env, exports, "discoveredCheckCandidates");
  exportFunction<positionColorCall<&Kernels::checkBlockSquares>>(env, exports, "checkBlockSquares");
  exportFunction<pinRayCall>(env, exports, "pinRay");
  exportFunction<checkKindCall>(env, exports, "checkKind");
  exportFunction<positionBatch<&Kernels::checkersBatch>>(env, exports, "checkersBatch");
  exportFunction<positionBatch<&Kernels::pinnedPiecesBatch>>(env, exports, "pinnedPiecesBatch");
  exportFunction<positionBatch<&Kernels::discoveredCheckCandidatesBatch>>(env, exports,
                                                                         "discoveredCheckCandidatesBatch");
  exportFunction<checkAnalysisBatchCall>(env, exports, "checkAnalysisBatch");

  exportFunction<positionColorCall<&Kernels::pinnedPiecesXray>>(env, checkVariants, "pinnedPiecesXray");
  exportFunction<positionColorCall<&Kernels::pinnedPiecesOppositeRays>>(env, checkVariants,
                                                                        "pinnedPiecesOppositeRays");
}

}  // namespace bbp::addon
