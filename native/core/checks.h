// Checks and pinned pieces (Chess Programming Wiki: Checks and Pinned Pieces): pinned pieces, pinners,
// discovered-check candidates and pin rays from the one blocker primitive (blockers.h); absolute pins
// by the page's x-ray method and by opposite ray-directions (DirGolem) as the two documented
// variants; check-block squares, and the kind of check a move gives (with a full legality test of
// the move on the board after it).
// Everything is templated on a slider policy (MagicSliders / PextSliders) so each kernel table
// instantiates it with its own lookup.
#pragma once

#include "blockers.h"
#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

// ---- The public pins, pinners and discovered-check candidates (blockers.h) ----
// Every check function takes the slider policy, so each kernel table instantiates them alike; these
// four need no slider lookup.

template <class Sliders>
U64 pinnedPieces(const Sliders&, const Board& b, int color) {
  return blockersPinned(b, color);
}

template <class Sliders>
U64 pinners(const Sliders&, const Board& b, int color) {
  return kingBlockers(b, b.kingSquare(color), color ^ 1, b.occupied()).pinners;
}

template <class Sliders>
U64 discoveredCheckCandidates(const Sliders&, const Board& b, int color) {
  return blockersDiscovering(b, color);
}

// ---- X-ray method (the Checks and Pinned Pieces page's loop), the first documented variant ----

// Enemy sliders seen by x-ray from the king of `color` through one of its own pieces, and the pieces
// between: the pinned pieces.
template <class Sliders>
U64 pinnedPiecesXray(const Sliders& s, const Board& b, int color) {
  const int kingSq = b.kingSquare(color);
  const U64 occ = b.occupied(), own = b.colors[color];
  const U64 pinner = (xrayRookAttacks(s, occ, own, kingSq) & orthSliders(b, color ^ 1)) |
                     (xrayBishopAttacks(s, occ, own, kingSq) & diagSliders(b, color ^ 1));
  U64 pinned = 0;
  for (U64 p = pinner; p; p &= p - 1) pinned |= between(lsb(p), kingSq) & own;
  return pinned;
}

// ---- Opposite ray-directions (DirGolem) ----

// Per direction d: the ray attacks of the sliders moving in d, intersected with the king's attacks in
// the opposite direction d ^ 4 (the king as a sliding super piece). Between a slider and the king
// the intersection is the empty squares when nothing stands between (a check), the one piece when
// exactly one does (pinned if the king's, else a discovered-check candidate), nothing otherwise.
// Returns the union over the eight directions.
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

// The second documented variant: the intersections of the enemy sliders' rays with the king's.
template <class Rays>
U64 pinnedPiecesOppositeRays(const Board& b, int color) {
  return Rays::oppositeRayIntersections(orthSliders(b, color ^ 1), diagSliders(b, color ^ 1),
                                        b.pieceSet(color, kKing), ~b.occupied()) &
         b.colors[color];
}

// ---- Both kings in one pass (checkAnalysisBatch, the batch analysis) ----

// From each king: the enemy pieces checking it, and its blockers (blockers.h) against the enemy
// sliders: ours among them are pinned, the enemy's are its discovered-check candidates.
// candidates[c]: the discovered-check candidates of colour c. kBlockers = false gives the checkers
// alone (pinned and candidates 0).
struct BothKingLines {
  U64 checkers[2], pinned[2], candidates[2];
};

