// Legal move generation on the standard bitboard board (position.h's Board), built on the
// checks-and-pins primitives: no make / test / unmake filtering. Per node it computes once
//  - the enemy attack set with our king lifted off the board (king moves, castling, "in check"),
//  - the checkers, and from them the check mask (every square when not in check; checker plus the
//    checkBlockSquares when one piece checks; nothing but king moves under double check),
//  - the absolutely pinned pieces (sliders aligned with the king on an empty board, exactly one piece
//    of ours between), each of which may then move only along line(king, piece),
// and hands moves to a Sink as target sets, so a counting sink (bulk perft) never enumerates them.
// En passant, the one move that removes two pieces from a line at once, is checked exactly: the
// rook- and bishop-wise lines to the king after the capture (this covers the horizontal pin,
// K . P p . . r on the fifth rank, and the diagonal one). Castling: rights, king and rook on their
// squares, empty path, king's path unattacked, not in check.
//
// Templated on the side to move (Us) and on a slider policy (MagicSliders / PextSliders), so each
// kernel table compiles its own copy with its own lookups. No allocation; children are Board copies.
//
// Move encoding (lib/core/types.ts): from | to << 6 | promotion << 12, promotion 0 none, 1 knight,
// 2 bishop, 3 rook, 4 queen (the PieceType numbers); castling is the king's two-square move.
#pragma once

#include <cstdint>

#include "checks.h"

