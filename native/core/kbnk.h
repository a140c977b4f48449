// KBNK (Chess Programming Wiki: KBNK Endgame): the KBNK Endgame page's bit-twiddled corner distance, a mop-up evaluation, and a
// retrograde generator of the whole distance-to-mate table, set-wise: for every placement of the
// strong king, bishop and knight, one 64-bit set per ply holds the weak-king squares decided at that
// ply, and a ply is advanced with king-attack fills (weak side) and the strong pieces' moves (strong
// side). Header-only C++17, no Node headers; the table layout is version 1 of lib/backend.ts.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

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

// Mop-up score for the strong side, 0..154 (the formula of KbnkBackend.kbnkEval in lib/backend.ts):
// the weak king's distance to a corner of the bishop's colour weighs 16 per step, so it dominates
// the strong king's approach (chebyshev x4 plus manhattan x1, at most 6 per king step).
constexpr int kbnkEval(int strongKing, int bishop, int /*knight*/, int weakKing) {
  return (7 - cornerDistance(bishop, weakKing)) * 16 + (7 - chebyshev(strongKing, weakKing)) * 4 +
         (14 - manhattanDistance(strongKing, weakKing));
}

// ---- Table layout v1 (lib/backend.ts) ----

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

// ---- Bishop attacks without tables (Kogge-Stone fills), for drivers that have no slider tables ----

struct KoggeStoneBishops {
  U64 bishop(int sq, U64 occupied) const {
    const U64 b = squareBB(sq), empty = ~occupied;
    return rayAttacks(kNoEa, b, empty) | rayAttacks(kSoEa, b, empty) | rayAttacks(kSoWe, b, empty) |
           rayAttacks(kNoWe, b, empty);
  }
};

// ---- Retrograde generator ----

// Called between plies on the thread that called kbnkGenerate: `done` of `total` steps finished
// (total is an estimate until the end; the last call has done == total).
using KbnkProgressFn = void (*)(void* context, unsigned done, unsigned total);

// Steps of a full KBNK generation: the setup (mates, stalemates, captures) and one per strong+weak
// ply pair, the last of which finds nothing new (the longest win is 65 plies, so 33 pairs decide).
constexpr unsigned kKbnkExpectedSteps = 1 + 34;

namespace detail {

// Placement p = (triangleIndex * 64 + bishop) * 64 + knight: the table's order, 64 weak-king squares
// per placement and side to move.
struct KbnkPlacement {
  U64 legalStrongToMove;  // weak-king squares where the position with the strong side to move is legal
  U64 undecidedWeak;      // weak to move, legal, has a non-capturing move and no capture that draws
  U64 safe;               // squares the weak king may step to without capturing (empty, unattacked)
  U64 bishopMoves;
};

class KbnkGenerator {
 public:
  KbnkGenerator(std::uint8_t* table, unsigned threads)
      : table_(table),
        threads_(std::clamp(threads, 1u, static_cast<unsigned>(kKbnkPlacements / kBlock))),
        place_(kKbnkPlacements),
        wonStrong_(kKbnkPlacements),
        lostWeak_(kKbnkPlacements),
        fresh_{std::vector<U64>(kKbnkPlacements), std::vector<U64>(kKbnkPlacements)} {}

  template <class Sliders>
  void run(const Sliders& sliders, KbnkProgressFn progress, void* context) {
    unsigned done = 0;
    const auto report = [&](unsigned total) {
      if (progress) progress(context, done, total);
    };
    parallel([&](std::size_t p) { return setup(sliders, p); });
    ++done;
    report(kKbnkExpectedSteps);
    for (int pair = 1;; ++pair) {
      const std::vector<U64>& lost = fresh_[(pair - 1) & 1];
      std::vector<U64>& next = fresh_[pair & 1];
      const std::size_t decided = parallel([&](std::size_t p) { return advance(p, pair, lost, next); });
      ++done;
      if (decided == 0) break;
      report(std::max(kKbnkExpectedSteps, done + 1));
    }
    report(done);
  }

 private:
  static constexpr std::size_t kBlock = 64;  // placements per work item (one bishop square's knights)

