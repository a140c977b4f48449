// Tactical motifs and the static exchange evaluation (Chess Programming Wiki: Hanging Piece, Double
// Attack (Fork), Pin, Skewer, Discovered Attack, Static Exchange Evaluation, SEE - The Swap
// Algorithm). Twin: lib/backends/js/motifs.ts; the definitions are those of lib/api/declarations.ts.
//
// Values: pawn 1, knight 3, bishop 3, rook 5, queen 9; the king has none but counts as a target
// (kMotifValue gives it 100, more than any piece, so "worth more than the king" never holds).
// "Attacks" and "defends" read the current occupancy, as attackersTo does: a square is defended by
// colour c when c attacks it (the union of its pieces' attacks), pinned pieces and the king included.
//
// Lines: a slider's rays give, for each direction, the first piece it meets and the next piece
// beyond (the x-ray attack of the Checks and Pinned Pieces page, taken from the slider): the lookup
// again with the first pieces removed from the occupancy. One walk of a colour's lines gives the
// three line motifs at once (lineMotifsWith).
#pragma once

#include "blockers.h"
#include "checks.h"
#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

constexpr int kMotifValue[6] = {1, 3, 3, 5, 9, 100};
// The static exchange evaluation's centipawns; a promotion counts as a pawn, the king's value is
// never taken (it recaptures only when nothing can take it back).
constexpr int kSeeValue[6] = {100, 300, 300, 500, 900, 0};
// see() of a move that is not legal in the position.
constexpr int kSeeIllegal = -1000000;

// The pieces of `color` worth more than a piece of value v (the king never: it has no value).
inline U64 worthMoreThan(const Board& b, int color, int v) {
  U64 set = 0;
  if (v < 3) set |= b.pieces[kKnight] | b.pieces[kBishop];
  if (v < 5) set |= b.pieces[kRook];
  if (v < 9) set |= b.pieces[kQueen];
  return set & b.colors[color] & ~b.pieces[kKing];
}

// What every motif of one position reads: the occupancy, the squares each colour attacks (the union
// of its pieces' attacks, sliders seen through the occupancy), and each slider's attack set, looked
// up once and read again by forks and the line motifs. sliderAttacks[sq] is written for the squares
// of sliders only.
struct MotifContext {
  U64 occ;
  U64 attacked[2];
  U64 sliderAttacks[64];
};

template <class Sliders>
BBP_ALWAYS_INLINE void fillMotifContext(const Sliders& s, const Board& b, MotifContext& m) {
  const U64 occ = b.occupied();
  m.occ = occ;
  const U64 bishops = b.pieces[kBishop], rooks = b.pieces[kRook], queens = b.pieces[kQueen];
  for (int color = 0; color < 2; ++color) {
    const U64 own = b.colors[color];
    U64 a = pawnAttacksSet(color, b.pieces[kPawn] & own) | knightAttacksSet(b.pieces[kKnight] & own) |
            kingAttacks(b.kingSquare(color));
    for (U64 x = bishops & own; x; x &= x - 1) {
      const int sq = lsb(x);
      a |= m.sliderAttacks[sq] = s.bishop(sq, occ);
    }
    for (U64 x = rooks & own; x; x &= x - 1) {
      const int sq = lsb(x);
      a |= m.sliderAttacks[sq] = s.rook(sq, occ);
    }
    for (U64 x = queens & own; x; x &= x - 1) {
      const int sq = lsb(x);
      a |= m.sliderAttacks[sq] = s.bishop(sq, occ) | s.rook(sq, occ);
    }
    m.attacked[color] = a;
  }
}

// hanging: color's pieces other than the king that the other side attacks and color does not defend.
inline U64 hangingWith(const Board& b, const MotifContext& m, int color) {
  return b.colors[color] & ~b.pieces[kKing] & m.attacked[color ^ 1] & ~m.attacked[color];
}

