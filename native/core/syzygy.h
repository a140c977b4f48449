// Syzygy tablebase decoder and probe search (the twin of lib/backends/js/syzygy.ts, step for step).
//
// Format: Ronald de Man's Syzygy tables (generator github.com/syzygy1/tb; Chess Programming Wiki,
// "Syzygy Bases"). Per side to move, and for tables with pawns per file a-d of the leading pawn,
// positions are enumerated by a piece-placement index and stored compressed: a RE-PAIR grammar
// whose symbols are canonical-Huffman coded in fixed-size blocks, found through a sparse index every
// 2^idxbits entries and a table of block lengths. WDL files store WDL + 2; DTZ files store one side
// to move, a distance in plies or moves (per flags) possibly through a value map per WDL class.
// The probe search on top resolves captures and en passant, which the tables leave out; it runs on
// the main board and move generator (position.h, movegen.h), as every other caller of them does.
//
// No I/O and no exceptions here: a Table parses a file image someone else maps; problems are
// status codes with a static message. The glue (native/addon/syzygy.cc, which maps files, and
// native/wasm/bbp_wasm_syzygy.cc, which holds bytes the JS side copied in) keeps its tables in a
// TableEntries set and parses each on first use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "generated/syzygy-values.h"
#include "san.h"

namespace bbp {
namespace syzygy {

using U64 = std::uint64_t;

// Why a probe has no answer (kMissing) or a file was refused (the others; as in lib/backends/js/syzygy.ts).
enum Status : int { kOk = 0, kMissing, kMagic, kSize, kName, kMaterial, kLayout, kData };

inline const char* problemName(Status s) {
  switch (s) {
    case kMagic: return "magic";
    case kSize: return "size";
    case kName: return "name";
    case kMaterial: return "material";
    case kLayout: return "layout";
    case kData: return "data";
    default: return "io";
  }
}

// ---- Square tables (computed from their definitions) ----

constexpr int fileOf(int sq) { return sq & 7; }
constexpr int rankOf(int sq) { return sq >> 3; }
constexpr int offDiag(int sq) { return rankOf(sq) - fileOf(sq); }
constexpr int flipDiag(int sq) { return ((sq >> 3) | (sq << 3)) & 63; }
constexpr int iabs(int x) { return x < 0 ? -x : x; }
constexpr int imin(int a, int b) { return a < b ? a : b; }
constexpr int imax(int a, int b) { return a > b ? a : b; }

constexpr U64 binomial(int n, int k) {
  if (k < 0 || n < k) return 0;
  U64 r = 1;
  for (int i = 0; i < k; ++i) r = r * static_cast<U64>(n - i) / static_cast<U64>(i + 1);
  return r;
}

// The ten classes of the a1-d1-d4 triangle: b1 c1 d1 c2 d2 d3, then the diagonal a1 b2 c3 d4.
inline constexpr int kTriangleOrder[10] = {1, 2, 3, 10, 11, 19, 0, 9, 18, 27};

struct Tables {
  std::int8_t triangle[64];
  std::int8_t lower[64];
  std::int8_t diag[64];
  std::int16_t kk[10][64];
  std::int8_t flap[64];
  std::int8_t ptwist[64];
  std::int8_t invflap[24];
  U64 pawnIndex[5][24];
  U64 pawnFactor[5][4];
};

constexpr bool kingsNear(int a, int b) { return imax(iabs(fileOf(a) - fileOf(b)), iabs(rankOf(a) - rankOf(b))) <= 1; }

constexpr Tables makeTables() {
  Tables t{};
  for (int sq = 0; sq < 64; ++sq) {
    int f = fileOf(sq), r = rankOf(sq);
    if (f > 3) f = 7 - f;
    if (r > 3) r = 7 - r;
    if (r > f) { const int x = f; f = r; r = x; }
    t.triangle[sq] = -1;
    for (int i = 0; i < 10; ++i)
      if (kTriangleOrder[i] == r * 8 + f) t.triangle[sq] = static_cast<std::int8_t>(i);
  }
  int n = 0;
  for (int sq = 0; sq < 64; ++sq)
    if (offDiag(sq) < 0) t.lower[sq] = static_cast<std::int8_t>(n++);
  for (int sq = 0; sq < 64; ++sq)
    if (offDiag(sq) > 0) t.lower[sq] = t.lower[flipDiag(sq)];
  for (int d = 0; d < 8; ++d) t.lower[d * 9] = static_cast<std::int8_t>(28 + d);
  for (int i = 0; i < 8; ++i) {
    t.diag[i * 9] = static_cast<std::int8_t>(i);
    t.diag[7 + i * 7] = static_cast<std::int8_t>(8 + i);
  }
  // two kings: per class, second-king squares not touching the first in square order (below the
  // diagonal only when the first is on it); both kings on the diagonal after all the others
  for (int c = 0; c < 10; ++c)
    for (int sq = 0; sq < 64; ++sq) t.kk[c][sq] = -1;
  n = 0;
  for (int c = 0; c < 10; ++c)
    for (int sq = 0; sq < 64; ++sq) {
      if (kingsNear(kTriangleOrder[c], sq) || (c >= 6 && offDiag(sq) >= 0)) continue;
      t.kk[c][sq] = static_cast<std::int16_t>(n++);
    }
  for (int c = 6; c < 10; ++c)
    for (int sq = 0; sq < 64; ++sq)
      if (offDiag(sq) == 0 && !kingsNear(kTriangleOrder[c], sq)) t.kk[c][sq] = static_cast<std::int16_t>(n++);
  for (int sq = 0; sq < 64; ++sq) {
    const int r = rankOf(sq), f = fileOf(sq);
    if (r < 1 || r > 6) continue;
    const int ff = imin(f, 7 - f);
    t.flap[sq] = static_cast<std::int8_t>(ff * 6 + r - 1);
    t.ptwist[sq] = static_cast<std::int8_t>(12 * (3 - ff) + 2 * (6 - r) + (f < 4 ? 1 : 0));
  }
  for (int j = 0; j < 24; ++j) t.invflap[j] = static_cast<std::int8_t>((j % 6 + 1) * 8 + j / 6);
  for (int k = 0; k < 5; ++k)
    for (int file = 0; file < 4; ++file) {
      U64 s = 0;
      for (int j = file * 6; j < file * 6 + 6; ++j) {
        t.pawnIndex[k][j] = s;
        s += k == 0 ? 1 : binomial(t.ptwist[t.invflap[j]], k);
      }
      t.pawnFactor[k][file] = s;
    }
  return t;
}

inline constexpr Tables kTables = makeTables();
inline constexpr U64 kPivotFactor[3] = {31332, 0, 462};

// ---- Material keys: counts of P N B R Q per colour, 3 bits each, white bits 0..14, black 15..29 ----

using MaterialKey = std::uint32_t;
constexpr MaterialKey mirrorKey(MaterialKey k) { return (k >> 15) | ((k & 0x7fff) << 15); }

// The entry a map from material keys holds for `key` or its mirror (a table file serves both sides'
// material), or nullptr: the lookup of the addon's and the wasm module's table sets.
template <class Map>
auto findTable(const Map& map, MaterialKey key) -> typename Map::mapped_type {
  auto it = map.find(key);
  if (it == map.end()) it = map.find(mirrorKey(key));
  return it == map.end() ? nullptr : it->second;
}

constexpr std::uint32_t kWdlMagic = 0x5d23e871;
constexpr std::uint32_t kDtzMagic = 0xa50c66d7;
constexpr int kMaxPieces = 7;

inline unsigned u16(const std::uint8_t* d, std::size_t p) { return d[p] | (d[p + 1] << 8); }
inline std::uint32_t u32(const std::uint8_t* d, std::size_t p) {
  return d[p] | (d[p + 1] << 8) | (d[p + 2] << 16) | (static_cast<std::uint32_t>(d[p + 3]) << 24);
}
inline std::uint32_t u32be(const std::uint8_t* d, std::size_t p) {
  return (static_cast<std::uint32_t>(d[p]) << 24) | (d[p + 1] << 16) | (d[p + 2] << 8) | d[p + 3];
}

struct Pairs {
  int constValue = 0;
  int idxBits = 0;
  int blockSize = 0;
  U64 realBlocks = 0, sizeBlocks = 0, numIndices = 0;
  int minLen = 0, maxLen = 0;
  int numSyms = 0;
  std::size_t lowestSym = 0, symPat = 0, indexTable = 0, sizeTable = 0, data = 0;
  std::vector<std::uint8_t> symLen;  // values a symbol stands for, minus one (the format keeps it under 256)
  U64 base64[33] = {};  // the same left-aligned in 64 bits
  std::int32_t lowest[33] = {};
  // A one-level lookup table of the canonical Huffman code on its first `fastBits` bits: for every
  // prefix whose code is no longer than that, sym | length << 12 | (values it stands for) << 18, else
  // 0 (a longer code, or one past the symbol table: decoded the long way, which checks it).
  int fastBits = 0;
  std::vector<std::uint32_t> fast;
  // Marks inside the blocks, filled on a block's first use: per block 1 + markCount words (see
  // Table::markBlock), so a walk starts at most markSpacing bits before its symbol. Only for blocks
  // of 32 bytes to 4 KB; the memory is zero pages until used.
  int markCount = 0;
  U64 markSpacing = 0;
  struct FreeMarks {
    void operator()(std::uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint32_t[], FreeMarks> marks;
};

inline constexpr int kMaxMarks = 15;

struct Encoding {
  std::uint8_t pieces[kMaxPieces] = {};
  std::uint8_t norm[kMaxPieces] = {};
  U64 factor[kMaxPieces] = {};
  U64 size = 0;
  Pairs pairs;
};

// A parsed table file (WDL or DTZ) over a file image that outlives it.
class Table {
 public:
  bool dtz = false;
  MaterialKey nameKey = 0, key = 0;
  int pieceCount = 0;
  bool hasPawns = false, symmetric = false, split = false;
  int pawns[2] = {0, 0};
  int encType = 0;
  int files = 1;
  Encoding enc[4][2];
  int dtzFlags[4] = {};
  std::size_t mapStart[4][4] = {};
  unsigned mapLength[4][4] = {};
  const std::uint8_t* d = nullptr;
  std::size_t size = 0;
  const char* message = nullptr;

