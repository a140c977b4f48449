// Standard Algebraic Notation (SAN), PGN standard section 8.2.3 ("Movetext SAN"), over the legal
// move generator of movegen.h: writing the canonical form (8.2.3.3 disambiguation by file, then
// rank, then both; 8.2.3.4 pawn captures named by the file of departure; 8.2.3.5 "O-O" / "O-O-O";
// 8.2.3.6 "=Q" promotions; "+" / "#" suffixes) and reading the forms real files hold (lenient:
// over-disambiguation "Ngf3" / "Qd1d2", missing or wrong check marks, "0-0", "e.p.", a promotion
// without "=", "!" / "?" suffixes, "Z0" / "--" null moves). The strict form (only the canonical text)
// is checked by the caller by writing the resolved move back and comparing. Twin: lib/backends/js/san.ts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "movegen.h"

namespace bbp {
inline namespace BBP_ISA {
namespace san {

// The order of SAN_STATUS in lib/games/san.ts.
enum SanStatus : int { kSanOk, kSanMalformed, kSanIllegal, kSanAmbiguous, kSanNullMove };

// What a SAN text says, before the position is consulted.
struct Syntax {
  bool null = false;      // "--" or "Z0"
  int castle = 0;         // 1 king side, 2 queen side
  int piece = kPawn;      // the moving piece's type
  int fromFile = -1, fromRank = -1;
  int to = -1;
  int promotion = 0;      // 0, or kKnight .. kQueen
  bool capture = false;   // an 'x' or ':' was written
};

constexpr bool isFile(char c) { return c >= 'a' && c <= 'h'; }
constexpr bool isRank(char c) { return c >= '1' && c <= '8'; }
constexpr int pieceLetter(char c) {
  switch (c) {
    case 'N': return kKnight;
    case 'B': return kBishop;
    case 'R': return kRook;
    case 'Q': return kQueen;
    case 'K': return kKing;
    default: return -1;
  }
}
constexpr bool isSuffix(char c) { return c == '+' || c == '#' || c == '!' || c == '?'; }

// Reads the text of one move; false when it is no SAN move at all (malformed). Always inline: the
// PGN reader calls it once per move, and the addon's translation unit has other callers.
BBP_ALWAYS_INLINE bool parseSyntax(const char* s, std::size_t n, Syntax& out) {
  out = Syntax{};
  while (n > 0 && isSuffix(s[n - 1])) --n;
  if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '.' && s[n - 2] == 'p' && s[n - 1] == '.') {
    n -= 4;
    while (n > 0 && isSuffix(s[n - 1])) --n;
  }
  if (n == 0 || n > 12) return false;
  if ((n == 2 && s[0] == '-' && s[1] == '-') || (n == 2 && s[0] == 'Z' && s[1] == '0')) {
    out.null = true;
    return true;
  }
  if (s[0] == 'O' || s[0] == '0') {
    const char c = s[0];
    if (n == 3 && s[1] == '-' && s[2] == c) return out.castle = 1, true;
    if (n == 5 && s[1] == '-' && s[2] == c && s[3] == '-' && s[4] == c) return out.castle = 2, true;
    return false;
  }
  std::size_t i = 0;
  if (pieceLetter(s[0]) >= 0) out.piece = pieceLetter(s[i++]);
  else if (s[0] == 'P') ++i;  // an explicit pawn letter, seen in some exports
  // A promotion piece at the end, with or without '='.
  if (n - i >= 3 && pieceLetter(s[n - 1]) >= kKnight && pieceLetter(s[n - 1]) <= kQueen) {
    out.promotion = pieceLetter(s[n - 1]);
    --n;
    if (s[n - 1] == '=') --n;
  }
  if (n - i < 2 || !isFile(s[n - 2]) || !isRank(s[n - 1])) return false;
  out.to = (s[n - 1] - '1') * 8 + (s[n - 2] - 'a');
  n -= 2;
  // Between the piece and the target: an optional file and rank of departure, 'x' / ':' / '-'.
  int seen = 0;  // 1 file, 2 rank, 3 separator: each at most once, in this order
  for (; i < n; ++i) {
    const char c = s[i];
    if (isFile(c) && seen < 1) out.fromFile = c - 'a', seen = 1;
    else if (isRank(c) && seen < 2) out.fromRank = c - '1', seen = 2;
    else if ((c == 'x' || c == ':' || c == '-') && seen < 3) out.capture = c != '-', seen = 3;
    else return false;
  }
  if (out.piece != kPawn && out.promotion) return false;
  return true;
}

// Castling is the king's two-square move (movegen.h's encoding), in Chess960 the king taking its own rook.
inline bool isCastle(const Board& b, Move m) {
  const int from = moveFrom(m), to = moveTo(m);
  if (b.chess960) return (b.pieces[kKing] & squareBB(from)) && (b.pieceSet(b.sideToMove, kRook) & squareBB(to));
  return (b.pieces[kKing] & squareBB(from)) && (to - from == 2 || from - to == 2);
}

struct Resolved {
  SanStatus status;
  Move move;       // when kSanOk
  int candidates;  // moves that matched (ambiguous: 2 or more)
};

// The legal move (of moves[0..n)) the syntax names.
inline Resolved resolve(const Board& b, const Move* moves, int n, const Syntax& x) {
  if (x.null) return {kSanNullMove, 0, 0};
  Move found = 0;
  int count = 0;
  for (int k = 0; k < n; ++k) {
    const Move m = moves[k];
    const int from = moveFrom(m), to = moveTo(m);
    bool match;
    if (x.castle) {
      match = isCastle(b, m) && (x.castle == 1 ? to > from : to < from);
    } else {
      match = to == x.to && (b.pieces[x.piece] & squareBB(from)) && !(x.piece == kKing && isCastle(b, m)) &&
              (x.fromFile < 0 || (from & 7) == x.fromFile) && (x.fromRank < 0 || (from >> 3) == x.fromRank) &&
              movePromotion(m) == x.promotion;
      // A pawn named without its file moves straight ahead unless a capture was written.
      if (match && x.piece == kPawn && x.fromFile < 0 && !x.capture && (from & 7) != (to & 7)) match = false;
    }
    if (match) {
      if (count == 0) found = m;
      ++count;
    }
  }
  if (count == 0) return {kSanIllegal, 0, 0};
  if (count > 1) return {kSanAmbiguous, 0, count};
  return {kSanOk, found, 1};
}

// The child board after a legal move m of b (castling, en passant, double push, promotion), for the
// side to move Us.
template <int Us>
Board playAs(const Board& b, Move m) {
  using M = movegen::Make<Us>;
  const int from = moveFrom(m), to = moveTo(m), promo = movePromotion(m);
  const int type = b.typeOn(from);
  if (promo) return M::promotion(b, from, to, promo);
  if (b.chess960 && type == kKing && (b.colors[Us] & squareBB(to)))
    for (int r = 2 * Us; r < 2 * Us + 2; ++r)
      if ((b.castling & (1 << r)) && to == (Us ? 56 : 0) + b.rookFile(r)) return M::castle(b, chess960Castling(b, r));
  if (!b.chess960 && type == kKing && (to - from == 2 || from - to == 2))
    for (const CastlingMove& c : kCastlingMoves)
      if (c.kingFrom == from && c.kingTo == to) return M::castle(b, c);
  if (type == kPawn && to == b.epSquare) return M::enPassant(b, from, to);
  if (type == kPawn && (to - from == 16 || from - to == 16)) return M::doublePush(b, from, to);
  return M::quiet(b, type, from, to);
}

// The child board after a legal move m of b.
inline Board play(const Board& b, Move m) { return b.sideToMove == 0 ? playAs<0>(b, m) : playAs<1>(b, m); }

// Writes the canonical SAN of the legal move m of b to out (at least 8 bytes, not terminated) and
// returns the length. `others` holds the squares of the other pieces of the moving type that can
// legally reach the same target (PGN standard 8.2.3.3: the file tells them apart if it can, else the
// rank, else both); `check` is 0 none, 1 check, 2 checkmate (the position after the move).
inline int writeWith(const Board& b, Move m, U64 others, int check, char* out) {
  const int from = moveFrom(m), to = moveTo(m), promo = movePromotion(m);
  const int type = b.typeOn(from);
  int len = 0;
  if (isCastle(b, m)) {
    const char* text = to > from ? "O-O" : "O-O-O";
    for (; *text; ++text) out[len++] = *text;
  } else {
    const bool capture = (b.occupied() & squareBB(to)) || (type == kPawn && to == b.epSquare);
    if (type == kPawn) {
      if (capture) out[len++] = static_cast<char>('a' + (from & 7));
    } else {
      out[len++] = "PNBRQK"[type];
      const U64 file = 0x0101010101010101ULL << (from & 7), rank = 0xffULL << (from & 56);
      if (others) {
        if (!(others & file)) out[len++] = static_cast<char>('a' + (from & 7));
        else if (!(others & rank)) out[len++] = static_cast<char>('1' + (from >> 3));
        else out[len++] = static_cast<char>('a' + (from & 7)), out[len++] = static_cast<char>('1' + (from >> 3));
      }
    }
    if (capture) out[len++] = 'x';
    out[len++] = static_cast<char>('a' + (to & 7));
    out[len++] = static_cast<char>('1' + (to >> 3));
    if (promo) out[len++] = '=', out[len++] = "PNBRQK"[promo];
  }
  if (check) out[len++] = check == 2 ? '#' : '+';
  return len;
}

// The canonical SAN of the legal move m, one of moves[0..n) of b (see writeWith): the other pieces
// that can reach the target are read off the move list.
inline int write(const Board& b, const Move* moves, int n, Move m, int check, char* out) {
  const int from = moveFrom(m), to = moveTo(m), type = b.typeOn(from);
  U64 others = 0;
  if (type != kPawn && type != kKing && !isCastle(b, m)) {
    for (int k = 0; k < n; ++k) {
      const int f = moveFrom(moves[k]);
      if (moveTo(moves[k]) == to && f != from && (b.pieces[type] & squareBB(f))) others |= squareBB(f);
    }
  }
  return writeWith(b, m, others, check, out);
}

// 0 no check, 1 check, 2 checkmate for the side to move of c, whose legal moves number `count`.
template <class Sliders>
int checkState(const Sliders& s, const Board& c, int count) {
  if (!checkers(s, c, c.sideToMove)) return 0;
  return count == 0 ? 2 : 1;
}


// ---- Without a move list: the PGN reader's path ----
//
// Resolving and writing SAN from the target square backwards (the pieces of the named type that
// attack it) and testing only those candidates for legality, instead of generating every legal
// move of every position. Same answers as resolve / write over the legal move list (the JS twin
// uses those; the reader's records are compared byte for byte in test/games/pgn.test.ts).

// The sliders of `diag` / `orth` (diagonal, orthogonal movers) that reach sq over occ: each one on a
// line through sq (empty-board rays) with nothing between (Chess Programming Wiki, "Square Attacked
// By" with the between-squares table instead of attack lookups: few sliders share a line with sq,
// and the small tables stay in the first-level cache).
inline U64 slidersReaching(int sq, U64 occ, U64 diag, U64 orth) {
  U64 found = 0;
  for (U64 c = (movegen::bishopRays(sq) & diag) | (movegen::rookRays(sq) & orth); c; c &= c - 1) {
    const int f = lsb(c);
    if (!(between(sq, f) & occ)) found |= squareBB(f);
  }
  return found;
}

// True when the move from -> to (en passant removing `captured`, 0 otherwise) leaves the mover's
// king unattacked.
template <class Sliders>
bool legalAfter(const Sliders&, const Board& b, int from, int to, U64 captured) {
  const int us = b.sideToMove, them = us ^ 1;
  const U64 fromBB = squareBB(from), toBB = squareBB(to);
  const U64 occ = (b.occupied() ^ fromBB ^ captured) | toBB;
  const U64 enemy = b.colors[them] & ~toBB & ~captured;
  const int ksq = (b.pieces[kKing] & fromBB) ? to : b.kingSquare(us);
  if ((pawnAttacks(us, ksq) & b.pieces[kPawn] & enemy) | (knightAttacks(ksq) & b.pieces[kKnight] & enemy) |
      (kingAttacks(ksq) & b.pieces[kKing] & enemy))
    return false;
  return !slidersReaching(ksq, occ, (b.pieces[kBishop] | b.pieces[kQueen]) & enemy,
                          (b.pieces[kRook] | b.pieces[kQueen]) & enemy);
}

// The squares pieces of `type` and of the side to move could come from to reach `to` (pseudo-legal,
// not pawns).
template <class Sliders>
BBP_ALWAYS_INLINE U64 pieceSources(const Sliders&, const Board& b, int type, int to) {
  const U64 own = b.colors[b.sideToMove] & b.pieces[type];
  // Selected by masks rather than by branching on the type (which a reader of mixed moves cannot
  // predict): the leaper's table, and the slider sets of the diagonal / orthogonal movers.
  const U64 all = ~U64{0};
  const U64 leaper = (type == kKnight ? knightAttacks(to) : 0) | (type == kKing ? kingAttacks(to) : 0);
  const U64 diag = (type == kBishop || type == kQueen) ? all : 0, orth = (type == kRook || type == kQueen) ? all : 0;
  return (leaper & own) | slidersReaching(to, b.occupied(), own & diag, own & orth);
}

// Castling move of the side to move (1 king side, 2 queen side) when legal, else 0.
template <class Sliders>
Move legalCastle(const Sliders& s, const Board& b, int side) {
  const int us = b.sideToMove;
  if (b.chess960) {
    const int r = 2 * us + (side == 2);
    if (!(b.castling & (1 << r))) return 0;
    const int from = b.kingSquare(us), to = (us ? 56 : 0) + b.rookFile(r);
    return chess960CastleKind<false>(s, b, from, to, 0) >= 0 ? encodeMove(from, to) : 0;
  }
  const CastlingMove& c = kCastlingMoves[2 * us + (side == 2)];
  const U64 occ = b.occupied();
  if (!(b.castling & c.right) || !(b.pieceSet(us, kKing) & squareBB(c.kingFrom)) ||
      !(b.pieceSet(us, kRook) & squareBB(c.rookFrom)) || (occ & c.mustBeEmpty))
    return 0;
  for (U64 safe = c.mustBeSafe; safe; safe &= safe - 1)
    if (attackersTo(s, b, lsb(safe), us ^ 1, occ)) return 0;
  return encodeMove(c.kingFrom, c.kingTo);
}

// Always inline: the PGN reader's one caller per move.
template <class Sliders>
BBP_ALWAYS_INLINE Resolved resolveFast(const Sliders& s, const Board& b, const Syntax& x) {
  if (x.null) return {kSanNullMove, 0, 0};
  if (x.castle) {
    const Move m = legalCastle(s, b, x.castle);
    return m ? Resolved{kSanOk, m, 1} : Resolved{kSanIllegal, 0, 0};
  }
  const int us = b.sideToMove, them = us ^ 1, to = x.to;
  const U64 toBB = squareBB(to);
  if ((b.colors[us] & toBB) || (b.pieces[kKing] & b.colors[them] & toBB)) return {kSanIllegal, 0, 0};
  U64 from;
  U64 captured = 0;
  const bool lastRank = us == 0 ? to >= 56 : to < 8;
  if (x.piece == kPawn) {
    if (lastRank != (x.promotion != 0)) return {kSanIllegal, 0, 0};
    const U64 pawns = b.pieceSet(us, kPawn), occ = b.occupied();
    const int up = us == 0 ? 8 : -8;
    from = 0;
    if (!(occ & toBB)) {  // pushes
      const int one = to - up;
      if (one >= 0 && one < 64) {
        if (pawns & squareBB(one)) from |= squareBB(one);
        else if (!(occ & squareBB(one)) && (us == 0 ? (to >> 3) == 3 : (to >> 3) == 4) && (pawns & squareBB(one - up)))
          from |= squareBB(one - up);
      }
    }
    const bool ep = to == b.epSquare && !(occ & toBB) && (b.pieceSet(them, kPawn) & squareBB(to - up));
    if ((b.colors[them] & toBB) || ep) {
      from |= pawnAttacks(them, to) & pawns;
      if (ep) captured = squareBB(to - up);
    }
    if (x.fromFile < 0 && !x.capture) from &= fileBB(to & 7);
  } else {
    from = pieceSources(s, b, x.piece, to);
  }
  if (x.fromFile >= 0) from &= fileBB(x.fromFile);
  if (x.fromRank >= 0) from &= rankBB(x.fromRank);
  Move found = 0;
  int count = 0;
  for (; from; from &= from - 1) {
    const int f = lsb(from);
    // Only a pawn capture on the en-passant square removes the pawn behind it.
    const U64 cap = (x.piece == kPawn && (f & 7) != (to & 7)) ? captured : 0;
    if (legalAfter(s, b, f, to, cap)) {
      if (count == 0) found = encodeMove(f, to, x.promotion);
      ++count;
    }
  }
  if (count == 0) return {kSanIllegal, 0, 0};
  if (count > 1) return {kSanAmbiguous, 0, count};
  return {kSanOk, found, 1};
}

// True when the side to move of c has a legal move (only asked when it is in check).
template <class Sliders>
bool hasLegalMove(const Sliders& s, const Board& c) {
  Move moves[kMaxMoves];
  return legalMoves(s, c, moves, kMaxMoves) > 0;
}

// The canonical SAN of the legal move m of b, whose child is c (see writeWith): the other pieces that
// can reach the target are found from the target square, each tested for legality.
template <class Sliders>
int writeFast(const Sliders& s, const Board& b, Move m, const Board& c, char* out) {
  const int from = moveFrom(m), to = moveTo(m), type = b.typeOn(from);
  U64 others = 0;
  if (type != kPawn && type != kKing && !isCastle(b, m)) {
    for (U64 o = pieceSources(s, b, type, to) & ~squareBB(from); o; o &= o - 1) {
      const int f = lsb(o);
      if (legalAfter(s, b, f, to, 0)) others |= squareBB(f);
    }
  }
  const int check = checkers(s, c, c.sideToMove) ? (hasLegalMove(s, c) ? 1 : 2) : 0;
  return writeWith(b, m, others, check, out);
}

// True when the side to move of b has a legal en-passant capture (b.epSquare set).
template <class Sliders>
bool epCaptureLegal(const Sliders& s, const Board& b) {
  const int us = b.sideToMove, to = b.epSquare;
  const int behind = us == 0 ? to - 8 : to + 8;
  if (!(b.pieceSet(us ^ 1, kPawn) & squareBB(behind)) || (b.occupied() & squareBB(to))) return false;
  for (U64 a = pawnAttacks(us ^ 1, to) & b.pieceSet(us, kPawn); a; a &= a - 1)
    if (legalAfter(s, b, lsb(a), to, squareBB(behind))) return true;
  return false;
}
}  // namespace san
}  // namespace BBP_ISA
}  // namespace bbp
