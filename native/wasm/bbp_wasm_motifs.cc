// The static exchange evaluation (native/core/motifs.h) in the WebAssembly build, through the portable
// kernel table: see and seeGe over a Position's packed words in linear memory (written by the backend
// from a Position this package made), and the SEE batch. The five motif sets are declared functions,
// exported from generated/exports.cc.
#include <cstdint>

#include "../kernels/kernels.h"

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

using U64 = std::uint64_t;
using Size = std::size_t;

namespace {
const bbp::Kernels& k() { return bbp::portableKernels(); }
}  // namespace

BBP_EXPORT(bbp_see) int bbp_see(const U64* pos, int from, int to, int promotion) {
  return k().see(pos, from, to, promotion);
}
BBP_EXPORT(bbp_see_ge) int bbp_see_ge(const U64* pos, int from, int to, int promotion, int threshold) {
  return k().seeGe(pos, from, to, promotion, threshold);
}
// -1, or 2 * i for an invalid position i, 2 * i + 1 for an illegal move i (valid may be 0).
BBP_EXPORT(bbp_see_batch) double bbp_see_batch(const U64* words, const std::uint8_t* valid, const std::uint16_t* moves,
                                               std::int16_t* out, Size n) {
  return static_cast<double>(k().seeBatch(words, valid, moves, out, n));
}
