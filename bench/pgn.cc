// Plain C++ loop of the PGN reader (native/core/pgn.h) over a file: games/s and MB/s on one core,
// without Node-API. Usage: pgn FILE SAMPLES FLAGS. Reports the median of the samples (wall and CPU,
// as the bench's JS timings) and the best of them.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/pgn.h"

int main(int argc, char** argv) {
  using namespace bbp;
  if (argc < 4) return 2;
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const int samples = std::atoi(argv[2]);
  pgn::Options o;
  o.flags = std::atoi(argv[3]) | pgn::kLastChunk;
  const MagicSliders s{magicTables()};
  // Wall time and this thread's CPU time (the machine may be shared: CPU time is what one core spent).
  const auto cpuNow = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
  };
  std::vector<double> wall, cpus;
  std::size_t games = 0, positions = 0;
  pgn::Output out;  // kept between samples, as the addon keeps its per-thread records
  for (int k = 0; k < samples; ++k) {
    out.clear();
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuNow();
    readPgnGames(s, text.data(), text.size(), o, out);
    const double cpu = cpuNow() - c0;
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    wall.push_back(sec);
    cpus.push_back(cpu);
    games = out.games.size() / pgn::kGameFields;
    positions = out.positionGame.size();
  }
  if (wall.empty()) return 2;
  std::sort(wall.begin(), wall.end());
  std::sort(cpus.begin(), cpus.end());
  const double med = wall[wall.size() / 2], medCpu = cpus[cpus.size() / 2];
  std::printf("{\"games\":%zu,\"positions\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"cpuSeconds\":%.6f,\"bestSeconds\":%.6f,"
              "\"bestCpuSeconds\":%.6f,\"gamesPerSecond\":%.0f,\"mbPerSecond\":%.1f}\n",
              games, positions, text.size(), med, medCpu, wall[0], cpus[0], games / med, text.size() / 1e6 / med);
}
