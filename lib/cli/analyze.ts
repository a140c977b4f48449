/**
 * `bitboard-patterns analyze [file|-]`: FEN / EPD lines in, one NDJSON or CSV record per line out, in
 * input order. A stdin-to-stdout filter (the map step of Hadoop Streaming or Spark's pipe).
 *
 * Two pipelines, the same bytes. A plain file on the native backend (without --syzygy) is analysed
 * by the addon's own threads (lib/cli/analyze-native.ts, native/addon/analyze_file.cc), with no worker
 * thread to start. Otherwise worker threads read, parse, analyse, format and write: a plain file is
 * read by the workers themselves in byte ranges (chunkPlan; each finds the lines that start in its
 * range); stdin and gzip input are read by the main thread and cut at line ends into pieces for the
 * workers. Workers number their lines and write their records to stdout in chunk order, through counters in
 * shared memory; a chunk finished before its turn waits in one of its worker's two output slots and
 * is written by whichever worker writes the chunk before it (see analyzeWorker), so no worker waits
 * for another's write and no record passes through the main thread. Each worker holds one chunk and
 * two slots, and at most 2 pieces per worker are queued, so memory stays bounded whatever the input
 * size.
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { FEATURES, csvHeader, featureIds } from '../core/features.js';
import type { RecordFormat } from '../batch/batch.js';
import type { Subcommand } from './subcommand.js';
import { isPgnInput, pgnUsage } from './pgn-detect.js';
import { engineUsage } from './engine-options.js';
import { UsageError, backendOf, commandBackend, valueOf, threadsOf } from './args.js';
import { requestedBackend } from '../backends/variable.js';
import type { WorkerPool } from './worker-pool.js';
import { nowMs, writeAllSync } from './output.js';
import {
  BYTES, CHUNK_BYTES, EPIPE, chunkCount, chunkPlan, sharedBlocks, ERRORS, LINES, MAX_LINE_BYTES, RUNNING, STOP, STRICT, WRITE_FAILED,
} from './analyze-control.js';
import type { JobResult, WorkerData } from './analyze-control.js';
import type { Backend } from '../backends/contract.js';
import type { SyzygyTablebase } from '../tablebases/syzygy.js';

/** FEN / EPD records go through fd 1 (lib/cli/output.ts); the PGN reader guards process.stdout itself. */
export const writesFd1 = true;

export const summary = 'analyse FEN/EPD lines (file, .gz or stdin) to NDJSON, CSV or Parquet, on all cores';

export const usage = `usage: bitboard-patterns analyze [file|-] [options]

Reads FEN or EPD lines (a file, a gzip file, or stdin when the file is '-' or missing) and writes one
record per input line, in input order, to stdout.

options:
  --features a,b,c       features to compute (default: all): ${FEATURES.map((f) => f.name).join(', ')}
  --format ndjson|csv|parquet   output format (default ndjson); parquet: the CSV columns typed
                         (line, input, the features, wdl and dtz, error), analysed on one thread
  --out FILE             Parquet: the file to write (default stdout)
  --row-group N          Parquet: rows per row group (default 65536)
  --backend native|js    analysis backend (default native, else js)
  --threads N            threads (default: all cores, ${availableParallelism()} here)
  --syzygy DIR           Syzygy tables (.rtbw/.rtbz) in DIR (repeatable): adds "wdl" and "dtz" to
                         each record (null in NDJSON, empty in CSV where the tables cannot answer)
  --chess960             read castling fields as X-FEN, as parseFen(fen, { chess960: true }):
                         KQkq name the outermost rooks, a file letter an inner one (Shredder-FEN
                         lines such as HAha are Chess960 positions with or without it)
  --strict               stop at the first malformed line (exit code 1)
  --progress / --no-progress   progress bar on stderr (default: only when stderr is a terminal)
  --engine [CMD]         add engine_cp, engine_mate, best_move, pv to every record: a UCI engine
                         (default stockfish on PATH, then /usr/games/stockfish) searches each
                         position, with:
${engineUsage}

Blank lines and lines whose first non-blank character is '#' are passed over (the records keep the
input's line numbers); CRLF line ends, a UTF-8 byte order mark and a missing final newline are fine.
Malformed lines, and lines longer than ${MAX_LINE_BYTES} bytes, become error records
{"line", "input", "error", "field"}; the run goes on and the exit code is 3 when any line had an error.
Exit codes: 0 done, 1 --strict stopped at a bad line or the input could not be read to its end (a
truncated or corrupt gzip file: every complete line before the damage is still analysed), 2 bad
usage, 3 some lines had errors, 141 the output pipe was closed by the reader (as \`| head\` does).

${pgnUsage}`;