  // Parses; on failure returns the status and sets `message`.
  Status parse(const std::uint8_t* data, std::size_t length, bool isDtz, MaterialKey name) {
    d = data;
    size = length;
    dtz = isDtz;
    nameKey = name;
    int w[5], b[5];
    countsOf(name, w, b);
    pieceCount = 2;
    for (int t = 0; t < 5; ++t) pieceCount += w[t] + b[t];
    hasPawns = w[0] + b[0] > 0;
    if (length < 16 || length % 64 != 16)
      return fail(kSize, "file size is not 16 more than a multiple of 64 (truncated or not a Syzygy table)");
    if (u32(d, 0) != (dtz ? kDtzMagic : kWdlMagic)) return fail(kMagic, "wrong magic: not a Syzygy table of this kind");
    const int num = pieceCount;
    split = (d[4] & 1) != 0;
    if (((d[4] & 2) != 0) != hasPawns) return fail(kName, "the header says pawns where the file name has none, or the reverse");
    files = hasPawns ? 4 : 1;
    if (hasPawns) {
      const int a = b[0], bb = w[0];
      if (bb > 0 && (a == 0 || bb < a)) { pawns[0] = bb; pawns[1] = a; } else { pawns[0] = a; pawns[1] = bb; }
    } else {
      int unique = 2;
      for (int t = 0; t < 5; ++t) unique += (w[t] == 1) + (b[t] == 1);
      encType = unique >= 3 ? 0 : 2;
    }
    const int sides = !dtz && split ? 2 : 1;
    const int perFile = num + 1 + (pawns[1] > 0 ? 1 : 0);
    std::size_t p = 5;
    if (p + static_cast<std::size_t>(files * perFile) > length) return fail(kLayout, "header runs past the end");
    for (int f = 0; f < files; ++f) {
      for (int s = 0; s < sides; ++s) {
        Encoding& e = enc[f][s];
        const int shift = s == 0 ? 0 : 4;
        const int first = pawns[1] > 0 ? 2 : 1;
        for (int i = 0; i < num; ++i) e.pieces[i] = (d[p + first + i] >> shift) & 15;
        const int order = (d[p] >> shift) & 15;
        const int order2 = pawns[1] > 0 ? (d[p + 1] >> shift) & 15 : 15;
        Status st = checkPieces(e.pieces);
        if (st) return st;
        st = hasPawns ? pawnFactors(e, order, order2, f) : pieceFactors(e, order);
        if (st) return st;
      }
      p += perFile;
    }
    p += p & 1;
    int ew[5] = {}, eb[5] = {};
    for (int i = 0; i < num; ++i) {
      const int c = enc[0][0].pieces[i];
      if ((c & 7) != 6) ++((c & 8) ? eb : ew)[(c & 7) - 1];
    }
    key = keyOf(ew, eb);
    if (key != nameKey && key != mirrorKey(nameKey)) return fail(kMaterial, "the file holds other material than its name says (renamed?)");
    symmetric = key == mirrorKey(key);
    for (int f = 0; f < files; ++f)
      for (int s = 0; s < sides; ++s) {
        if (dtz) dtzFlags[f] = d[p];
        const Status st = readPairs(p, enc[f][s].size, enc[f][s].pairs);
        if (st) return st;
      }
    if (dtz) {
      for (int f = 0; f < files; ++f) {
        const int flags = dtzFlags[f];
        if (!(flags & 2)) continue;
        const bool wide = (flags & 16) != 0;
        if (wide && hasPawns) p += p & 1;
        for (int i = 0; i < 4; ++i) {
          if (p + 2 > length) return fail(kLayout, "value maps run past the end");
          const unsigned len = wide ? u16(d, p) : d[p];
          mapStart[f][i] = p + (wide ? 2 : 1);
          mapLength[f][i] = len;
          p += wide ? 2 + 2 * static_cast<std::size_t>(len) : 1 + static_cast<std::size_t>(len);
        }
      }
      p += p & 1;
    }
    for (int f = 0; f < files; ++f)
      for (int s = 0; s < sides; ++s) {
        Pairs& pr = enc[f][s].pairs;
        pr.indexTable = p;
        if (pr.idxBits) p += 6 * pr.numIndices;
      }
    for (int f = 0; f < files; ++f)
      for (int s = 0; s < sides; ++s) {
        Pairs& pr = enc[f][s].pairs;
        pr.sizeTable = p;
        if (pr.idxBits) p += 2 * pr.sizeBlocks;
      }
    for (int f = 0; f < files; ++f)
      for (int s = 0; s < sides; ++s) {
        Pairs& pr = enc[f][s].pairs;
        if (!pr.idxBits) continue;
        p = (p + 63) & ~static_cast<std::size_t>(63);
        pr.data = p;
        p += pr.realBlocks << pr.blockSize;
        if (p > length) break;
      }
    if (p > length) return fail(kSize, "the tables need more bytes than the file has (truncated)");
    for (int f = 0; f < files; ++f)
      for (int s = 0; s < sides; ++s) allocateMarks(enc[f][s].pairs);
    return kOk;
  }

