// Syzygy tablebase decoder and probe search (the twin of lib/backends/js/syzygy.ts, step for step).
//
// Format: Ronald de Man's Syzygy tables (generator github.com/syzygy1/tb; Chess Programming Wiki,
// "Syzygy Bases"). Per side to move, and for tables with pawns per file a-d of the leading pawn,
// positions are enumerated by a piece-placement index and stored compressed: a RE-PAIR grammar
// whose symbols are canonical-Huffman coded in fixed-size blocks, found through a sparse index every
// 2^idxbits entries and a table of block lengths. WDL files store WDL + 2; DTZ files store one side
// to move, a distance in plies or moves (per flags) possibly through a value map per WDL class.
// The probe search on top resolves captures and en passant, which the tables leave out.
//
// No I/O and no exceptions here: a Table parses a file image someone else maps; problems are
// status codes with a static message. The glue (native/addon/syzygy.cc) maps files and loads
// tables on first use through a TableSource.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "bitboard.h"

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

// ---- Boards and moves (bitboards; types 1..6 = P N B R Q K) ----
//
// A Board keeps the pieces as bitboards by colour and by type, with the material key and the piece
// count kept up to date by applyMove. A move is from | to << 6 | promotion type << 12 | kEpFlag,
// and for the search also carries the moving type << 16 and the captured type << 19 (0 none); the
// low 16 bits are the move as lib/backends/js/syzygy.ts writes it.

struct Board {
  U64 color[2];
  U64 type[7];  // 1..6
  U64 occ;
  MaterialKey key;  // as Table::keyOf
  int count;  // pieces on the board
  int stm;
  int ep;  // -1 none
};

struct Geometry {
  std::int8_t knight[64][9];  // targets, -1 terminated
  std::int8_t king[64][9];
  std::int8_t ray[8][64][8];  // squares outwards, -1 terminated; dirs 0..3 rook-wise, 4..7 bishop-wise
  U64 rayMask[8][64];  // the same as sets
  U64 knightMask[64], kingMask[64];
  U64 pawnMask[2][64];  // squares a pawn of the colour on the square attacks
  U64 between[64][64];  // squares strictly between two aligned squares
  std::uint8_t line[64][64];  // 0 not aligned, 1 rook-wise, 2 bishop-wise
};

constexpr Geometry makeGeometry() {
  Geometry g{};
  constexpr int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int ki[8][2] = {{1, 1}, {1, 0}, {1, -1}, {0, 1}, {0, -1}, {-1, 1}, {-1, 0}, {-1, -1}};
  constexpr int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  for (int s = 0; s < 64; ++s) {
    int n = 0, m = 0;
    for (int i = 0; i < 8; ++i) {
      int f = fileOf(s) + kn[i][0], r = rankOf(s) + kn[i][1];
      if (f >= 0 && f < 8 && r >= 0 && r < 8) g.knight[s][n++] = static_cast<std::int8_t>(r * 8 + f);
      f = fileOf(s) + ki[i][0], r = rankOf(s) + ki[i][1];
      if (f >= 0 && f < 8 && r >= 0 && r < 8) g.king[s][m++] = static_cast<std::int8_t>(r * 8 + f);
    }
    g.knight[s][n] = -1;
    g.king[s][m] = -1;
    for (int i = 0; i < n; ++i) g.knightMask[s] |= U64{1} << g.knight[s][i];
    for (int i = 0; i < m; ++i) g.kingMask[s] |= U64{1} << g.king[s][i];
    for (int c = 0; c < 2; ++c) {
      const int r = rankOf(s) + (c == 0 ? 1 : -1);
      if (r < 0 || r > 7) continue;
      if (fileOf(s) > 0) g.pawnMask[c][s] |= U64{1} << (r * 8 + fileOf(s) - 1);
      if (fileOf(s) < 7) g.pawnMask[c][s] |= U64{1} << (r * 8 + fileOf(s) + 1);
    }
    for (int d = 0; d < 8; ++d) {
      int k = 0;
      for (int f = fileOf(s) + dirs[d][0], r = rankOf(s) + dirs[d][1]; f >= 0 && f < 8 && r >= 0 && r < 8;
           f += dirs[d][0], r += dirs[d][1])
        g.ray[d][s][k++] = static_cast<std::int8_t>(r * 8 + f);
      if (k < 8) g.ray[d][s][k] = -1;
      U64 seen = 0;
      for (int j = 0; j < k; ++j) {
        const int t = g.ray[d][s][j];
        g.between[s][t] = seen;
        g.line[s][t] = d < 4 ? 1 : 2;
        seen |= U64{1} << t;
      }
      g.rayMask[d][s] = seen;
    }
  }
  return g;
}

