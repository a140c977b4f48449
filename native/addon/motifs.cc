// Node-API glue for native/core/motifs.h: the static exchange evaluation of one move (see, seeGe)
// and of a batch (batch.seeBatch). The five motif sets are registered from their declarations
// (generated/registrations.cc).
#include "glue.h"

namespace bbp::addon {
namespace {

// seeGe's threshold: centipawns, a signed integer (lib/api/create-api.ts checks the same range).
constexpr int kSeeThresholdBound = 100000;

Napi::Value seeGeCall(const Napi::CallbackInfo& info) {
  Args args(info, 5);
  const U64* pos = args.position(0, "pos");
  const int from = args.square(1, "from");
  const int to = args.square(2, "to");
  const int promotion = args.promotion(3, "promotion");
  const int threshold = args.signedInteger(4, "threshold", -kSeeThresholdBound, kSeeThresholdBound,
                                           "an integer -100000..100000 (centipawns)");
  if (!args.ok()) return args.undefined();
  return Napi::Number::New(info.Env(), kernelsOf(info).seeGe(pos, from, to, promotion, threshold));
}

// seeBatch(words, valid, moves, out) -> -1, or 2 * i (invalid position i), 2 * i + 1 (illegal move i).
Napi::Value seeBatchCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const auto words = args.array<U64>(0, "words");
  const auto valid = args.optionalArray<std::uint8_t>(1, "valid");
  const auto moves = args.array<std::uint16_t>(2, "moves");
  const auto out = args.array<std::int16_t>(3, "out");
  if (!args.ok()) return args.undefined();
  if (words.length % kPackedPositionWords) return args.fail("words must hold 10 words per position"), args.undefined();
  const std::size_t n = words.length / kPackedPositionWords;
  if (valid.data && valid.length != n) return args.fail("valid has the wrong length"), args.undefined();
  if (moves.length != n || out.length != n)
    return args.fail("moves and out must have one element per position (" + std::to_string(n) + ")"), args.undefined();
  const std::int64_t bad = kernelsOf(info).seeBatch(words.data, valid.data, moves.data, out.data, n);
  return Napi::Number::New(info.Env(), static_cast<double>(bad));
}

}  // namespace

void exportMotifs(Napi::Env env, Napi::Object exports) {
  exportCall<&Kernels::see, Pos, Square, Square, Promotion>(env, exports, "see(pos, from, to, promotion)");
  exportFunction<seeGeCall>(env, exports, "seeGe(pos, from, to, promotion, threshold)");
  Napi::Object batch = exports.Get("batch").As<Napi::Object>();
  exportFunction<seeBatchCall>(env, batch, "seeBatch");
}

}  // namespace bbp::addon
