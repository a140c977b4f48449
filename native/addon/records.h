// The NDJSON / CSV records of the analyze command: a fast appending writer and the formatter of one
// chunk's records, shared by formatRecords (batch.cc) and the analyze command's native pipeline
// (analyze_file.cc), which runs it on its own threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "args.h"

namespace bbp::addon {

// Appends through a raw pointer: the caller reserves a record's worst case once (room()), then
// every put is a plain store. The memory is per thread and kept from one call to the next (each CLI
// worker formats ~5 MB per chunk), so it is neither zeroed nor page-faulted again every chunk.
class Writer {
 public:
  Writer() : Writer(scratch()) {}
  // Into `buf` (its bytes from the start; it keeps its memory from call to call as the scratch does).
  explicit Writer(std::vector<char>& buf) : buf_(buf) { p_ = buf_.data(); end_ = p_ + buf_.size(); }
  // Straight into the caller's `cap` bytes at `into` while the bytes fit; when they do not, what is
  // written moves to the scratch and the rest follows it there (spilled() then says so).
  Writer(char* into, std::size_t cap) : buf_(scratch()), ext_(cap ? into : nullptr) {
    p_ = ext_ ? ext_ : buf_.data();
    end_ = ext_ ? ext_ + cap : p_ + buf_.size();
  }
  ~Writer() {
    if (buf_.size() > kKeepBytes) std::vector<char>().swap(buf_);  // a one-off huge call: give it back
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // At least n more bytes may be put without checking.
  void room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) >= n) return;
    const std::size_t used = size();
    if (ext_) {
      if (buf_.size() < used + n) buf_.resize(used + n + (std::size_t{1} << 16));
      if (used) std::memcpy(buf_.data(), ext_, used);
      ext_ = nullptr;
      p_ = buf_.data() + used;
      end_ = buf_.data() + buf_.size();
      return;
    }
    buf_.resize(std::max(buf_.size() * 2, used + n + (std::size_t{1} << 16)));
    p_ = buf_.data() + used;
    end_ = buf_.data() + buf_.size();
  }
  void put(char c) { *p_++ = c; }
  // For writers that store through the pointer themselves (within the room reserved).
  char* cursor() { return p_; }
  void advance(std::size_t n) { p_ += n; }
  void put(const char* s, std::size_t n) {
    std::memcpy(p_, s, n);
    p_ += n;
  }
  // The first n bytes of a 32-byte block (all 32 are stored: needs room 32).
  void putPadded(const char (&block)[32], std::size_t n) {
    std::memcpy(p_, block, 32);
    p_ += n;
  }
  template <std::size_t N>
  void lit(const char (&s)[N]) { put(s, N - 1); }
  void number(std::uint64_t v) {
    char tmp[20];
    char* e = tmp + sizeof tmp;
    char* q = e;
    do *--q = static_cast<char>('0' + v % 10);
    while ((v /= 10));
    put(q, static_cast<std::size_t>(e - q));
  }
  void small(unsigned v) {  // 0..255
    if (v >= 100) *p_++ = static_cast<char>('0' + v / 100), v %= 100, *p_++ = static_cast<char>('0' + v / 10);
    else if (v >= 10) *p_++ = static_cast<char>('0' + v / 10);
    *p_++ = static_cast<char>('0' + v % 10);
  }
  // 0x and the digits, no leading zeros. All 16 digits are made at once (eight per word: nibbles
  // spread to bytes, then '0' or 'a' - 10 added) from v shifted so its first digit leads, and stored
  // whole; the pointer then moves past the n that count. Needs room 18.
  void hex(std::uint64_t v) {
    const int n = (4 + msb(v | 1)) >> 2;
    v <<= 4 * (16 - n);
    p_[0] = '0', p_[1] = 'x';
    const std::uint64_t hi = hexDigits(v >> 32), lo = hexDigits(v & 0xffffffffu);
    std::memcpy(p_ + 2, &hi, 8);
    std::memcpy(p_ + 10, &lo, 8);
    p_ += n + 2;
  }
  // JSON.stringify's escapes: \" \\ \b \f \n \r \t, other controls as \u00xx. Needs room 2 + 6n.
  void jsonString(const char* s, std::size_t n) {
    put('"');
    std::size_t i = 0;
    for (;;) {
      std::size_t run = i;
      while (run < n && !needsJsonEscape(static_cast<unsigned char>(s[run]))) ++run;
      put(s + i, run - i);
      if (run == n) break;
      const unsigned char c = static_cast<unsigned char>(s[run]);
      switch (c) {
        case '"': lit("\\\""); break;
        case '\\': lit("\\\\"); break;
        case '\b': lit("\\b"); break;
        case '\f': lit("\\f"); break;
        case '\n': lit("\\n"); break;
        case '\r': lit("\\r"); break;
        case '\t': lit("\\t"); break;
        default: {
          static const char digits[] = "0123456789abcdef";
          lit("\\u00");
          put(digits[c >> 4]);
          put(digits[c & 15]);
        }
      }
      i = run + 1;
    }
    put('"');
  }
  // Always quoted, quotes doubled. Needs room 2 + 2n.
  void csvString(const char* s, std::size_t n) {
    put('"');
    for (;;) {
      const char* q = static_cast<const char*>(std::memchr(s, '"', n));
      if (!q) break;
      const std::size_t k = static_cast<std::size_t>(q - s) + 1;
      put(s, k);
      put('"');
      s += k, n -= k;
    }
    put(s, n);
    put('"');
  }
  std::size_t size() const { return static_cast<std::size_t>(p_ - data()); }
  const char* data() const { return ext_ ? ext_ : buf_.data(); }
  // The bytes did not fit the caller's memory (Writer(into, cap)): they are in the scratch.
  bool spilled() const { return ext_ == nullptr; }

 private:
  static constexpr std::size_t kKeepBytes = std::size_t{64} << 20;
  // Eight hex digits of x (32 bits) as the bytes of a word, first digit in the lowest byte.
  static std::uint64_t hexDigits(std::uint64_t x) {
    x = ((x & 0xffff0000u) << 16) | (x & 0xffffu);
    x = ((x & 0x0000ff000000ff00ULL) << 8) | (x & 0x000000ff000000ffULL);
    x = ((x & 0x00f000f000f000f0ULL) << 4) | (x & 0x000f000f000f000fULL);  // byte k: nibble k (low first)
    const std::uint64_t letters = ((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;  // nibble > 9
    x += 0x3030303030303030ULL + letters * 39;  // '0' + nibble, or 'a' + nibble - 10
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return x;
#else
    return byteSwap(x);  // most significant digit first in memory
#endif
  }
  static bool needsJsonEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }
  static std::vector<char>& scratch() {
    thread_local std::vector<char> buf;
    return buf;
  }
  std::vector<char>& buf_;
  char* p_;
  char* end_;
  char* ext_ = nullptr;  // the caller's memory, until the bytes spill into buf_
};

