// The baseline kernel table: plain C++, no intrinsics. dirSet: the branchless sum of compares, the
// fastest of the portable variants when measured (random taboo sets defeat the branchy chain).
// Sliders: magic bitboards. Pins: every table answers pinnedPieces / discoveredCheckCandidates with
// kingBlockers (core/blockers.h); the x-ray and opposite-ray methods of the Checks and Pinned Pieces
// page stay as variants.
// The slider tables themselves are defined in tables.cc.
#include "kernels.h"

namespace bbp {

const Kernels& portableKernels() {
  static constexpr Kernels table = kernels::withKbnkKernels<kernels::MagicSource>(
      kernels::withMoveKernels<kernels::MagicSource>(
      kernels::withCheckKernels<kernels::MagicSource, ScalarRays>(
          kernels::makeKernels<dirSetBranchless>("portable", nullptr))));
  return table;
}

}  // namespace bbp
