// Node-API glue for native/core/movegen.h, makemove.h and perft.h: legalMoves, makeMove, perft,
// perftStats, perftBatch. Positions arrive packed and are validated here (args.h) before the
// generator reads them; depth is an integer 0..20. Counts leave as doubles (exact up to 2^53, far
// beyond any depth that finishes).
#include "glue.h"

namespace bbp::addon {
namespace {

Napi::Value legalMovesCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const U64* pos = args.position(0, "pos");
  const auto out = args.array<std::uint16_t>(1, "out");
  if (!args.ok()) return args.undefined();
  if (out.length < static_cast<std::size_t>(kMaxMoves))
    return args.fail("out must have room for " + std::to_string(kMaxMoves) + " moves, got length " +
                     std::to_string(out.length)),
           args.undefined();
  // Legal chess has at most 218 moves; a board with many extra pieces (still a consistent position)
  // can have more than out holds: then nothing is returned but an error saying so.
  const int capacity = out.length > 65536 ? 65536 : static_cast<int>(out.length);
  const int count = kernelsOf(info).legalMoves(pos, out.data, capacity);
  if (count > capacity)
    return args.fail("the position has " + std::to_string(count) + " legal moves, more than out can hold (" +
                     std::to_string(out.length) + ")"),
           args.undefined();
  return number(info, count);
}

// Every position is checked before any is counted: consistent (validatePacked), and the side not to
// move not in check (the generator would take its king). The messages are the JS backend's.
Napi::Value perftBatchCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int depth = args.depth(1, "depth");
  const auto out = args.array<double>(2, "out");
  const auto positions = args.positions(0, "positions", out.length);
  if (!args.ok()) return args.undefined();
  const Kernels& k = kernelsOf(info);
  for (std::size_t p = 0; p < out.length; ++p) {
    const U64* w = positions.data + p * kPackedPositionWords;
    if (k.checkers(w, static_cast<int>((w[8] & 1) ^ 1)))
      return args.fail("position " + std::to_string(p) + ": the side not to move is in check"), args.undefined();
  }
  k.perftBatch(positions.data, depth, out.data, out.length);
  return args.undefined();
}

}  // namespace

void exportMoves(Napi::Env env, Napi::Object exports) {
  exportFunction<legalMovesCall>(env, exports, "legalMoves(pos, out)");
  exportCall<&Kernels::makeMove, Pos, Square, Square, Promotion, Fixed<U64, kPackedPositionWords>>(
      env, exports, "makeMove(pos, from, to, promotion, out)");
  exportCall<&Kernels::perft, Pos, Depth>(env, exports, "perft(pos, depth)");
  exportCall<&Kernels::perftStats, Pos, Depth, Fixed<double, kPerftStatsColumns>>(env, exports,
                                                                                  "perftStats(pos, depth, out)");
  exportFunction<perftBatchCall>(env, exports, "perftBatch");
}

}  // namespace bbp::addon
