/** The games topic's public surface: SAN and PGN (the `bitboard-patterns/games` subpath and the root). */
export { toSan, parseSan, sanMoves, SanError, type SanOptions, type SanReason } from './san.js';
export {
  parsePgn, readPgn, readPgnPositions, pgnPositions, splitPgn, pgnPiecePositions, PgnError, PGN_ERRORS, type PgnPiece,
  type PgnGame, type PgnOptions, type PgnResult, type PgnSource, type PositionSelect, type GamePositions,
  type PositionsOptions, type ReusePositionsOptions, type PgnComment, type PgnNag, type PgnProblem,
} from './pgn.js';
export { PolyglotBook, PolyglotBookError, POLYGLOT_ENTRY_BYTES } from './polyglot.js';
export type { PolyglotEntry, PolyglotBookOptions, PolyglotBookProblem } from './polyglot.js';
export { parseEpd, toEpd, EpdError, MAX_EPD_LENGTH } from './epd.js';
export type { EpdOps, EpdRecord, EpdProblem } from './epd.js';
export { writePgn, type WritableGame, type WritePgnOptions } from './pgn-write.js';
export type { PgnEval } from './pgn-annotations.js';
export { gameFilter, type GameFilter } from './pgn-filter.js';
export { filterPgn, readFilteredPgn, type FilterPgnOptions, type FilteredPgn } from './pgn-copy.js';
export { OUTCOME_TERMINATIONS, type PgnOutcome, type PgnTermination } from './outcome.js';
export { openingOf, openingOfPosition, openingsOfBatch, openingOfKey, type Opening, type GameOpening, type OpeningGame } from './openings.js';
export type { PgnNode, PgnTree, PgnArrow, PgnSquare, PgnShapeColor } from './pgn-tree.js';
export { OpeningTree, exploreGames, type ExplorerRow, type ExplorerColumns, type ExploreOptions, type ExploreStats } from './explorer.js';
export { TreeFileError } from './explorer-files.js';