  // Runs f(p) for every placement on `threads_` threads, handing out blocks from a shared counter;
  // returns the sum of f's results.
  template <typename F>
  std::size_t parallel(F f) {
    std::atomic<std::size_t> nextBlock{0}, sum{0};
    const auto worker = [&] {
      std::size_t mine = 0;
      for (;;) {
        const std::size_t block = nextBlock.fetch_add(1, std::memory_order_relaxed);
        if (block * kBlock >= kKbnkPlacements) break;
        for (std::size_t p = block * kBlock; p < (block + 1) * kBlock; ++p) mine += f(p);
      }
      sum.fetch_add(mine, std::memory_order_relaxed);
    };
    std::vector<std::thread> helpers;
    helpers.reserve(threads_ - 1);
    for (unsigned i = 1; i < threads_; ++i) helpers.emplace_back(worker);
    worker();
    for (std::thread& t : helpers) t.join();
    return sum.load();
  }

  static int kingOf(std::size_t p) { return kKbnkTriangle[p >> 12]; }
  static int bishopOf(std::size_t p) { return static_cast<int>((p >> 6) & 63); }
  static int knightOf(std::size_t p) { return static_cast<int>(p & 63); }

  void fill(int stm, std::size_t p, U64 legal, std::uint8_t value) {
    std::uint8_t* row = table_ + (static_cast<std::size_t>(stm) * kKbnkPlacements + p) * 64;
    for (int sq = 0; sq < 64; ++sq) row[sq] = (legal >> sq) & 1 ? value : kKbnkIllegal;
  }

  void write(int stm, std::size_t p, U64 squares, int ply) {
    std::uint8_t* row = table_ + (static_cast<std::size_t>(stm) * kKbnkPlacements + p) * 64;
    for (; squares; squares &= squares - 1) row[__builtin_ctzll(squares)] = static_cast<std::uint8_t>(ply);
  }

  // Ply 0: legality, the terminal positions (mate = 0, stalemate = draw), and the weak king's drawing
  // captures of an unprotected piece, all set-wise over the weak king's 64 squares.
  template <class Sliders>
  std::size_t setup(const Sliders& sliders, std::size_t p) {
    KbnkPlacement& pl = place_[p];
    const int king = kingOf(p), bishop = bishopOf(p), knight = knightOf(p);
    if (king == bishop || king == knight || bishop == knight) {
      pl = KbnkPlacement{};
      wonStrong_[p] = lostWeak_[p] = fresh_[0][p] = 0;
      fill(0, p, 0, kKbnkIllegal);
      fill(1, p, 0, kKbnkIllegal);
      return 0;
    }
    const U64 kingBB = squareBB(king), bishopBB = squareBB(bishop), knightBB = squareBB(knight);
    const U64 occupied = kingBB | bishopBB | knightBB;
    // The weak king never blocks an attack on the square it steps to (it has left its square), so
    // the bishop's attacks are taken through the weak king: blockers are the strong king and knight.
    const U64 bishopAttacks = sliders.bishop(bishop, kingBB | knightBB);
    const U64 checks = bishopAttacks | knightAttacks(knight);
    const U64 attacked = checks | kingAttacks(king);
    const U64 legalWeak = ~(occupied | kingAttacks(king));
    const U64 legalStrong = legalWeak & ~checks;
    const U64 safe = ~(occupied | attacked);
    const U64 loosePieces = (bishopBB | knightBB) & ~attacked;  // neither guarded by another piece
    const U64 drawsByCapture = legalWeak & kingAttacksSet(loosePieces);
    const U64 canStep = kingAttacksSet(safe);  // squares with a safe neighbour
    const U64 mated = legalWeak & checks & ~canStep & ~drawsByCapture;

    pl.legalStrongToMove = legalStrong;
    pl.undecidedWeak = legalWeak & canStep & ~drawsByCapture;
    pl.safe = safe;
    pl.bishopMoves = bishopAttacks & ~(kingBB | knightBB);
    wonStrong_[p] = 0;
    lostWeak_[p] = fresh_[0][p] = mated;
    fill(0, p, legalStrong, kKbnkDraw);
    fill(1, p, legalWeak, kKbnkDraw);
    write(1, p, mated, 0);
    return 0;
  }