interface Options {
  file: string;
  ids: number[];
  format: RecordFormat | 'parquet';
  /** Parquet: the file (stdout without it) and the rows per row group (undefined: the default). */
  out: string | undefined;
  groupRows: number | undefined;
  backend: 'native' | 'js';
  explicit: boolean;
  threads: number;
  strict: boolean;
  progress: boolean;
  syzygy: string[];
  chess960: boolean;
}


function parseArgs(args: string[]): Options {
  let file = '-';
  let features: string[] | 'all' = 'all';
  let format: RecordFormat | 'parquet' = 'ndjson';
  let out: string | undefined;
  let groupRows: number | undefined;
  let { backend, explicit } = commandBackend('analyze', requestedBackend());
  let threads = availableParallelism();
  let strict = false;
  let chess960 = false;
  let progress = process.stderr.isTTY === true;
  let sawFile = false;
  const syzygy: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (a === '--features') features = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--format') {
      const v = value();
      if (v !== 'ndjson' && v !== 'csv' && v !== 'parquet') throw new UsageError(`--format must be ndjson, csv or parquet, got ${v}`);
      format = v;
    } else if (a === '--out') out = value();
    else if (a === '--row-group') {
      const v = value();
      groupRows = Number(v);
      if (!/^[0-9]+$/.test(v) || groupRows < 1 || groupRows > 1e9) throw new UsageError(`--row-group must be an integer 1..1e9, got ${v}`);
    } else if (a === '--backend') {
      backend = backendOf(value());
      explicit = true;
    } else if (a === '--threads') threads = threadsOf(value(), 256);
    else if (a === '--syzygy') syzygy.push(value());
    else if (a === '--strict') strict = true;
    else if (a === '--chess960') chess960 = true;
    else if (a === '--progress') progress = true;
    else if (a === '--no-progress') progress = false;
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else if (sawFile) throw new UsageError(`only one input file, got ${file} and ${a}`);
    else { file = a; sawFile = true; }
  }
  if (features !== 'all') {
    const asked = features.filter((f) => f === 'wdl' || f === 'dtz');
    if (asked.length && !syzygy.length) throw new UsageError(`feature ${asked[0]} needs --syzygy DIR`);
    features = features.filter((f) => f !== 'wdl' && f !== 'dtz');
  }
  let ids: number[];
  try {
    ids = featureIds('--features', features);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (out !== undefined && format !== 'parquet') throw new UsageError('--out FILE is for --format parquet (other formats go to stdout)');
  return { file, ids, format, out, groupRows, backend, explicit, threads, strict, progress, syzygy, chess960 };
}

/** The input as a byte stream, gunzipped when it starts with the gzip magic (1f 8b). */
async function openInput(file: string): Promise<AsyncIterable<Buffer>> {
  const raw: Readable = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const iterator = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  async function* rest(): AsyncGenerator<Buffer> {
    if (!first.done) yield first.value;
    for (;;) {
      const r = await iterator.next();
      if (r.done) return;
      yield r.value;
    }
  }
  if (!first.done && first.value.length >= 2 && first.value[0] === 0x1f && first.value[1] === 0x8b) {
    const { constants, createGunzip } = await import('node:zlib'); // loaded only for gzip input
    const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
    const source = rest();
    (async () => {
      try {
        for await (const b of source) if (!gunzip.write(b)) await new Promise((r) => gunzip.once('drain', r));
        // Everything decompressed so far goes out first; a truncated stream then fails at end().
        await new Promise<void>((r) => gunzip.flush(constants.Z_SYNC_FLUSH, () => r()));
        gunzip.end();
      } catch (e) {
        gunzip.destroy(e as Error);
      }
    })();
    return gunzip;
  }
  return rest();
}

