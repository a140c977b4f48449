// Batch loops and ISA-dependent scalars behind one table of function pointers. portable.cc builds
// the baseline table; x86.cc (compiled with -msse4.1 -mpopcnt, x64 only) builds the fast one; the
// addon picks a table once at load time after checking the CPU. No Node headers here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace bbp {

// The order of SET_FUNCTIONS and SQUARE_FUNCTIONS in lib/backend.ts.
enum SetFunctionId : unsigned {
  kKingAttacksSet, kKnightAttacksSet, kKnightFill, kForkTargetSquares,
  kNoNoEa, kNoEaEa, kSoEaEa, kSoSoEa, kNoNoWe, kNoWeWe, kSoWeWe, kSoSoWe,
  kSetFunctionCount
};
enum SquareFunctionId : unsigned { kKingAttacks, kKnightAttacks, kSquareFunctionCount };

struct Kernels {
  using U64 = std::uint64_t;
  using Sq = std::uint8_t;
  using Size = std::size_t;

  const char* cpuPath;
  void (*setBatch[kSetFunctionCount])(const U64* sets, U64* out, Size n);
  void (*squareBatch[kSquareFunctionCount])(const Sq* squares, U64* out, Size n);
  // Index of the first element >= 64, or n when all are squares.
  Size (*firstBadSquare)(const Sq* squares, Size n);
  // The dirSet behind distantCheckLines (the fastest measured here), and the SSE4.1 one or nullptr.
  int (*dirSet)(U64 pattern, int sq);
  int (*dirSetSse41)(U64 pattern, int sq);

  void (*pawnShieldMaskBatch)(int color, const Sq* kingSqs, U64* out, Size n);
  void (*pawnShieldIndexBatch)(int color, const Sq* kingSqs, const U64* pawns, Sq* out, Size n);
  void (*kingMoveTargetsBatch)(const Sq* kingSqs, const U64* taboo, U64* out, Size n);
  void (*distantCheckLinesBatch)(const Sq* kingSqs, const U64* taboo, Sq* out, Size n);
  void (*caughtableAreaBatch)(int kingColor, int sideToMove, const Sq* kingSqs, U64* out, Size n);
  void (*uncatchablePassersBatch)(const U64* passers, int kingColor, int sideToMove, const Sq* kingSqs,
                                  U64* out, Size n);
  void (*squaresAreConnectedBatch)(const U64* from, const U64* to, const U64* path, Sq* out, Size n);
  void (*kingDistanceBatch)(const Sq* from, const Sq* to, const U64* path, std::int8_t* out, Size n);
  void (*knightDistanceBatch)(const Sq* from, const Sq* to, const U64* path, std::int8_t* out, Size n);
  void (*knightForkMovesBatch)(const U64* knights, const U64* targets, const U64* ownPieces,
                               const U64* enemyPawnAttacks, const U64* enemyKnightAttacks, U64* out, Size n);
};

const Kernels& portableKernels();
#if defined(BBP_HAVE_X86_KERNELS)
const Kernels& x86Kernels();
#endif

}  // namespace bbp

// ---- Building a table (templates: only the kernel translation units instantiate them) ----

#include "../core/king.h"
#include "../core/knight.h"

