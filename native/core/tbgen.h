// General endgame tablebase generator (Chess Programming Wiki: Retrograde Analysis, Endgame
// Tablebases), distance to mate, set-wise as the KBNK generator: for every placement of all pieces
// but the black king, one 64-bit set per side to move holds the black-king squares of the positions
// decided so far, and a ply is one pass over the placements that unions (wins) or intersects (losses)
// the sets of the successor placements. Black-king moves are king-attack fills of those sets; when
// black has only its king, its losses at a placement depend on that placement alone, so a win ply
// and the next loss ply share one pass.
// Captures and promotions lead into smaller (or other) endings whose tables are given; they are probed
// once per position before the first ply. Header-only C++17, no Node headers; specialised at compile
// time on the number of pieces.
//
// Table layout (version 1), one byte per position, index ((stm * placements + p) << 6) | blackKing:
//   p = (region(whiteKing) << 6 * (n - 2)) | sq[1] << 6 * (n - 3) | ... | sq[n - 2]
// Slots: 0 the white king, then the white pieces (queen, rook, bishop, knight, pawn order), then the
// black ones, then the black king (the set). The white king stands in the a1-d1-d4 triangle (10
// squares, the 8 board symmetries) without pawns, on files a-d (32 squares, the left-right mirror)
// with pawns. Byte: odd d = the side to move mates in d plies, even d = it is mated in d plies,
// kTbDraw, kTbIllegal. Positions are stored without en-passant rights and castling; a double push
// next to an enemy pawn is valued as the better, for the opponent, of the stored position and its
// en-passant captures (probed in the sub-ending).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kbnk.h"
#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

constexpr std::uint8_t kTbDraw = 254;
constexpr std::uint8_t kTbIllegal = 255;
constexpr int kTbMaxPieces = 5;
constexpr int kTbMaxPlies = 253;
// DTZ tables: a loss in d plies (0 = mated) is d (d <= kTbDtzMaxLoss), a win in d plies is
// kTbDtzWinBase + d (1 <= d <= 127). The byte holds longer distances as its last code of each kind:
// kTbDtzLongLoss = a loss in 126 plies or more, kTbDtzLongWin = a win in 127 plies or more; the exact
// distance of those beyond (126 and 127) is in the table's list of long values (TbLongValue).
constexpr int kTbDtzMaxLoss = 126;
constexpr int kTbDtzWinBase = 126;
constexpr int kTbDtzLongLoss = kTbDtzMaxLoss;
constexpr int kTbDtzLongWin = 253;
constexpr int kTbDtzMaxPlies = 65535;
constexpr int kTbPawn = 0, kTbKnight = 1, kTbBishop = 2, kTbRook = 3, kTbQueen = 4, kTbKing = 5;

struct TbMaterial {
  int n = 0;                          // pieces, kings included (2..5)
  std::int8_t color[kTbMaxPieces]{};  // per slot: 0 white, 1 black
  std::int8_t type[kTbMaxPieces]{};   // per slot: kTbPawn..kTbKing
  bool pawns = false;
  int others() const { return n - 2; }
  std::size_t regions() const { return pawns ? 32 : 10; }
  std::size_t placements() const { return regions() << (6 * others()); }
  std::size_t tableSize() const { return 2 * placements() * 64; }
  bool operator==(const TbMaterial& o) const {
    if (n != o.n) return false;
    for (int i = 0; i < n; ++i)
      if (color[i] != o.color[i] || type[i] != o.type[i]) return false;
    return true;
  }
};

// Sort key of the slot order: white king, white pieces (queen first), black pieces, black king.
constexpr int tbSlotKey(int color, int type) {
  return type == kTbKing ? (color ? 20 : 0) : (color ? 10 : 1) + (5 - type);
}

// The order of `count` pieces in slot order (a stable sort): perm[slot] = index of the piece.
inline void tbSlotOrder(int count, const std::int8_t* colors, const std::int8_t* types, int* perm) {
  for (int i = 0; i < count; ++i) perm[i] = i;
  std::stable_sort(perm, perm + count,
                   [&](int a, int b) { return tbSlotKey(colors[a], types[a]) < tbSlotKey(colors[b], types[b]); });
}

// The material of `count` pieces; false unless each side has exactly one king and 2 <= count <= 5.
inline bool tbMaterialOf(int count, const std::int8_t* colors, const std::int8_t* types, TbMaterial& m) {
  if (count < 2 || count > kTbMaxPieces) return false;
  int kings[2] = {0, 0};
  for (int i = 0; i < count; ++i) {
    if (colors[i] < 0 || colors[i] > 1 || types[i] < 0 || types[i] > kTbKing) return false;
    if (types[i] == kTbKing) ++kings[colors[i]];
  }
  if (kings[0] != 1 || kings[1] != 1) return false;
  int perm[kTbMaxPieces];
  tbSlotOrder(count, colors, types, perm);
  m = TbMaterial{};
  m.n = count;
  for (int i = 0; i < count; ++i) {
    m.color[i] = colors[perm[i]];
    m.type[i] = types[perm[i]];
    m.pawns = m.pawns || m.type[i] == kTbPawn;
  }
  return true;
}

// Parses "KQvKR" (white's pieces, 'v', black's; letters KQRBNP, any order); false when malformed.
inline bool tbParseMaterial(const std::string& text, TbMaterial& m) {
  std::int8_t colors[kTbMaxPieces], types[kTbMaxPieces];
  int count = 0, side = 0;
  for (char c : text) {
    if (c == 'v') {
      if (side++) return false;
      continue;
    }
    const char* letters = "PNBRQK";
    int t = -1;
    for (int i = 0; i < 6; ++i)
      if (letters[i] == c) t = i;
    if (t < 0 || count == kTbMaxPieces) return false;
    colors[count] = static_cast<std::int8_t>(side);
    types[count++] = static_cast<std::int8_t>(t);
  }
  return side == 1 && tbMaterialOf(count, colors, types, m);
}

inline std::string tbMaterialName(const TbMaterial& m) {
  std::string s = "K";
  for (int i = 1; i < m.n - 1; ++i)
    if (m.color[i] == 0) s += "PNBRQK"[m.type[i]];
  s += "vK";
  for (int i = 1; i < m.n - 1; ++i)
    if (m.color[i] == 1) s += "PNBRQK"[m.type[i]];
  return s;
}

// The symmetry (kbnk.h's mapSquare numbering) that takes the white king into its region.
inline int tbSymmetryOf(bool pawns, int whiteKing) {
  return pawns ? (fileOf(whiteKing) > 3 ? 1 : 0) : kbnkSymmetry.toTriangle[whiteKing];
}
inline int tbRegionIndex(bool pawns, int whiteKing) {
  return pawns ? rankOf(whiteKing) * 4 + fileOf(whiteKing) : kbnkSymmetry.triangleIndex[whiteKing];
}
inline int tbRegionSquare(bool pawns, int region) {
  return pawns ? (region >> 2) * 8 + (region & 3) : kKbnkTriangle[region];
}