// The feature values of a record, in `order` (FEATURES planes in `outs`, one entry per position):
// NDJSON (format 0) ,"name":value with pairs as [a,b], bitboards as "0x..." strings (JSON numbers
// cannot hold 64 bits), flags as true / false; CSV (format 1) ,value with bitboards as 0x... and
// flags as 1 / 0. `bound`: the most bytes one record's values take (reserve it before put).
class FeatureColumns {
 public:
  FeatureColumns(const std::uint8_t* order, std::size_t orderLength, int format) : format_(format) {
    for (std::size_t j = 0; j < orderLength; ++j) {
      const unsigned f = order[j];
      Column c{f, featureWidth(f), isU64Feature(f), isFlagFeature(f), 0, {}};
      std::string key = format == 0 ? std::string(",\"") + kFeatureNames[f] + "\":" : ",";
      if (format == 0 && c.width == 2) key += '[';
      c.keyLength = std::min(key.size(), sizeof c.key);  // the longest key, ,"discoveredCheckCandidates":, has 29
      std::memcpy(c.key, key.data(), c.keyLength);
      bound += sizeof c.key + c.width * 24 + 2;
      columns_.push_back(c);
    }
  }
  std::size_t bound = 0;
  // Position i's values.
  void put(Writer& w, const void* const* outs, std::size_t i) const {
    for (const Column& c : columns_) {
      w.putPadded(c.key, c.keyLength);
      for (unsigned k = 0; k < c.width; ++k) {
        if (k) w.put(',');
        if (c.u64) {
          if (format_ == 0) w.put('"');
          w.hex(static_cast<const U64*>(outs[c.f])[i * c.width + k]);
          if (format_ == 0) w.put('"');
        } else {
          const unsigned v = static_cast<const std::uint8_t*>(outs[c.f])[i * c.width + k];
          if (c.flag && format_ == 0) {
            if (v) w.lit("true");
            else w.lit("false");
          } else {
            w.small(v);
          }
        }
      }
      if (format_ == 0 && c.width == 2) w.put(']');
    }
  }

