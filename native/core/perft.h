// perft (leaf nodes of the legal move tree, bulk counting at the last ply) and perftStats (the chess
// programming wiki's "Perft Results" columns over the moves of the last ply), on movegen.h.
//
// Leaf classification (perftStats) makes no child to find checks. Per leaf parent it computes once
// the enemy king's check squares per piece type (where a piece of ours would attack the king) and
// the discovered-check candidates (our pieces alone between one of our sliders and the enemy king,
// checks.h's discoveredCheckCandidates), then per move, set-wise where it can:
//   direct      = the target is a check square of the moved piece's type;
//   discovered  = the piece leaves a candidate square for a square off line(candidate, enemy king);
// for the rare moves that change more than one line (promotions, en passant with its second vacated
// square, castling with its rook) it takes checks.h's route instead: the attackers of the enemy king
// on the child, the piece on the target (the rook's new square for castling) being the direct one.
// Only a checking move needs its child: a mate is a check whose child has no legal move (a bulk
// count of the child).
//
// Column conventions, as the wiki's published tables count (this code reproduces every column of
// the initial position d1-6, Kiwipete d1-4 and position 3 d1-7): checks counts every checking move
// (direct, discovered, double; mates included); discoveryChecks counts discovered-only checks, double
// checks are not in it (position 3 d5: 1292 discovered + 3 double); doubleChecks counts checks by two
// pieces; captures include en passant; promotions count each promotion piece. Kiwipete d5 gives 2645
// double checks here, not the published (disputed) 2637; the other d5 columns match. The per-move
// kinds also agree with checks.h's checkKind on every leaf move of the CPW positions to depth 4.
//
// Parallel perft (perftParallel): the tree is split a few plies below the root (root splitting, the
// simplest of the chess programming wiki's "Parallel Search" schemes; perft has no alpha-beta, so
// every subtree is independent) into work items that std::threads take from a shared counter; the
// counts are summed, so they do not depend on the number of threads. A stop callback is asked between
// work items.
#pragma once

#include <atomic>
#if !defined(__wasm__)
#include <thread>  // not in WebAssembly (native/wasm/), built without threads: one thread there
#endif
#include <type_traits>
#include <utility>
#include <vector>

#include "movegen.h"

