/** Everything public that does not depend on the backend: types, constants, square helpers. */
export type { Bitboard, Square, Color, KnightDirection, Position, CheckKind, PerftStatsColumn } from './backend.js';
export {
  WHITE, BLACK, KNIGHT_DIRECTIONS, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING,
  CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN,
  RAY_DIRECTIONS, CHECK_KINDS, PACKED_POSITION_WORDS, CHECK_ANALYSIS_WORDS, MAX_MOVES, PERFT_STATS_COLUMNS,
  PROMOTION_NONE, PROMOTION_KNIGHT, PROMOTION_BISHOP, PROMOTION_ROOK, PROMOTION_QUEEN,
} from './backend.js';
export { FenError, MoveError, PositionError, STARTING_FEN, isPosition } from './position.js';
export type { FenField, PositionField, PositionInit, SidePieces } from './position.js';
export { ALL_SQUARES, MAX_PERFT_DEPTH, encodeMove, decodeMove, type Api, type ApiOptions, type PerftStats } from './api.js';
/** The declaration of every public function (argument kinds, result kind, batch form, cheap or not), for tooling. */
export { DECLARATIONS, type ArgKind, type Declaration, type OutKind, type ResultKind, type Topic } from './declarations.js';
export { MAX_PERFT_THREADS, type PerftOptions, type PerftAsyncOptions } from './perft.js';
export { parseSquare, squareName, bitboardOf, squaresOf } from './squares.js';
export {
  KbnkTablebase, KbnkFileError, KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE, KBNK_FILE_MAGIC,
  KBNK_FILE_VERSION, KBNK_LAYOUT_VERSION, KBNK_FILE_HEADER_SIZE, KBNK_LONGEST_MATE, kbnkIndex, kbnkMoves,
} from './kbnk.js';
export type {
  KbnkProbe, KbnkStats, KbnkSideStats, KbnkProgress, KbnkGenerateOptions, KbnkFileProblem, KbnkSquares, KbnkMove,
} from './kbnk.js';
export {
  FEATURES, PENDING_FEATURES, PLANE_BYTES, FEN_STATUS, isPositionBatch,
} from './batch.js';
export { SYZYGY_FEATURES } from './batch.js';
export type { AnalyzeOptions, BaseFeatureName, SyzygyFeatureName } from './batch.js';
export type {
  FeatureName, FeatureInfo, FeatureType, FeatureArray, BatchResults, BatchError, AnalyzeAsyncOptions,
  PositionBatch as PositionBatchType,
} from './batch.js';
export { toSan, parseSan, sanMoves, SanError, type SanOptions, type SanReason } from './san.js';
export {
  parsePgn, readPgn, readPgnPositions, pgnPositions, splitPgn, pgnPiecePositions, PgnError, PGN_ERRORS, type PgnPiece,
  type PgnGame, type PgnOptions, type PgnResult, type PgnSource, type PositionSelect, type GamePositions,
  type PositionsOptions, type ReusePositionsOptions, type PgnComment, type PgnNag, type PgnProblem,
} from './pgn.js';
export { OUTCOME_TERMINATIONS, type PgnOutcome, type PgnTermination } from './outcome.js';
export {
  toSvg, bitboardSvg, toText, colorByDefault, BOARD_COLORS, LAST_MOVE_COLORS, BITBOARD_COLOR, ANSI_COLORS, TEXT_MARKS,
} from './diagram.js';
export type { Highlight, TextHighlight, Arrow, SvgOptions, BitboardSvgOptions, TextOptions } from './diagram.js';
export { SyzygyTablebase, SyzygyError, SyzygyFileError, SYZYGY_WDL_NONE, SYZYGY_DTZ_NONE } from './syzygy.js';
export type { SyzygyOpenOptions, SyzygyRootMove, SyzygyRootProbe, SyzygyReason, SyzygyFileProblem } from './syzygy.js';
export {
  Tablebase, TablebaseFileError, TB_DRAW, TB_ILLEGAL, TB_FILE_MAGIC, TB_FILE_VERSION, TB_LAYOUT_VERSION, TB_FILE_HEADER_SIZE,
  tbParse, tbSubMaterials, tbTableSize,
} from './tablebase.js';
export type {
  TbMaterial, TbMetric, TbProbe, TbStats, TbSideStats, TbProgress, TbGenerateOptions, TbPackedPositions, TablebaseFileProblem,
} from './tablebase.js';