  // The stored value at `index` (WDL 0..4, DTZ 0..4095), or -1 with `status` set when the data is damaged.
  int decompress(const Pairs& pr, U64 index, Status& status) const {
    if (!pr.idxBits) return pr.constValue;
    const U64 main = index >> pr.idxBits;
    if (main >= pr.numIndices) return bad(status);
    long long lit = static_cast<long long>(index & ((U64{1} << pr.idxBits) - 1)) - (1LL << (pr.idxBits - 1));
    long long block = u32(d, pr.indexTable + 6 * main);
    if (static_cast<U64>(block) >= pr.sizeBlocks) return bad(status);
    lit += u16(d, pr.indexTable + 6 * main + 4);
    if (lit < 0) {
      while (lit < 0) {
        if (--block < 0) return bad(status);
        lit += u16(d, pr.sizeTable + 2 * block) + 1;
      }
    } else {
      while (lit > static_cast<long long>(u16(d, pr.sizeTable + 2 * block))) {
        lit -= u16(d, pr.sizeTable + 2 * block) + 1;
        if (static_cast<U64>(++block) >= pr.sizeBlocks) return bad(status);
      }
    }
    if (static_cast<U64>(block) >= pr.realBlocks) return bad(status);
    const std::size_t blockStart = pr.data + (static_cast<std::size_t>(block) << pr.blockSize);
    int sym;
    U64 pos = 0;  // where the walk starts: the block's first symbol, or a later one the block's marks know
    if (pr.marks) {
      std::uint32_t* m = pr.marks.get() + static_cast<std::size_t>(block) * (pr.markCount + 1);
      std::uint32_t state = __atomic_load_n(m, __ATOMIC_ACQUIRE);
      if (state == 0) state = markBlock(pr, blockStart, u16(d, pr.sizeTable + 2 * block), m);
      std::uint32_t before = 0;
      for (std::uint32_t j = 1; j < state; ++j) {
        const std::uint32_t mark = __atomic_load_n(m + j, __ATOMIC_RELAXED);
        if (static_cast<long long>(mark >> 16) > lit) break;
        pos = mark & 0xffff;
        before = mark >> 16;
      }
      lit -= before;
    }
    if (!walk<false>(pr, blockStart, pos, lit, sym, nullptr)) return bad(status);
    while (pr.symLen[sym]) {
      const std::size_t w = pr.symPat + 3 * static_cast<std::size_t>(sym);
      const int left = ((d[w + 1] & 15) << 8) | d[w];
      if (lit < pr.symLen[left] + 1) sym = left;
      else { lit -= pr.symLen[left] + 1; sym = (d[w + 2] << 4) | (d[w + 1] >> 4); }
    }
    const std::size_t w = pr.symPat + 3 * static_cast<std::size_t>(sym);
    return dtz ? ((d[w + 1] & 15) << 8) | d[w] : d[w];
  }

  // Walks a block's symbols from bit `pos` (a symbol boundary, `lit` literals before the one wanted)
  // to the symbol holding the literal; false for damaged data. With kMark, `marks` (markCount words)
  // gets the first symbol boundary at or after every markSpacing bits: bit | literals before << 16.
  template <bool kMark>
  bool walk(const Pairs& pr, std::size_t blockStart, U64 pos, long long& lit, int& sym, std::uint32_t* marks) const {
    const std::size_t blockEnd = blockStart + (std::size_t{1} << pr.blockSize);
    auto word = [&](std::size_t at) -> U64 { return at + 4 <= size ? u32be(d, at) : 0; };
    // a 64-bit window on the bit stream (the JS twin keeps it as two 32-bit halves); its low `bits`
    // bits are empty, refilled a 32-bit word at a time
    std::size_t ptr = blockStart + 4 * static_cast<std::size_t>(pos >> 5);
    U64 code = (word(ptr) << 32 | word(ptr + 4)) << (pos & 31);
    ptr += 8;
    int bits = static_cast<int>(pos & 31);
    const U64* base = pr.base64;
    const std::uint8_t* symLen = pr.symLen.data();
    const std::uint32_t* fast = pr.fast.data();
    const int fastShift = 64 - pr.fastBits;
    const long long litTotal = lit;
    int marked = 0;
    U64 nextMark = pr.markSpacing;
    for (;;) {
      if (kMark && pos >= nextMark && marked < pr.markCount) {
        marks[marked++] = static_cast<std::uint32_t>(pos) | static_cast<std::uint32_t>(litTotal - lit) << 16;
        nextMark += pr.markSpacing;
      }
      const std::uint32_t e = fast[code >> fastShift];
      int len, sl;
      if (e) {
        len = (e >> 12) & 63;
        sym = static_cast<int>(e & 4095);
        sl = static_cast<int>(e >> 18);
      } else {
        int l = 0;
        while (code < base[l]) ++l;
        len = pr.minLen + l;
        sym = pr.lowest[l] + static_cast<int>((code - base[l]) >> (64 - len));
        if (sym >= pr.numSyms) return false;
        sl = symLen[sym] + 1;
      }
      if (lit < sl) break;
      lit -= sl;
      code <<= len;
      bits += len;
      if (kMark) pos += len;
      if (bits >= 32) {
        bits -= 32;
        if (ptr >= blockEnd + 8) return false;
        code |= word(ptr) << bits;
        ptr += 4;
      }
    }
    if (kMark) while (marked < pr.markCount) marks[marked++] = 0xffffffffu;
    return true;
  }

  // Fills a block's marks (word 0: 1 + the number of marks, or 1 when the block does not decode to
  // the end; then the marks), once per block; several threads may race to write the same words.
  std::uint32_t markBlock(const Pairs& pr, std::size_t blockStart, unsigned lastLit, std::uint32_t* m) const {
    std::uint32_t marks[kMaxMarks];
    long long lit = lastLit;
    int sym;
    std::uint32_t state = 1;
    if (walk<true>(pr, blockStart, 0, lit, sym, marks)) {
      state = 1;
      for (int j = 0; j < pr.markCount && marks[j] != 0xffffffffu; ++j) {
        __atomic_store_n(m + 1 + j, marks[j], __ATOMIC_RELAXED);
        ++state;
      }
    }
    __atomic_store_n(m, state, __ATOMIC_RELEASE);
    return state;
  }

  static void countsOf(MaterialKey k, int* w, int* b) {
    for (int t = 0; t < 5; ++t) {
      w[t] = (k >> (3 * t)) & 7;
      b[t] = (k >> (15 + 3 * t)) & 7;
    }
  }
  static MaterialKey keyOf(const int* w, const int* b) {
    MaterialKey k = 0;
    for (int t = 0; t < 5; ++t) k |= static_cast<MaterialKey>(w[t]) << (3 * t) | static_cast<MaterialKey>(b[t]) << (15 + 3 * t);
    return k;
  }

 private:
  Status fail(Status s, const char* text) {
    message = text;
    return s;
  }
  int bad(Status& status) const {
    status = kData;
    return -1;
  }

  Status checkPieces(const std::uint8_t* pieces) {
    int kings = 0;
    for (int i = 0; i < pieceCount; ++i) {
      const int c = pieces[i], t = c & 7;
      if (t < 1 || t > 6 || c > 14) return fail(kData, "bad piece code in the header");
      if (t == 6) ++kings;
    }
    return kings == 2 ? kOk : fail(kData, "the header does not list two kings");
  }

