// The process-wide slider tables (native/core/sliders.h), compiled for the baseline ISA: built on
// first use, thread-safely, then never written again. The addon links this file, and so do the plain
// C++ drivers in bench/, so every program gets the same tables from one definition.
#include "../core/sliders.h"

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

}  // namespace bbp
