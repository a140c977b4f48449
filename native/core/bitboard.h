// Bitboard basics shared by the pattern headers: little-endian rank-file mapping (a1 = 0, h8 = 63).
// Header-only C++17, no Node headers. Everything is constexpr so tables are built by the compiler and
// there is no mutable state to initialise or share between threads.
#pragma once

#include <array>
#include <cstdint>

// Each instruction-set build of these inline functions lives in its own inline namespace, so the
// linker never merges a copy compiled with -msse4.1 into baseline code (or the other way round).
#ifndef BBP_ISA
#define BBP_ISA base
#endif

// For a small function on a hot path that the compiler might keep out of line in a large translation
// unit (the addon's kernels file instantiates every algorithm for each CPU path).
#ifndef BBP_ALWAYS_INLINE
#if defined(__GNUC__)
#define BBP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define BBP_ALWAYS_INLINE inline
#endif
#endif
// The same for a lambda, written after its parameter list: [&](int x) BBP_LAMBDA_INLINE { ... }.
#ifndef BBP_LAMBDA_INLINE
#if defined(__GNUC__)
#define BBP_LAMBDA_INLINE __attribute__((always_inline))
#else
#define BBP_LAMBDA_INLINE
#endif
#endif

namespace bbp {
inline namespace BBP_ISA {

using U64 = std::uint64_t;

constexpr U64 kFileA = 0x0101010101010101ULL;
constexpr U64 kFileH = kFileA << 7;
constexpr U64 kRank1 = 0xffULL;
constexpr U64 kRank8 = kRank1 << 56;
constexpr U64 notAFile = ~kFileA;
constexpr U64 notHFile = ~kFileH;
constexpr U64 notABFile = 0xfcfcfcfcfcfcfcfcULL;
constexpr U64 notGHFile = 0x3f3f3f3f3f3f3f3fULL;

constexpr U64 squareBB(int sq) { return U64{1} << sq; }

// ---- Bit primitives: the only place that calls compiler builtins ----
// GCC and Clang get their builtins (one instruction each where the build enables POPCNT/BMI);
// MSVC gets portable constexpr code (its intrinsics are not constexpr, and some tables below are
// built by the compiler). lsb and msb want a non-empty set.
#if defined(__GNUC__) || defined(__clang__)
BBP_ALWAYS_INLINE constexpr int lsb(U64 b) { return __builtin_ctzll(b); }
BBP_ALWAYS_INLINE constexpr int msb(U64 b) { return 63 ^ __builtin_clzll(b); }
BBP_ALWAYS_INLINE constexpr int popcount(U64 b) { return __builtin_popcountll(b); }
BBP_ALWAYS_INLINE constexpr int lsb32(std::uint32_t b) { return __builtin_ctz(b); }
BBP_ALWAYS_INLINE constexpr U64 byteSwap(U64 b) { return __builtin_bswap64(b); }
#define BBP_LIKELY(x) __builtin_expect(!!(x), 1)
#else
constexpr int popcount(U64 b) {
  b = b - ((b >> 1) & 0x5555555555555555ULL);
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
}
constexpr int lsb(U64 b) { return popcount((b & (0 - b)) - 1); }
constexpr int msb(U64 b) {
  int n = 0;
  for (int step = 32; step; step >>= 1) {
    if (b >> step) { b >>= step; n += step; }
  }
  return n;
}
constexpr int lsb32(std::uint32_t b) { return lsb(b); }
constexpr U64 byteSwap(U64 b) {
  U64 r = 0;
  for (int i = 0; i < 8; ++i) r = (r << 8) | ((b >> (8 * i)) & 0xff);
  return r;
}
#define BBP_LIKELY(x) (x)
#endif
// The lowest square of a non-empty set, removed from it.
BBP_ALWAYS_INLINE constexpr int popLsb(U64& b) {
  const int sq = lsb(b);
  b &= b - 1;
  return sq;
}


// A lookup table by square from a set-wise attack function: table[sq] = attacksOf(squareBB(sq)).
template <class SetWise>
constexpr std::array<U64, 64> tableBySquare(SetWise attacksOf) {
  std::array<U64, 64> table{};
  for (int sq = 0; sq < 64; ++sq) table[sq] = attacksOf(squareBB(sq));
  return table;
}
constexpr int rankOf(int sq) { return sq >> 3; }
constexpr int fileOf(int sq) { return sq & 7; }
constexpr U64 rankBB(int rank) { return kRank1 << (8 * rank); }
constexpr U64 fileBB(int file) { return kFileA << file; }
constexpr int absDiff(int a, int b) { return a > b ? a - b : b - a; }
constexpr int maxOf(int a, int b) { return a > b ? a : b; }
constexpr int chebyshev(int a, int b) {
  return maxOf(absDiff(rankOf(a), rankOf(b)), absDiff(fileOf(a), fileOf(b)));
}

// One step only, masking the file wraps (seed names).
constexpr U64 eastOne(U64 b) { return (b << 1) & notAFile; }
constexpr U64 westOne(U64 b) { return (b >> 1) & notHFile; }
constexpr U64 nortOne(U64 b) { return b << 8; }
constexpr U64 soutOne(U64 b) { return b >> 8; }

// Vertical mirror: rank 1 <-> rank 8 (a byte swap), written out so it stays constexpr.
constexpr U64 flipVertical(U64 b) {
  b = ((b >> 8) & 0x00ff00ff00ff00ffULL) | ((b & 0x00ff00ff00ff00ffULL) << 8);
  b = ((b >> 16) & 0x0000ffff0000ffffULL) | ((b & 0x0000ffff0000ffffULL) << 16);
  return (b >> 32) | (b << 32);
}

// Fewest fill cycles from square `from` to square `to` with the fill kept inside `path`
// (a breadth-first search done set-wise); -1 when an end is off the path or the fill stops growing.
template <typename Fill>
constexpr int fillDistance(int from, int to, U64 path, Fill fill) {
  U64 reached = squareBB(from) & path;
  const U64 target = squareBB(to) & path;
  if (!reached || !target) return -1;
  int steps = 0;
  while (!(reached & target)) {
    const U64 next = fill(reached) & path;
    if (next == reached) return -1;
    reached = next;
    ++steps;
  }
  return steps;
}

}  // namespace BBP_ISA
}  // namespace bbp
