// What differs between CPU paths, behind one table of function pointers: sliders and rays, dirSet,
// checks and pins over positions, batch analysis, move generation and perft, each compiled with its
// path's flags and slider lookups. portable.cc builds the baseline table; x86.cc (compiled with
// -msse4.1 -mpopcnt, x64 only) the fast one; x86.cc again with -mbmi -mbmi2 (x64 only) the one with
// PEXT-indexed sliders; the addon picks a table once at load time after checking the
// CPU. Everything else (table lookups, shifts, fills) is called from the glue directly. No Node
// headers here.
// Positions cross this boundary as the packed words of lib/core/types.ts (validated by the caller),
// since the unpacked Board type lives in each ISA's own namespace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace bbp {

struct Kernels {
  using U64 = std::uint64_t;
  using Sq = std::uint8_t;
  using Size = std::size_t;

  const char* cpuPath;
  // distantCheckLines by the dirSet measured fastest on this path, and by the SSE4.1 one (or nullptr).
  int (*distantCheckLines)(int kingSq, U64 taboo);
  int (*distantCheckLinesSse41)(int kingSq, U64 taboo);
  void (*distantCheckLinesBatch)(const Sq* kingSqs, const U64* taboo, Sq* out, Size n);
  // King Pattern batch loops compiled with this path's flags (the glue's generic loop is slower).
  void (*pawnShieldIndexBatch)(int color, const Sq* kingSqs, const U64* pawns, Sq* out, Size n);
  void (*uncatchablePassersBatch)(const U64* passers, int kingColor, int sideToMove, const Sq* kingSqs, U64* out,
                                  Size n);

  // ---- Sliders (native/core/sliders.h): magic or PEXT lookups, whichever this table chose ----
  U64 (*rookAttacks)(int sq, U64 occupied);
  U64 (*bishopAttacks)(int sq, U64 occupied);
  U64 (*queenAttacks)(int sq, U64 occupied);
  // The PEXT lookups, or nullptr in tables built without BMI2.
  U64 (*rookAttacksPext)(int sq, U64 occupied);
  U64 (*bishopAttacksPext)(int sq, U64 occupied);
  U64 (*rayAttacks)(int direction, U64 sliders, U64 empty);
  U64 (*xrayRookAttacks)(U64 occupied, U64 blockers, int sq);
  U64 (*xrayBishopAttacks)(U64 occupied, U64 blockers, int sq);
  void (*rookAttacksBatch)(const Sq* squares, const U64* occupied, U64* out, Size n);
  void (*bishopAttacksBatch)(const Sq* squares, const U64* occupied, U64* out, Size n);
  void (*queenAttacksBatch)(const Sq* squares, const U64* occupied, U64* out, Size n);

  // ---- Checks and pins over one packed position (native/core/checks.h) ----
  U64 (*attackersTo)(const U64* pos, int sq, int byColor, U64 occupied);
  U64 (*checkers)(const U64* pos, int color);
  U64 (*pinnedPieces)(const U64* pos, int color);  // kingBlockers (core/blockers.h)
  U64 (*pinnedPiecesXray)(const U64* pos, int color);
  U64 (*pinnedPiecesOppositeRays)(const U64* pos, int color);
  U64 (*pinners)(const U64* pos, int color);
  U64 (*discoveredCheckCandidates)(const U64* pos, int color);
  U64 (*checkBlockSquares)(const U64* pos, int color);
  U64 (*pinRay)(const U64* pos, int sq);
  int (*checkKind)(const U64* pos, int from, int to, int promotion);
  // color 0 | 1, or 2 = each position's side to move; positions holds n * 10 words.
  void (*checkersBatch)(const U64* positions, int color, U64* out, Size n);
  void (*pinnedPiecesBatch)(const U64* positions, int color, U64* out, Size n);
  void (*discoveredCheckCandidatesBatch)(const U64* positions, int color, U64* out, Size n);
  // Six words per position (checkAnalysis in core/checks.h), every position checked on the way (the
  // caller need not validate): returns n, or the index of the first invalid position.
  Size (*checkAnalysisBatch)(const U64* positions, U64* out, Size n);

