/**
 * The analyze command's native pipeline: a plain file analysed by the addon's own threads
 * (native/addon/analyze_file.cc), with no worker thread. lib/cli/analyze.ts takes it when the native
 * backend loads, the input is a plain file, and --syzygy is not asked for; everything else goes
 * through the worker threads. Both make the same bytes: the lines the addon cannot finish alone
 * (non-ASCII lines, lines to report as error records, over-long lines) are done here, on the main
 * thread, by the worker threads' own code (lineRecords, from dist/analyze-worker.cjs).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { getSystemErrorMap } from 'node:util';
import type { Backend, BatchBackend } from '../backends/contract.js';
import type { LineRecords, lineRecords as LineRecordsFn } from './analyze-chunks.js';
import { MAX_LINE_BYTES, chunkCount, chunkRange } from './analyze-control.js';
import type { ChunkPlan, JobResult } from './analyze-control.js';
import type { RecordFormat } from '../batch/batch.js';

/** The addon's entry point (BatchBackend.analyzeFile). */
type AnalyzeFile = NonNullable<BatchBackend['analyzeFile']>;
type OnLines = Parameters<AnalyzeFile>[7];

/** The addon's analyzeFile, when `backend` is the native one and has it. */
export function nativeAnalyzeFile(backend: Backend): AnalyzeFile | undefined {
  if (backend.name !== 'native') return undefined;
  return backend.batch.analyzeFile;
}

export interface NativeRun extends JobResult { lines: number; errors: number; bytes: number }

/**
 * Analyses `file` (plain, not gzip) with the addon's threads; the records go to stdout (fd 1).
 * onProgress: the lines and KiB of input written so far, now and then.
 */
export async function runNative(analyzeFile: AnalyzeFile, file: string, plan: ChunkPlan, threads: number,
  ids: number[], format: RecordFormat, strict: boolean, onProgress?: (lines: number, kib: number) => void,
  chess960 = false): Promise<NativeRun> {
  const chunks = chunkCount(plan);
  const bounds = new Float64Array(chunks + 1);
  for (let k = 0; k < chunks; k++) bounds[k] = chunkRange(plan, k)[0];
  bounds[chunks] = chunkRange(plan, chunks - 1)[1];
  // The analysis code is loaded for the first lines that need it (a clean file never does): it is
  // the worker threads' CommonJS build, which `require` loads at once, in the ESM build too. Its own
  // backend object is used with it (Positions are recognised only by the module graph that made them).
  let records: OnLines | undefined;
  const onLines: OnLines = (text, starts, lineNumbers, tooLong) => {
    if (!records) {
      const m = createRequire(import.meta.url)(fileURLToPath(new URL('./analyze-worker.cjs', import.meta.url))) as
        { lineRecords: typeof LineRecordsFn; loadNative: () => Backend };
      const own = m.loadNative();
      records = (t, s, n, long) => m.lineRecords(own, t, s, n, long, ids, format, chess960);
    }
    return records(text, starts, lineNumbers, tooLong);
  };
  const [stop, message, lines, errors, bytes, errno] = await analyzeFile(file, Uint8Array.from(ids), format === 'ndjson' ? 0 : 1, strict,
    threads, bounds, MAX_LINE_BYTES, onLines, onProgress, chess960);
  return { ...(stop !== 0 && { stop, message: errno ? writeErrorMessage(errno) : message }), lines, errors, bytes };
}

/** fs.writeSync's message for a failed write ("ENOSPC: no space left on device, write"). */
function writeErrorMessage(errno: number): string {
  const [code, text] = getSystemErrorMap().get(-errno) ?? [`errno ${errno}`, 'unknown error'];
  return `${code}: ${text}, write`;
}