// The table index of a position: sq[slot] for every slot of m (any squares; the symmetry is applied
// here), stm 0 = white to move.
inline std::size_t tbIndex(const TbMaterial& m, int stm, const int* sq) {
  const auto& map = kbnkSymmetry.square[tbSymmetryOf(m.pawns, sq[0])];
  std::size_t p = static_cast<std::size_t>(tbRegionIndex(m.pawns, map[sq[0]]));
  for (int i = 1; i < m.n - 1; ++i) p = (p << 6) | map[sq[i]];
  return ((static_cast<std::size_t>(stm) * m.placements() + p) << 6) | map[sq[m.n - 1]];
}

// The squares of table entry p (placement) into sq[0..n-2].
inline void tbPlacementSquares(const TbMaterial& m, std::size_t p, int* sq) {
  const int k = m.others();
  sq[0] = tbRegionSquare(m.pawns, static_cast<int>(p >> (6 * k)));
  for (int i = 1; i <= k; ++i) sq[i] = static_cast<int>((p >> (6 * (k - i))) & 63);
}

// A DTZ distance beyond what its byte holds: the table index and the plies.
struct TbLongValue {
  std::uint32_t index;
  std::uint32_t plies;
};

struct TbSubTable {
  TbMaterial material;
  const std::uint8_t* data;
};

enum class TbMetric { dtm = 1, dtz = 2 };

enum class TbStatus { ok = 0, cancelled = 1, missingSubTable = 2, tooLong = 3 };

// Called between plies on the calling thread: `done` of about `total` steps.
using TbProgressFn = void (*)(void* context, unsigned done, unsigned total);

namespace detail {

// The initial bytes of a table row, 8 black-king squares at a time: kTbDraw where the bit of the
// legal set is 1, kTbIllegal where it is 0.
struct TbRowBytes {
  std::uint8_t bytes[256][8];
};
constexpr TbRowBytes makeTbRowBytes() {
  TbRowBytes t{};
  for (int x = 0; x < 256; ++x)
    for (int b = 0; b < 8; ++b) t.bytes[x][b] = (x >> b) & 1 ? kTbDraw : kTbIllegal;
  return t;
}
inline constexpr TbRowBytes kTbRowBytes = makeTbRowBytes();

// The per-placement arrays of sets are read at the same index p in one pass, and the white king's
// moves read one of them at indices 4096 sets (32 KB) apart: with equal starts modulo 4 KB they all
// fall into the same set of a 32 KB level-1 cache and evict each other. Each array gets its own skew
// of its start (a multiple of 64 bytes) so their lines at p spread over the cache's sets.
template <class T>
struct TbSkewedAllocator {
  using value_type = T;
  using propagate_on_container_swap = std::true_type;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_copy_assignment = std::true_type;
  std::size_t skew = 0;  // bytes, a multiple of 64
  TbSkewedAllocator() = default;
  explicit TbSkewedAllocator(std::size_t s) : skew(s) {}
  template <class U>
  TbSkewedAllocator(const TbSkewedAllocator<U>& o) : skew(o.skew) {}
  // The block starts on a 64-byte boundary plus the skew; the pointer operator new gave is kept just
  // before it (no aligned operator new: older macOS deployment targets lack it).
  T* allocate(std::size_t n) {
    auto* raw = static_cast<unsigned char*>(::operator new(n * sizeof(T) + skew + 64 + sizeof(void*)));
    const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*) + 63) & ~std::uintptr_t{63};
    unsigned char* p = reinterpret_cast<unsigned char*>(start) + skew;
    std::memcpy(p - sizeof(void*), &raw, sizeof(void*));
    return reinterpret_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) {
    void* raw;
    std::memcpy(&raw, reinterpret_cast<unsigned char*>(p) - sizeof(void*), sizeof(void*));
    ::operator delete(raw);
  }
  template <class U>
  bool operator==(const TbSkewedAllocator<U>& o) const { return skew == o.skew; }
  template <class U>
  bool operator!=(const TbSkewedAllocator<U>& o) const { return skew != o.skew; }
};
using TbSets = std::vector<U64, TbSkewedAllocator<U64>>;

constexpr int kTbMoved = -1;  // the piece that moved (its square is the move's target)

struct TbPlaced {
  std::size_t p;
  int sq[kTbMaxPieces];
  U64 occ;      // every piece but the black king
  U64 own[2];   // the same per colour
  bool valid;
};

// N: the number of pieces (a compile-time constant, so that the loops over the slots unroll).
template <class Sliders, int N>
class TbGenerator {
  static constexpr int kOthers = N - 2;  // slots in the placement besides the white king

 public:
  TbGenerator(const Sliders& sliders, const TbMaterial& m, std::uint8_t* table, const TbSubTable* subs, int subCount,
              unsigned threads, bool dtz, std::vector<TbLongValue>& longs)
      : sl_(sliders), m_(m), table_(table), subs_(subs), subCount_(subCount), P_(m.placements()),
        threads_(std::max(1u, threads)), dtz_(dtz), longs_(longs) {
    // A bare king can never mate, not even after a conversion (captures only take the other side's
    // pieces, and it has no pawn to promote): its opponent cannot lose.
    for (int i = 0; i < m.n; ++i)
      if (m.type[i] != kTbKing) canLose_[m.color[i] ^ 1] = true;
    for (int i = 0; i < m.n - 1; ++i) movers_[m.color[i]] = true;
    for (int c = 0; c < 2; ++c) {
      makeSets(legal_[c]);
      makeSets(won_[c]);
      if (m.pawns) makeSets(lost_[c]);
      makeSets(undecided_[c]);
      makeSets(fresh_[c]);
      makeSets(esc_[c]);
      makeSets(check_[c]);
      next_[c].assign(P_, 255);
      if (dtz) makeSets(freshPrev_[c]);
    }
    if (!dtz && fused()) makeSets(freshPrev_[1]);  // the second buffer of black's losses
    if (N <= 4)  // a slider's targets do not change from ply to ply (kept when P_ is small)
      for (int i = 1; i < N - 1; ++i)
        if (isSlider(m.type[i])) makeSets(moves_[i]), movesOf_[i] = moves_[i].data();
    for (int sq = 0; sq < 64; ++sq) {
      kingSymmetry_[sq] = static_cast<std::uint8_t>(tbSymmetryOf(m.pawns, sq));
      kingRegion_[sq] = static_cast<std::uint8_t>(tbRegionIndex(m.pawns, mapSquare(kingSymmetry_[sq], sq)));
    }
    for (int mover = 0; mover < m.n; ++mover)
      for (int captured = -1; captured < m.n; ++captured)
        for (int promo = -1; promo <= kTbQueen; ++promo)
          if (captured != mover && (captured < 0 || m.color[captured] != m.color[mover]) &&
              (promo < 0 || m.type[mover] == kTbPawn))
            conversionShape(mover, captured, promo, shapes_[mover][captured + 1][promo + 1]);
  }

