// Plain C++ perft driver over native/core (no Node): prints nodes and time, the same generator the
// addon runs. The bench harness (or a person) calls it:
//   g++ -std=c++17 -O3 -msse4.1 -mpopcnt -mbmi -mbmi2 bench/perft.cc native/kernels/tables.cc -o /tmp/perft
//       (PEXT sliders)
//   g++ -std=c++17 -O3 bench/perft.cc native/kernels/tables.cc -o /tmp/perft-portable   (magic sliders)
//   /tmp/perft [--stats] [--divide] [--magic] DEPTH [FEN...]   (FEN: six fields, or startpos; a
//       castling field of rook files, Shredder-FEN, gives a Chess960 position)
// (native/kernels/tables.cc defines the slider tables, magicTables() and pextTables().)
// Output, one line per position: `nodes=<n> ns=<t> mnps=<n/t*1000> cpu_mnps=<n per CPU second>`
// (plus the stats columns with --stats, a line per root move with --divide). Single-threaded. The
// CPU figure (CLOCK_THREAD_CPUTIME_ID) is the one to quote on a machine other programs share, where
// the wall clock also counts the time the thread waited for its core.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <time.h>

#include "../native/core/perft.h"


namespace {

using bbp::Board;
using bbp::U64;

// A small FEN reader for the driver: placement, side, castling, en passant; clocks ignored.
// Returns false on anything it does not understand.
bool parseFen(const std::string& fen, Board& b) {
  b = Board{};
  b.epSquare = bbp::kNoSquare;
  std::size_t i = 0;
  int rank = 7, file = 0;
  for (; i < fen.size() && fen[i] != ' '; ++i) {
    const char c = fen[i];
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else {
      const char* kinds = "pnbrqk";
      const char* at = std::strchr(kinds, c | 0x20);
      if (!at || rank < 0 || file > 7) return false;
      const U64 bit = U64{1} << (8 * rank + file++);
      b.pieces[at - kinds] |= bit;
      b.colors[(c & 0x20) ? 1 : 0] |= bit;
    }
  }
  if (++i >= fen.size()) return false;
  b.sideToMove = fen[i] == 'b' ? 1 : 0;
  i += 2;
  for (; i < fen.size() && fen[i] != ' '; ++i) {
    switch (fen[i]) {
      case 'K': b.castling |= bbp::kWhiteKing; break;
      case 'Q': b.castling |= bbp::kWhiteQueen; break;
      case 'k': b.castling |= bbp::kBlackKing; break;
      case 'q': b.castling |= bbp::kBlackQueen; break;
      case '-': break;
      default: {
        // Shredder-FEN (a rook file per right) makes a Chess960 position: the right's side is the
        // side of the king the rook stands on.
        const char lower = fen[i] | 0x20;
        if (lower < 'a' || lower > 'h') return false;
        const int color = (fen[i] & 0x20) ? 1 : 0, rookFile = lower - 'a';
        const U64 king = b.pieceSet(color, bbp::kKing) & (U64{0xff} << (color ? 56 : 0));
        if (!king) return false;
        const int r = 2 * color + (rookFile < (__builtin_ctzll(king) & 7) ? 1 : 0);
        b.castling |= 1 << r;
        b.rookFields |= (rookFile ^ bbp::kStandardRookFile[r]) << (3 * r);
        b.chess960 = true;
      }
    }
  }
  ++i;
  if (i + 1 < fen.size() && fen[i] >= 'a' && fen[i] <= 'h') b.epSquare = (fen[i + 1] - '1') * 8 + (fen[i] - 'a');
  return __builtin_popcountll(b.pieceSet(0, bbp::kKing)) == 1 && __builtin_popcountll(b.pieceSet(1, bbp::kKing)) == 1;
}

const char* kStatNames[bbp::kPerftStatsColumns] = {
  "nodes", "captures", "enPassant", "castles", "promotions", "checks", "discoveryChecks", "doubleChecks", "checkmates",
};

long long cpuNow() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

template <class Sliders>
void run(const Sliders& s, const Board& b, int depth, bool stats, bool divide) {
  const auto start = std::chrono::steady_clock::now();
  const long long cpuStart = cpuNow();
  U64 nodes = 0;
  bbp::PerftStats st;
  if (divide && depth >= 1) {
    bbp::Move moves[bbp::kMaxMoves];
    const int n = bbp::legalMoves(s, b, moves);
    for (int k = 0; k < n; ++k) {
      const bbp::Move m = moves[k];
      // The child by the generator's own make: find the move again through a one-move sink.
      U64 sub = 0;
      auto visit = [&](const Board& child) { sub = bbp::perft(s, child, depth - 1); };
      bbp::Move seen[bbp::kMaxMoves];
      int index = 0;
      auto pick = [&](const Board& child) {
        if (seen[index++] == m) visit(child);
      };
      bbp::legalMoves(s, b, seen);
      if (b.sideToMove == 0) {
        bbp::movegen::ChildSink<0, decltype(pick)> sink{b, pick};
        bbp::movegen::generate<0>(s, b, sink);
      } else {
        bbp::movegen::ChildSink<1, decltype(pick)> sink{b, pick};
        bbp::movegen::generate<1>(s, b, sink);
      }
      const char* promo = " nbrq";
      std::printf("%c%d%c%d%c %llu\n", 'a' + bbp::moveFrom(m) % 8, bbp::moveFrom(m) / 8 + 1, 'a' + bbp::moveTo(m) % 8,
                  bbp::moveTo(m) / 8 + 1, promo[bbp::movePromotion(m)], static_cast<unsigned long long>(sub));
      nodes += sub;
    }
  } else if (stats) {
    st = bbp::perftStats(s, b, depth);
    nodes = st.column[bbp::kStatNodes];
  } else {
    nodes = bbp::perft(s, b, depth);
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
  const long long cpuNs = cpuNow() - cpuStart;
  std::printf("nodes=%llu ns=%lld mnps=%.1f cpu_mnps=%.1f", static_cast<unsigned long long>(nodes),
              static_cast<long long>(ns), ns ? 1000.0 * static_cast<double>(nodes) / static_cast<double>(ns) : 0.0,
              cpuNs ? 1000.0 * static_cast<double>(nodes) / static_cast<double>(cpuNs) : 0.0);
  if (stats)
    for (int c = 1; c < bbp::kPerftStatsColumns; ++c)
      std::printf(" %s=%llu", kStatNames[c], static_cast<unsigned long long>(st.column[c]));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool stats = false, divide = false, magic = false;
  int a = 1;
  for (; a < argc && argv[a][0] == '-'; ++a) {
    if (!std::strcmp(argv[a], "--stats")) stats = true;
    else if (!std::strcmp(argv[a], "--divide")) divide = true;
    else if (!std::strcmp(argv[a], "--magic")) magic = true;
    else return std::fprintf(stderr, "unknown option %s\n", argv[a]), 2;
  }
  if (a >= argc)
    return std::fprintf(stderr, "usage: perft [--stats] [--divide] [--magic] DEPTH [FEN|startpos]...\n"), 2;
  const int depth = std::atoi(argv[a++]);
  if (depth < 0 || depth > bbp::kMaxPerftDepth) return std::fprintf(stderr, "depth must be 0..20\n"), 2;
  const char* startpos = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  std::string fens[64];
  int count = 0;
  for (; a < argc && count < 64; ++a) fens[count++] = std::strcmp(argv[a], "startpos") ? argv[a] : startpos;
  if (!count) fens[count++] = startpos;
  // Build the slider tables before any timing starts.
  bbp::magicTables();
#if defined(__BMI2__)
  bbp::pextTables();
#endif
  for (int k = 0; k < count; ++k) {
    Board b;
    if (!parseFen(fens[k], b)) return std::fprintf(stderr, "cannot read FEN %s\n", fens[k].c_str()), 2;
#if defined(__BMI2__)
    if (!magic) {
      run(bbp::PextSliders{bbp::pextTables()}, b, depth, stats, divide);
      continue;
    }
#endif
    (void)magic;
    run(bbp::MagicSliders{bbp::magicTables()}, b, depth, stats, divide);
  }
  return 0;
}