// forks: color's pieces (any type) attacking at least two targets: the enemy king, an enemy piece
// worth more than the attacker, or an enemy piece its side does not defend.
inline U64 forksWith(const Board& b, const MotifContext& m, int color) {
  const U64 own = b.colors[color], enemy = b.colors[color ^ 1];
  const U64 base = (enemy & b.pieces[kKing]) | (enemy & ~m.attacked[color ^ 1]);
  U64 result = 0;
  // Pawns: both capture squares hold a target.
  {
    const U64 t = base | worthMoreThan(b, color ^ 1, 1);
    const U64 p = b.pieces[kPawn] & own;
    // A pawn whose east (west) capture square is in t: t moved back along that capture.
    const U64 east = color == 0 ? soutOne(westOne(t)) : nortOne(westOne(t));
    const U64 west = color == 0 ? soutOne(eastOne(t)) : nortOne(eastOne(t));
    result |= p & east & west;
  }
  // More than one target: a set with its lowest bit cleared is not empty.
  const auto twoOrMore = [](U64 a) { return (a & (a - 1)) != 0; };
  const U64 minorTargets = base | worthMoreThan(b, color ^ 1, 3);
  for (U64 x = b.pieces[kKnight] & own; x; x &= x - 1)
    if (twoOrMore(knightAttacks(lsb(x)) & minorTargets)) result |= x & (~x + 1);
  for (U64 x = b.pieces[kBishop] & own; x; x &= x - 1)
    if (twoOrMore(m.sliderAttacks[lsb(x)] & minorTargets)) result |= x & (~x + 1);
  const U64 rookTargets = base | worthMoreThan(b, color ^ 1, 5);
  for (U64 x = b.pieces[kRook] & own; x; x &= x - 1)
    if (twoOrMore(m.sliderAttacks[lsb(x)] & rookTargets)) result |= x & (~x + 1);
  for (U64 x = b.pieces[kQueen] & own; x; x &= x - 1)
    if (twoOrMore(m.sliderAttacks[lsb(x)] & base)) result |= x & (~x + 1);
  if (twoOrMore(kingAttacks(b.kingSquare(color)) & base)) result |= b.pieces[kKing] & own;
  return result;
}

// The three line motifs of one walk of `color`'s lines: relativePins of the other colour (out[0]),
// skewers and discoveredAttacks of `color` (out[1], out[2]), as the three functions below give them.
// Only the far pieces that can make one of them are visited: for each slider, those of the other
// colour that are its king, undefended or worth more than the slider (skewers, discovered attacks)
// or worth more than a pawn (relative pins, whose far piece is worth more than the pinned one).
// Each visit decides without a branch: on random positions the kind of the piece in between is a coin
// toss. An enemy king in between is the enemy piece of the highest rank: it is never pinned (no far
// piece is worth more) and it makes a skewer with any far target (never the king itself, not behind it).
template <class Sliders>
BBP_ALWAYS_INLINE void lineMotifsWith(const Sliders& s, const Board& b, const MotifContext& m, int color, U64* out) {
  const U64 own = b.colors[color], enemy = b.colors[color ^ 1];
  const U64 enemyKing = enemy & b.pieces[kKing];
  const U64 enemyOthers = enemy & ~b.pieces[kKing];
  const U64 undefended = enemy & ~m.attacked[color ^ 1];
  const U64 pinFar = enemyOthers & ~b.pieces[kPawn];
  const U64 occ = m.occ;
  // The rank of a piece's value (pawn 0, knight and bishop 1, rook 2, queen 3, king 4) in three bits:
  // comparing ranks compares values.
  const U64 rank0 = b.pieces[kKnight] | b.pieces[kBishop] | b.pieces[kQueen];
  const U64 rank1 = b.pieces[kRook] | b.pieces[kQueen];
  const U64 rank2 = b.pieces[kKing];
  const auto rankOn = [&](int sq) {
    return static_cast<int>(((rank0 >> sq) & 1) | (((rank1 >> sq) & 1) << 1) | (((rank2 >> sq) & 1) << 2));
  };
  U64 pins = 0, skew = 0, disc = 0;
  const auto visit = [&](int sq, U64 first, U64 far, int v) {
    // Targets of skewers and discovered attacks behind the first piece: king, undefended, worth more.
    const U64 targets = enemyKing | undefended | worthMoreThan(b, color ^ 1, v);
    U64 skewered = 0;
    for (U64 x = far & (targets | pinFar); x; x &= x - 1) {
      const int t2 = lsb(x);
      const U64 midBit = between(sq, t2) & first;
      const U64 farIsTarget = 0 - ((targets >> t2) & 1);
      const U64 farPins = 0 - ((pinFar >> t2) & 1);
      const int rankMid = rankOn(lsb(midBit));
      const int rankFar = rankOn(t2);
      const U64 farWorthMore = 0 - static_cast<U64>(rankFar > rankMid);
      const U64 midWorthMore = 0 - static_cast<U64>(rankMid > rankFar);
      disc |= midBit & own & farIsTarget;
      pins |= midBit & enemy & farPins & farWorthMore;
      skewered |= midBit & enemy & farIsTarget & midWorthMore;
    }
    skew |= skewered ? squareBB(sq) : 0;
  };
  for (U64 x = b.pieces[kBishop] & own; x; x &= x - 1) {
    const int sq = lsb(x);
    const U64 first = m.sliderAttacks[sq] & occ;
    visit(sq, first, s.bishop(sq, occ ^ first) & occ & ~first, 3);
  }
  for (U64 x = b.pieces[kRook] & own; x; x &= x - 1) {
    const int sq = lsb(x);
    const U64 first = m.sliderAttacks[sq] & occ;
    visit(sq, first, s.rook(sq, occ ^ first) & occ & ~first, 5);
  }
  for (U64 x = b.pieces[kQueen] & own; x; x &= x - 1) {
    const int sq = lsb(x);
    const U64 first = m.sliderAttacks[sq] & occ;
    visit(sq, first, (s.bishop(sq, occ ^ first) | s.rook(sq, occ ^ first)) & occ & ~first, 9);
  }
  out[0] = pins;
  out[1] = skew;
  out[2] = disc;
}