inline constexpr Geometry kGeometry = makeGeometry();

// Directions 0, 2, 4, 6 go towards higher squares (the nearest blocker is the lowest bit).
inline constexpr bool kRayUp[8] = {true, false, true, false, true, false, true, false};

// The material key's unit for one piece of a colour and a type 1..5.
constexpr MaterialKey keyUnit(int color, int type) { return MaterialKey{1} << (3 * (type - 1) + 15 * color); }

// Is square s attacked by colour `by` on the occupancy `occ`?
inline bool attacked(const Board& b, int s, int by, U64 occ) {
  const Geometry& g = kGeometry;
  const U64 them = b.color[by];
  if ((g.knightMask[s] & b.type[2] & them) || (g.kingMask[s] & b.type[6] & them) || (g.pawnMask[by ^ 1][s] & b.type[1] & them))
    return true;
  for (U64 x = (b.type[3] | b.type[4] | b.type[5]) & them & occ; x; x &= x - 1) {
    const int p = lsb(x);
    const int line = g.line[p][s];
    if (!line || (g.between[p][s] & occ)) continue;
    const U64 bit = U64{1} << p;
    if ((b.type[5] & bit) || (line == 1 ? (b.type[4] & bit) : (b.type[3] & bit))) return true;
  }
  return false;
}
inline bool attacked(const Board& b, int s, int by) { return attacked(b, s, by, b.occ); }

constexpr int kEpFlag = 1 << 15;
constexpr int moveTo(int m) { return (m >> 6) & 63; }
constexpr int moverOf(int m) { return (m >> 16) & 7; }
constexpr int capturedOf(int m) { return (m >> 19) & 7; }

inline int kingSquare(const Board& b, int color) {
  const U64 k = b.color[color] & b.type[6];
  return k ? lsb(k) : -1;
}

inline int typeAt(const Board& b, int s) {
  for (int t = 1; t <= 6; ++t)
    if ((b.type[t] >> s) & 1) return t;
  return 0;
}

inline Board applyMove(const Board& b, int m) {
  Board n = b;
  const int from = m & 63, to = moveTo(m), promo = (m >> 12) & 7, mover = moverOf(m), captured = capturedOf(m);
  const int us = b.stm, them = us ^ 1;
  const U64 fromBit = U64{1} << from, toBit = U64{1} << to;
  if (captured) {
    n.color[them] &= ~toBit;
    n.type[captured] &= ~toBit;
    if (captured != 6) n.key -= keyUnit(them, captured);
    --n.count;
  }
  if (m & kEpFlag) {
    const U64 victim = U64{1} << (to + (us == 0 ? -8 : 8));
    n.color[them] &= ~victim;
    n.type[1] &= ~victim;
    n.key -= keyUnit(them, 1);
    --n.count;
  }
  n.color[us] ^= fromBit | toBit;
  n.type[mover] &= ~fromBit;
  if (promo) {
    n.type[promo] |= toBit;
    n.key += keyUnit(us, promo) - keyUnit(us, 1);
  } else {
    n.type[mover] |= toBit;
  }
  n.occ = n.color[0] | n.color[1];
  n.ep = (mover == 1 && iabs(to - from) == 16) ? (from + to) >> 1 : -1;
  n.stm = them;
  return n;
}

struct MoveList {
  int moves[256];
  int count = 0;
};