namespace bbp {
inline namespace BBP_ISA {

enum PerftStatsColumn : int {
  kStatNodes, kStatCaptures, kStatEnPassant, kStatCastles, kStatPromotions,
  kStatChecks, kStatDiscoveryChecks, kStatDoubleChecks, kStatCheckmates, kPerftStatsColumns
};

struct PerftStats {
  U64 column[kPerftStatsColumns] = {};
};

constexpr int kMaxPerftDepth = 20;

namespace movegen {

// The last ply of perftStats: tallies the moves instead of making them.
template <int Us, class Sliders>
struct LeafStatsSink {
  static constexpr int Them = Us ^ 1;
  using M = Make<Us>;

  const Sliders& s;
  const Board& b;
  U64* st;
  U64 them;
  int enemyKingSq;
  U64 checkSquares[6];
  U64 discoverers;

  LeafStatsSink(const Sliders& sliders, const Board& board, PerftStats& stats)
      : s(sliders), b(board), st(stats.column), them(board.colors[Them]) {
    const U64 occ = b.occupied();
    enemyKingSq = lsb(b.pieces[kKing] & them);
    checkSquares[kPawn] = pawnAttacks(Them, enemyKingSq);
    checkSquares[kKnight] = knightAttacks(enemyKingSq);
    checkSquares[kBishop] = s.bishop(enemyKingSq, occ);
    checkSquares[kRook] = s.rook(enemyKingSq, occ);
    checkSquares[kQueen] = checkSquares[kBishop] | checkSquares[kRook];
    checkSquares[kKing] = 0;
    discoverers = kingBlockers(b, enemyKingSq, Us, occ).blockers & b.colors[Us];
  }

  // Targets of moves from `from` that uncover a line to the enemy king.
  U64 discovering(int from, U64 targets) const {
    return (discoverers & squareBB(from)) ? targets & ~line(enemyKingSq, from) : 0;
  }

  // Checking moves among targets (direct and discovered sets), and their mates.
  template <class Child>
  void tally(U64 direct, U64 discovered, Child child) {
    const U64 checking = direct | discovered;
    if (!checking) return;
    st[kStatChecks] += popcount(checking);
    st[kStatDiscoveryChecks] += popcount(discovered & ~direct);
    st[kStatDoubleChecks] += popcount(discovered & direct);
    for (U64 t = checking; t; t &= t - 1)
      if (countMoves<Them>(s, child(lsb(t))) == 0) ++st[kStatCheckmates];
  }

  // The exact way for moves that change several lines: attackers of the enemy king on the child.
  void exact(const Board& child, int directSq) {
    const U64 givers = attackersTo(s, child, enemyKingSq, Us, child.occupied());
    const U64 direct = givers & squareBB(directSq);
    const U64 discovered = givers & ~squareBB(directSq);
    if (!givers) return;
    ++st[kStatChecks];
    if (direct && discovered) ++st[kStatDoubleChecks];
    else if (discovered) ++st[kStatDiscoveryChecks];
    if (countMoves<Them>(s, child) == 0) ++st[kStatCheckmates];
  }

  void piece(int type, int from, U64 targets) {
    st[kStatNodes] += popcount(targets);
    st[kStatCaptures] += popcount(targets & them);
    tally(targets & checkSquares[type], discovering(from, targets),
          [&](int to) { return M::quiet(b, type, from, to); });
  }

  // Pawn moves by `delta`: discovered checks per candidate pawn (few), direct checks set-wise.
  template <class Child>
  void pawnMoves(U64 targets, int delta, Child child) {
    st[kStatNodes] += popcount(targets);
    st[kStatCaptures] += popcount(targets & them);
    U64 discovered = 0;
    for (U64 f = (delta > 0 ? targets >> delta : targets << -delta) & discoverers; f; f &= f - 1) {
      const int from = lsb(f);
      discovered |= discovering(from, squareBB(from + delta));
    }
    tally(targets & checkSquares[kPawn], discovered, child);
  }
  void pawns(U64 targets, int delta) {
    pawnMoves(targets, delta, [&](int to) { return M::quiet(b, kPawn, to - delta, to); });
  }
  void doublePushes(U64 targets) {
    constexpr int delta = 2 * PawnSide<Us>::kUp;
    pawnMoves(targets, delta, [&](int to) { return M::doublePush(b, to - delta, to); });
  }
  void promotions(U64 targets, int delta) {
    st[kStatNodes] += 4 * popcount(targets);
    st[kStatCaptures] += 4 * popcount(targets & them);
    st[kStatPromotions] += 4 * popcount(targets);
    for (; targets; targets &= targets - 1) {
      const int to = lsb(targets);
      for (int promo = kKnight; promo <= kQueen; ++promo) exact(M::promotion(b, to - delta, to, promo), to);
    }
  }
  void enPassant(int from, int to) {
    ++st[kStatNodes];
    ++st[kStatCaptures];
    ++st[kStatEnPassant];
    exact(M::enPassant(b, from, to), to);
  }
  void castle(const CastlingMove& c) {
    ++st[kStatNodes];
    ++st[kStatCastles];
    exact(M::castle(b, c), c.rookTo);
  }
};

template <int Us, class Sliders>
void perftStatsNode(const Sliders& s, const Board& b, int depth, PerftStats& stats) {
  if (depth == 1) {
    LeafStatsSink<Us, Sliders> leaf(s, b, stats);
    generate<Us>(s, b, leaf);
    return;
  }
  auto visit = [&](const Board& child) { perftStatsNode<Us ^ 1>(s, child, depth - 1, stats); };
  ChildSink<Us, decltype(visit)> sink{b, visit};
  generate<Us>(s, b, sink);
}

}  // namespace movegen

// ---- Bulk-counting perft on a compile-time status ----
//
// The generator behind perft() (perftStats keeps movegen.h's generate with its sinks). Ideas from
// the chess programming wiki's "Perft" (bulk counting), "Checks and Pinned Pieces (Bitboards)" and
// "Move Generation" (legal generation by check and pin masks):
//  - the side to move, the castling rights and whether an en-passant capture is possible are
//    template arguments (a Status), so castling and en passant cost nothing in the nodes where they
//    cannot happen and no run-time branch tests them; a move that may change the rights (a king or a
//    rook leaving, or a capture landing on, a square of a right still held) picks its child's
//    instantiation from a table of 16, every other move knows its child's status at compile time;
//  - the castling squares come from a table (CastlingTable): the standard one at compile time, or,
//    in a Chess960 tree, the root's, carried to every node that still holds a right;
//  - checks and pins come from the enemy sliders on the king's empty-board lines, with no slider
//    lookup: for each, the squares between it and the king (a table) hold nothing (it gives check)
//    or exactly one piece, ours (it pins that piece); the pins are kept as two masks (orthogonal,
//    diagonal) of the rays from the king to the pinners, which mask the pinned pieces' targets;
//  - the last ply counts target sets with popcounts; the enemy attack map is built only when the
//    king has two or more squares to step to or a castling move passes its other tests (one square:
//    the attackers of that square alone), and then only from the enemy knights and sliders that can
//    reach a square the king may step or castle to (kKingZoneReach);
//  - children are 64-byte positions (colour and piece-type sets; the status is in the template and
//    the en-passant square an argument), descended into at once, with no move list; quiet moves of a
//    piece and pawn pushes are made and unmade by xor on one copy, captures get a copy each;
//  - inner nodes skip the lookup for sliders boxed in by their own pieces (a set-wise test of the
//    neighbouring squares in the slider's directions);
//  - whether knights, bishops or queens may be on the board is a template argument too: without
//    them (pawn and rook endgames, such as the wiki's position 3) their sets are empty at compile
//    time and the nodes run no knight, bishop or queen test. An inner node without a right left
//    switches to that instantiation when it finds none; only a promotion brings them back.
namespace perftgen {

using movegen::PawnSide;
using movegen::rookRays;
using movegen::bishopRays;

struct Pos {
  U64 colors[2];
  U64 pieces[6];
};

// Squares whose king or rook leaving (or being captured) clears a right in `rights`.
constexpr U64 rightSquares(int rights) {
  return ((rights & kWhiteKing) ? squareBB(4) | squareBB(7) : 0) |
         ((rights & kWhiteQueen) ? squareBB(4) | squareBB(0) : 0) |
         ((rights & kBlackKing) ? squareBB(60) | squareBB(63) : 0) |
         ((rights & kBlackQueen) ? squareBB(60) | squareBB(56) : 0);
}
constexpr int ownRights(int us) { return us == 0 ? kWhiteKing | kWhiteQueen : kBlackKing | kBlackQueen; }

// The rights left after a move touching `touched` (its from and to squares).
inline int rightsAfter(int rights, U64 touched) {
  if (touched & (squareBB(4) | squareBB(7))) rights &= ~kWhiteKing;
  if (touched & (squareBB(4) | squareBB(0))) rights &= ~kWhiteQueen;
  if (touched & (squareBB(60) | squareBB(63))) rights &= ~kBlackKing;
  if (touched & (squareBB(60) | squareBB(56))) rights &= ~kBlackQueen;
  return rights;
}

// Where enemy pieces must stand to attack one of a set of squares (a king's zone; KingZoneReach
// below per square).
struct KingReach {
  U64 rook, bishop, knight;
};
constexpr KingReach kingReachOf(U64 zone) {
  KingReach z{};
  for (U64 t = zone; t; t &= t - 1) {
    const int to = lsb(t);
    z.rook |= rookRays(to);
    z.bishop |= bishopRays(to);
    z.knight |= knightAttacks(to);
  }
  return z;
}

// ---- Castling geometry: the standard one at compile time, a Chess960 one per root ----
//
// Per castling right: its move (king and rook from / to, the squares that must be empty and those
// that must not be attacked, checks.h's CastlingMove), the xor toggles that make it (a king that
// stays, or a rook landing where the king stood, cancel out: Chess960), the squares whose king or
// rook leaving (or being captured) clears it; per side the king's home and the reach of its zone
// (its steps and the squares its castling moves need safe). The standard table is a compile-time
// instance whose lookups fold to constants. A Chess960 root with a right left builds its own once
// (FIDE Laws, Appendix on Chess960; checks.h chess960Castling) and hands its subtree a pointer to
// it inside the slider policy (Chess960Policy below), down to the first node without a right left,
// which continues in the standard instantiations: a Chess960 node then costs what a standard one
// does, the castling tests reading the table instead of constants.
struct CastlingRight {
  CastlingMove move;
  U64 kingToggle, rookToggle;
  // Chess960: a rook beyond the king's target (or beyond the king that does not move) shields that
  // target along the rank; enemy rook-wise sliders on these squares (the rank beyond the rook) may
  // attack the target once the rook has left. Zero when the rook stands at the edge or elsewhere.
  U64 shieldBeyond;
};
struct CastlingTable {
  CastlingRight right[4];
  U64 rightSquares[16];  // per set of rights: the squares of their kings and rooks
  int kingHome[2];
  KingReach reach[2];
};

// The rank squares beyond `rook` as seen from `king` (both on one rank).
constexpr U64 rankBeyond(int rook, int king) {
  const U64 rank = U64{0xff} << (rook & 56);
  const U64 below = squareBB(rook) - 1;
  return rank & (rook < king ? below : ~below & ~squareBB(rook));
}

// The table of the four moves; `held`: the rights whose moves are real (the others are not used).
constexpr CastlingTable makeCastlingTable(const CastlingMove (&moves)[4], int held) {
  CastlingTable t{};
  for (int r = 0; r < 4; ++r) {
    const CastlingMove& m = moves[r];
    const bool shields = m.kingTo == m.kingFrom || (between(m.rookFrom, m.kingFrom) & squareBB(m.kingTo));
    t.right[r] = {m, squareBB(m.kingFrom) ^ squareBB(m.kingTo), squareBB(m.rookFrom) ^ squareBB(m.rookTo),
                  shields ? rankBeyond(m.rookFrom, m.kingFrom) : 0};
  }
  for (int set = 0; set < 16; ++set)
    for (int r = 0; r < 4; ++r)
      if (set & (1 << r)) t.rightSquares[set] |= squareBB(moves[r].kingFrom) | squareBB(moves[r].rookFrom);
  for (int us = 0; us < 2; ++us) {
    const int home = moves[2 * us].kingFrom;
    U64 zone = kingAttacks(home);
    for (int r = 2 * us; r < 2 * us + 2; ++r)
      if (held & (1 << r)) zone |= moves[r].mustBeSafe & ~squareBB(home);
    t.kingHome[us] = home;
    t.reach[us] = kingReachOf(zone);
  }
  return t;
}
inline constexpr CastlingTable kStandardCastling = makeCastlingTable(kCastlingMoves, 15);

// The table of a Chess960 board's rights (those held; the others keep the standard moves).
inline CastlingTable chess960CastlingTable(const Board& b) {
  CastlingMove moves[4];
  for (int r = 0; r < 4; ++r) {
    moves[r] = (b.castling & (1 << r)) ? chess960Castling(b, r) : kCastlingMoves[r];
    // Both moves of a side start from its king's square, held or not.
    if (b.castling & (1 << (r ^ 1))) moves[r].kingFrom = b.kingSquare(r >> 1);
  }
  return makeCastlingTable(moves, b.castling & 15);
}

// The slider policy S with a Chess960 castling table: the policy of the nodes of a Chess960 tree
// that still hold a right (the table outlives the search, the root keeps it).
template <class S>
struct Chess960Policy {
  S sliders;
  const CastlingTable* castling;
  U64 rook(int sq, U64 occupied) const { return sliders.rook(sq, occupied); }
  U64 bishop(int sq, U64 occupied) const { return sliders.bishop(sq, occupied); }
  U64 queen(int sq, U64 occupied) const { return sliders.queen(sq, occupied); }
};
template <class S>
constexpr bool kChess960Policy = false;
template <class S>
constexpr bool kChess960Policy<Chess960Policy<S>> = true;

// The policy's castling table: the root's in a Chess960 tree, else the standard one, whose entries
// fold to compile-time constants (every index into it is a template argument).
template <class S>
BBP_ALWAYS_INLINE const CastlingTable& castlingTable(const S& s) {
  if constexpr (kChess960Policy<S>) {
    return *s.castling;
  } else {
    (void)s;
    return kStandardCastling;
  }
}

// The policy of a node holding the rights CR: without one, a Chess960 node is a standard one.
template <int CR, class S>
BBP_ALWAYS_INLINE auto policyFor(S s) {
  if constexpr (CR == 0 && kChess960Policy<S>) return s.sliders;
  else return s;
}

// rightsAfter for the policy's table.
template <class S>
BBP_ALWAYS_INLINE int rightsAfterMove(const S& s, int rights, U64 touched) {
  if constexpr (!kChess960Policy<S>) {
    return rightsAfter(rights, touched);
  } else {
    for (int r = 0; r < 4; ++r)
      if (touched & castlingTable(s).rightSquares[1 << r]) rights &= ~(1 << r);
    return rights;
  }
}

template <int Us, int CR, bool Ep, bool NBQ, class S>
BBP_ALWAYS_INLINE U64 visit(S s, const Pos& b, int ep, int depth);

template <int Us, bool Ep, bool NBQ, class S, int... I>
U64 visitRights(S s, const Pos& b, int rights, int ep, int depth, std::integer_sequence<int, I...>) {
  using Fn = U64 (*)(S, const Pos&, int, int);
  static constexpr Fn table[] = {&visit<Us, I, Ep, NBQ, S>...};
  return table[rights](s, b, ep, depth);
}

// Whether a position holds a knight, a bishop or a queen (of either side).
inline bool hasNBQ(const Pos& b) { return (b.pieces[kKnight] | b.pieces[kBishop] | b.pieces[kQueen]) != 0; }

// The pieces of `type` (both colours); in a node without knights, bishops and queens (NBQ false)
// those three sets are empty at compile time, and every loop and test over them folds away.
template <bool NBQ>
BBP_ALWAYS_INLINE U64 pieceSet(const Pos& b, int type) {
  return NBQ || type == kPawn || type == kRook || type == kKing ? b.pieces[type] : 0;
}

// Takes the piece on toBB off the board of `c` (its colour set is the caller's).
template <bool NBQ>
BBP_ALWAYS_INLINE void removePiece(Pos& c, U64 toBB) {
  for (int k = kPawn; k < kKing; ++k)
    if (NBQ || k == kPawn || k == kRook) c.pieces[k] &= ~toBB;
}

// The child after a move touching `touched`, with no en-passant square: its rights are CR unless
// the move touched a square of a right still held. NBQ: the child may hold knights, bishops or queens.
template <int Them, int CR, bool NBQ, class S>
inline U64 descend(S s, const Pos& c, U64 touched, int depth) {
  if constexpr (rightSquares(CR) == 0) {
    (void)touched;
    return visit<Them, CR, false, NBQ>(s, c, kNoSquare, depth);
  } else {
    if (!(touched & castlingTable(s).rightSquares[CR])) return visit<Them, CR, false, NBQ>(s, c, kNoSquare, depth);
    return visitRights<Them, false, NBQ>(s, c, rightsAfterMove(s, CR, touched), kNoSquare, depth,
                                         std::make_integer_sequence<int, 16>{});
  }
}

// The squares a king on `sq` may need safe: its steps, and from e1 / e8 the castling king's c and g
// squares. rook[sq] / bishop[sq] / knight[sq]: where a rook-wise slider, a bishop-wise slider or a
// knight must stand to attack one of them (their empty-board rays, their knight moves).
struct KingZoneReach {
  std::array<U64, 64> rook, bishop, knight;
};

constexpr KingZoneReach makeKingZoneReach() {
  KingZoneReach z{};
  for (int sq = 0; sq < 64; ++sq) {
    U64 zone = kingAttacks(sq);
    if (sq == 4) zone |= squareBB(2) | squareBB(6);
    if (sq == 60) zone |= squareBB(58) | squareBB(62);
    for (U64 t = zone; t; t &= t - 1) {
      const int to = lsb(t);
      z.rook[sq] |= rookRays(to);
      z.bishop[sq] |= bishopRays(to);
      z.knight[sq] |= knightAttacks(to);
    }
  }
  return z;
}
inline constexpr KingZoneReach kKingZoneReach = makeKingZoneReach();

// The reach of the zone of Us's king on ksq: its home's from the castling table while it holds a
// right (KingHome), kKingZoneReach's otherwise.
template <int Us, bool KingHome, class S>
BBP_ALWAYS_INLINE KingReach kingReach(const S& s, int ksq) {
  if constexpr (KingHome) return castlingTable(s).reach[Us];
  else return {kKingZoneReach.rook[ksq], kKingZoneReach.bishop[ksq], kKingZoneReach.knight[ksq]};
}

// Squares attacked by `Color` with the given occupancy, exact on the squares of the enemy king's
// zone whose reach is z (kingReach): the knights and sliders that cannot reach them are left out.
template <int Color, bool NBQ, class S>
BBP_ALWAYS_INLINE U64 attackedBy(S s, const Pos& b, U64 occ, const KingReach& z) {
  const U64 own = b.colors[Color];
  U64 attacked = PawnSide<Color>::attacks(b.pieces[kPawn] & own) | kingAttacks(lsb(b.pieces[kKing] & own));
  for (U64 k = pieceSet<NBQ>(b, kKnight) & own & z.knight; k; k &= k - 1) attacked |= knightAttacks(lsb(k));
  for (U64 d = (pieceSet<NBQ>(b, kBishop) | pieceSet<NBQ>(b, kQueen)) & own & z.bishop; d; d &= d - 1)
    attacked |= s.bishop(lsb(d), occ);
  for (U64 o = (b.pieces[kRook] | pieceSet<NBQ>(b, kQueen)) & own & z.rook; o; o &= o - 1)
    attacked |= s.rook(lsb(o), occ);
  return attacked;
}

// The leaves below the moves of the non-pawn piece of `type` on fromBB to the squares of `to`
// (quiet moves, then captures); ChildCR: the rights the children keep unless a move touches one.
template <int Us, int ChildCR, bool NBQ, class S>
BBP_ALWAYS_INLINE U64 pieceChildren(S s, const Pos& b, int type, U64 fromBB, U64 to, int depth) {
  constexpr int Them = Us ^ 1;
  U64 n = 0;
  if (const U64 quiet = to & ~b.colors[Them]) {
    // Quiet moves: one copy, each move made and unmade on it.
    Pos c = b;
    for (U64 t = quiet; t; t &= t - 1) {
      const U64 ft = fromBB | (t & -t);
      c.pieces[type] ^= ft;
      c.colors[Us] ^= ft;
      n += descend<Them, ChildCR, NBQ>(s, c, ft, depth - 1);
      c.pieces[type] ^= ft;
      c.colors[Us] ^= ft;
    }
  }
  for (U64 t = to & b.colors[Them]; t; t &= t - 1) {
    Pos c = b;
    const U64 toBB = t & -t, ft = fromBB | toBB;
    removePiece<NBQ>(c, toBB);
    c.pieces[type] ^= ft;
    c.colors[Us] ^= ft;
    c.colors[Them] ^= toBB;
    n += descend<Them, ChildCR, NBQ>(s, c, ft, depth - 1);
  }
  return n;
}

// One node: Leaf = count the legal moves (the last ply), else make each and descend.
template <int Us, int CR, bool Ep, bool NBQ, bool Leaf, class S>
U64 node(S s, const Pos& b, int ep, int depth) {
  // An inner node that finds no knight, bishop or queen (none at the root, or the last one taken)
  // continues in the instantiation without them, and so does its subtree up to a promotion. Only
  // with no castling right left (endgames, where such positions are common): that keeps the
  // instantiations few.
  if constexpr (NBQ && !Leaf && CR == 0) {
    if (!hasNBQ(b)) return node<Us, CR, Ep, false, false>(s, b, ep, depth);
  }
  using P = PawnSide<Us>;
  constexpr int Them = Us ^ 1;
  const U64 us = b.colors[Us], them = b.colors[Them], occ = us | them;
  // With a castling right of ours left the king is on its home square (a right is cleared when the
  // king leaves): its square is then a compile-time constant in standard chess, and so are its
  // table entries; the Chess960 table's otherwise.
  constexpr bool kKingHome = (CR & ownRights(Us)) != 0;
  const U64 kingBB = kKingHome ? squareBB(castlingTable(s).kingHome[Us]) : b.pieces[kKing] & us;
  const int ksq = kKingHome ? castlingTable(s).kingHome[Us] : lsb(kingBB);
  const U64 enemyKing = b.pieces[kKing] & them;
  const U64 theirOrth = (b.pieces[kRook] | pieceSet<NBQ>(b, kQueen)) & them;
  const U64 theirDiag = (pieceSet<NBQ>(b, kBishop) | pieceSet<NBQ>(b, kQueen)) & them;

  // Checkers and pinned pieces. Enemy king next to ours happens only on inconsistent boards.
  U64 checkers = (pawnAttacks(Us, ksq) & b.pieces[kPawn] & them) | (knightAttacks(ksq) & pieceSet<NBQ>(b, kKnight) & them) |
                 (kingAttacks(ksq) & enemyKing);
  // The pin masks, one per direction family: the squares from the king to each pinner, pinner
  // included. A piece pinned in one family cannot move along the other; a slider moving along its
  // own family stays on its pin ray, and no such move reaches another ray of the same family, so its
  // targets are masked by the family's pin mask without a per-piece line. Pawn pushes are the
  // exception (see the pawns below).
  U64 pinOrth = 0, pinDiag = 0;
  for (U64 c = rookRays(ksq) & theirOrth; c; c &= c - 1) {
    const U64 ray = between(ksq, lsb(c)), blockers = ray & occ;
    if (!blockers) checkers |= c & -c;
    else if (!(blockers & (blockers - 1)) && (blockers & us)) pinOrth |= ray | (c & -c);
  }
  for (U64 c = bishopRays(ksq) & theirDiag; c; c &= c - 1) {
    const U64 ray = between(ksq, lsb(c)), blockers = ray & occ;
    if (!blockers) checkers |= c & -c;
    else if (!(blockers & (blockers - 1)) && (blockers & us)) pinDiag |= ray | (c & -c);
  }
  const U64 pinned = (pinOrth | pinDiag) & us;

  U64 n = 0;
  // King steps: the enemy attack map (our king lifted off the board) only when it pays.
  const U64 occNoKing = occ ^ kingBB;
  U64 danger = 0;
  bool haveDanger = false;
  const auto needDanger = [&]() BBP_LAMBDA_INLINE {
    if (!haveDanger) danger = attackedBy<Them, NBQ>(s, b, occNoKing, kingReach<Us, kKingHome>(s, ksq)), haveDanger = true;
  };
  const auto attackedSq = [&](int sq) {
    return ((pawnAttacks(Us, sq) & b.pieces[kPawn] & them) | (knightAttacks(sq) & pieceSet<NBQ>(b, kKnight) & them) |
            (kingAttacks(sq) & enemyKing)) != 0 ||
           ((bishopRays(sq) & theirDiag) && (s.bishop(sq, occNoKing) & theirDiag)) ||
           ((rookRays(sq) & theirOrth) && (s.rook(sq, occNoKing) & theirOrth));
  };
  U64 kingTargets = kingAttacks(ksq) & ~us & ~enemyKing;
  if (kingTargets & (kingTargets - 1)) {
    needDanger();
    kingTargets &= ~danger;
  } else if (kingTargets && attackedSq(lsb(kingTargets))) {
    kingTargets = 0;
  }
  // A move of ours: Leaf counts its targets; otherwise each target's child is made and visited.
  constexpr int kRightsLeft = CR & ~ownRights(Us);
  if constexpr (Leaf) {
    n += popcount(kingTargets);
  } else {
    n += pieceChildren<Us, kRightsLeft, NBQ>(s, b, kKing, kingBB, kingTargets, depth);
  }

  U64 checkMask = ~U64{0};
  if (checkers) {
    if (checkers & (checkers - 1)) return n;  // double check: king moves only
    checkMask = between(ksq, lsb(checkers)) | checkers;
  } else if constexpr ((CR & ownRights(Us)) != 0) {
    // One right at a time, its index a compile-time constant.
    const auto castle = [&](auto index) BBP_LAMBDA_INLINE {
      constexpr int r = decltype(index)::value;
      if constexpr ((CR & (1 << r)) != 0) {
        const CastlingRight& right = castlingTable(s).right[r];
        const CastlingMove& m = right.move;
        if (occ & m.mustBeEmpty) return;
        needDanger();
        if (danger & m.mustBeSafe) return;
        // Chess960: the king's target attacked along the rank once the rook has left.
        if ((right.shieldBeyond & theirOrth) && (s.rook(m.kingTo, occ ^ squareBB(m.rookFrom)) & theirOrth)) return;
        if constexpr (Leaf) {
          ++n;
        } else {
          Pos c = b;
          c.pieces[kKing] ^= right.kingToggle;
          c.pieces[kRook] ^= right.rookToggle;
          c.colors[Us] ^= right.kingToggle ^ right.rookToggle;
          n += visit<Them, kRightsLeft, false, NBQ>(s, c, kNoSquare, depth - 1);
        }
      }
    };
    castle(std::integral_constant<int, 2 * Us>{});
    castle(std::integral_constant<int, 2 * Us + 1>{});
  }

  const U64 targets = ~us & ~enemyKing & checkMask;
  // Moves of a non-pawn piece of `type` from `from` to `to` (a set).
  const auto pieceMoves = [&](int type, int from, U64 to) BBP_LAMBDA_INLINE {
    if constexpr (Leaf) {
      n += popcount(to);
    } else {
      n += pieceChildren<Us, CR, NBQ>(s, b, type, squareBB(from), to, depth);
    }
  };
  for (U64 p = pieceSet<NBQ>(b, kKnight) & us & ~pinned; p; p &= p - 1)
    pieceMoves(kKnight, lsb(p), knightAttacks(lsb(p)) & targets);
  const U64 ourQueens = pieceSet<NBQ>(b, kQueen) & us;
  const U64 ourBishops = pieceSet<NBQ>(b, kBishop) & us, ourRooks = b.pieces[kRook] & us;
  // Inner nodes: sliders boxed in by their own pieces (every neighbouring square in their
  // directions ours) have no move; found set-wise, they are left out without a lookup. (In the
  // leaves the extra live masks cost more than the lookups they save.)
  U64 orthFree = ~U64{0}, diagFree = ~U64{0};
  if constexpr (!Leaf) {
    const U64 notOurs = ~us, beside = eastOne(notOurs) | westOne(notOurs);
    orthFree = (notOurs << 8) | (notOurs >> 8) | beside;
    diagFree = (beside << 8) | (beside >> 8);
  }
  for (U64 p = ourBishops & diagFree & ~pinned; p; p &= p - 1) pieceMoves(kBishop, lsb(p), s.bishop(lsb(p), occ) & targets);
  for (U64 p = ourRooks & orthFree & ~pinned; p; p &= p - 1) pieceMoves(kRook, lsb(p), s.rook(lsb(p), occ) & targets);
  for (U64 p = ourQueens & (orthFree | diagFree) & ~pinned; p; p &= p - 1)
    pieceMoves(kQueen, lsb(p), s.queen(lsb(p), occ) & targets);
  if (pinned & (ourBishops | ourRooks | ourQueens)) {
    for (U64 p = (ourBishops | ourQueens) & pinDiag; p; p &= p - 1)
      pieceMoves((ourBishops & p & -p) ? kBishop : kQueen, lsb(p), s.bishop(lsb(p), occ) & targets & pinDiag);
    for (U64 p = (ourRooks | ourQueens) & pinOrth; p; p &= p - 1)
      pieceMoves((ourRooks & p & -p) ? kRook : kQueen, lsb(p), s.rook(lsb(p), occ) & targets & pinOrth);
  }

  // Pawns, set-wise; the pinned ones by the pin mask of their family. An orthogonally pinned pawn
  // can only push along its file (a capture leaves the ray and lands on no other orthogonal ray: a
  // square there holding an enemy piece would be a pinner next to the king, which is a check). A
  // diagonally pinned pawn can only take its pinner, and never push: its double push from beside the
  // king can land on another diagonal pin ray (king e3, pawn d2 pinned from c1, d4 on the ray to a
  // pawn on c5 pinned from b6), which the family mask would let through, so it gets no empty
  // squares to push to.
  const U64 empty = ~occ;
  // The masks passed below are within `targets`, which leaves the enemy king out.
  const U64 capturable = them;
  const auto pawnMoves = [&](U64 pawns, U64 mask, U64 open) {
    const auto [pushes, doubles, east, west] = movegen::PawnTargets<Us>(pawns, open, capturable, mask);
    if constexpr (Leaf) {
      // Pushes and doubles never share a square: one popcount; a promotion counts four times, so
      // the targets on the last rank are added three more times.
      n += popcount(pushes | doubles) + popcount(east) + popcount(west);
      if (pawns & (Us == 0 ? rankBB(6) : rankBB(1)))  // only pawns on the seventh rank promote
        n += 3 * (popcount(pushes & P::kLastRank) + popcount(east & P::kLastRank) + popcount(west & P::kLastRank));
    } else {
      if (const U64 single = pushes & ~P::kLastRank) {
        Pos c = b;
        for (U64 t = single; t; t &= t - 1) {
          const U64 to = t & -t, ft = to | (P::kUp > 0 ? to >> P::kUp : to << -P::kUp);
          c.pieces[kPawn] ^= ft;
          c.colors[Us] ^= ft;
          n += visit<Them, CR, false, NBQ>(s, c, kNoSquare, depth - 1);
          c.pieces[kPawn] ^= ft;
          c.colors[Us] ^= ft;
        }
      }
      if (doubles) {
        Pos c = b;
        for (U64 t = doubles; t; t &= t - 1) {
          const int to = lsb(t);
          const U64 toBB = t & -t, ft = toBB | squareBB(to - 2 * P::kUp);
          c.pieces[kPawn] ^= ft;
          c.colors[Us] ^= ft;
          // En passant is possible for the child only with an enemy pawn beside the pawn that moved.
          if ((eastOne(toBB) | westOne(toBB)) & b.pieces[kPawn] & them)
            n += visit<Them, CR, true, NBQ>(s, c, to - P::kUp, depth - 1);
          else
            n += visit<Them, CR, false, NBQ>(s, c, kNoSquare, depth - 1);
          c.pieces[kPawn] ^= ft;
          c.colors[Us] ^= ft;
        }
      }
      // The four promotions on toBB of `c`, its pawn already lifted: a knight, bishop or queen
      // gives a child with them.
      const auto promotions = [&](const Pos& c, U64 toBB) {
        for (int promo = kKnight; promo <= kQueen; ++promo) {
          Pos d = c;
          d.pieces[promo] |= toBB;
          n += promo == kRook ? descend<Them, CR, NBQ>(s, d, toBB, depth - 1)
                              : descend<Them, CR, true>(s, d, toBB, depth - 1);
        }
      };
      const auto captures = [&](U64 set, int delta) {
        for (U64 t = set; t; t &= t - 1) {
          const int to = lsb(t);
          const U64 toBB = t & -t, fromBB = squareBB(to - delta);
          Pos c = b;
          removePiece<NBQ>(c, toBB);
          c.colors[Them] ^= toBB;
          c.colors[Us] ^= fromBB | toBB;
          if (toBB & P::kLastRank) {
            c.pieces[kPawn] ^= fromBB;
            promotions(c, toBB);
          } else {
            c.pieces[kPawn] ^= fromBB | toBB;
            n += descend<Them, CR, NBQ>(s, c, toBB, depth - 1);
          }
        }
      };
      captures(east, P::kUpEast);
      captures(west, P::kUpWest);
      for (U64 t = pushes & P::kLastRank; t; t &= t - 1) {
        const int to = lsb(t);
        const U64 toBB = t & -t, fromBB = squareBB(to - P::kUp);
        Pos c = b;
        c.pieces[kPawn] ^= fromBB;
        c.colors[Us] ^= fromBB | toBB;
        promotions(c, toBB);
      }
    }
  };
  const U64 ourPawns = b.pieces[kPawn] & us;
  pawnMoves(ourPawns & ~pinned, targets, empty);
  if (ourPawns & pinned) {
    pawnMoves(ourPawns & pinOrth, targets & pinOrth, empty);
    pawnMoves(ourPawns & pinDiag, targets & pinDiag, 0);
  }

  if constexpr (Ep) {
    const int to = ep;
    const U64 toBB = squareBB(to), capturedBB = squareBB(to - P::kUp);
    // The captured pawn must be there, and the capture must answer a check (take the pawn that
    // gave it, or land between a slider and the king); the lines through the king after the
    // capture decide the rest (this covers the horizontal pin of two pawns on the fifth rank).
    if ((b.pieces[kPawn] & them & capturedBB) && !(occ & toBB) && (checkMask & (toBB | capturedBB))) {
      for (U64 a = pawnAttacks(Them, to) & ourPawns; a; a &= a - 1) {
        const U64 fromBB = a & -a;
        const U64 after = occ ^ fromBB ^ capturedBB ^ toBB;
        if ((s.rook(ksq, after) & theirOrth) || (s.bishop(ksq, after) & theirDiag)) continue;
        if constexpr (Leaf) {
          ++n;
        } else {
          Pos c = b;
          c.pieces[kPawn] ^= fromBB | toBB | capturedBB;
          c.colors[Us] ^= fromBB | toBB;
          c.colors[Them] ^= capturedBB;
          n += visit<Them, CR, false, NBQ>(s, c, kNoSquare, depth - 1);
        }
      }
    }
  }
  return n;
}

// The last ply makes no child, so only the mover's own rights matter there: the leaf nodes are
// instantiated for those alone (4 per side and en-passant flag instead of 16), less code to keep hot.
template <int Us, int CR, bool Ep, bool NBQ, class S>
BBP_ALWAYS_INLINE U64 visit(S s, const Pos& b, int ep, int depth) {
  return depth == 1 ? node<Us, CR & ownRights(Us), Ep, NBQ, true>(policyFor<CR & ownRights(Us)>(s), b, ep, 1)
                    : node<Us, CR, Ep, NBQ, false>(policyFor<CR>(s), b, ep, depth);
}

// The root in the general instantiation (an inner node switches itself when it finds no knight,
// bishop or queen).
template <class S>
U64 perftRoot(S s, const Pos& p, const Board& b, int rights, int depth) {
  const auto seq = std::make_integer_sequence<int, 16>{};
  if (b.epSquare != kNoSquare)
    return b.sideToMove == 0 ? visitRights<0, true, true>(s, p, rights, b.epSquare, depth, seq)
                             : visitRights<1, true, true>(s, p, rights, b.epSquare, depth, seq);
  return b.sideToMove == 0 ? visitRights<0, false, true>(s, p, rights, kNoSquare, depth, seq)
                           : visitRights<1, false, true>(s, p, rights, kNoSquare, depth, seq);
}

template <class S>
U64 perft(S s, const Board& b, int depth) {
  const Pos p{{b.colors[0], b.colors[1]}, {b.pieces[0], b.pieces[1], b.pieces[2], b.pieces[3], b.pieces[4], b.pieces[5]}};
  // A right is kept only with its king and rook at home; below the root every move that takes one
  // of them away (or captures the rook) clears it, so the nodes need not look.
  int rights = b.castling & 15;
  if (b.chess960 && rights) {
    // Chess960: the root's castling table, alive for the whole search.
    const CastlingTable table = chess960CastlingTable(b);
    for (int r = 0; r < 4; ++r) {
      const CastlingMove& m = table.right[r].move;
      const U64 own = b.colors[r >> 1], backRank = r < 2 ? rankBB(0) : rankBB(7);
      if (!(b.pieces[kKing] & own & backRank & squareBB(m.kingFrom)) || !(b.pieces[kRook] & own & backRank & squareBB(m.rookFrom)))
        rights &= ~(1 << r);
    }
    if (rights) return perftRoot(Chess960Policy<S>{s, &table}, p, b, rights, depth);
    return perftRoot(s, p, b, rights, depth);
  }
  for (const CastlingMove& m : kCastlingMoves) {
    const U64 own = b.colors[m.kingFrom < 8 ? 0 : 1];
    if (!(b.pieces[kKing] & own & squareBB(m.kingFrom)) || !(b.pieces[kRook] & own & squareBB(m.rookFrom)))
      rights &= ~m.right;
  }
  return perftRoot(s, p, b, rights, depth);
}

}  // namespace perftgen

namespace movegen {

// The positions one ply below each of `from` (every legal move), appended to `to`.
template <int Us, class Sliders>
void expandInto(const Sliders& s, const Board& b, std::vector<Board>& to) {
  auto visit = [&](const Board& child) { to.push_back(child); };
  ChildSink<Us, decltype(visit)> sink{b, visit};
  generate<Us>(s, b, sink);
}

}  // namespace movegen

// Work items for parallel perft: the positions `plies` plies below the root, plies chosen so there
// are enough items for balance (about kPerftSplitItems) leaving at least kPerftSplitMinDepth plies
// below each item, and, for a prompt stop in deep trees, at most kPerftSplitMaxDepth. A position with
// no legal move at an inner ply has no leaves below it and simply yields no item.
constexpr std::size_t kPerftSplitItems = 2048;
constexpr int kPerftSplitMinDepth = 3;
constexpr int kPerftSplitMaxDepth = 6;

template <class Sliders>
int perftSplit(const Sliders& s, const Board& root, int depth, std::vector<Board>& items) {
  items.assign(1, root);
  int plies = 0;
  std::vector<Board> next;
  while (depth - plies > kPerftSplitMinDepth && !items.empty() &&
         (items.size() < kPerftSplitItems || depth - plies > kPerftSplitMaxDepth)) {
    next.clear();
    for (const Board& b : items) {
      if (b.sideToMove == 0) movegen::expandInto<0>(s, b, next);
      else movegen::expandInto<1>(s, b, next);
    }
    items.swap(next);
    ++plies;
  }
  return plies;
}

// Leaf nodes at `depth` (0 -> 1).
template <class Sliders>
U64 perft(const Sliders& s, const Board& b, int depth) {
  if (depth <= 0) return 1;
  return perftgen::perft(s, b, depth);
}

// The wiki's columns over the last ply's moves (depth 0: nodes 1, the rest 0).
template <class Sliders>
PerftStats perftStats(const Sliders& s, const Board& b, int depth) {
  PerftStats stats;
  if (depth <= 0) {
    stats.column[kStatNodes] = 1;
  } else if (b.sideToMove == 0) {
    movegen::perftStatsNode<0>(s, b, depth, stats);
  } else {
    movegen::perftStatsNode<1>(s, b, depth, stats);
  }
  return stats;
}

// perft (stats = false: out[0] = leaf nodes) or perftStats (out = the kPerftStatsColumns columns)
// on `threads` threads (the caller's thread is one of them). `stop(context)`, when given, is called
// between work items on any of the threads; returns false (out then unspecified) when it answered
// true before the work was done.
template <class Sliders>
bool perftParallel(const Sliders& s, const Board& root, int depth, unsigned threads, bool stats,
                   bool (*stop)(void*), void* context, U64* out) {
  const int columns = stats ? kPerftStatsColumns : 1;
  for (int c = 0; c < columns; ++c) out[c] = 0;
  if (depth <= 0) {
    out[0] = 1;
    return true;
  }
  std::vector<Board> items;
  const int plies = perftSplit(s, root, depth, items);
  const int below = depth - plies;
  if (threads < 1) threads = 1;
  if (threads > items.size()) threads = static_cast<unsigned>(items.size() > 0 ? items.size() : 1);
#if defined(__wasm__)
  threads = 1;
#endif
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stopped{false};
  std::vector<PerftStats> partial(threads);
  const auto work = [&](unsigned t) {
    PerftStats& mine = partial[t];
    for (;;) {
      if (stop && stop(context)) {
        stopped.store(true, std::memory_order_relaxed);
        return;
      }
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= items.size()) return;
      if (stats) {
        const PerftStats st = perftStats(s, items[i], below);
        for (int c = 0; c < kPerftStatsColumns; ++c) mine.column[c] += st.column[c];
      } else {
        mine.column[kStatNodes] += perft(s, items[i], below);
      }
    }
  };
#if defined(__wasm__)
  work(0);
#else
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work, t);
  work(0);
  for (std::thread& h : helpers) h.join();
#endif
  if (stopped.load()) return false;
  for (const PerftStats& p : partial)
    for (int c = 0; c < columns; ++c) out[c] += p.column[c];
  return true;
}

}  // namespace BBP_ISA
}  // namespace bbp
