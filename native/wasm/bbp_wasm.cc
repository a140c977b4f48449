// The WebAssembly build's C ABI (lib/backends/wasm/ drives it): the same native/core headers and
// the portable kernel table the addon uses (native/kernels/portable.cc and tables.cc, named in
// native/sources.txt), exported as plain functions over linear memory. Bitboards cross as i64
// (BigInt on the JS side), everything else as i32 and pointers into this module's memory, which the
// JS side fills with one bulk copy per call (or not at all when its arrays already live there).
// Checks stay where the addon's glue has them: a batch names its first bad element by returning its
// index, and the JS side throws the same error class the other backends throw. An access outside
// the memory traps (the WebAssembly sandbox), which the JS side turns into an Error.
#include <cstdint>
#include <cstdlib>

#include "../kernels/kernels.h"

using bbp::Kernels;
using U64 = std::uint64_t;
using U8 = std::uint8_t;
using Size = std::size_t;

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

namespace {
const Kernels& k() { return bbp::portableKernels(); }

}  // namespace

// ---- memory ----
BBP_EXPORT(bbp_alloc) void* bbp_alloc(Size bytes) { return std::malloc(bytes ? bytes : 1); }
BBP_EXPORT(bbp_free) void bbp_free(void* p) { std::free(p); }
BBP_EXPORT(bbp_simd) int bbp_simd() {
#if defined(__wasm_simd128__)
  return 1;
#else
  return 0;
#endif
}
// Reads one byte at any address: the trap test's handle on an access outside the memory.
BBP_EXPORT(bbp_peek) int bbp_peek(const U8* p) { return *static_cast<const volatile U8*>(p); }

// The declared functions (sliders, pins, pinners, discovered-check candidates, check blocks, pin
// rays, insufficient material, Polyglot keys, the pattern functions) and their batch forms are
// generated (generated/exports.cc); here the rest.

// ---- positions (native/core/position.h, checks.h) ----
// The problem validatePacked finds in the 10 words at pos (a NUL-terminated string), or 0.
BBP_EXPORT(bbp_validate) const char* bbp_validate(const U64* pos) { return bbp::validatePacked(pos); }
// Index of the first inconsistent position of n, or n.
BBP_EXPORT(bbp_first_invalid) Size bbp_first_invalid(const U64* words, Size n) {
  for (Size i = 0; i < n; ++i)
    if (!bbp::packedIsValid(words + i * bbp::kPackedPositionWords)) return i;
  return n;
}
BBP_EXPORT(bbp_attackers_to) U64 bbp_attackers_to(const U64* pos, int sq, int by, U64 occ) {
  return k().attackersTo(pos, sq, by, occ);
}
BBP_EXPORT(bbp_checkers) U64 bbp_checkers(const U64* pos, int color) { return k().checkers(pos, color); }
BBP_EXPORT(bbp_pinned_pieces_xray) U64 bbp_pinned_pieces_xray(const U64* pos, int color) {
  return k().pinnedPiecesXray(pos, color);
}
BBP_EXPORT(bbp_pinned_pieces_opposite_rays) U64 bbp_pinned_pieces_opposite_rays(const U64* pos, int color) {
  return k().pinnedPiecesOppositeRays(pos, color);
}
BBP_EXPORT(bbp_check_kind) int bbp_check_kind(const U64* pos, int from, int to, int promotion) {
  return k().checkKind(pos, from, to, promotion);
}
// kind 0 checkers, 1 pinned pieces, 2 discovered-check candidates; color 0 | 1 | 2 (side to move).
// Returns n, or the index of the first inconsistent position (nothing written).
BBP_EXPORT(bbp_position_batch) Size bbp_position_batch(int kind, const U64* positions, int color, U64* out, Size n) {
  const Size bad = bbp_first_invalid(positions, n);
  if (bad != n) return bad;
  (kind == 0 ? k().checkersBatch : kind == 1 ? k().pinnedPiecesBatch : k().discoveredCheckCandidatesBatch)(
      positions, color, out, n);
  return n;
}
BBP_EXPORT(bbp_check_analysis_batch) Size bbp_check_analysis_batch(const U64* positions, U64* out, Size n) {
  return k().checkAnalysisBatch(positions, out, n);
}

// ---- moves and perft (native/core/movegen.h, makemove.h, perft.h) ----
BBP_EXPORT(bbp_legal_moves) int bbp_legal_moves(const U64* pos, std::uint16_t* out, int capacity) {
  return k().legalMoves(pos, out, capacity);
}
BBP_EXPORT(bbp_make_move) int bbp_make_move(const U64* pos, int from, int to, int promotion, U64* out) {
  return k().makeMove(pos, from, to, promotion, out) ? 1 : 0;
}
BBP_EXPORT(bbp_perft) double bbp_perft(const U64* pos, int depth) { return k().perft(pos, depth); }
BBP_EXPORT(bbp_perft_stats) void bbp_perft_stats(const U64* pos, int depth, double* out) {
  k().perftStats(pos, depth, out);
}
// Every position checked first, as the addon does: returns n when counted; else -1 - i when position
// i is inconsistent, -1 - n - i when its side not to move is in check (nothing counted).
BBP_EXPORT(bbp_perft_batch) double bbp_perft_batch(const U64* positions, int depth, double* out, Size n) {
  const Size bad = bbp_first_invalid(positions, n);
  if (bad != n) return -1.0 - static_cast<double>(bad);
  for (Size p = 0; p < n; ++p) {
    const U64* w = positions + p * bbp::kPackedPositionWords;
    if (k().checkers(w, static_cast<int>((w[8] & 1) ^ 1))) return -1.0 - static_cast<double>(n + p);
  }
  k().perftBatch(positions, depth, out, n);
  return static_cast<double>(n);
}

// ---- batch analysis (native/core/analysis.h) and FEN lines (fen.h) ----
BBP_EXPORT(bbp_feature_count) unsigned bbp_feature_count() { return bbp::kFeatureCount; }
BBP_EXPORT(bbp_plane_bytes) Size bbp_plane_bytes() { return bbp::kPlaneBytes; }
// outs: kFeatureCount pointers (0 = not asked). Returns n, or the first inconsistent position.
BBP_EXPORT(bbp_analyze) Size bbp_analyze(const U64* words, const U8* valid, Size n, unsigned features, void* const* outs) {
  return k().analyzeRange(words, valid, 0, n, features, outs);
}
// Returns n, or the index of the first inconsistent (and not skipped) position.
BBP_EXPORT(bbp_to_planes) Size bbp_to_planes(const U64* words, const U8* valid, U8* out, Size n) {
  for (Size i = 0; i < n; ++i) {
    const U64* w = words + i * bbp::kPackedPositionWords;
    U8* o = out + i * bbp::kPlaneBytes;
    if (valid && !valid[i]) {
      for (Size b = 0; b < bbp::kPlaneBytes; ++b) o[b] = 0;
      continue;
    }
    if (bbp::validatePacked(w)) return i;
    bbp::writePlanes(w, o);
  }
  return n;
}
BBP_EXPORT(bbp_parse_fen_line) int bbp_parse_fen_line(const char* text, Size length, int epd, U64* words, int chess960) {
  return k().parseFenLine(text, length, epd != 0, words, chess960 != 0);
}