namespace bbp {
inline namespace BBP_ISA {
namespace kernels {

using Sq = Kernels::Sq;
using Size = Kernels::Size;

// The set -> set and square -> set functions with their API names (single call, batch).
struct SetFunction {
  const char* name;
  const char* batchName;
  U64 (*fn)(U64);
};
struct SquareFunction {
  const char* name;
  const char* batchName;
  U64 (*fn)(int);
};

inline constexpr SetFunction setFunctions[kSetFunctionCount] = {
  {"kingAttacksSet", "kingAttacksSetBatch", kingAttacksSet},
  {"knightAttacksSet", "knightAttacksSetBatch", knightAttacksSet},
  {"knightFill", "knightFillBatch", knightFill},
  {"forkTargetSquares", "forkTargetSquaresBatch", forkTargetSquares},
  {"noNoEa", "noNoEaBatch", noNoEa},
  {"noEaEa", "noEaEaBatch", noEaEa},
  {"soEaEa", "soEaEaBatch", soEaEa},
  {"soSoEa", "soSoEaBatch", soSoEa},
  {"noNoWe", "noNoWeBatch", noNoWe},
  {"noWeWe", "noWeWeBatch", noWeWe},
  {"soWeWe", "soWeWeBatch", soWeWe},
  {"soSoWe", "soSoWeBatch", soSoWe},
};
inline constexpr SquareFunction squareFunctions[kSquareFunctionCount] = {
  {"kingAttacks", "kingAttacksBatch", kingAttacks},
  {"knightAttacks", "knightAttacksBatch", knightAttacks},
};

// out[i] = f(in[i]...): every batch loop is this one template.
template <typename Out, typename F, typename... In>
inline void zipWith(F f, Out* out, Size n, const In*... in) {
  for (Size i = 0; i < n; ++i) out[i] = static_cast<Out>(f(in[i]...));
}

template <unsigned I>
void setBatch(const U64* sets, U64* out, Size n) {
  zipWith([](U64 set) { return setFunctions[I].fn(set); }, out, n, sets);
}

template <unsigned I>
void squareBatch(const Sq* squares, U64* out, Size n) {
  zipWith([](int sq) { return squareFunctions[I].fn(sq); }, out, n, squares);
}

inline Size firstBadSquare(const Sq* squares, Size n) {
  Sq any = 0;
  for (Size i = 0; i < n; ++i) any |= squares[i];  // vectorises; the common case is all good
  if (any < 64) return n;
  for (Size i = 0; i < n; ++i)
    if (squares[i] >= 64) return i;
  return n;
}

template <unsigned... I>
constexpr void fillSetBatches(Kernels& k, std::integer_sequence<unsigned, I...>) {
  ((k.setBatch[I] = &setBatch<I>), ...);
}

template <int (*DirSet)(U64, int)>
constexpr Kernels makeKernels(const char* cpuPath, int (*dirSetSse41)(U64, int)) {
  Kernels k{};
  k.cpuPath = cpuPath;
  fillSetBatches(k, std::make_integer_sequence<unsigned, kSetFunctionCount>{});
  k.squareBatch[kKingAttacks] = &squareBatch<kKingAttacks>;
  k.squareBatch[kKnightAttacks] = &squareBatch<kKnightAttacks>;
  k.firstBadSquare = &firstBadSquare;
  k.dirSet = DirSet;
  k.dirSetSse41 = dirSetSse41;
  k.pawnShieldMaskBatch = [](int color, const Sq* kingSqs, U64* out, Size n) {
    zipWith([color](int sq) { return pawnShieldMask(color, sq); }, out, n, kingSqs);
  };
  k.pawnShieldIndexBatch = [](int color, const Sq* kingSqs, const U64* pawns, Sq* out, Size n) {
    zipWith([color](int sq, U64 p) { return pawnShieldIndex(color, sq, p); }, out, n, kingSqs, pawns);
  };
  k.kingMoveTargetsBatch = [](const Sq* kingSqs, const U64* taboo, U64* out, Size n) {
    zipWith(kingMoveTargets, out, n, kingSqs, taboo);
  };
  k.distantCheckLinesBatch = [](const Sq* kingSqs, const U64* taboo, Sq* out, Size n) {
    zipWith(distantCheckLinesWith<DirSet>, out, n, kingSqs, taboo);
  };
  k.caughtableAreaBatch = [](int kingColor, int sideToMove, const Sq* kingSqs, U64* out, Size n) {
    const auto& area = arrCaughtableArea[kingColor][sideToMove];
    zipWith([&area](int sq) { return area[sq]; }, out, n, kingSqs);
  };
  k.uncatchablePassersBatch = [](const U64* passers, int kingColor, int sideToMove, const Sq* kingSqs,
                                 U64* out, Size n) {
    const auto& area = arrCaughtableArea[kingColor][sideToMove];
    zipWith([&area](U64 p, int sq) { return p & ~area[sq]; }, out, n, passers, kingSqs);
  };
  k.squaresAreConnectedBatch = [](const U64* from, const U64* to, const U64* path, Sq* out, Size n) {
    zipWith(squaresAreConnected, out, n, from, to, path);
  };
  k.kingDistanceBatch = [](const Sq* from, const Sq* to, const U64* path, std::int8_t* out, Size n) {
    zipWith(kingDistance, out, n, from, to, path);
  };
  k.knightDistanceBatch = [](const Sq* from, const Sq* to, const U64* path, std::int8_t* out, Size n) {
    zipWith(knightDistance, out, n, from, to, path);
  };
  k.knightForkMovesBatch = [](const U64* knights, const U64* targets, const U64* ownPieces,
                              const U64* enemyPawnAttacks, const U64* enemyKnightAttacks, U64* out, Size n) {
    zipWith(knightForkMoves, out, n, knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks);
  };
  return k;
}

}  // namespace kernels
}  // namespace BBP_ISA
}  // namespace bbp