template <class Sliders>
U64 hanging(const Sliders& s, const Board& b, int color) {
  MotifContext m;
  fillMotifContext(s, b, m);
  return hangingWith(b, m, color);
}
template <class Sliders>
U64 forks(const Sliders& s, const Board& b, int color) {
  MotifContext m;
  fillMotifContext(s, b, m);
  return forksWith(b, m, color);
}
// relativePins: color's pieces other than the king that an enemy slider attacks along a line it moves
// on, where the next piece beyond them on that ray is a piece of color other than the king, worth
// more than the pinned piece.
template <class Sliders>
U64 relativePins(const Sliders& s, const Board& b, int color) {
  MotifContext m;
  fillMotifContext(s, b, m);
  U64 r[3];
  lineMotifsWith(s, b, m, color ^ 1, r);
  return r[0];
}
// skewers: color's sliders attacking an enemy piece t1 along a ray whose next piece beyond t1 is an
// enemy piece t2, where t1 is the king or worth more than t2, and t2 is undefended or worth more
// than the slider.
template <class Sliders>
U64 skewers(const Sliders& s, const Board& b, int color) {
  MotifContext m;
  fillMotifContext(s, b, m);
  U64 r[3];
  lineMotifsWith(s, b, m, color, r);
  return r[1];
}
// discoveredAttacks: color's pieces standing alone between a color slider and an enemy target on a
// line the slider moves on; a target is the enemy king, an enemy piece worth more than the slider,
// or an undefended enemy piece.
template <class Sliders>
U64 discoveredAttacks(const Sliders& s, const Board& b, int color) {
  MotifContext m;
  fillMotifContext(s, b, m);
  U64 r[3];
  lineMotifsWith(s, b, m, color, r);
  return r[2];
}

// ---- Static exchange evaluation (SEE - The Swap Algorithm) ----

// The pieces pinned to their own king before the move, each with its pinner: a pinned piece takes
// no part in the exchange while its pinner is on the board.
struct SeePins {
  U64 pinned[2];
  int count;
  U64 piece[16], pinner[16];
};

