// The addon's entry point: picks the kernel table for this CPU, then exports the Backend functions
// (lib/backend.ts) with the same names and argument order.
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
#endif

// The x86 table only when it was built, the CPU runs it, and BITBOARD_PATTERNS_CPU isn't 'portable'.
const Kernels& chooseKernels() {
#if defined(BBP_HAVE_X86_KERNELS)
  const char* forced = std::getenv("BITBOARD_PATTERNS_CPU");
  const bool forcedPortable = forced && std::strcmp(forced, "portable") == 0;
  if (!forcedPortable && cpuHasSse41AndPopcnt()) return x86Kernels();
#endif
  return portableKernels();
}

}  // namespace

Napi::Object init(Napi::Env env, Napi::Object exports) {
  const Kernels& kernels = chooseKernels();
  env.SetInstanceData(new AddonState{&kernels});

  Napi::Object variants = Napi::Object::New(env);
  exportTable<kernels::setFunctions>(env, exports, std::make_integer_sequence<unsigned, kSetFunctionCount>{});
  exportTable<kernels::squareFunctions>(env, exports,
                                        std::make_integer_sequence<unsigned, kSquareFunctionCount>{});
  exportKing(env, exports, variants);
  exportKnight(env, exports, variants);
  exports.Set("variants", variants);
  exports.Set("cpuPath", Napi::String::New(env, kernels.cpuPath));
  return exports;
}

}  // namespace bbp::addon

static Napi::Object Init(Napi::Env env, Napi::Object exports) { return bbp::addon::init(env, exports); }

NODE_API_MODULE(bitboard_patterns, Init)
