// Batch position analysis: every feature of lib/core/features.ts FEATURES for one packed position, computed
// only when asked for, with the work the features share done once (one look from each king gives
// its checkers, and its blockers (core/blockers.h): the pins against it and the other side's
// discovered-check candidates).
// Results go straight into the caller's typed arrays; no allocation, no per-position objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "checks.h"
#include "generated/features.h"
#include "motifs.h"
#include "movegen.h"
#include "polyglot.h"

namespace bbp {
inline namespace BBP_ISA {

// FeatureId, its widths and kinds: generated from lib/core/features.ts (the one list).
constexpr unsigned featureBit(FeatureId f) { return 1u << f; }
constexpr std::uint8_t kIllegalPosition = 255;  // legalMoveCount when the side not to move is in check

// The one place the analysis asks the move generator (native/core/movegen.h) for anything.
template <class Sliders>
inline int countLegalMoves(const Sliders& s, const Board& b) {
  return static_cast<int>(b.sideToMove == 0 ? movegen::countMoves<0>(s, b) : movegen::countMoves<1>(s, b));
}

// Output pointers indexed by FeatureId (nullptr when not requested).
struct FeatureOutputs {
  void* out[kFeatureCount];
  U64* u64(FeatureId f) const { return static_cast<U64*>(out[f]); }
  std::uint8_t* u8(FeatureId f) const { return static_cast<std::uint8_t*>(out[f]); }
};

// ---- Pieces of the analysis ----

// Pawns of `color` with no enemy pawn ahead on their own or a neighbouring file.
constexpr U64 passedPawns(const Board& b, int color) {
  const U64 own = b.pieceSet(color, kPawn), enemy = b.pieceSet(color ^ 1, kPawn);
  U64 span = 0;
  if (color == 0) {  // squares from which a white pawn would still meet a black pawn: south of each
    span = soutOne(enemy);
    span |= span >> 8;
    span |= span >> 16;
    span |= span >> 32;
  } else {
    span = nortOne(enemy);
    span |= span << 8;
    span |= span << 16;
    span |= span << 32;
  }
  span |= eastOne(span) | westOne(span);
  return own & ~span;
}

// Squares attacked by `color` with sliders seen through `occupied`, and the number of
// (piece, square) attack pairs on `zone`.
template <class Sliders>
inline U64 attacksAndZoneCount(const Sliders& s, const Board& b, int color, U64 occupied, U64 zone, int* zoneCount) {
  const U64 own = b.colors[color];
  const U64 pawns = b.pieces[kPawn] & own, knights = b.pieces[kKnight] & own;
  const U64 pawnEast = color == 0 ? nortOne(eastOne(pawns)) : soutOne(eastOne(pawns));
  const U64 pawnWest = color == 0 ? nortOne(westOne(pawns)) : soutOne(westOne(pawns));
  const U64 king = kingAttacks(b.kingSquare(color));
  U64 attacks = pawnEast | pawnWest | knightAttacksSet(knights) | king;
  int count = 0;
  if (zoneCount)
    count = popcount(pawnEast & zone) + popcount(pawnWest & zone) +
            popcount(noNoEa(knights) & zone) + popcount(noEaEa(knights) & zone) +
            popcount(soEaEa(knights) & zone) + popcount(soSoEa(knights) & zone) +
            popcount(noNoWe(knights) & zone) + popcount(noWeWe(knights) & zone) +
            popcount(soWeWe(knights) & zone) + popcount(soSoWe(knights) & zone) +
            popcount(king & zone);
  for (U64 x = (b.pieces[kBishop] | b.pieces[kQueen]) & own; x; x &= x - 1) {
    const U64 a = s.bishop(lsb(x), occupied);
    attacks |= a;
    count += popcount(a & zone);
  }
  for (U64 x = (b.pieces[kRook] | b.pieces[kQueen]) & own; x; x &= x - 1) {
    const U64 a = s.rook(lsb(x), occupied);
    attacks |= a;
    count += popcount(a & zone);
  }
  if (zoneCount) *zoneCount = count;
  return attacks;
}

// ---- One position ----

constexpr unsigned kCheckPassFeatures = featureBit(kFeatCheckers) | featureBit(kFeatPinned) |
                                        featureBit(kFeatDiscoveredCheckCandidates) | featureBit(kFeatInCheck) |
                                        featureBit(kFeatLegalMoveCount) | featureBit(kFeatCheckmate) |
                                        featureBit(kFeatStalemate);

constexpr unsigned kMotifFeatures = featureBit(kFeatHanging) | featureBit(kFeatForks) |
                                    featureBit(kFeatRelativePins) | featureBit(kFeatSkewers) |
                                    featureBit(kFeatDiscoveredAttacks);

template <class Sliders>
inline void analyzePosition(const Sliders& s, const U64* w, std::size_t i, unsigned features, const FeatureOutputs& o) {
  const Board b = unpack(w);
  const U64 occ = b.occupied();
  const int kingSq[2] = {b.kingSquare(0), b.kingSquare(1)};

  if (features & kCheckPassFeatures) {
    // The look of checks.h from each king: its checkers, then its blockers (kingBlockers: ours are
    // pinned, the enemy's are its discovered-check candidates).
    const BothKingLines lines = features & (featureBit(kFeatPinned) | featureBit(kFeatDiscoveredCheckCandidates))
                                    ? bothKingLines<true>(s, b)
                                    : bothKingLines<false>(s, b);
    const U64* chk = lines.checkers;
    const U64* pin = lines.pinned;
    const U64* disc = lines.candidates;
    if (U64* out = o.u64(kFeatCheckers)) out[2 * i] = chk[0], out[2 * i + 1] = chk[1];
    if (U64* out = o.u64(kFeatPinned)) out[2 * i] = pin[0], out[2 * i + 1] = pin[1];
    if (U64* out = o.u64(kFeatDiscoveredCheckCandidates)) out[2 * i] = disc[0], out[2 * i + 1] = disc[1];
    if (std::uint8_t* out = o.u8(kFeatInCheck)) out[i] = chk[b.sideToMove] != 0;
    if (features & (featureBit(kFeatLegalMoveCount) | featureBit(kFeatCheckmate) | featureBit(kFeatStalemate))) {
      // A board where the side not to move is in check has no meaningful move list: flag it.
      const bool illegal = chk[b.sideToMove ^ 1] != 0;
      const int moves = illegal ? -1 : countLegalMoves(s, b);
      if (std::uint8_t* out = o.u8(kFeatLegalMoveCount)) out[i] = illegal ? kIllegalPosition : static_cast<std::uint8_t>(moves);
      if (std::uint8_t* out = o.u8(kFeatCheckmate)) out[i] = moves == 0 && chk[b.sideToMove];
      if (std::uint8_t* out = o.u8(kFeatStalemate)) out[i] = moves == 0 && !chk[b.sideToMove];
    }
  }

  U64* attacked = o.u64(kFeatAttacked);
  std::uint8_t* zone = o.u8(kFeatKingZoneAttacks);
  if (attacked || zone) {
    for (int c = 0; c < 2; ++c) {
      const int enemyKing = kingSq[c ^ 1];
      int count = 0;
      const U64 a = attacksAndZoneCount(s, b, c, occ, kingAttacks(enemyKing) | squareBB(enemyKing), zone ? &count : nullptr);
      if (attacked) attacked[2 * i + c] = a;
      if (zone) zone[2 * i + (c ^ 1)] = static_cast<std::uint8_t>(count);
    }
  }
  if (std::uint8_t* out = o.u8(kFeatDistantCheckLines)) {
    // The king may not step onto its own pieces nor onto a square the enemy attacks, sliders seeing
    // through the king itself (it cannot escape along the line of a checking slider).
    for (int c = 0; c < 2; ++c) {
      const U64 taboo = b.colors[c] | attacksAndZoneCount(s, b, c ^ 1, occ & ~squareBB(kingSq[c]), 0, nullptr);
      out[2 * i + c] = static_cast<std::uint8_t>(dirSetBranchless(kingMoveTargets(kingSq[c], taboo) | squareBB(kingSq[c]), kingSq[c]));
    }
  }
  if (std::uint8_t* out = o.u8(kFeatPawnShieldIndex))
    for (int c = 0; c < 2; ++c)
      out[2 * i + c] = static_cast<std::uint8_t>(pawnShieldIndex(c, kingSq[c], b.pieceSet(c, kPawn)));
  if (U64* out = o.u64(kFeatUncatchablePassers))
    for (int c = 0; c < 2; ++c)
      out[2 * i + c] = uncatchablePassers(passedPawns(b, c), c ^ 1, b.sideToMove, kingSq[c ^ 1]);
  if (U64* out = o.u64(kFeatKnightForkSquares))
    for (int c = 0; c < 2; ++c)
      out[2 * i + c] = forkTargetSquares(b.colors[c ^ 1] & (b.pieces[kKing] | b.pieces[kQueen] | b.pieces[kRook])) &
                       ~b.colors[c];
  if (U64* out = o.u64(kFeatPolyglotKey)) out[i] = polyglotKeyOf(b);
  if (features & kMotifFeatures) {
    MotifContext m;
    fillMotifContext(s, b, m);
    U64* const hangingOut = o.u64(kFeatHanging);
    U64* const forksOut = o.u64(kFeatForks);
    U64* const pinsOut = o.u64(kFeatRelativePins);
    U64* const skewersOut = o.u64(kFeatSkewers);
    U64* const discOut = o.u64(kFeatDiscoveredAttacks);
    for (int c = 0; c < 2; ++c) {
      if (hangingOut) hangingOut[2 * i + c] = hangingWith(b, m, c);
      if (forksOut) forksOut[2 * i + c] = forksWith(b, m, c);
      if (pinsOut || skewersOut || discOut) {
        // One walk of c's lines: the other colour's relative pins, c's skewers and discovered attacks.
        U64 r[3];
        lineMotifsWith(s, b, m, c, r);
        if (pinsOut) pinsOut[2 * i + (c ^ 1)] = r[0];
        if (skewersOut) skewersOut[2 * i + c] = r[1];
        if (discOut) discOut[2 * i + c] = r[2];
      }
    }
  }
}

// The features checkRange computes: those of the fused check look alone.
constexpr unsigned kCheckRangeFeatures = featureBit(kFeatCheckers) | featureBit(kFeatPinned) |
                                         featureBit(kFeatDiscoveredCheckCandidates) | featureBit(kFeatInCheck);

// analyzeRange when only kCheckRangeFeatures are asked for: one unpack and the fused look of both
// kings per position, as checkAnalysisBatch. Validation does not branch: a position that fails
// packedIsValid, or that `valid` skips, is swapped for kStandInPosition (bare kings: every one of these
// features is 0 for it, which is what a skipped slot must hold) and noted.
template <bool kBlockers, class Sliders>
inline std::size_t checkRange(const Sliders& s, const U64* words, const std::uint8_t* valid, std::size_t begin,
                              std::size_t end, const FeatureOutputs& o) {
  U64* const chkOut = o.u64(kFeatCheckers);
  U64* const pinOut = o.u64(kFeatPinned);
  U64* const discOut = o.u64(kFeatDiscoveredCheckCandidates);
  std::uint8_t* const inCheckOut = o.u8(kFeatInCheck);
  bool allValid = true;
  for (std::size_t i = begin; i < end; ++i) {
    const U64* w = words + i * kPackedPositionWords;
    const bool skip = valid && !valid[i];
    const bool ok = packedIsValid(w);
    allValid &= ok | skip;
    const Board b = unpack(ok & !skip ? w : kStandInPosition);
    const BothKingLines r = bothKingLines<kBlockers>(s, b);
    if (chkOut) chkOut[2 * i] = r.checkers[0], chkOut[2 * i + 1] = r.checkers[1];
    if (pinOut) pinOut[2 * i] = r.pinned[0], pinOut[2 * i + 1] = r.pinned[1];
    if (discOut) discOut[2 * i] = r.candidates[0], discOut[2 * i + 1] = r.candidates[1];
    if (inCheckOut) inCheckOut[i] = r.checkers[b.sideToMove] != 0;
  }
  if (allValid) return end;
  for (std::size_t i = begin;; ++i)
    if (!(valid && !valid[i]) && !packedIsValid(words + i * kPackedPositionWords)) return i;
}

// Positions [begin, end) of a packed array. valid (may be null): positions whose flag is 0 are
// skipped and get all-zero results. Every other position is checked (packedIsValid) as it is read;
// returns the index of the first inconsistent one (the caller reports it and drops the outputs,
// which may hold results for positions after it), or `end`. Every element of every requested
// output in [begin, end) is written, so the outputs need not be zeroed beforehand.
template <class Sliders>
inline std::size_t analyzeRange(const Sliders& s, const U64* words, const std::uint8_t* valid, std::size_t begin,
                                std::size_t end, unsigned features, const FeatureOutputs& o) {
  if ((features & ~kCheckRangeFeatures) == 0)
    return features & (featureBit(kFeatPinned) | featureBit(kFeatDiscoveredCheckCandidates))
               ? checkRange<true>(s, words, valid, begin, end, o)
               : checkRange<false>(s, words, valid, begin, end, o);
  for (std::size_t i = begin; i < end; ++i) {
    const U64* w = words + i * kPackedPositionWords;
    if (valid && !valid[i]) {
      for (unsigned f = 0; f < kFeatureCount; ++f) {
        if (!o.out[f]) continue;
        const unsigned width = featureWidth(f);
        if (isU64Feature(f)) for (unsigned k = 0; k < width; ++k) o.u64(FeatureId(f))[width * i + k] = 0;
        else for (unsigned k = 0; k < width; ++k) o.u8(FeatureId(f))[width * i + k] = 0;
      }
      continue;
    }
    if (!packedIsValid(w)) return i;
    analyzePosition(s, w, i, features, o);
  }
  return end;
}

// ---- Planes for machine learning ----

// Per position kPlaneBytes bytes: 12 planes of 64 (white pawn, knight, bishop, rook, queen, king, then
// black's; byte plane * 64 + square, 1 where the piece stands), then the state: side to move (0/1),
// castling K, Q, k, q (0/1 each), en-passant square (64 = none), halfmove clock (capped at 255), 0.
constexpr std::size_t kPlaneBytes = 12 * 64 + 8;

inline void writePlanes(const U64* w, std::uint8_t* out) {
  std::memset(out, 0, kPlaneBytes);
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < 6; ++t)
      for (U64 x = w[c] & w[2 + t]; x; x &= x - 1) out[(c * 6 + t) * 64 + lsb(x)] = 1;
  std::uint8_t* state = out + 12 * 64;
  const U64 st = w[8];
  state[0] = st & 1;
  for (int r = 0; r < 4; ++r) state[1 + r] = (st >> (1 + r)) & 1;
  state[5] = static_cast<std::uint8_t>((st >> 8) & 255);
  const U64 halfmove = st >> 16;
  state[6] = static_cast<std::uint8_t>(halfmove > 255 ? 255 : halfmove);
}

}  // namespace BBP_ISA
}  // namespace bbp