  Status pieceFactors(Encoding& e, int order) {
    const int num = pieceCount;
    e.norm[0] = encType == 0 ? 3 : 2;
    for (int i = e.norm[0]; i < num;) {
      for (int j = i; j < num && e.pieces[j] == e.pieces[i]; ++j) ++e.norm[i];
      i += e.norm[i];
    }
    int n = 64 - e.norm[0];
    U64 f = 1;
    for (int i = e.norm[0], k = 0; i < num || k == order; ++k) {
      if (k > num) return fail(kData, "bad piece order in the header");
      if (k == order) { e.factor[0] = f; f *= kPivotFactor[encType]; }
      else { e.factor[i] = f; f *= binomial(n, e.norm[i]); n -= e.norm[i]; i += e.norm[i]; }
    }
    e.size = f;
    return kOk;
  }

  Status pawnFactors(Encoding& e, int order, int order2, int file) {
    const int num = pieceCount, lead = pawns[0], other = pawns[1];
    if ((e.pieces[0] & 7) != 1) return fail(kData, "a pawn table whose first piece is not a pawn");
    for (int i = 0; i < lead; ++i)
      if (e.pieces[i] != e.pieces[0]) return fail(kMaterial, "leading pawns do not match the file name");
    e.norm[0] = static_cast<std::uint8_t>(lead);
    if (other) e.norm[lead] = static_cast<std::uint8_t>(other);
    for (int i = lead + other; i < num;) {
      for (int j = i; j < num && e.pieces[j] == e.pieces[i]; ++j) ++e.norm[i];
      i += e.norm[i];
    }
    int i = e.norm[0];
    if (order2 < 15) i += e.norm[i];
    int n = 64 - i;
    U64 f = 1;
    for (int k = 0; i < num || k == order || k == order2; ++k) {
      if (k > num) return fail(kData, "bad piece order in the header");
      if (k == order) { e.factor[0] = f; f *= kTables.pawnFactor[e.norm[0] - 1][file]; }
      else if (k == order2) { e.factor[e.norm[0]] = f; f *= binomial(48 - e.norm[0], e.norm[e.norm[0]]); }
      else { e.factor[i] = f; f *= binomial(n, e.norm[i]); n -= e.norm[i]; i += e.norm[i]; }
    }
    e.size = f;
    return kOk;
  }

  Status readPairs(std::size_t& p, U64 tbSize, Pairs& pr) {
    if (p + 2 > size) return fail(kLayout, "pairs header runs past the end");
    if (d[p] & 0x80) {
      pr.constValue = dtz ? 0 : d[p + 1];
      if (!dtz && pr.constValue > 4) return fail(kData, "constant WDL value out of range");
      p += 2;
      return kOk;
    }
    if (p + 12 > size) return fail(kLayout, "pairs header runs past the end");
    pr.blockSize = d[p + 1];
    pr.idxBits = d[p + 2];
    pr.realBlocks = u32(d, p + 4);
    pr.sizeBlocks = pr.realBlocks + d[p + 3];
    pr.maxLen = d[p + 8];
    pr.minLen = d[p + 9];
    if (pr.blockSize < 1 || pr.blockSize > 24 || pr.idxBits < 1 || pr.idxBits > 40) return fail(kData, "bad block size or index bits");
    if (pr.minLen < 1 || pr.maxLen > 32 || pr.maxLen < pr.minLen) return fail(kData, "bad code lengths");
    const int h = pr.maxLen - pr.minLen + 1;
    if (p + 12 + 2 * static_cast<std::size_t>(h) > size) return fail(kLayout, "pairs header runs past the end");
    pr.numSyms = static_cast<int>(u16(d, p + 10 + 2 * h));
    pr.lowestSym = p + 10;
    pr.symPat = p + 12 + 2 * static_cast<std::size_t>(h);
    const std::size_t next = pr.symPat + 3 * static_cast<std::size_t>(pr.numSyms) + (pr.numSyms & 1);
    if (next > size) return fail(kLayout, "symbol table runs past the end");
    pr.numIndices = (tbSize + (U64{1} << pr.idxBits) - 1) >> pr.idxBits;
    // symbol lengths with a cycle check (iterative: 0 unvisited, 1 open, 2 done)
    pr.symLen.assign(pr.numSyms, 0);
    std::vector<std::uint8_t> state(pr.numSyms, 0);
    std::vector<int> stack;
    for (int s0 = 0; s0 < pr.numSyms; ++s0) {
      if (state[s0] == 2) continue;
      stack.push_back(s0);
      while (!stack.empty()) {
        const int s = stack.back();
        const std::size_t w = pr.symPat + 3 * static_cast<std::size_t>(s);
        const int right = (d[w + 2] << 4) | (d[w + 1] >> 4);
        if (right == 0xfff) { pr.symLen[s] = 0; state[s] = 2; stack.pop_back(); continue; }
        const int left = ((d[w + 1] & 15) << 8) | d[w];
        if (left >= pr.numSyms || right >= pr.numSyms) return fail(kData, "a symbol refers past the symbol table");
        if (state[s] == 0) {
          state[s] = 1;
          for (const int c : {right, left}) {
            if (state[c] == 1) return fail(kData, "the symbol grammar has a cycle");
            if (state[c] == 0) stack.push_back(c);
          }
          continue;
        }
        if (state[s] == 2) { stack.pop_back(); continue; }
        if (state[left] != 2 || state[right] != 2) return fail(kData, "the symbol grammar has a cycle");
        const long long len = static_cast<long long>(pr.symLen[left]) + pr.symLen[right] + 1;
        if (len > 255) return fail(kData, "a symbol expands to too many values");
        pr.symLen[s] = static_cast<std::uint8_t>(len);
        state[s] = 2;
        stack.pop_back();
      }
    }
    // canonical Huffman: first code of each length, left-aligned in 32 bits
    U64 base[33] = {};
    base[h - 1] = 0;
    for (int i = h - 2; i >= 0; --i) {
      const long long v = static_cast<long long>(base[i + 1]) + u16(d, pr.lowestSym + 2 * i) - u16(d, pr.lowestSym + 2 * i + 2);
      if (v < 0 || v % 2) return fail(kData, "inconsistent Huffman code table");
      base[i] = static_cast<U64>(v / 2);
    }
    for (int i = 0; i < h; ++i) {
      const int shift = 32 - (pr.minLen + i);
      // a first code beyond the length's range cannot come from the generator (Stockfish's reader wraps it to 0)
      if (base[i] >= (U64{1} << (pr.minLen + i))) return fail(kData, "inconsistent Huffman code table");
      const U64 v = base[i] << shift;
      pr.base64[i] = v << 32;
      pr.lowest[i] = static_cast<std::int32_t>(u16(d, pr.lowestSym + 2 * i));
    }
    buildFastTable(pr, h);
    p = next;
    return kOk;
  }

  static void allocateMarks(Pairs& pr) {
    if (!pr.idxBits || pr.blockSize < 5 || pr.blockSize > 12 || !pr.realBlocks) return;
    const U64 blockBits = U64{8} << pr.blockSize;
    pr.markCount = imin(kMaxMarks, static_cast<int>(blockBits / 64) - 1);
    pr.markSpacing = blockBits / static_cast<U64>(pr.markCount + 1);
    pr.marks.reset(static_cast<std::uint32_t*>(std::calloc(pr.realBlocks * (pr.markCount + 1), sizeof(std::uint32_t))));
    if (!pr.marks) pr.markCount = 0;
  }

