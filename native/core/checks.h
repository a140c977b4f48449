// Checks and pinned pieces (Chess Programming Wiki: Checks and Pinned Pieces): absolute pins by the x-ray method and by
// opposite ray-directions (DirGolem), pinners, discovered-check candidates, check-block squares, the
// pin ray of a piece, and the kind of check a move gives (with a full legality test of the move).
// Everything is templated on a slider policy (MagicSliders / PextSliders) so each kernel table
// instantiates it with its own lookup.
#pragma once

#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

// ---- X-ray method (the Checks and Pinned Pieces page's loop) ----

// Sliders of `sliderColor` seen by x-ray from `kingSq` through one piece of `blockerColor`:
// rook-wise rooks/queens, bishop-wise bishops/queens.
template <class Sliders>
U64 xrayPinners(const Sliders& s, const Board& b, int kingSq, U64 blockers, int sliderColor) {
  const U64 occ = b.occupied();
  const U64 opRQ = (b.pieces[kRook] | b.pieces[kQueen]) & b.colors[sliderColor];
  const U64 opBQ = (b.pieces[kBishop] | b.pieces[kQueen]) & b.colors[sliderColor];
  return (xrayRookAttacks(s, occ, blockers, kingSq) & opRQ) | (xrayBishopAttacks(s, occ, blockers, kingSq) & opBQ);
}

template <class Sliders>
U64 pinnedPiecesXray(const Sliders& s, const Board& b, int color) {
  const int kingSq = b.kingSquare(color);
  const U64 own = b.colors[color];
  U64 pinned = 0;
  for (U64 pinner = xrayPinners(s, b, kingSq, own, color ^ 1); pinner; pinner &= pinner - 1)
    pinned |= between(__builtin_ctzll(pinner), kingSq) & own;
  return pinned;
}

template <class Sliders>
U64 pinners(const Sliders& s, const Board& b, int color) {
  return xrayPinners(s, b, b.kingSquare(color), b.colors[color], color ^ 1);
}

template <class Sliders>
U64 discoveredCheckCandidatesXray(const Sliders& s, const Board& b, int color) {
  const int enemyKingSq = b.kingSquare(color ^ 1);
  const U64 own = b.colors[color];
  U64 candidates = 0;
  for (U64 slider = xrayPinners(s, b, enemyKingSq, own, color); slider; slider &= slider - 1)
    candidates |= between(__builtin_ctzll(slider), enemyKingSq) & own;
  return candidates;
}

// ---- Opposite ray-directions (DirGolem) ----

// Per direction d: the ray attacks of the sliders moving in d, intersected with the king's attacks in
// the opposite direction d ^ 4 (the king as a sliding super piece). Between a slider and the king
// the intersection is the empty squares when nothing stands between (a check), the one piece when
// exactly one does (pinned if the king's, else a discovered-check candidate), nothing otherwise.
// Returns the union over the eight directions; `blocks` receives its empty squares.
struct ScalarRays {
  template <int D>
  static U64 meet(U64 orthSliders, U64 diagSliders, U64 king, U64 empty) {
    return rayAttacks(D, (D & 1) ? diagSliders : orthSliders, empty) & rayAttacks(D ^ 4, king, empty);
  }
  // Unrolled so every shift count and wrap mask is a constant.
  static U64 oppositeRayIntersections(U64 orthSliders, U64 diagSliders, U64 king, U64 empty) {
    return meet<0>(orthSliders, diagSliders, king, empty) | meet<1>(orthSliders, diagSliders, king, empty) |
           meet<2>(orthSliders, diagSliders, king, empty) | meet<3>(orthSliders, diagSliders, king, empty) |
           meet<4>(orthSliders, diagSliders, king, empty) | meet<5>(orthSliders, diagSliders, king, empty) |
           meet<6>(orthSliders, diagSliders, king, empty) | meet<7>(orthSliders, diagSliders, king, empty);
  }
  static U64 ray(int dir, U64 sliders, U64 empty) { return rayAttacks(dir, sliders, empty); }
};

