// Sliding pieces: magic-bitboard and PEXT-indexed rook/bishop attacks, Kogge-Stone occluded ray
// attacks in the eight directions (set-wise, DirGolem style), x-ray attacks, and the between/line
// tables. Header-only C++17, no Node headers.
//
// Table ownership: the magic and PEXT attack tables (about 840 KB each) are too big to be constexpr.
// They are plain data types declared outside the per-ISA namespace (one layout for every build) and
// built once per process into immutable static storage by `magicTables()` / `pextTables()`, which
// are defined in exactly one translation unit compiled for the baseline ISA (native/kernels/portable.cc).
// Construction is a C++11 function-local static (thread-safe, runs once, even when several worker
// threads load the addon at once); after construction nothing writes to them, so worker threads
// share them safely. The PEXT table is built only when something asks for it.
#pragma once

#include <array>
#include <cstddef>

#include "bitboard.h"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace bbp {

// ---- Table layouts (data only: no member functions, so nothing here is compiled per ISA) ----

constexpr std::size_t kRookTableSize = 102400;   // sum over squares of 2^(relevant occupancy bits)
constexpr std::size_t kBishopTableSize = 5248;

struct MagicEntry {
  std::uint64_t mask;   // relevant occupancy: the rays without their last square
  std::uint64_t magic;
  const std::uint64_t* attacks;
  unsigned shift;       // 64 - popcount(mask)
};

struct MagicTables {
  MagicEntry rook[64];
  MagicEntry bishop[64];
  std::uint64_t rookAttacks[kRookTableSize];
  std::uint64_t bishopAttacks[kBishopTableSize];
};

// The same attack sets, indexed by pext(occupied, mask): slot i holds the subset whose bits, packed
// down, read i. That is exactly the order the carry-rippler enumerates subsets in, so building this
// table needs no BMI2 instruction.
struct PextEntry {
  std::uint64_t mask;
  const std::uint64_t* attacks;
};

struct PextTables {
  PextEntry rook[64];
  PextEntry bishop[64];
  std::uint64_t rookAttacks[kRookTableSize];
  std::uint64_t bishopAttacks[kBishopTableSize];
};

// Built on first use, then immutable; defined in native/kernels/portable.cc.
const MagicTables& magicTables();
const PextTables& pextTables();

