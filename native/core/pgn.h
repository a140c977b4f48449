// PGN reading, the hot path: tokenizing the PGN import format (PGN standard section 8: tag pairs
// 8.1, movetext 8.2, comments 5, escape lines 6, NAGs 8.2.4, variations 8.2.5, game termination
// markers 8.2.6), resolving each SAN move on the legal move list (san.h), playing it, and writing
// the positions (the packed layout of position.h) into growing buffers. Many games per call; the
// caller turns the compact records into objects (lib/games/pgn.ts). Twin: lib/backends/js/pgn.ts, the same
// records byte for byte.
//
// Game boundaries (the import format is lenient): a game starts at a '[' tag or, at the very start
// of the input, at movetext without tags; it ends at its termination marker, at the next tag after
// its movetext (or after a blank line that closes its tag section: a game with no movetext), or at
// the end of the input. A blank line followed by a tag whose name the game does not have yet does not
// close the tag section (ChessBase exports, see tagsGoOn). Text after a termination marker up to the next line that starts with '['
// is garbage between games and skipped. A game with an error (bad tag, malformed / illegal /
// ambiguous move, null move in check, unbalanced parenthesis, unterminated comment, bad FEN tag)
// keeps the moves before it; its positions are not written; reading goes on at its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__SSE2__) && !defined(BBP_PORTABLE)
#include <emmintrin.h>
#endif

#include "annotations.h"
#include "fen.h"
#include "outcome.h"
#include "pgn_tokens.h"
#include "san.h"

