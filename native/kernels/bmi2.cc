// The x86-64 kernel table with BMI2: as x86.cc, but sliders are PEXT-indexed. Compiled with
// -msse4.1 -mpopcnt -mbmi2 into its own ISA namespace (bbp::x86bmi2); the addon uses it only when
// cpuid leaf 7 reports BMI2 and PEXT is not microcoded (AMD before Zen 3), since PEXT measured faster
// than the magic multiply here.
#define BBP_ISA x86bmi2
#include "kernels.h"

#if !defined(__SSE4_1__) || !defined(__POPCNT__) || !defined(__BMI2__)
#error "bmi2.cc must be compiled with -msse4.1 -mpopcnt -mbmi2"
#endif

namespace bbp {

const Kernels& bmi2Kernels() {
  static constexpr Kernels table = kernels::withKbnkKernels<kernels::PextSource>(
      kernels::withMoveKernels<kernels::PextSource>(
      kernels::withCheckKernels<kernels::PextSource, Sse41Rays>(
          kernels::makeKernels<dirSetSse41>("sse4.1+popcnt+bmi2", dirSetSse41))));
  return table;
}

}  // namespace bbp
