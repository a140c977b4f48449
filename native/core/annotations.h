// Embedded commands of PGN comments: "[%clk 0:04:53]" (the clock after the move), "[%emt 0:00:07]"
// (the time the move took) and "[%eval -0.51]" / "[%eval #-3]" (an engine evaluation, White's
// view), as the PGN Specification Supplement (Alan Cowderoy, 2001) defines %clk, %emt and %eval and
// lichess and ChessBase write them. Twin: readAnnotations in lib/backends/js/pgn-annotations.ts, the same
// records for the same bytes.
//
// Accepted values (anything else leaves the command out, as if absent):
//   clk, emt: H:MM:SS or H:MM:SS.f, hours 1..5 digits, minutes and seconds two digits each below
//             60, 1..3 fraction digits; stored as whole seconds and milliseconds.
//   eval:     [+-]D(.D*) pawns, 1..5 integer digits, 0..9 fraction digits, rounded to centipawns
//             (half away from zero, on the third fraction digit); or #[+-]D mate in moves, 1..4
//             digits; either optionally followed by ",depth" (digits, ignored).
// White space may separate the command name from its value and the value from the closing ']'.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bitboard.h"

namespace bbp {
inline namespace BBP_ISA {
namespace pgn {

enum AnnotationKind : std::int32_t { kAnnotationClock = 1, kAnnotationEmt = 2, kAnnotationCp = 3, kAnnotationMate = 4 };
// One record: game index in the read, ply (moves played before the comment), kind, value (seconds,
// centipawns or moves to mate), milliseconds (clocks; 0 otherwise). The order of lib/backends/js/pgn-annotations.ts.
constexpr int kAnnotationFields = 5;

namespace annotation_detail {
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isWhite(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Reads 1..maxDigits digits at p[k..e) into v; false when there are none or more.
inline bool digits(const char* p, std::size_t& k, std::size_t e, int maxDigits, std::int32_t& v) {
  const std::size_t start = k;
  v = 0;
  while (k < e && isDigit(p[k])) {
    if (static_cast<int>(k - start) == maxDigits) return false;
    v = v * 10 + (p[k] - '0');
    ++k;
  }
  return k > start;
}

// H:MM:SS(.f) in p[0..n).
inline bool clock(const char* p, std::size_t n, std::int32_t& seconds, std::int32_t& millis) {
  std::size_t k = 0;
  std::int32_t h, m, s;
  if (!digits(p, k, n, 5, h) || k >= n || p[k] != ':') return false;
  ++k;
  const std::size_t m0 = k;
  if (!digits(p, k, n, 2, m) || k - m0 != 2 || m >= 60 || k >= n || p[k] != ':') return false;
  ++k;
  const std::size_t s0 = k;
  if (!digits(p, k, n, 2, s) || k - s0 != 2 || s >= 60) return false;
  millis = 0;
  if (k < n && p[k] == '.') {
    ++k;
    const std::size_t f0 = k;
    std::int32_t f;
    if (!digits(p, k, n, 3, f)) return false;
    for (std::size_t d = k - f0; d < 3; ++d) f *= 10;
    millis = f;
  }
  if (k != n) return false;
  seconds = h * 3600 + m * 60 + s;
  return true;
}

// The eval value in p[0..n): kind kAnnotationCp or kAnnotationMate, 0 when malformed.
inline std::int32_t eval(const char* p, std::size_t n, std::int32_t& value) {
  // An optional ",depth" suffix.
  std::size_t end = 0;
  while (end < n && p[end] != ',') ++end;
  if (end < n) {
    std::size_t k = end + 1;
    std::int32_t depth;
    if (!digits(p, k, n, 4, depth) || k != n) return 0;
  }
  std::size_t k = 0;
  const bool mate = k < end && p[k] == '#';
  if (mate) ++k;
  bool negative = false;
  if (k < end && (p[k] == '+' || p[k] == '-')) negative = p[k++] == '-';
  std::int32_t whole;
  if (!digits(p, k, end, mate ? 4 : 5, whole)) return 0;
  if (mate) {
    if (k != end) return 0;
    value = negative ? -whole : whole;
    return kAnnotationMate;
  }
  std::int32_t cp = whole * 100;
  if (k < end && p[k] == '.') {
    ++k;
    int place = 0;
    std::int32_t tenths = 0, hundredths = 0, third = 0;
    while (k < end && isDigit(p[k])) {
      if (place == 9) return 0;
      const std::int32_t d = p[k] - '0';
      if (place == 0) tenths = d;
      else if (place == 1) hundredths = d;
      else if (place == 2) third = d;
      ++place;
      ++k;
    }
    cp += tenths * 10 + hundredths + (third >= 5 ? 1 : 0);
  }
  if (k != end) return 0;
  value = negative ? -cp : cp;
  return kAnnotationCp;
}
}  // namespace annotation_detail

// Appends a record for each well-formed [%clk], [%emt] and [%eval] command of the comment text
// p[0..n) (the text inside the braces) of game `game`, after `ply` moves. Out is a growing int32
// array with append(const int32_t*, size_t).
template <class Out>
void readAnnotations(const char* p, std::size_t n, std::int32_t game, std::int32_t ply, Out& out) {
  using namespace annotation_detail;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    if (p[k] != '[' || p[k + 1] != '%') continue;
    std::size_t i = k + 2;
    const std::size_t name = i;
    while (i < n && p[i] >= 'a' && p[i] <= 'z') ++i;
    const std::size_t nameLen = i - name;
    while (i < n && isWhite(p[i])) ++i;
    std::size_t close = i;
    while (close < n && p[close] != ']' && p[close] != '[') ++close;
    if (close >= n) return;
    if (p[close] == '[') {  // no ']' before the next command: this one is malformed
      k = close - 1;
      continue;
    }
    std::size_t valueEnd = close;
    while (valueEnd > i && isWhite(p[valueEnd - 1])) --valueEnd;
    const char* v = p + i;
    const std::size_t len = valueEnd - i;
    std::int32_t rec[kAnnotationFields] = {game, ply, 0, 0, 0};
    if (nameLen == 3 && (p[name] == 'c' && p[name + 1] == 'l' && p[name + 2] == 'k')) {
      if (clock(v, len, rec[3], rec[4])) rec[2] = kAnnotationClock;
    } else if (nameLen == 3 && (p[name] == 'e' && p[name + 1] == 'm' && p[name + 2] == 't')) {
      if (clock(v, len, rec[3], rec[4])) rec[2] = kAnnotationEmt;
    } else if (nameLen == 4 && p[name] == 'e' && p[name + 1] == 'v' && p[name + 2] == 'a' && p[name + 3] == 'l') {
      rec[2] = eval(v, len, rec[3]);
    }
    if (rec[2] != 0) out.append(rec, kAnnotationFields);
    k = close;
  }
}

}  // namespace pgn
}  // namespace BBP_ISA
}  // namespace bbp
