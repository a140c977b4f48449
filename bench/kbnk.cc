// Plain C++ timing of the full KBNK table generation (native/core/kbnk.h), no Node-API: one thread,
// then one per core. Bishop attacks come from Kogge-Stone fills (no slider tables to build); they are
// computed once per placement, so the lookup does not matter. Prints one JSON object: median
// milliseconds per generation, the thread count, and the longest win found (plies, strong to move).
// Build: g++ -O3 -std=c++17 -pthread [-msse4.1 -mpopcnt] -I native bench/kbnk.cc -o kbnk
// Usage: kbnk [samples = 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/kbnk.h"

using namespace bbp;

namespace {

double medianMs(unsigned threads, int samples, std::vector<std::uint8_t>& table) {
  std::vector<double> ms;
  for (int s = 0; s <= samples; ++s) {  // the first run warms up and is not counted
    const auto t0 = std::chrono::steady_clock::now();
    kbnkGenerate(KoggeStoneBishops{}, table.data(), threads);
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
  std::vector<std::uint8_t> table(kKbnkTableSize);
  const double one = medianMs(1, samples, table);
  const double all = medianMs(cores, samples, table);
  int longest = -1;
  for (std::size_t i = 0; i < kKbnkTableSize / 2; ++i)
    if (table[i] < kKbnkDraw) longest = std::max(longest, static_cast<int>(table[i]));
  std::printf("{\"kbnkGenerate1ThreadMs\": %.2f, \"kbnkGenerateAllThreadsMs\": %.2f, \"threads\": %u, "
              "\"samples\": %d, \"longestWinPlies\": %d}\n",
              one, all, cores, samples, longest);
  return longest == 65 ? 0 : 1;
}
