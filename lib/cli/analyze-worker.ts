/**
 * The worker side of `bitboard-patterns analyze` (built to dist/analyze-worker.cjs, which the worker threads require, and the
 * main thread too when the native pipeline hands it lines: lineRecords): the backend the
 * main thread chose, the chunk pipeline of FEN / EPD lines (lib/cli/analyze-chunks.ts) and the PGN
 * piece formatter. Loaded by each worker thread, so the addon is loaded once per thread (it keeps its
 * state per environment). The JS backend and the PGN formatter are loaded only by the workers that
 * use them: a native worker on FEN lines starts without either.
 */
import type { Backend } from '../backends/contract.js';
import type { SyzygyTablebase } from '../tablebases/syzygy.js';
import { withoutWasm } from '../backends/choose.js';
import { loadNative } from '../backends/native.js';
import { requestedBackend } from '../backends/variable.js';

export { analyzeWorker, lineRecords } from './analyze-chunks.js';
export { loadNative };

/** The native backend unless the JS one is asked for, or (without an explicit choice) no addon loads. */
export async function chooseBackend(): Promise<Backend> {
  if (requestedBackend() === 'js') return (await import('../backends/js/index.js')).jsBackend;
  try {
    return loadNative();
  } catch (e) {
    if (process.env.BITBOARD_PATTERNS_ANALYZE_EXPLICIT === '1') throw e;
    return (await import('../backends/js/index.js')).jsBackend;
  }
}

/** The worker's own tablebase of the --syzygy directories, if any (loaded only when asked for). */
export async function openTablebase(paths: string[], backend: Backend): Promise<SyzygyTablebase | undefined> {
  if (paths.length === 0) return undefined;
  return (await import('../tablebases/syzygy.js')).SyzygyTablebase.open(paths, { backend: withoutWasm(backend.name) });
}

/** The PGN input's formatter of one piece of games (lib/cli/pgn-input.ts), loaded on first use, ready for `format`. */
export async function loadPgnFormatter(format?: 'ndjson' | 'csv' | 'parquet'): Promise<typeof import('./pgn-input.js').formatPgnPiece> {
  const m = await import('./pgn-input.js');
  await m.preparePgnFormat(format);
  return m.formatPgnPiece;
}