// Every legal move in square order of the moving piece, each piece's moves in the order of
// lib/backends/js/syzygy.ts (pawns: push, double push, captures towards the a-file side first, promotions
// queen to knight; knights and kings in their step order; sliders ray by ray outwards); with
// `capturesOnly` the captures of a piece (no en passant) in the same order.
inline void legalMoves(const Board& b, MoveList& out, bool capturesOnly = false) {
  out.count = 0;
  const int us = b.stm, them = us ^ 1;
  const U64 ours = b.color[us], targets = b.color[them] & ~b.type[6];
  const int ownKing = kingSquare(b, us);
  const Geometry& g = kGeometry;
  // a move is legal when our king is not attacked afterwards
  auto push = [&](int m) {
    const int from = m & 63, to = moveTo(m);
    U64 occ = (b.occ & ~(U64{1} << from)) | U64{1} << to;
    Board after = b;
    const U64 toBit = U64{1} << to;
    after.color[them] &= ~toBit;
    if (m & kEpFlag) {
      const U64 victim = U64{1} << (to + (us == 0 ? -8 : 8));
      after.color[them] &= ~victim;
      occ &= ~victim;
    }
    const int king = moverOf(m) == 6 ? to : ownKing;
    if (!attacked(after, king, them, occ)) out.moves[out.count++] = m;
  };
  auto step = [&](int from, int to, int base) {
    const U64 bit = U64{1} << to;
    if (!(b.occ & bit)) {
      if (!capturesOnly) push(base | (to << 6));
    } else if (targets & bit) {
      push(base | (to << 6) | typeAt(b, to) << 19);
    }
    (void)from;
  };
  for (U64 x = ours; x; x &= x - 1) {
    const int from = lsb(x);
    const int type = typeAt(b, from);
    const int base = from | type << 16;
    if (type == 1) {
      const int up = us == 0 ? 8 : -8;
      const int lastRank = us == 0 ? 7 : 0;
      auto pawnMove = [&](int to, int capture) {
        if (rankOf(to) == lastRank)
          for (int promo = 5; promo >= 2; --promo) push(base | (to << 6) | (promo << 12) | capture << 19);
        else push(base | (to << 6) | capture << 19);
      };
      const int one = from + up;
      if (one < 0 || one >= 64) continue;
      if (!capturesOnly && !((b.occ >> one) & 1)) {
        pawnMove(one, 0);
        const int startRank = us == 0 ? 1 : 6;
        if (rankOf(from) == startRank && !((b.occ >> (one + up)) & 1)) push(base | ((one + up) << 6));
      }
      if (!(g.pawnMask[us][from] & (targets | (b.ep >= 0 && !capturesOnly ? U64{1} << b.ep : 0)))) continue;
      for (const int df : {-1, 1}) {
        const int f = fileOf(from) + df;
        if (f < 0 || f > 7) continue;
        const int to = one + df;
        if ((targets >> to) & 1) pawnMove(to, typeAt(b, to));
        else if (!((b.occ >> to) & 1) && to == b.ep && !capturesOnly) push(base | (to << 6) | kEpFlag);
      }
    } else if (type == 2 || type == 6) {
      const U64 mask = type == 2 ? g.knightMask[from] : g.kingMask[from];
      if (capturesOnly && !(mask & targets)) continue;
      for (const std::int8_t* t = type == 2 ? g.knight[from] : g.king[from]; *t >= 0; ++t) step(from, *t, base);
    } else {
      const int d0 = type == 3 ? 4 : 0, d1 = type == 4 ? 4 : 8;
      for (int dir = d0; dir < d1; ++dir) {
        const U64 blockers = g.rayMask[dir][from] & b.occ;
        if (capturesOnly) {
          if (!blockers) continue;
          const int to = kRayUp[dir] ? lsb(blockers) : msb(blockers);
          if ((targets >> to) & 1) push(base | (to << 6) | typeAt(b, to) << 19);
          continue;
        }
        const std::int8_t* ray = g.ray[dir][from];
        for (int k = 0; k < 8 && ray[k] >= 0; ++k) {
          const int to = ray[k];
          step(from, to, base);
          if ((b.occ >> to) & 1) break;
        }
      }
    }
  }
}

// Does the side to move have a legal move? (legalMoves, stopping at the first.)
inline bool hasLegalMove(const Board& b) {
  MoveList ml;
  legalMoves(b, ml);
  return ml.count > 0;
}

inline bool isCapture(int m) { return (m & kEpFlag) || capturedOf(m); }
inline bool isZeroing(int m) { return isCapture(m) || moverOf(m) == 1; }

inline bool inCheck(const Board& b) { return attacked(b, kingSquare(b, b.stm), b.stm ^ 1); }
inline bool isCheckmate(const Board& b) { return inCheck(b) && !hasLegalMove(b); }

