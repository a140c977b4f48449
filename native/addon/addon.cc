// The addon's entry point: picks the kernel table for this CPU, then exports the Backend functions
// (lib/backends/contract.ts) with the same names and argument order.
#include <cstdlib>
#include <cstring>

#if defined(BBP_HAVE_X86_KERNELS)
#include <cpuid.h>
#endif

#include "args.h"

namespace bbp::addon {
namespace {

#if defined(BBP_HAVE_X86_KERNELS)
// Compiled for the baseline ISA, so safe to run on any CPU.
bool cpuHasSse41AndPopcnt() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  constexpr unsigned kSse41 = 1u << 19, kPopcnt = 1u << 23;
  return (ecx & kSse41) && (ecx & kPopcnt);
}

// BMI1 and BMI2 (cpuid leaf 7, EBX bits 3 and 8; the BMI2 table is compiled with both) with a fast
// PEXT: AMD before Zen 3 (family 0x19) runs PEXT in microcode, tens of cycles, slower than the magic
// multiply, so those CPUs keep the magic lookups.
bool cpuHasFastPext() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  constexpr unsigned kBmi1 = 1u << 3, kBmi2 = 1u << 8;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || (ebx & (kBmi1 | kBmi2)) != (kBmi1 | kBmi2)) return false;
  unsigned vendor[3] = {};
  __get_cpuid(0, &eax, &vendor[0], &vendor[2], &vendor[1]);  // EBX, EDX, ECX spell the vendor
  if (std::memcmp(vendor, "AuthenticAMD", 12) != 0) return true;
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  const unsigned family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
  return family >= 0x19;
}
#endif

// The fastest table the build has and the CPU runs. BITBOARD_PATTERNS_CPU=portable forces the
// portable table, =sse4.1 the x86 one without PEXT (to test and compare the paths on one machine).
const Kernels& chooseKernels() {
#if defined(BBP_HAVE_X86_KERNELS)
  const char* forced = std::getenv("BITBOARD_PATTERNS_CPU");
  const bool forcedPortable = forced && std::strcmp(forced, "portable") == 0;
  const bool forcedNoPext = forced && std::strcmp(forced, "sse4.1") == 0;
  if (!forcedPortable && cpuHasSse41AndPopcnt()) {
#if defined(BBP_HAVE_BMI2_KERNELS)
    if (!forcedNoPext && cpuHasFastPext()) return bmi2Kernels();
#else
    (void)forcedNoPext;
#endif
    return x86Kernels();
  }
#endif
  return portableKernels();
}

}  // namespace

Napi::Object init(Napi::Env env, Napi::Object exports) {
  const Kernels& kernels = chooseKernels();
  env.SetInstanceData(new AddonState{&kernels, {}});
  // Build the slider tables this CPU's kernels use now (once per process), not inside the first call
  // that needs them. Where the kernels use PEXT, the magic tables (the PGN reader, the tablebase
  // generator and the magic variants use them) are built on first use instead: a process that needs
  // neither, a perft run say, starts without that work.
  if (kernels.rookAttacksPext) pextTables();
  else magicTables();

  Napi::Object variants = newObject(env);
  if (variants.IsEmpty()) return exports;
  exportKing(env, exports, variants);
  exportKnight(env, exports, variants);
  exportSliders(env, exports, variants);
  exportChecks(env, exports, variants);
  exportBatchAnalysis(env, exports);
  exportMotifs(env, exports);
  exportMoves(env, exports);
  exportKbnk(env, exports);
  exportSan(env, exports);
  exportPgn(env, exports);
  exportSyzygy(env, exports);
  exportPerft(env, exports);
  exportTbgen(env, exports);
  exportZstd(env, exports);
  // Every declared function over squares, sets and positions not registered above.
  exportDeclared(env, exports);
  setProperty(env, exports, "variants", variants);
  setString(env, exports, "cpuPath", kernels.cpuPath);
  return exports;
}

}  // namespace bbp::addon

static Napi::Object Init(Napi::Env env, Napi::Object exports) { return bbp::addon::init(env, exports); }

NODE_API_MODULE(bitboard_patterns, Init)
