// Native FEN / EPD line parser for batches: the exact rules of lib/core/position.ts `parseFen` (same
// accepted inputs, same rejected ones, and the same FEN field blamed), writing the 10-word packed
// layout. It reports only the field; the caller re-parses the rare bad line with the JS parser to get
// the FenError message, so messages never drift apart. Lines with a byte >= 0x80 are handed to the
// JS parser whole (kFenNotAscii): JS trims and splits on Unicode white space, which bytes cannot see.
//
// EPD mode (the CLI's input): a line whose 5th field is not all digits, or that has more than six
// fields, is EPD: its first four fields are the position (parsed as a four-field FEN: clocks 0 and
// 1) and the rest are EPD operations, ignored. Any other line is read as FEN, rules unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

// The order of FEN_STATUS in lib/batch/batch.ts (index 1.. = the FenError field names).
enum FenStatus : std::uint8_t {
  kFenOk, kFenBadFen, kFenBadPieces, kFenBadSideToMove, kFenBadCastling, kFenBadEnPassant,
  kFenBadHalfmoveClock, kFenBadFullmoveNumber, kFenNotAscii,
};

constexpr std::size_t kMaxFenLength = 200;   // MAX_FEN_LENGTH
constexpr unsigned kMaxClock = 1000000;      // MAX_CLOCK

namespace fen {
// JS \s and String.prototype.trim on ASCII: tab, LF, VT, FF, CR, space.
constexpr bool isSpace(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }
constexpr bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }

struct Field {
  const char* p = nullptr;
  std::size_t n = 0;
  bool is(const char* lit) const {
    std::size_t i = 0;
    for (; lit[i]; ++i)
      if (i >= n || p[i] != lit[i]) return false;
    return i == n;
  }
  bool allDigits() const {
    for (std::size_t i = 0; i < n; ++i)
      if (!isDigit(static_cast<unsigned char>(p[i]))) return false;
    return true;
  }
};

constexpr int pieceType(char c) {
  switch (c | 0x20) {
    case 'p': return kPawn;
    case 'n': return kKnight;
    case 'b': return kBishop;
    case 'r': return kRook;
    case 'q': return kQueen;
    case 'k': return kKing;
    default: return -1;
  }
}

// /^\d{1,7}$/, then min..kMaxClock; -1 when not.
inline long clock(const Field& f, unsigned min) {
  if (f.n < 1 || f.n > 7 || !f.allDigits()) return -1;
  long v = 0;
  for (std::size_t i = 0; i < f.n; ++i) v = v * 10 + (f.p[i] - '0');
  return v < static_cast<long>(min) || v > static_cast<long>(kMaxClock) ? -1 : v;
}

// What a byte is in the placement field: 0 not allowed, 1..8 a run of empty squares, kSlash, or
// kPiece + 8 * colour + type.
constexpr std::uint8_t kSlash = 9, kPiece = 16;
struct PlacementCodes {
  std::uint8_t code[256] = {};
  constexpr PlacementCodes() {
    for (int d = 1; d <= 8; ++d) code['0' + d] = static_cast<std::uint8_t>(d);
    code['/'] = kSlash;
    const char* letters = "pnbrqk";
    for (int t = 0; t < 6; ++t) {
      code[static_cast<unsigned char>(letters[t])] = static_cast<std::uint8_t>(kPiece + 8 + t);
      code[static_cast<unsigned char>(letters[t] - 32)] = static_cast<std::uint8_t>(kPiece + t);
    }
  }
};
inline constexpr PlacementCodes kPlacementCodes{};

// The placement field: 8 ranks separated by '/', the JS loop's rules, in one pass. (The JS loop stops
// reading a rank once it has passed 8 squares, leaving its later characters unchecked; the field is
// refused then whatever they are, so failing at once gives the same answers.)
inline bool placement(const Field& f, U64 colors[2], U64 pieces[6]) {
  int rank = 7, file = 0;
  bool lastWasDigit = false;
  for (std::size_t k = 0; k < f.n; ++k) {
    const unsigned code = kPlacementCodes.code[static_cast<unsigned char>(f.p[k])];
    if (code >= kPiece) {
      if (file >= 8) return false;
      const U64 bit = squareBB(rank * 8 + file);
      colors[(code - kPiece) >> 3] |= bit;
      pieces[(code - kPiece) & 7] |= bit;
      ++file;
      lastWasDigit = false;
    } else if (code == kSlash) {
      if (file != 8 || rank == 0) return false;
      --rank;
      file = 0;
      lastWasDigit = false;
    } else if (code != 0) {
      if (lastWasDigit) return false;
      file += static_cast<int>(code);
      if (file > 8) return false;
      lastWasDigit = true;
    } else {
      return false;
    }
  }
  return rank == 0 && file == 8;
}