  // ---- Tactical motifs and the static exchange evaluation (native/core/motifs.h) ----
  U64 (*hanging)(const U64* pos, int color);
  U64 (*forks)(const U64* pos, int color);
  U64 (*relativePins)(const U64* pos, int color);
  U64 (*skewers)(const U64* pos, int color);
  U64 (*discoveredAttacks)(const U64* pos, int color);
  // kSeeIllegal when the move is not legal.
  int (*see)(const U64* pos, int from, int to, int promotion);
  // 1 when see >= threshold, 0 when not, -1 when the move is not legal.
  int (*seeGe)(const U64* pos, int from, int to, int promotion, int threshold);
  // -1, or 2 * i for an invalid position i, 2 * i + 1 for an illegal move; valid may be null.
  std::int64_t (*seeBatch)(const U64* positions, const std::uint8_t* valid, const std::uint16_t* moves,
                           std::int16_t* out, Size n);

  // ---- Batch analysis (native/core/analysis.h) and FEN lines (native/core/fen.h) ----
  // Positions [begin, end) of packed words; outs[f] per FeatureId (nullptr = not asked). Returns the
  // index of the first inconsistent position (the outputs are then to be dropped), or end; every
  // element of every requested output in [begin, end) is written (zeros for skipped positions).
  Size (*analyzeRange)(const U64* words, const std::uint8_t* valid, Size begin, Size end, unsigned features,
                       void* const* outs);
  // One line into 10 packed words; returns a FenStatus. chess960: the castling field as X-FEN.
  std::uint8_t (*parseFenLine)(const char* text, Size length, bool epd, U64* words, bool chess960);
  // ---- Legal moves and perft (native/core/movegen.h, perft.h), compiled per table ----
  // Writes at most `capacity` moves to out; returns how many legal moves there are.
  int (*legalMoves)(const U64* pos, std::uint16_t* out, int capacity);
  // The position after a move into out (10 words); false when the move is not legal (makemove.h).
  bool (*makeMove)(const U64* pos, int from, int to, int promotion, U64* out);
  double (*perft)(const U64* pos, int depth);
  // out: the nine perftStats columns (lib/core/types.ts PERFT_STATS_COLUMNS).
  void (*perftStats)(const U64* pos, int depth, double* out);
  // out[i] = perft(position i, depth); positions holds n * 10 words.
  void (*perftBatch)(const U64* positions, int depth, double* out, Size n);
  // perft (stats false: out[0]) or the perftStats columns (out[0..8]) on `threads` threads, the tree
  // split near the root; `stop(context)` (stop may be null) is asked between work items, from any of
  // the threads: false when it answered true.
  bool (*perftParallel)(const U64* pos, int depth, unsigned threads, bool stats, bool (*stop)(void*), void* context,
                        U64* out);

};

const Kernels& portableKernels();
#if defined(BBP_HAVE_X86_KERNELS)
const Kernels& x86Kernels();
#endif
#if defined(BBP_HAVE_BMI2_KERNELS)
const Kernels& bmi2Kernels();
#endif

}  // namespace bbp

// ---- Building a table (templates: only the kernel translation units instantiate them) ----

#include "../core/analysis.h"
#include "../core/checks.h"
#include "../core/fen.h"
#include "../core/makemove.h"
#include "../core/motifs.h"
#include "../core/perft.h"
#include "../core/king.h"
#include "../core/knight.h"