namespace bbp {
inline namespace BBP_ISA {
namespace pgn {

// The order of PGN_ERRORS in lib/games/pgn.ts.
enum PgnErrorCode : int {
  kPgnNoError, kPgnBadTag, kPgnMalformedMove, kPgnIllegalMove, kPgnAmbiguousMove, kPgnNullMoveInCheck,
  kPgnUnbalancedParen, kPgnUnterminatedComment, kPgnBadFen, kPgnUnsupportedVariant,
};

// Fields of a game record (Int32 each); the order of GAME_FIELDS in lib/games/pgn.ts.
enum GameField : int {
  gStart, gEnd, gLine, gMoveStart, gMoveCount, gTagStart, gTagCount, gCommentStart, gCommentCount,
  gNagStart, gNagCount, gResult, gError, gErrorLine, gErrorColumn, gErrorTokenStart, gErrorTokenEnd,
  gSanStart, gSanEnd, gPositionStart, gPositionCount, gFenTag,
  gOutcome,  // with kOutcome: outcome.h's code of the game's last position (0 also for a bad game)
  kGameFields
};

// Options.
constexpr int kWriteSan = 1, kWriteComments = 2, kWritePositions = 4, kFinalOnly = 8, kLastChunk = 16,
              kNotFirst = 32,  // the input continues a file: no BOM, no tagless first game
              kWriteAnnotations = 64,  // [%clk] [%emt] [%eval] commands of main-line comments (annotations.h)
              kOutcome = 128,          // each game's outcome (outcome.h) in gOutcome
              kBoundariesOnly = 256;   // games found by their tokens alone: no move read, nothing written
                                       // but the game records (for cutting a text at game boundaries)

struct Options {
  int flags = kWriteSan;
  int every = 1;     // positions every Nth ply (counted from fromPly)
  int fromPly = 0;   // positions from this ply on (0 = the start position)
  int firstLine = 1; // line number of the first byte
  // Added to the game index written with each position (positionGame): the caller's numbering of
  // the first game of this text (0: indexes within the text).
  std::uint32_t gameBase = 0;
};

// Asks for 2 MB pages for the whole 2 MB pages inside a large block about to be written: far fewer
// page faults (a hint; a no-op off Linux or where transparent huge pages are off).
inline void adviseHugePages(void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t kHuge = std::size_t{1} << 21;
  if (bytes < 4 * kHuge) return;
  const std::size_t a = (reinterpret_cast<std::size_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const std::size_t e = (reinterpret_cast<std::size_t>(p) + bytes) & ~(kHuge - 1);
  if (e > a) madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// A growing array of a trivially copyable type in malloc'd memory: grown with realloc (which moves
// large blocks by remapping pages instead of copying them), and handed over whole with release()
// (or kept for the next read with clear()); or, lent a caller's block (lend), written there while
// it has room. A failed allocation sets
// `failed` and leaves the array as it was; the reader stops after the game it is in.
template <typename T>
class Buf {
 public:
  Buf() = default;
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
  ~Buf() { std::free(lent_ ? own_ : data_); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  bool failed() const { return failed_; }
  // k more elements at the end, uninitialised; nullptr when memory ran out.
  T* grow(std::size_t k) {
    if (size_ + k > cap_ && !reserve(size_ + k)) return nullptr;
    T* p = data_ + size_;
    size_ += k;
    return p;
  }
  // True when k more elements fit without growing; growInPlace(k) then adds them (uninitialised).
  bool hasRoom(std::size_t k) const { return size_ + k <= cap_; }
  T* growInPlace(std::size_t k) {
    T* p = data_ + size_;
    size_ += k;
    return p;
  }
  void push_back(T v) {
    if (T* p = grow(1)) *p = v;
  }
  void append(const T* v, std::size_t k) {
    if (T* p = grow(k)) std::memcpy(p, v, k * sizeof(T));
  }
  // Empties the array, keeping its memory for the next read; gives the memory back when it holds
  // more than `keepBytes`.
  void clear(std::size_t keepBytes = ~std::size_t{0}) {
    endLoan();
    size_ = 0;
    failed_ = false;
    if (cap_ * sizeof(T) > keepBytes) std::free(release());
  }
  // Writing into memory the array does not own: `p`, room for `room` elements. The array starts empty
  // there; its own block is set aside until endLoan (or clear). Should p fill up, the elements move
  // to memory of the array's own and writing goes on there; lent() then turns false.
  void lend(T* p, std::size_t room) {
    endLoan();
    own_ = data_;
    ownCap_ = cap_;
    data_ = p;
    cap_ = room;
    size_ = 0;
    lent_ = true;
  }
  bool lent() const { return lent_; }
  // Back to the array's own block, empty, when the elements are still in lent memory.
  void endLoan() {
    if (!lent_) return;
    data_ = own_;
    cap_ = ownCap_;
    own_ = nullptr;
    ownCap_ = size_ = 0;
    lent_ = false;
  }
  // Room for n elements, as reserve, except in lent memory (a guess must not move the elements out).
  void expect(std::size_t n) {
    if (!lent_) reserve(n);
  }
  // Shrinks (the reader only ever shrinks with resize).
  void resize(std::size_t n) {
    if (n < size_) size_ = n;
  }
  bool reserve(std::size_t n) {
    if (n <= cap_) return true;
    std::size_t c = cap_ ? cap_ * 2 : 256;
    while (c < n) c *= 2;
    if (lent_) {
      // Out of lent memory: the elements so far move to a block of the array's own.
      void* p = std::malloc(c * sizeof(T));
      if (!p) {
        failed_ = true;
        return false;
      }
      std::free(own_);
      own_ = nullptr;
      ownCap_ = 0;
      lent_ = false;
      std::memcpy(p, data_, size_ * sizeof(T));
      data_ = static_cast<T*>(p);
      cap_ = c;
      adviseHugePages(p, c * sizeof(T));
      return true;
    }
    void* p = std::realloc(data_, c * sizeof(T));
    if (!p) {
      failed_ = true;
      return false;
    }
    data_ = static_cast<T*>(p);
    cap_ = c;
    adviseHugePages(p, c * sizeof(T));
    return true;
  }
  // The block (malloc'd, size() elements; free it with std::free), the array left empty.
  [[nodiscard]] T* release() {
    endLoan();
    T* p = data_;
    data_ = nullptr;
    size_ = cap_ = 0;
    return p;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0, cap_ = 0;
  bool failed_ = false;
  // While lent: the array's own block, set aside.
  bool lent_ = false;
  T* own_ = nullptr;
  std::size_t ownCap_ = 0;
};

struct Output {
  Buf<std::int32_t> games;     // kGameFields per game
  Buf<std::uint16_t> moves;    // encoded moves (movegen.h), 0 for a null move
  Buf<char> san;               // canonical SAN, each move followed by one space
  Buf<std::int32_t> tags;      // name start, name end, value start, value end (bytes)
  Buf<std::int32_t> comments;  // ply (moves before it), start, end (inside the braces / after ';')
  Buf<std::int32_t> nags;      // ply, NAG number (suffix annotations "!" .. "?!" as $1 .. $6)
  Buf<U64> positions;          // kPackedPositionWords per position
  Buf<std::uint32_t> positionGame;  // the position's game: Options::gameBase + its index in the text
  Buf<std::uint32_t> positionPly;
  // kAnnotationFields per [%clk] / [%emt] / [%eval] command of a main-line brace comment
  // (annotations.h), with kWriteAnnotations.
  Buf<std::int32_t> annotations;
  // Ready for another read, keeping up to keepBytes of memory per array.
  void clear(std::size_t keepBytes = ~std::size_t{0}) {
    games.clear(keepBytes);
    moves.clear(keepBytes);
    san.clear(keepBytes);
    tags.clear(keepBytes);
    comments.clear(keepBytes);
    nags.clear(keepBytes);
    positions.clear(keepBytes);
    positionGame.clear(keepBytes);
    positionPly.clear(keepBytes);
    annotations.clear(keepBytes);
    consumed = 0;
    consumedLine = 1;
  }
  bool failed() const {
    return games.failed() || moves.failed() || san.failed() || tags.failed() || comments.failed() || nags.failed() ||
           positions.failed() || positionGame.failed() || positionPly.failed() || annotations.failed();
  }
  std::size_t consumed = 0;            // bytes fully read (games complete)
  int consumedLine = 1;                // line number at `consumed`
};

constexpr int kMaxClockValue = 1000000;

// Character classes of the tokenizer (PGN standard 8.2: white space, and the self-delimiting
// characters that end a symbol token).
enum : unsigned char {
  kBlankChar = 1, kNewlineChar = 2, kDelimiterChar = 4, kLetterChar = 8,
  kTagNameChar = 16,    // a tag name's characters (section 8.1.1: letters, digits, underscore)
  kTagValueStop = 32,   // what ends the plain run of a tag value: the quote, a line end, an escape
  kBoundaryChar = 64,   // what can matter in the movetext of a game read for its boundaries only
                        // (Reader::skipMovetext): a line end, '[', '{', ';', '%', '*', '-'
};
struct CharClasses {
  unsigned char c[256];
  constexpr CharClasses() : c() {
    for (const char* d = " \t\r\v\f"; *d; ++d) c[static_cast<unsigned char>(*d)] = kBlankChar | kDelimiterChar;
    c[static_cast<unsigned char>('\n')] = kNewlineChar | kDelimiterChar;
    for (const char* d = "{}()[];$\""; *d; ++d) c[static_cast<unsigned char>(*d)] = kDelimiterChar;
    // Letters a move can start with (SAN 8.2.3: a file, a piece letter, castling, a null move "Z0").
    for (const char* d = "abcdefghNBRQKOPZ"; *d; ++d) c[static_cast<unsigned char>(*d)] = kLetterChar;
    for (int k = 0; k < 26; ++k) c['A' + k] |= kTagNameChar, c['a' + k] |= kTagNameChar;
    for (int k = 0; k < 10; ++k) c['0' + k] |= kTagNameChar;
    c[static_cast<unsigned char>('_')] |= kTagNameChar;
    for (const char* d = "\"\n\\"; *d; ++d) c[static_cast<unsigned char>(*d)] |= kTagValueStop;
    for (const char* d = "\n[{;%*-"; *d; ++d) c[static_cast<unsigned char>(*d)] |= kBoundaryChar;
  }
};
inline constexpr CharClasses kCharClasses{};

template <class Sliders>
class Reader {
 public:
  Reader(const Sliders& s, const char* text, std::size_t n, const Options& o, Output& out)
      : s_(s), p_(text), n_(n), o_(o), out_(out) {}

  void run() {
    line_ = o_.firstLine;
    lineStart_ = 0;
    i_ = 0;
    const bool first0 = !(o_.flags & kNotFirst);
    if (first0 && n_ >= 3 && static_cast<unsigned char>(p_[0]) == 0xef && static_cast<unsigned char>(p_[1]) == 0xbb &&
        static_cast<unsigned char>(p_[2]) == 0xbf)
      i_ = lineStart_ = 3;
    out_.consumed = i_;
    out_.consumedLine = line_;
    // Room for the positions of a dense text (about one per 16 bytes) up front: growing copies.
    if (o_.flags & kWritePositions) {
      const std::size_t guess = (o_.flags & kFinalOnly) ? n_ / 256 : n_ / 16;
      out_.positions.expect(guess * kPackedPositionWords);
      out_.positionGame.expect(guess);
      out_.positionPly.expect(guess);
    }
    bool first = first0;  // movetext without tags may start a game only at the very beginning
    for (;;) {
      // Between games: skip blank lines, escape lines and garbage up to a line starting with '['.
      bool found = false;
      while (i_ < n_) {
        skipBlank();
        if (i_ >= n_) break;
        const char c = p_[i_];
        if (c == '[' || (first && c != '%' && c != ';')) { found = true; break; }
        skipLine();
      }
      if (!found) {
        out_.consumed = n_;
        out_.consumedLine = line_;
        return;
      }
      first = false;
      const std::size_t gameStart = i_;
      const int gameLine = line_;
      const std::size_t gameLineStart = lineStart_;
      const std::size_t mark[8] = {out_.moves.size(), out_.san.size(), out_.tags.size(), out_.comments.size(),
                                   out_.nags.size(), out_.positions.size(), out_.positionGame.size(),
                                   out_.games.size()};
      const std::size_t annotationMark = out_.annotations.size();
      const bool complete = game();
      if (out_.failed()) return;  // out of memory: the caller reports it
      if (!complete && !(o_.flags & kLastChunk)) {
        // Unfinished at the end of this chunk: roll back; the caller sends it again with more text.
        out_.moves.resize(mark[0]);
        out_.san.resize(mark[1]);
        out_.tags.resize(mark[2]);
        out_.comments.resize(mark[3]);
        out_.nags.resize(mark[4]);
        out_.positions.resize(mark[5]);
        out_.positionGame.resize(mark[6]);
        out_.positionPly.resize(mark[6]);
        out_.games.resize(mark[7]);
        out_.annotations.resize(annotationMark);
        out_.consumed = gameLineStart;
        out_.consumedLine = gameLine;
        (void)gameStart;
        return;
      }
      out_.consumed = i_;
      out_.consumedLine = line_;
    }
  }

 private:
  const Sliders& s_;
  const char* p_;
  std::size_t n_;
  const Options& o_;
  Output& out_;
  std::size_t i_ = 0, lineStart_ = 0;
  int line_ = 1;

  // Every position is written (the default selection): wantPosition's tests once per read.
  const bool everyPly_ = (o_.flags & kWritePositions) && !(o_.flags & kFinalOnly) && o_.every == 1 && o_.fromPly <= 0;

  // Game state.
  std::int32_t* rec_ = nullptr;
  std::size_t recIndex_ = 0;
  std::uint32_t positionGame_ = 0;  // o_.gameBase + recIndex_
  Board board_{};
  int ply_ = 0, halfmove_ = 0, fullmove_ = 1;
  bool failed_ = false;
  std::size_t gameLineStart_ = 0;
  // With kOutcome: where the positions that can repeat start (outcome.h): the ply of the last
  // capture or pawn move or change of castling rights, and that position's castling rights and
  // en-passant square; the positions since are rebuilt at the game's end (gameOutcome).
  const bool outcome_ = (o_.flags & kOutcome) != 0;
  int windowStart_ = 0, windowCastling_ = 0, windowEp_ = kNoSquare;
  Buf<Board> history_;

  // The game's record (out_.games grows only when a game starts).
  std::int32_t& field(int f) { return rec_[f]; }

  static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
  static bool isDelimiter(char c) {
    return isSpace(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == ';' || c == '$' ||
           c == '"';
  }

  void newline() {
    ++line_;
    lineStart_ = i_ + 1;
  }
  // Skips white space (counting lines) and '%' escape lines (section 6: a '%' in the first column).
  void skipBlank() {
    while (i_ < n_) {
      const char c = p_[i_];
      if (c == '\n') {
        newline();
        ++i_;
      } else if (isSpace(c)) {
        ++i_;
      } else if (c == '%' && i_ == lineStart_) {
        skipLine();
      } else {
        break;
      }
    }
  }
  void skipLine() {
    while (i_ < n_ && p_[i_] != '\n') ++i_;
    if (i_ < n_) {
      newline();
      ++i_;
    }
  }
  // True when only white space precedes i_ on its line.
  bool atLineStart() const {
    for (std::size_t k = lineStart_; k < i_; ++k)
      if (!isSpace(p_[k])) return false;
    return true;
  }

  void fail(int code, std::size_t tokenStart, std::size_t tokenEnd, int line, std::size_t lineStart) {
    if (failed_) return;
    failed_ = true;
    field(gError) = code;
    field(gErrorLine) = line;
    field(gErrorColumn) = static_cast<std::int32_t>(tokenStart - lineStart + 1);
    field(gErrorTokenStart) = static_cast<std::int32_t>(tokenStart);
    field(gErrorTokenEnd) = static_cast<std::int32_t>(tokenEnd);
  }

  // fail() for a token of this game's tag section: its line found by counting from the game's start.
  void failInTags(int code, std::size_t tokenStart, std::size_t tokenEnd) {
    int line = field(gLine);
    std::size_t ls = static_cast<std::size_t>(field(gStart));
    for (std::size_t k = ls; k < tokenStart; ++k)
      if (p_[k] == '\n') ++line, ls = k + 1;
    if (line == field(gLine)) ls = gameLineStart_;
    fail(code, tokenStart, tokenEnd, line, ls);
  }

  bool wantPosition(int ply) const {
    if (everyPly_) return true;
    if (!(o_.flags & kWritePositions) || (o_.flags & kFinalOnly)) return false;
    // every == 1 (all plies) skips the division, a slow instruction on a path taken once per ply.
    return ply >= o_.fromPly && (o_.every == 1 || (ply - o_.fromPly) % o_.every == 0);
  }
  // Inline: the addon's translation unit otherwise keeps it out of line (two callers).
  BBP_ALWAYS_INLINE void writePosition() {
    // The three arrays grow together: one test for room in all of them, the growing path apart.
    if (BBP_LIKELY(out_.positions.hasRoom(kPackedPositionWords) && out_.positionGame.hasRoom(1) &&
                   out_.positionPly.hasRoom(1)))
      storePosition(out_.positions.growInPlace(kPackedPositionWords), out_.positionGame.growInPlace(1),
                    out_.positionPly.growInPlace(1));
    else
      writePositionGrowing();
  }
  [[gnu::noinline]] void writePositionGrowing() {
    U64* w = out_.positions.grow(kPackedPositionWords);
    std::uint32_t* g = out_.positionGame.grow(1);
    std::uint32_t* q = out_.positionPly.grow(1);
    if (!w || !g || !q) return;  // out of memory: run() stops after this game
    storePosition(w, g, q);
  }
  BBP_ALWAYS_INLINE void storePosition(U64* w, std::uint32_t* g, std::uint32_t* q) {
    // Everything read before the first store: the stores through w may alias the board's words.
    const U64 c0 = board_.colors[0], c1 = board_.colors[1], p0 = board_.pieces[0], p1 = board_.pieces[1],
              p2 = board_.pieces[2], p3 = board_.pieces[3], p4 = board_.pieces[4], p5 = board_.pieces[5];
    const U64 state = static_cast<U64>(board_.sideToMove) | static_cast<U64>(board_.castling) << 1 |
                      static_cast<U64>(board_.epSquare) << 8 | static_cast<U64>(halfmove_) << 16 |
                      (board_.chess960 ? kStateChess960 : 0) | static_cast<U64>(board_.rookFields) << kRookFieldsShift;
    const U64 fullmove = static_cast<U64>(fullmove_);
    const std::uint32_t game = positionGame_, ply = static_cast<std::uint32_t>(ply_);
    w[0] = c0;
    w[1] = c1;
    w[2] = p0;
    w[3] = p1;
    w[4] = p2;
    w[5] = p3;
    w[6] = p4;
    w[7] = p5;
    w[8] = state;
    w[9] = fullmove;
    *g = game;
    *q = ply;
  }

  // An en-passant square no legal capture uses is cleared (the convention of makeMove: equal
  // positions, equal FENs).
  void cleanEp() {
    if (board_.epSquare != kNoSquare && !san::epCaptureLegal(s_, board_)) board_.epSquare = kNoSquare;
  }

  // Tag pair (section 8.1.1): '[' name "value" ']'; on one line. False when malformed.
  bool tag() {
    std::size_t i = i_;  // in a register while scanning (see game())
    const std::size_t start = i;
    ++i;  // '['
    while (i < n_ && (p_[i] == ' ' || p_[i] == '\t')) ++i;
    const std::size_t nameStart = i;
    while (i < n_ && (kCharClasses.c[static_cast<unsigned char>(p_[i])] & kTagNameChar)) ++i;
    const std::size_t nameEnd = i;
    while (i < n_ && (p_[i] == ' ' || p_[i] == '\t')) ++i;
    bool ok = nameEnd > nameStart && i < n_ && p_[i] == '"';
    std::size_t valueStart = 0, valueEnd = 0;
    if (ok) {
      valueStart = ++i;
      for (;;) {
        while (i < n_ && !(kCharClasses.c[static_cast<unsigned char>(p_[i])] & kTagValueStop)) ++i;
        if (i >= n_ || p_[i] != '\\') break;  // the closing quote, a line end, or the end of the input
        i += i + 1 < n_ && p_[i + 1] != '\n' ? 2 : 1;  // an escape: the backslash and what it quotes
      }
      ok = i < n_ && p_[i] == '"';
      valueEnd = i;
      if (ok) {
        ++i;
        while (i < n_ && (p_[i] == ' ' || p_[i] == '\t')) ++i;
        ok = i < n_ && p_[i] == ']';
        if (ok) ++i;
      }
    }
    if (!ok) {
      std::size_t end = start;
      while (end < n_ && p_[end] != '\n' && p_[end] != '\r') ++end;
      fail(kPgnBadTag, start, end, line_, lineStart_);
      while (i < n_ && p_[i] != '\n') ++i;
      i_ = i;
      return false;
    }
    i_ = i;
    const std::int32_t t[4] = {static_cast<std::int32_t>(nameStart), static_cast<std::int32_t>(nameEnd),
                               static_cast<std::int32_t>(valueStart), static_cast<std::int32_t>(valueEnd)};
    out_.tags.append(t, 4);
    ++field(gTagCount);
    return true;
  }

  // After a blank line in a tag section (at k): true when more tags follow, the first of them with a
  // name this game has no tag of. ChessBase exports put blank lines between tags; a tag section
  // without movetext followed by the next game's tags (whose Event repeats) still ends there.
  bool tagsGoOn(std::size_t k, std::size_t firstTag) const {
    while (k < n_ && isSpace(p_[k])) ++k;
    if (k >= n_ || p_[k] != '[') return false;
    ++k;
    while (k < n_ && (p_[k] == ' ' || p_[k] == '\t')) ++k;
    const std::size_t nameStart = k;
    while (k < n_ && (kCharClasses.c[static_cast<unsigned char>(p_[k])] & kTagNameChar)) ++k;
    const std::size_t len = k - nameStart;
    if (len == 0) return false;
    for (std::size_t t = firstTag; t < out_.tags.size() / 4; ++t) {
      const std::int32_t* tag = &out_.tags[t * 4];
      if (static_cast<std::size_t>(tag[1] - tag[0]) == len && std::memcmp(p_ + tag[0], p_ + nameStart, len) == 0)
        return false;
    }
    return true;
  }

  bool tagIs(std::size_t k, const char* name) const {
    const std::int32_t* t = &out_.tags[k * 4];
    std::size_t len = 0;
    while (name[len]) ++len;
    if (static_cast<std::size_t>(t[1] - t[0]) != len) return false;
    for (std::size_t j = 0; j < len; ++j)
      if (p_[t[0] + j] != name[j]) return false;
    return true;
  }
  bool valueIsAny(std::size_t k, const char* const* values) const {
    const std::int32_t* t = &out_.tags[k * 4];
    for (; *values; ++values) {
      const char* v = *values;
      std::size_t len = 0;
      while (v[len]) ++len;
      if (static_cast<std::size_t>(t[3] - t[2]) != len) continue;
      bool same = true;
      for (std::size_t j = 0; j < len && same; ++j) same = (p_[t[2] + j] | 0x20) == (v[j] | 0x20);
      if (same) return true;
    }
    return false;
  }

  // The start position from the tags (FEN honoured with or without SetUp; Variant standard or
  // Chess960 in its common spellings, the FEN tag then read as X-FEN or Shredder-FEN).
  void startPosition(std::size_t firstTag) {
    static const char* const kStandard[] = {"standard", "chess", "normal", "", nullptr};
    static const char* const kChess960[] = {"chess960", "chess 960", "fischerandom", "fischer random", "frc", nullptr};
    U64 w[kPackedPositionWords];
    bool haveFen = false, chess960 = false;
    for (std::size_t k = firstTag; k < out_.tags.size() / 4; ++k) {
      const std::int32_t* t = &out_.tags[k * 4];
      if (tagIs(k, "Variant") && !valueIsAny(k, kStandard)) {
        if (valueIsAny(k, kChess960)) {
          chess960 = true;
          continue;
        }
        failInTags(kPgnUnsupportedVariant, static_cast<std::size_t>(t[2]), static_cast<std::size_t>(t[3]));
        return;
      }
    }
    for (std::size_t k = firstTag; k < out_.tags.size() / 4; ++k) {
      const std::int32_t* t = &out_.tags[k * 4];
      if (tagIs(k, "FEN")) {
        field(gFenTag) = static_cast<std::int32_t>(k - firstTag);
        if (parseFenLine(s_, p_ + t[2], static_cast<std::size_t>(t[3] - t[2]), false, w, chess960) != kFenOk) {
          failInTags(kPgnBadFen, static_cast<std::size_t>(t[2]), static_cast<std::size_t>(t[3]));
          return;
        }
        haveFen = true;
      }
    }
    if (!haveFen) {
      constexpr U64 kStart[kPackedPositionWords] = {
          0xffffULL, 0xffff000000000000ULL, 0x00ff00000000ff00ULL, 0x4200000000000042ULL, 0x2400000000000024ULL,
          0x8100000000000081ULL, 0x0800000000000008ULL, 0x1000000000000010ULL,
          static_cast<U64>(15) << 1 | static_cast<U64>(kNoSquare) << 8, 1};
      for (int k = 0; k < kPackedPositionWords; ++k) w[k] = kStart[k];
      if (chess960) w[8] |= kStateChess960;
    }
    board_ = unpack(w);
    halfmove_ = static_cast<int>((w[8] >> 16) & 0xfffff);
    fullmove_ = static_cast<int>(w[9]);
  }

  void addNag(int nag) {
    const std::int32_t v[2] = {ply_, nag};
    out_.nags.append(v, 2);
    ++field(gNagCount);
  }

  // One SAN token of the main line.
  void move(std::size_t start, std::size_t end) {
    const int suffixNag = suffixNagOf(p_, start, end);
    san::Syntax x;
    if (!san::parseSyntax(p_ + start, end - start, x)) return fail(kPgnMalformedMove, start, end, line_, lineStart_);
    play(start, end, x, suffixNag);
  }

  // The common SAN forms, read straight from the text at s (avail bytes to the end of the input):
  // a pawn push "e4", a pawn capture "exd5", a piece move "Nf3", "Nxe5", "Nbd7", "N1f3", "Nbxd7",
  // "N1xf3", castling "O-O" / "O-O-O", each with at most one '+' or '#' and then a delimiter or the
  // end of the input. Returns the token's length with x as parseSyntax reads it and no suffix
  // annotation, or 0 for any other token (the general path reads it). x comes freshly made (its
  // defaults are those of parseSyntax) and is left unspecified when the answer is 0.
  static BBP_ALWAYS_INLINE std::size_t commonToken(const char* s, std::size_t avail, san::Syntax& x) {
    // The first 8 bytes in one load (zeros past the end of the input): the longest form with its
    // suffix and the delimiter after it fits.
    std::uint64_t w = 0;
    if (BBP_LIKELY(avail >= 8)) std::memcpy(&w, s, 8);
    else std::memcpy(&w, s, avail);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = byteSwap(w);  // byte k at bits 8k..8k+7, as on little-endian machines
#endif
    const auto at = [w](std::size_t k) -> unsigned char { return static_cast<unsigned char>(w >> (8 * k)); };
    const auto file = [](unsigned char c) { return static_cast<unsigned>(c - 'a') < 8u; };
    const auto rank = [](unsigned char c) { return static_cast<unsigned>(c - '1') < 8u; };
    const unsigned char c0 = at(0), c1 = at(1), c2 = at(2);
    std::size_t len;
    if (file(c0)) {
      if (rank(c1)) {  // "e4"
        if (c1 == '1' || c1 == '8') return 0;  // a promotion, or no pawn move at all
        x.to = (c1 - '1') * 8 + (c0 - 'a');
        len = 2;
      } else if (c1 == 'x' && file(c2) && rank(at(3))) {  // "exd5"
        const unsigned char c3 = at(3);
        if (c3 == '1' || c3 == '8') return 0;
        x.fromFile = c0 - 'a';
        x.capture = true;
        x.to = (c3 - '1') * 8 + (c2 - 'a');
        len = 4;
      } else {
        return 0;
      }
    } else if (c0 == 'O') {
      if (c1 != '-' || c2 != 'O') return 0;
      if (at(3) == '-' && at(4) == 'O') x.castle = 2, len = 5;
      else x.castle = 1, len = 3;
    } else {
      const int piece = san::pieceLetter(static_cast<char>(c0));
      if (piece < 0) return 0;
      x.piece = piece;
      std::size_t k = 1;
      if (file(c1) && (file(c2) || c2 == 'x')) x.fromFile = c1 - 'a', k = 2;       // "Nbd7", "Nbxd7"
      else if (rank(c1) && (file(c2) || c2 == 'x')) x.fromRank = c1 - '1', k = 2;  // "N1f3", "N1xf3"
      if (at(k) == 'x') x.capture = true, ++k;
      const unsigned char f = at(k), r = at(k + 1);
      if (!file(f) || !rank(r)) return 0;
      x.to = (r - '1') * 8 + (f - 'a');
      len = k + 2;
    }
    if (at(len) == '+' || at(len) == '#') ++len;
    if (len < avail && !(kCharClasses.c[at(len)] & kDelimiterChar)) return 0;
    return len;
  }

  // A move read as x from the text [start, end) (start and end for error reports), played and
  // recorded; suffixNag is its "!" / "?" annotation (0 none).
  BBP_ALWAYS_INLINE void play(std::size_t start, std::size_t end, const san::Syntax& x, int suffixNag) {
    const san::Resolved r = san::resolveFast(s_, board_, x);
    if (r.status != san::kSanOk || (o_.flags & kWriteSan)) return playGeneral(start, end, x, r, suffixNag);
    // The common case: a legal move, no SAN text to write.
    const Move m = r.move;
    recordMove(m);
    advance(playInPlace(m, x.castle ? kKing : x.piece, x.castle != 0));
    closeMove(suffixNag);
  }
  // The parts of a move both paths share: its record, the clocks and ply after it, and its suffix
  // annotation and position.
  BBP_ALWAYS_INLINE void recordMove(Move m) {
    out_.moves.push_back(m);
    ++field(gMoveCount);
  }
  BBP_ALWAYS_INLINE void advance(bool reset) {
    if (board_.sideToMove == 0) fullmove_ = fullmove_ + 1 > kMaxClockValue ? kMaxClockValue : fullmove_ + 1;
    halfmove_ = reset ? 0 : (halfmove_ + 1 > kMaxClockValue ? kMaxClockValue : halfmove_ + 1);
    ++ply_;
    cleanEp();
    if (outcome_ && (reset || board_.castling != windowCastling_)) openWindow();
  }
  void openWindow() {
    windowStart_ = ply_;
    windowCastling_ = board_.castling;
    windowEp_ = board_.epSquare;
  }
  // The outcome code of the game at its end (outcome.h). The positions since the window opened are
  // rebuilt from the last one backwards: every move since is a move of a piece (no capture, no pawn
  // move, no castling: those open the window) or a null move, undone by moving the piece back.
  [[gnu::noinline]] int gameOutcome() {
    const std::size_t n = static_cast<std::size_t>(ply_ - windowStart_) + 1;
    history_.clear();
    Board* h = history_.grow(n);
    if (!h) return 0;  // out of memory: run() reports it
    h[n - 1] = board_;
    const std::uint16_t* moves = out_.moves.data() + field(gMoveStart) + windowStart_;
    for (std::size_t k = n - 1; k > 0; --k) {
      Board b = h[k];
      const Move m = moves[k - 1];
      b.sideToMove ^= 1;
      if (m) {
        const U64 fromTo = squareBB(moveFrom(m)) | squareBB(moveTo(m));
        b.pieces[b.typeOn(moveTo(m))] ^= fromTo;
        b.colors[b.sideToMove] ^= fromTo;
      }
      h[k - 1] = b;
    }
    h[0].epSquare = windowEp_;
    return outcome::gameOutcome(s_, h, n, halfmove_);
  }
  BBP_ALWAYS_INLINE void closeMove(int suffixNag) {
    if (suffixNag) addNag(suffixNag);
    if (wantPosition(ply_)) writePosition();
  }
  // play() for the rest: null moves, errors, and writing the SAN text (out of line: the hot
  // function stays small).
  [[gnu::noinline]] void playGeneral(std::size_t start, std::size_t end, const san::Syntax& x, const san::Resolved r,
                                     int suffixNag) {
    Move m = 0;
    if (r.status == san::kSanNullMove) {
      if (checkers(s_, board_, board_.sideToMove)) return fail(kPgnNullMoveInCheck, start, end, line_, lineStart_);
    } else if (r.status == san::kSanIllegal) {
      return fail(kPgnIllegalMove, start, end, line_, lineStart_);
    } else if (r.status == san::kSanAmbiguous) {
      return fail(kPgnAmbiguousMove, start, end, line_, lineStart_);
    } else {
      m = r.move;
    }
    recordMove(m);
    const bool writeSan = (o_.flags & kWriteSan) != 0;
    Board before;
    if (writeSan) before = board_;
    bool reset = false;
    if (r.status == san::kSanNullMove) {
      board_.sideToMove ^= 1;
      board_.epSquare = kNoSquare;
    } else {
      reset = playInPlace(m, x.castle ? kKing : x.piece, x.castle != 0);
    }
    advance(reset);
    if (writeSan) {
      char text[16];
      int len;
      if (r.status == san::kSanNullMove) {
        text[0] = text[1] = '-';
        len = 2;
      } else {
        len = san::writeFast(s_, before, m, board_, text);
      }
      out_.san.append(text, static_cast<std::size_t>(len));
      out_.san.push_back(' ');
    }
    closeMove(suffixNag);
  }

  // Plays the legal move m of a piece of `type` on board_ (san::play's rules, the moving piece's type
  // known from the SAN); true when it resets the halfmove clock (a pawn move or a capture).
  bool playInPlace(Move m, int type, bool castle) {
    Board& b = board_;
    const int us = b.sideToMove, them = us ^ 1;
    const int from = moveFrom(m), to = moveTo(m);
    const U64 fromBB = squareBB(from), toBB = squareBB(to), fromTo = fromBB | toBB;
    bool reset = type == kPawn;
    if (castle) {
      const CastlingMove c = castlingMove(b, 2 * us + (to < from));
      b = us == 0 ? movegen::Make<0>::castle(b, c) : movegen::Make<1>::castle(b, c);
      return false;
    }
    const int keep960 = b.chess960 ? castlingKeep(b, from, 15) & castlingKeep(b, to, 15) : 15;
    if (b.colors[them] & toBB) {
      for (U64& set : b.pieces) set &= ~toBB;
      b.colors[them] ^= toBB;
      reset = true;
    } else if (type == kPawn && to == b.epSquare && ((from ^ to) & 7)) {
      const U64 captured = squareBB(to ^ 8);  // en passant: the pawn beside the mover, behind the target
      b.pieces[kPawn] ^= captured;
      b.colors[them] ^= captured;
    }
    b.pieces[type] ^= fromTo;
    b.colors[us] ^= fromTo;
    if (const int promo = movePromotion(m)) {
      b.pieces[kPawn] ^= toBB;
      b.pieces[promo] |= toBB;
    }
    if (b.chess960) {
      b.castling &= keep960;
      dropLostRookFiles(b);
    } else {
      b.castling &= movegen::arrCastlingKeep[from] & movegen::arrCastlingKeep[to];
    }
    b.epSquare = type == kPawn && (from ^ to) == 16 ? (from + to) >> 1 : kNoSquare;
    b.sideToMove = them;
    return reset;
  }

  // Skips a brace comment starting at i_ ('{'); records it at the main line when depth == 0.
  bool braceComment(bool record) {
    const std::size_t start = i_;
    const int line = line_;
    const std::size_t ls = lineStart_;
    std::size_t end = closeOnThisLine(i_ + 1);
    if (end == 0) {  // over a line end, near the end of the input, or no SSE2
      const void* close = std::memchr(p_ + i_ + 1, '}', n_ - i_ - 1);
      end = close ? static_cast<std::size_t>(static_cast<const char*>(close) - p_) : n_;
      countLines(i_ + 1, end);
    }
    i_ = end;
    if (i_ >= n_) {
      fail(kPgnUnterminatedComment, start, start + 1, line, ls);
      return false;
    }
    if (record && (o_.flags & kWriteComments)) {
      const std::int32_t c[3] = {ply_, static_cast<std::int32_t>(start + 1), static_cast<std::int32_t>(i_)};
      out_.comments.append(c, 3);
      ++field(gCommentCount);
    }
    if (record && (o_.flags & kWriteAnnotations) && !failed_ && ply_ > 0) {
      readAnnotations(p_ + start + 1, i_ - start - 1, static_cast<std::int32_t>(recIndex_), ply_, out_.annotations);
    }
    ++i_;
    return true;
  }

  // The termination marker (section 8.2.6) a token is: 0 '*', 1 "1-0", 2 "0-1", 3 "1/2-1/2"; else -1.
  static int resultOf(const char* t, std::size_t len) {
    if (len == 1 && t[0] == '*') return 0;
    if (len == 3 && t[0] == '1' && t[1] == '-' && t[2] == '0') return 1;
    if (len == 3 && t[0] == '0' && t[1] == '-' && t[2] == '1') return 2;
    if (len == 7 && std::memcmp(t, "1/2-1/2", 7) == 0) return 3;
    return -1;
  }

  // The first byte from k that can matter to a game read for its boundaries only (kBoundaryChar),
  // or n_: 16 bytes at a time with SSE2, else byte by byte.
  std::size_t nextBoundaryByte(std::size_t k) const {
#if defined(__SSE2__) && !defined(BBP_PORTABLE)
    const __m128i nl = _mm_set1_epi8('\n'), tag = _mm_set1_epi8('['), brace = _mm_set1_epi8('{'),
                  semi = _mm_set1_epi8(';'), pct = _mm_set1_epi8('%'), star = _mm_set1_epi8('*'),
                  dash = _mm_set1_epi8('-');
    for (; k + 16 <= n_; k += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_ + k));
      const __m128i m = _mm_or_si128(
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, tag)), _mm_or_si128(_mm_cmpeq_epi8(v, brace), _mm_cmpeq_epi8(v, semi))),
          _mm_or_si128(_mm_cmpeq_epi8(v, pct), _mm_or_si128(_mm_cmpeq_epi8(v, star), _mm_cmpeq_epi8(v, dash))));
      const unsigned bits = static_cast<unsigned>(_mm_movemask_epi8(m));
      if (bits) return k + static_cast<std::size_t>(lsb32(bits));
    }
#endif
    while (k < n_ && !(kCharClasses.c[static_cast<unsigned char>(p_[k])] & kBoundaryChar)) ++k;
    return k;
  }

  // The movetext of a game read for its boundaries only (kBoundariesOnly: the game counts as
  // failed, so no move, NAG or parenthesis changes anything): where the token loop of game() ends
  // it, found by the bytes that can end it. A line end is counted; a '%' escape line, a brace
  // comment and a ';' comment are passed over as that loop does; a '[' starts the next game; a token
  // holding '*' or '-' (its bounds: the delimiters around it, where that loop's tokens start and
  // end too, a '$' before it aside) may be a termination marker. Every other byte only moves the
  // loop on. From i, which ends where the loop would; true when the game is complete.
  bool skipMovetext(std::size_t& i) {
    const char* const p = p_;
    const std::size_t n = n_;
    const std::size_t from = i;
    for (;;) {
      i = nextBoundaryByte(i);
      if (i >= n) return false;
      switch (p[i]) {
        case '\n':
          ++line_;
          lineStart_ = ++i;
          continue;
        case '[':
          return true;  // the next game's tag section
        case '{': {
          i_ = i;
          const bool closed = braceComment(false);
          i = i_;
          if (!closed) return false;
          continue;
        }
        case ';': {
          const void* nl = std::memchr(p + i, '\n', n - i);
          i = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - p) : n;
          continue;
        }
        case '%':
          if (i == lineStart_) {
            i_ = i;
            skipLine();
            i = i_;
          } else {
            ++i;
          }
          continue;
        default: {  // '*' or '-'
          std::size_t start = i;
          while (start > from && !(kCharClasses.c[static_cast<unsigned char>(p[start - 1])] & kDelimiterChar)) --start;
          ++i;
          while (i < n && !(kCharClasses.c[static_cast<unsigned char>(p[i])] & kDelimiterChar)) ++i;
          // After a '$' the loop's token starts at the '$' (a NAG token): no termination marker.
          const int result = start > from && p[start - 1] == '$' ? -1 : resultOf(p + start, i - start);
          if (result >= 0) {
            field(gResult) = result;
            return true;
          }
          continue;
        }
      }
    }
  }

  // Where the first '}' from k (k > 0) is when no line end comes before it, else 0: the usual short
  // comment on one line found in one pass, 16 bytes at a time, without the line count of the
  // general path. 0 also when fewer than 16 bytes remain, or without SSE2 (and in the portable build).
  std::size_t closeOnThisLine(std::size_t k) const {
#if defined(__SSE2__) && !defined(BBP_PORTABLE)
    const __m128i close = _mm_set1_epi8('}'), nl = _mm_set1_epi8('\n');
    for (; k + 16 <= n_; k += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_ + k));
      const unsigned c = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, close)));
      const unsigned l = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
      if (c | l) {
        const int first = lsb32(c | l);
        return (c >> first) & 1 ? k + static_cast<std::size_t>(first) : 0;
      }
    }