 private:
  // What goes before a feature's values (NDJSON: ,"name": and [ for pairs; CSV: ,), stored padded to
  // 32 bytes and copied whole (a fixed-size copy, no call).
  struct Column {
    unsigned f, width;
    bool u64, flag;
    std::size_t keyLength;
    char key[32];
  };
  int format_;
  std::vector<Column> columns_;
};

// kFeatureNames: generated with FeatureId from lib/core/features.ts (native/core/generated/features.h).

// The records of lines 0..n-1 of `data` (line i is data[starts[i], starts[i + 1] - 1)), numbered from
// firstLine: one per line whose valid[i] is set (the others are left to the caller, which writes the
// error records), with the features of `order` from `outs` (FEATURES planes, n positions each), in
// NDJSON (format 0) or CSV (format 1). recordStart (n + 1 entries, or nullptr): where each line's
// record starts in w, the record of line i being empty when valid[i] is 0.
inline void formatRecordLines(Writer& w, const char* data, const std::uint32_t* starts, const std::uint8_t* valid,
                              std::size_t n, const std::uint8_t* order, std::size_t orderLength,
                              const void* const* outs, int format, std::uint64_t firstLine, std::uint32_t* recordStart) {
  const FeatureColumns columns(order, orderLength, format);
  const std::size_t recordBound = 64 + 4 + columns.bound;  // line number, punctuation, the end
  for (std::size_t i = 0; i < n; ++i) {
    if (recordStart) recordStart[i] = static_cast<std::uint32_t>(w.size());
    if (!valid[i]) continue;  // error records are written by the caller
    // The input echo: the line with ASCII white space trimmed at both ends.
    std::size_t a = starts[i], e = starts[i + 1] - 1;
    while (a < e && (data[a] == ' ' || (data[a] >= 9 && data[a] <= 13))) ++a;
    while (e > a && (data[e - 1] == ' ' || (data[e - 1] >= 9 && data[e - 1] <= 13))) --e;
    w.room(recordBound + 6 * (e - a));
    const std::uint64_t line = firstLine + i;
    if (format == 0) {
      w.lit("{\"line\":");
      w.number(line);
      w.lit(",\"input\":");
      w.jsonString(data + a, e - a);
    } else {
      w.number(line);
      w.put(',');
      w.csvString(data + a, e - a);
    }
    columns.put(w, outs, i);
    if (format == 0) w.lit("}\n");
    else w.lit(",\n");  // CSV: the empty error column
  }
  if (recordStart) recordStart[n] = static_cast<std::uint32_t>(w.size());
}