  // The weak-to-move positions lost at exactly ply 2 * pair - 2 at placement q, seen from the strong
  // king's true square: q's king may stand outside the triangle, so the set is fetched from the
  // symmetric placement inside it and mapped back.
  static U64 lostAt(const std::vector<U64>& lost, int king, int bishop, int knight) {
    const int s = kbnkSymmetry.toTriangle[king];
    if (s == 0) return lost[(static_cast<std::size_t>(kbnkSymmetry.triangleIndex[king]) * 64 + bishop) * 64 + knight];
    const auto& to = kbnkSymmetry.square[s];
    const std::size_t q = (static_cast<std::size_t>(kbnkSymmetry.triangleIndex[to[king]]) * 64 + to[bishop]) * 64 +
                          to[knight];
    return mapSet(kbnkSymmetry.inverse[s], lost[q]);
  }

  // One ply pair at placement p. Strong to move wins at ply 2 * pair - 1 when one of its moves reaches
  // a weak-to-move position lost at ply 2 * pair - 2 (the union over the moves of those sets). Weak to
  // move loses at ply 2 * pair when every step (no capture draws, already excluded) lands on a square
  // already won for the strong side: no safe neighbour is left outside the won set.
  // Moves onto the weak king, next to it, or through it (a bishop slide) need no test: the target
  // sets hold legal positions only, and the line through the weak king makes the start illegal.
  std::size_t advance(std::size_t p, int pair, const std::vector<U64>& lost, std::vector<U64>& next) {
    const KbnkPlacement& pl = place_[p];
    if (!pl.legalStrongToMove) return next[p] = 0, 0;
    const int king = kingOf(p), bishop = bishopOf(p), knight = knightOf(p);
    const U64 kingBB = squareBB(king), bishopBB = squareBB(bishop), knightBB = squareBB(knight);
    const std::size_t row = p & ~std::size_t{4095};
    U64 reach = 0;
    for (U64 to = pl.bishopMoves; to; to &= to - 1)
      reach |= lost[row + static_cast<std::size_t>(__builtin_ctzll(to)) * 64 + knight];
    for (U64 to = knightAttacks(knight) & ~(kingBB | bishopBB); to; to &= to - 1)
      reach |= lost[(p & ~std::size_t{63}) + static_cast<std::size_t>(__builtin_ctzll(to))];
    for (U64 to = kingAttacks(king) & ~(bishopBB | knightBB); to; to &= to - 1)
      reach |= lostAt(lost, __builtin_ctzll(to), bishop, knight);
    const U64 won = reach & pl.legalStrongToMove & ~wonStrong_[p];
    if (!won) return next[p] = 0, 0;
    wonStrong_[p] |= won;
    write(0, p, won, 2 * pair - 1);
    const U64 lostNow = pl.undecidedWeak & ~lostWeak_[p] & ~kingAttacksSet(pl.safe & ~wonStrong_[p]);
    next[p] = lostNow;
    lostWeak_[p] |= lostNow;
    write(1, p, lostNow, 2 * pair);
    return static_cast<std::size_t>(__builtin_popcountll(won) + __builtin_popcountll(lostNow));
  }

  std::uint8_t* table_;
  unsigned threads_;
  std::vector<KbnkPlacement> place_;
  std::vector<U64> wonStrong_;  // strong to move: won, any ply so far
  std::vector<U64> lostWeak_;   // weak to move: lost (mated), any ply so far
  std::vector<U64> fresh_[2];   // weak to move: lost at exactly the last weak ply (double-buffered)
};

}  // namespace detail

// Fills `table` (kKbnkTableSize bytes, layout v1) on `threads` threads (at least 1); `progress`
// may be null. Needs no other state: several generations may run at once on different tables.
template <class Sliders>
void kbnkGenerate(const Sliders& sliders, std::uint8_t* table, unsigned threads, KbnkProgressFn progress = nullptr,
                  void* context = nullptr) {
  detail::KbnkGenerator generator(table, threads);
  generator.run(sliders, progress, context);
}

}  // namespace BBP_ISA
}  // namespace bbp
