// Plain C++ loop of the PGN reader (native/core/pgn.h) over a file: games/s and MB/s on one core,
// without Node-API. Usage: pgn FILE SAMPLES FLAGS
#include <chrono>
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
  double best = 1e30;
  std::size_t games = 0, positions = 0;
  for (int k = 0; k < samples; ++k) {
    pgn::Output out;
    const auto t0 = std::chrono::steady_clock::now();
    readPgnGames(s, text.data(), text.size(), o, out);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sec < best) best = sec;
    games = out.games.size() / pgn::kGameFields;
    positions = out.positionGame.size();
  }
  std::printf("{\"games\":%zu,\"positions\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"gamesPerSecond\":%.0f,\"mbPerSecond\":%.1f}\n", games,
              positions, text.size(), best, games / best, text.size() / 1e6 / best);
}
