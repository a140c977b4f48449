// Knight patterns (Chess Programming Wiki: Knight Pattern): attacks by lookup and by calculation, the eight direction
// steps, knight fill and distance, and set-wise fork squares.
#pragma once

#include <array>

#include "bitboard.h"

namespace bbp {
inline namespace BBP_ISA {

// The eight direction steps, shift then mask the wrapped files.
constexpr U64 noNoEa(U64 b) { return (b << 17) & notAFile; }
constexpr U64 noEaEa(U64 b) { return (b << 10) & notABFile; }
constexpr U64 soEaEa(U64 b) { return (b >> 6) & notABFile; }
constexpr U64 soSoEa(U64 b) { return (b >> 15) & notAFile; }
constexpr U64 noNoWe(U64 b) { return (b << 15) & notHFile; }
constexpr U64 noWeWe(U64 b) { return (b << 6) & notGHFile; }
constexpr U64 soWeWe(U64 b) { return (b >> 10) & notGHFile; }
constexpr U64 soSoWe(U64 b) { return (b >> 17) & notHFile; }

// Multiple knight attacks: one and two files east/west, then shifted two and one ranks.
constexpr U64 knightAttacksSetEastWest(U64 knights) {
  U64 east = eastOne(knights);
  U64 west = westOne(knights);
  U64 attacks = (east | west) << 16;
  attacks |= (east | west) >> 16;
  east = eastOne(east);
  west = westOne(west);
  attacks |= (east | west) << 8;
  attacks |= (east | west) >> 8;
  return attacks;
}

// The same with more independent operations ("more parallelism").
constexpr U64 knightAttacksSetParallel(U64 knights) {
  const U64 l1 = (knights >> 1) & 0x7f7f7f7f7f7f7f7fULL;
  const U64 l2 = (knights >> 2) & 0x3f3f3f3f3f3f3f3fULL;
  const U64 r1 = (knights << 1) & 0xfefefefefefefefeULL;
  const U64 r2 = (knights << 2) & 0xfcfcfcfcfcfcfcfcULL;
  const U64 h1 = l1 | r1;
  const U64 h2 = l2 | r2;
  return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}

constexpr U64 knightAttacksSet(U64 knights) { return knightAttacksSetParallel(knights); }

inline constexpr std::array<U64, 64> arrKnightAttacks = tableBySquare(knightAttacksSet);

constexpr U64 knightAttacks(int sq) { return arrKnightAttacks[sq]; }

constexpr U64 knightFill(U64 knights) { return knightAttacksSet(knights) | knights; }

constexpr int knightDistance(int from, int to, U64 path) { return fillDistance(from, to, path, knightFill); }

// Squares attacked from two or more targets, loop- and branch-less: each direction's attacks are
// intersected with the union of the directions before it.
constexpr U64 forkTargetSquares(U64 targets) {
  U64 east = eastOne(targets);
  U64 west = westOne(targets);
  U64 attak = east << 16;
  U64 forks = (west << 16) & attak;
  attak |= west << 16;
  forks |= (east >> 16) & attak;
  attak |= east >> 16;
  forks |= (west >> 16) & attak;
  attak |= west >> 16;
  east = eastOne(east);
  west = westOne(west);
  forks |= (east << 8) & attak;
  attak |= east << 8;
  forks |= (west << 8) & attak;
  attak |= west << 8;
  forks |= (east >> 8) & attak;
  attak |= east >> 8;
  forks |= (west >> 8) & attak;
  return forks;
}

// Safe squares our knights reach from which they attack two or more targets.
constexpr U64 knightForkMoves(U64 knights, U64 targets, U64 ownPieces, U64 enemyPawnAttacks,
                              U64 enemyKnightAttacks) {
  return forkTargetSquares(targets) & knightAttacksSet(knights) & ~ownPieces & ~enemyPawnAttacks &
         ~enemyKnightAttacks;
}

}  // namespace BBP_ISA
}  // namespace bbp