// Reads the packed layout; false when the words are no position the tables can be asked about
// (the same rules as boardFromPacked in lib/backends/js/syzygy.ts). `castling` and `count` are set either way.
inline bool boardFromPacked(const U64* w, Board& b, int& castling, int& count) {
  U64 all = 0, shared = 0;
  b.type[0] = 0;
  for (int t = 0; t < 6; ++t) {
    const U64 set = w[2 + t];
    shared |= all & set;
    all |= set;
    b.type[t + 1] = set;
  }
  b.color[0] = w[0];
  b.color[1] = w[1];
  b.occ = all;
  count = 0;
  MaterialKey key = 0;
  for (int t = 1; t <= 5; ++t)
    for (U64 x = b.type[t]; x; x &= x - 1) key += keyUnit((w[0] >> lsb(x)) & 1 ? 0 : 1, t);
  for (U64 x = all; x; x &= x - 1) ++count;
  b.key = key;
  b.count = count;
  const U64 whiteKing = w[0] & w[7], blackKing = w[1] & w[7];
  constexpr U64 kBackRanks = 0xff000000000000ffULL;
  bool valid = !(w[0] & w[1]) && !shared && all == (w[0] | w[1]) && !(w[2] & kBackRanks) && whiteKing &&
               !(whiteKing & (whiteKing - 1)) && blackKing && !(blackKing & (blackKing - 1));
  const unsigned state = static_cast<unsigned>(w[8] & 0xffff);
  b.stm = state & 1;
  const int epCode = (state >> 8) & 255;
  if ((state & 0xc0) || epCode > 64 || (epCode < 64 && rankOf(epCode) != (b.stm ? 2 : 5))) valid = false;
  b.ep = epCode >= 64 ? -1 : epCode;
  castling = (state >> 1) & 15;
  if (valid && attacked(b, lsb(b.stm ? whiteKing : blackKing), b.stm)) valid = false;
  if (valid && b.ep >= 0) {
    // an en-passant square without the pawn that just moved two squares (behind it, with the square
    // and the pawn's origin empty) or that no legal capture uses changes nothing: it is dropped
    const int up = b.stm == 0 ? 8 : -8;
    if (!((b.color[b.stm ^ 1] & b.type[1]) >> (b.ep - up) & 1) || (all >> b.ep & 1) || (all >> (b.ep + up) & 1)) b.ep = -1;
  }
  if (valid && b.ep >= 0) {
    MoveList ml;
    legalMoves(b, ml);
    bool any = false;
    for (int i = 0; i < ml.count; ++i) any |= (ml.moves[i] & kEpFlag) != 0;
    if (!any) b.ep = -1;
  }
  return valid;
}

// ---- The probe search (python-chess's semantics) ----

inline constexpr int kWdlToMap[5] = {1, 3, 0, 2, 0};
inline constexpr int kPaFlags[5] = {8, 0, 0, 0, 4};
inline constexpr int kWdlToDtz[5] = {-1, -101, 0, 101, 1};

// One legal move at the root with what it leads to, from the mover's view (lib/tablebases/syzygy.ts's
// SyzygyRootMove): the move's low 16 bits, WDL and DTZ after it, zeroing (capture or pawn move), mate.
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

// Source: const Table* get(bool dtz, MaterialKey key, Status& status) -> the loaded table for the
// key or its mirror, or nullptr with status kMissing (not there) or the file's problem.
template <class Source>
class Prober {
 public:
  explicit Prober(Source& source) : src_(source) {}
  Status status = kOk;
  const Table* failedTable = nullptr;

  int wdl(const Board& b) {
    int v = probeAb(b, -2, 2).first;
    if (status || b.ep < 0) return v;
    MoveList ml;
    legalMoves(b, ml);
    const int ep = epValue(b, ml);
    if (ep > -3) {
      if (ep >= v) v = ep;
      else if (v == 0 && allEp(ml)) v = ep;
    }
    return v;
  }

  // Every legal move with its WDL and DTZ after it, best first: the highest WDL; among wins a mate,
  // then the fewest plies to the next zeroing move (a winning zeroing move counts 1); among losses
  // the most; otherwise generation order (the rules of probeRoot in lib/tablebases/syzygy.ts). Returns the
  // number of moves (0 with `status` set when a table is missing or damaged).
  int root(const Board& b, RootMove* out) {
    MoveList ml;
    legalMoves(b, ml);
    long long rank[256];
    int n = 0;
    for (int i = 0; i < ml.count; ++i) {
      const int m = ml.moves[i];
      const Board next = applyMove(b, m);
      RootMove r{m & 0xffff, 0, 0, isZeroing(m), isCheckmate(next)};
      r.wdl = r.mate ? 2 : -wdl(next);
      if (status) return 0;
      if (r.wdl != 0) {
        const int sign = r.wdl > 0 ? 1 : -1;
        if (r.mate || r.zeroing) r.dtz = sign * (iabs(r.wdl) == 2 ? 1 : 101);
        else r.dtz = -dtz(next) + sign;
        if (status) return 0;
      }
      // insertion keeps generation order among equal ranks
      const long long key = (r.mate ? 1000000LL : 0) + r.wdl * 100000LL - r.dtz;
      int at = n++;
      while (at > 0 && rank[at - 1] < key) {
        out[at] = out[at - 1];
        rank[at] = rank[at - 1];
        --at;
      }
      out[at] = r;
      rank[at] = key;
    }
    return n;
  }

