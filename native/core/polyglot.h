// The Polyglot opening-book format's position key (the format's description: "Polyglot book
// format", http://hgm.nubati.net/book_format.html): the XOR of the format's random numbers for each
// piece on its square, each castling right, the en-passant file and white to move. The en-passant
// file counts only when a pawn of the side to move stands next to the pawn that has just made the
// double step, on the same rank (the format's rule: a pseudo-legal en-passant capture, legality not
// asked), which is the same as such a pawn attacking the en-passant square.
#pragma once

#include "polyglot_random.h"
#include "position.h"

namespace bbp {
inline namespace BBP_ISA {

// Castling right bit (CastlingRight) -> its Random64 index: white short, white long, black short, black long.
constexpr int kPolyglotCastle = 768;
constexpr int kPolyglotEnPassant = 772;
constexpr int kPolyglotTurn = 780;

constexpr U64 polyglotKeyOf(const Board& b) {
  U64 key = 0;
  for (int color = 0; color < 2; ++color) {
    for (int type = 0; type < 6; ++type) {
      // kind = 2 * type + 1 for white, 2 * type for black; the square is 8 * rank + file, ours.
      const U64* random = kPolyglotRandom + 64 * (2 * type + (color == 0 ? 1 : 0));
      for (U64 set = b.pieceSet(color, type); set; set &= set - 1) key ^= random[lsb(set)];
    }
  }
  for (int right = 0; right < 4; ++right)
    if (b.castling & (1 << right)) key ^= kPolyglotRandom[kPolyglotCastle + right];
  if (b.epSquare != kNoSquare &&
      (pawnAttacks(b.sideToMove ^ 1, b.epSquare) & b.pieceSet(b.sideToMove, kPawn)))
    key ^= kPolyglotRandom[kPolyglotEnPassant + fileOf(b.epSquare)];
  if (b.sideToMove == 0) key ^= kPolyglotRandom[kPolyglotTurn];
  return key;
}

// The key of a packed position (lib/core/types.ts's layout), validated by the caller.
constexpr U64 polyglotKey(const U64* w) { return polyglotKeyOf(unpack(w)); }

}  // namespace BBP_ISA
}  // namespace bbp