template <bool kBlockers, class Sliders>
inline BothKingLines bothKingLines(const Sliders& s, const Board& b) {
  BothKingLines r;
  const U64 occ = b.occupied();
  for (int c = 0; c < 2; ++c) {
    const int k = b.kingSquare(c);
    const U64 own = b.colors[c], enemy = b.colors[c ^ 1];
    r.checkers[c] = attackersTo(s, b, k, c ^ 1, occ);
    if constexpr (kBlockers) {
      const U64 blockers = kingBlockers(b, k, c ^ 1, occ).blockers;
      r.pinned[c] = blockers & own;
      r.candidates[c ^ 1] = blockers & enemy;
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
  const BothKingLines r = bothKingLines<true>(s, b);
  out[0] = r.checkers[0];
  out[1] = r.pinned[0];
  out[2] = r.candidates[0];
  out[3] = r.checkers[1];
  out[4] = r.pinned[1];
  out[5] = r.candidates[1];
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
  if (popcount(ch) != 1) return 0;
  return between(b.kingSquare(color), lsb(ch));  // 0 for knights, pawns, adjacent pieces
}

constexpr U64 kEverySquare = ~U64{0};

// The pin ray of the piece on sq: the squares from its king to its pinner (the pinner included);
// every square when it is not pinned (or is a king, or sq is empty).
template <class Sliders>
U64 pinRay(const Sliders&, const Board& b, int sq) {
  const U64 bit = squareBB(sq);
  if (!(b.occupied() & bit) || (b.pieces[kKing] & bit)) return kEverySquare;
  const int color = (b.colors[1] & bit) ? 1 : 0;
  const int kingSq = b.kingSquare(color);
  const KingBlockers kb = kingBlockers(b, kingSq, color ^ 1, b.occupied());
  if (!(kb.blockers & bit)) return kEverySquare;
  // Two pinners may share the line (one on each side of the king): take the one behind sq.
  for (U64 p = kb.pinners & line(kingSq, sq); p; p &= p - 1) {
    const int pinner = lsb(p);
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

// Chess960 castling (FIDE Laws, Appendix: Chess960 rules): right r's move on b, the king from its
// square to g / c, the rook from the right's file to f / d. Every square either crosses or lands on
// must be empty but for the two of them; the king's squares (from, through, to) must not be
// attacked; and the king on its target must not be attacked once the rook has left its square (a
// rook that shielded the target along the back rank). The UCI form is the king taking its own rook.
inline CastlingMove chess960Castling(const Board& b, int r) {
  const int us = r >> 1, rank = us ? 56 : 0;
  const bool kingSide = (r & 1) == 0;
  CastlingMove m{1 << r, b.kingSquare(us), rank + (kingSide ? 6 : 2), rank + b.rookFile(r), rank + (kingSide ? 5 : 3), 0, 0};
  const U64 movers = squareBB(m.kingFrom) | squareBB(m.rookFrom);
  m.mustBeEmpty = (between(m.kingFrom, m.kingTo) | squareBB(m.kingTo) | between(m.rookFrom, m.rookTo) | squareBB(m.rookTo)) & ~movers;
  m.mustBeSafe = between(m.kingFrom, m.kingTo) | squareBB(m.kingTo) | squareBB(m.kingFrom);
  return m;
}

// The castling move of right r on b: the standard table's, or Chess960's.
inline CastlingMove castlingMove(const Board& b, int r) { return b.chess960 ? chess960Castling(b, r) : kCastlingMoves[r]; }

// The `to` square of a castling move's UCI text: the king's target, or its own rook in Chess960.
constexpr int castlingUciTo(const Board& b, const CastlingMove& c) { return b.chess960 ? c.rookFrom : c.kingTo; }

// The castling rights b keeps when a move touches sq (from or to): the standard table's, or in
// Chess960 all but those whose king or rook stands on sq.
inline int castlingKeep(const Board& b, int sq, int keepStandard) {
  if (!b.chess960) return keepStandard;
  int keep = 15;
  for (int r = 0; r < 4; ++r) {
    const int rank = r < 2 ? 0 : 56;
    if (sq == rank + b.rookFile(r) || (sq == b.kingSquare(r >> 1) && rankOf(sq) == rankOf(rank))) keep &= ~(1 << r);
  }
  return keep;
}

// Clears the rook file fields of the rights b no longer holds (a lost right's field is zero).
inline void dropLostRookFiles(Board& b) {
  int mask = 0;
  for (int r = 0; r < 4; ++r)
    if (b.castling & (1 << r)) mask |= 7 << (3 * r);
  b.rookFields &= mask;
}

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

// -1 when the move is not legal for the side to move, else kNoCheck .. kDoubleCheck (lib/core/types.ts).
// promotion: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen (the PieceType numbers).
// kKind false (isLegalMove): legality alone, kIllegal or kNoCheck, without the look at the enemy king.
// checkKind of a Chess960 castling move, the king (on from) taking its own rook (on to).
template <bool kKind, class Sliders>
int chess960CastleKind(const Sliders& s, const Board& b, int from, int to, int promotion) {
  const int us = b.sideToMove, them = us ^ 1;
  int right = -1;
  for (int r = 2 * us; r < 2 * us + 2; ++r)
    if ((b.castling & (1 << r)) && to == (us ? 56 : 0) + b.rookFile(r)) right = r;
  if (right < 0 || promotion != 0) return kIllegal;
  const CastlingMove c = chess960Castling(b, right);
  const U64 occ = b.occupied();
  if (c.kingFrom != from || (occ & c.mustBeEmpty)) return kIllegal;
  for (U64 safe = c.mustBeSafe; safe; safe &= safe - 1)
    if (attackersTo(s, b, lsb(safe), them, occ)) return kIllegal;
  Board after = b;
  detail::removePiece(after, us, kKing, squareBB(c.kingFrom));
  detail::removePiece(after, us, kRook, squareBB(c.rookFrom));
  detail::putPiece(after, us, kKing, squareBB(c.kingTo));
  detail::putPiece(after, us, kRook, squareBB(c.rookTo));
  const U64 occAfter = after.occupied();
  if (attackersTo(s, after, c.kingTo, them, occAfter)) return kIllegal;
  if constexpr (!kKind) return kNoCheck;
  const int enemyKingSq = after.kingSquare(them);
  const U64 givers = attackersTo(s, after, enemyKingSq, us, occAfter);
  int kind = (givers & squareBB(c.rookTo)) ? kDirectCheck : kNoCheck;
  for (U64 g = givers & ~squareBB(c.rookTo); g; g &= g - 1)
    if (between(lsb(g), enemyKingSq) & (squareBB(c.kingFrom) | squareBB(c.rookFrom))) kind |= kDiscoveredCheck;
  return kind;
}

template <bool kKind, class Sliders>
int checkKindWith(const Sliders& s, const Board& b, int from, int to, int promotion) {
  const int us = b.sideToMove, them = us ^ 1;
  const U64 fromBB = squareBB(from), toBB = squareBB(to), occ = b.occupied();
  if (b.chess960 && (b.pieceSet(us, kKing) & fromBB) && (b.pieceSet(us, kRook) & toBB))
    return chess960CastleKind<kKind>(s, b, from, to, promotion);
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
      if (b.chess960) return kIllegal;
      const CastlingMove* castle = nullptr;
      for (const CastlingMove& c : kCastlingMoves)
        if (c.kingFrom == from && c.kingTo == to && (b.castling & c.right)) castle = &c;
      if (!castle || !(b.pieceSet(us, kRook) & squareBB(castle->rookFrom)) || (occ & castle->mustBeEmpty))
        return kIllegal;
      for (U64 safe = castle->mustBeSafe; safe; safe &= safe - 1)
        if (attackersTo(s, b, lsb(safe), them, occ)) return kIllegal;
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
  if constexpr (!kKind) return kNoCheck;

  const int enemyKingSq = after.kingSquare(them);
  const U64 givers = attackersTo(s, after, enemyKingSq, us, occAfter);
  int kind = (givers & squareBB(checkerSq)) ? kDirectCheck : kNoCheck;
  for (U64 g = givers & ~squareBB(checkerSq); g; g &= g - 1)
    if (between(lsb(g), enemyKingSq) & vacated) kind |= kDiscoveredCheck;
  return kind;
}

template <class Sliders>
int checkKind(const Sliders& s, const Board& b, int from, int to, int promotion) {
  return checkKindWith<true>(s, b, from, to, promotion);
}

// Whether the move is legal for the side to move: checkKind's test without the check it gives.
template <class Sliders>
bool isLegalMove(const Sliders& s, const Board& b, int from, int to, int promotion) {
  return checkKindWith<false>(s, b, from, to, promotion) >= 0;
}

}  // namespace BBP_ISA
}  // namespace bbp