  TbStatus run(TbProgressFn progress, void* context, const std::atomic<bool>* cancel) {
    if (dtz_) return runDtz(progress, context, cancel);
    const auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    parallel([&](std::size_t p) { return setup(p); });
    if (cancelled()) return TbStatus::cancelled;
    parallel([&](std::size_t p) { return seeds<false>(p); });
    if (status_.load() != 0) return static_cast<TbStatus>(status_.load());
    std::size_t previous = 1;
    for (int n = 0;; ++n) {
      if (cancelled()) return TbStatus::cancelled;
      if (n > kTbMaxPlies) return TbStatus::tooLong;
      if (fused() && (n & 1) && n < kTbMaxPlies) {
        // Plies n (wins) and n + 1 (losses) in one pass (fusedPair).
        const std::size_t both = parallel([&](std::size_t p) { return fusedPair(p, n); });
        fresh_[1].swap(freshPrev_[1]);
        if (status_.load() != 0) return static_cast<TbStatus>(status_.load());
        const std::size_t wins = both & 0xffffffffu, losses = both >> 32;
        if (progress) progress(context, static_cast<unsigned>(n + 4), static_cast<unsigned>(std::max(n + 5, maxConv_.load() + 4)));
        if (wins == 0 && previous == 0 && n > maxConv_.load()) break;  // as the unfused loop would after ply n
        plies_ = n;
        ++n;
        if (losses == 0 && wins == 0 && n > maxConv_.load()) break;
        previous = losses;
        plies_ = n;
        continue;
      }
      const std::size_t decided = n & 1 ? parallel([&](std::size_t p) { return winPass<false>(p, n, fresh_); })
                                        : parallel([&](std::size_t p) { return lossPass<false>(p, n, fresh_); });
      if (status_.load() != 0) return static_cast<TbStatus>(status_.load());
      if (n == 0)
        for (int c = 0; c < 2; ++c) TbSets().swap(check_[c]);
      if (progress) progress(context, static_cast<unsigned>(n + 3), static_cast<unsigned>(std::max(n + 4, maxConv_.load() + 4)));
      if (n >= 1 && decided == 0 && previous == 0 && n > maxConv_.load()) break;
      previous = decided;
      plies_ = n;
    }
    parallel([&](std::size_t p) { return finish(p); });
    if (progress) progress(context, static_cast<unsigned>(plies_ + 5), static_cast<unsigned>(plies_ + 5));
    return TbStatus::ok;
  }

 private:
  static constexpr std::size_t kBlock = 64;

  // A zeroed array of P_ sets with the next skew (TbSkewedAllocator): 9 lines further each time.
  void makeSets(TbSets& v) {
    v = TbSets(P_, 0, TbSkewedAllocator<U64>(nextSkew_));
    nextSkew_ = (nextSkew_ + 9 * 64) % 4096;
  }

  // f(i) for every i < count on the worker threads, blocks of kBlock handed out in turn; the sum.
  template <typename F>
  std::size_t parallelFor(std::size_t count, F f) {
    std::atomic<std::size_t> nextBlock{0}, sum{0};
    const std::size_t blocks = (count + kBlock - 1) / kBlock;
    const auto worker = [&] {
      std::size_t mine = 0;
      for (;;) {
        const std::size_t block = nextBlock.fetch_add(1, std::memory_order_relaxed);
        if (block >= blocks) break;
        const std::size_t end = std::min(count, (block + 1) * kBlock);
        for (std::size_t i = block * kBlock; i < end; ++i) mine += f(i);
      }
      sum.fetch_add(mine, std::memory_order_relaxed);
    };
    const unsigned n = static_cast<unsigned>(std::min<std::size_t>(threads_, blocks));
    std::vector<std::thread> helpers;
    for (unsigned i = 1; i < n; ++i) helpers.emplace_back(worker);
    worker();
    for (std::thread& t : helpers) t.join();
    return sum.load();
  }

  // f(p) for every placement.
  template <typename F>
  std::size_t parallel(F f) {
    return parallelFor(P_, f);
  }

  // f(p) for the placements list[0..count).
  template <typename F>
  std::size_t parallelList(const std::uint32_t* list, std::size_t count, F f) {
    return parallelFor(count, [&](std::size_t i) { return f(static_cast<std::size_t>(list[i])); });
  }

  static bool isSlider(int type) { return type == kTbBishop || type == kTbRook || type == kTbQueen; }

  U64 attacks(int type, int color, int sq, U64 occ) const {
    switch (type) {
      case kTbPawn: return pawnAttacks(color, sq);
      case kTbKnight: return knightAttacks(sq);
      case kTbBishop: return sl_.bishop(sq, occ);
      case kTbRook: return sl_.rook(sq, occ);
      case kTbQueen: return sl_.queen(sq, occ);
      default: return kingAttacks(sq);
    }
  }

  // The passes' per-placement steps (decode, moveUnion, winSide, lossSide) are always inlined: one
  // loop body per pass, no calls per placement.
  // The squares and occupancy of placement p; with Check, also the occupancy per colour and whether
  // it is a placement at all (no two pieces on a square, no pawn on the first or last rank). The
  // passes decode only placements with legal positions, which are.
  template <bool Check = false>
  BBP_ALWAYS_INLINE void decode(std::size_t p, TbPlaced& pl) const {
    pl.p = p;
    pl.sq[0] = tbRegionSquare(m_.pawns, static_cast<int>(p >> (6 * kOthers)));
    for (int i = 1; i <= kOthers; ++i) pl.sq[i] = static_cast<int>((p >> (6 * (kOthers - i))) & 63);
    pl.occ = pl.own[0] = pl.own[1] = 0;
    pl.valid = true;
    for (int i = 0; i < N - 1; ++i) {
      const U64 b = squareBB(pl.sq[i]);
      if (Check && (pl.occ & b)) pl.valid = false;
      if (Check && m_.type[i] == kTbPawn && (rankOf(pl.sq[i]) == 0 || rankOf(pl.sq[i]) == 7)) pl.valid = false;
      pl.occ |= b;
      if (Check) pl.own[m_.color[i]] |= b;
    }
  }

  std::uint8_t* row(int stm, std::size_t p) const { return table_ + ((stm * P_ + p) << 6); }

  void write(int stm, std::size_t p, U64 squares, int value) {
    std::uint8_t* r = row(stm, p);
    for (; squares; squares &= squares - 1) r[lsb(squares)] = static_cast<std::uint8_t>(value);
  }

  // Legality, checks, and the table rows: legal positions kTbDraw (until decided), others kTbIllegal.
  std::size_t setup(std::size_t p) {
    TbPlaced pl;
    decode<true>(p, pl);
    if (pl.valid) {
      const int wk = pl.sq[0];
      U64 attW = 0, checkW = 0;  // squares white attacks; black-king squares with the white king in check
      for (int i = 0; i < N - 1; ++i) {
        const U64 a = attacks(m_.type[i], m_.color[i], pl.sq[i], pl.occ);
        if (!moves_[i].empty()) moves_[i][p] = a & ~pl.occ;
        if (m_.color[i] == 0) attW |= a;
        else if (a & squareBB(wk)) checkW |= isSlider(m_.type[i]) ? ~between(pl.sq[i], wk) : ~U64{0};
      }
      legal_[0][p] = ~pl.occ & ~attW;  // black not in check (attW holds the white king's squares)
      legal_[1][p] = ~pl.occ & ~kingAttacks(wk) & ~checkW;
      check_[0][p] = legal_[0][p] & checkW;
      check_[1][p] = legal_[1][p] & attW;
      undecided_[0][p] = legal_[0][p];
      undecided_[1][p] = legal_[1][p];
    }
    for (int stm = 0; stm < 2; ++stm) {
      std::uint8_t* r = row(stm, p);
      for (int j = 0; j < 8; ++j) std::memcpy(r + 8 * j, kTbRowBytes.bytes[(legal_[stm][p] >> (8 * j)) & 255], 8);
    }
    return 0;
  }