/** Whole lines read by the main thread (stdin, gzip) for a worker, or an over-long line passed over. */
type Piece = { bytes: Uint8Array } | { tooLong: string };

/**
 * Whole lines of about CHUNK_BYTES from a stream; a UTF-8 byte order mark at the start is dropped.
 * Each piece is a fresh copy (its memory goes to a worker). When the input fails (a truncated or
 * corrupt gzip stream), the complete lines read before the failure are still yielded, then the error
 * is thrown. The lines are not counted here: the workers number them (see analyzeWorker).
 */
async function* streamPieces(input: AsyncIterable<Buffer>): AsyncGenerator<Piece> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let first = true;
  let skipping: string | undefined;
  /** The pending bytes in a buffer of their own (never the shared pool: it is transferred). */
  const whole = (): Buffer => {
    const all = Buffer.allocUnsafeSlow(pendingBytes);
    let at = 0;
    for (const b of pending) { all.set(b, at); at += b.length; }
    return all;
  };
  /** Cuts the pending bytes after their last line end: the whole lines go out, the rest stays. */
  function* cut(): Generator<Piece> {
    const all = whole();
    const end = all.lastIndexOf(10);
    const tail = all.subarray(end + 1);
    // The tail is taken before the lines are yielded: their buffer is then transferred to a worker.
    if (tail.length > MAX_LINE_BYTES) {
      skipping = tail.subarray(0, 64).toString('latin1');
      pending = [];
      pendingBytes = 0;
    } else {
      pending = tail.length ? [Buffer.from(tail)] : [];
      pendingBytes = tail.length;
    }
    if (end >= 0) yield { bytes: all.subarray(0, end + 1) };
  }
  try {
    for await (let buf of input) {
      if (first) {
        first = false;
        if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      }
      if (skipping !== undefined) {
        const nl = buf.indexOf(10);
        if (nl < 0) continue;
        yield { tooLong: skipping };
        skipping = undefined;
        buf = buf.subarray(nl + 1);
      }
      pending.push(buf);
      pendingBytes += buf.length;
      if (pendingBytes >= CHUNK_BYTES) yield* cut();
    }
  } catch (e) {
    if (pendingBytes > 0) {
      const all = whole();
      const end = all.lastIndexOf(10);
      if (end >= 0) yield { bytes: all.subarray(0, end + 1) };
    }
    throw e;
  }
  if (skipping !== undefined) yield { tooLong: skipping };
  else if (pendingBytes > 0) yield { bytes: whole() };
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  process.env.BITBOARD_PATTERNS_BACKEND = workerData.backend;
  process.env.BITBOARD_PATTERNS_ANALYZE_EXPLICIT = workerData.explicit ? '1' : '0';
  const m = require(workerData.entry);
  let backend;
  try {
    backend = await m.chooseBackend();
  } catch (e) {
    // The backend asked for cannot load (--backend native without an addon): the reason, no stack.
    parentPort.postMessage({ fatal: String(e && e.message || e) });
    return;
  }
  const handle = m.analyzeWorker(workerData, backend, await m.openTablebase(workerData.syzygy, backend));
  parentPort.on('message', (job) => {
    try {
      parentPort.postMessage({ id: job.id, result: handle(job) });
    } catch (e) {
      parentPort.postMessage({ id: job.id, fatal: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => parentPort.postMessage({ fatal: String(e && e.stack || e) }));
`;

function progressLine(lines: number, bytes: number, total: number | undefined, started: number): string {
  const secs = (nowMs() - started) / 1000;
  const rate = lines / Math.max(secs, 1e-9);
  let s = `\r${lines.toLocaleString('en')} positions  ${Math.round(rate).toLocaleString('en')}/s`;
  if (total) {
    const frac = Math.min(1, bytes / total);
    const width = 24;
    const filled = Math.round(frac * width);
    const eta = frac > 0 ? secs * (1 - frac) / frac : 0;
    s += `  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(frac * 100).toFixed(0)}%  ETA ${eta.toFixed(0)}s`;
  }
  return `${s}   `;
}

/** A regular file that is not gzip: its size (the workers read it in byte ranges themselves). */
function plainFileSize(file: string): number | undefined {
  if (file === '-') return undefined;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined; // openInput reports it
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    const magic = Buffer.alloc(2);
    if (readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b) return undefined;
    return st.size;
  } finally {
    closeSync(fd);
  }
}

/**
 * The native pipeline (lib/cli/analyze-native.ts) when the addon loads and has it; otherwise the
 * worker threads run, and say why the native backend cannot load if it was asked for.
 */
async function nativePipeline() {
  const { loadNative } = await import('../backends/native.js');
  let backend;
  try {
    backend = loadNative();
  } catch {
    return undefined;
  }
  const module = await import('./analyze-native.js');
  const analyzeFile = module.nativeAnalyzeFile(backend);
  return analyzeFile && { module, analyzeFile };
}

/**
 * FEN / EPD lines to Parquet (lib/cli/analyze-fen-parquet.ts): pieces of whole lines read as the
 * text formats read stdin and gzip input, analysed on this thread, written as row groups.
 */
async function runParquet(o: Options): Promise<number> {
  const [{ FenParquetRows, fenParquetColumns }, parquet, { parquetZstd }] = await Promise.all([
    import('./analyze-fen-parquet.js'), import('./analyze-parquet.js'), import('./pgn-input.js')]);
  const fail = (message: string, code: number): number => {
    process.stderr.write(`bitboard-patterns analyze: ${message}\n`);
    return code;
  };
  let backend: Backend;
  const js = async (): Promise<Backend> => (await import('../backends/js/index.js')).jsBackend;
  if (o.backend === 'js') backend = await js();
  else {
    try {
      backend = (await import('../backends/native.js')).loadNative();
    } catch (e) {
      if (o.explicit) return fail((e as Error).message, 1);
      backend = await js();
    }
  }
  let tb: SyzygyTablebase | undefined;
  if (o.syzygy.length) {
    try {
      const { SyzygyTablebase } = await import('../tablebases/syzygy.js');
      const { withoutWasm } = await import('../backends/choose.js');
      tb = SyzygyTablebase.open(o.syzygy, { backend: withoutWasm(backend.name) });
      if (tb.tables.length === 0) throw new Error(`no Syzygy tables (.rtbw) in ${o.syzygy.join(', ')}`);
    } catch (e) {
      tb?.close();
      return fail(`--syzygy: ${(e as Error).message}`, 2);
    }
  }
  const groupRows = o.groupRows ?? parquet.ROW_GROUP_ROWS;
  const zstd = parquetZstd();
  const schema = fenParquetColumns(o.ids, tb !== undefined);
  let total: number | undefined;
  if (o.progress && o.file !== '-') total = plainFileSize(o.file);
  let input: AsyncIterable<Buffer>;
  let output: Awaited<ReturnType<typeof parquet.openParquetOutput>>;
  try {
    input = await openInput(o.file).catch((e: Error) => { throw new Error(`cannot read ${o.file}: ${e.message}`); });
    output = await parquet.openParquetOutput(o.out, schema, zstd !== undefined);
  } catch (e) {
    tb?.close();
    return fail((e as Error).message, 1);
  }
  const rows = new FenParquetRows(backend, o.ids, schema, tb, o.chess960);
  const started = nowMs();
  let line = 1;
  let bytes = 0;
  let inputError: Error | undefined;
  let closed = false;
  const progress = o.progress
    ? setInterval(() => process.stderr.write(progressLine(rows.lines, bytes, total, started)), 200)
    : undefined;
  progress?.unref();
  try {
    for await (const piece of streamPieces(input)) {
      if ('tooLong' in piece) {
        rows.tooLong(line++, piece.tooLong);
      } else {
        line += rows.add(piece.bytes, line, o.strict);
        bytes += piece.bytes.length;
      }
      if (o.strict && rows.firstError !== undefined) break;
      if (rows.rows >= groupRows && !output.append(rows.take(groupRows, zstd))) { closed = true; break; }
    }
  } catch (e) {
    inputError = e as Error;
  } finally {
    if (progress) clearInterval(progress);
    tb?.close();
  }
  let finishing = false;
  try {
    if (!closed && rows.rows > 0 && !output.append(rows.take(groupRows, zstd))) closed = true;
    if (closed) {
      output.abandon();
      return 141;
    }
    finishing = true; // finish closes the file whatever happens
    if (!output.finish()) return 141;
  } catch (e) {
    if (!finishing) output.abandon();
    return fail((e as Error).message, 1);
  }
  if (o.progress) process.stderr.write(`${progressLine(rows.lines, bytes, total, started)}\n`);
  if (o.strict && rows.firstError !== undefined) return fail(`${rows.firstError} (--strict: stopping)`, 1);
  if (inputError) {
    return fail(`cannot read ${o.file === '-' ? 'stdin' : o.file} to its end (${inputError.message}); `
      + `the ${rows.lines} complete lines before that were analysed`, 1);
  }
  if (rows.errors > 0) return fail(`${rows.errors} of ${rows.lines} lines had errors`, 3);
  return 0;
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--engine')) return (await import('./analyze-engine.js')).runWithEngine(args);
  if (await isPgnInput(args)) return (await import('./pgn-input.js')).runPgnAnalyze(args);
  let o: Options;
  try {
    o = parseArgs(args);
  } catch (e) {
    if (e instanceof UsageError || e instanceof RangeError || e instanceof TypeError) {
      process.stderr.write(`bitboard-patterns analyze: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (o.format === 'parquet') return runParquet(o);
  const size = plainFileSize(o.file);
  let total: number | undefined;
  if (o.progress && o.file !== '-') {
    const { statSync } = await import('node:fs');
    total = statSync(o.file).size;
  }
  const input = size === undefined
    ? await openInput(o.file).catch((e: Error) => { throw new Error(`cannot read ${o.file}: ${e.message}`); })
    : undefined;
  if (o.syzygy.length) {
    // Checked here for a clear message; each worker thread opens its own.
    try {
      const { SyzygyTablebase } = await import('../tablebases/syzygy.js');
      const tb = SyzygyTablebase.open(o.syzygy, { backend: 'js' });
      const none = tb.tables.length === 0;
      tb.close();
      if (none) throw new Error(`no Syzygy tables (.rtbw) in ${o.syzygy.join(', ')}`);
    } catch (e) {
      process.stderr.write(`bitboard-patterns analyze: --syzygy: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const plan = size === undefined ? undefined : chunkPlan(size, o.threads);
  const threads = plan ? Math.min(o.threads, chunkCount(plan)) : o.threads;
  // A plain file on the native backend, without --syzygy: the addon's own threads.
  const native = plan && threads > 0 && o.backend === 'native' && !o.syzygy.length
    && process.env.BITBOARD_PATTERNS_ANALYZE_PIPELINE !== 'workers' ? await nativePipeline() : undefined;
  // The worker threads' shared memory (their output slots among it), made only when they run.
  const shared = native ? undefined : sharedBlocks(threads);
  const controlView = shared && new Int32Array(shared.control);
  const totalsView = shared && new BigInt64Array(shared.totals);
  const started = nowMs();
  let stop: JobResult = {};
  let inputError: Error | undefined;
  let nativeTotals: { lines: number; errors: number; bytes: number } | undefined;
  // Lines and bytes written so far: the native pipeline's progress steps, or the worker threads' shared totals.
  const written = { lines: 0, kib: 0 };
  const linesNow = (): number => (totalsView ? Number(totalsView[LINES]) : written.lines);
  const bytesNow = (): number => (totalsView ? Number(totalsView[BYTES]) : written.kib * 1024);
  const progress = o.progress
    ? setInterval(() => process.stderr.write(progressLine(linesNow(), bytesNow(), total, started)), 200)
    : undefined;
  progress?.unref();
  // The worker threads' module is loaded only when they run (node:worker_threads costs start-up time).
  const workers = threads > 0 && !native ? await import('./worker-pool.js') : undefined;
  const pool: WorkerPool<JobResult> | undefined = workers ? new workers.WorkerPool<JobResult>(threads, WORKER_SOURCE, {
    entry: workers.WORKER_ENTRY, backend: o.backend, explicit: o.explicit, ids: o.ids,
    format: o.format, syzygy: o.syzygy, strict: o.strict, chess960: o.chess960, ...shared!, ...(plan && { file: o.file, size, plan }),
  } satisfies WorkerData) : undefined;
  const note = (r: JobResult): void => { if (r.stop !== undefined && stop.stop === undefined) stop = r; };
  try {
    if (o.format === 'csv') {
      try {
        writeAllSync(1, Buffer.from(csvHeader(o.ids, o.syzygy.length > 0)));
      } catch (e) {
        note({ stop: (e as NodeJS.ErrnoException).code === 'EPIPE' ? EPIPE : WRITE_FAILED, message: (e as Error).message });
      }
    }
    if (stop.stop !== undefined) {
      // Nothing more to write.
    } else if (native) {
      const r = await native.module.runNative(native.analyzeFile, o.file, plan!, threads, o.ids, o.format, o.strict,
        o.progress ? (lines, kib) => { written.lines = lines; written.kib = kib; } : undefined, o.chess960);
      note(r);
      nativeTotals = r;
    } else if (size !== undefined) {
      // Range mode: each worker takes chunks of the file until none are left.
      if (pool) (await Promise.all(Array.from({ length: threads }, () => pool.run({ range: true })))).forEach(note);
    } else {
      const inFlight: Promise<JobResult>[] = [];
      const maxInFlight = 2 * o.threads;
      let k = 0;
      try {
        for await (const piece of streamPieces(input!)) {
          if ('tooLong' in piece) inFlight.push(pool!.run({ k: k++, tooLong: piece.tooLong }));
          else inFlight.push(pool!.run({ k: k++, bytes: piece.bytes }, [piece.bytes.buffer as ArrayBuffer]));
          while (inFlight.length >= maxInFlight && stop.stop === undefined) note(await inFlight.shift()!);
          if (stop.stop !== undefined || Atomics.load(controlView!, STOP) !== RUNNING) break;
        }
      } catch (e) {
        inputError = e as Error;
      }
      (await Promise.all(inFlight)).forEach(note);
    }
  } finally {
    if (progress) clearInterval(progress);
    await pool?.close();
  }
  const lines = nativeTotals?.lines ?? linesNow();
  const errors = nativeTotals?.errors ?? Number(totalsView![ERRORS]);
  if (o.progress) process.stderr.write(`${progressLine(lines, nativeTotals?.bytes ?? bytesNow(), total, started)}\n`);
  if (stop.stop === EPIPE) return 141;
  if (stop.stop === WRITE_FAILED) {
    process.stderr.write(`bitboard-patterns: cannot write the output: ${stop.message}\n`);
    return 1;
  }
  if (stop.stop === STRICT) {
    process.stderr.write(`${o.progress ? '\n' : ''}bitboard-patterns analyze: ${stop.message} (--strict: stopping)\n`);
    return 1;
  }
  if (inputError) {
    process.stderr.write(`bitboard-patterns analyze: cannot read ${o.file === '-' ? 'stdin' : o.file} to its end `
      + `(${inputError.message}); the ${lines} complete lines before that were analysed\n`);
    return 1;
  }
  if (errors > 0) {
    process.stderr.write(`bitboard-patterns analyze: ${errors} of ${lines} lines had errors\n`);
    return 3;
  }
  return 0;
}
