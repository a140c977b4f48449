// Token rules of PGN movetext shared by the reader (pgn.h) and the tree reader (pgn_tree.h); their
// TS twins are nagOf, suffixNagOf and moveTextStart in lib/backends/js/pgn.ts.
#pragma once

#include <cstddef>

namespace bbp {
inline namespace BBP_ISA {
namespace pgn {

// The NAG of the token p[start, end) that starts with '$' (section 8.2.4: "$" and 0..255), or -1.
inline int nagOf(const char* p, std::size_t start, std::size_t end) {
  int nag = 0;
  std::size_t k = start + 1;
  for (; k < end && p[k] >= '0' && p[k] <= '9' && nag < 1000; ++k) nag = nag * 10 + (p[k] - '0');
  return k != end || end == start + 1 || nag > 255 ? -1 : nag;
}

// The NAG of a move's suffix annotation (section 8.2.3.8: "!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5,
// "?!" 6) in the token p[start, end), or 0 when it has none.
inline int suffixNagOf(const char* p, std::size_t start, std::size_t end) {
  std::size_t e = end;
  while (e > start && (p[e - 1] == '!' || p[e - 1] == '?')) --e;
  if (end - e == 1) return p[e] == '!' ? 1 : 2;
  if (end - e == 2) return p[e] == '!' ? (p[e + 1] == '!' ? 3 : 5) : (p[e + 1] == '?' ? 4 : 6);
  return 0;
}

// Where the move of the token p[start, end) begins after a move number indication (section 8.2.2:
// digits then periods, "12." "12..."; or periods alone, "..." after a comment); `end` when the token
// is a move number alone.
inline std::size_t moveTextStart(const char* p, std::size_t start, std::size_t end) {
  std::size_t k = start;
  while (k < end && p[k] >= '0' && p[k] <= '9') ++k;
  if (k > start && (k == end || p[k] == '.')) {
    while (k < end && p[k] == '.') ++k;
    if (k == end) return end;
  } else {
    k = start;
  }
  if (p[k] == '.')
    while (k < end && p[k] == '.') ++k;
  return k;
}

}  // namespace pgn
}  // namespace BBP_ISA
}  // namespace bbp