#if defined(__SSE4_1__)
struct Sse41Rays {
  static U64 oppositeRayIntersections(U64 orthSliders, U64 diagSliders, U64 king, U64 empty) {
    const auto swapLanes = [](__m128i x) { return _mm_shuffle_epi32(x, 0x4e); };
    // Pairs {nort, sout} and {east, west} meet their own swapped king pair; {noEa, soEa} meets the
    // king's {noWe, soWe} swapped (soWe, noWe) and the other way round.
    const __m128i ns = _mm_and_si128(rayAttacksPair<0>(orthSliders, orthSliders, empty),
                                     swapLanes(rayAttacksPair<0>(king, king, empty)));
    const __m128i ew = _mm_and_si128(rayAttacksPair<3>(orthSliders, orthSliders, empty),
                                     swapLanes(rayAttacksPair<3>(king, king, empty)));
    const __m128i kingNoWeSoWe = rayAttacksPair<2>(king, king, empty);
    const __m128i kingNoEaSoEa = rayAttacksPair<1>(king, king, empty);
    const __m128i east = _mm_and_si128(rayAttacksPair<1>(diagSliders, diagSliders, empty), swapLanes(kingNoWeSoWe));
    const __m128i west = _mm_and_si128(rayAttacksPair<2>(diagSliders, diagSliders, empty), swapLanes(kingNoEaSoEa));
    const __m128i meet = _mm_or_si128(_mm_or_si128(ns, ew), _mm_or_si128(east, west));
    return lane0(meet) | lane1(meet);
  }
  static U64 ray(int dir, U64 sliders, U64 empty) { return rayAttacksSse41(dir, sliders, empty); }
};
#endif

template <class Rays>
U64 oppositeRaysFor(const Board& b, int kingColor, int sliderColor) {
  const U64 slidersOf = b.colors[sliderColor];
  return Rays::oppositeRayIntersections((b.pieces[kRook] | b.pieces[kQueen]) & slidersOf,
                                        (b.pieces[kBishop] | b.pieces[kQueen]) & slidersOf,
                                        b.pieceSet(kingColor, kKing), ~b.occupied());
}

template <class Rays>
U64 pinnedPiecesOppositeRays(const Board& b, int color) {
  return oppositeRaysFor<Rays>(b, color, color ^ 1) & b.colors[color];
}

template <class Rays>
U64 discoveredCheckCandidatesOppositeRays(const Board& b, int color) {
  return oppositeRaysFor<Rays>(b, color ^ 1, color) & b.colors[color];
}

// The empty squares of the same pass: the interposition squares of every distant slider check.
template <class Rays>
U64 checkBlockSquaresOppositeRays(const Board& b, int color, U64 checkers) {
  if (__builtin_popcountll(checkers) != 1) return 0;
  return oppositeRaysFor<Rays>(b, color, color ^ 1) & ~b.occupied();
}

// ---- Both kings in one pass (checkAnalysisBatch) ----

// What one look from the king of `color` finds: the enemy pieces checking it, and the pieces that
// stand alone between it and an enemy slider on that slider's line. Ours among them are pinned; the
// enemy's are its discovered-check candidates (the Checks and Pinned Pieces page's two x-rays, through our pieces and through
// the enemy's, folded into one x-ray through every first blocker). Four slider lookups in all: the
// attacks that find the checkers also give the first blockers for the x-ray.
struct KingLines {
  U64 checkers, pinned, enemyDiscoveredCheckCandidates;
};

template <class Sliders>
KingLines kingLines(const Sliders& s, const Board& b, int color) {
  const int k = b.kingSquare(color);
  const U64 occ = b.occupied(), own = b.colors[color], enemy = b.colors[color ^ 1];
  const U64 enemyRQ = (b.pieces[kRook] | b.pieces[kQueen]) & enemy;
  const U64 enemyBQ = (b.pieces[kBishop] | b.pieces[kQueen]) & enemy;
  const U64 rook = s.rook(k, occ), bishop = s.bishop(k, occ);
  const U64 checkers = (rook & enemyRQ) | (bishop & enemyBQ) | (knightAttacks(k) & b.pieces[kKnight] & enemy) |
                       (pawnAttacks(color, k) & b.pieces[kPawn] & enemy) | (kingAttacks(k) & b.pieces[kKing] & enemy);
  // Enemy sliders second on their line from the king: exactly one piece stands between.
  const U64 behind = ((rook ^ s.rook(k, occ & ~rook)) & enemyRQ) | ((bishop ^ s.bishop(k, occ & ~bishop)) & enemyBQ);
  U64 screens = 0;
  for (U64 slider = behind; slider; slider &= slider - 1) screens |= between(k, __builtin_ctzll(slider));
  return {checkers, screens & own, screens & enemy};
}

// kingLines for both kings at once, the shared sets computed once (the batch loops' form; kXray =
// false gives the checkers alone, pinned and candidates 0). candidates[c]: the discovered-check
// candidates of colour c (its pieces alone between one of its sliders and the enemy king).
struct BothKingLines {
  U64 checkers[2], pinned[2], candidates[2];
};