#else
    (void)k;
#endif
    return 0;
  }

  // Counts the line ends in [from, to) (line_ and lineStart_ as if each had been stepped over).
  void countLines(std::size_t from, std::size_t to) {
    while (from < to) {
      const void* nl = std::memchr(p_ + from, '\n', to - from);
      if (!nl) return;
      from = static_cast<std::size_t>(static_cast<const char*>(nl) - p_) + 1;
      ++line_;
      lineStart_ = from;
    }
  }

  // Reads one game from i_ (at a '[' or movetext); true when it ended by a termination marker or by
  // the start of the next game, false when by the end of the input.
  bool game() {
    recIndex_ = out_.games.size() / kGameFields;
    if (!out_.games.grow(kGameFields)) return true;
    rec_ = &out_.games[recIndex_ * kGameFields];
    positionGame_ = o_.gameBase + static_cast<std::uint32_t>(recIndex_);
    std::memset(&out_.games[recIndex_ * kGameFields], 0, kGameFields * sizeof(std::int32_t));
    field(gStart) = static_cast<std::int32_t>(i_);
    field(gLine) = line_;
    field(gMoveStart) = static_cast<std::int32_t>(out_.moves.size());
    field(gTagStart) = static_cast<std::int32_t>(out_.tags.size() / 4);
    field(gCommentStart) = static_cast<std::int32_t>(out_.comments.size() / 3);
    field(gNagStart) = static_cast<std::int32_t>(out_.nags.size() / 2);
    field(gSanStart) = static_cast<std::int32_t>(out_.san.size());
    field(gPositionStart) = static_cast<std::int32_t>(out_.positionGame.size());
    field(gResult) = -1;
    field(gFenTag) = -1;
    failed_ = false;
    ply_ = 0;
    gameLineStart_ = lineStart_;

    // Tag section: tag lines until a blank line or movetext.
    const std::size_t firstTag = out_.tags.size() / 4;
    bool movetext = false;  // a blank line after the tags, or any movetext, was seen
    while (i_ < n_) {
      // white space on this line
      while (i_ < n_ && (p_[i_] == ' ' || p_[i_] == '\t' || p_[i_] == '\r')) ++i_;
      if (i_ >= n_) break;
      if (p_[i_] == '[') {
        tag();
        continue;
      }
      if (p_[i_] == '\n') {
        newline();
        ++i_;
        // A blank line ends the tag section.
        std::size_t k = i_;
        while (k < n_ && (p_[k] == ' ' || p_[k] == '\t' || p_[k] == '\r')) ++k;
        if (k < n_ && p_[k] == '\n' && !tagsGoOn(k, firstTag)) {
          movetext = true;
          break;
        }
        continue;
      }
      if (p_[i_] == '%' && i_ == lineStart_) {
        skipLine();
        continue;
      }
      movetext = true;
      break;
    }
    (void)movetext;
    // Boundaries only: the movetext is scanned as a bad game's is (its moves skipped, no error).
    if (o_.flags & kBoundariesOnly) failed_ = true;
    if (!failed_) startPosition(firstTag);
    if (!failed_) {
      cleanEp();
      if (wantPosition(0)) writePosition();
      if (outcome_) openWindow();
    }

    bool complete = false;
    int depth = 0;  // variation nesting (section 8.2.5)
    // The position in the text lives in a local while the movetext is scanned (the member is
    // written back around the calls that read it): the byte loops then keep it in a register.
    std::size_t i = i_;
    const char* const p = p_;
    const std::size_t n = n_;
    // Boundaries only: the movetext passed over by the few bytes that can end it (skipMovetext).
    const bool skipping = (o_.flags & kBoundariesOnly) != 0;
    if (skipping) complete = skipMovetext(i);
    while (!skipping && i < n) {
      const char c = p[i];
      const unsigned cls = kCharClasses.c[static_cast<unsigned char>(c)];
      if (cls & kBlankChar) {
        ++i;
        continue;
      }
      if (cls & kNewlineChar) {
        ++line_;
        lineStart_ = ++i;
        continue;
      }
      if (cls & kLetterChar) {
        // The common case: a move (a token starting with a letter is no number, NAG or result).
        const std::size_t start = i;
        if (depth == 0 && !failed_) {
          san::Syntax x;
          if (const std::size_t len = commonToken(p + i, n - i, x)) {
            i += len;
            play(start, i, x, 0);
            if (i < n && p[i] == ' ') ++i;  // the usual single space to the next token
            continue;
          }
        }
        ++i;
        while (i < n && !(kCharClasses.c[static_cast<unsigned char>(p[i])] & kDelimiterChar)) ++i;
        if (depth == 0 && !failed_) move(start, i);
        continue;
      }
      if (c >= '1' && c <= '9') {
        // A move number indication (section 8.2.2), the next most common token: digits, periods,
        // then a delimiter or the move itself. Anything else ("1-0", "1/2-1/2", "1.5") takes the
        // general path below.
        std::size_t k = i + 1;
        while (k < n && p[k] >= '0' && p[k] <= '9') ++k;
        if (k < n && p[k] == '.') {
          while (k < n && p[k] == '.') ++k;
          if (k >= n || (kCharClasses.c[static_cast<unsigned char>(p[k])] & (kDelimiterChar | kLetterChar))) {
            i = k < n && p[k] == ' ' ? k + 1 : k;
            continue;
          }
        }
      }
      if (c == '%' && i == lineStart_) {
        i_ = i;
        skipLine();
        i = i_;
        continue;
      }
      if (c == '[') {
        complete = true;  // the next game's tag section
        break;
      }
      if (c == '{') {
        i_ = i;
        const bool closed = braceComment(depth == 0);
        i = i_;
        if (!closed) break;
        continue;
      }
      if (c == ';') {
        const std::size_t start = i + 1;
        const void* nl = std::memchr(p + i, '\n', n - i);
        i = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - p) : n;
        if (depth == 0 && (o_.flags & kWriteComments)) {
          std::size_t end = i;
          if (end > start && p[end - 1] == '\r') --end;
          const std::int32_t cm[3] = {ply_, static_cast<std::int32_t>(start), static_cast<std::int32_t>(end)};
          out_.comments.append(cm, 3);
          ++field(gCommentCount);
        }
        continue;
      }
      if (c == '(') {
        ++depth;
        ++i;
        continue;
      }
      if (c == ')') {
        if (depth == 0) fail(kPgnUnbalancedParen, i, i + 1, line_, lineStart_);
        else --depth;
        ++i;
        continue;
      }
      // A token: up to the next delimiter.
      const std::size_t start = i;
      if (c == '$') ++i;
      while (i < n && !(kCharClasses.c[static_cast<unsigned char>(p[i])] & kDelimiterChar)) ++i;
      if (i == start) {  // a stray '}', ']' or '"'
        ++i;
        if (depth == 0) fail(kPgnMalformedMove, start, i, line_, lineStart_);
        continue;
      }
      const std::size_t end = i;
      const std::size_t len = end - start;
      // Termination markers (section 8.2.6) end the game, also inside an unclosed variation.
      const int result = resultOf(p + start, len);
      if (result >= 0) {
        field(gResult) = result;
        complete = true;
        break;
      }
      if (depth > 0 || failed_) continue;
      if (c == '$') {
        const int nag = nagOf(p, start, end);
        if (nag < 0) fail(kPgnMalformedMove, start, end, line_, lineStart_);
        else addNag(nag);
        continue;
      }
      // A move number indication (section 8.2.2) before the move, or alone.
      const std::size_t k = moveTextStart(p, start, end);
      if (k == end) continue;
      move(k, end);
    }
    i_ = i;
    field(gEnd) = static_cast<std::int32_t>(i_);
    if (failed_) {
      // Positions of a bad game are not written.
      const std::size_t keep = static_cast<std::size_t>(field(gPositionStart));
      out_.positions.resize(keep * kPackedPositionWords);
      out_.positionGame.resize(keep);
      out_.positionPly.resize(keep);
    } else if ((o_.flags & kWritePositions) && (o_.flags & kFinalOnly)) {
      writePosition();
    }
    if (!failed_ && outcome_) field(gOutcome) = gameOutcome();
    field(gPositionCount) = static_cast<std::int32_t>(out_.positionGame.size()) - field(gPositionStart);
    field(gSanEnd) = static_cast<std::int32_t>(out_.san.size());
    return complete;
  }
};

}  // namespace pgn

// Reads the games of text[0..n) into out (see Reader).
template <class Sliders>
void readPgnGames(const Sliders& s, const char* text, std::size_t n, const pgn::Options& o, pgn::Output& out) {
  pgn::Reader<Sliders> reader(s, text, n, o, out);
  reader.run();
}

}  // namespace BBP_ISA
}  // namespace bbp