namespace bbp {
inline namespace BBP_ISA {
namespace kernels {

using Sq = Kernels::Sq;
using Size = Kernels::Size;

// out[i] = f(in[i]...): every batch loop is this one template.
template <typename Out, typename F, typename... In>
inline void zipWith(F f, Out* out, Size n, const In*... in) {
  for (Size i = 0; i < n; ++i) out[i] = static_cast<Out>(f(in[i]...));
}

template <int (*DirSet)(U64, int)>
constexpr Kernels withDirSet(Kernels k, const char* cpuPath, int (*sse41)(int, U64)) {
  k.cpuPath = cpuPath;
  k.distantCheckLines = distantCheckLinesWith<DirSet>;
  k.distantCheckLinesSse41 = sse41;
  k.distantCheckLinesBatch = [](const Sq* kingSqs, const U64* taboo, Sq* out, Size n) {
    zipWith(distantCheckLinesWith<DirSet>, out, n, kingSqs, taboo);
  };
  k.pawnShieldIndexBatch = [](int color, const Sq* kingSqs, const U64* pawns, Sq* out, Size n) {
    zipWith([color](int sq, U64 p) { return pawnShieldIndex(color, sq, p); }, out, n, kingSqs, pawns);
  };
  k.uncatchablePassersBatch = [](const U64* passers, int kingColor, int sideToMove, const Sq* kingSqs, U64* out,
                                 Size n) {
    zipWith([kingColor, sideToMove](U64 p, int sq) { return uncatchablePassers(p, kingColor, sideToMove, sq); }, out,
            n, passers, kingSqs);
  };
  return k;
}

// ---- Sliders, checks and pins ----

// Where a table gets its slider lookups: the process-wide tables, fetched once per call or batch.
struct MagicSource {
  static MagicSliders get() { return MagicSliders{magicTables()}; }
};
#if defined(__BMI2__)
struct PextSource {
  static PextSliders get() { return PextSliders{pextTables()}; }
};
#endif

// Runs f(board, colour) over packed positions; color 2 = each position's side to move.
template <typename F>
inline void positionBatch(F f, const U64* positions, int color, U64* out, Size n) {
  for (Size i = 0; i < n; ++i) {
    const Board b = unpack(positions + i * kPackedPositionWords);
    out[i] = f(b, color == 2 ? b.sideToMove : color);
  }
}

template <class Source, class Rays>
constexpr Kernels withCheckKernels(Kernels k) {
  k.rookAttacks = [](int sq, U64 occ) { return Source::get().rook(sq, occ); };
  k.bishopAttacks = [](int sq, U64 occ) { return Source::get().bishop(sq, occ); };
  k.queenAttacks = [](int sq, U64 occ) { return Source::get().queen(sq, occ); };
#if defined(__BMI2__)
  k.rookAttacksPext = [](int sq, U64 occ) { return PextSource::get().rook(sq, occ); };
  k.bishopAttacksPext = [](int sq, U64 occ) { return PextSource::get().bishop(sq, occ); };
#endif
  k.rayAttacks = [](int dir, U64 sliders, U64 empty) { return Rays::ray(dir, sliders, empty); };
  k.xrayRookAttacks = [](U64 occ, U64 blockers, int sq) { return xrayRookAttacks(Source::get(), occ, blockers, sq); };
  k.xrayBishopAttacks = [](U64 occ, U64 blockers, int sq) {
    return xrayBishopAttacks(Source::get(), occ, blockers, sq);
  };
  k.rookAttacksBatch = [](const Sq* squares, const U64* occ, U64* out, Size n) {
    const auto s = Source::get();
    zipWith([&s](int sq, U64 o) { return s.rook(sq, o); }, out, n, squares, occ);
  };
  k.bishopAttacksBatch = [](const Sq* squares, const U64* occ, U64* out, Size n) {
    const auto s = Source::get();
    zipWith([&s](int sq, U64 o) { return s.bishop(sq, o); }, out, n, squares, occ);
  };
  k.queenAttacksBatch = [](const Sq* squares, const U64* occ, U64* out, Size n) {
    const auto s = Source::get();
    zipWith([&s](int sq, U64 o) { return s.queen(sq, o); }, out, n, squares, occ);
  };

  k.attackersTo = [](const U64* pos, int sq, int byColor, U64 occ) {
    return attackersTo(Source::get(), unpack(pos), sq, byColor, occ);
  };
  k.checkers = [](const U64* pos, int color) { return checkers(Source::get(), unpack(pos), color); };
  k.pinnedPiecesXray = [](const U64* pos, int color) { return pinnedPiecesXray(Source::get(), unpack(pos), color); };
  k.pinnedPiecesOppositeRays = [](const U64* pos, int color) {
    return pinnedPiecesOppositeRays<Rays>(unpack(pos), color);
  };
  k.pinnedPieces = [](const U64* pos, int color) { return pinnedPieces(Source::get(), unpack(pos), color); };
  k.pinners = [](const U64* pos, int color) { return pinners(Source::get(), unpack(pos), color); };
  k.discoveredCheckCandidates = [](const U64* pos, int color) {
    return discoveredCheckCandidates(Source::get(), unpack(pos), color);
  };
  k.checkBlockSquares = [](const U64* pos, int color) {
    return checkBlockSquares(Source::get(), unpack(pos), color);
  };
  k.pinRay = [](const U64* pos, int sq) { return pinRay(Source::get(), unpack(pos), sq); };
  k.checkKind = [](const U64* pos, int from, int to, int promotion) {
    return checkKind(Source::get(), unpack(pos), from, to, promotion);
  };
  k.checkersBatch = [](const U64* positions, int color, U64* out, Size n) {
    const auto s = Source::get();
    positionBatch([&s](const Board& b, int c) { return checkers(s, b, c); }, positions, color, out, n);
  };
  k.pinnedPiecesBatch = [](const U64* positions, int color, U64* out, Size n) {
    positionBatch(blockersPinned, positions, color, out, n);
  };
  k.discoveredCheckCandidatesBatch = [](const U64* positions, int color, U64* out, Size n) {
    positionBatch(blockersDiscovering, positions, color, out, n);
  };
  k.checkAnalysisBatch = [](const U64* positions, U64* out, Size n) {
    return checkAnalysisBatch(Source::get(), positions, out, n);
  };
  k.analyzeRange = [](const U64* words, const std::uint8_t* valid, Size begin, Size end, unsigned features,
                      void* const* outs) -> Size {
    FeatureOutputs o;
    for (unsigned f = 0; f < kFeatureCount; ++f) o.out[f] = outs[f];
    return analyzeRange(Source::get(), words, valid, begin, end, features, o);
  };
  k.parseFenLine = [](const char* text, Size length, bool epd, U64* words, bool chess960) -> std::uint8_t {
    return parseFenLine(Source::get(), text, length, epd, words, chess960);
  };
  return k;
}

// The move generator and perft with this table's slider lookups (so the hot loop is compiled for
// the table's ISA: x86.cc built with -mbmi -mbmi2 for PEXT sliders, or with -msse4.1 -mpopcnt).
template <class Source>
constexpr Kernels withMoveKernels(Kernels k) {
  k.legalMoves = [](const U64* pos, std::uint16_t* out, int capacity) {
    return legalMoves(Source::get(), unpack(pos), out, capacity);
  };
  k.makeMove = [](const U64* pos, int from, int to, int promotion, U64* out) {
    return makeMove(Source::get(), pos, from, to, promotion, out);
  };
  k.perft = [](const U64* pos, int depth) { return static_cast<double>(perft(Source::get(), unpack(pos), depth)); };
  k.perftStats = [](const U64* pos, int depth, double* out) {
    const PerftStats stats = perftStats(Source::get(), unpack(pos), depth);
    for (int c = 0; c < kPerftStatsColumns; ++c) out[c] = static_cast<double>(stats.column[c]);
  };
  k.perftBatch = [](const U64* positions, int depth, double* out, Size n) {
    const auto s = Source::get();
    for (Size i = 0; i < n; ++i)
      out[i] = static_cast<double>(perft(s, unpack(positions + i * kPackedPositionWords), depth));
  };
  k.perftParallel = [](const U64* pos, int depth, unsigned threads, bool stats, bool (*stop)(void*), void* context,
                       U64* out) { return perftParallel(Source::get(), unpack(pos), depth, threads, stats, stop, context, out); };
  return k;
}

template <class Source>
constexpr Kernels withMotifKernels(Kernels k) {
  k.hanging = [](const U64* pos, int color) { return hanging(Source::get(), unpack(pos), color); };
  k.forks = [](const U64* pos, int color) { return forks(Source::get(), unpack(pos), color); };
  k.relativePins = [](const U64* pos, int color) { return relativePins(Source::get(), unpack(pos), color); };
  k.skewers = [](const U64* pos, int color) { return skewers(Source::get(), unpack(pos), color); };
  k.discoveredAttacks = [](const U64* pos, int color) { return discoveredAttacks(Source::get(), unpack(pos), color); };
  k.see = [](const U64* pos, int from, int to, int promotion) {
    return see(Source::get(), unpack(pos), from, to, promotion);
  };
  k.seeGe = [](const U64* pos, int from, int to, int promotion, int threshold) {
    return seeGe(Source::get(), unpack(pos), from, to, promotion, threshold);
  };
  k.seeBatch = [](const U64* positions, const std::uint8_t* valid, const std::uint16_t* moves, std::int16_t* out,
                  Size n) -> std::int64_t { return seeBatch(Source::get(), positions, valid, moves, out, n); };
  return k;
}

// A whole table: Source (magic or PEXT sliders), Rays (ray attacks), DirSet (distantCheckLines).
template <class Source, class Rays, int (*DirSet)(U64, int)>
constexpr Kernels buildKernels(const char* cpuPath, int (*distantCheckLinesSse41)(int, U64)) {
  return withMotifKernels<Source>(withMoveKernels<Source>(withCheckKernels<Source, Rays>(withDirSet<DirSet>(Kernels{}, cpuPath, distantCheckLinesSse41))));
}

}  // namespace kernels
}  // namespace BBP_ISA
}  // namespace bbp

