// The baseline kernel table: plain C++, no intrinsics. dirSet: the branchless sum of compares, the
// fastest of the portable variants when measured (random taboo sets defeat the branchy chain).
// Sliders: magic bitboards. Pins and discovered-check candidates come from kingBlockers
// (core/blockers.h) in every table; both methods of the Checks and Pinned Pieces page stay as variants.
// The slider tables themselves are defined in tables.cc.
#include "kernels.h"

namespace bbp {

const Kernels& portableKernels() {
  static constexpr Kernels table =
      kernels::buildKernels<kernels::MagicSource, ScalarRays, dirSetBranchless>("portable", nullptr);
  return table;
}

}  // namespace bbp
