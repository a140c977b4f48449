// Making a move on a packed position (the moves topic, with movegen.h): the Chess Programming
// Wiki's copy-make on the standard bitboard board definition, plus the game state the packed words
// carry (FEN's halfmove clock and fullmove number, both capped at fen.h's kMaxClock). Legality is
// checkKind's (checks.h: -1 for a move that is not legal); the board is san::play's (movegen.h's
// Make); an en-passant square no legal capture uses is cleared (san::epCaptureLegal), so equal
// positions have equal FENs. Twin: lib/backends/js/makemove.ts.
#pragma once

#include <algorithm>

#include "fen.h"
#include "san.h"

namespace bbp {
inline namespace BBP_ISA {

// Writes the position after from -> to (promotion 0 none, 1 knight .. 4 queen) to out (10 words,
// which may be `words` itself) and returns true; false, writing nothing, when the move is not legal.
template <class Sliders>
bool makeMove(const Sliders& s, const U64* words, int from, int to, int promotion, U64* out) {
  const Board b = unpack(words);
  if (!isLegalMove(s, b, from, to, promotion)) return false;
  const unsigned halfmove = static_cast<unsigned>((words[8] >> 16) & 0xfffff);
  Board c = san::play(b, encodeMove(from, to, promotion));
  if (c.epSquare != kNoSquare && !san::epCaptureLegal(s, c)) c.epSquare = kNoSquare;
  out[0] = c.colors[0];
  out[1] = c.colors[1];
  for (int t = 0; t < 6; ++t) out[2 + t] = c.pieces[t];
  const bool capture = (b.occupied() & squareBB(to)) && !(b.colors[b.sideToMove] & squareBB(to));  // not Chess960 castling
  const bool resets = b.typeOn(from) == kPawn || capture;
  out[8] = static_cast<U64>(c.sideToMove) | static_cast<U64>(c.castling) << 1 | static_cast<U64>(c.epSquare) << 8 |
           static_cast<U64>(resets ? 0 : std::min(halfmove + 1, kMaxClock)) << 16 |
           (c.chess960 ? kStateChess960 : 0) | static_cast<U64>(c.rookFields) << kRookFieldsShift;
  out[9] = std::min<U64>(words[9] + static_cast<U64>(b.sideToMove), kMaxClock);
  return true;
}

}  // namespace BBP_ISA
}  // namespace bbp