// ASCII white space (isSpace) as a table.
struct SpaceTable {
  bool space[256] = {};
  constexpr SpaceTable() {
    for (int c = 0; c < 256; ++c) space[c] = isSpace(static_cast<unsigned char>(c));
  }
};
inline constexpr SpaceTable kSpaceTable{};
inline bool spaceAt(const char* p) { return kSpaceTable.space[static_cast<unsigned char>(*p)]; }

// True when no byte of [p, p + n) is >= 0x80, eight bytes at a time.
inline bool allAscii(const char* p, std::size_t n) {
  std::uint64_t high = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    high |= word;
  }
  for (; i < n; ++i) high |= static_cast<unsigned char>(p[i]);
  return (high & 0x8080808080808080ULL) == 0;
}

// The castling field, as lib/core/chess960.ts readCastlingField: standard KQkq (in that order),
// Shredder-FEN file letters (a Chess960 position by themselves), and with `chess960` X-FEN (KQkq for
// the outermost rook on that side of the king, a file letter for any rook) in any order, each right
// at most once. The king is the lowest-file king of its colour on its first rank.
struct Castling {
  int rights = 0, fields = 0;
  bool chess960 = false;
};
inline bool castlingField(const Field& f, const U64 colors[2], const U64 pieces[6], bool chess960, Castling& out) {
  out = Castling{};
  out.chess960 = chess960;
  if (f.is("-")) return true;
  bool standard = !chess960, shredder = !chess960;
  {
    const char order[4] = {'K', 'Q', 'k', 'q'};
    std::size_t k = 0;
    for (int r = 0; r < 4 && k < f.n; ++r)
      if (f.p[k] == order[r]) out.rights |= 1 << r, ++k;
    standard = standard && k == f.n;
  }
  if (standard) return true;
  out.rights = 0;
  for (std::size_t i = 0; i < f.n; ++i) {
    const char c = f.p[i];
    const bool fileLetter = (c >= 'A' && c <= 'H') || (c >= 'a' && c <= 'h');
    shredder = shredder && fileLetter;
    if (!fileLetter && c != 'K' && c != 'Q' && c != 'k' && c != 'q') return false;
  }
  if ((!chess960 && !shredder) || f.n > 4) return false;
  int files[4] = {-1, -1, -1, -1};
  for (std::size_t i = 0; i < f.n; ++i) {
    const char ch = f.p[i];
    const int c = ch >= 'a' ? 1 : 0, rank = c ? 56 : 0;
    const U64 king = colors[c] & pieces[kKing] & (U64{0xff} << rank);
    if (!king) return false;
    const int kf = fileOf(lsb(king));
    const U64 rooks = (colors[c] & pieces[kRook]) >> rank & 0xff;
    const char lower = static_cast<char>(ch | 0x20);
    int file;
    bool kingSide;
    if (lower == 'k' || lower == 'q') {
      kingSide = lower == 'k';
      const U64 side = kingSide ? rooks & ~((U64{2} << kf) - 1) : rooks & ((U64{1} << kf) - 1);
      if (!side) return false;
      file = kingSide ? msb(side) : lsb(side);
    } else {
      file = lower - 'a';
      if (file == kf || !(rooks >> file & 1)) return false;
      kingSide = file > kf;
    }
    const int r = 2 * c + (kingSide ? 0 : 1);
    if (files[r] >= 0) return false;
    files[r] = file;
  }
  for (int r = 0; r < 4; ++r)
    if (files[r] >= 0) out.rights |= 1 << r, out.fields |= (files[r] ^ kStandardRookFile[r]) << (3 * r);
  out.chess960 = true;
  return true;
}
}  // namespace fen

