/**
 * The core vocabulary both backends and every topic share: squares, colours, piece and castling
 * constants, the packed position layout, move encoding, result columns. No behaviour here; the
 * Backend contract that uses these types is lib/backends/contract.ts.
 */
export type Bitboard = bigint;
export type Square = number;
export type Color = 0 | 1;

export const WHITE = 0 as const;
export const BLACK = 1 as const;

/** The eight knight direction steps of the Knight Pattern page, in this order. */
export const KNIGHT_DIRECTIONS = [
  'noNoEa', 'noEaEa', 'soEaEa', 'soSoEa', 'noNoWe', 'noWeWe', 'soWeWe', 'soSoWe',
] as const;
export type KnightDirection = (typeof KNIGHT_DIRECTIONS)[number];

/** Set -> set functions: the same shape, single call and batch. */
export const SET_FUNCTIONS = [
  'kingAttacksSet', 'kingFill', 'knightAttacksSet', 'knightFill', 'forkTargetSquares', ...KNIGHT_DIRECTIONS,
] as const;
export type SetFunction = (typeof SET_FUNCTIONS)[number];

/** Square -> set lookups. */
export const SQUARE_FUNCTIONS = ['kingAttacks', 'knightAttacks'] as const;
export type SquareFunction = (typeof SQUARE_FUNCTIONS)[number];

// =====================================================================================
// Checks and pinned pieces (Chess Programming Wiki: Checks and Pinned Pieces), with sliders and positions.
// =====================================================================================

/** Piece types, in the order of `Position.pieces`. */
export const PAWN = 0, KNIGHT = 1, BISHOP = 2, ROOK = 3, QUEEN = 4, KING = 5;
/** Castling-right bits of `Position.castling` (which rights exist; `Position.castlingFiles` has their rooks' files). */
export const CASTLE_WHITE_KING = 1, CASTLE_WHITE_QUEEN = 2, CASTLE_BLACK_KING = 4, CASTLE_BLACK_QUEEN = 8;

/**
 * Ray directions of `rayAttacks`, index = direction number:
 * 0 north (+8), 1 north-east (+9), 2 east (+1), 3 south-east (-7),
 * 4 south (-8), 5 south-west (-9), 6 west (-1), 7 north-west (+7). Opposite of d is d ^ 4.
 */
export const RAY_DIRECTIONS = ['nort', 'noEa', 'east', 'soEa', 'sout', 'soWe', 'west', 'noWe'] as const;

/**
 * The packed form of a position: 10 unsigned 64-bit words, the layout the native side reads.
 *  0 white pieces, 1 black pieces, 2 pawns, 3 knights, 4 bishops, 5 rooks, 6 queens, 7 kings,
 *  8 state = sideToMove | castling << 1 | chess960 << 5 | epCode << 8 | halfmoveClock << 16
 *          | rookFileFields << 40
 *    (epCode = en-passant target square 0..63, or 64 when there is none; bits 6-7 zero;
 *    halfmoveClock takes bits 16..35; rookFileFields: 3 bits per right K, Q, k, q, each the rook's
 *    file XOR its standard file (h for K and k, a for Q and q), 0 for a right not held, so a
 *    standard position's words are those of the layout before Chess960: lib/core/chess960.ts),
 *  9 fullmoveNumber.
 * Many positions are concatenated (position i at words 10*i .. 10*i+9) for the batch forms.
 */
export const PACKED_POSITION_WORDS = 10;

/**
 * Syzygy batch outputs where the tables cannot answer (or the slot holds no legal position): wdl
 * (Int8Array) and dtz (Int16Array).
 */
export const SYZYGY_WDL_NONE = -128;
export const SYZYGY_DTZ_NONE = -32768;

/** Arrays parseFenText may fill instead of making new ones. */
export interface ParseInto { words: BigUint64Array; status: Uint8Array; starts: Uint32Array }

/** Bytes per position of `toPlanes`: 12 piece planes of 64 bytes, then 8 bytes of state. */
export const PLANE_BYTES = 12 * 64 + 8;

/** Words per position written by `checkAnalysisBatch` (see CheckBackend). */
export const CHECK_ANALYSIS_WORDS = 6;

/**
 * The standard bitboard board definition: one set per colour, one per piece type (pieces of colour c
 * and type t = colors[c] & pieces[t]), plus the game state. Immutable; built by `parseFen` or
 * `createPosition`, which validate it (exactly one king per side, no pawns on the back ranks, the side
 * not to move not in check, castling rights matching king and rook squares, a plausible en-passant
 * square). A Position keeps its sets as int32 halves: `colors`, `pieces` and `packed` are made when
 * first read (getters; `Object.keys` lists the five numbers, and a spread copy carries the Position
 * for `createPosition({ ...pos, sideToMove })`).
 */