// A FEN rank by its occupancy (bit f: file f holds a piece): the text with a placeholder for each
// piece and a digit for each run of empty squares, its length, and for each of its first 8 bytes
// where it comes from in putFen's 16-byte rank buffer (the file's letter 0..7, or 8 + the byte
// itself from the text).
struct FenRank {
  char text[8];
  std::uint8_t length;
  std::uint8_t from[8];
};
struct FenRanks {
  FenRank rank[256];
  constexpr FenRanks() : rank{} {
    for (unsigned occ = 0; occ < 256; ++occ) {
      FenRank& r = rank[occ];
      unsigned n = 0, empty = 0;
      for (unsigned f = 0; f < 8; ++f) {
        if (!(occ >> f & 1)) {
          ++empty;
          continue;
        }
        if (empty) r.text[n] = static_cast<char>('0' + empty), r.from[n] = static_cast<std::uint8_t>(8 + n), ++n, empty = 0;
        r.text[n] = '?';
        r.from[n++] = static_cast<std::uint8_t>(f);
      }
      if (empty) r.text[n] = static_cast<char>('0' + empty), r.from[n] = static_cast<std::uint8_t>(8 + n), ++n;
      r.length = static_cast<std::uint8_t>(n);
      for (unsigned k = n; k < 8; ++k) r.from[k] = static_cast<std::uint8_t>(8 + k);
    }
  }
};
inline constexpr FenRanks kFenRanks{};
// Byte f of kByteMasks.m[b] is 0xff where bit f of b is set: a rank of a bitboard as byte masks.
struct ByteMasks {
  std::uint64_t m[256];
  constexpr ByteMasks() : m{} {
    for (unsigned b = 0; b < 256; ++b)
      for (unsigned f = 0; f < 8; ++f)
        if (b >> f & 1) m[b] |= std::uint64_t{0xff} << (8 * f);
  }
};
inline constexpr ByteMasks kByteMasks{};
// The most bytes putFen writes (at most 100: 71 of placement, 7 and 10 digits of clocks), with
// margin for its 8-byte stores.
constexpr std::size_t kFenRoom = 112;

// The FEN of a packed position (native/core/position.h's words), as the analyze command writes it:
// placement, side, castling (K Q k q from the castling bits, '-' for none), en passant, halfmove
// clock (bits 16..35 of the state word), fullmove number (the low 32 bits of word 9). A square in
// more than one piece set shows the last type's letter, in the colour of the white set. The same
// bytes as the pipeline's JS writer (fenInto in lib/cli/pgn-input.ts). Needs room kFenRoom.
// Without a branch per piece: each rank's letters are made 8 at a time from byte masks of the
// piece sets (kByteMasks), lowered for black, and the rank's text is its occupancy's template
// (kFenRanks) with each byte taken from the letters or the template.
inline void putFen(Writer& w, const U64* words) {
  constexpr U64 kOnes = 0x0101010101010101ULL;
  static constexpr U64 kLetters[6] = {kOnes * 'P', kOnes * 'N', kOnes * 'B', kOnes * 'R', kOnes * 'Q', kOnes * 'K'};
  const U64 occupied = words[2] | words[3] | words[4] | words[5] | words[6] | words[7];
  char* p = w.cursor();
  for (int r = 7; r >= 0; --r) {
    const int shift = 8 * r;
    const unsigned occ = static_cast<unsigned>(occupied >> shift) & 255;
    U64 letters = 0;
    for (int t = 0; t < 6; ++t) {
      const U64 m = kByteMasks.m[static_cast<unsigned>(words[2 + t] >> shift) & 255];
      letters = (letters & ~m) | (m & kLetters[t]);
    }
    letters |= kByteMasks.m[occ] & ~kByteMasks.m[static_cast<unsigned>(words[0] >> shift) & 255] & (kOnes * 0x20);
    const FenRank& rank = kFenRanks.rank[occ];
    char both[16];
    for (int f = 0; f < 8; ++f) both[f] = static_cast<char>(letters >> (8 * f));
    std::memcpy(both + 8, rank.text, 8);
    for (int k = 0; k < 8; ++k) p[k] = both[rank.from[k]];
    p += rank.length;
    *p = '/';
    p += r != 0;
  }
  w.advance(static_cast<std::size_t>(p - w.cursor()));
  const U64 st = words[8];
  w.put(' ');
  w.put(st & 1 ? 'b' : 'w');
  w.put(' ');
  const unsigned castle = static_cast<unsigned>(st >> 1) & 15;
  if (!castle) w.put('-');
  if (castle & 1) w.put('K');
  if (castle & 2) w.put('Q');
  if (castle & 4) w.put('k');
  if (castle & 8) w.put('q');
  w.put(' ');
  const unsigned ep = static_cast<unsigned>(st >> 8) & 255;
  if (ep >= 64) w.put('-');
  else w.put(static_cast<char>('a' + (ep & 7))), w.put(static_cast<char>('1' + (ep >> 3)));
  w.put(' ');
  w.number((st >> 16) & 0xfffff);
  w.put(' ');
  w.number(words[9] & 0xffffffffu);
}

}  // namespace bbp::addon
