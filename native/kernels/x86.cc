// The x86-64 kernel tables, this file compiled twice, each into its own ISA namespace so none of its
// inline functions can stand in for a baseline copy; the addon uses a table only after checking the
// CPU (cpuid). dirSet: the SSE4.1 _mm_cmpeq_epi64 version, the fastest variant when measured. Rays:
// two directions per register (SSE4.1 pshufb + blend), for the opposite-ray variant of the Checks and
// Pinned Pieces page (the public pins come from kingBlockers, core/blockers.h).
//  - with -msse4.1 -mpopcnt (bbp::x86v2): x86Kernels, sliders by magic bitboards;
//  - with -mbmi -mbmi2 too (bbp::x86bmi2): bmi2Kernels, sliders PEXT-indexed (used when cpuid leaf 7
//    reports BMI1 and BMI2 and PEXT is not microcoded, AMD before Zen 3: PEXT measured faster than the
//    magic multiply).
#if !defined(__SSE4_1__) || !defined(__POPCNT__)
#error "x86.cc must be compiled with -msse4.1 -mpopcnt (and -mbmi -mbmi2 for the BMI2 table)"
#endif

#if defined(__BMI2__) && !defined(__BMI__)
#error "the BMI2 table is compiled with -mbmi too (the addon's cpuid check requires both)"
#endif

#if defined(__BMI2__)
#define BBP_ISA x86bmi2
#else
#define BBP_ISA x86v2
#endif
#include "kernels.h"

namespace bbp {
namespace {
#if defined(__BMI2__)
using Source = kernels::PextSource;
constexpr const char* kCpuPath = "sse4.1+popcnt+bmi2";
#else
using Source = kernels::MagicSource;
constexpr const char* kCpuPath = "sse4.1+popcnt";
#endif
constexpr Kernels kTable =
    kernels::buildKernels<Source, Sse41Rays, dirSetSse41>(kCpuPath, distantCheckLinesWith<dirSetSse41>);
}  // namespace

#if defined(__BMI2__)
const Kernels& bmi2Kernels() { return kTable; }
#else
const Kernels& x86Kernels() { return kTable; }
#endif

}  // namespace bbp
