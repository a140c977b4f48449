// The King Pattern, Knight Pattern and KBNK Endgame functions (native/core/king.h, knight.h, kbnk.h)
// in the WebAssembly build: single calls over i64/i32, batch forms over linear memory. A batch form
// returns n when it wrote every element, else the index of the first square >= 64 (nothing written).
#include <cstdint>

#include "../core/kbnk.h"
#include "../core/king.h"
#include "../core/knight.h"

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

using U64 = std::uint64_t;
using U8 = std::uint8_t;
using Size = std::size_t;

namespace {
// lib/core/types.ts SET_FUNCTIONS order.
constexpr U64 (*kSetFunctions[])(U64) = {bbp::kingAttacksSet, bbp::kingFill, bbp::knightAttacksSet, bbp::knightFill,
                                         bbp::forkTargetSquares, bbp::noNoEa, bbp::noEaEa, bbp::soEaEa, bbp::soSoEa,
                                         bbp::noNoWe, bbp::noWeWe, bbp::soWeWe, bbp::soSoWe};
constexpr int kSetFunctionCount = sizeof(kSetFunctions) / sizeof(kSetFunctions[0]);

Size firstBad(const U8* squares, Size n) {
  for (Size i = 0; i < n; ++i)
    if (squares[i] > 63) return i;
  return n;
}
Size firstBad2(const U8* a, const U8* b, Size n) {
  for (Size i = 0; i < n; ++i)
    if (a[i] > 63 || b[i] > 63) return i;
  return n;
}
}  // namespace