template <bool kXray, class Sliders>
inline BothKingLines bothKingLines(const Sliders& s, const Board& b) {
  BothKingLines r;
  const U64 occ = b.occupied();
  const U64 rq = b.pieces[kRook] | b.pieces[kQueen], bq = b.pieces[kBishop] | b.pieces[kQueen];
  for (int c = 0; c < 2; ++c) {
    const int k = b.kingSquare(c);
    const U64 own = b.colors[c], enemy = b.colors[c ^ 1];
    const U64 rook = s.rook(k, occ), bishop = s.bishop(k, occ);
    r.checkers[c] = ((rook & rq) | (bishop & bq) | (knightAttacks(k) & b.pieces[kKnight]) |
                     (pawnAttacks(c, k) & b.pieces[kPawn]) | (kingAttacks(k) & b.pieces[kKing])) & enemy;
    if constexpr (kXray) {
      const U64 behind = (((rook ^ s.rook(k, occ & ~rook)) & rq) | ((bishop ^ s.bishop(k, occ & ~bishop)) & bq)) & enemy;
      U64 screens = 0;
      for (U64 slider = behind; slider; slider &= slider - 1) screens |= between(k, __builtin_ctzll(slider));
      r.pinned[c] = screens & own;
      r.candidates[c ^ 1] = screens & enemy;
    } else {
      r.pinned[c] = 0;
      r.candidates[c ^ 1] = 0;
    }
  }
  return r;
}

// The six words of checkAnalysisBatch: checkers of white's king, white's pinned pieces, white's
// discovered-check candidates, then the same three for black.
template <class Sliders>
void checkAnalysis(const Sliders& s, const Board& b, U64* out) {
  const KingLines white = kingLines(s, b, 0), black = kingLines(s, b, 1);
  out[0] = white.checkers;
  out[1] = white.pinned;
  out[2] = black.enemyDiscoveredCheckCandidates;
  out[3] = black.checkers;
  out[4] = black.pinned;
  out[5] = white.enemyDiscoveredCheckCandidates;
}

constexpr int kCheckAnalysisWords = 6;

// Kings on e1 and e8, nothing else: what the batch analyses in place of an invalid position.
inline constexpr U64 kStandInPosition[kPackedPositionWords] = {
    squareBB(4), squareBB(60), 0, 0, 0, 0, 0, squareBB(4) | squareBB(60), U64{kNoSquare} << 8, 1};

// Checks each packed position (packedIsValid) and analyses it, in one pass. The check does not branch:
// an invalid position is swapped for kStandInPosition (so nothing reads outside a table) and noted,
// which keeps the loop free to overlap one position's check with the others' lookups. Returns n, or
// the index of the first invalid position (out[] then holds stand-in results for the invalid ones).
template <class Sliders>
std::size_t checkAnalysisBatch(const Sliders& s, const U64* positions, U64* out, std::size_t n) {
  bool allValid = true;
  for (std::size_t i = 0; i < n; ++i) {
    const U64* words = positions + i * kPackedPositionWords;
    const bool valid = packedIsValid(words);
    allValid &= valid;
    checkAnalysis(s, unpack(valid ? words : kStandInPosition), out + i * kCheckAnalysisWords);
  }
  if (allValid) return n;
  for (std::size_t i = 0;; ++i)
    if (!packedIsValid(positions + i * kPackedPositionWords)) return i;
}

// ---- Check blocks and pin rays ----

template <class Sliders>
U64 checkBlockSquares(const Sliders& s, const Board& b, int color) {
  const U64 ch = checkers(s, b, color);
  if (__builtin_popcountll(ch) != 1) return 0;
  return between(b.kingSquare(color), __builtin_ctzll(ch));  // 0 for knights, pawns, adjacent pieces
}

constexpr U64 kEverySquare = ~U64{0};

template <class Sliders>
U64 pinRay(const Sliders& s, const Board& b, int sq) {
  const U64 bit = squareBB(sq);
  if (!(b.occupied() & bit) || (b.pieces[kKing] & bit)) return kEverySquare;
  const int color = (b.colors[1] & bit) ? 1 : 0;
  const int kingSq = b.kingSquare(color);
  if (!(pinnedPiecesXray(s, b, color) & bit)) return kEverySquare;
  // Two pinners may share the line (one on each side of the king): take the one behind sq.
  for (U64 p = pinners(s, b, color) & line(kingSq, sq); p; p &= p - 1) {
    const int pinner = __builtin_ctzll(p);
    if (between(kingSq, pinner) & bit) return between(kingSq, pinner) | squareBB(pinner);
  }
  return kEverySquare;  // not reached: a pinned piece has its pinner on that line
}

// ---- The check a move gives ----

struct CastlingMove {
  int right, kingFrom, kingTo, rookFrom, rookTo;
  U64 mustBeEmpty, mustBeSafe;
};

constexpr U64 squaresBB(int a, int b, int c = -1) {
  return squareBB(a) | squareBB(b) | (c >= 0 ? squareBB(c) : 0);
}

