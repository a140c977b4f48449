// The plain C++ loops the bench compares the addon's batch paths with: the same core functions over
// the same inputs (written by the bench sections), no Node-API in sight. Prints {"name": ns/element}.
// Usage: baseline patterns|checks|motifs <inputs.bin> <n> <samples>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/checks.h"
#include "core/kbnk.h"
#include "core/movegen.h"
#include "core/king.h"
#include "core/knight.h"
#include "core/position.h"
#include "core/sliders.h"

using namespace bbp;


namespace {

// The lookup the addon picks on this CPU path: PEXT when compiled for BMI2, else magic.
#if defined(__BMI2__)
const PextSliders sliders{pextTables()};
#else
const MagicSliders sliders{magicTables()};
#endif

std::size_t n = 0;
int samples = 0;
std::vector<std::uint8_t> sq, sq2;
std::vector<U64> a, b, c, d, e, path, single1, single2;
std::vector<U64> outU64;
std::vector<std::uint8_t> outU8;
std::vector<std::int8_t> outI8;
std::string json = "{";

template <typename T>
void read(std::ifstream& in, std::vector<T>& v) {
  v.resize(n);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(T)));
}

// Median ns per element of `samples` runs of the loop body over all n inputs (after a warm-up).
template <typename Out, typename F>
void time(const char* name, std::vector<Out>& out, F f) {
  std::vector<double> ns;
  for (int s = 0; s <= samples; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<Out>(f(i));
    const auto t1 = std::chrono::steady_clock::now();
    if (s > 0) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
    asm volatile("" : : "r"(out.data()) : "memory");  // the results are used
  }
  std::sort(ns.begin(), ns.end());
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s\"%s\": %.3f", json.size() > 1 ? ", " : "", name, ns[ns.size() / 2]);
  json += buf;
}

int distantCheckLinesBest(int kingSq, U64 taboo) {
#if defined(__SSE4_1__)
  return distantCheckLinesWith<dirSetSse41>(kingSq, taboo);
#else
  return distantCheckLinesWith<dirSetBranchless>(kingSq, taboo);
#endif
}

void patterns(std::ifstream& in) {
  read(in, sq), read(in, sq2);
  for (auto* v : {&a, &b, &c, &d, &e, &path, &single1, &single2}) read(in, *v);
  if (!in) {
    std::fprintf(stderr, "baseline: short input file\n");
    std::exit(1);
  }
  outU64.resize(n), outU8.resize(n), outI8.resize(n);
  time("kingAttacks", outU64, [](std::size_t i) { return kingAttacks(sq[i]); });
  time("knightAttacks", outU64, [](std::size_t i) { return knightAttacks(sq[i]); });
  time("kingAttacksSet", outU64, [](std::size_t i) { return kingAttacksSet(a[i]); });
  time("knightAttacksSet", outU64, [](std::size_t i) { return knightAttacksSet(a[i]); });
  time("knightFill", outU64, [](std::size_t i) { return knightFill(a[i]); });
  time("forkTargetSquares", outU64, [](std::size_t i) { return forkTargetSquares(a[i]); });
  time("noNoEa", outU64, [](std::size_t i) { return noNoEa(a[i]); });
  time("noEaEa", outU64, [](std::size_t i) { return noEaEa(a[i]); });
  time("soEaEa", outU64, [](std::size_t i) { return soEaEa(a[i]); });
  time("soSoEa", outU64, [](std::size_t i) { return soSoEa(a[i]); });
  time("noNoWe", outU64, [](std::size_t i) { return noNoWe(a[i]); });
  time("noWeWe", outU64, [](std::size_t i) { return noWeWe(a[i]); });
  time("soWeWe", outU64, [](std::size_t i) { return soWeWe(a[i]); });
  time("soSoWe", outU64, [](std::size_t i) { return soSoWe(a[i]); });
  time("pawnShieldMask", outU64, [](std::size_t i) { return pawnShieldMask(0, sq[i]); });
  time("pawnShieldIndex", outU8, [](std::size_t i) { return pawnShieldIndex(0, sq[i], a[i]); });
  time("kingMoveTargets", outU64, [](std::size_t i) { return kingMoveTargets(sq[i], a[i]); });
  time("distantCheckLines", outU8, [](std::size_t i) { return distantCheckLinesBest(sq[i], a[i]); });
  time("caughtableArea", outU64, [](std::size_t i) { return caughtableArea(1, 0, sq[i]); });
  time("uncatchablePassers", outU64, [](std::size_t i) { return uncatchablePassers(a[i], 1, 0, sq[i]); });
  time("squaresAreConnected", outU8, [](std::size_t i) { return squaresAreConnected(single1[i], single2[i], path[i]); });
  time("kingDistance", outI8, [](std::size_t i) { return kingDistance(sq[i], sq2[i], path[i]); });
  time("knightDistance", outI8, [](std::size_t i) { return knightDistance(sq[i], sq2[i], path[i]); });
  time("knightForkMoves", outU64, [](std::size_t i) { return knightForkMoves(a[i], b[i], c[i], d[i], e[i]); });
}

