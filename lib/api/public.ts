/** Everything public that does not depend on the backend: types, constants, square helpers. */
export type { Bitboard, Square, Color, KnightDirection, Position, CheckKind, PerftStatsColumn } from '../core/types.js';
export { WHITE, BLACK, KNIGHT_DIRECTIONS, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, RAY_DIRECTIONS, CHECK_KINDS, PACKED_POSITION_WORDS, CHECK_ANALYSIS_WORDS, MAX_MOVES, PERFT_STATS_COLUMNS, PROMOTION_NONE, PROMOTION_KNIGHT, PROMOTION_BISHOP, PROMOTION_ROOK, PROMOTION_QUEEN } from '../core/types.js';
export { FenError, MoveError, PositionError, STARTING_FEN, isPosition, chess960StartPosition, chess960StartNumber } from '../core/position.js';
export type { FenField, FenOptions, PositionField, PositionInit, SidePieces, ToFenOptions } from '../core/position.js';
export { ALL_SQUARES, MAX_PERFT_DEPTH, encodeMove, decodeMove, type Api, type ApiOptions, type PerftStats } from './create-api.js';
/** The declaration of every public function (argument kinds, result kind, batch form, cheap or not), for tooling. */
export { DECLARATIONS, type ArgKind, type Declaration, type OutKind, type ResultKind, type Topic } from './declarations.js';
export { MAX_PERFT_THREADS, type PerftOptions, type PerftAsyncOptions } from '../moves/perft.js';
export { parseSquare, squareName, bitboardOf, squaresOf } from '../core/squares.js';
export * from '../games/index.js';
export * from '../tablebases/index.js';
export * from '../batch/index.js';
export * from '../diagram/index.js';