export interface Position {
  readonly colors: readonly [bigint, bigint];
  readonly pieces: readonly [bigint, bigint, bigint, bigint, bigint, bigint];
  readonly sideToMove: Color;
  /** CASTLE_* bits. */
  readonly castling: number;
  /** The rook file (0 = a .. 7 = h) of each castling right K, Q, k, q; -1 for a right not held. */
  readonly castlingFiles: readonly [number, number, number, number];
  /** A Chess960 position: castling rights name rook files, a castling move is the king taking its own rook. */
  readonly chess960: boolean;
  /** En-passant target square (the square the capturing pawn moves to), or -1. */
  readonly epSquare: number;
  readonly halfmoveClock: number;
  readonly fullmoveNumber: number;
  /** The same position in the packed layout (PACKED_POSITION_WORDS words). */
  readonly packed: BigUint64Array;
}

/** checkKind results; -1 from a backend means the move is not legal in the position. */
export const CHECK_KINDS = ['none', 'direct', 'discovered', 'double'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
/** A backend's `see` result for a move that is not legal in the position (native/core/motifs.h kSeeIllegal). */
export const SEE_ILLEGAL = -1000000;
/** The bound of seeGe's threshold: an integer -SEE_THRESHOLD_BOUND..SEE_THRESHOLD_BOUND centipawns. */
export const SEE_THRESHOLD_BOUND = 100000;

// =====================================================================================
// Legal move generation and perft 
// =====================================================================================

/**
 * Move encoding, 16 bits: `from | to << 6 | promotion << 12`.
 * promotion: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen (the `checkKind` numbering).
 * Castling is the king's two-square move (e1g1, e1c1, e8g8, e8c8); en passant is the pawn's
 * diagonal move to the en-passant square. No other flags: the position tells the rest.
 */
export const MOVE_FROM_MASK = 0x3f;
export const MOVE_TO_SHIFT = 6;
export const MOVE_TO_MASK = 0x3f;
export const MOVE_PROMOTION_SHIFT = 12;
export const MOVE_PROMOTION_MASK = 0x7;
export const PROMOTION_NONE = 0, PROMOTION_KNIGHT = 1, PROMOTION_BISHOP = 2, PROMOTION_ROOK = 3, PROMOTION_QUEEN = 4;
/** Upper bound of legal moves in any position (218 is the known maximum); `legalMoves` needs this room. */
export const MAX_MOVES = 256;

/** Index of each perftStats column in its output array (PERFT_STATS_COLUMNS[i] names out[i]). */
export const PERFT_STATS_COLUMNS = [
  'nodes', 'captures', 'enPassant', 'castles', 'promotions', 'checks', 'discoveryChecks', 'doubleChecks', 'checkmates',
] as const;
export type PerftStatsColumn = (typeof PERFT_STATS_COLUMNS)[number];

// =====================================================================================
// KBNK (Chess Programming Wiki: KBNK Endgame): corner distance, mop-up evaluation, tablebase.
// =====================================================================================

/**
 * KBNK table layout, version 1 (shared by both backends and the file format, so a table made by one
 * is byte-identical to the other's):
 * - The strong side (king, bishop, knight) is always taken as white; a position where black is
 *   strong is probed colour-flipped (ranks mirrored, colours and side to move swapped).
 * - The strong king is moved by one of the 8 board symmetries into the triangle a1-d1-d4
 *   (KBNK_KING_TRIANGLE, index 0..9); when several symmetries do that (king on the a1-d4 diagonal),
 *   every one of them maps to an entry of the table, and all such entries hold the same value.
 * - index = (((stm * 10 + strongKingTriangleIndex) * 64 + bishopSq) * 64 + knightSq) * 64 + weakKingSq,
 *   stm 0 = strong side to move, 1 = weak side to move; KBNK_TABLE_SIZE = 2 * 10 * 64^3 bytes.
 * - value: plies to mate with best play (0 = the side to move is checkmated now, so only with the weak
 *   side to move; odd = strong side to move mates), KBNK_DRAW (254) = draw (stalemate, a piece lost,
 *   or unwinnable), KBNK_ILLEGAL (255) = not a position: two pieces on one square, kings adjacent,
 *   or strong side to move while the weak king is in check.
 */
export const KBNK_KING_TRIANGLE = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27] as const; // a1 b1 c1 d1 b2 c2 d2 c3 d3 d4
export const KBNK_TABLE_SIZE = 2 * 10 * 64 * 64 * 64;
export const KBNK_DRAW = 254;
export const KBNK_ILLEGAL = 255;

