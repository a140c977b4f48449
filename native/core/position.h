// The standard bitboard board definition as the addon receives it: the 10-word packed layout of
// lib/core/types.ts (PACKED_POSITION_WORDS), its validation, and attackersTo / checkers (the Checks and Pinned Pieces page's
// attacksToKing, generalised to any square, either colour and an occupancy override).
#pragma once

#include "king.h"
#include "knight.h"
#include "sliders.h"

namespace bbp {
inline namespace BBP_ISA {

enum PieceType : int { kPawn, kKnight, kBishop, kRook, kQueen, kKing };
enum CastlingRight : int { kWhiteKing = 1, kWhiteQueen = 2, kBlackKing = 4, kBlackQueen = 8 };

constexpr int kPackedPositionWords = 10;
constexpr int kNoSquare = 64;  // epCode when there is no en-passant square
// Chess960 in the state word (lib/core/chess960.ts): bit 5 marks a Chess960 position; bits 40..51
// hold per castling right K, Q, k, q its rook's file XOR the standard file (h, a, h, a), 3 bits each,
// so a standard position's words have them all zero.
constexpr U64 kStateChess960 = 0x20;
constexpr int kRookFieldsShift = 40;
constexpr int kStandardRookFile[4] = {7, 0, 7, 0};

struct Board {
  U64 colors[2];
  U64 pieces[6];
  int sideToMove;
  int castling;
  int epSquare;  // 0..63, or kNoSquare
  bool chess960;
  int rookFields;  // the 12 bits of rook file fields (see kRookFieldsShift)

  // The rook file of castling right r (0 K, 1 Q, 2 k, 3 q), held or not.
  constexpr int rookFile(int r) const { return ((rookFields >> (3 * r)) & 7) ^ kStandardRookFile[r]; }

  constexpr U64 occupied() const { return colors[0] | colors[1]; }
  constexpr U64 pieceSet(int color, int type) const { return colors[color] & pieces[type]; }
  constexpr int kingSquare(int color) const { return lsb(pieceSet(color, kKing)); }
  constexpr int typeOn(int sq) const {
    for (int t = 0; t < 6; ++t)
      if (pieces[t] & squareBB(sq)) return t;
    return -1;
  }
};

// Reads a packed position; call validatePacked first (kingSquare needs a king of each colour).
constexpr Board unpack(const U64* w) {
  Board b{};
  b.colors[0] = w[0];
  b.colors[1] = w[1];
  for (int t = 0; t < 6; ++t) b.pieces[t] = w[2 + t];
  b.sideToMove = static_cast<int>(w[8] & 1);
  b.castling = static_cast<int>((w[8] >> 1) & 15);
  b.epSquare = static_cast<int>((w[8] >> 8) & 255);
  b.chess960 = (w[8] & kStateChess960) != 0;
  b.rookFields = static_cast<int>((w[8] >> kRookFieldsShift) & 0xfff);
  return b;
}

// The rules of parseFen beyond the sets' consistency (lib/core/position.ts validate), on packed words: no
// pawn on the first or last rank; each castling right with its king and rook at home (X-FEN's KQkq:
// e1 with h1 / a1, e8 with h8 / a8); an en-passant square with a pawn of the side not to move in
// front of it, itself and the square behind it empty (FEN's en-passant field).
constexpr U64 kBackRanks = 0xff000000000000ffULL;
// Per castling right (bit 1, 2, 4, 8 of the castling field): king square, rook square, colour.
constexpr int kCastlingKing[4] = {4, 4, 60, 60};
constexpr int kCastlingRook[4] = {7, 0, 63, 56};
constexpr const char* kCastlingProblems[4] = {
    "castling right K needs the white king on e1 and a white rook on h1",
    "castling right Q needs the white king on e1 and a white rook on a1",
    "castling right k needs the black king on e8 and a black rook on h8",
    "castling right q needs the black king on e8 and a black rook on a8",
};
constexpr const char* kEpProblem =
    "en-passant square needs a pawn of the side not to move in front of it, and itself and the square behind it empty";

constexpr bool castlingRightAtHome(const U64* w, int right) {
  const U64 own = w[right >> 1];
  return ((own & w[7]) >> kCastlingKing[right] & 1) && ((own & w[5]) >> kCastlingRook[right] & 1);
}

// Chess960's castling rule (lib/core/chess960.ts chess960CastlingProblem): each right held has the
// king of its colour on its first rank and a rook of that colour there at the right's file, on the
// right's side of the king; the file field of a right not held is zero. nullptr when it holds.
constexpr const char* kChess960CastlingProblems[4] = {
    "Chess960 castling right K needs the white king on the first rank and a white rook there on its h side at the right's file",
    "Chess960 castling right Q needs the white king on the first rank and a white rook there on its a side at the right's file",
    "Chess960 castling right k needs the black king on the eighth rank and a black rook there on its h side at the right's file",
    "Chess960 castling right q needs the black king on the eighth rank and a black rook there on its a side at the right's file",
};
constexpr const char* castlingProblem(const U64* w) {
  const int castling = static_cast<int>((w[8] >> 1) & 15);
  const int fields = static_cast<int>((w[8] >> kRookFieldsShift) & 0xfff);
  if (!(w[8] & kStateChess960)) {
    if (fields) return "castling rook files other than h and a are for Chess960 positions only";
    for (int r = 0; r < 4; ++r)
      if ((castling & (1 << r)) && !castlingRightAtHome(w, r)) return kCastlingProblems[r];
    return nullptr;
  }
  for (int r = 0; r < 4; ++r) {
    if (!(castling & (1 << r))) {
      if ((fields >> (3 * r)) & 7) return "the rook file of a castling right not held must be zero";
      continue;
    }
    const int c = r >> 1, rank = c ? 56 : 0;
    const U64 king = w[c] & w[7] & (U64{0xff} << rank);
    const int file = ((fields >> (3 * r)) & 7) ^ kStandardRookFile[r];
    const int kingFile = king ? fileOf(lsb(king)) : -1;
    const bool ok = king && ((w[c] & w[5]) >> (rank + file) & 1) && ((r & 1) ? file < kingFile : file > kingFile);
    if (!ok) return kChess960CastlingProblems[r];
  }
  return nullptr;
}

// ep on the rank validatePacked checks first (3rd or 6th), so ep +- 8 stays on the board.
constexpr bool epSquareIsPlausible(const U64* w, int ep) {
  const bool blackToMove = w[8] & 1;
  const int pawnSq = blackToMove ? ep + 8 : ep - 8;
  const int originSq = blackToMove ? ep - 8 : ep + 8;
  const U64 enemyPawns = w[blackToMove ? 0 : 1] & w[2];
  const U64 occupied = w[0] | w[1];
  return (enemyPawns >> pawnSq & 1) && !((occupied >> ep) & 1) && !((occupied >> originSq) & 1);
}

// nullptr when the words form a consistent position, else what is wrong (a static string).
// Checked: colours disjoint, piece types pairwise disjoint, union of types == union of colours,
// exactly one king per colour, the state word's fields in range (bits 6-7 zero, epCode 0..64), an
// en-passant square, when there is one, on the rank a pawn of the side not to move has just
// crossed (the 6th for white to move, the 3rd for black), then parseFen's remaining board rules
// (above). The side not to move in check is each caller's rule.
constexpr const char* validatePacked(const U64* w) {
  if (w[0] & w[1]) return "white and black pieces overlap";
  U64 types = 0;
  for (int t = 0; t < 6; ++t) {
    if (types & w[2 + t]) return "two piece types share a square";
    types |= w[2 + t];
  }
  if (types != (w[0] | w[1])) return "the piece-type sets and the colour sets cover different squares";
  if (popcount(w[0] & w[7]) != 1) return "white must have exactly one king";
  if (popcount(w[1] & w[7]) != 1) return "black must have exactly one king";
  if (w[8] & 0xc0) return "state bits 6-7 must be zero";
  const U64 ep = (w[8] >> 8) & 255;
  if (ep > 64) return "en-passant code must be 0..64";
  if (ep != 64 && rankOf(static_cast<int>(ep)) != ((w[8] & 1) ? 2 : 5))
    return "en-passant square must be on the 6th rank (white to move) or the 3rd (black to move)";
  if (w[2] & kBackRanks) return "pawn on the first or last rank";
  if (const char* problem = castlingProblem(w)) return problem;
  if (ep != 64 && !epSquareIsPlausible(w, static_cast<int>(ep))) return kEpProblem;
  return nullptr;
}

// validatePacked's rules as one test, branch-free for the sets (castling and en passant only when
// the position has them), for batch loops that check every position as they go; validatePacked
// then says what is wrong with a position this refuses.
// Kings: x && !(x & (x - 1)) is "exactly one" without a popcount (slow on portable builds).
// En passant: codes 65..255 shifted down are rank 8..31, never the 2 or 5 a good square needs.
constexpr bool packedIsValid(const U64* w) {
  U64 seen = 0, shared = 0;
  for (int t = 0; t < 6; ++t) {
    shared |= seen & w[2 + t];
    seen |= w[2 + t];
  }
  const U64 whiteKing = w[0] & w[7], blackKing = w[1] & w[7];
  const U64 ep = (w[8] >> 8) & 255;
  const U64 epRank = 5 - 3 * (w[8] & 1);
  const bool setsOk = ((w[0] & w[1]) | shared | (seen ^ (w[0] | w[1])) | (w[8] & 0xc0)) == 0;
  const bool kingsOk = (whiteKing != 0) & ((whiteKing & (whiteKing - 1)) == 0) & (blackKing != 0) &
                       ((blackKing & (blackKing - 1)) == 0);
  const bool epOk = (ep == 64) | ((ep >> 3) == epRank);
  if (!(setsOk & kingsOk & epOk) || (w[2] & kBackRanks)) return false;
  if ((w[8] & (kStateChess960 | U64{0xfff} << kRookFieldsShift | U64{15} << 1)) && castlingProblem(w)) return false;
  return ep == 64 || epSquareIsPlausible(w, static_cast<int>(ep));
}

// ---- Pawn attacks ----

constexpr U64 pawnAttacksSet(int color, U64 pawns) {
  return color == 0 ? nortOne(eastOne(pawns) | westOne(pawns)) : soutOne(eastOne(pawns) | westOne(pawns));
}

namespace detail {
constexpr std::array<std::array<U64, 64>, 2> makePawnAttacks() {
  std::array<std::array<U64, 64>, 2> table{};
  for (int c = 0; c < 2; ++c)
    for (int sq = 0; sq < 64; ++sq) table[c][sq] = pawnAttacksSet(c, squareBB(sq));
  return table;
}
}  // namespace detail

inline constexpr std::array<std::array<U64, 64>, 2> arrPawnAttacks = detail::makePawnAttacks();

constexpr U64 pawnAttacks(int color, int sq) { return arrPawnAttacks[color][sq]; }

// ---- Attacks to a square ----

// Pieces of byColor attacking sq; sliders look through `occupied` (which may differ from the board's).
// A pawn of byColor attacks sq iff a pawn of the other colour on sq would attack the pawn.
template <class Sliders>
BBP_ALWAYS_INLINE U64 attackersTo(const Sliders& s, const Board& b, int sq, int byColor, U64 occupied) {
  const U64 own = b.colors[byColor];
  const U64 queens = b.pieces[kQueen];
  return (pawnAttacks(byColor ^ 1, sq) & b.pieces[kPawn] & own) |
         (knightAttacks(sq) & b.pieces[kKnight] & own) | (kingAttacks(sq) & b.pieces[kKing] & own) |
         (s.bishop(sq, occupied) & (b.pieces[kBishop] | queens) & own) |
         (s.rook(sq, occupied) & (b.pieces[kRook] | queens) & own);
}

// Enemy pieces giving check to the king of `color`.
template <class Sliders>
U64 checkers(const Sliders& s, const Board& b, int color) {
  return attackersTo(s, b, b.kingSquare(color), color ^ 1, b.occupied());
}

}  // namespace BBP_ISA
}  // namespace bbp
