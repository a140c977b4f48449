// Plain C++ timing of the full KBNK table generation, no Node-API: the KBNvK case of the general
// set-wise retrograde generator (native/core/tbgen.h) with its sub-endings KvK, KBvK and KNvK first,
// as KbnkTablebase.generate does, on one thread, then on one per core. Prints one JSON object: median
// milliseconds per generation, the thread count, and the longest win found (plies, strong to move).
// Build: g++ -O3 -std=c++17 -pthread [-msse4.1 -mpopcnt] -I native bench/kbnk.cc native/kernels/tables.cc -o kbnk
// Usage: kbnk [samples = 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/tbgen.h"

using namespace bbp;

namespace {

// The KBNvK table and its sub-endings, each generated from the ones before it.
void generateKbnk(const MagicSliders& sliders, unsigned threads, std::vector<std::uint8_t>& table) {
  static const char* const kSubs[] = {"KvK", "KBvK", "KNvK"};
  std::vector<std::vector<std::uint8_t>> subTables;
  std::vector<TbSubTable> subs;
  subTables.reserve(3);
  for (const char* name : kSubs) {
    TbMaterial m;
    tbParseMaterial(name, m);
    subTables.emplace_back(m.tableSize());
    tbGenerate(sliders, m, subTables.back().data(), subs.data(), static_cast<int>(subs.size()), threads);
    subs.push_back({m, subTables.back().data()});
  }
  TbMaterial kbnk;
  tbParseMaterial("KBNvK", kbnk);
  tbGenerate(sliders, kbnk, table.data(), subs.data(), static_cast<int>(subs.size()), threads);
}

double medianMs(const MagicSliders& sliders, unsigned threads, int samples, std::vector<std::uint8_t>& table) {
  std::vector<double> ms;
  for (int s = 0; s <= samples; ++s) {  // the first run warms up and is not counted
    const auto t0 = std::chrono::steady_clock::now();
    generateKbnk(sliders, threads, table);
    const auto t1 = std::chrono::steady_clock::now();
    if (s > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const MagicSliders sliders{magicTables()};
  std::vector<std::uint8_t> table(kKbnkTableSize);
  const double one = medianMs(sliders, 1, samples, table);
  const double all = medianMs(sliders, cores, samples, table);
  int longest = -1;
  for (std::size_t i = 0; i < kKbnkTableSize / 2; ++i)
    if (table[i] < kKbnkDraw) longest = std::max(longest, static_cast<int>(table[i]));
  std::printf("{\"kbnkGenerate1ThreadMs\": %.2f, \"kbnkGenerateAllThreadsMs\": %.2f, \"threads\": %u, "
              "\"samples\": %d, \"longestWinPlies\": %d}\n",
              one, all, cores, samples, longest);
  return longest == 65 ? 0 : 1;
}