  // The lookup table of Pairs::fast. A prefix of fastBits bits fixes the code length when the
  // smallest code starting with it has a length of at most fastBits (canonical codes: every longer
  // first code of a length is a multiple of 2^(64 - fastBits) beyond the prefix's range).
  static void buildFastTable(Pairs& pr, int h) {
    pr.fastBits = imin(pr.maxLen, 10);
    pr.fast.assign(std::size_t{1} << pr.fastBits, 0);
    for (std::size_t x = 0; x < pr.fast.size(); ++x) {
      const U64 code = static_cast<U64>(x) << (64 - pr.fastBits);
      int l = 0;
      while (l < h - 1 && code < pr.base64[l]) ++l;
      const int len = pr.minLen + l;
      if (code < pr.base64[l] || len > pr.fastBits) continue;
      const U64 sym = static_cast<U64>(pr.lowest[l]) + ((code - pr.base64[l]) >> (64 - len));
      if (sym >= static_cast<U64>(pr.numSyms)) continue;
      pr.fast[x] = static_cast<std::uint32_t>(sym) | static_cast<std::uint32_t>(len) << 12 |
                   static_cast<std::uint32_t>(pr.symLen[sym] + 1) << 18;
    }
  }
};

// ---- Index encoding ----

inline void sortRange(int* a, int from, int to) {
  for (int j = from + 1; j < to; ++j) {
    const int v = a[j];
    int k = j - 1;
    while (k >= from && a[k] > v) { a[k + 1] = a[k]; --k; }
    a[k + 1] = v;
  }
}

inline U64 encodeGroups(const Encoding& e, int* pos, int i, int n) {
  U64 idx = 0;
  for (; i < n; i += e.norm[i]) {
    const int t = e.norm[i];
    sortRange(pos, i, i + t);
    U64 s = 0;
    for (int m = i; m < i + t; ++m) {
      const int p = pos[m];
      int below = 0;
      for (int l = 0; l < i; ++l) below += p > pos[l];
      s += binomial(p - below, m - i + 1);
    }
    idx += s * e.factor[i];
  }
  return idx;
}

inline U64 encodePieces(const Encoding& e, int encType, int* pos, int n) {
  if (pos[0] & 4) for (int i = 0; i < n; ++i) pos[i] ^= 7;
  if (pos[0] & 32) for (int i = 0; i < n; ++i) pos[i] ^= 56;
  int first = 0;
  while (first < n && offDiag(pos[first]) == 0) ++first;
  if (first < n && first < (encType == 0 ? 3 : 2) && offDiag(pos[first]) > 0)
    for (int i = 0; i < n; ++i) pos[i] = flipDiag(pos[i]);
  U64 idx;
  int i;
  const Tables& T = kTables;
  if (encType == 0) {
    const int a = pos[0], b = pos[1], c = pos[2];
    const int bi = b > a, ci = (c > a) + (c > b);
    if (offDiag(a)) idx = U64(T.triangle[a]) * 63 * 62 + U64(b - bi) * 62 + U64(c - ci);
    else if (offDiag(b)) idx = 6 * 63 * 62 + U64(T.diag[a]) * 28 * 62 + U64(T.lower[b]) * 62 + U64(c - ci);
    else if (offDiag(c)) idx = 6 * 63 * 62 + 4 * 28 * 62 + U64(T.diag[a]) * 7 * 28 + U64(T.diag[b] - bi) * 28 + U64(T.lower[c]);
    else idx = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + U64(T.diag[a]) * 7 * 6 + U64(T.diag[b] - bi) * 6 + U64(T.diag[c] - ci);
    i = 3;
  } else {
    idx = static_cast<U64>(T.kk[T.triangle[pos[0]]][pos[1]]);
    i = 2;
  }
  return idx * e.factor[0] + encodeGroups(e, pos, i, n);
}

inline U64 encodePawns(const Encoding& e, const int* pawns, int* pos, int n) {
  const Tables& T = kTables;
  if (pos[0] & 4) for (int i = 0; i < n; ++i) pos[i] ^= 7;
  const int lead = pawns[0];
  for (int j = 2; j < lead; ++j) {
    const int v = pos[j];
    int k = j - 1;
    while (k >= 1 && T.ptwist[pos[k]] < T.ptwist[v]) { pos[k + 1] = pos[k]; --k; }
    pos[k + 1] = v;
  }
  const int t = lead - 1;
  U64 idx = T.pawnIndex[t][T.flap[pos[0]]];
  for (int i = t; i > 0; --i) idx += binomial(T.ptwist[pos[i]], t - i + 1);
  idx *= e.factor[0];
  int i = lead;
  if (pawns[1]) {
    const int end = lead + pawns[1];
    sortRange(pos, i, end);
    U64 s = 0;
    for (int m = i; m < end; ++m) {
      const int p = pos[m];
      int below = 0;
      for (int l = 0; l < i; ++l) below += p > pos[l];
      s += binomial(p - below - 8, m - i + 1);
    }
    idx += s * e.factor[i];
    i = end;
  }
  return idx + encodeGroups(e, pos, i, n);
}

// ---- Table names ----

// "KQvKR" (a table file's name without its extension) -> its material key; false when it is no
// table name: a K, then P N B R Q letters, a v, a K and the other side's letters, at most 7 of each.
inline bool keyFromName(const char* name, std::size_t n, MaterialKey& key) {
  std::size_t v = 0;
  while (v < n && name[v] != 'v') ++v;
  if (v == n || n < 3 || name[0] != 'K' || v + 1 >= n || name[v + 1] != 'K') return false;
  int w[5] = {}, b[5] = {};
  constexpr char kLetters[] = "PNBRQ";
  for (std::size_t i = 1; i < n; ++i) {
    if (i == v || i == v + 1) continue;
    int t = 0;
    while (t < 5 && kLetters[t] != name[i]) ++t;
    if (t == 5) return false;
    int* side = i < v ? w : b;
    if (++side[t] > 7) return false;
  }
  key = Table::keyOf(w, b);
  return true;
}

// A table file name ("KQvKR.rtbw", "KQvKR.rtbz"; a path's directories are passed over): its key and
// kind, false for any other name.
inline bool tableFromFileName(const char* path, std::size_t n, MaterialKey& key, bool& dtz) {
  std::size_t start = n;
  while (start > 0 && path[start - 1] != '/' && path[start - 1] != '\\') --start;
  if (n - start < 5 || path[n - 5] != '.' || path[n - 4] != 'r' || path[n - 3] != 't' || path[n - 2] != 'b') return false;
  if (path[n - 1] != 'w' && path[n - 1] != 'z') return false;
  dtz = path[n - 1] == 'z';
  return keyFromName(path + start, n - 5 - start, key);
}

// The number of pieces of a table of the key (kings included).
constexpr int piecesOf(MaterialKey key) {
  int pieces = 2;
  for (int t = 0; t < 5; ++t) pieces += static_cast<int>(((key >> (3 * t)) & 7) + ((key >> (15 + 3 * t)) & 7));
  return pieces;
}

// ---- Positions and moves: the main board and generator ----
//
// The probe search runs on position.h's Board with movegen.h's legal-move generator (a move is
// from | to << 6 | promotion << 12, promotion 1 knight .. 4 queen) and san::play for the child, as
// every other caller of the generator does. The material key that names a position's table is
// computed from the board once and then carried along the search: a capture or a promotion changes
// it (keyAfter). Table piece codes are colour << 3 | type with type 1..6 = P N B R Q K, one more
// than the PieceType numbers.

using bbp::Board;
using bbp::Move;
using bbp::kMaxMoves;
using bbp::kNoSquare;
using bbp::kPawn;
using bbp::kQueen;
using bbp::kKnight;

// The material key's unit for one piece of a colour and a PieceType kPawn..kQueen.
constexpr MaterialKey keyUnit(int color, int type) { return MaterialKey{1} << (3 * type + 15 * color); }

// The material key of the board (as Table::keyOf: kings are not counted).
inline MaterialKey materialKey(const Board& b) {
  MaterialKey key = 0;
  for (int c = 0; c < 2; ++c)
    for (int t = kPawn; t <= kQueen; ++t)
      for (U64 x = b.pieceSet(c, t); x; x &= x - 1) key += keyUnit(c, t);
  return key;
}

// The key after the legal move m of b, whose key is `key`.
inline MaterialKey keyAfter(const Board& b, MaterialKey key, Move m) {
  const int us = b.sideToMove, from = bbp::moveFrom(m), to = bbp::moveTo(m), promo = bbp::movePromotion(m);
  if (b.colors[us ^ 1] & squareBB(to)) key -= keyUnit(us ^ 1, b.typeOn(to));
  else if (to == b.epSquare && (b.pieces[kPawn] & squareBB(from))) key -= keyUnit(us ^ 1, kPawn);
  if (promo) key += keyUnit(us, promo) - keyUnit(us, kPawn);
  return key;
}

struct MoveList {
  Move moves[kMaxMoves];
  int count = 0;
};

// The movegen Sink of the capture search: the legal captures (promotions among them), no en passant.
struct CaptureSink {
  Move* out;
  U64 them;
  int n = 0;
  void add(int from, int to, int promo = 0) {
    if (n < kMaxMoves) out[n++] = bbp::encodeMove(from, to, promo);
  }
  void piece(int, int from, U64 targets) {
    for (targets &= them; targets; targets &= targets - 1) add(from, lsb(targets));
  }
  void pawns(U64 targets, int delta) {
    for (targets &= them; targets; targets &= targets - 1) add(lsb(targets) - delta, lsb(targets));
  }
  void doublePushes(U64) {}
  void promotions(U64 targets, int delta) {
    for (targets &= them; targets; targets &= targets - 1)
      for (int promo = kQueen; promo >= kKnight; --promo) add(lsb(targets) - delta, lsb(targets), promo);
  }
  void enPassant(int, int) {}
  void castle(const bbp::CastlingMove&) {}
};

// Every legal move (movegen.h's order), or with `capturesOnly` the captures without en passant.
template <class Sliders>
void legalMoves(const Sliders& s, const Board& b, MoveList& out, bool capturesOnly = false) {
  if (capturesOnly) {
    // Most positions of few pieces have no capture: asked piece by piece (an attackersTo each),
    // that answer costs less than the generator's per-node sets.
    const int us = b.sideToMove;
    const U64 occ = b.occupied();
    bool any = false;
    for (U64 x = b.colors[us ^ 1] & ~b.pieces[bbp::kKing]; x && !any; x &= x - 1)
      any = bbp::attackersTo(s, b, lsb(x), us, occ) != 0;
    out.count = 0;
    if (!any) return;
    CaptureSink sink{out.moves, b.colors[us ^ 1]};
    bbp::movegen::generate(s, b, sink);
    out.count = sink.n;
    return;
  }
  const int n = bbp::legalMoves(s, b, out.moves, kMaxMoves);
  out.count = n < kMaxMoves ? n : kMaxMoves;
}

inline bool isEnPassant(const Board& b, Move m) {
  return bbp::moveTo(m) == b.epSquare && (b.pieces[kPawn] & squareBB(bbp::moveFrom(m)));
}
inline bool isCapture(const Board& b, Move m) { return (b.occupied() & squareBB(bbp::moveTo(m))) || isEnPassant(b, m); }
inline bool isZeroing(const Board& b, Move m) { return isCapture(b, m) || (b.pieces[kPawn] & squareBB(bbp::moveFrom(m))); }

template <class Sliders>
bool isCheckmate(const Sliders& s, const Board& b) {
  if (!bbp::checkers(s, b, b.sideToMove)) return false;
  bbp::movegen::CountSink count;
  bbp::movegen::generate(s, b, count);
  return count.n == 0;
}

// Reads the packed layout; false when the words are no position the tables can be asked about
// (the same rules as boardFromPacked in lib/backends/js/syzygy.ts: sets disjoint and consistent, one
// king per colour, no pawn on the first or last rank, a sane state word, the side not to move not in
// check). An en-passant square without the pawn that just moved two squares or that no legal
// capture uses is dropped. `castling` and `count` are set either way.
template <class Sliders>
bool boardFromPacked(const Sliders& s, const U64* w, Board& b, int& castling, int& count) {
  U64 all = 0, shared = 0;
  for (int t = 0; t < 6; ++t) {
    shared |= all & w[2 + t];
    all |= w[2 + t];
  }
  // the fields one by one (position.h's unpack, without the Chess960 fields, which mean nothing
  // without castling rights): a whole Board assigned here costs a store-forwarding stall
  b.colors[0] = w[0];
  b.colors[1] = w[1];
  for (int t = 0; t < 6; ++t) b.pieces[t] = w[2 + t];
  const unsigned state = static_cast<unsigned>(w[8] & 0xffff);
  const int epCode = (state >> 8) & 255;
  b.sideToMove = static_cast<int>(state & 1);
  b.castling = castling = static_cast<int>((state >> 1) & 15);
  b.epSquare = epCode;
  b.chess960 = false;
  b.rookFields = 0;
  count = popcount(all);
  const U64 whiteKing = w[0] & w[7], blackKing = w[1] & w[7];
  bool valid = !(w[0] & w[1]) && !shared && all == (w[0] | w[1]) && !(w[2] & bbp::kBackRanks) && whiteKing &&
               !(whiteKing & (whiteKing - 1)) && blackKing && !(blackKing & (blackKing - 1)) && !(state & 0xc0) &&
               epCode <= 64 && (epCode == 64 || rankOf(epCode) == (b.sideToMove ? 2 : 5));
  if (valid && bbp::attackersTo(s, b, b.kingSquare(b.sideToMove ^ 1), b.sideToMove, all)) valid = false;
  if (valid && b.epSquare != kNoSquare) {
    const int up = b.sideToMove == 0 ? 8 : -8;
    if ((all >> (b.epSquare + up) & 1) || !bbp::san::epCaptureLegal(s, b)) b.epSquare = kNoSquare;
  }
  if (!valid) b.epSquare = kNoSquare;
  return valid;
}

// ---- The probe search (python-chess's semantics) ----

inline constexpr int kWdlToMap[5] = {1, 3, 0, 2, 0};
inline constexpr int kPaFlags[5] = {8, 0, 0, 0, 4};
inline constexpr int kWdlToDtz[5] = {-1, -101, 0, 101, 1};

// One legal move at the root with what it leads to, from the mover's view (lib/tablebases/syzygy.ts's
// SyzygyRootMove): the move (movegen.h's encoding), WDL and DTZ after it, zeroing (capture or pawn
// move), mate.
struct RootMove {
  int move;
  int wdl;
  int dtz;
  bool zeroing;
  bool mate;
};

// The root probe's answer as the int32 layout both glues hand to JS: wdl, dtz, n, then per move
// its code, wdl, dtz and flags (1 zeroing, 2 mate). `out` holds 3 + 4 * n elements.
template <class Out>
void writeRootAnswer(Out& out, int wdl, int dtz, const RootMove* moves, int n) {
  out[0] = wdl;
  out[1] = dtz;
  out[2] = n;
  for (int i = 0; i < n; ++i) {
    out[3 + 4 * i] = moves[i].move;
    out[4 + 4 * i] = moves[i].wdl;
    out[5 + 4 * i] = moves[i].dtz;
    out[6 + 4 * i] = (moves[i].zeroing ? 1 : 0) | (moves[i].mate ? 2 : 0);
  }
}

// The Source::get of the addon's and the wasm module's table sets: the table of the entry for `key`
// or its mirror (findTable) once `load(entry)` has it parsed (true), or nullptr with `status`
// kMissing (no entry) or the entry's problem, and `failed` pointing at that entry.
template <class Map, class Load>
const Table* loadedTable(const Map& map, MaterialKey key, Status& status, typename Map::mapped_type& failed, Load load) {
  const auto found = findTable(map, key);
  if (!found) {
    status = kMissing;
    return nullptr;
  }
  if (!load(*found)) {
    status = found->problem;
    failed = found;
    return nullptr;
  }
  return &found->table;
}

// One table file of the addon's or the wasm module's set: the material and kind its name gives,
// and the table parsed from the file's image on first use (the glue holds the image and the
// locking, and derives its entry from this one).
struct TableEntry {
  bool dtz = false;
  MaterialKey key = 0;
  Status problem = kOk;
  const char* message = nullptr;  // a static text, set with `problem`
  Table table;