BBP_EXPORT(bbp_set_fn) U64 bbp_set_fn(int id, U64 set) { return id >= 0 && id < kSetFunctionCount ? kSetFunctions[id](set) : 0; }
BBP_EXPORT(bbp_set_fn_batch) void bbp_set_fn_batch(int id, const U64* in, U64* out, Size n) {
  if (id < 0 || id >= kSetFunctionCount) return;
  const auto f = kSetFunctions[id];
  for (Size i = 0; i < n; ++i) out[i] = f(in[i]);
}
// id 0 kingAttacks, 1 knightAttacks (SQUARE_FUNCTIONS order).
BBP_EXPORT(bbp_square_fn_batch) Size bbp_square_fn_batch(int id, const U8* squares, U64* out, Size n) {
  const Size bad = firstBad(squares, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = id == 0 ? bbp::kingAttacks(squares[i]) : bbp::knightAttacks(squares[i]);
  return n;
}

BBP_EXPORT(bbp_pawn_shield_mask_batch) Size bbp_pawn_shield_mask_batch(int color, const U8* sq, U64* out, Size n) {
  const Size bad = firstBad(sq, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = bbp::pawnShieldMask(color, sq[i]);
  return n;
}
BBP_EXPORT(bbp_pawn_shield_index_batch) Size bbp_pawn_shield_index_batch(int color, const U8* sq, const U64* pawns, U8* out, Size n) {
  const Size bad = firstBad(sq, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = static_cast<U8>(bbp::pawnShieldIndex(color, sq[i], pawns[i]));
  return n;
}
BBP_EXPORT(bbp_king_move_targets_batch) Size bbp_king_move_targets_batch(const U8* sq, const U64* taboo, U64* out, Size n) {
  const Size bad = firstBad(sq, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = bbp::kingMoveTargets(sq[i], taboo[i]);
  return n;
}
BBP_EXPORT(bbp_distant_check_lines) int bbp_distant_check_lines(int sq, U64 taboo) {
  return bbp::distantCheckLinesWith<bbp::dirSetBranchless>(sq, taboo);
}
BBP_EXPORT(bbp_distant_check_lines_branchy) int bbp_distant_check_lines_branchy(int sq, U64 taboo) {
  return bbp::distantCheckLinesWith<bbp::dirSetBranchy>(sq, taboo);
}
BBP_EXPORT(bbp_distant_check_lines_batch) Size bbp_distant_check_lines_batch(const U8* sq, const U64* taboo, U8* out, Size n) {
  const Size bad = firstBad(sq, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = static_cast<U8>(bbp::distantCheckLinesWith<bbp::dirSetBranchless>(sq[i], taboo[i]));
  return n;
}
BBP_EXPORT(bbp_caughtable_area_batch) Size bbp_caughtable_area_batch(int kingColor, int stm, const U8* sq, U64* out, Size n) {
  const Size bad = firstBad(sq, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = bbp::caughtableArea(kingColor, stm, sq[i]);
  return n;
}
BBP_EXPORT(bbp_uncatchable_passers_batch)
Size bbp_uncatchable_passers_batch(const U64* passers, int kingColor, int stm, const U8* sq, U64* out, Size n) {
  const Size bad = firstBad(sq, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i) out[i] = bbp::uncatchablePassers(passers[i], kingColor, stm, sq[i]);
  return n;
}
BBP_EXPORT(bbp_king_path_fill) U64 bbp_king_path_fill(U64 from, U64 path) { return bbp::kingPathFill(from, path); }
BBP_EXPORT(bbp_king_path_fill_batch) void bbp_king_path_fill_batch(const U64* from, const U64* path, U64* out, Size n) {
  for (Size i = 0; i < n; ++i) out[i] = bbp::kingPathFill(from[i], path[i]);
}
BBP_EXPORT(bbp_squares_connected) int bbp_squares_connected(U64 from, U64 to, U64 path) {
  return bbp::squaresAreConnected(from, to, path) ? 1 : 0;
}
BBP_EXPORT(bbp_squares_connected_batch) void bbp_squares_connected_batch(const U64* from, const U64* to, const U64* path, U8* out, Size n) {
  for (Size i = 0; i < n; ++i) out[i] = bbp::squaresAreConnected(from[i], to[i], path[i]) ? 1 : 0;
}
// kind 0 king, 1 knight.
BBP_EXPORT(bbp_distance) int bbp_distance(int kind, int from, int to, U64 path) {
  return kind == 0 ? bbp::kingDistance(from, to, path) : bbp::knightDistance(from, to, path);
}
BBP_EXPORT(bbp_distance_batch) Size bbp_distance_batch(int kind, const U8* from, const U8* to, const U64* path, std::int8_t* out, Size n) {
  const Size bad = firstBad2(from, to, n);
  if (bad != n) return bad;
  for (Size i = 0; i < n; ++i)
    out[i] = static_cast<std::int8_t>(kind == 0 ? bbp::kingDistance(from[i], to[i], path[i]) : bbp::knightDistance(from[i], to[i], path[i]));
  return n;
}
BBP_EXPORT(bbp_knight_fork_moves) U64 bbp_knight_fork_moves(U64 knights, U64 targets, U64 own, U64 pawnAttacks, U64 knightAttacks) {
  return bbp::knightForkMoves(knights, targets, own, pawnAttacks, knightAttacks);
}
BBP_EXPORT(bbp_knight_fork_moves_batch)
void bbp_knight_fork_moves_batch(const U64* knights, const U64* targets, const U64* own, const U64* pawnAttacks,
                                 const U64* knightAttacks, U64* out, Size n) {
  for (Size i = 0; i < n; ++i) out[i] = bbp::knightForkMoves(knights[i], targets[i], own[i], pawnAttacks[i], knightAttacks[i]);
}
BBP_EXPORT(bbp_knight_attacks_set_east_west) U64 bbp_knight_attacks_set_east_west(U64 set) {
  return bbp::knightAttacksSetEastWest(set);
}
BBP_EXPORT(bbp_corner_distance) int bbp_corner_distance(int bishop, int king) { return bbp::cornerDistance(bishop, king); }
BBP_EXPORT(bbp_manhattan_distance) int bbp_manhattan_distance(int a, int b) { return bbp::manhattanDistance(a, b); }
BBP_EXPORT(bbp_kbnk_eval) int bbp_kbnk_eval(int strongKing, int bishop, int knight, int weakKing) {
  return bbp::kbnkEval(strongKing, bishop, knight, weakKing);
}