inline void seePins(const Board& b, U64 occ, SeePins& p) {
  p.count = 0;
  for (int c = 0; c < 2; ++c) {
    const int k = b.kingSquare(c);
    const KingBlockers kb = kingBlockers(b, k, c ^ 1, occ);
    p.pinned[c] = kb.blockers & b.colors[c];
    for (U64 x = kb.pinners; x; x &= x - 1) {
      const int q = lsb(x);
      const U64 mine = between(k, q) & p.pinned[c];
      if (mine) {
        p.piece[p.count] = mine;
        p.pinner[p.count] = squareBB(q);
        ++p.count;
      }
    }
  }
}

// The pinned pieces of both colours whose pinner is not yet gone.
inline U64 seeExcluded(const SeePins& p, U64 gone) {
  U64 x = 0;
  for (int i = 0; i < p.count; ++i)
    if (!(p.pinner[i] & gone)) x |= p.piece[i];
  return x;
}

// The move's castling: the king moving two files, or onto its own rook (Chess960).
inline bool seeIsCastling(const Board& b, int from, int to) {
  if (!(b.pieces[kKing] & squareBB(from))) return false;
  return (b.colors[b.sideToMove] & squareBB(to)) || absDiff(fileOf(from), fileOf(to)) == 2;
}

// The pieces of both colours attacking sq, sliders seen through occ (attackersTo of each colour).
template <class Sliders>
BBP_ALWAYS_INLINE U64 seeAttackers(const Sliders& s, const Board& b, int sq, U64 occ) {
  const U64 queens = b.pieces[kQueen];
  return (pawnAttacks(1, sq) & b.pieces[kPawn] & b.colors[0]) | (pawnAttacks(0, sq) & b.pieces[kPawn] & b.colors[1]) |
         (knightAttacks(sq) & b.pieces[kKnight]) | (kingAttacks(sq) & b.pieces[kKing]) |
         (s.bishop(sq, occ) & (b.pieces[kBishop] | queens)) | (s.rook(sq, occ) & (b.pieces[kRook] | queens));
}

// The attackers of sq after the piece on `left` left the occupancy occ: the sliders behind it on its
// line with sq join (x-rays); attacks that do not pass through `left` are unchanged.
template <class Sliders>
BBP_ALWAYS_INLINE U64 seeXrays(const Sliders& s, const Board& b, int sq, U64 occ, U64 left, U64 attackers) {
  const U64 queens = b.pieces[kQueen];
  if (left & bishopRays(sq)) attackers |= s.bishop(sq, occ) & (b.pieces[kBishop] | queens);
  if (left & rookRays(sq)) attackers |= s.rook(sq, occ) & (b.pieces[kRook] | queens);
  return attackers;
}

// The swap list of a legal move (not castling): gain[0] the piece taken by the move, gain[d] the
// speculative score of the d-th recapture. Returns its depth d (gain[0..d] written). The attackers
// of the target square are looked up once; as each piece leaves, only the line through its square is
// looked at again.
template <class Sliders>
int seeSwapList(const Sliders& s, const Board& b, int from, int to, int* gain) {
  const int us = b.sideToMove;
  const U64 toBit = squareBB(to);
  const int moverType = b.typeOn(from);
  U64 occ = b.occupied();
  U64 gone = 0;
  gain[0] = 0;
  if (b.colors[us ^ 1] & toBit) {
    gain[0] = kSeeValue[b.typeOn(to)];
    gone = toBit;
  } else if (moverType == kPawn && to == b.epSquare) {
    const int taken = us == 0 ? to - 8 : to + 8;
    gain[0] = kSeeValue[kPawn];
    gone = squareBB(taken);
    occ ^= squareBB(taken);
  }
  occ = (occ ^ squareBB(from)) | toBit;
  U64 attacking = seeAttackers(s, b, to, occ);
  // Nothing can take back: the pins, which only keep pieces out, need not be looked for.
  if (!(attacking & b.colors[us ^ 1] & occ)) return 0;
  SeePins pins;
  seePins(b, b.occupied(), pins);
  int onSquare = kSeeValue[moverType];  // a promotion counts as a pawn
  U64 onSquareOrigin = squareBB(from);
  int side = us ^ 1;
  int d = 0;
  U64 excluded = seeExcluded(pins, gone);
  for (;;) {
    const U64 attackers = attacking & b.colors[side] & occ & ~excluded;
    if (!attackers) break;
    int type = kPawn;
    while (!(attackers & b.pieces[type])) ++type;
    const U64 from2 = attackers & b.pieces[type] & (~(attackers & b.pieces[type]) + 1);
    const U64 occ2 = occ ^ from2;
    const U64 attacking2 = seeXrays(s, b, to, occ2, from2, attacking);
    // The king recaptures only when nothing can take it back.
    if (type == kKing && (attacking2 & b.colors[side ^ 1] & occ2 & ~excluded)) break;
    ++d;
    gain[d] = onSquare - gain[d - 1];
    gone |= onSquareOrigin;
    if (pins.count) excluded = seeExcluded(pins, gone);
    onSquare = kSeeValue[type];
    onSquareOrigin = from2;
    occ = occ2;
    attacking = attacking2;
    side ^= 1;
  }
  return d;
}