inline namespace BBP_ISA {

// ---- Directions and square-by-square rays (the reference the tables are built from) ----

// RAY_DIRECTIONS of lib/core/types.ts: 0 nort, 1 noEa, 2 east, 3 soEa, 4 sout, 5 soWe, 6 west, 7 noWe.
enum Direction : int { kNort, kNoEa, kEast, kSoEa, kSout, kSoWe, kWest, kNoWe };
constexpr int kRankStep[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kFileStep[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kShift[8] = {8, 9, 1, -7, -8, -9, -1, 7};
// Squares a one-step shift may land on without having wrapped around the board edge.
constexpr U64 kNoWrap[8] = {~U64{0}, notAFile, notAFile, notAFile, ~U64{0}, notHFile, notHFile, notHFile};

constexpr bool onBoard(int rank, int file) { return rank >= 0 && rank < 8 && file >= 0 && file < 8; }

// Walk from sq in one direction, stopping after the first occupied square.
constexpr U64 rayWalk(int sq, int dir, U64 occupied) {
  U64 ray = 0;
  int r = rankOf(sq) + kRankStep[dir], f = fileOf(sq) + kFileStep[dir];
  for (; onBoard(r, f); r += kRankStep[dir], f += kFileStep[dir]) {
    const U64 bit = squareBB(8 * r + f);
    ray |= bit;
    if (occupied & bit) break;
  }
  return ray;
}

constexpr U64 rookAttacksWalk(int sq, U64 occupied) {
  return rayWalk(sq, kNort, occupied) | rayWalk(sq, kEast, occupied) | rayWalk(sq, kSout, occupied) |
         rayWalk(sq, kWest, occupied);
}
constexpr U64 bishopAttacksWalk(int sq, U64 occupied) {
  return rayWalk(sq, kNoEa, occupied) | rayWalk(sq, kSoEa, occupied) | rayWalk(sq, kSoWe, occupied) |
         rayWalk(sq, kNoWe, occupied);
}

// ---- between / line (64x64 constexpr tables) ----

namespace detail {
using SquarePairTable = std::array<std::array<U64, 64>, 64>;

constexpr SquarePairTable makeBetween() {
  SquarePairTable table{};
  for (int a = 0; a < 64; ++a)
    for (int dir = 0; dir < 8; ++dir) {
      U64 passed = 0;
      int r = rankOf(a) + kRankStep[dir], f = fileOf(a) + kFileStep[dir];
      for (; onBoard(r, f); r += kRankStep[dir], f += kFileStep[dir]) {
        table[a][8 * r + f] = passed;
        passed |= squareBB(8 * r + f);
      }
    }
  return table;
}

constexpr SquarePairTable makeLine() {
  SquarePairTable table{};
  for (int a = 0; a < 64; ++a)
    for (int dir = 0; dir < 4; ++dir) {  // one direction per line; its opposite completes it
      const U64 whole = rayWalk(a, dir, 0) | rayWalk(a, dir + 4, 0) | squareBB(a);
      for (U64 rest = whole & ~squareBB(a); rest; rest &= rest - 1) table[a][lsb(rest)] = whole;
    }
  return table;
}
}  // namespace detail

inline constexpr detail::SquarePairTable arrBetween = detail::makeBetween();
inline constexpr detail::SquarePairTable arrLine = detail::makeLine();

constexpr U64 between(int a, int b) { return arrBetween[a][b]; }
constexpr U64 line(int a, int b) { return arrLine[a][b]; }

// ---- Kogge-Stone occluded fills (Chess Programming Wiki: DirGolem; set-wise, all sliders of a direction at once) ----

constexpr U64 shiftBy(U64 b, int s) { return s > 0 ? b << s : b >> -s; }

// Every square reachable from `gen` through `pro` (propagators = empty squares) in direction dir.
constexpr U64 occludedFill(int dir, U64 gen, U64 pro) {
  const int s = kShift[dir];
  pro &= kNoWrap[dir];
  gen |= pro & shiftBy(gen, s);
  pro &= shiftBy(pro, s);
  gen |= pro & shiftBy(gen, 2 * s);
  pro &= shiftBy(pro, 2 * s);
  gen |= pro & shiftBy(gen, 4 * s);
  return gen;
}

// The fill shifted one more step: the attacked squares, first blocker included.
constexpr U64 rayAttacks(int dir, U64 sliders, U64 empty) {
  return shiftBy(occludedFill(dir, sliders, empty), kShift[dir]) & kNoWrap[dir];
}

#if defined(__SSE4_1__)
// Two directions per 128-bit register. Each pair shares one shift count: the second direction is
// run as its vertical mirror (a byte swap of its lane turns south-going rays into north-going ones),
// except east/west, which shift the two lanes by opposite amounts and blend.
// Pair p: 0 = {nort, sout}, 1 = {noEa, soEa}, 2 = {noWe, soWe}, 3 = {east, west}.
constexpr int kPairDirections[4][2] = {{kNort, kSout}, {kNoEa, kSoEa}, {kNoWe, kSoWe}, {kEast, kWest}};

namespace detail {
inline __m128i flipHighLane(__m128i x) {
  return _mm_shuffle_epi8(x, _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 7, 6, 5, 4, 3, 2, 1, 0));
}
inline __m128i both(U64 a, U64 b) {
  return _mm_set_epi64x(static_cast<long long>(b), static_cast<long long>(a));
}

// Shift both lanes M steps of S (S == 1: lane 0 east, lane 1 west).
template <int S, int M>
inline __m128i shiftPair(__m128i x) {
  if constexpr (S == 1) return _mm_blend_epi16(_mm_slli_epi64(x, M), _mm_srli_epi64(x, M), 0xf0);
  else return _mm_slli_epi64(x, S * M);
}

// S: the common left shift (8, 9, 7), or 1 for the east/west pair.
template <int S>
inline __m128i rayAttacksPairFlipped(__m128i gen, __m128i pro, __m128i noWrap) {
  pro = _mm_and_si128(pro, noWrap);
  gen = _mm_or_si128(gen, _mm_and_si128(pro, shiftPair<S, 1>(gen)));
  pro = _mm_and_si128(pro, shiftPair<S, 1>(pro));
  gen = _mm_or_si128(gen, _mm_and_si128(pro, shiftPair<S, 2>(gen)));
  pro = _mm_and_si128(pro, shiftPair<S, 2>(pro));
  gen = _mm_or_si128(gen, _mm_and_si128(pro, shiftPair<S, 4>(gen)));
  return _mm_and_si128(shiftPair<S, 1>(gen), noWrap);
}
}  // namespace detail

// Ray attacks of pair p: lane 0 = sliders0 in kPairDirections[p][0], lane 1 = sliders1 in [p][1].
template <int P>
inline __m128i rayAttacksPair(U64 sliders0, U64 sliders1, U64 empty) {
  using namespace detail;
  if constexpr (P == 3) {
    return rayAttacksPairFlipped<1>(both(sliders0, sliders1), both(empty, empty), both(notAFile, notHFile));
  } else {
    constexpr int s = P == 0 ? 8 : P == 1 ? 9 : 7;
    const U64 noWrap = kNoWrap[kPairDirections[P][0]];
    const __m128i gen = flipHighLane(both(sliders0, sliders1));
    const __m128i pro = flipHighLane(both(empty, empty));
    return flipHighLane(rayAttacksPairFlipped<s>(gen, pro, both(noWrap, noWrap)));
  }
}

inline U64 lane0(__m128i x) { return static_cast<U64>(_mm_cvtsi128_si64(x)); }
inline U64 lane1(__m128i x) { return static_cast<U64>(_mm_extract_epi64(x, 1)); }

// Any single direction through the pair kernels (for the rayAttacks export on x86 builds).
inline U64 rayAttacksSse41(int dir, U64 sliders, U64 empty) {
  switch (dir) {
    case kNort: return lane0(rayAttacksPair<0>(sliders, 0, empty));
    case kSout: return lane1(rayAttacksPair<0>(0, sliders, empty));
    case kNoEa: return lane0(rayAttacksPair<1>(sliders, 0, empty));
    case kSoEa: return lane1(rayAttacksPair<1>(0, sliders, empty));
    case kNoWe: return lane0(rayAttacksPair<2>(sliders, 0, empty));
    case kSoWe: return lane1(rayAttacksPair<2>(0, sliders, empty));
    case kEast: return lane0(rayAttacksPair<3>(sliders, 0, empty));
    default: return lane1(rayAttacksPair<3>(0, sliders, empty));
  }
}
#endif

// ---- Magic bitboards ----

namespace detail {
constexpr U64 edgesExcept(int sq) {
  return ((kRank1 | kRank8) & ~rankBB(rankOf(sq))) | ((kFileA | kFileH) & ~fileBB(fileOf(sq)));
}
constexpr U64 rookMask(int sq) { return rookAttacksWalk(sq, 0) & ~edgesExcept(sq); }
constexpr U64 bishopMask(int sq) { return bishopAttacksWalk(sq, 0) & ~edgesExcept(sq); }

// xorshift64*: a small fixed-seed generator, so every process finds the same magics.
struct Prng {
  U64 state;
  U64 next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
  }
  U64 sparse() { return next() & next() & next(); }
};

// Scratch for the search: one square's occupancy subsets, their attacks, and which table slots the
// current attempt wrote (stamp == epoch), so a failed attempt needs no clearing.
struct MagicScratch {
  U64 occupancy[4096];
  U64 attacks[4096];
  unsigned stamp[4096];
  unsigned epoch;
};

// Fills `table` for one square with `magic`; false on a destructive collision.
inline bool tryMagic(U64 magic, unsigned shift, std::size_t count, U64* table, MagicScratch& m) {
  const unsigned epoch = ++m.epoch;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t index = static_cast<std::size_t>((m.occupancy[i] * magic) >> shift);
    if (m.stamp[index] != epoch) {
      m.stamp[index] = epoch;
      table[index] = m.attacks[i];
    } else if (table[index] != m.attacks[i]) {
      return false;
    }
  }
  return true;
}

// Per square: the known magic when it still works (it always should: these constants came from the
// search below, run once with this seed), else a search with a fixed-seed generator over candidates
// with few bits set, skipping those whose top byte of mask * magic is too sparse to spread the index.
template <U64 (*Mask)(int), U64 (*Walk)(int, U64)>
void buildMagics(MagicEntry* entries, U64* table, const U64* known, MagicScratch& m) {
  Prng prng{0x9e3779b97f4a7c15ULL};
  U64* next = table;
  for (int sq = 0; sq < 64; ++sq) {
    MagicEntry& e = entries[sq];
    e.mask = Mask(sq);
    e.shift = 64u - static_cast<unsigned>(popcount(e.mask));
    e.attacks = next;
    std::size_t count = 0;
    U64 subset = 0;
    do {  // carry-rippler: every subset of mask
      m.occupancy[count] = subset;
      m.attacks[count++] = Walk(sq, subset);
      subset = (subset - e.mask) & e.mask;
    } while (subset);
    e.magic = known[sq];
    while (!tryMagic(e.magic, e.shift, count, next, m)) {
      do e.magic = prng.sparse();
      while (popcount((e.mask * e.magic) >> 56) < 6);
    }
    next += count;
  }
}

template <U64 (*Mask)(int), U64 (*Walk)(int, U64)>
void buildPext(PextEntry* entries, U64* table) {
  U64* next = table;
  for (int sq = 0; sq < 64; ++sq) {
    PextEntry& e = entries[sq];
    e.mask = Mask(sq);
    e.attacks = next;
    U64 subset = 0;
    do {
      *next++ = Walk(sq, subset);
      subset = (subset - e.mask) & e.mask;
    } while (subset);
  }
}
}  // namespace detail

