// The PGN reader (native/core/pgn.h) in the WebAssembly build: one read of text the JS side copied
// into linear memory, its records left in this module's memory for the JS side to copy out. The
// records of one read stay valid until the next read.
#include <cstdint>

#include "../core/pgn.h"

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

namespace {
bbp::pgn::Output out;
// For each of the ten record arrays (PgnRecords order: games, moves, san, tags, comments, nags,
// positions, positionGame, positionPly, annotations): its address and its length in elements; then
// consumed, consumedLine, and 1 when memory ran out.
std::uint32_t table[23];

template <typename T>
void put(int i, const bbp::pgn::Buf<T>& b) {
  table[2 * i] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(b.data()));
  table[2 * i + 1] = static_cast<std::uint32_t>(b.size());
}
}  // namespace

BBP_EXPORT(bbp_pgn_read)
const std::uint32_t* bbp_pgn_read(const char* text, std::size_t length, int flags, int every, int fromPly, int firstLine,
                                  std::uint32_t gameBase) {
  bbp::pgn::Options o;
  o.flags = flags;
  o.every = every;
  o.fromPly = fromPly;
  o.firstLine = firstLine < 1 ? 1 : firstLine;
  o.gameBase = gameBase;
  out.clear(std::size_t{16} << 20);
  bbp::readPgnGames(bbp::MagicSliders{bbp::magicTables()}, text, length, o, out);
  put(0, out.games);
  put(1, out.moves);
  put(2, out.san);
  put(3, out.tags);
  put(4, out.comments);
  put(5, out.nags);
  put(6, out.positions);
  put(7, out.positionGame);
  put(8, out.positionPly);
  put(9, out.annotations);
  table[20] = static_cast<std::uint32_t>(out.consumed);
  table[21] = static_cast<std::uint32_t>(out.consumedLine);
  table[22] = out.failed() ? 1 : 0;
  return table;
}
