// King patterns (Chess Programming Wiki: King Pattern): attacks, pawn shield, distant-check lines (dirSet), the set-wise
// rule of the square, and king path fills.
#pragma once

#include <array>

#include "bitboard.h"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace bbp {
inline namespace BBP_ISA {

// ---- King attacks ----

// By calculation: the horizontal neighbours first, then those plus the king shifted up and down.
constexpr U64 kingAttacksSet(U64 kingSet) {
  U64 attacks = eastOne(kingSet) | westOne(kingSet);
  kingSet |= attacks;
  attacks |= nortOne(kingSet) | soutOne(kingSet);
  return attacks;
}

// One cycle of the king path fill (King Pattern: king attacks by calculation are the base of king
// path fill algorithms, see Flood Fill Algorithms): the kings and every square they attack.
constexpr U64 kingFill(U64 kings) { return kingAttacksSet(kings) | kings; }

inline constexpr std::array<U64, 64> arrKingAttacks = tableBySquare(kingAttacksSet);

// By lookup.
constexpr U64 kingAttacks(int sq) { return arrKingAttacks[sq]; }

// ---- Pawn shield ----

namespace detail {
// West-most file of the three shield files for a king on `file`.
constexpr int shieldFirstFile(int file) { return file <= 2 ? 0 : file >= 5 ? 5 : file - 1; }
// The rank next to the back rank, and the one after it, as seen by `color`.
constexpr int shieldNearRank(int color) { return color == 0 ? 1 : 6; }
constexpr int shieldFarRank(int color) { return color == 0 ? 2 : 5; }
constexpr bool hasShield(int color, int kingSq) {
  return (color == 0 ? rankOf(kingSq) : 7 - rankOf(kingSq)) <= 1;
}
constexpr int shieldShift(int kingSq, int rank) {
  return 8 * rank + shieldFirstFile(fileOf(kingSq));
}

constexpr std::array<std::array<U64, 64>, 2> makePawnShieldMasks() {
  std::array<std::array<U64, 64>, 2> table{};
  for (int color = 0; color < 2; ++color)
    for (int sq = 0; sq < 64; ++sq)
      if (hasShield(color, sq))
        table[color][sq] = (U64{7} << shieldShift(sq, shieldNearRank(color))) |
                           (U64{7} << shieldShift(sq, shieldFarRank(color)));
  return table;
}
}  // namespace detail

inline constexpr std::array<std::array<U64, 64>, 2> arrPawnShieldMask = detail::makePawnShieldMasks();

constexpr U64 pawnShieldMask(int color, int kingSq) { return arrPawnShieldMask[color][kingSq]; }

// Two 3-bit rank slices of the shield: near rank in bits 0-2, far rank in bits 3-5.
constexpr int pawnShieldIndex(int color, int kingSq, U64 pawns) {
  if (!detail::hasShield(color, kingSq)) return 0;
  const U64 near = pawns >> detail::shieldShift(kingSq, detail::shieldNearRank(color));
  const U64 far = pawns >> detail::shieldShift(kingSq, detail::shieldFarRank(color));
  return static_cast<int>((near & 7) | ((far & 7) << 3));
}

// ---- Vulnerable on distant checks ----

constexpr U64 kingMoveTargets(int kingSq, U64 taboo) { return kingAttacks(kingSq) & ~taboo; }

// The four lines through a square; two per 16 bytes for the SSE4.1 dirSet.
struct alignas(16) SKingBits {
  U64 rankBits;
  U64 fileBits;
  U64 diagBits;  // a1-h8 direction
  U64 antiBits;  // h1-a8 direction
};

namespace detail {
constexpr std::array<SKingBits, 64> makeKingBits() {
  std::array<SKingBits, 64> table{};
  for (int sq = 0; sq < 64; ++sq)
    for (int other = 0; other < 64; ++other) {
      const U64 bit = squareBB(other);
      const int dr = rankOf(other) - rankOf(sq), df = fileOf(other) - fileOf(sq);
      if (dr == 0) table[sq].rankBits |= bit;
      if (df == 0) table[sq].fileBits |= bit;
      if (dr == df) table[sq].diagBits |= bit;
      if (dr == -df) table[sq].antiBits |= bit;
    }
  return table;
}
}  // namespace detail

inline constexpr std::array<SKingBits, 64> kingBits = detail::makeKingBits();

// pattern = move targets | king square. Lines through the king meet only on the king square, so a
// pattern with at least one target lies on one line at most; with no target it lies on all four (15).
constexpr int dirSetBranchy(U64 pattern, int sq) {
  const SKingBits& kb = kingBits[sq];
  if (pattern == squareBB(sq)) return 15;  // no move: vulnerable on all lines
  if ((pattern & kb.rankBits) == pattern) return 1;
  if ((pattern & kb.fileBits) == pattern) return 2;
  if ((pattern & kb.diagBits) == pattern) return 4;
  if ((pattern & kb.antiBits) == pattern) return 8;
  return 0;
}

constexpr int dirSetBranchless(U64 pattern, int sq) {
  const SKingBits& kb = kingBits[sq];
  return ((pattern & kb.rankBits) == pattern) * 1 + ((pattern & kb.fileBits) == pattern) * 2 +
         ((pattern & kb.diagBits) == pattern) * 4 + ((pattern & kb.antiBits) == pattern) * 8;
}

#if defined(__SSE4_1__)
inline int dirSetSse41(U64 pattern, int sq) {
  alignas(16) static constexpr U64 weights[4] = {1, 2, 4, 8};
  const __m128i* pKB = reinterpret_cast<const __m128i*>(&kingBits[sq]);
  const __m128i* pW = reinterpret_cast<const __m128i*>(weights);
  __m128i x2 = _mm_cvtsi64_si128(static_cast<long long>(pattern));
  x2 = _mm_unpacklo_epi64(x2, x2);
  __m128i x0 = _mm_and_si128(x2, _mm_load_si128(pKB + 0));
  __m128i x1 = _mm_and_si128(x2, _mm_load_si128(pKB + 1));
  x0 = _mm_cmpeq_epi64(x0, x2);
  x1 = _mm_cmpeq_epi64(x1, x2);
  x0 = _mm_and_si128(x0, _mm_load_si128(pW + 0));
  x1 = _mm_and_si128(x1, _mm_load_si128(pW + 1));
  x0 = _mm_or_si128(x0, x1);
  x1 = _mm_unpackhi_epi64(x0, x0);
  x0 = _mm_or_si128(x0, x1);
  return _mm_cvtsi128_si32(x0);
}
#endif

// The distant-check line set of a king with the given taboo squares (King Pattern, Vulnerable on
// Distant Checks): dirSet of the king's move targets and its own square, by the dirSet variant given.
inline int distantCheckLinesBy(int (*dirSet)(U64, int), int kingSq, U64 taboo) {
  return dirSet(kingMoveTargets(kingSq, taboo) | squareBB(kingSq), kingSq);
}
// The same with the variant fixed at compile time (the batch loops).
template <int (*DirSet)(U64, int)>
inline int distantCheckLinesWith(int kingSq, U64 taboo) {
  return distantCheckLinesBy(DirSet, kingSq, taboo);
}

// ---- Set-wise rule of the square ----

constexpr U64 kPawnRanks = ~(kRank1 | kRank8);

namespace detail {
// Black king, white (pawn side) to move: the King Pattern page's fill. Spread along the king's rank by its
// distance to the 8th rank, then one file wider per rank southwards down to the 3rd rank; the 2nd
// rank is a copy of the 3rd (double push), replacing whatever the fill left there.
constexpr U64 caughtByBlackKingPawnToMove(int kingSq) {
  const int rank = rankOf(kingSq);
  const int distance = rank ^ 7;
  U64 caughtable = squareBB(kingSq);
  for (int i = 0; i < distance; ++i) caughtable |= westOne(caughtable) | eastOne(caughtable);
  for (int i = 0; i < rank - 2; ++i)
    caughtable |= soutOne(westOne(caughtable) | caughtable | eastOne(caughtable));
  caughtable = (caughtable & ~rankBB(1)) | soutOne(caughtable & rankBB(2));
  return caughtable & kPawnRanks;
}

using CaughtTable = std::array<std::array<std::array<U64, 64>, 2>, 2>;  // [king][stm][sq]

constexpr CaughtTable makeCaughtableArea() {
  CaughtTable table{};
  constexpr int white = 0, black = 1;
  for (int sq = 0; sq < 64; ++sq) table[black][white][sq] = caughtByBlackKingPawnToMove(sq);
  // The king's tempo: the king may first step to any neighbour (or stay), so union those areas. Or it
  // takes a pawn next to it at once, which the distance race misses for a pawn on its initial rank
  // beside or in front of a king on its back rank (black Kb1 takes Pa2).
  for (int sq = 0; sq < 64; ++sq) {
    U64 area = table[black][white][sq] | (kingAttacks(sq) & kPawnRanks);
    for (int to = 0; to < 64; ++to)
      if (chebyshev(sq, to) == 1) area |= table[black][white][to];
    table[black][black][sq] = area;
  }
  // A white king is the black king mirrored, with the side to move mirrored too.
  for (int stm = 0; stm < 2; ++stm)
    for (int sq = 0; sq < 64; ++sq) table[white][stm][sq] = flipVertical(table[black][stm ^ 1][sq ^ 56]);
  return table;
}
}  // namespace detail

inline constexpr detail::CaughtTable arrCaughtableArea = detail::makeCaughtableArea();

constexpr U64 caughtableArea(int kingColor, int sideToMove, int kingSq) {
  return arrCaughtableArea[kingColor][sideToMove][kingSq];
}

constexpr U64 uncatchablePassers(U64 passers, int kingColor, int sideToMove, int kingSq) {
  return passers & ~caughtableArea(kingColor, sideToMove, kingSq);
}

// ---- Flood fill ----

// Steffan Westcott's 8-way flood fill from any bit of sq1 towards any bit of sq2 inside path.
constexpr bool squaresAreConnected(U64 sq1, U64 sq2, U64 path) {
  if (!(sq1 &= path) || !(sq2 &= path)) return false;
  while (!(sq1 & sq2)) {
    const U64 temp = sq1;
    sq1 |= eastOne(sq1) | westOne(sq1);
    sq1 |= soutOne(sq1) | nortOne(sq1);
    sq1 &= path;
    if (sq1 == temp) return false;
  }
  return true;
}

constexpr int kingDistance(int from, int to, U64 path) { return fillDistance(from, to, path, kingFill); }

// The King Pattern page's measure of king attacks: a king attacks the squares at Chebyshev distance
// one (the Distance page): max(file distance, rank distance), the king steps between two squares
// of an empty board.
constexpr int chebyshevDistance(int a, int b) { return chebyshev(a, b); }

// The squares of `path` that Steffan Westcott's 8-way flood fill (the King Pattern page's
// squaresAreConnected) reaches from `from`, run until it stops: the region of `path` a king on
// `from` may walk to. squaresAreConnected(from, to, path) is (kingPathFill(from, path) & to & path) != 0.
constexpr U64 kingPathFill(U64 from, U64 path) {
  U64 fill = from & path;
  for (U64 before = 0; fill != before;) {
    before = fill;
    fill = kingFill(fill) & path;
  }
  return fill;
}

}  // namespace BBP_ISA
}  // namespace bbp
