/**
 * `bitboard-patterns/batch`: many positions in one call. `PositionBatch` and the analysis functions
 * are the default facade's (lib/api/facade.ts chooses the backend).
 *
 * @module bitboard-patterns/batch
 */
import { api } from './api/facade.js';

export * from './batch/index.js';
export const { PositionBatch, analyzeBatch, analyzeBatchAsync, toPlanes, seeBatch, packPositions } = api;
