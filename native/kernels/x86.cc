// The x86-64 kernel table, compiled with -msse4.1 -mpopcnt. Its inline functions live in
// bbp::x86v2 so none of them can stand in for a baseline copy. Only used after the addon has checked
// the CPU. dirSet: the SSE4.1 _mm_cmpeq_epi64 version, the fastest variant when measured.
// Sliders: magic bitboards; rays: two directions per register (SSE4.1 pshufb + blend), which makes
// the opposite-ray pin variant faster (pins themselves come from kingBlockers, core/blockers.h).
#define BBP_ISA x86v2
#include "kernels.h"

#if !defined(__SSE4_1__) || !defined(__POPCNT__)
#error "x86.cc must be compiled with -msse4.1 -mpopcnt"
#endif

namespace bbp {

const Kernels& x86Kernels() {
  static constexpr Kernels table = kernels::withKbnkKernels<kernels::MagicSource>(
      kernels::withMoveKernels<kernels::MagicSource>(
      kernels::withCheckKernels<kernels::MagicSource, Sse41Rays>(
          kernels::makeKernels<dirSetSse41>("sse4.1+popcnt", dirSetSse41))));
  return table;
}

}  // namespace bbp