  // Parses the image (nullptr for an empty file); false with `problem` and `message` set.
  bool parse(const std::uint8_t* data, std::size_t size) {
    static const std::uint8_t kEmpty[1] = {0};
    const Status s = table.parse(data ? data : kEmpty, size, dtz, key);
    if (!s) return true;
    problem = s;
    message = table.message ? table.message : "damaged";
    return false;
  }
};

// The entries of a table set by material key (Entry derives from TableEntry): a file whose material
// or its mirror the set already holds is passed over, so the first one added wins.
template <class Entry>
struct TableEntries {
  std::vector<std::unique_ptr<Entry>> entries;
  std::unordered_map<MaterialKey, Entry*> wdl, dtz;
  int maxPieces = 0;

  // The new entry of a table file, or nullptr when the set has its material already.
  Entry* add(MaterialKey key, bool isDtz) {
    auto& map = isDtz ? dtz : wdl;
    if (map.count(key) || map.count(mirrorKey(key))) return nullptr;
    auto e = std::make_unique<Entry>();
    e->dtz = isDtz;
    e->key = key;
    map[key] = e.get();
    maxPieces = imax(maxPieces, piecesOf(key));
    entries.push_back(std::move(e));
    return entries.back().get();
  }

  // The index of the entry holding the table, or -1.
  int indexOfTable(const Table* t) const {
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (&entries[i]->table == t) return static_cast<int>(i);
    return -1;
  }
  int indexOf(const Entry* e) const {
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].get() == e) return static_cast<int>(i);
    return -1;
  }
};

// Source: const Table* get(bool dtz, MaterialKey key, Status& status) -> the loaded table for the
// key or its mirror, or nullptr with status kMissing (not there) or the file's problem. Sliders: the
// slider lookup of the main generator (MagicSliders, PextSliders).
template <class Source, class Sliders = bbp::MagicSliders>
class Prober {
 public:
  Prober(Source& source, const Sliders& sliders) : src_(source), s_(sliders) {}
  Status status = kOk;
  const Table* failedTable = nullptr;

