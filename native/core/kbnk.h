// KBNK (Chess Programming Wiki: KBNK Endgame): the KBNK Endgame page's bit-twiddled corner distance, a
// mop-up evaluation, the table layout (version 1 of lib/core/types.ts) and the eight board symmetries it
// is normalised by. The distance-to-mate table itself is the KBNvK case of the general set-wise
// retrograde generator (tbgen.h), whose KBNvK layout is this one. Header-only C++17, no Node headers.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "king.h"
#include "knight.h"
#include "sliders.h"

namespace bbp {
inline namespace BBP_ISA {

// ---- Corner distance (KBNK Endgame page) ----

// Manhattan distance of the king square to the closest corner of the bishop's square colour, 0..7.
// The multiply by 0x90000000 (= -1879048192, i.e. 9 << 28) leaves bit 3 of 9 * b, which is the parity
// of rank + file, in the sign bit; the arithmetic shift spreads it into a 0 / -1 mask that flips the
// king's file for light-squared bishops (so a1 and h8 are the corners either way); rank + file above
// 7 folds to 14 - k via (15 * (k >> 3) ^ k) - (k >> 3). The multiply is done unsigned: the KBNK Endgame page's
// signed overflow is undefined behaviour in C++.
constexpr int cornerDistance(int bishopSq, int kingSq) {
  const int b = static_cast<std::int32_t>(static_cast<std::uint32_t>(bishopSq) * 0x90000000u) >> 31;
  int k = (kingSq >> 3) + ((kingSq ^ b) & 7);
  k = (15 * (k >> 3) ^ k) - (k >> 3);
  return k;
}

// Manhattan distance (the Chess Programming Wiki's Distance page, linked from the KBNK Endgame page):
// file distance plus rank distance, 0..14; the mop-up evaluation's king-to-king term.
constexpr int manhattanDistance(int a, int b) {
  return absDiff(rankOf(a), rankOf(b)) + absDiff(fileOf(a), fileOf(b));
}

// Mop-up score for the strong side, 0..154 (the formula of KbnkBackend.kbnkEval in lib/core/types.ts):
// the weak king's distance to a corner of the bishop's colour weighs 16 per step, so it dominates
// the strong king's approach (chebyshev x4 plus manhattan x1, at most 6 per king step).
constexpr int kbnkEval(int strongKing, int bishop, int /*knight*/, int weakKing) {
  return (7 - cornerDistance(bishop, weakKing)) * 16 + (7 - chebyshev(strongKing, weakKing)) * 4 +
         (14 - manhattanDistance(strongKing, weakKing));
}

// ---- Table layout v1 (lib/core/types.ts) ----

constexpr int kKbnkTriangle[10] = {0, 1, 2, 3, 9, 10, 11, 18, 19, 27};  // a1 b1 c1 d1 b2 c2 d2 c3 d3 d4
constexpr std::size_t kKbnkPlacements = 10 * 64 * 64;                     // strong king x bishop x knight
constexpr std::size_t kKbnkTableSize = 2 * kKbnkPlacements * 64;
constexpr std::uint8_t kKbnkDraw = 254;
constexpr std::uint8_t kKbnkIllegal = 255;

constexpr std::size_t kbnkIndex(int stm, int triangleIndex, int bishop, int knight, int weakKing) {
  return (((static_cast<std::size_t>(stm) * 10 + triangleIndex) * 64 + bishop) * 64 + knight) * 64 + weakKing;
}

// ---- The eight board symmetries ----

// Symmetry s applies, in this order: bit 0 mirror the files (a <-> h), bit 1 mirror the ranks
// (1 <-> 8), bit 2 swap file and rank (the a1-h8 diagonal). Squares and sets map alike.
constexpr int mapSquare(int s, int sq) {
  int f = fileOf(sq), r = rankOf(sq);
  if (s & 1) f = 7 - f;
  if (s & 2) r = 7 - r;
  return (s & 4) ? 8 * f + r : 8 * r + f;
}

constexpr U64 mirrorHorizontal(U64 x) {
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  return ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
}

constexpr U64 flipDiagA1H8(U64 x) {
  U64 t = 0x0f0f0f0f00000000ULL & (x ^ (x << 28));
  x ^= t ^ (t >> 28);
  t = 0x3333000033330000ULL & (x ^ (x << 14));
  x ^= t ^ (t >> 14);
  t = 0x5500550055005500ULL & (x ^ (x << 7));
  return x ^ t ^ (t >> 7);
}

BBP_ALWAYS_INLINE constexpr U64 mapSet(int s, U64 x) {
  if (s & 1) x = mirrorHorizontal(x);
  if (s & 2) x = flipVertical(x);
  if (s & 4) x = flipDiagA1H8(x);
  return x;
}

namespace detail {
struct KbnkSymmetry {
  std::array<std::array<std::uint8_t, 64>, 8> square{};  // mapSquare(s, sq)
  std::array<std::uint8_t, 8> inverse{};
  std::array<std::uint8_t, 64> toTriangle{};             // a symmetry taking the square into a1-d1-d4
  std::array<std::int8_t, 64> triangleIndex{};           // index in kKbnkTriangle, or -1
};

constexpr KbnkSymmetry makeKbnkSymmetry() {
  KbnkSymmetry t{};
  for (int s = 0; s < 8; ++s)
    for (int sq = 0; sq < 64; ++sq) t.square[s][sq] = static_cast<std::uint8_t>(mapSquare(s, sq));
  for (int s = 0; s < 8; ++s)
    for (int u = 0; u < 8; ++u) {
      bool identity = true;
      for (int sq = 0; sq < 64; ++sq) identity = identity && mapSquare(u, mapSquare(s, sq)) == sq;
      if (identity) t.inverse[s] = static_cast<std::uint8_t>(u);
    }
  for (int sq = 0; sq < 64; ++sq) t.triangleIndex[sq] = -1;
  for (int i = 0; i < 10; ++i) t.triangleIndex[kKbnkTriangle[i]] = static_cast<std::int8_t>(i);
  for (int sq = 0; sq < 64; ++sq) {
    int s = (fileOf(sq) > 3 ? 1 : 0) | (rankOf(sq) > 3 ? 2 : 0);
    const int m = mapSquare(s, sq);
    if (rankOf(m) > fileOf(m)) s |= 4;
    t.toTriangle[sq] = static_cast<std::uint8_t>(s);
  }
  return t;
}
}  // namespace detail

inline constexpr detail::KbnkSymmetry kbnkSymmetry = detail::makeKbnkSymmetry();

}  // namespace BBP_ISA
}  // namespace bbp
