// The Syzygy prober (native/core/syzygy.h) in the WebAssembly build, over table files the JS side
// copied into linear memory (a page has no files to map): a set owns the bytes it is given, parses
// each table on first use, and probes as the addon's glue does (native/addon/syzygy.cc). A damaged
// table leaves its index and problem in the set for the JS side to turn into a SyzygyFileError.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "../core/syzygy.h"

#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))

namespace sz = bbp::syzygy;

namespace {

using sz::kDtzNone;
using sz::kWdlNone;

// The slider lookup of the probe search (movegen.h's generator), made once.
const bbp::MagicSliders& sliders() {
  static const bbp::MagicSliders s{bbp::magicTables()};
  return s;
}

// One table file (syzygy.h's TableEntry, with the bytes the JS side copied in).
struct Entry : sz::TableEntry {
  std::uint8_t* data = nullptr;  // owned (malloc'd by the JS side through bbp_alloc)
  std::size_t size = 0;
  int state = 0;  // 0 not parsed, 1 parsed, 2 damaged
  ~Entry() { std::free(data); }
};

struct Set : sz::TableEntries<Entry> {
  Entry* lastFailed = nullptr;
  // The failure of the last call: [entry index, problem, parse failed] and its message.
  std::int32_t failure[3] = {-1, 0, 0};
  const char* failureMessage = nullptr;

  // Each entry is parsed on its first use (one thread).
  const sz::Table* get(bool isDtz, sz::MaterialKey key, sz::Status& status) {
    return sz::loadedTable(isDtz ? dtz : wdl, key, status, lastFailed, [](Entry& e) {
      if (e.state == 0) e.state = e.parse(e.data, e.size) ? 1 : 2;
      return e.state == 1;
    });
  }

  // After a probe: false when it has no answer; the failure recorded for a damaged file.
  bool answered(const sz::Prober<Set>& prober) {
    if (prober.status == sz::kOk) return true;
    if (prober.status != sz::kMissing) {
      int i = prober.failedTable ? indexOfTable(prober.failedTable) : indexOf(lastFailed);
      if (i < 0) i = 0;
      const Entry& e = *entries[static_cast<std::size_t>(i)];
      const bool parseFailed = e.state == 2;
      failure[0] = i;
      failure[1] = parseFailed ? e.problem : prober.status;
      failure[2] = parseFailed ? 1 : 0;
      failureMessage = parseFailed ? e.message : "damaged table data (an index, block or value out of range)";
    }
    return false;
  }

  bool board(const std::uint64_t* words, sz::Board& b) const {
    int castling, count;
    return sz::boardFromPacked(sliders(), words, b, castling, count) && !castling && count <= maxPieces;
  }

  int probe(const std::uint64_t* words, bool isDtz) {
    sz::Board b;
    const int none = isDtz ? kDtzNone : kWdlNone;
    if (!board(words, b)) return none;
    lastFailed = nullptr;
    sz::Prober<Set> prober(*this, sliders());
    const int v = isDtz ? prober.dtz(b) : prober.wdl(b);
    return answered(prober) ? v : none;
  }
};

}  // namespace

BBP_EXPORT(bbp_tb_open) Set* bbp_tb_open() { return new Set(); }
BBP_EXPORT(bbp_tb_close) void bbp_tb_close(Set* set) { delete set; }

// A table file: its name without the extension ("KQvK"), dtz 0 (.rtbw) or 1 (.rtbz), and its bytes,
// which the set owns from here on (freed with the set, or now when the file is not taken). Returns
// its entry index, or -1 when not taken (not a table name, or a table already there).
BBP_EXPORT(bbp_tb_add) int bbp_tb_add(Set* set, const char* name, std::size_t nameLength, int dtz, std::uint8_t* data,
                                      std::size_t size) {
  sz::MaterialKey key;
  Entry* e = sz::keyFromName(name, nameLength, key) ? set->add(key, dtz != 0) : nullptr;
  if (!e) {
    std::free(data);
    return -1;
  }
  e->data = data;
  e->size = size;
  return static_cast<int>(set->entries.size() - 1);
}

// [entry index (-1: none), problem (syzygy.h Status), 1 when the file itself was refused], cleared.
BBP_EXPORT(bbp_tb_failure) const std::int32_t* bbp_tb_failure(Set* set) { return set->failure; }
BBP_EXPORT(bbp_tb_failure_message) const char* bbp_tb_failure_message(Set* set) { return set->failureMessage; }
BBP_EXPORT(bbp_tb_problem_name) const char* bbp_tb_problem_name(int status) {
  return sz::problemName(static_cast<sz::Status>(status));
}

static void clearFailure(Set* set) {
  set->failure[0] = -1;
  set->failure[1] = 0;
  set->failure[2] = 0;
  set->failureMessage = nullptr;
}

BBP_EXPORT(bbp_tb_probe) int bbp_tb_probe(Set* set, const std::uint64_t* words, int dtz) {
  clearFailure(set);
  return set->probe(words, dtz != 0);
}

// out: int8 (WDL) or int16 (DTZ) per position; valid may be null. Stops at the first damaged file
// (its failure recorded); returns 1 when every position was probed.
BBP_EXPORT(bbp_tb_probe_batch) int bbp_tb_probe_batch(Set* set, const std::uint64_t* in, const std::uint8_t* valid,
                                                      std::size_t n, int dtz, void* out) {
  clearFailure(set);
  for (std::size_t i = 0; i < n; ++i) {
    const int v = valid && !valid[i] ? (dtz ? kDtzNone : kWdlNone) : set->probe(in + 10 * i, dtz != 0);
    if (set->failure[0] >= 0) return 0;
    if (dtz) static_cast<std::int16_t*>(out)[i] = static_cast<std::int16_t>(v);
    else static_cast<std::int8_t*>(out)[i] = static_cast<std::int8_t>(v);
  }
  return 1;
}

// out (3 + 4 * 256 int32): [wdl, dtz, n, then per move: move, wdl, dtz, zeroing | mate << 1], best
// first. Returns 1, or 0 when the tables cannot answer (a failure recorded for a damaged file).
BBP_EXPORT(bbp_tb_probe_root) int bbp_tb_probe_root(Set* set, const std::uint64_t* words, std::int32_t* out) {
  clearFailure(set);
  sz::Board b;
  if (!set->board(words, b)) return 0;
  set->lastFailed = nullptr;
  sz::Prober<Set> prober(*set, sliders());
  static sz::RootMove moves[sz::kMaxMoves];
  const int n = prober.root(b, moves);
  const int wdl = prober.status ? 0 : prober.wdl(b);
  const int dtz = prober.status ? 0 : prober.dtz(b);
  if (!set->answered(prober)) return 0;
  sz::writeRootAnswer(out, wdl, dtz, moves, n);
  return 1;
}

// Parses every table now; 0 with the first damaged one's failure recorded.
BBP_EXPORT(bbp_tb_verify) int bbp_tb_verify(Set* set) {
  clearFailure(set);
  for (std::size_t i = 0; i < set->entries.size(); ++i) {
    Entry& e = *set->entries[i];
    sz::Status status = sz::kOk;
    if (!set->get(e.dtz, e.key, status)) {
      set->failure[0] = static_cast<int>(i);
      set->failure[1] = e.problem;
      set->failure[2] = 1;
      set->failureMessage = e.message;
      return 0;
    }
  }
  return 1;
}
