// Lines of FEN / EPD text parsed in one pass: parseFenText (batch.cc) and the analyze command's
// native pipeline (analyze_file.cc) both split and parse this way.
#pragma once

#include <cstdint>
#include <cstring>

#include "args.h"

namespace bbp::addon {

// The lines of data[0, length): each ends at '\n', and a last line without one counts too.
inline std::size_t countLines(const char* data, std::size_t length) {
  std::size_t lines = 0;
  if (length > 0)  // an empty array may have no memory at all (memchr's pointer must not be null)
    for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', length - (p - data)))); ++p) ++lines;
  if (length > 0 && data[length - 1] != '\n') ++lines;
  return lines;
}

// Parses the n lines of data[0, length) (countLines): line i's status (0: a position) in status[i],
// its packed words at words + i * kPackedPositionWords (zero for a line that is no position, in reused
// memory as in new), and where it starts in starts[i]; starts[n] is one past the last line's end, so
// line i is data[starts[i], starts[i + 1] - 1). chess960: castling fields read as X-FEN (parseFen's
// { chess960: true }).
inline void parseLines(const Kernels& k, const char* data, std::size_t length, std::size_t n, bool epd, std::uint64_t* words,
                       std::uint8_t* status, std::uint32_t* starts, bool chess960 = false) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char* nl = static_cast<const char*>(std::memchr(data + at, '\n', length - at));
    const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : length;
    starts[i] = static_cast<std::uint32_t>(at);
    std::uint64_t* w = words + i * kPackedPositionWords;
    status[i] = k.parseFenLine(data + at, end - at, epd, w, chess960);
    if (status[i] != 0) std::memset(w, 0, kPackedPositionWords * 8);
    at = end + 1;
  }
  starts[n] = static_cast<std::uint32_t>(at);
}

}  // namespace bbp::addon