// Magics found by detail::buildMagics from all-zero starting values (zero never works), printed once
// and kept so that loading the addon costs a table fill, not a search.
inline constexpr U64 kRookMagics[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL
};
inline constexpr U64 kBishopMagics[64] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL,
    0x1500241990010e00ULL, 0x8001200182020a40ULL, 0x40004101030b0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006e080100c3040ULL, 0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422c012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL,
    0x2000081104004040ULL, 0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008a0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL
};

// The table builders behind magicTables() / pextTables().
inline void buildMagicTables(MagicTables& t, detail::MagicScratch& scratch) {
  scratch.epoch = 0;
  for (unsigned& s : scratch.stamp) s = 0;
  detail::buildMagics<detail::rookMask, rookAttacksWalk>(t.rook, t.rookAttacks, kRookMagics, scratch);
  detail::buildMagics<detail::bishopMask, bishopAttacksWalk>(t.bishop, t.bishopAttacks, kBishopMagics, scratch);
}

inline void buildPextTables(PextTables& t) {
  detail::buildPext<detail::rookMask, rookAttacksWalk>(t.rook, t.rookAttacks);
  detail::buildPext<detail::bishopMask, bishopAttacksWalk>(t.bishop, t.bishopAttacks);
}

inline U64 magicLookup(const MagicEntry& e, U64 occupied) {
  return e.attacks[((occupied & e.mask) * e.magic) >> e.shift];
}