  // The union over the non-converting moves of the side to move's pieces (other than the black king)
  // of get(q), q the placement the move leads to, as black-king squares of this placement, added to
  // `acc`; a black-king square that blocks the move does not count for it. The walk stops once `acc`
  // covers `need`: the callers only use the union inside it. With white to move, a black king between
  // a white slider and its target stands in check, so that position is illegal and outside `need`:
  // only black sliders' moves are masked.
  template <typename G>
  BBP_ALWAYS_INLINE U64 moveUnion(const TbPlaced& pl, int stm, U64 need, U64 acc, G get) const {
    // The other pieces first and the white king last (its moves may need a symmetry): the walk
    // often stops before it. Unrolled: each slot's branches get their own history.
#if defined(__GNUC__)
#pragma GCC unroll 4
#endif
    for (int i = 1; i < N - 1; ++i) {
      if (m_.color[i] != stm) continue;
      if (!(need & ~acc)) return acc;
      const int from = pl.sq[i], type = m_.type[i];
      const int shift = 6 * (kOthers - i);
      const std::size_t base = pl.p & ~(std::size_t{63} << shift);
      const auto at = [&](int to) { return get(base | (static_cast<std::size_t>(to) << shift)); };
      if (type == kTbPawn) {
        if (dtz_) continue;  // a pawn move zeroes: a seed of the distance to zeroing (seeds)
        const int dir = stm == 0 ? 8 : -8, to = from + dir;
        if ((pl.occ & squareBB(to)) || rankOf(to) == (stm == 0 ? 7 : 0)) continue;
        acc |= at(to);
        const int to2 = to + dir;
        if (rankOf(from) == (stm == 0 ? 1 : 6) && !(pl.occ & squareBB(to2)) && !epCapturers(pl, stm, to2))
          acc |= ~squareBB(to) & at(to2);
        continue;
      }
      const U64 targets = movesOf_[i] ? movesOf_[i][pl.p]
                          : type == kTbKnight ? knightAttacks(from) & ~pl.occ
                                              : attacks(type, stm, from, pl.occ) & ~pl.occ;
      if (stm == 1 && isSlider(type)) {
        for (U64 t = targets; t; t &= t - 1) {
          const int to = lsb(t);
          acc |= ~between(from, to) & at(to);
        }
      } else {
        for (U64 t = targets; t; t &= t - 1) acc |= at(lsb(t));
      }
    }
    if (stm != 0 || !(need & ~acc)) return acc;
    // The white king: a target outside its region takes the placement through a symmetry.
    const std::size_t others = pl.p & ((std::size_t{1} << (6 * kOthers)) - 1);
    for (U64 t = kingAttacks(pl.sq[0]) & ~pl.occ; t; t &= t - 1) {
      const int to = lsb(t), s = kingSymmetry_[to];
      const std::size_t region = static_cast<std::size_t>(kingRegion_[to]) << (6 * kOthers);
      if (s == 0) {  // the king stays in its region: the other squares keep their bits
        acc |= get(region | others);
        continue;
      }
      const auto& map = kbnkSymmetry.square[s];
      std::size_t q = 0;
      for (int i = 1; i <= kOthers; ++i) q = (q << 6) | map[pl.sq[i]];
      const U64 set = get(region | q);
      if (set) acc |= mapSet(kbnkSymmetry.inverse[s], set);
    }
    return acc;
  }

  // The enemy pawns beside square `to` (a double push there can be taken en passant).
  U64 epCapturers(const TbPlaced& pl, int stm, int to) const {
    U64 pawns = 0;
    for (int j = 1; j < N - 1; ++j)
      if (m_.color[j] != stm && m_.type[j] == kTbPawn) pawns |= squareBB(pl.sq[j]);
    const U64 t = squareBB(to);
    return (((t << 1) & ~0x0101010101010101ULL) | ((t >> 1) & ~0x8080808080808080ULL)) & pawns;
  }

  // Double pushes an enemy pawn can take en passant: f(slot, to, mid). The position after such a push
  // is worth, to the opponent, the better of the stored position (without en-passant rights) and
  // the en-passant captures (probed in the sub-ending's table).
  template <typename F>
  void epPushes(const TbPlaced& pl, int stm, F f) const {
    if (!m_.pawns) return;
    for (int i = 1; i < N - 1; ++i) {
      if (m_.color[i] != stm || m_.type[i] != kTbPawn || rankOf(pl.sq[i]) != (stm == 0 ? 1 : 6)) continue;
      const int dir = stm == 0 ? 8 : -8, mid = pl.sq[i] + dir, to = mid + dir;
      if ((pl.occ & (squareBB(mid) | squareBB(to))) || !epCapturers(pl, stm, to)) continue;
      f(i, to, mid);
    }
  }

  // The best en-passant capture after slot i's double push to `to` over `mid`, black king on b, as a
  // score from the capturing side's view (moveScore), or kNoCapture.
  static constexpr int kNoCapture = -100000;
  template <bool Dtz>
  int epScore(const TbPlaced& pl, int stm, int i, int to, int mid, int b) {
    int best = kNoCapture;
    const U64 caps = epCapturers(pl, stm, to);
    for (int j = 1; j < N - 1; ++j) {
      if (!((caps >> pl.sq[j]) & 1)) continue;
      Conversion cv;
      if (!makeConversion(j, mid, i, -1, ~U64{0}, cv)) return best;
      int sq[kTbMaxPieces];
      for (int k = 0; k < cv.sub->material.n; ++k) {
        const int s = cv.src[k];
        sq[k] = s == kTbMoved ? mid : s == N - 1 ? b : pl.sq[s];
      }
      const std::uint8_t v = cv.sub->data[tbIndex(cv.sub->material, stm, sq)];  // the pusher to move
      if (v != kTbIllegal) best = std::max(best, moveScore<Dtz>(v));
    }
    return best;
  }

  std::size_t successorIndex(const TbPlaced& pl, int slot, int to) const {
    const int shift = 6 * (kOthers - slot);
    return (pl.p & ~(std::size_t{63} << shift)) | (static_cast<std::size_t>(to) << shift);
  }

  const TbSubTable* findSub(const TbMaterial& m) const {
    for (int i = 0; i < subCount_; ++i)
      if (subs_[i].material == m) return &subs_[i];
    return nullptr;
  }

  // One conversion (capture or promotion): the sub-table and where each of its slots comes from.
  struct Conversion {
    const TbSubTable* sub;
    int src[kTbMaxPieces];  // parent slot, or kTbMoved
    int to;
    U64 mask;               // black-king squares that allow the move
  };