// Inputs: n squares, n occupancies, then n packed positions (10 words each).
// Median ns per position of `samples` runs of f(board, out) over every packed position (after a
// warm-up), recorded as `name`.
template <typename F>
void timePositions(const char* name, const std::vector<U64>& packed, F f) {
  const std::size_t count = packed.size() / kPackedPositionWords;
  outU64.assign(count * kCheckAnalysisWords, 0);
  std::vector<double> ns;
  for (int s = 0; s <= samples; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < count; ++i)
      f(unpack(packed.data() + i * kPackedPositionWords), outU64.data() + i * kCheckAnalysisWords);
    const auto t1 = std::chrono::steady_clock::now();
    if (s > 0) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(count));
    asm volatile("" : : "r"(outU64.data()) : "memory");
  }
  std::sort(ns.begin(), ns.end());
  char buf[128];
  std::snprintf(buf, sizeof buf, ", \"%s\": %.3f", name, ns[ns.size() / 2]);
  json += buf;
}

// Input: n squares, n occupancies, then any number of packed positions (the rest of the file: the
// same positions the addon is timed on, so both work on the same data).
void checks(std::ifstream& in) {
  read(in, sq);
  read(in, a);
  std::vector<U64> packed;
  for (U64 word; in.read(reinterpret_cast<char*>(&word), sizeof word);) packed.push_back(word);
  if (sq.size() != n || packed.empty() || packed.size() % kPackedPositionWords != 0) {
    std::fprintf(stderr, "baseline: short input file\n");
    std::exit(1);
  }
  outU64.resize(n * 6);
  time("rookAttacks", outU64, [](std::size_t i) { return sliders.rook(sq[i], a[i]); });
  time("bishopAttacks", outU64, [](std::size_t i) { return sliders.bishop(sq[i], a[i]); });
  time("queenAttacks", outU64, [](std::size_t i) { return sliders.queen(sq[i], a[i]); });
  // Both lookups side by side, whatever the addon picked.
  static const MagicSliders magic{magicTables()};
  time("rookAttacksMagic", outU64, [](std::size_t i) { return magic.rook(sq[i], a[i]); });
  time("bishopAttacksMagic", outU64, [](std::size_t i) { return magic.bishop(sq[i], a[i]); });
#if defined(__BMI2__)
  static const PextSliders pext{pextTables()};
  time("rookAttacksPext", outU64, [](std::size_t i) { return pext.rook(sq[i], a[i]); });
  time("bishopAttacksPext", outU64, [](std::size_t i) { return pext.bishop(sq[i], a[i]); });
#endif
  // Checkers, pinned pieces and discovered-check candidates for both colours, per position: the
  // addon's checkAnalysisBatch kernel minus its validation (no packedIsValid here) ...
  timePositions("analysis", packed, [](const Board& board, U64* out) { checkAnalysis(sliders, board, out); });
  {  // ... the kernel itself, validation included (what the addon runs, minus Node-API) ...
    std::vector<double> ns;
    const std::size_t count = packed.size() / kPackedPositionWords;
    for (int s = 0; s <= samples; ++s) {
      const auto t0 = std::chrono::steady_clock::now();
      checkAnalysisBatch(sliders, packed.data(), outU64.data(), count);
      const auto t1 = std::chrono::steady_clock::now();
      if (s > 0) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(count));
      asm volatile("" : : "r"(outU64.data()) : "memory");
    }
    std::sort(ns.begin(), ns.end());
    char buf[96];
    std::snprintf(buf, sizeof buf, ", \"analysisValidated\": %.3f", ns[ns.size() / 2]);
    json += buf;
  }
  // ... and the six single-purpose functions behind checkersBatch & co, one after another.
  timePositions("analysisSeparate", packed, [](const Board& board, U64* out) {
    for (int color = 0; color < 2; ++color) {
      out[color * 3 + 0] = bbp::checkers(sliders, board, color);
      out[color * 3 + 1] = pinnedPieces(sliders, board, color);
      out[color * 3 + 2] = discoveredCheckCandidates(sliders, board, color);
    }
  });
}

