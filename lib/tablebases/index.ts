/** The tablebases topic's public surface: KBNK, generated tables, Syzygy (`bitboard-patterns/tablebases` and the root). */
export {
  KbnkTablebase, KbnkFileError, KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE, KBNK_FILE_MAGIC,
  KBNK_FILE_VERSION, KBNK_LAYOUT_VERSION, KBNK_FILE_HEADER_SIZE, KBNK_LONGEST_MATE, kbnkIndex, kbnkMoves,
} from './kbnk.js';
export type {
  KbnkProbe, KbnkStats, KbnkSideStats, KbnkProgress, KbnkGenerateOptions, KbnkFileProblem, KbnkSquares, KbnkMove,
} from './kbnk.js';
export {
  Tablebase, TablebaseFileError, TABLEBASE_DRAW, TABLEBASE_ILLEGAL, TABLEBASE_FILE_MAGIC, TABLEBASE_FILE_VERSION, TABLEBASE_LAYOUT_VERSION, TABLEBASE_FILE_HEADER_SIZE,
  tablebaseMaterial, tablebaseSubMaterials, tablebaseTableSize,
} from './tablebase.js';
export type {
  TablebaseMaterial, TablebaseMetric, TablebaseProbe, TablebaseStats, TablebaseSideStats, TablebaseProgress, TablebaseGenerateOptions, TablebasePackedPositions, TablebaseFileProblem,
} from './tablebase.js';
/** The names before the families shared one prefix vocabulary, kept as deprecated aliases. */
export {
  tbParse, tbTableSize, tbSubMaterials, TB_DRAW, TB_ILLEGAL, TB_FILE_MAGIC, TB_FILE_VERSION, TB_LAYOUT_VERSION, TB_FILE_HEADER_SIZE,
} from './tablebase.js';
export type {
  TbMaterial, TbMetric, TbProbe, TbStats, TbSideStats, TbProgress, TbGenerateOptions, TbPackedPositions,
} from './tablebase.js';
export { SyzygyTablebase, SyzygyError, SyzygyFileError, SYZYGY_WDL_NONE, SYZYGY_DTZ_NONE } from './syzygy.js';
export type { SyzygyOpenOptions, SyzygyRootMove, SyzygyRootProbe, SyzygyReason, SyzygyFileProblem } from './syzygy.js';
