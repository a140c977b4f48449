// The baseline kernel table: plain C++, no intrinsics. dirSet: the branchless sum of compares, the
// fastest of the portable variants when measured (random taboo sets defeat the branchy chain).
// Sliders: magic bitboards. Pins: the x-ray method, about 3x faster than the opposite ray-directions
// measured here (random positions, 8-24 pieces: ~6 ns vs ~16 ns per position with magics), so the
// public pinnedPieces / discoveredCheckCandidates use it in every table; both stay as variants.
//
// This translation unit, compiled for the baseline ISA, also owns the process-wide slider tables
// (native/core/sliders.h): built on first use, thread-safely, then never written again.
#include "kernels.h"

namespace bbp {

const MagicTables& magicTables() {
  static MagicTables tables;
  static const bool built = [] {
    static detail::MagicScratch scratch;  // used only inside this one-time initialiser
    buildMagicTables(tables, scratch);
    return true;
  }();
  (void)built;
  return tables;
}

const PextTables& pextTables() {
  static PextTables tables;
  static const bool built = (buildPextTables(tables), true);
  (void)built;
  return tables;
}

const Kernels& portableKernels() {
  static constexpr Kernels table = kernels::withMoveKernels<kernels::MagicSource>(
      kernels::withCheckKernels<kernels::MagicSource, ScalarRays, kernels::PinMethod::kXray>(
          kernels::makeKernels<dirSetBranchless>("portable", nullptr)));
  return table;
}

}  // namespace bbp