// Input: n packed positions (10 words each), then n 16-bit moves (one legal move per position). The
// addon's two motif kernels minus Node-API: analyzeRange with the five motif features (both colours,
// each position validated as the addon does) and seeBatch, median ns per position of as many samples.
void motifs(std::ifstream& in) {
  std::vector<U64> packed(n * kPackedPositionWords);
  std::vector<std::uint16_t> moves(n);
  in.read(reinterpret_cast<char*>(packed.data()), static_cast<std::streamsize>(packed.size() * sizeof(U64)));
  in.read(reinterpret_cast<char*>(moves.data()), static_cast<std::streamsize>(moves.size() * sizeof(std::uint16_t)));
  if (!in) {
    std::fprintf(stderr, "baseline: short input file\n");
    std::exit(1);
  }
  constexpr FeatureId kMotifs[] = {kFeatHanging, kFeatForks, kFeatRelativePins, kFeatSkewers, kFeatDiscoveredAttacks};
  std::vector<U64> outs[5];
  FeatureOutputs o{};
  for (int k = 0; k < 5; ++k) {
    outs[k].resize(2 * n);
    o.out[kMotifs[k]] = outs[k].data();
  }
  std::vector<std::int16_t> see(n);
  const auto median = [](const char* name, auto run) {
    std::vector<double> ns;
    for (int s = 0; s <= samples; ++s) {
      const auto t0 = std::chrono::steady_clock::now();
      run();
      const auto t1 = std::chrono::steady_clock::now();
      if (s > 0) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
    }
    std::sort(ns.begin(), ns.end());
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s\"%s\": %.3f", json.size() > 1 ? ", " : "", name, ns[ns.size() / 2]);
    json += buf;
  };
  median("motifs", [&] {
    if (analyzeRange(sliders, packed.data(), nullptr, 0, n, kMotifFeatures, o) != n) std::exit(3);
    asm volatile("" : : "r"(outs) : "memory");
  });
  median("seeBatch", [&] {
    if (seeBatch(sliders, packed.data(), nullptr, moves.data(), see.data(), n) != -1) std::exit(3);
    asm volatile("" : : "r"(see.data()) : "memory");
  });
}

}  // namespace

// The core's lookup tables and their sizes in bytes (what the addon holds per process).
void tables() {
  auto add = [](const char* name, std::size_t bytes) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s\"%s\": %zu", json.size() > 1 ? ", " : "", name, bytes);
    json += buf;
  };
  add("magic sliders (rook + bishop: entries and attack sets)", sizeof(MagicTables));
  add("PEXT sliders (rook + bishop: entries and attack sets)", sizeof(PextTables));
  add("between + line (64 x 64 each)", sizeof(arrBetween) + sizeof(arrLine));
  add("king, knight, pawn attacks, pawn shields, king bits", sizeof(arrKingAttacks) + sizeof(arrKnightAttacks)
      + sizeof(arrPawnAttacks) + sizeof(arrPawnShieldMask) + sizeof(kingBits));
  add("caughtable area (rule of the square)", sizeof(arrCaughtableArea));
  add("move generation (empty-board rays, castling)", sizeof(movegen::arrEmptyBoardRays) + sizeof(movegen::arrCastlingKeep));
  add("KBNK symmetry maps", sizeof(kbnkSymmetry));
  add("KBNK distance-to-mate table (one per KbnkTablebase, a JS Uint8Array)", kKbnkTableSize);
}

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "tables") {
    tables();
    std::printf("%s}\n", json.c_str());
    return 0;
  }
  if (argc != 5) {
    std::fprintf(stderr, "usage: baseline patterns|checks|motifs <inputs.bin> <n> <samples>\n");
    return 2;
  }
  const std::string mode = argv[1];
  n = std::strtoull(argv[3], nullptr, 10);
  samples = std::atoi(argv[4]);
  std::ifstream in(argv[2], std::ios::binary);
  if (mode == "patterns") patterns(in);
  else if (mode == "checks") checks(in);
  else if (mode == "motifs") motifs(in);
  else return 2;
  std::printf("%s}\n", json.c_str());
  return 0;
}