namespace bbp {
inline namespace BBP_ISA {

constexpr int kMaxMoves = 256;  // 218 is the most any position has
using Move = std::uint16_t;

constexpr Move encodeMove(int from, int to, int promotion = 0) {
  return static_cast<Move>(from | to << 6 | promotion << 12);
}
constexpr int moveFrom(Move m) { return m & 63; }
constexpr int moveTo(Move m) { return (m >> 6) & 63; }
constexpr int movePromotion(Move m) { return m >> 12; }

namespace movegen {

namespace detail {
// Castling rights kept when a move touches the square (from or to): the king's and rooks' homes.
constexpr std::array<std::uint8_t, 64> makeCastlingKeep() {
  std::array<std::uint8_t, 64> t{};
  for (int sq = 0; sq < 64; ++sq) t[sq] = 15;
  t[4] = 15 & ~(kWhiteKing | kWhiteQueen);
  t[7] = 15 & ~kWhiteKing;
  t[0] = 15 & ~kWhiteQueen;
  t[60] = 15 & ~(kBlackKing | kBlackQueen);
  t[63] = 15 & ~kBlackKing;
  t[56] = 15 & ~kBlackQueen;
  return t;
}
}  // namespace detail

inline constexpr std::array<std::uint8_t, 64> arrCastlingKeep = detail::makeCastlingKeep();

// The empty-board rays and slider sets of blockers.h, under the names perft.h uses.
using bbp::arrEmptyBoardRays;
using bbp::bishopRays;
using bbp::diagSliders;
using bbp::orthSliders;
using bbp::rookRays;

// Pawn geometry per side: "up" is toward the promotion rank; east captures go to file + 1.
template <int Us>
struct PawnSide {
  static constexpr int kUp = Us == 0 ? 8 : -8;
  static constexpr int kUpEast = Us == 0 ? 9 : -7;
  static constexpr int kUpWest = Us == 0 ? 7 : -9;
  static constexpr U64 kDoublePushRank = Us == 0 ? rankBB(2) : rankBB(5);  // after one step
  static constexpr U64 kLastRank = Us == 0 ? kRank8 : kRank1;
  static constexpr U64 up(U64 b) { return Us == 0 ? b << 8 : b >> 8; }
  static constexpr U64 upEast(U64 b) { return Us == 0 ? (b & notHFile) << 9 : (b & notHFile) >> 7; }
  static constexpr U64 upWest(U64 b) { return Us == 0 ? (b & notAFile) << 7 : (b & notAFile) >> 9; }
  static constexpr U64 attacks(U64 b) { return upEast(b) | upWest(b); }
};

// The pawn moves of `pawns` (set-wise, all in `mask`): single pushes, double pushes, east and west
// captures of `capturable`; promotions are the ones on P::kLastRank.
template <int Us>
struct PawnTargets {
  U64 pushes, doubles, east, west;
  PawnTargets(U64 pawns, U64 empty, U64 capturable, U64 mask) {
    using P = PawnSide<Us>;
    const U64 single = P::up(pawns) & empty;
    doubles = P::up(single & P::kDoublePushRank) & empty & mask;
    pushes = single & mask;
    east = P::upEast(pawns) & capturable & mask;
    west = P::upWest(pawns) & capturable & mask;
  }
};

// The sets a node starts from, for the side to move Us.
struct NodeSets {
  U64 us, them, occ, kingBB, enemyKing;
  int ksq;
};

template <int Us>
inline NodeSets nodeSets(const Board& b) {
  const U64 us = b.colors[Us], them = b.colors[Us ^ 1], kingBB = b.pieces[kKing] & us;
  return {us, them, us | them, kingBB, b.pieces[kKing] & them, lsb(kingBB)};
}

// Squares attacked by `color` with the given occupancy.
template <int Color, class Sliders>
U64 attackedBy(const Sliders& s, const Board& b, U64 occ) {
  const U64 own = b.colors[Color];
  U64 attacked = PawnSide<Color>::attacks(b.pieces[kPawn] & own) | knightAttacksSet(b.pieces[kKnight] & own) |
                 kingAttacks(lsb(b.pieces[kKing] & own));
  for (U64 d = diagSliders(b, Color); d; d &= d - 1) attacked |= s.bishop(lsb(d), occ);
  for (U64 o = orthSliders(b, Color); o; o &= o - 1) attacked |= s.rook(lsb(o), occ);
  return attacked;
}

// ---- The generator ----
//
// Sink interface (every call lists legal moves only):
//   piece(type, from, targets)       knight, bishop, rook, queen, king steps from `from`;
//   pawns(targets, delta)            non-promoting pawn moves (pushes, captures) from to - delta;
//   doublePushes(targets)            two-square pushes from to - 2 * up;
//   promotions(targets, delta)       promoting pawn moves, each to be taken as four moves;
//   enPassant(from, to)              to = the en-passant square;
//   castle(const CastlingMove&)      kCastlingMoves of checks.h.
// Targets never include the enemy king (even in an inconsistent position), so kings never vanish.

template <int Us, class Sliders, class Sink>
void generate(const Sliders& s, const Board& b, Sink& sink) {
  using P = PawnSide<Us>;
  constexpr int Them = Us ^ 1;
  const NodeSets n = nodeSets<Us>(b);
  const U64 us = n.us, them = n.them, occ = n.occ, kingBB = n.kingBB, enemyKing = n.enemyKing;
  const int ksq = n.ksq;

  const U64 danger = attackedBy<Them>(s, b, occ ^ kingBB);
  sink.piece(kKing, ksq, kingAttacks(ksq) & ~us & ~danger & ~enemyKing);

  U64 checkMask = ~U64{0};
  if (danger & kingBB) {
    const U64 checkers = (pawnAttacks(Us, ksq) & b.pieces[kPawn] & them) |
                         (knightAttacks(ksq) & b.pieces[kKnight] & them) |
                         (s.bishop(ksq, occ) & diagSliders(b, Them)) | (s.rook(ksq, occ) & orthSliders(b, Them)) |
                         (kingAttacks(ksq) & enemyKing);  // only on inconsistent boards, kings touching
    if (checkers & (checkers - 1)) return;  // double check: king moves only
    checkMask = between(ksq, lsb(checkers)) | checkers;
  } else if (b.chess960 && (b.castling & (Us == 0 ? kWhiteKing | kWhiteQueen : kBlackKing | kBlackQueen))) {
    for (int r = 2 * Us; r < 2 * Us + 2; ++r) {
      if (!(b.castling & (1 << r))) continue;
      const CastlingMove c = chess960Castling(b, r);
      if (!(occ & c.mustBeEmpty) && !(danger & c.mustBeSafe) &&
          !(s.rook(c.kingTo, occ ^ squareBB(c.rookFrom)) & orthSliders(b, Them)))
        sink.castle(c);
    }
  } else if (b.castling & (Us == 0 ? kWhiteKing | kWhiteQueen : kBlackKing | kBlackQueen)) {
    const U64 ourRooks = b.pieces[kRook] & us;
    for (int i = 2 * Us; i < 2 * Us + 2; ++i) {
      const CastlingMove& c = kCastlingMoves[i];
      if ((b.castling & c.right) && ksq == c.kingFrom && (ourRooks & squareBB(c.rookFrom)) && !(occ & c.mustBeEmpty) &&
          !(danger & c.mustBeSafe))
        sink.castle(c);
    }
  }

  const U64 targets = ~us & ~enemyKing & checkMask;
  const U64 pinned = kingBlockers(b, ksq, Them, occ).blockers & us;

  for (U64 n = b.pieces[kKnight] & us & ~pinned; n; n &= n - 1) {
    const int from = lsb(n);
    sink.piece(kKnight, from, knightAttacks(from) & targets);
  }
  // Pinned sliders keep to their pin line; unpinned ones see `targets` only.
  const auto slide = [&](int type, int from, U64 attacks) {
    if (pinned & squareBB(from)) attacks &= line(ksq, from);
    sink.piece(type, from, attacks & targets);
  };
  for (U64 p = b.pieces[kBishop] & us; p; p &= p - 1) slide(kBishop, lsb(p), s.bishop(lsb(p), occ));
  for (U64 p = b.pieces[kRook] & us; p; p &= p - 1) slide(kRook, lsb(p), s.rook(lsb(p), occ));
  for (U64 p = b.pieces[kQueen] & us; p; p &= p - 1) slide(kQueen, lsb(p), s.queen(lsb(p), occ));

  // Pawns, set-wise; a pinned pawn runs through the same code alone, masked by its pin line.
  const U64 empty = ~occ;
  const U64 capturable = them & ~enemyKing;
  const auto pawnSet = [&](U64 pawns, U64 mask) {
    const auto [pushes, doubles, east, west] = PawnTargets<Us>(pawns, empty, capturable, mask);
    if (pushes & ~P::kLastRank) sink.pawns(pushes & ~P::kLastRank, P::kUp);
    if (doubles) sink.doublePushes(doubles);
    if (east & ~P::kLastRank) sink.pawns(east & ~P::kLastRank, P::kUpEast);
    if (west & ~P::kLastRank) sink.pawns(west & ~P::kLastRank, P::kUpWest);
    if ((pushes | east | west) & P::kLastRank) {
      sink.promotions(pushes & P::kLastRank, P::kUp);
      sink.promotions(east & P::kLastRank, P::kUpEast);
      sink.promotions(west & P::kLastRank, P::kUpWest);
    }
  };
  const U64 ourPawns = b.pieces[kPawn] & us;
  pawnSet(ourPawns & ~pinned, targets);
  for (U64 p = ourPawns & pinned; p; p &= p - 1) pawnSet(p & -p, targets & line(ksq, lsb(p)));

  if (b.epSquare != kNoSquare) {
    const int to = b.epSquare;
    const U64 toBB = squareBB(to), capturedBB = squareBB(to - P::kUp);
    // The captured pawn must be there, and the capture must answer a check (take the pawn that
    // gave it, or land between a slider and the king); the line test below does the rest.
    if ((b.pieces[kPawn] & them & capturedBB) && !(occ & toBB) && (checkMask & (toBB | capturedBB))) {
      for (U64 a = pawnAttacks(Them, to) & ourPawns; a; a &= a - 1) {
        const int from = lsb(a);
        const U64 after = occ ^ squareBB(from) ^ capturedBB ^ toBB;
        if (!(s.rook(ksq, after) & orthSliders(b, Them)) && !(s.bishop(ksq, after) & diagSliders(b, Them)))
          sink.enPassant(from, to);
      }
    }
  }
}

template <class Sliders, class Sink>
void generate(const Sliders& s, const Board& b, Sink& sink) {
  if (b.sideToMove == 0) generate<0>(s, b, sink);
  else generate<1>(s, b, sink);
}

// ---- Sinks ----

// Bulk counting: popcounts, no enumeration.
struct CountSink {
  U64 n = 0;
  void piece(int, int, U64 targets) { n += popcount(targets); }
  void pawns(U64 targets, int) { n += popcount(targets); }
  void doublePushes(U64 targets) { n += popcount(targets); }
  void promotions(U64 targets, int) { n += 4 * popcount(targets); }
  void enPassant(int, int) { ++n; }
  void castle(const CastlingMove&) { ++n; }
};

// The encoded moves, in generation order. Legal chess has at most 218 moves, but a consistent
// board with many extra pieces can have more: moves past `capacity` are counted, not written.
struct ListSink {
  Move* out;
  int capacity;
  int n = 0;
  void add(Move m) {
    if (n < capacity) out[n] = m;
    ++n;
  }
  void piece(int, int from, U64 targets) {
    for (; targets; targets &= targets - 1) add(encodeMove(from, lsb(targets)));
  }
  void pawns(U64 targets, int delta) {
    for (; targets; targets &= targets - 1) add(encodeMove(lsb(targets) - delta, lsb(targets)));
  }
  void doublePushes(U64 targets) {
    for (; targets; targets &= targets - 1) {
      const int to = lsb(targets);
      add(encodeMove(to > 31 ? to + 16 : to - 16, to));  // black lands on rank 5, white on 4
    }
  }
  void promotions(U64 targets, int delta) {
    for (; targets; targets &= targets - 1)
      for (int promo = kKnight; promo <= kQueen; ++promo) add(encodeMove(lsb(targets) - delta, lsb(targets), promo));
  }
  void enPassant(int from, int to) { add(encodeMove(from, to)); }
  const Board* board = nullptr;  // set for Chess960 boards: castling is then written king takes rook
  void castle(const CastlingMove& c) { add(encodeMove(c.kingFrom, board && board->chess960 ? c.rookFrom : c.kingTo)); }
};

// ---- Making moves (copy-make: the child is a new Board) ----

template <int Us>
struct Make {
  static constexpr int Them = Us ^ 1;

  // The end of a move that may capture on `to` (toBB): the captured piece's colour cleared, the
  // castling rights whose king or rook stood on `from` or `to` dropped (a pawn's `from` holds none),
  // no en-passant square, the other side to move.
  BBP_ALWAYS_INLINE static void finishCapture(Board& c, const Board& b, int from, int to, U64 toBB) {
    c.colors[Them] &= ~toBB;
    c.castling &= arrCastlingKeep[from] & arrCastlingKeep[to];
    if (b.chess960) {
      c.castling = b.castling & castlingKeep(b, from, 15) & castlingKeep(b, to, 15);
      dropLostRookFiles(c);
    }
    c.epSquare = kNoSquare;
    c.sideToMove = Them;
  }

  // A knight, bishop, rook, queen or king step, or a non-promoting pawn move; captures included.
  static Board quiet(const Board& b, int type, int from, int to) {
    Board c = b;
    const U64 toBB = squareBB(to), fromTo = squareBB(from) | toBB;
    for (U64& set : c.pieces) set &= ~toBB;  // the captured piece, if any
    c.pieces[type] ^= fromTo;
    c.colors[Us] ^= fromTo;
    finishCapture(c, b, from, to, toBB);
    return c;
  }
  static Board doublePush(const Board& b, int from, int to) {
    Board c = b;
    const U64 fromTo = squareBB(from) | squareBB(to);
    c.pieces[kPawn] ^= fromTo;
    c.colors[Us] ^= fromTo;
    c.epSquare = (from + to) >> 1;
    c.sideToMove = Them;
    return c;
  }
  static Board promotion(const Board& b, int from, int to, int promo) {
    Board c = b;
    const U64 toBB = squareBB(to);
    for (U64& set : c.pieces) set &= ~toBB;
    c.pieces[kPawn] ^= squareBB(from);
    c.pieces[promo] |= toBB;
    c.colors[Us] ^= squareBB(from) | toBB;
    finishCapture(c, b, from, to, toBB);
    return c;
  }
  static Board enPassant(const Board& b, int from, int to) {
    Board c = b;
    const U64 fromTo = squareBB(from) | squareBB(to), captured = squareBB(to - PawnSide<Us>::kUp);
    c.pieces[kPawn] ^= fromTo | captured;
    c.colors[Us] ^= fromTo;
    c.colors[Them] ^= captured;
    c.epSquare = kNoSquare;
    c.sideToMove = Them;
    return c;
  }
  static Board castle(const Board& b, const CastlingMove& m) {
    Board c = b;
    // Removed, then put: in Chess960 the king may land where its rook stood, or not move at all.
    const U64 from = squareBB(m.kingFrom) | squareBB(m.rookFrom), to = squareBB(m.kingTo) | squareBB(m.rookTo);
    c.pieces[kKing] = (c.pieces[kKing] & ~squareBB(m.kingFrom)) | squareBB(m.kingTo);
    c.pieces[kRook] = (c.pieces[kRook] & ~squareBB(m.rookFrom)) | squareBB(m.rookTo);
    c.colors[Us] = (c.colors[Us] & ~from) | to;
    c.castling &= Us == 0 ? ~(kWhiteKing | kWhiteQueen) : ~(kBlackKing | kBlackQueen);
    dropLostRookFiles(c);
    c.epSquare = kNoSquare;
    c.sideToMove = Them;
    return c;
  }
};

// Calls visit(child) for every legal move: the interior plies of perft.
template <int Us, class Visit>
struct ChildSink {
  const Board& b;
  Visit& visit;
  using M = Make<Us>;
  void piece(int type, int from, U64 targets) {
    for (; targets; targets &= targets - 1) visit(M::quiet(b, type, from, lsb(targets)));
  }
  void pawns(U64 targets, int delta) {
    for (; targets; targets &= targets - 1) visit(M::quiet(b, kPawn, lsb(targets) - delta, lsb(targets)));
  }
  void doublePushes(U64 targets) {
    for (; targets; targets &= targets - 1)
      visit(M::doublePush(b, lsb(targets) - 2 * PawnSide<Us>::kUp, lsb(targets)));
  }
  void promotions(U64 targets, int delta) {
    for (; targets; targets &= targets - 1)
      for (int promo = kKnight; promo <= kQueen; ++promo)
        visit(M::promotion(b, lsb(targets) - delta, lsb(targets), promo));
  }
  void enPassant(int from, int to) { visit(M::enPassant(b, from, to)); }
  void castle(const CastlingMove& c) { visit(M::castle(b, c)); }
};

template <int Us, class Sliders>
U64 countMoves(const Sliders& s, const Board& b) {
  CountSink count;
  generate<Us>(s, b, count);
  return count.n;
}

}  // namespace movegen

// The legal moves of the side to move into out[0 .. capacity-1]; returns how many there are (more
// than capacity, of which only the first capacity were written, on boards with many extra pieces).
template <class Sliders>
int legalMoves(const Sliders& s, const Board& b, Move* out, int capacity = kMaxMoves) {
  movegen::ListSink list{out, capacity};
  list.board = &b;
  movegen::generate(s, b, list);
  return list.n;
}

}  // namespace BBP_ISA
}  // namespace bbp
