/** The batch topic's backend-free public surface: feature names and types (`bitboard-patterns/batch` and the root). */
export {
  FEATURES, PENDING_FEATURES, PLANE_BYTES, FEN_STATUS, isPositionBatch,
} from './batch.js';
export { SYZYGY_FEATURES, FEATURE_GROUPS } from './batch.js';
export type { AnalyzeOptions, AnalyzeSyncOptions, BaseFeatureName, FeatureGroupName, SyzygyFeatureName } from './batch.js';
export type {
  FeatureName, FeatureInfo, FeatureType, FeatureArray, BatchResults, BatchError, AnalyzeAsyncOptions,
  PositionBatch as PositionBatchType,
} from './batch.js';
