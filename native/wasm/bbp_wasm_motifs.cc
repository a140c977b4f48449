// The tactical motifs and the static exchange evaluation (native/core/motifs.h) in the WebAssembly
// build, through the portable kernel table: single calls over a Position's packed words in linear
// memory (written by the backend from a Position this package made), and the SEE batch.
#include <cstdint>

#include "../kernels/kernels.h"

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

using U64 = std::uint64_t;
using Size = std::size_t;

namespace {
const bbp::Kernels& k() { return bbp::portableKernels(); }
}  // namespace

// kind: 0 hanging, 1 forks, 2 relativePins, 3 skewers, 4 discoveredAttacks.
BBP_EXPORT(bbp_motif) U64 bbp_motif(int kind, const U64* pos, int color) {
  const bbp::Kernels& t = k();
  switch (kind) {
    case 0: return t.hanging(pos, color);
    case 1: return t.forks(pos, color);
    case 2: return t.relativePins(pos, color);
    case 3: return t.skewers(pos, color);
    default: return t.discoveredAttacks(pos, color);
  }
}
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