  int wdl(const Board& b) { return wdl(b, materialKey(b)); }
  int dtz(const Board& b) { return dtz(b, materialKey(b)); }

  // Every legal move with its WDL and DTZ after it, best first: the highest WDL; among wins a mate,
  // then the fewest plies to the next zeroing move (a winning zeroing move counts 1); among losses
  // the most; equal ranks in move order (rootOrder; the rules of probeRoot in
  // lib/tablebases/syzygy.ts). Returns the number of moves (0 with `status` set when a table is
  // missing or damaged).
  int root(const Board& b, RootMove* out) {
    MoveList ml;
    legalMoves(s_, b, ml);
    sortRootOrder(ml);
    const MaterialKey key = materialKey(b);
    long long rank[kMaxMoves];
    int n = 0;
    for (int i = 0; i < ml.count; ++i) {
      const Move m = ml.moves[i];
      const Board next = bbp::san::play(b, m);
      const MaterialKey nextKey = keyAfter(b, key, m);
      RootMove r{m, 0, 0, isZeroing(b, m), isCheckmate(s_, next)};
      r.wdl = r.mate ? 2 : -wdl(next, nextKey);
      if (status) return 0;
      if (r.wdl != 0) {
        const int sign = r.wdl > 0 ? 1 : -1;
        if (r.mate || r.zeroing) r.dtz = sign * (iabs(r.wdl) == 2 ? 1 : 101);
        else r.dtz = -dtz(next, nextKey) + sign;
        if (status) return 0;
      }
      // insertion keeps move order among equal ranks
      const long long rk = (r.mate ? 1000000LL : 0) + r.wdl * 100000LL - r.dtz;
      int at = n++;
      while (at > 0 && rank[at - 1] < rk) {
        out[at] = out[at - 1];
        rank[at] = rank[at - 1];
        --at;
      }
      out[at] = r;
      rank[at] = rk;
    }
    return n;
  }

  // The order of equal root moves: by from square, then to square, then promotion queen first
  // (lib/tablebases/syzygy.ts rootOrder).
  static int rootOrder(Move m) { return bbp::moveFrom(m) << 9 | bbp::moveTo(m) << 3 | (7 - bbp::movePromotion(m)); }

 private:
  Source& src_;
  const Sliders s_;  // a policy holds only a reference to its tables

  static void sortRootOrder(MoveList& ml) {
    for (int i = 1; i < ml.count; ++i) {
      const Move m = ml.moves[i];
      int k = i;
      while (k > 0 && rootOrder(ml.moves[k - 1]) > rootOrder(m)) {
        ml.moves[k] = ml.moves[k - 1];
        --k;
      }
      ml.moves[k] = m;
    }
  }

  int wdl(const Board& b, MaterialKey key) {
    int v = probeAb(b, key, -2, 2).first;
    if (status || b.epSquare == kNoSquare) return v;
    MoveList ml;
    legalMoves(s_, b, ml);
    const int ep = epValue(b, key, ml);
    if (ep > -3) {
      if (ep >= v) v = ep;
      else if (v == 0 && allEp(b, ml)) v = ep;
    }
    return v;
  }

  int dtz(const Board& b, MaterialKey key) {
    int v = dtzNoEp(b, key);
    if (status || b.epSquare == kNoSquare) return v;
    MoveList ml;
    legalMoves(s_, b, ml);
    int ep = epValue(b, key, ml);
    if (ep <= -3) return v;
    ep = kWdlToDtz[ep + 2];
    if (v < -100) { if (ep >= 0) v = ep; }
    else if (v < 0) { if (ep >= 0 || ep < -100) v = ep; }
    else if (v > 100) { if (ep > 0) v = ep; }
    else if (v > 0) { if (ep == 1) v = ep; }
    else if (ep >= 0) v = ep;
    else if (allEp(b, ml)) v = ep;
    return v;
  }

  static bool allEp(const Board& b, const MoveList& ml) {
    for (int i = 0; i < ml.count; ++i)
      if (!isEnPassant(b, ml.moves[i])) return false;
    return true;
  }

  const Table* find(bool isDtz, MaterialKey key) {
    Status st = kOk;
    const Table* t = src_.get(isDtz, key, st);
    if (!t && !status) status = st ? st : kMissing;
    return t;
  }

  void fileError(const Table* t, Status s) {
    if (!status) { status = s; failedTable = t; }
  }

  void sides(const Table& t, const Board& b, MaterialKey key, int& cmirror, int& mirror, int& side) const {
    const int stm = b.sideToMove;
    if (t.symmetric) { cmirror = stm ? 8 : 0; mirror = stm ? 56 : 0; side = 0; }
    else if (key != t.key) { cmirror = 8; mirror = 56; side = stm == 0 ? 1 : 0; }
    else { cmirror = 0; mirror = 0; side = stm; }
  }

