/**
 * The leapers' attack tables of the board core: king and knight attacks by square, built at load
 * from the King Pattern and Knight Pattern pages' set-wise attacks (the rest of those pages is in
 * lib/backends/js/king.ts and knight.ts). Signed int64 inside, unsigned bigints out:
 * see the header of `bitboard.ts`.
 */
import { attackTable, eastOne, nortOne, soutOne, squareBit, westOne } from './bitboard.js';

/**
 * The King Pattern page's king attacks by calculation, signed in and out: the horizontal steps first, then
 * those and the kings themselves shifted north and south. Also one king-fill step (with `| set`).
 */
export function kingAttacksI64(kingSet: bigint): bigint {
  const horizontal = BigInt.asIntN(64, eastOne(kingSet) | westOne(kingSet));
  const row = BigInt.asIntN(64, kingSet | horizontal);
  return BigInt.asIntN(64, horizontal | nortOne(row) | soutOne(row));
}

/** King attacks by square (bitboard.ts AttackTable: unsigned, signed and int32-halves forms). */
export const kingAttackTable = attackTable(64, (sq) => kingAttacksI64(squareBit[sq]!));
/** `arrKingAttacks[sq]`, unsigned: returned as is, so a lookup allocates nothing. */
export const arrKingAttacks = kingAttackTable.unsigned;
/** The same table in signed form, for arithmetic. */
export const kingAttacksBits = kingAttackTable.signed;

/**
 * The Knight Pattern page's first multiple-knight attacks, signed in and out: one and two steps east and west,
 * shifted two and one ranks north and south.
 */
export function knightAttacksEastWestI64(knights: bigint): bigint {
  let east = eastOne(knights);
  let west = westOne(knights);
  let h = BigInt.asIntN(64, east | west);
  const twoRanks = BigInt.asIntN(64, BigInt.asIntN(64, h << 16n) | ((h >> 16n) & 0xffffffffffffn));
  east = eastOne(east);
  west = westOne(west);
  h = BigInt.asIntN(64, east | west);
  return BigInt.asIntN(64, twoRanks | BigInt.asIntN(64, h << 8n) | ((h >> 8n) & 0xffffffffffffffn));
}

/** Knight attacks by square (bitboard.ts AttackTable: unsigned, signed and int32-halves forms). */
export const knightAttackTable = attackTable(64, (sq) => knightAttacksEastWestI64(squareBit[sq]!));
/** `arrKnightAttacks[sq]`, unsigned: returned as is, so a lookup allocates nothing. */
export const arrKnightAttacks = knightAttackTable.unsigned;
/** The same table in signed form. */
export const knightAttacksBits = knightAttackTable.signed;