  // Builds a conversion: slot `mover` goes to `to` (becoming `promo` when >= 0), slot `captured`
  // (or -1) leaves the board.
  // The sub-table and slot sources depend only on (mover, captured, promo), not on the squares:
  // they are found once, when the generator is made (conversionShape).
  bool makeConversion(int mover, int to, int captured, int promo, U64 mask, Conversion& c) {
    const ConversionShape& shape = shapes_[mover][captured + 1][promo + 1];
    c.sub = shape.sub;
    if (!c.sub) {
      int zero = 0;
      status_.compare_exchange_strong(zero, static_cast<int>(TbStatus::missingSubTable));
      return false;
    }
    for (int j = 0; j < c.sub->material.n; ++j) c.src[j] = shape.src[j];
    c.to = to;
    c.mask = mask;
    return true;
  }

  struct ConversionShape {
    const TbSubTable* sub = nullptr;  // null: no such sub-table was given
    int src[kTbMaxPieces]{};
  };

  void conversionShape(int mover, int captured, int promo, ConversionShape& c) const {
    std::int8_t colors[kTbMaxPieces], types[kTbMaxPieces];
    int from[kTbMaxPieces], count = 0;
    for (int i = 0; i < N; ++i) {
      if (i == captured) continue;
      colors[count] = m_.color[i];
      types[count] = static_cast<std::int8_t>(i == mover && promo >= 0 ? promo : m_.type[i]);
      from[count++] = i == mover ? kTbMoved : i;
    }
    TbMaterial sub;
    if (!tbMaterialOf(count, colors, types, sub)) return;
    c.sub = findSub(sub);
    if (!c.sub) return;
    int perm[kTbMaxPieces];
    tbSlotOrder(count, colors, types, perm);
    for (int j = 0; j < count; ++j) c.src[j] = from[perm[j]];
  }

  // Every conversion of the side to move at placement pl (black-king captures included).
  int conversionList(const TbPlaced& pl, int stm, Conversion* out) {
    int count = 0;
    const int last = stm == 0 ? 7 : 0;
    const U64 targets = pl.own[stm ^ 1] & ~squareBB(pl.sq[0]);  // the white king is never capturable
    const auto slotAt = [&](int sq) {
      for (int j = 0; j < N - 1; ++j)
        if (pl.sq[j] == sq) return j;
      return -1;
    };
    for (int i = 0; i < N - 1; ++i) {
      if (m_.color[i] != stm) continue;
      const int from = pl.sq[i], type = m_.type[i];
      if (type == kTbPawn) {
        for (U64 t = pawnAttacks(stm, from) & targets; t; t &= t - 1) {
          const int to = lsb(t);
          if (rankOf(to) == last) {
            for (int promo = kTbQueen; promo >= kTbKnight; --promo)
              if (makeConversion(i, to, slotAt(to), promo, ~U64{0}, out[count])) ++count;
          } else if (makeConversion(i, to, slotAt(to), -1, ~U64{0}, out[count])) {
            ++count;
          }
        }
        const int to = from + (stm == 0 ? 8 : -8);
        if (rankOf(to) == last && !(pl.occ & squareBB(to)))
          for (int promo = kTbQueen; promo >= kTbKnight; --promo)
            if (makeConversion(i, to, -1, promo, ~squareBB(to), out[count])) ++count;
        continue;
      }
      for (U64 t = attacks(type, stm, from, pl.occ) & targets; t; t &= t - 1) {
        const int to = lsb(t);
        if (makeConversion(i, to, slotAt(to), -1, isSlider(type) ? ~between(from, to) : ~U64{0}, out[count])) ++count;
      }
    }
    if (stm == 1) {  // the black king takes a white piece next to it
      for (int j = 1; j < N - 1; ++j) {
        if (m_.color[j] != 0) continue;
        if (makeConversion(N - 1, pl.sq[j], j, -1, kingAttacks(pl.sq[j]), out[count])) ++count;
      }
    }
    return count;
  }

  // Score, for the side that moves, of a capture, promotion or (DTZ) pawn move into a position of
  // table code v (the other side to move; not kTbIllegal): a win sooner higher, a draw 0, a loss
  // later higher. DTM: one ply more than v; DTZ: the count starts afresh (seedScore).
  template <bool Dtz>
  static int moveScore(std::uint8_t v) {
    if (Dtz) return seedScore(dtzClass(v));
    return v == kTbDraw ? 0 : (v & 1) ? -1000 + (v + 1) : 1000 - (v + 1);
  }

  // The score (moveScore) of conversion cv with the black king on b, or kNoCapture when it leaves the
  // mover's king in check (the sub-table's position is illegal).
  static constexpr int kVaries = kNoCapture - 1;
  template <bool Dtz>
  int conversionScore(const TbPlaced& pl, int stm, const Conversion& cv, int b) const {
    int sq[kTbMaxPieces];
    for (int j = 0; j < cv.sub->material.n; ++j) {
      const int s = cv.src[j];
      sq[j] = s == kTbMoved ? cv.to : s == N - 1 ? b : pl.sq[s];
    }
    const std::uint8_t v = cv.sub->data[tbIndex(cv.sub->material, stm ^ 1, sq)];
    return v == kTbIllegal ? kNoCapture : moveScore<Dtz>(v);
  }

