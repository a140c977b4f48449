/**
 * The worker side of `bitboard-patterns analyze` (built to dist/analyze-worker.js): the backend the
 * main thread chose, and the chunk pipeline of lib/batch.ts. Loaded by each worker thread, so the
 * addon is loaded once per thread (it keeps its state per environment).
 */
import type { Backend } from '../backend.js';
import { jsBackend } from '../js/index.js';
import { loadNative } from '../native.js';

export { analyzeTextChunk } from '../batch.js';
export { SyzygyTablebase } from '../syzygy.js';

function choose(): Backend {
  if (process.env.BITBOARD_PATTERNS_BACKEND === 'js') return jsBackend;
  try {
    return loadNative();
  } catch (e) {
    if (process.env.BITBOARD_PATTERNS_ANALYZE_EXPLICIT === '1') throw e;
    return jsBackend;
  }
}

export const backendObject: Backend = choose();
export { formatPgnPiece } from './pgn-input.js';
export { analyzeWorker } from './analyze-chunks.js';
