/**
 * `bitboard-patterns analyze [file|-]`: FEN / EPD lines in, one NDJSON or CSV record per line out, in
 * input order. A stdin-to-stdout filter (the map step of Hadoop Streaming or Spark's pipe).
 *
 * Pipeline: the main thread reads (gunzipping when the input starts with the gzip magic), cuts the
 * bytes into chunks at line ends and hands them to a pool of worker threads, each of which parses,
 * analyses and formats its chunk (native or JS backend) and sends the bytes back; the main thread
 * writes the results in chunk order. At most 2 chunks per worker are in flight and writing waits for
 * stdout to drain, so memory stays bounded whatever the input size.
 */
import { createReadStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { constants, createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { FEATURES, csvHeader, errorRecord, featureIds } from '../batch.js';
import { FenError } from '../position.js';
import { SyzygyTablebase } from '../syzygy.js';
import type { RecordFormat } from '../batch.js';
import type { Subcommand } from './subcommand.js';
import { isPgnInput, pgnUsage, runPgnAnalyze } from './pgn-input.js';

const CHUNK_BYTES = 1 << 20;
/** Lines longer than this become an error record and are skipped, never held in memory whole. */
export const MAX_LINE_BYTES = CHUNK_BYTES;

export const summary = 'analyse FEN/EPD lines (file, .gz or stdin) to NDJSON or CSV on stdout, on all cores';

export const usage = `usage: bitboard-patterns analyze [file|-] [options]

Reads FEN or EPD lines (a file, a gzip file, or stdin when the file is '-' or missing) and writes one
record per input line, in input order, to stdout.

options:
  --features a,b,c       features to compute (default: all): ${FEATURES.map((f) => f.name).join(', ')}
  --format ndjson|csv    output format (default ndjson)
  --backend native|js    analysis backend (default native, else js)
  --threads N            worker threads (default: all cores, ${availableParallelism()} here)
  --syzygy DIR           Syzygy tables (.rtbw/.rtbz) in DIR (repeatable): adds "wdl" and "dtz" to
                         each record (null in NDJSON, empty in CSV where the tables cannot answer)
  --strict               stop at the first malformed line (exit code 1)
  --progress / --no-progress   progress bar on stderr (default: only when stderr is a terminal)

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
  format: RecordFormat;
  backend: 'native' | 'js';
  explicit: boolean;
  threads: number;
  strict: boolean;
  progress: boolean;
  syzygy: string[];
}

class UsageError extends Error {}

function parseArgs(args: string[]): Options {
  let file = '-';
  let features: string[] | 'all' = 'all';
  let format: RecordFormat = 'ndjson';
  let backend: 'native' | 'js' = process.env.BITBOARD_PATTERNS_BACKEND === 'js' ? 'js' : 'native';
  let explicit = process.env.BITBOARD_PATTERNS_BACKEND === 'native';
  let threads = availableParallelism();
  let strict = false;
  let progress = process.stderr.isTTY === true;
  let sawFile = false;
  const syzygy: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--features') features = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--format') {
      const v = value();
      if (v !== 'ndjson' && v !== 'csv') throw new UsageError(`--format must be ndjson or csv, got ${v}`);
      format = v;
    } else if (a === '--backend') {
      const v = value();
      if (v !== 'native' && v !== 'js') throw new UsageError(`--backend must be native or js, got ${v}`);
      backend = v;
      explicit = true;
    } else if (a === '--threads') {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1 || v > 256) throw new UsageError('--threads must be an integer 1..256');
      threads = v;
    } else if (a === '--syzygy') syzygy.push(value());
    else if (a === '--strict') strict = true;
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
  return { file, ids, format, backend, explicit, threads, strict, progress, syzygy };
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

/** A chunk of whole lines for a worker, or an over-long line passed over. */
type Piece = { bytes: Buffer; firstLine: number } | { tooLong: { line: number; prefix: string } };

/**
 * Whole lines of about CHUNK_BYTES with the line number of their first line; a UTF-8 byte order mark
 * at the start is dropped. When the input fails (a truncated or corrupt gzip stream), the complete
 * lines read before the failure are still yielded, then the error is thrown.
 */
async function* chunks(input: AsyncIterable<Buffer>): AsyncGenerator<Piece> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 1;
  let first = true;
  let skipping: { line: number; prefix: string } | undefined;
  const emit = (bytes: Buffer): Piece => {
    const c = { bytes, firstLine: line };
    let count = 0;
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
    line += count;
    return c;
  };
  /** Cuts the pending bytes after their last line end: the whole lines go out, the rest stays. */
  function* cut(): Generator<Piece> {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    const end = all.lastIndexOf(10);
    const tail = all.subarray(end + 1);
    if (end >= 0) yield emit(Buffer.from(all.subarray(0, end + 1))); // a copy: its memory goes to a worker
    if (tail.length > MAX_LINE_BYTES) {
      skipping = { line, prefix: tail.subarray(0, 64).toString('latin1') };
      pending = [];
      pendingBytes = 0;
    } else {
      pending = tail.length ? [Buffer.from(tail)] : [];
      pendingBytes = tail.length;
    }
  }
  try {
    for await (let buf of input) {
      if (first) {
        first = false;
        if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      }
      if (skipping) {
        const nl = buf.indexOf(10);
        if (nl < 0) continue;
        yield { tooLong: skipping };
        line = skipping.line + 1;
        skipping = undefined;
        buf = buf.subarray(nl + 1);
      }
      pending.push(buf);
      pendingBytes += buf.length;
      if (pendingBytes >= CHUNK_BYTES) yield* cut();
    }
  } catch (e) {
    if (pendingBytes > 0) {
      const all = Buffer.concat(pending, pendingBytes);
      const end = all.lastIndexOf(10);
      if (end >= 0) yield emit(Buffer.from(all.subarray(0, end + 1)));
    }
    throw e;
  }
  if (skipping) yield { tooLong: skipping };
  else if (pendingBytes > 0) yield emit(Buffer.concat(pending, pendingBytes));
}

interface Result { out: Uint8Array; lines: number; errors: number; firstError?: string; firstErrorEnd?: number }

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  process.env.BITBOARD_PATTERNS_BACKEND = workerData.backend;
  process.env.BITBOARD_PATTERNS_ANALYZE_EXPLICIT = workerData.explicit ? '1' : '0';
  const m = await import(workerData.entry);
  const tb = workerData.syzygy.length ? m.SyzygyTablebase.open(workerData.syzygy, { backend: m.backendObject.name }) : undefined;
  parentPort.on('message', ({ id, bytes, firstLine }) => {
    try {
      const r = m.analyzeTextChunk(m.backendObject, new Uint8Array(bytes), firstLine, workerData.ids, workerData.format, true, tb);
      const out = r.out;
      const copy = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
      parentPort.postMessage({ id, out: copy, lines: r.lines, errors: r.errors, firstError: r.firstError, firstErrorEnd: r.firstErrorEnd }, [copy.buffer]);
    } catch (e) {
      parentPort.postMessage({ id, fatal: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => parentPort.postMessage({ fatal: String(e && e.stack || e) }));
`;

class Pool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();
  private queue: { id: number; bytes: Buffer; firstLine: number }[] = [];
  private fatal: Error | undefined;

  constructor(n: number, data: object) {
    const entry = new URL('./analyze-worker.js', import.meta.url).href;
    for (let i = 0; i < n; i++) {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...data, entry } });
      w.on('message', (m: { ready?: boolean; id?: number; fatal?: string } & Partial<Result>) => {
        if (m.fatal) return this.fail(new Error(m.fatal));
        if (m.ready) { this.idle.push(w); this.pump(); return; }
        const done = this.waiting.get(m.id!)!;
        this.waiting.delete(m.id!);
        this.idle.push(w);
        this.pump();
        done.resolve({ out: m.out!, lines: m.lines!, errors: m.errors!, firstError: m.firstError, firstErrorEnd: m.firstErrorEnd });
      });
      w.on('error', (e) => this.fail(e));
      this.workers.push(w);
    }
  }

  private fail(e: Error): void {
    this.fatal ??= e;
    for (const { reject } of this.waiting.values()) reject(e);
    this.waiting.clear();
  }

  private pump(): void {
    while (this.idle.length && this.queue.length) {
      const w = this.idle.pop()!;
      const job = this.queue.shift()!;
      const ab = job.bytes.buffer.slice(job.bytes.byteOffset, job.bytes.byteOffset + job.bytes.byteLength);
      w.postMessage({ id: job.id, bytes: ab, firstLine: job.firstLine }, [ab as ArrayBuffer]);
    }
  }

  run(id: number, bytes: Buffer, firstLine: number): Promise<Result> {
    if (this.fatal) return Promise.reject(this.fatal);
    // The chunk goes into the queue, not into the promise's closure: once sent it can be collected.
    this.queue.push({ id, bytes, firstLine });
    const result = new Promise<Result>((resolve, reject) => { this.waiting.set(id, { resolve, reject }); });
    this.pump();
    return result;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

function write(chunk: Uint8Array): Promise<void> | undefined {
  if (process.stdout.write(chunk)) return undefined;
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

function progressLine(lines: number, bytes: number, total: number | undefined, started: number): string {
  const secs = (performance.now() - started) / 1000;
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

export async function run(args: string[]): Promise<number> {
  if (await isPgnInput(args)) return runPgnAnalyze(args);
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
  let total: number | undefined;
  if (o.progress && o.file !== '-') {
    const { statSync } = await import('node:fs');
    total = statSync(o.file).size;
  }
  const input = await openInput(o.file).catch((e: Error) => { throw new Error(`cannot read ${o.file}: ${e.message}`); });
  if (o.syzygy.length) {
    // Checked here for a clear message; each worker thread opens its own.
    try {
      const tb = SyzygyTablebase.open(o.syzygy, { backend: 'js' });
      const none = tb.tables.length === 0;
      tb.close();
      if (none) throw new Error(`no Syzygy tables (.rtbw) in ${o.syzygy.join(', ')}`);
    } catch (e) {
      process.stderr.write(`bitboard-patterns analyze: --syzygy: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const pool = new Pool(o.threads, { ids: o.ids, format: o.format, backend: o.backend, explicit: o.explicit, syzygy: o.syzygy });
  const maxInFlight = 2 * o.threads;
  const started = performance.now();
  let lines = 0;
  let errors = 0;
  let bytesIn = 0;
  let lastProgress = 0;
  let stopped = false;
  let inputError: Error | undefined;
  const inFlight: Promise<Result>[] = [];
  try {
    if (o.format === 'csv') await write(Buffer.from(csvHeader(o.ids, o.syzygy.length > 0)));
    const drainOne = async (): Promise<void> => {
      const r = await inFlight.shift()!;
      if (stopped) return;
      if (o.strict && r.errors > 0) {
        // Write the records up to and including the first error record, then stop.
        await write(r.out.subarray(0, r.firstErrorEnd));
        process.stderr.write(`${o.progress ? '\n' : ''}bitboard-patterns analyze: ${r.firstError} (--strict: stopping)\n`);
        stopped = true;
        errors += 1;
        return;
      }
      lines += r.lines;
      errors += r.errors;
      await write(r.out);
      if (o.progress && performance.now() - lastProgress > 200) {
        lastProgress = performance.now();
        process.stderr.write(progressLine(lines, bytesIn, total, started));
      }
    };
    let id = 0;
    try {
      for await (const piece of chunks(input)) {
        if ('tooLong' in piece) {
          const { line, prefix } = piece.tooLong;
          const error = new FenError('fen', prefix, `line longer than ${MAX_LINE_BYTES} bytes`);
          const out = Buffer.from(errorRecord(line, `${prefix}...`, error, o.ids, o.format, o.syzygy.length > 0));
          inFlight.push(Promise.resolve({ out, lines: 1, errors: 1, firstError: `line ${line}: ${error.message}`, firstErrorEnd: out.length }));
        } else {
          bytesIn += piece.bytes.length;
          inFlight.push(pool.run(id++, piece.bytes, piece.firstLine));
        }
        while (inFlight.length >= maxInFlight && !stopped) await drainOne();
        if (stopped) break;
      }
    } catch (e) {
      inputError = e as Error;
    }
    while (inFlight.length && !stopped) await drainOne();
  } finally {
    await pool.close();
  }
  if (o.progress) process.stderr.write(`${progressLine(lines, bytesIn, total, started)}\n`);
  if (stopped) return 1;
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