  // Probes the conversions (captures, promotions; DTZ: every zeroing move, pawn pushes included) of
  // every legal position of placement p once: the row byte of a position holds its best one's code
  // for the side to move (kTbDraw when it draws), esc_ marks the positions such a move keeps from
  // losing (draws, and losses until their ply), next_ the first ply with a pending one.
  template <bool Dtz>
  std::size_t seeds(std::size_t p) {
    TbPlaced pl;
    decode<true>(p, pl);
    if (!pl.valid) return 0;
    Conversion list[64];
    for (int stm = 0; stm < 2; ++stm) {
      const U64 legal = legal_[stm][p];
      if (!legal) continue;
      const int count = conversionList(pl, stm, list);
      // DTZ: pawn pushes that stay in this material (the successor's level is done).
      int pushSlot[16], pushTo[16], pushMid[16], pushes = 0;
      for (int i = 1; Dtz && i < N - 1; ++i) {
        if (m_.color[i] != stm || m_.type[i] != kTbPawn) continue;
        const int dir = stm == 0 ? 8 : -8, to = pl.sq[i] + dir;
        if ((pl.occ & squareBB(to)) || rankOf(to) == (stm == 0 ? 7 : 0)) continue;
        pushSlot[pushes] = i, pushTo[pushes] = to, pushMid[pushes++] = -1;
        const int to2 = to + dir;
        if (rankOf(pl.sq[i]) == (stm == 0 ? 1 : 6) && !(pl.occ & squareBB(to2)))
          pushSlot[pushes] = i, pushTo[pushes] = to2, pushMid[pushes++] = to;
      }
      if (!count && !pushes) continue;
      U64 escape = 0;
      int next = 255, highest = 0;
      // A conversion whose position after it does not hold the black king's square (the black king
      // moved) has one score for every black-king square: probed once (kVaries for the others).
      int fixedScore[64];
      bool allFixed = pushes == 0;
      for (int c = 0; c < count; ++c) {
        const Conversion& cv = list[c];
        fixedScore[c] = kVaries;
        bool fixed = true;
        for (int j = 0; j < cv.sub->material.n; ++j) fixed = fixed && cv.src[j] != N - 1;
        if (fixed) fixedScore[c] = conversionScore<Dtz>(pl, stm, cv, -1);
        allFixed = allFixed && fixed;
      }
      // The score of the best conversion for the positions in `squares`: their row bytes, escape,
      // next and highest.
      const auto settle = [&](U64 squares, int best) {
        if (!squares || best == kNoCapture) return;
        escape |= squares;  // a losing one stops escaping at its ply (lossPass)
        if (best == 0) return;
        const int plies = best > 0 ? 1000 - best : best + 1000;
        if (plies > kTbMaxPlies) {
          int zero = 0;
          status_.compare_exchange_strong(zero, static_cast<int>(TbStatus::tooLong));
          return;
        }
        write(stm, p, squares, Dtz && best > 0 ? kTbDtzWinBase + plies : plies);
        next = std::min(next, plies);
        highest = std::max(highest, plies);
      };
      if (allFixed) {  // set-wise: each square takes the best conversion it allows
        U64 left = legal;
        for (;;) {
          int pick = -1;
          for (int c = 0; c < count; ++c)
            if (fixedScore[c] != kNoCapture && (left & list[c].mask) && (pick < 0 || fixedScore[c] > fixedScore[pick])) pick = c;
          if (pick < 0) break;
          const U64 squares = left & list[pick].mask;
          left &= ~squares;
          settle(squares, fixedScore[pick]);
        }
        esc_[stm][p] = escape;
        next_[stm][p] = static_cast<std::uint8_t>(next);
        for (int seen = maxConv_.load(); highest > seen && !maxConv_.compare_exchange_weak(seen, highest);) {
        }
        continue;
      }
      for (U64 bs = legal; bs; bs &= bs - 1) {
        const int b = lsb(bs);
        int best = kNoCapture;
        for (int c = 0; c < count; ++c) {
          const Conversion& cv = list[c];
          if (!((cv.mask >> b) & 1)) continue;
          best = std::max(best, fixedScore[c] != kVaries ? fixedScore[c] : conversionScore<Dtz>(pl, stm, cv, b));
        }
        for (int k = 0; k < pushes; ++k) {
          if (b == pushMid[k]) continue;  // the black king blocks the double push
          const std::size_t q = successorIndex(pl, pushSlot[k], pushTo[k]);
          const std::uint8_t v = row(stm ^ 1, q)[b];
          if (v == kTbIllegal) continue;
          int score = moveScore<Dtz>(v);
          if (pushMid[k] >= 0 && epCapturers(pl, stm, pushTo[k])) {  // the opponent may take en passant instead
            const int e = epScore<Dtz>(pl, stm, pushSlot[k], pushTo[k], pushMid[k], b);
            if (e != kNoCapture) score = std::min(score, -e);
          }
          best = std::max(best, score);
        }
        settle(squareBB(b), best);
      }
      esc_[stm][p] = escape;
      next_[stm][p] = static_cast<std::uint8_t>(next);
      for (int seen = maxConv_.load(); highest > seen && !maxConv_.compare_exchange_weak(seen, highest);) {
      }
    }
    return 0;
  }

  // Ply n, losses: an undecided position whose every move reaches a position won within n - 1 plies
  // and whose conversions lose within n plies is lost in n plies (n = 0: mated, or stalemate).
  // The losses of this ply go into fresh[stm] (fresh_ unless the pass is fused with a win pass);
  // a side that cannot lose keeps its fresh sets at 0.
  template <bool Dtz>
  std::size_t lossPass(std::size_t p, int n, TbSets* fresh) {
    std::size_t decided = 0;
    TbPlaced pl;  // decoded on first need (set here for the compiler, which cannot see that)
    pl.p = p, pl.occ = 0;
    for (int i = 0; i < N - 1; ++i) pl.sq[i] = 0;
    bool decodedYet = false;
    for (int stm = 0; stm < 2; ++stm) decided += lossSide<Dtz>(p, stm, n, fresh[stm], pl, decodedYet);
    return decided;
  }

  // lossPass for one side to move; pl is decoded on first need (decodedYet).
  template <bool Dtz>
  BBP_ALWAYS_INLINE std::size_t lossSide(std::size_t p, int stm, int n, TbSets& fresh, TbPlaced& pl, bool& decodedYet) {
    if (!canLose_[stm]) return 0;  // (a stalemate of a side that cannot lose stays a draw)
    fresh[p] = 0;
    const U64 undecided = undecided_[stm][p];
    if (!undecided) return 0;
    if (!decodedYet && (movers_[stm] || m_.pawns)) decode(p, pl), decodedYet = true;
    const int opp = stm ^ 1;
    if (next_[stm][p] == n) {  // conversions that lose in n plies stop escaping
      const std::uint8_t* r = row(stm, p);
      int next = 255;
      for (U64 bs = undecided; bs; bs &= bs - 1) {
        const int b = lsb(bs);
        const int code = r[b];
        if (code == n) esc_[stm][p] &= ~squareBB(b);
        else if (!Dtz && code > n && code < kTbDraw) next = std::min(next, code);
      }
      if (!Dtz) next_[stm][p] = static_cast<std::uint8_t>(next);  // DTZ: the win pass of this ply rescans
    }
    U64 escape = esc_[stm][p];
    const TbSets& legal = legal_[opp];
    const TbSets& won = won_[opp];
    if (movers_[stm]) {
      const U64 *legalSets = legal.data(), *wonSets = won.data();
      escape = moveUnion(pl, stm, undecided, escape, [legalSets, wonSets](std::size_t q) { return legalSets[q] & ~wonSets[q]; });
    }
    if (stm == 1) escape |= kingAttacksSet(legal_[0][p] & ~won_[0][p]);
    if (!Dtz) {  // DTZ: pawn moves are conversions
      epPushes(pl, stm, [&](int slot, int to, int mid) {
        const std::size_t q = successorIndex(pl, slot, to);
        for (U64 bs = undecided & ~escape & legal[q] & ~won[q] & ~squareBB(mid); bs; bs &= bs - 1) {
          const int b = lsb(bs);
          const int e = epScore<Dtz>(pl, stm, slot, to, mid, b);
          if (!(e > 0 && 1000 - e <= n - 1)) escape |= squareBB(b);  // no capture wins for the opponent yet
        }
      });
    }
    U64 lost = undecided & ~escape;
    if (n == 0) {
      undecided_[stm][p] &= ~(lost & ~check_[stm][p]);  // stalemate: a draw
      lost &= check_[stm][p];
    }
    if (lost) {
      if (!Dtz && m_.pawns) lost_[stm][p] |= lost;
      fresh[p] = lost;
      undecided_[stm][p] &= ~lost;
      if (Dtz && n >= kTbDtzLongLoss) writeLong(stm, p, lost, kTbDtzLongLoss, n, kTbDtzLongLoss);
      else write(stm, p, lost, n);
      return static_cast<std::size_t>(popcount(lost));
    }
    return 0;
  }