// Parses one line (no '\n' inside; a trailing '\r' is white space) into w[0..9]. On any status but
// kFenOk the words are left all zero.
template <class Sliders>
FenStatus parseFenLine(const Sliders& s, const char* text, std::size_t len, bool epd, U64* w, bool chess960 = false) {
  for (int i = 0; i < kPackedPositionWords; ++i) w[i] = 0;
  if (!fen::allAscii(text, len)) return kFenNotAscii;

  fen::Field fields[6];
  int count = 0;
  bool more = false;  // a 7th field exists
  for (std::size_t i = 0; i < len;) {
    while (i < len && fen::spaceAt(text + i)) ++i;
    if (i >= len) break;
    const std::size_t start = i;
    while (i < len && !fen::spaceAt(text + i)) ++i;
    if (count < 6) fields[count++] = fen::Field{text + start, i - start};
    else { more = true; break; }
  }

  if (epd && (more || (count >= 5 && !fields[4].allDigits()))) {
    if (fields[0].n + fields[1].n + fields[2].n + fields[3].n + 3 > kMaxFenLength) return kFenBadFen;
    count = 4;
  } else {
    if (len > kMaxFenLength) return kFenBadFen;
    if (more || (count != 4 && count != 6)) return kFenBadFen;
  }

  U64 colors[2] = {0, 0};
  U64 pieces[6] = {0, 0, 0, 0, 0, 0};
  if (!fen::placement(fields[0], colors, pieces)) return kFenBadPieces;

  int sideToMove;
  if (fields[1].is("w")) sideToMove = 0;
  else if (fields[1].is("b")) sideToMove = 1;
  else return kFenBadSideToMove;

  fen::Castling read;
  if (!fen::castlingField(fields[2], colors, pieces, chess960, read)) return kFenBadCastling;
  const int castling = read.rights;

  int epSquare = kNoSquare;
  if (!fields[3].is("-")) {
    const fen::Field& f = fields[3];
    if (f.n != 2 || f.p[0] < 'a' || f.p[0] > 'h' || f.p[1] < '1' || f.p[1] > '8') return kFenBadEnPassant;
    epSquare = (f.p[1] - '1') * 8 + (f.p[0] - 'a');
  }

  long halfmove = 0, fullmove = 1;
  if (count == 6) {
    if ((halfmove = fen::clock(fields[4], 0)) < 0) return kFenBadHalfmoveClock;
    if ((fullmove = fen::clock(fields[5], 1)) < 0) return kFenBadFullmoveNumber;
  }

  // The board rules of validate() (colours and types cannot overlap when read from FEN).
  for (int c = 0; c < 2; ++c)
    if (popcount(colors[c] & pieces[kKing]) != 1) return kFenBadPieces;
  if (pieces[kPawn] & (kRank1 | kRank8)) return kFenBadPieces;
  constexpr int kCastleKing[4] = {4, 4, 60, 60}, kCastleRook[4] = {7, 0, 63, 56};
  for (int r = 0; r < 4 && !read.chess960; ++r) {
    if (!(castling & (1 << r))) continue;
    const U64 own = colors[r >> 1];
    if (!(own & pieces[kKing] & squareBB(kCastleKing[r])) || !(own & pieces[kRook] & squareBB(kCastleRook[r])))
      return kFenBadCastling;
  }
  if (epSquare != kNoSquare) {
    if (rankOf(epSquare) != (sideToMove == 0 ? 5 : 2)) return kFenBadEnPassant;
    const int pawnSq = sideToMove == 0 ? epSquare - 8 : epSquare + 8;
    const int originSq = sideToMove == 0 ? epSquare + 8 : epSquare - 8;
    if (!(colors[sideToMove ^ 1] & pieces[kPawn] & squareBB(pawnSq))) return kFenBadEnPassant;
    if ((colors[0] | colors[1]) & (squareBB(epSquare) | squareBB(originSq))) return kFenBadEnPassant;
  }

  U64 packed[kPackedPositionWords];
  packed[0] = colors[0];
  packed[1] = colors[1];
  for (int t = 0; t < 6; ++t) packed[2 + t] = pieces[t];
  packed[8] = static_cast<U64>(sideToMove) | (static_cast<U64>(castling) << 1) | (static_cast<U64>(epSquare) << 8) |
              (static_cast<U64>(halfmove) << 16) | (read.chess960 ? kStateChess960 : 0) |
              (static_cast<U64>(read.fields) << kRookFieldsShift);
  packed[9] = static_cast<U64>(fullmove);
  if (checkers(s, unpack(packed), sideToMove ^ 1)) return kFenBadSideToMove;
  for (int i = 0; i < kPackedPositionWords; ++i) w[i] = packed[i];
  return kFenOk;
}

}  // namespace BBP_ISA
}  // namespace bbp
