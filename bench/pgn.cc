// Plain C++ loop of the PGN reader (native/core/pgn.h) over a file: games/s and MB/s on one core,
// without Node-API. Usage: pgn FILE SAMPLES FLAGS
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

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
  double best = 1e30, bestCpu = 1e30;
  std::size_t games = 0, positions = 0;
  pgn::Output out;  // kept between samples, as the addon keeps its per-thread records
  for (int k = 0; k < samples; ++k) {
    out.clear();
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuNow();
    readPgnGames(s, text.data(), text.size(), o, out);
    const double cpu = cpuNow() - c0;
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sec < best) best = sec;
    if (cpu < bestCpu) bestCpu = cpu;
    games = out.games.size() / pgn::kGameFields;
    positions = out.positionGame.size();
  }
  std::printf("{\"games\":%zu,\"positions\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"cpuSeconds\":%.6f,\"gamesPerSecond\":%.0f,\"mbPerSecond\":%.1f}\n", games,
              positions, text.size(), best, bestCpu, games / best, text.size() / 1e6 / best);
}