  int dtz(const Board& b) {
    int v = dtzNoEp(b);
    if (status || b.ep < 0) return v;
    MoveList ml;
    legalMoves(b, ml);
    int ep = epValue(b, ml);
    if (ep <= -3) return v;
    ep = kWdlToDtz[ep + 2];
    if (v < -100) { if (ep >= 0) v = ep; }
    else if (v < 0) { if (ep >= 0 || ep < -100) v = ep; }
    else if (v > 100) { if (ep > 0) v = ep; }
    else if (v > 0) { if (ep == 1) v = ep; }
    else if (ep >= 0) v = ep;
    else if (allEp(ml)) v = ep;
    return v;
  }

 private:
  Source& src_;

  static bool allEp(const MoveList& ml) {
    for (int i = 0; i < ml.count; ++i)
      if (!(ml.moves[i] & kEpFlag)) return false;
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
    if (t.symmetric) { cmirror = b.stm ? 8 : 0; mirror = b.stm ? 56 : 0; side = 0; }
    else if (key != t.key) { cmirror = 8; mirror = 56; side = b.stm == 0 ? 1 : 0; }
    else { cmirror = 0; mirror = 0; side = b.stm; }
  }

  // The squares of the pieces in the encoding's order (each group of one piece code in square order).
  bool collect(const Table& t, const Board& b, const std::uint8_t* pieces, int cmirror, int mirror, int* pos, int from, int n) {
    for (int i = from; i < n;) {
      const int want = pieces[i] ^ cmirror;
      const int start = i;
      for (U64 x = b.color[want >> 3] & b.type[want & 7]; x && i < n; x &= x - 1) pos[i++] = lsb(x) ^ mirror;
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

  int tableWdl(const Board& b) {
    if (b.count == 2) return 0;
    return rawWdl(b, b.key);
  }

  std::pair<int, int> probeAb(const Board& b, int alpha, int beta) {
    MoveList ml;
    legalMoves(b, ml, true);
    for (int i = 0; i < ml.count; ++i) {
      const int m = ml.moves[i];
      const int v = -probeAb(applyMove(b, m), -beta, -alpha).first;
      if (status) return {0, 1};
      if (v > alpha) {
        if (v >= beta) return {v, 2};
        alpha = v;
      }
    }
    const int v = tableWdl(b);
    if (alpha >= v) return {alpha, alpha > 0 ? 2 : 1};
    return {v, 1};
  }

  int epValue(const Board& b, const MoveList& ml) {
    int best = -3;
    for (int i = 0; i < ml.count; ++i) {
      const int m = ml.moves[i];
      if (!(m & kEpFlag)) continue;
      const int v = -probeAb(applyMove(b, m), -2, 2).first;
      if (v > best) best = v;
    }
    return best;
  }

  int dtzNoEp(const Board& b) {
    const auto [wdlValue, how] = probeAb(b, -2, 2);
    const int wdl = wdlValue;
    if (status || wdl == 0) return 0;
    const int beforeZeroing = wdl > 0 ? (wdl == 2 ? 1 : 101) : (wdl == -2 ? -1 : -101);
    if (how == 2) return beforeZeroing;
    MoveList ml;
    legalMoves(b, ml);
    if (wdl > 0) {
      for (int i = 0; i < ml.count; ++i) {
        const int m = ml.moves[i];
        if (moverOf(m) != 1 || isCapture(m)) continue;
        const int v = -this->wdl(applyMove(b, m));
        if (status) return 0;
        if (v == wdl) return wdl == 2 ? 1 : 101;
      }
    }
    bool stored;
    const int value = rawDtz(b, b.key, wdl, stored);
    if (status) return 0;
    if (stored) return beforeZeroing + (wdl > 0 ? value : -value);
    if (wdl > 0) {
      int best = 0xffff;
      for (int i = 0; i < ml.count; ++i) {
        const int m = ml.moves[i];
        if (isZeroing(m)) continue;
        const Board next = applyMove(b, m);
        const int v = -dtz(next);
        if (status) return 0;
        if (v == 1 && isCheckmate(next)) best = 1;
        else if (v > 0 && v + 1 < best) best = v + 1;
      }
      return best;
    }
    int best = -1;
    for (int i = 0; i < ml.count; ++i) {
      const int m = ml.moves[i];
      const Board next = applyMove(b, m);
      int v;
      if (isZeroing(m)) {
        if (wdl == -2) v = -1;
        else v = probeAb(next, 1, 2).first == 2 ? 0 : -101;
      } else {
        v = -dtz(next) - 1;
      }
      if (status) return 0;
      if (v < best) best = v;
    }
    return best;
  }
};

}  // namespace syzygy
}  // namespace bbp