  // The squares of the pieces in the encoding's order (each group of one piece code in square order).
  bool collect(const Table& t, const Board& b, const std::uint8_t* pieces, int cmirror, int mirror, int* pos, int from, int n) {
    for (int i = from; i < n;) {
      const int want = pieces[i] ^ cmirror;
      const int start = i;
      for (U64 x = b.pieceSet(want >> 3, (want & 7) - 1); x && i < n; x &= x - 1) pos[i++] = lsb(x) ^ mirror;
      if (i == start) { fileError(&t, kMaterial); return false; }
    }
    return true;
  }

  int pawnFile(const Table& t, const Board& b, int cmirror, int mirror, int* pos) {
    if (!collect(t, b, t.enc[0][0].pieces, cmirror, mirror, pos, 0, t.pawns[0])) return -1;
    const Tables& T = kTables;
    for (int i = 1; i < t.pawns[0]; ++i)
      if (T.flap[pos[0]] > T.flap[pos[i]]) { const int x = pos[0]; pos[0] = pos[i]; pos[i] = x; }
    const int f = fileOf(pos[0]);
    return imin(f, 7 - f);
  }

  int rawWdl(const Board& b, MaterialKey key) {
    const Table* t = find(false, key);
    if (!t) return 0;
    int cmirror, mirror, side;
    sides(*t, b, key, cmirror, mirror, side);
    if (side && !t->split) { fileError(t, kLayout); return 0; }
    const int n = t->pieceCount;
    int pos[kMaxPieces];
    Status st = kOk;
    int v;
    if (!t->hasPawns) {
      const Encoding& e = t->enc[0][side];
      if (!collect(*t, b, e.pieces, cmirror, 0, pos, 0, n)) return 0;
      v = t->decompress(e.pairs, encodePieces(e, t->encType, pos, n), st);
    } else {
      const int file = pawnFile(*t, b, cmirror, mirror, pos);
      if (file < 0) return 0;
      const Encoding& e = t->enc[file][side];
      if (!collect(*t, b, e.pieces, cmirror, mirror, pos, t->pawns[0], n)) return 0;
      v = t->decompress(e.pairs, encodePawns(e, t->pawns, pos, n), st);
    }
    if (st || v > 4) { fileError(t, kData); return 0; }
    return v - 2;
  }

  // Stored DTZ for a position of WDL `wdl`; `stored` false when the table keeps the other side.
  int rawDtz(const Board& b, MaterialKey key, int wdl, bool& stored) {
    stored = false;
    const Table* t = find(true, key);
    if (!t) return 0;
    int cmirror, mirror, side;
    sides(*t, b, key, cmirror, mirror, side);
    const int n = t->pieceCount;
    int pos[kMaxPieces];
    int file = 0, v;
    Status st = kOk;
    if (!t->hasPawns) {
      if ((t->dtzFlags[0] & 1) != side && !t->symmetric) return 0;
      const Encoding& e = t->enc[0][0];
      if (!collect(*t, b, e.pieces, cmirror, 0, pos, 0, n)) return 0;
      v = t->decompress(e.pairs, encodePieces(e, t->encType, pos, n), st);
    } else {
      file = pawnFile(*t, b, cmirror, mirror, pos);
      if (file < 0) return 0;
      if ((t->dtzFlags[file] & 1) != side) return 0;
      const Encoding& e = t->enc[file][0];
      if (!collect(*t, b, e.pieces, cmirror, mirror, pos, t->pawns[0], n)) return 0;
      v = t->decompress(e.pairs, encodePawns(e, t->pawns, pos, n), st);
    }
    if (st) { fileError(t, kData); return 0; }
    const int flags = t->dtzFlags[file];
    if (flags & 2) {
      const int m = kWdlToMap[wdl + 2];
      if (static_cast<unsigned>(v) >= t->mapLength[file][m]) { fileError(t, kData); return 0; }
      const std::size_t at = t->mapStart[file][m];
      v = (flags & 16) ? static_cast<int>(u16(t->d, at + 2 * static_cast<std::size_t>(v))) : t->d[at + v];
    }
    if (!(flags & kPaFlags[wdl + 2]) || (wdl & 1)) v *= 2;
    stored = true;
    return v;
  }

  // A position of the two kings alone is a draw and has no table.
  int tableWdl(const Board& b, MaterialKey key) { return key ? rawWdl(b, key) : 0; }

  // Alpha-beta over the captures on top of the table (which stores nothing useful where a capture
  // is best). Returns {value, how}: how 2 = a capture reaches the value, 1 = the table value stands.
  std::pair<int, int> probeAb(const Board& b, MaterialKey key, int alpha, int beta) {
    MoveList ml;
    legalMoves(s_, b, ml, true);
    for (int i = 0; i < ml.count; ++i) {
      const Move m = ml.moves[i];
      const int v = -probeAb(bbp::san::play(b, m), keyAfter(b, key, m), -beta, -alpha).first;
      if (status) return {0, 1};
      if (v > alpha) {
        if (v >= beta) return {v, 2};
        alpha = v;
      }
    }
    const int v = tableWdl(b, key);
    if (alpha >= v) return {alpha, alpha > 0 ? 2 : 1};
    return {v, 1};
  }

  // The best en-passant capture's WDL for the side to move, or -3 when there is none.
  int epValue(const Board& b, MaterialKey key, const MoveList& ml) {
    int best = -3;
    for (int i = 0; i < ml.count; ++i) {
      const Move m = ml.moves[i];
      if (!isEnPassant(b, m)) continue;
      const int v = -probeAb(bbp::san::play(b, m), keyAfter(b, key, m), -2, 2).first;
      if (v > best) best = v;
    }
    return best;
  }

  int dtzNoEp(const Board& b, MaterialKey key) {
    const auto [wdlValue, how] = probeAb(b, key, -2, 2);
    const int wdl = wdlValue;
    if (status || wdl == 0) return 0;
    const int beforeZeroing = wdl > 0 ? (wdl == 2 ? 1 : 101) : (wdl == -2 ? -1 : -101);
    if (how == 2) return beforeZeroing;
    MoveList ml;
    legalMoves(s_, b, ml);
    if (wdl > 0) {
      // a pawn move that keeps the win zeroes at once
      for (int i = 0; i < ml.count; ++i) {
        const Move m = ml.moves[i];
        if (!(b.pieces[kPawn] & squareBB(bbp::moveFrom(m))) || isCapture(b, m)) continue;
        const int v = -this->wdl(bbp::san::play(b, m), keyAfter(b, key, m));
        if (status) return 0;
        if (v == wdl) return wdl == 2 ? 1 : 101;
      }
    }
    bool stored;
    const int value = rawDtz(b, key, wdl, stored);
    if (status) return 0;
    if (stored) return beforeZeroing + (wdl > 0 ? value : -value);
    if (wdl > 0) {
      int best = 0xffff;
      for (int i = 0; i < ml.count; ++i) {
        const Move m = ml.moves[i];
        if (isZeroing(b, m)) continue;
        const Board next = bbp::san::play(b, m);
        const int v = -dtz(next, key);
        if (status) return 0;
        if (v == 1 && isCheckmate(s_, next)) best = 1;
        else if (v > 0 && v + 1 < best) best = v + 1;
      }
      return best;
    }
    int best = -1;
    for (int i = 0; i < ml.count; ++i) {
      const Move m = ml.moves[i];
      const Board next = bbp::san::play(b, m);
      const MaterialKey nextKey = keyAfter(b, key, m);
      int v;
      if (isZeroing(b, m)) {
        if (wdl == -2) v = -1;
        else v = probeAb(next, nextKey, 1, 2).first == 2 ? 0 : -101;
      } else {
        v = -dtz(next, nextKey) - 1;
      }
      if (status) return 0;
      if (v < best) best = v;
    }
    return best;
  }
};

}  // namespace syzygy
}  // namespace bbp