// The swap list folded back: each side takes the better of stopping and going on (gain[0], the
// move itself, is made whatever it loses).
template <class Sliders>
int seeValue(const Sliders& s, const Board& b, int from, int to) {
  int gain[40];
  for (int d = seeSwapList(s, b, from, to, gain); d > 0; --d) gain[d - 1] = -maxOf(-gain[d - 1], gain[d]);
  return gain[0];
}

// The static exchange evaluation of a legal move in centipawns; kSeeIllegal when it is not legal.
template <class Sliders>
int see(const Sliders& s, const Board& b, int from, int to, int promotion) {
  if (!isLegalMove(s, b, from, to, promotion)) return kSeeIllegal;
  if (seeIsCastling(b, from, to)) return 0;
  return seeValue(s, b, from, to);
}

// see(...) >= threshold: 1 or 0, -1 when the move is not legal. Bounds first: the exchange ends at
// most with the capture (the other side may stop) and at least with the capture less the mover
// (this side may stop after the first recapture); the swap list only between them.
template <class Sliders>
int seeGe(const Sliders& s, const Board& b, int from, int to, int promotion, int threshold) {
  if (!isLegalMove(s, b, from, to, promotion)) return -1;
  if (seeIsCastling(b, from, to)) return 0 >= threshold;
  const int us = b.sideToMove;
  const int moverType = b.typeOn(from);
  int captured = 0;
  if (b.colors[us ^ 1] & squareBB(to)) captured = kSeeValue[b.typeOn(to)];
  else if (moverType == kPawn && to == b.epSquare) captured = kSeeValue[kPawn];
  if (captured < threshold) return 0;
  if (captured - kSeeValue[moverType] >= threshold) return 1;
  return seeValue(s, b, from, to) >= threshold;
}

// see for position i of `positions` and moves[i] (16-bit codes: from | to << 6 | promotion << 12);
// valid (may be null): positions whose flag is 0 are skipped (out 0). Returns -1 when every move was
// evaluated, else 2 * i for an invalid position i, 2 * i + 1 for an illegal move (out then
// unspecified from i on).
template <class Sliders>
std::int64_t seeBatch(const Sliders& s, const U64* positions, const std::uint8_t* valid, const std::uint16_t* moves,
                      std::int16_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (valid && !valid[i]) {
      out[i] = 0;
      continue;
    }
    const U64* w = positions + i * kPackedPositionWords;
    if (!packedIsValid(w)) return static_cast<std::int64_t>(2 * i);
    const int m = moves[i];
    const int v = see(s, unpack(w), m & 63, (m >> 6) & 63, (m >> 12) & 7);
    if (v == kSeeIllegal) return static_cast<std::int64_t>(2 * i + 1);
    out[i] = static_cast<std::int16_t>(v);
  }
  return -1;
}

}  // namespace BBP_ISA
}  // namespace bbp
