// The rules that end a game (FIDE Laws of Chess, Article 5.2, 9.2, 9.3 and 9.6): insufficient
// mating material, and the outcome of a game's last position given the positions since its last
// irreversible move. Twin: lib/backends/js/outcome.ts, the same answers.
//
// Insufficient material (5.2.2, 9.6.2: "no series of legal moves" can mate) is judged by material
// and bishop square colours, the usual approximation: pawns, rooks or queens can always mate;
// a lone knight mates only when the other side has pieces that can block its own king (pawns,
// knights, bishops or rooks: a helpmate exists, e.g. K+N v K+N); bishops of one square colour only
// (both sides' bishops together) mate only with help from a pawn or knight anywhere on the board
// (their king's flight squares of the other colour must be blocked); bishops on both colours can
// mate (K+B v K+B of opposite colours has a helpmate).
//
// Repetition (9.2.3): positions are the same when the same player has the move, the same pieces
// stand on the same squares, the castling rights are the same and an en-passant capture is possible
// in both or in neither. The reader's boards keep an en-passant square only when a legal capture
// uses it (san::epCaptureLegal), so comparing the boards' fields is that definition. Positions
// before the last capture or pawn move cannot come back, so only those since it are kept.
#pragma once

#include <algorithm>
#include <cstddef>

#include "blockers.h"
#include "movegen.h"
#include "san.h"

