// The blockers of a king (Chess Programming Wiki: Checks and Pinned Pieces, Pin, Discovered Check):
// the pieces that stand alone between a king square and a slider that would see it on an empty
// board, and those sliders. It is the one primitive behind pinned pieces and their pinners (blockers
// of the king's own colour), discovered-check candidates (blockers of the sliders' colour), pin rays,
// legal move generation, perft and the batch analysis. The page's x-ray and opposite-ray methods
// (checks.h) stay as the two documented variants of pinned pieces.
//
// Method: the sliders on the king's empty-board rook and bishop lines are the only candidates; for
// each, the occupancy strictly between (a between-table lookup) must hold exactly one piece. No
// slider lookup, so it needs no slider policy and serves every kernel table alike.
#pragma once

#include <array>

#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

namespace detail {
constexpr std::array<std::array<U64, 64>, 2> makeEmptyBoardRays() {
  std::array<std::array<U64, 64>, 2> t{};
  for (int sq = 0; sq < 64; ++sq) {
    t[0][sq] = rookAttacksWalk(sq, 0);
    t[1][sq] = bishopAttacksWalk(sq, 0);
  }
  return t;
}
}  // namespace detail

// Rook and bishop attacks on the empty board.
inline constexpr std::array<std::array<U64, 64>, 2> arrEmptyBoardRays = detail::makeEmptyBoardRays();
constexpr U64 rookRays(int sq) { return arrEmptyBoardRays[0][sq]; }
constexpr U64 bishopRays(int sq) { return arrEmptyBoardRays[1][sq]; }

// Slider sets of one colour: rook-wise (rooks, queens) and bishop-wise (bishops, queens).
inline U64 orthSliders(const Board& b, int color) { return (b.pieces[kRook] | b.pieces[kQueen]) & b.colors[color]; }
inline U64 diagSliders(const Board& b, int color) { return (b.pieces[kBishop] | b.pieces[kQueen]) & b.colors[color]; }

struct KingBlockers {
  U64 blockers;  // pieces of either colour alone between kingSq and a slider of sliderColor
  U64 pinners;   // those sliders whose lone blocker has the king's colour (sliderColor ^ 1)
};

// The blockers of the king on kingSq against the sliders of `sliderColor`, lines seen through `occ`
// (b.occupied(), or that of a board a move is about to change). Blockers of the king's colour are
// pinned; blockers of sliderColor are its discovered-check candidates.
inline KingBlockers kingBlockers(const Board& b, int kingSq, int sliderColor, U64 occ) {
  KingBlockers r{0, 0};
  const U64 kingSide = b.colors[sliderColor ^ 1];
  for (U64 sn = (rookRays(kingSq) & orthSliders(b, sliderColor)) | (bishopRays(kingSq) & diagSliders(b, sliderColor));
       sn; sn &= sn - 1) {
    const U64 inBetween = between(kingSq, lsb(sn)) & occ;
    if (inBetween && !(inBetween & (inBetween - 1))) {
      r.blockers |= inBetween;
      if (inBetween & kingSide) r.pinners |= sn & (~sn + 1);
    }
  }
  return r;
}

// Pinned pieces of `color`: its blockers against the enemy sliders.
inline U64 blockersPinned(const Board& b, int color) {
  return kingBlockers(b, b.kingSquare(color), color ^ 1, b.occupied()).blockers & b.colors[color];
}

// Discovered-check candidates of `color`: its blockers between its sliders and the enemy king.
inline U64 blockersDiscovering(const Board& b, int color) {
  return kingBlockers(b, b.kingSquare(color ^ 1), color, b.occupied()).blockers & b.colors[color];
}

}  // namespace BBP_ISA
}  // namespace bbp
