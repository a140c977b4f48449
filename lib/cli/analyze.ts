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
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { FEATURES, csvHeader, featureIds } from '../batch.js';
import type { RecordFormat } from '../batch.js';
import type { Subcommand } from './subcommand.js';
import { isPgnInput, pgnUsage, runPgnAnalyze } from './pgn-input.js';

const CHUNK_BYTES = 1 << 20;

export const summary = 'analyse FEN/EPD lines (file, .gz or stdin) to NDJSON or CSV on stdout, on all cores';

export const usage = `usage: bitboard-patterns analyze [file|-] [options]

Reads FEN or EPD lines (a file, a gzip file, or stdin when the file is '-' or missing) and writes one
record per input line, in input order, to stdout.

options:
  --features a,b,c       features to compute (default: all): ${FEATURES.map((f) => f.name).join(', ')}
  --format ndjson|csv    output format (default ndjson)
  --backend native|js    analysis backend (default native, else js)
  --threads N            worker threads (default: all cores, ${availableParallelism()} here)
  --strict               stop at the first malformed line (exit code 1)
  --progress / --no-progress   progress bar on stderr (default: only when stderr is a terminal)

Malformed lines become error records {"line", "input", "error", "field"}; the run goes on and the
exit code is 3 when any line had an error (1 for --strict, 2 for bad usage).

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
    } else if (a === '--strict') strict = true;
    else if (a === '--progress') progress = true;
    else if (a === '--no-progress') progress = false;
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else if (sawFile) throw new UsageError(`only one input file, got ${file} and ${a}`);
    else { file = a; sawFile = true; }
  }
  let ids: number[];
  try {
    ids = featureIds('--features', features);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { file, ids, format, backend, explicit, threads, strict, progress };
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
        gunzip.end();
      } catch (e) {
        gunzip.destroy(e as Error);
      }
    })();
    return gunzip;
  }
  return rest();
}

/** Whole lines of about CHUNK_BYTES, with the line number of their first line. */
async function* chunks(input: AsyncIterable<Buffer>): AsyncGenerator<{ bytes: Buffer; firstLine: number }> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 1;
  const emit = (bytes: Buffer) => {
    const c = { bytes, firstLine: line };
    let count = 0;
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
    line += count;
    return c;
  };
  for await (const buf of input) {
    pending.push(buf);
    pendingBytes += buf.length;
    if (pendingBytes < CHUNK_BYTES) continue;
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    const cut = all.lastIndexOf(10);
    if (cut < 0) { pending = [all]; continue; }
    const head = Buffer.from(all.subarray(0, cut + 1)); // a copy: its memory is transferred to a worker
    const tail = all.subarray(cut + 1);
    pending = tail.length ? [Buffer.from(tail)] : [];
    pendingBytes = tail.length;
    yield emit(head);
  }
  if (pendingBytes > 0) yield emit(Buffer.concat(pending, pendingBytes));
}

interface Result { out: Uint8Array; lines: number; errors: number; firstError?: string; firstErrorEnd?: number }

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  process.env.BITBOARD_PATTERNS_BACKEND = workerData.backend;
  process.env.BITBOARD_PATTERNS_ANALYZE_EXPLICIT = workerData.explicit ? '1' : '0';
  const m = await import(workerData.entry);
  parentPort.on('message', ({ id, bytes, firstLine }) => {
    try {
      const r = m.analyzeTextChunk(m.backendObject, new Uint8Array(bytes), firstLine, workerData.ids, workerData.format, true);
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
  const pool = new Pool(o.threads, { ids: o.ids, format: o.format, backend: o.backend, explicit: o.explicit });
  const maxInFlight = 2 * o.threads;
  const started = performance.now();
  let lines = 0;
  let errors = 0;
  let bytesIn = 0;
  let lastProgress = 0;
  let stopped = false;
  const inFlight: Promise<Result>[] = [];
  try {
    if (o.format === 'csv') await write(Buffer.from(csvHeader(o.ids)));
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
    for await (const { bytes, firstLine } of chunks(input)) {
      bytesIn += bytes.length;
      inFlight.push(pool.run(id++, bytes, firstLine));
      while (inFlight.length >= maxInFlight && !stopped) await drainOne();
      if (stopped) break;
    }
    while (inFlight.length && !stopped) await drainOne();
  } finally {
    await pool.close();
  }
  if (o.progress) process.stderr.write(`${progressLine(lines, bytesIn, total, started)}\n`);
  if (stopped) return 1;
  if (errors > 0) {
    process.stderr.write(`bitboard-patterns analyze: ${errors} of ${lines} lines had errors\n`);
    return 3;
  }
  return 0;
}

