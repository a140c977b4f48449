// PGN variations as a tree (PGN standard section 8.2.5, recursive annotation variations): one game's
// movetext read again with its variations played, as lib/games/pgn-tree.ts reads it (its twin and
// the rules it follows: python-chess's place for each comment, ';' comments and '%' escape lines
// skipped, a variation before the first move an error). The reader (pgn.h) delimits the game and
// reads its main line; this reads the tree of a game whose movetext has a variation.
//
// The answer is a list of events in the order of the text, four Int32 each, which the caller turns
// into node objects (lib/games/pgn-tree.ts treeFromEvents), and the SAN of each node, one after the
// other:
//   kTreeNode     parent (-1: the game's root), move code (0: a null move), suffix NAG (0: none)
//                 | the length of its SAN << 8
//   kTreeComment  node (-1: the root), start, end of the comment's text
//   kTreeStarting 0, start, end: a comment before a variation's first move (that move's)
//   kTreeNag      node, NAG
//   kTreeProblem  reason (TreeProblem below), token start, token end: the last event, reading stopped
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pgn_tokens.h"
#include "san.h"

namespace bbp {
inline namespace BBP_ISA {
namespace pgn {

enum TreeEvent : std::int32_t { kTreeNode, kTreeComment, kTreeStarting, kTreeNag, kTreeProblem };
// The order of TREE_PROBLEMS in lib/games/pgn-tree.ts.
enum TreeProblem : std::int32_t {
  kTreeMalformedMove, kTreeIllegalMove, kTreeAmbiguousMove, kTreeNullMoveInCheck, kTreeUnbalancedParen,
};

struct TreeOutput {
  std::vector<std::int32_t> events;
  std::string san;
  void clear() {
    events.clear();
    san.clear();
  }
};

namespace tree_detail {
// The token delimiters of lib/games/pgn-tree.ts: blanks, line ends and {}()[];$"
struct Delimiters {
  bool c[256] = {};
  constexpr Delimiters() {
    const char* d = " \t\r\n\v\f{}()[];$\"";
    for (; *d; ++d) c[static_cast<unsigned char>(*d)] = true;
  }
};
inline constexpr Delimiters kDelimiters{};
constexpr bool isSpace(unsigned char c) { return c == 32 || (c >= 9 && c <= 13); }

struct Frame {
  int parent = -1;  // the node the line's next move follows (-1: the root)
  int last = -1;    // the line's last move (-1: none yet)
  Board before{};   // the board before `last`
  Board after{};    // the board after `last`, while an inner variation is read
};
}  // namespace tree_detail

// Reads the movetext p[start, end) from the board `board` into out (cleared first).
template <class Sliders>
void readTree(const Sliders& s, const char* text, std::size_t start, std::size_t end, Board board, TreeOutput& out) {
  using tree_detail::kDelimiters;
  const auto* p = reinterpret_cast<const unsigned char*>(text);
  out.clear();
  thread_local std::vector<tree_detail::Frame> frames;
  frames.clear();
  frames.emplace_back();
  std::size_t depth = 0;
  int nodes = 0, rootChildren = 0;
  bool inVariation = false;  // python-chess's state: a move was read since the last '('
  const auto emit = [&out](std::int32_t kind, std::int32_t a, std::int32_t b, std::int32_t c) {
    const std::int32_t e[4] = {kind, a, b, c};
    out.events.insert(out.events.end(), e, e + 4);
  };
  const auto fail = [&emit](TreeProblem reason, std::size_t from, std::size_t to) {
    emit(kTreeProblem, reason, static_cast<std::int32_t>(from), static_cast<std::int32_t>(to));
  };
  const auto cleanEp = [&s](Board& b) {
    if (b.epSquare != kNoSquare && !san::epCaptureLegal(s, b)) b.epSquare = kNoSquare;
  };
  cleanEp(board);
  std::size_t i = start;
  while (i < end) {
    const unsigned char c = p[i];
    if (tree_detail::isSpace(c)) {
      ++i;
      continue;
    }
    if ((c == '%' && (i == 0 || p[i - 1] == '\n')) || c == ';') {  // escape line (section 6), rest-of-line comment
      while (i < end && p[i] != '\n') ++i;
      continue;
    }
    tree_detail::Frame& f = frames[depth];
    if (c == '{') {
      const std::size_t from = ++i;
      while (i < end && p[i] != '}') ++i;
      const std::size_t to = i++;
      const int node = f.last >= 0 ? f.last : f.parent;
      if (inVariation || (node < 0 && rootChildren == 0))
        emit(kTreeComment, node, static_cast<std::int32_t>(from), static_cast<std::int32_t>(to));
      else
        emit(kTreeStarting, 0, static_cast<std::int32_t>(from), static_cast<std::int32_t>(to));
      continue;
    }
    if (c == '(') {
      if (f.last < 0) return fail(kTreeUnbalancedParen, i, i + 1);
      f.after = board;
      const int parent = f.parent;
      board = f.before;
      if (++depth == frames.size()) frames.emplace_back();
      frames[depth].parent = parent;  // `f` may have moved with the vector
      frames[depth].last = -1;
      inVariation = false;
      ++i;
      continue;
    }
    if (c == ')') {
      if (depth == 0) return fail(kTreeUnbalancedParen, i, i + 1);
      board = frames[--depth].after;
      ++i;
      continue;
    }
    const std::size_t tokenStart = i;
    if (c == '$') ++i;
    while (i < end && !kDelimiters.c[p[i]]) ++i;
    if (i == tokenStart) return fail(kTreeMalformedMove, tokenStart, tokenStart + 1);
    const std::size_t tokenEnd = i, len = tokenEnd - tokenStart;
    const unsigned char* t = p + tokenStart;
    if ((len == 1 && c == '*') || (len == 3 && t[1] == '-' && ((c == '1' && t[2] == '0') || (c == '0' && t[2] == '1'))) ||
        (len == 7 && c == '1' && t[1] == '/' && t[2] == '2' && t[3] == '-'))
      break;  // a termination marker ends the game (the reader checked which one)
    if (c == '$') {
      const int nag = nagOf(text, tokenStart, tokenEnd);
      if (nag < 0) return fail(kTreeMalformedMove, tokenStart, tokenEnd);
      const int node = f.last >= 0 ? f.last : f.parent;
      if (node >= 0) emit(kTreeNag, node, nag, 0);
      continue;
    }
    // A move number indication before the move (section 8.2.2), or alone.
    const std::size_t k = moveTextStart(text, tokenStart, tokenEnd);
    if (k == tokenEnd) continue;
    const int suffix = suffixNagOf(text, k, tokenEnd);
    san::Syntax x;
    if (!san::parseSyntax(text + k, tokenEnd - k, x)) return fail(kTreeMalformedMove, k, tokenEnd);
    const san::Resolved r = san::resolveFast(s, board, x);
    f.before = board;
    Move m = 0;
    int sanLength = 2;
    if (r.status == san::kSanNullMove) {
      if (checkers(s, board, board.sideToMove)) return fail(kTreeNullMoveInCheck, k, tokenEnd);
      board.sideToMove ^= 1;
      board.epSquare = kNoSquare;
      out.san += "--";
    } else if (r.status == san::kSanIllegal) {
      return fail(kTreeIllegalMove, k, tokenEnd);
    } else if (r.status == san::kSanAmbiguous) {
      return fail(kTreeAmbiguousMove, k, tokenEnd);
    } else {
      m = r.move;
      Board child = san::play(board, m);
      cleanEp(child);
      char written[16];
      sanLength = san::writeFast(s, board, m, child, written);
      out.san.append(written, static_cast<std::size_t>(sanLength));
      board = child;
    }
    const int parent = f.last >= 0 ? f.last : f.parent;
    emit(kTreeNode, parent, m, suffix | sanLength << 8);
    if (parent < 0) ++rootChildren;
    if (f.last >= 0) f.parent = f.last;
    f.last = nodes++;
    inVariation = true;
  }
}

}  // namespace pgn
}  // namespace BBP_ISA
}  // namespace bbp