namespace bbp {
inline namespace BBP_ISA {
namespace outcome {

// Terminations, the order of OUTCOME_TERMINATIONS in lib/games/pgn.ts (0: the game goes on).
enum Termination : int {
  kOngoing, kCheckmate, kInsufficientMaterial, kStalemate, kSeventyFiveMoves, kFivefoldRepetition, kFiftyMoves,
  kThreefoldRepetition,
};
// An outcome code: termination | winner << 4 (winner 0 none, 1 white, 2 black).
constexpr int kWinnerShift = 4;

constexpr U64 kDarkSquares = 0xAA55AA55AA55AA55ULL;  // a1, c1, ..., b2, ...: a1 is dark

// True when `color` cannot checkmate by any series of legal moves (by the approximation above).
constexpr bool insufficientMaterial(const Board& b, int color) {
  const U64 own = b.colors[color], other = b.colors[color ^ 1];
  if (own & (b.pieces[kPawn] | b.pieces[kRook] | b.pieces[kQueen])) return false;
  if (own & b.pieces[kKnight]) {
    // One knight alone (with the king), and no enemy piece that could block its own king's flight.
    return popcount(own) <= 2 && !(other & ~(b.pieces[kKing] | b.pieces[kQueen]));
  }
  if (own & b.pieces[kBishop]) {
    const U64 bishops = b.pieces[kBishop];
    const bool oneColour = !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
    return oneColour && !b.pieces[kPawn] && !b.pieces[kKnight];
  }
  return true;  // a bare king
}


// The fields repetition compares (9.2.3).
inline bool samePosition(const Board& a, const Board& b) {
  return a.colors[0] == b.colors[0] && a.colors[1] == b.colors[1] && a.pieces[0] == b.pieces[0] &&
         a.pieces[1] == b.pieces[1] && a.pieces[2] == b.pieces[2] && a.pieces[3] == b.pieces[3] &&
         a.pieces[4] == b.pieces[4] && a.pieces[5] == b.pieces[5] && a.sideToMove == b.sideToMove &&
         a.castling == b.castling && a.epSquare == b.epSquare;
}

// How many of history[0 .. n) are the same position as p.
inline int occurrences(const Board* history, std::size_t n, const Board& p) {
  int k = 0;
  for (std::size_t i = 0; i < n; ++i) k += samePosition(history[i], p);
  return k;
}

// Is the side to move in check? (Its own small function: sharing position.h's checkers with the
// reader's hot path changes how the compiler inlines it there.)
template <class Sliders>
bool sideToMoveInCheck(const Sliders& s, const Board& b) {
  const int us = b.sideToMove, them = us ^ 1, k = b.kingSquare(us);
  const U64 occ = b.occupied(), theirs = b.colors[them];
  return ((knightAttacks(k) & b.pieces[kKnight]) | (pawnAttacks(us, k) & b.pieces[kPawn])) & theirs ||
         (s.bishop(k, occ) & diagSliders(b, them)) || (s.rook(k, occ) & orthSliders(b, them));
}

// True when a move of a knight, bishop, rook or queen is sure to be legal: the side to move is not in
// check and such a piece, not pinned to its king (the Checks and Pinned Pieces page's blockers), has
// a square to go to. False says nothing; the caller then counts the legal moves. The common case
// without the full generator (whose attack map of the other side costs the most).
template <class Sliders>
bool surelyHasMove(const Sliders& s, const Board& b) {
  const int us = b.sideToMove, them = us ^ 1;
  if (sideToMoveInCheck(s, b)) return false;
  const U64 occ = b.occupied(), free = ~b.colors[us] & ~b.pieceSet(them, kKing);
  const U64 movable = b.colors[us] & ~kingBlockers(b, b.kingSquare(us), them, occ).blockers;
  for (U64 p = movable & b.pieces[kKnight]; p; p &= p - 1)
    if (knightAttacks(lsb(p)) & free) return true;
  for (U64 p = movable & (b.pieces[kRook] | b.pieces[kQueen]); p; p &= p - 1)
    if (s.rook(lsb(p), occ) & free) return true;
  for (U64 p = movable & (b.pieces[kBishop] | b.pieces[kQueen]); p; p &= p - 1)
    if (s.bishop(lsb(p), occ) & free) return true;
  return false;
}

// The outcome of a game whose last position is history[n - 1] (n >= 1), history[0 .. n) being the
// positions since its last capture or pawn move (or its start), `halfmove` its halfmove clock.
// Checked in python-chess's order (its outcome(claim_draw=True)): checkmate, insufficient material
// of both sides, stalemate, the seventy-five-move rule (9.6.2), fivefold repetition (9.6.1), then
// the draws a player may claim (9.2, 9.3): fifty moves, and threefold repetition, also as the claim
// of 9.2.1 / 9.3.1 by a move that would make it (the claimant writes the move and claims).
template <class Sliders>
int gameOutcome(const Sliders& s, const Board* history, std::size_t n, int halfmove) {
  const Board& b = history[n - 1];
  // Whether a legal move exists (no move list: the list is needed only for the claims by a move).
  const bool any = surelyHasMove(s, b) || (b.sideToMove == 0 ? movegen::countMoves<0>(s, b) : movegen::countMoves<1>(s, b)) != 0;
  if (!any && sideToMoveInCheck(s, b)) return kCheckmate | ((b.sideToMove == 0 ? 2 : 1) << kWinnerShift);
  if (insufficientMaterial(b, 0) && insufficientMaterial(b, 1)) return kInsufficientMaterial;
  if (!any) return kStalemate;
  if (halfmove >= 150) return kSeventyFiveMoves;
  const int here = occurrences(history, n, b);
  if (here >= 5) return kFivefoldRepetition;
  if (halfmove >= 100) return kFiftyMoves;
  // A claim by a move (9.2.1, 9.3.1) needs a move that is no capture and no pawn move (only such a
  // move adds to the clock, and only such a move can lead back to an earlier position). An earlier
  // position it leads back to has the other side to move, the other side's pieces where they are
  // now, the same castling rights, no en passant, and the mover's pieces but one where they are now.
  // Such a position must have been seen twice: the moves are tried only when two such are found.
  int candidates = 0;
  if (halfmove != 99 && here < 3) {
    const int us = b.sideToMove, them = us ^ 1;
    for (std::size_t i = 0; i + 1 < n && candidates < 2; ++i) {
      const Board& h = history[i];
      candidates += h.sideToMove != us && h.colors[them] == b.colors[them] && h.castling == b.castling &&
                    h.epSquare == kNoSquare && popcount(h.colors[us] ^ b.colors[us]) == 2;
    }
  }
  if (halfmove != 99 && candidates < 2) return here >= 3 ? kThreefoldRepetition : kOngoing;
  Move moves[kMaxMoves];
  const int listed = std::min(legalMoves(s, b, moves), kMaxMoves);
  const U64 them = b.colors[b.sideToMove ^ 1], pawns = b.pieces[kPawn];
  auto quiet = [&](Move m) { return !(squareBB(moveTo(m)) & them) && !(squareBB(moveFrom(m)) & pawns); };
  if (halfmove == 99)
    for (int i = 0; i < listed; ++i)
      if (quiet(moves[i])) return kFiftyMoves;
  if (here >= 3) return kThreefoldRepetition;
  for (int i = 0; i < listed; ++i) {
    if (!quiet(moves[i])) continue;
    Board child = san::play(b, moves[i]);
    child.epSquare = kNoSquare;  // a quiet move leaves no en-passant square
    if (occurrences(history, n, child) >= 2) return kThreefoldRepetition;
  }
  return kOngoing;
}

}  // namespace outcome

// The packed-position forms (words validated by the caller): `color` cannot checkmate by any series
// of legal moves; neither side can (the position's insufficient material, FIDE 5.2.2).
inline bool hasInsufficientMaterial(const U64* words, int color) {
  return outcome::insufficientMaterial(unpack(words), color);
}
inline bool isInsufficientMaterial(const U64* words) {
  const Board b = unpack(words);
  return outcome::insufficientMaterial(b, 0) && outcome::insufficientMaterial(b, 1);
}
}  // namespace BBP_ISA
}  // namespace bbp