  // Ply n >= 1, wins: an undecided position with a move to a position lost in n - 1 plies
  // (lostLast[side]: the losses of the previous ply), or a conversion that wins in n plies, is won
  // in n plies.
  template <bool Dtz>
  std::size_t winPass(std::size_t p, int n, const TbSets* lostLast) {
    std::size_t decided = 0;
    TbPlaced pl;  // decoded on first need (set here for the compiler, which cannot see that)
    pl.p = p, pl.occ = 0;
    for (int i = 0; i < N - 1; ++i) pl.sq[i] = 0;
    bool decodedYet = false;
    for (int stm = 0; stm < 2; ++stm)
      decided += static_cast<std::size_t>(popcount(winSide<Dtz>(p, stm, n, lostLast, pl, decodedYet)));
    return decided;
  }

  // winPass for one side to move: the positions won at ply n.
  template <bool Dtz>
  BBP_ALWAYS_INLINE U64 winSide(std::size_t p, int stm, int n, const TbSets* lostLast, TbPlaced& pl, bool& decodedYet) {
    const int winCode = Dtz ? kTbDtzWinBase + n : n;
    const U64 undecided = undecided_[stm][p];
    if (!undecided || !canLose_[stm ^ 1]) return 0;
    if (!decodedYet && (movers_[stm] || m_.pawns)) decode(p, pl), decodedYet = true;
    const int opp = stm ^ 1;
    U64 reach = 0;
    if (next_[stm][p] == n) {  // conversions that win in n plies
      const std::uint8_t* r = row(stm, p);
      int next = 255;
      for (U64 bs = undecided; bs; bs &= bs - 1) {
        const int b = lsb(bs);
        const int code = r[b];
        if (code == winCode) {
          reach |= squareBB(b);
        } else if (code < kTbDraw) {
          const int d = Dtz && code > kTbDtzWinBase ? code - kTbDtzWinBase : code;
          if (d > n) next = std::min(next, d);
        }
      }
      next_[stm][p] = static_cast<std::uint8_t>(next);
    }
    const TbSets& lost = lostLast[opp];
    if (movers_[stm]) {
      const U64* lostSets = lost.data();
      reach = moveUnion(pl, stm, undecided, reach, [lostSets](std::size_t q) { return lostSets[q]; });
    }
    if (stm == 1) reach |= kingAttacksSet(lostLast[0][p]);
    if (!Dtz) {
      epPushes(pl, stm, [&](int slot, int to, int mid) {
        const std::size_t q = successorIndex(pl, slot, to);
        for (U64 bs = undecided & ~reach & lost_[opp][q] & ~squareBB(mid); bs; bs &= bs - 1) {
          const int b = lsb(bs);
          const int d = row(opp, q)[b];  // a loss: written at an even ply, stable now
          const int e = epScore<Dtz>(pl, stm, slot, to, mid, b);
          if (e == kNoCapture ? d == n - 1 : e < 0 && std::max(d, e + 1000) == n - 1) reach |= squareBB(b);
        }
      });
    }
    const U64 w = reach & undecided;
    if (w) {
      won_[stm][p] |= w;
      undecided_[stm][p] &= ~w;
      if (Dtz && winCode >= kTbDtzLongWin) writeLong(stm, p, w, kTbDtzLongWin, n, kTbDtzLongWin - kTbDtzWinBase);
      else write(stm, p, w, winCode);
    }
    return w;
  }

  // The fused DTM pass (fused()) at placement p: white's wins at ply n (odd) from black's losses of
  // ply n - 1 in fresh_, then black's losses at ply n + 1 into freshPrev_. Black's losses change only
  // when white's wins at p do or one of black's conversions loses at ply n + 1; otherwise the set
  // of ply n + 1 is empty. The counts come back packed: wins in the low 32 bits, losses above.
  std::size_t fusedPair(std::size_t p, int n) {
    TbPlaced pl;  // decoded on first need (set here for the compiler, which cannot see that)
    pl.p = p, pl.occ = 0;
    for (int i = 0; i < N - 1; ++i) pl.sq[i] = 0;
    bool decodedYet = false;
    const U64 w = winSide<false>(p, 0, n, fresh_, pl, decodedYet);
    if (!w && next_[1][p] != n + 1) {
      freshPrev_[1][p] = 0;
      return 0;
    }
    return static_cast<std::size_t>(popcount(w)) |
           (lossSide<false>(p, 1, n + 1, freshPrev_[1], pl, decodedYet) << 32);
  }

  // A DTZ distance the byte does not hold: the positions get `code`, and those farther than `held`
  // plies go into the list of long values too.
  void writeLong(int stm, std::size_t p, U64 squares, int code, int plies, int held) {
    write(stm, p, squares, code);
    if (plies <= held) return;
    const std::lock_guard<std::mutex> lock(longMutex_);
    for (; squares; squares &= squares - 1)
      longs_.push_back({static_cast<std::uint32_t>(((stm * P_ + p) << 6) | lsb(squares)),
                        static_cast<std::uint32_t>(plies)});
  }


  // ---------------------------------------------------------------- distance to zeroing (DTZ50)
  //
  // Syzygy's DTZ metric (syzygy-tables.info/metrics): plies to the next zeroing move (capture, pawn
  // move) or mate, the winner shortest, the loser longest, with the 50-move rule: a zeroing move
  // into a position the opponent loses counts as a win in 1 ply, into one it loses only beyond the
  // rule (a blessed loss) as a win in 101 plies (a cursed win), and alike for losses; a win farther
  // than 100 plies is cursed. Zeroing moves are seeds with those values, read once per position from
  // the sub-endings (captures, promotions) or, for pawn pushes, from the pawn configurations further
  // advanced (pawns only move forward: the placements are done level by level, most advanced first).
  // Within a level every ply decides losses (all moves reach wins of earlier plies) and then wins
  // (a move reaches a loss of the previous ply); wins and losses at either parity.

  static int dtzClass(std::uint8_t v) {
    if (v == kTbDraw || v == kTbIllegal) return 0;
    if (v <= kTbDtzMaxLoss) return v <= 100 ? -2 : -1;
    return v - kTbDtzWinBase <= 100 ? 2 : 1;
  }
  // Score of a zeroing move for the mover from the class `oc` of the position after it (opponent
  // to move): win sooner higher, draw 0.
  static int seedScore(int oc) {
    switch (oc) {
      case -2: return 1000 - 1;
      case -1: return 1000 - 101;
      case 1: return -1000 + 101;
      case 2: return -1000 + 1;
      default: return 0;
    }
  }
  // Pawn advancement of a placement: white pawns count their rank, black pawns 7 - rank; every pawn
  // move raises it and no other move changes it (the left-right mirror keeps it).
  int level(const TbPlaced& pl) const {
    int l = 0;
    for (int i = 1; i < N - 1; ++i)
      if (m_.type[i] == kTbPawn) l += m_.color[i] == 0 ? rankOf(pl.sq[i]) : 7 - rankOf(pl.sq[i]);
    return l;
  }

