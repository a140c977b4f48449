// Node-API glue for native/core/checks.h and position.h (glue.h's registrations). Positions arrive
// packed (a BigUint64Array of PACKED_POSITION_WORDS words, see lib/core/types.ts) and are validated
// here before any kernel reads them; batch forms validate every position and name the first bad one
// by index.
#include "glue.h"

namespace bbp::addon {
namespace {

// (positions, color 0 | 1 | 2 = each position's side to move, out): checkersBatch, ...
template <auto Loop>
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

// pinnedPieces, pinners, discoveredCheckCandidates and checkBlockSquares are registered from their
// declarations (generated/registrations.cc).
void exportChecks(Napi::Env env, Napi::Object exports, Napi::Object variants) {
  exportCall<&Kernels::attackersTo, Pos, Square, Color, Set>(env, exports, "attackersTo(pos, sq, byColor, occupied)");
  exportCall<&Kernels::checkers, Pos, Color>(env, exports, "checkers(pos, color)");
  exportCall<&Kernels::checkKind, Pos, Square, Square, Promotion>(env, exports, "checkKind(pos, from, to, promotion)");
  exportFunction<positionBatch<&Kernels::checkersBatch>>(env, exports, "checkersBatch");
  exportFunction<positionBatch<&Kernels::pinnedPiecesBatch>>(env, exports, "pinnedPiecesBatch");
  exportFunction<positionBatch<&Kernels::discoveredCheckCandidatesBatch>>(env, exports, "discoveredCheckCandidatesBatch");
  exportFunction<checkAnalysisBatchCall>(env, exports, "checkAnalysisBatch");

  exportCall<&Kernels::pinnedPiecesXray, Pos, Color>(env, variants, "pinnedPiecesXray(pos, color)");
  exportCall<&Kernels::pinnedPiecesOppositeRays, Pos, Color>(env, variants, "pinnedPiecesOppositeRays(pos, color)");
}

}  // namespace bbp::addon
