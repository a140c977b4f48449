// The baseline kernel table: plain C++, no intrinsics. dirSet: the branchless sum of compares, the
// fastest of the portable variants when measured (random taboo sets defeat the branchy chain).
#include "kernels.h"

namespace bbp {

const Kernels& portableKernels() {
  static constexpr Kernels table = kernels::makeKernels<dirSetBranchless>("portable", nullptr);
  return table;
}

}  // namespace bbp
