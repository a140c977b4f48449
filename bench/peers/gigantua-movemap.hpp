// Lookup tables for building the Gigantua perft peer (github.com/Gigantua/Gigantua) in the perft
// bench. Gigantua's public sources include "Movemap.hpp" (its tables), which its public snapshot
// does not contain; this header is ours, written for this bench from the names and meanings
// Gigantua's Chess_Base.hpp and Movelist.hpp use, and every table is computed by this package's own
// code (native/core). No Gigantua code is copied here, and Gigantua's sources stay outside this
// repository: the bench compiles a checkout (BENCH_GIGANTUA) with this header found as Movemap.hpp.
//
// Gigantua's square numbering: a FEN is read from a8 = bit 63 down to h1 = bit 0, so bit =
// 8 * rank + (7 - file), the files mirrored against this package's a1 = 0. King, knight and slider
// moves are symmetric under that mirror, so the tables of native/core (built from square indices by
// rank and column) are also correct in Gigantua's numbering; between() and the masks likewise.
//
// What it provides (the names Gigantua's code expects):
//   _ForceInline _Inline _NoInline _Compiletime   inlining macros; Bitcount(x) population count
//   Chess_Lookup::Lookup_Pext::{King, Knight}(sq)                       leaper attacks
//   Chess_Lookup::Lookup_Pext::{Rook, Bishop, Queen}(sq, occupied)      slider attacks, PEXT-indexed
//                                 (Chess Programming Wiki: BMI2, PEXT Bitboards)
//   Chess_Lookup::Lookup_Pext::{Rook, Bishop}_Xray(sq, occupied)        the squares a slider sees
//                                 through its first blockers, up to the next ones (Chess Programming
//                                 Wiki: X-ray Attacks (Bitboards)), from their own PEXT-indexed tables
//   Chess_Lookup::PinBetween[king * 64 + slider]   the squares between the two plus the slider's
//   Chess_Lookup::CheckBetween[king * 64 + slider] the squares between the two plus the one behind the
//                                 king on their line (where a king in that check may not step)
//   Chess_Lookup::RookMask[sq], BishopMask[sq]     the empty-board lines through sq
// The slider tables are filled once before main (this header is included by one translation unit).
#pragma once

#include <cstdint>
#include <immintrin.h>

#include "../../native/core/king.h"
#include "../../native/core/knight.h"
#include "../../native/core/sliders.h"

#define _ForceInline __attribute__((always_inline)) inline
#define _Inline inline
#define _NoInline __attribute__((noinline))
#define _Compiletime __attribute__((always_inline)) static constexpr
#define Bitcount(X) static_cast<std::uint64_t>(__builtin_popcountll(X))

namespace Chess_Lookup {

inline std::uint64_t PinBetween[64 * 64];
inline std::uint64_t CheckBetween[64 * 64];
inline std::uint64_t RookMask[64];
inline std::uint64_t BishopMask[64];

namespace detail {

// The same layout and index as the attack tables, holding the x-ray sets instead; rookAt[sq] and
// bishopAt[sq] point at a square's first slot.
struct XrayTables {
  const std::uint64_t* rookAt[64];
  const std::uint64_t* bishopAt[64];
  std::uint64_t rook[bbp::kRookTableSize];
  std::uint64_t bishop[bbp::kBishopTableSize];
};

inline bbp::PextTables slider;
inline XrayTables xray;

// X-ray sets from the filled attack table: slot i of a square holds the occupancy subset i (in PEXT
// order, the carry-rippler's), so the same walk rebuilds each subset.
template <bbp::U64 (*Walk)(int, bbp::U64)>
void fillXray(const bbp::PextEntry* entries, std::uint64_t* out, const std::uint64_t** at) {
  for (int sq = 0; sq < 64; ++sq) {
    const bbp::U64 mask = entries[sq].mask;
    at[sq] = out;
    bbp::U64 subset = 0;
    do {
      const bbp::U64 seen = Walk(sq, subset);
      *out++ = seen ^ Walk(sq, subset ^ (subset & seen));
      subset = (subset - mask) & mask;
    } while (subset);
  }
}

struct Fill {
  Fill() {
    bbp::buildPextTables(slider);
    fillXray<bbp::rookAttacksWalk>(slider.rook, xray.rook, xray.rookAt);
    fillXray<bbp::bishopAttacksWalk>(slider.bishop, xray.bishop, xray.bishopAt);
    for (int king = 0; king < 64; ++king) {
      RookMask[king] = bbp::rookAttacksWalk(king, 0);
      BishopMask[king] = bbp::bishopAttacksWalk(king, 0);
      for (int slider = 0; slider < 64; ++slider) {
        const bbp::U64 line = bbp::line(king, slider);
        if (!line) continue;
        const bbp::U64 between = bbp::between(king, slider);
        PinBetween[king * 64 + slider] = between | bbp::squareBB(slider);
        // Behind the king: on the line, one step from the king, on the far side from the slider.
        const bbp::U64 behind = line & bbp::arrKingAttacks[king] & ~between & ~bbp::squareBB(slider);
        CheckBetween[king * 64 + slider] = between | behind;
      }
    }
  }
};
static const Fill fill;

}  // namespace detail

namespace Lookup_Pext {

_ForceInline std::uint64_t King(std::uint64_t sq) { return bbp::arrKingAttacks[sq]; }
_ForceInline std::uint64_t Knight(std::uint64_t sq) { return bbp::arrKnightAttacks[sq]; }

_ForceInline std::uint64_t Rook(std::uint64_t sq, std::uint64_t occupied) {
  const bbp::PextEntry& e = detail::slider.rook[sq];
  return e.attacks[_pext_u64(occupied, e.mask)];
}
_ForceInline std::uint64_t Bishop(std::uint64_t sq, std::uint64_t occupied) {
  const bbp::PextEntry& e = detail::slider.bishop[sq];
  return e.attacks[_pext_u64(occupied, e.mask)];
}
_ForceInline std::uint64_t Queen(std::uint64_t sq, std::uint64_t occupied) {
  return Rook(sq, occupied) | Bishop(sq, occupied);
}

_ForceInline std::uint64_t Rook_Xray(std::uint64_t sq, std::uint64_t occupied) {
  return detail::xray.rookAt[sq][_pext_u64(occupied, detail::slider.rook[sq].mask)];
}
_ForceInline std::uint64_t Bishop_Xray(std::uint64_t sq, std::uint64_t occupied) {
  return detail::xray.bishopAt[sq][_pext_u64(occupied, detail::slider.bishop[sq].mask)];
}

}  // namespace Lookup_Pext
}  // namespace Chess_Lookup
