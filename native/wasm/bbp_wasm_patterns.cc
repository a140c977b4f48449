// The King Pattern, Knight Pattern and KBNK Endgame functions (native/core/king.h, knight.h, kbnk.h)
// in the WebAssembly build that no plain declaration gives: the variants (api.variants) and KBNK's
// evaluation by squares. The declared functions and their batch forms are generated
// (generated/exports.cc).
#include <cstdint>

#include "../core/kbnk.h"
#include "../core/king.h"
#include "../core/knight.h"

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

using U64 = std::uint64_t;

BBP_EXPORT(bbp_distant_check_lines) int bbp_distant_check_lines(int sq, U64 taboo) {
  return bbp::distantCheckLinesWith<bbp::dirSetBranchless>(sq, taboo);
}
BBP_EXPORT(bbp_distant_check_lines_branchy) int bbp_distant_check_lines_branchy(int sq, U64 taboo) {
  return bbp::distantCheckLinesWith<bbp::dirSetBranchy>(sq, taboo);
}
BBP_EXPORT(bbp_knight_attacks_set_east_west) U64 bbp_knight_attacks_set_east_west(U64 set) {
  return bbp::knightAttacksSetEastWest(set);
}
BBP_EXPORT(bbp_kbnk_eval) int bbp_kbnk_eval(int strongKing, int bishop, int knight, int weakKing) {
  return bbp::kbnkEval(strongKing, bishop, knight, weakKing);
}