  TbStatus runDtz(TbProgressFn progress, void* context, const std::atomic<bool>* cancel) {
    const auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    parallel([&](std::size_t p) { return setup(p); });
    if (cancelled()) return TbStatus::cancelled;
    // The valid placements grouped by level, most advanced first (a counting sort).
    constexpr int kLevels = 7 * kTbMaxPieces + 1;
    std::vector<std::uint8_t> levelOf(P_, 255);
    std::size_t counts[kLevels + 1] = {};
    for (std::size_t p = 0; p < P_; ++p) {
      TbPlaced pl;
      decode<true>(p, pl);
      if (!pl.valid) continue;
      levelOf[p] = static_cast<std::uint8_t>(kLevels - 1 - level(pl));
      ++counts[levelOf[p] + 1];
    }
    for (int l = 0; l < kLevels; ++l) counts[l + 1] += counts[l];
    std::vector<std::uint32_t> order(counts[kLevels]);
    {
      std::size_t at[kLevels];
      std::copy(counts, counts + kLevels, at);
      for (std::size_t p = 0; p < P_; ++p)
        if (levelOf[p] != 255) order[at[levelOf[p]]++] = static_cast<std::uint32_t>(p);
    }
    std::vector<std::uint8_t>().swap(levelOf);
    int levelsUsed = 0;
    for (int l = 0; l < kLevels; ++l) levelsUsed += counts[l + 1] > counts[l];
    int levelIndex = 0;
    for (int l = 0; l < kLevels; ++l) {
      const std::uint32_t* list = order.data() + counts[l];
      const std::size_t count = counts[l + 1] - counts[l];
      if (!count) continue;
      maxConv_.store(0);
      parallelList(list, count, [&](std::size_t p) { return seeds<true>(p); });
      if (status_.load() != 0) return static_cast<TbStatus>(status_.load());
      for (int n = 0;; ++n) {
        if (cancelled()) return TbStatus::cancelled;
        if (n > kTbDtzMaxPlies) return TbStatus::tooLong;
        // The loss pass of ply n reads only wins of earlier plies, the win pass only the losses of
        // ply n - 1 (freshPrev_): fused, each placement does its losses before its wins.
        std::size_t decided =
            fused() ? parallelList(list, count, [&](std::size_t p) {
                        const std::size_t losses = lossPass<true>(p, n, fresh_);  // first: before this ply's wins
                        return losses + (n ? winPass<true>(p, n, freshPrev_) : 0);
                      })
                    : parallelList(list, count, [&](std::size_t p) { return lossPass<true>(p, n, fresh_); });
        if (n && !fused()) decided += parallelList(list, count, [&](std::size_t p) { return winPass<true>(p, n, freshPrev_); });
        if (status_.load() != 0) return static_cast<TbStatus>(status_.load());
        for (int c = 0; c < 2; ++c) fresh_[c].swap(freshPrev_[c]);
        if (progress)
          progress(context, static_cast<unsigned>(levelIndex * 256 + std::min(n + 1, 255)), static_cast<unsigned>(levelsUsed * 256 + 1));
        if (n >= 1 && decided == 0 && n > maxConv_.load()) break;
      }
      parallelList(list, count, [&](std::size_t p) { return finish(p); });
      ++levelIndex;
    }
    if (progress) progress(context, static_cast<unsigned>(levelsUsed * 256 + 1), static_cast<unsigned>(levelsUsed * 256 + 1));
    return TbStatus::ok;
  }

  // Black has only its king: white cannot lose and black cannot win, and black's losses at a
  // placement depend only on white's wins at that same placement (black's moves are king steps in
  // the set), so a loss ply and a win ply can share one pass over the placements.
  bool fused() const { return !canLose_[0]; }

  std::size_t finish(std::size_t p) {
    for (int stm = 0; stm < 2; ++stm) write(stm, p, undecided_[stm][p], kTbDraw);
    return 0;
  }

  const Sliders& sl_;
  const TbMaterial& m_;
  std::uint8_t* table_;
  const TbSubTable* subs_;
  int subCount_;
  std::size_t P_;
  unsigned threads_;
  TbSets legal_[2], won_[2], lost_[2], undecided_[2], fresh_[2], esc_[2], check_[2];
  std::vector<std::uint8_t> next_[2];
  TbSets moves_[kTbMaxPieces];  // per slider slot (up to 4 pieces): its targets per placement
  const U64* movesOf_[kTbMaxPieces] = {};  // moves_[i].data(), or null
  std::size_t nextSkew_ = 0;
  std::uint8_t kingSymmetry_[64];  // per white-king square: tbSymmetryOf
  std::uint8_t kingRegion_[64];    // per white-king square: the region index after that symmetry
  ConversionShape shapes_[kTbMaxPieces][kTbMaxPieces + 1][kTbQueen + 2];  // [mover][captured + 1][promo + 1]
  std::atomic<int> status_{0};
  std::atomic<int> maxConv_{0};
  int plies_ = 0;
  bool dtz_;
  bool canLose_[2] = {false, false};  // per side to move: whether the opponent has more than its king
  bool movers_[2] = {false, false};   // per side: a piece in the placement (a slot before the black king's set)
  TbSets freshPrev_[2];  // DTZ: the losses of the previous ply (fresh_ holds this ply's)
  std::vector<TbLongValue>& longs_;
  std::mutex longMutex_;
};

}  // namespace detail

// Fills `table` (m.tableSize() bytes, layout 1 above) with the distance to mate (or, with
// TbMetric::dtz, the distance to zeroing: kTbDtzWinBase above) of every position of material m,
// on `threads` threads; the sub-tables are of the same metric. `subs` holds the tables of every material a capture or a
// promotion leads to (TbStatus::missingSubTable otherwise). `progress` and `cancel` may be null. `longs`
// receives the DTZ distances the bytes do not hold, sorted by index (without it they are TbStatus::tooLong).
template <class Sliders>
TbStatus tbGenerate(const Sliders& sliders, const TbMaterial& m, std::uint8_t* table, const TbSubTable* subs,
                    int subCount, unsigned threads, TbProgressFn progress = nullptr, void* context = nullptr,
                    const std::atomic<bool>* cancel = nullptr, TbMetric metric = TbMetric::dtm,
                    std::vector<TbLongValue>* longs = nullptr) {
  std::vector<TbLongValue> none;
  std::vector<TbLongValue>& out = longs ? *longs : none;
  out.clear();
  const auto generate = [&](auto pieces) {
    detail::TbGenerator<Sliders, decltype(pieces)::value> generator(sliders, m, table, subs, subCount, threads,
                                                                    metric == TbMetric::dtz, out);
    return generator.run(progress, context, cancel);
  };
  const TbStatus status = m.n == 2   ? generate(std::integral_constant<int, 2>{})
                          : m.n == 3 ? generate(std::integral_constant<int, 3>{})
                          : m.n == 4 ? generate(std::integral_constant<int, 4>{})
                                     : generate(std::integral_constant<int, 5>{});
  std::sort(out.begin(), out.end(), [](const TbLongValue& a, const TbLongValue& b) { return a.index < b.index; });
  return status == TbStatus::ok && !none.empty() ? TbStatus::tooLong : status;  // long values with nowhere to go
}

}  // namespace BBP_ISA
}  // namespace bbp