inline constexpr CastlingMove kCastlingMoves[4] = {
  {kWhiteKing, 4, 6, 7, 5, squaresBB(5, 6), squaresBB(4, 5, 6)},
  {kWhiteQueen, 4, 2, 0, 3, squaresBB(1, 2, 3), squaresBB(4, 3, 2)},
  {kBlackKing, 60, 62, 63, 61, squaresBB(61, 62), squaresBB(60, 61, 62)},
  {kBlackQueen, 60, 58, 56, 59, squaresBB(57, 58, 59), squaresBB(60, 59, 58)},
};

enum CheckKindValue : int { kIllegal = -1, kNoCheck = 0, kDirectCheck = 1, kDiscoveredCheck = 2, kDoubleCheck = 3 };

namespace detail {
inline void removePiece(Board& b, int color, int type, U64 bit) {
  b.colors[color] &= ~bit;
  b.pieces[type] &= ~bit;
}
inline void putPiece(Board& b, int color, int type, U64 bit) {
  b.colors[color] |= bit;
  b.pieces[type] |= bit;
}
}  // namespace detail

// -1 when the move is not legal for the side to move, else kNoCheck .. kDoubleCheck (lib/backend.ts).
// promotion: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen (the PieceType numbers).
template <class Sliders>
int checkKind(const Sliders& s, const Board& b, int from, int to, int promotion) {
  const int us = b.sideToMove, them = us ^ 1;
  const U64 fromBB = squareBB(from), toBB = squareBB(to), occ = b.occupied();
  if (!(b.colors[us] & fromBB) || (b.colors[us] & toBB) || (b.pieces[kKing] & toBB)) return kIllegal;
  const int type = b.typeOn(from);
  const bool promotes = type == kPawn && rankOf(to) == (us == 0 ? 7 : 0);
  if (promotes != (promotion != 0)) return kIllegal;

  Board after = b;
  U64 vacated = fromBB;  // squares whose emptying may open a line to the enemy king
  int checkerSq = to;    // where the piece that may give direct check stands afterwards
  if (b.colors[them] & toBB) detail::removePiece(after, them, b.typeOn(to), toBB);

  switch (type) {
    case kPawn: {
      const int forward = us == 0 ? 8 : -8;
      if (to == from + forward) {
        if (occ & toBB) return kIllegal;
      } else if (to == from + 2 * forward && rankOf(from) == (us == 0 ? 1 : 6)) {
        if (occ & (toBB | squareBB(from + forward))) return kIllegal;
      } else if (pawnAttacks(us, from) & toBB) {
        if (!(b.colors[them] & toBB)) {  // en passant, or nothing to capture
          const U64 capturedBB = squareBB(to - forward);
          if (to != b.epSquare || !(b.pieceSet(them, kPawn) & capturedBB)) return kIllegal;
          detail::removePiece(after, them, kPawn, capturedBB);
          vacated |= capturedBB;
        }
      } else {
        return kIllegal;
      }
      break;
    }
    case kKnight:
      if (!(knightAttacks(from) & toBB)) return kIllegal;
      break;
    case kBishop:
      if (!(s.bishop(from, occ) & toBB)) return kIllegal;
      break;
    case kRook:
      if (!(s.rook(from, occ) & toBB)) return kIllegal;
      break;
    case kQueen:
      if (!(s.queen(from, occ) & toBB)) return kIllegal;
      break;
    default: {  // king
      if (kingAttacks(from) & toBB) break;
      const CastlingMove* castle = nullptr;
      for (const CastlingMove& c : kCastlingMoves)
        if (c.kingFrom == from && c.kingTo == to && (b.castling & c.right)) castle = &c;
      if (!castle || !(b.pieceSet(us, kRook) & squareBB(castle->rookFrom)) || (occ & castle->mustBeEmpty))
        return kIllegal;
      for (U64 safe = castle->mustBeSafe; safe; safe &= safe - 1)
        if (attackersTo(s, b, __builtin_ctzll(safe), them, occ)) return kIllegal;
      detail::removePiece(after, us, kRook, squareBB(castle->rookFrom));
      detail::putPiece(after, us, kRook, squareBB(castle->rookTo));
      vacated |= squareBB(castle->rookFrom);
      checkerSq = castle->rookTo;
      break;
    }
  }
  detail::removePiece(after, us, type, fromBB);
  detail::putPiece(after, us, promotes ? promotion : type, toBB);

  const U64 occAfter = after.occupied();
  if (attackersTo(s, after, after.kingSquare(us), them, occAfter)) return kIllegal;

  const int enemyKingSq = after.kingSquare(them);
  const U64 givers = attackersTo(s, after, enemyKingSq, us, occAfter);
  int kind = (givers & squareBB(checkerSq)) ? kDirectCheck : kNoCheck;
  for (U64 g = givers & ~squareBB(checkerSq); g; g &= g - 1)
    if (between(__builtin_ctzll(g), enemyKingSq) & vacated) kind |= kDiscoveredCheck;
  return kind;
}

}  // namespace BBP_ISA
}  // namespace bbp