// Slider policies: the position and check code is templated on one of these, so each kernel table
// instantiates it with the lookup it chose.
struct MagicSliders {
  const MagicTables& t;
  U64 rook(int sq, U64 occupied) const { return magicLookup(t.rook[sq], occupied); }
  U64 bishop(int sq, U64 occupied) const { return magicLookup(t.bishop[sq], occupied); }
  U64 queen(int sq, U64 occupied) const { return rook(sq, occupied) | bishop(sq, occupied); }
};

#if defined(__BMI2__)
struct PextSliders {
  const PextTables& t;
  U64 rook(int sq, U64 occupied) const { return t.rook[sq].attacks[_pext_u64(occupied, t.rook[sq].mask)]; }
  U64 bishop(int sq, U64 occupied) const {
    return t.bishop[sq].attacks[_pext_u64(occupied, t.bishop[sq].mask)];
  }
  U64 queen(int sq, U64 occupied) const { return rook(sq, occupied) | bishop(sq, occupied); }
};
#endif

// ---- X-ray attacks (CPW, modifying occupancy) ----

template <class Sliders>
U64 xrayRookAttacks(const Sliders& s, U64 occupied, U64 blockers, int sq) {
  const U64 attacks = s.rook(sq, occupied);
  blockers &= attacks;
  return attacks ^ s.rook(sq, occupied ^ blockers);
}

template <class Sliders>
U64 xrayBishopAttacks(const Sliders& s, U64 occupied, U64 blockers, int sq) {
  const U64 attacks = s.bishop(sq, occupied);
  blockers &= attacks;
  return attacks ^ s.bishop(sq, occupied ^ blockers);
}

}  // namespace BBP_ISA
}  // namespace bbp
