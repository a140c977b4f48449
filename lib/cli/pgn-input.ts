/**
 * `bitboard-patterns analyze games.pgn[.gz|.zst]`: the PGN input of the analyze command. Chosen by
 * `--input pgn`, or for a file by its bytes: the zstd magic (28 b5 2f fd), or text (plain or gzip)
 * whose first non-blank character is '[' (a tag pair). zstd is decompressed by fzstd (pure
 * JavaScript, streaming; no system library), gzip by node:zlib.
 *
 * Records (NDJSON), in game order:
 *   --per position (default): {"game","ply","san","fen", features...} for each selected position
 *     (ply 0 = the start position, san null there);
 *   --per game: {"game","result","plies","tags":{...the --tags chosen},features...} with each
 *     feature aggregated over the game's selected positions: flags counted, numbers summed,
 *     bitboards summed as square counts; per-colour features as [white, black];
 *   a bad game: {"game","line","column","error","reason","token"} in its place.
 * Exit code 3 when any game was bad, 1 with --strict (stops at the first), 2 for bad usage, 141 when
 * the output pipe was closed (as `| head` does).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { Decompress } from 'fzstd';
import { createApi } from '../api.js';
import { FEATURES, featureIds } from '../batch.js';
import { jsBackend } from '../js/index.js';
import { loadNative } from '../native.js';
import { availableParallelism } from 'node:os';
import { WorkerPool } from './worker-pool.js';
import { pgnPiecePositions, readPgnPositions, splitPgn, type GamePositions, type PgnGame, type PgnPiece, type PositionSelect } from '../pgn.js';

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const VALUE_OPTIONS = new Set(['--first-game', '--features', '--format', '--backend', '--threads', '--input', '--per', '--tags', '--every', '--from-ply', '--select', '--syzygy']);

export const pgnUsage = `PGN input (--input pgn, or a .pgn / .pgn.gz / .pgn.zst file recognised by its bytes):
  --per position|game    one record per position (default) or per game
  --tags A,B             tags copied into per-game records (default Event,White,Black,Result)
  --select all|final     every position (default) or each game's final one
  --every N              every Nth ply;  --from-ply K   from ply K on
  --first-game N         number the games from N (a part of a file split at game boundaries)
  Bad games become {"game","line","column","error",...} records in their place.`;

function fileArgument(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) { i++; continue; }
    if (!a.startsWith('-') || a === '-') return a;
  }
  return undefined;
}

/** True when the analyze arguments ask for PGN input (explicitly, or a file whose bytes say so). */
export async function isPgnInput(args: string[]): Promise<boolean> {
  const at = args.indexOf('--input');
  if (at >= 0) return args[at + 1] === 'pgn';
  const file = fileArgument(args);
  if (file === undefined || file === '-') return false;
  let head: Buffer;
  try {
    const fh = await open(file, 'r');
    try {
      head = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(head, 0, head.length, 0);
      head = head.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return false; // the FEN path reports the unreadable file
  }
  if (ZSTD_MAGIC.every((b, i) => head[i] === b)) return true;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    try { head = gunzipSync(head, { finishFlush: 2 /* Z_SYNC_FLUSH: a prefix is enough */ }); } catch { return false; }
  }
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  for (;;) {
    while (i < head.length && (head[i] === 32 || (head[i]! >= 9 && head[i]! <= 13))) i++;
    if (head[i] !== 0x25 && head[i] !== 0x3b) break; // '%' escape lines and ';' comment lines
    while (i < head.length && head[i] !== 10) i++;
  }
  return head[i] === 0x5b; // '['
}

/** The file (or stdin) as decompressed chunks, counting compressed bytes read in `progress.bytesIn`. */
async function* inputChunks(file: string, progress: { bytesIn: number }): AsyncGenerator<Uint8Array> {
  const raw = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 });
  const it = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await it.next();
  if (first.done) return;
  async function* all(): AsyncGenerator<Buffer> {
    yield first.value;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  const b = first.value;
  if (ZSTD_MAGIC.every((m, i) => b[i] === m)) {
    let out: Uint8Array[] = [];
    const d = new Decompress((chunk) => { out.push(chunk); });
    for await (const c of all()) {
      progress.bytesIn += c.length;
      d.push(new Uint8Array(c.buffer, c.byteOffset, c.length));
      if (out.length) { yield* out; out = []; }
    }
    d.push(new Uint8Array(0), true);
    yield* out;
    return;
  }
  if (b[0] === 0x1f && b[1] === 0x8b) {
    const gunzip = createGunzip();
    (async () => {
      try {
        for await (const c of all()) {
          progress.bytesIn += c.length;
          if (!gunzip.write(c)) await new Promise((r) => gunzip.once('drain', r));
        }
        gunzip.end();
      } catch (e) {
        gunzip.destroy(e as Error);
      }
    })();
    for await (const c of gunzip) yield c as Buffer;
    return;
  }
  for await (const c of all()) {
    progress.bytesIn += c.length;
    yield c;
  }
}

const FILES = 'abcdefgh';
const PIECE_CODES = Buffer.from('PNBRQKpnbrqk', 'latin1');
const FEN_SCRATCH = Buffer.alloc(128);
/** FEN of position i (int32 halves of packed words, 20 per position): bytes into a scratch buffer, one string out. */
function fenAt(all: Int32Array, i: number): string {
  const o = i * 20;
  const out = FEN_SCRATCH;
  let n = 0;
  for (let r = 7; r >= 0; r--) {
    let empty = 0;
    const half = r >> 2;
    for (let f = 0; f < 8; f++) {
      const bit = 1 << (((r & 3) << 3) | f);
      let t = 0;
      while (t < 6 && !(all[o + 4 + 2 * t + half]! & bit)) t++;
      if (t === 6) { empty++; continue; }
      if (empty) { out[n++] = 48 + empty; empty = 0; }
      out[n++] = PIECE_CODES[(all[o + half]! & bit) !== 0 ? t : t + 6]!;
    }
    if (empty) out[n++] = 48 + empty;
    if (r) out[n++] = 47;
  }
  const st = all[o + 16]!;
  out[n++] = 32;
  out[n++] = st & 1 ? 98 : 119;
  out[n++] = 32;
  const castle = st >> 1;
  if (!(castle & 15)) out[n++] = 45;
  if (castle & 1) out[n++] = 75;
  if (castle & 2) out[n++] = 81;
  if (castle & 4) out[n++] = 107;
  if (castle & 8) out[n++] = 113;
  out[n++] = 32;
  const ep = (st >> 8) & 255;
  if (ep >= 64) out[n++] = 45;
  else { out[n++] = 97 + (ep & 7); out[n++] = 49 + (ep >> 3); }
  const halfmove = ((st >>> 16) | (all[o + 17]! << 16)) & 0xfffff;
  return `${out.toString('latin1', 0, n)} ${halfmove} ${all[o + 18]! >>> 0}`;
}
function popcount(x: bigint): number {
  let n = 0;
  let lo = Number(x & 0xffffffffn);
  let hi = Number(x >> 32n);
  while (lo) { lo &= lo - 1; n++; }
  while (hi) { hi &= hi - 1; n++; }
  return n;
}

class PgnUsageError extends Error {}

export async function runPgnAnalyze(args: string[]): Promise<number> {
  let file = '-';
  let features: string[] | 'all' = 'all';
  let backend: 'native' | 'js' = process.env.BITBOARD_PATTERNS_BACKEND === 'js' ? 'js' : 'native';
  let per: 'position' | 'game' = 'position';
  let tags = ['Event', 'White', 'Black', 'Result'];
  let mode: 'all' | 'final' = 'all';
  let every = 1;
  let fromPly = 0;
  let strict = false;
  let firstGame = 1;
  let threads = availableParallelism();
  let progress = process.stderr.isTTY === true;
  try {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const value = (): string => {
        const v = args[++i];
        if (v === undefined) throw new PgnUsageError(`${a} needs a value`);
        return v;
      };
      const int = (min: number): number => {
        const v = Number(value());
        if (!Number.isInteger(v) || v < min || v > 1e9) throw new PgnUsageError(`${a} must be an integer ${min}..1e9`);
        return v;
      };
      if (a === '--features') features = value().split(',').map((s) => s.trim()).filter(Boolean);
      else if (a === '--input') { if (value() !== 'pgn') throw new PgnUsageError('--input must be pgn here'); }
      else if (a === '--format') { if (value() !== 'ndjson') throw new PgnUsageError('PGN input writes NDJSON only (--format ndjson)'); }
      else if (a === '--backend') {
        const v = value();
        if (v !== 'native' && v !== 'js') throw new PgnUsageError(`--backend must be native or js, got ${v}`);
        backend = v;
      } else if (a === '--threads') threads = int(1);
      else if (a === '--per') {
        const v = value();
        if (v !== 'position' && v !== 'game') throw new PgnUsageError(`--per must be position or game, got ${v}`);
        per = v;
      } else if (a === '--tags') tags = value().split(',').map((s) => s.trim()).filter(Boolean);
      else if (a === '--select') {
        const v = value();
        if (v !== 'all' && v !== 'final') throw new PgnUsageError(`--select must be all or final, got ${v}`);
        mode = v;
      } else if (a === '--every') every = int(1);
      else if (a === '--from-ply') fromPly = int(0);
      else if (a === '--first-game') firstGame = int(1);
      else if (a === '--syzygy') throw new PgnUsageError('--syzygy works on FEN/EPD input only, not on PGN input yet');
      else if (a === '--strict') strict = true;
      else if (a === '--progress') progress = true;
      else if (a === '--no-progress') progress = false;
      else if (a.startsWith('-') && a !== '-') throw new PgnUsageError(`unknown option ${a}`);
      else file = a;
    }
    featureIds('--features', features);
  } catch (e) {
    if (e instanceof PgnUsageError || e instanceof RangeError || e instanceof TypeError) {
      process.stderr.write(`bitboard-patterns analyze: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const ids = featureIds('--features', features);
  let api: ReturnType<typeof createApi>;
  try {
    api = createApi(backend === 'native' ? loadNative() : jsBackend);
  } catch (e) {
    if (process.env.BITBOARD_PATTERNS_BACKEND === 'native') throw e;
    api = createApi(jsBackend);
    backend = 'js';
  }

  // A closed pipe (| head) ends the run quietly.
  let closed = false;
  let drained: (() => void) | undefined;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    closed = true;
    drained?.();
  });
  const counter = { bytesIn: 0 };
  let games = 0;
  let bad = 0;
  let positions = 0;
  const started = performance.now();
  let lastProgress = 0;
  const write = (s: string): Promise<void> | undefined =>
    closed || process.stdout.write(s) ? undefined : new Promise((r) => {
      drained = () => { drained = undefined; r(); };
      process.stdout.once('drain', drained);
    });

  const fmt: FormatOptions = { ids, per, tags, offset: firstGame - 1, strict, backend, select: { mode, every, fromPly } };
  const account = async (r: Formatted): Promise<boolean> => {
    games += r.games;
    bad += r.bad;
    positions += r.positions;
    await write(r.text);
    if (r.stopped) {
      process.stderr.write(`bitboard-patterns analyze: ${r.stopped} (--strict: stopping)\n`);
      return true;
    }
    if (progress && performance.now() - lastProgress > 200) {
      lastProgress = performance.now();
      const secs = (performance.now() - started) / 1000;
      process.stderr.write(`\r${games.toLocaleString('en')} games  ${Math.round(games / secs).toLocaleString('en')} games/s  ${(counter.bytesIn / 1e6 / secs).toFixed(1)} MB/s  ${positions.toLocaleString('en')} positions   `);
    }
    return closed;
  };
  try {
    if (threads <= 1) {
      for await (const chunk of readPgnPositions(inputChunks(file, counter), { backend, games: true, select: fmt.select })) {
        if (await account(formatChunk(chunk, api, fmt))) return closed ? 141 : 1;
      }
    } else {
      // Pieces cut at game boundaries on this thread; each worker reads, analyses and formats its
      // pieces; records are written in piece order. At most 2 pieces per worker are in flight.
      const pool = new PiecePool(threads, fmt);
      const inFlight: Promise<Formatted>[] = [];
      try {
        for await (const piece of splitPgn(inputChunks(file, counter), backend)) {
          inFlight.push(pool.run(piece));
          while (inFlight.length >= 2 * threads) if (await account(await inFlight.shift()!)) return closed ? 141 : 1;
        }
        while (inFlight.length) if (await account(await inFlight.shift()!)) return closed ? 141 : 1;
      } finally {
        await pool.close();
      }
    }
  } catch (e) {
    process.stderr.write(`bitboard-patterns analyze: ${(e as Error).message}\n`);
    return 1;
  }
  if (progress) process.stderr.write('\n');
  if (bad > 0) {
    process.stderr.write(`bitboard-patterns analyze: ${bad} of ${games} games had errors\n`);
    return 3;
  }
  return 0;
}

export interface FormatOptions {
  ids: number[];
  per: 'position' | 'game';
  tags: string[];
  offset: number;
  strict: boolean;
  backend: 'native' | 'js';
  select: Required<PositionSelect>;
}
export interface Formatted { text: string; games: number; bad: number; positions: number; stopped?: string }

/** The records of one chunk of games (analysed here), in game order; with strict, up to the first bad game. */
export function formatChunk(chunk: GamePositions, api: ReturnType<typeof createApi>, o: FormatOptions): Formatted {
  const { ids, per, tags, offset } = o;
  const names = ids.map((i) => FEATURES[i]!.name);
  const res = api.analyzeBatch(chunk.batch, names as never) as unknown as Record<string, BigUint64Array | Uint8Array>;
  const words = chunk.batch.words;
  const halves = new Int32Array(words.buffer, words.byteOffset, words.length * 2);
  // Bitboard results as int32 halves too: hex without BigInt arithmetic.
  const resHalves = names.map((n) => { const a = res[n]!; return a instanceof BigUint64Array ? new Int32Array(a.buffer, a.byteOffset, a.length * 2) : null; });
  const cell = (f: number, k: number, type: string): string => {
    const h = resHalves[f];
    if (h) {
      const lo = h[2 * k]! >>> 0;
      const hi = h[2 * k + 1]! >>> 0;
      return hi ? `"0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')}"` : `"0x${lo.toString(16)}"`;
    }
    const v = res[names[f]!]![k] as number;
    return type === 'flag' ? (v ? 'true' : 'false') : String(v);
  };
  const errorRecord = (g: PgnGame) => `${JSON.stringify({ game: g.game + offset, line: g.error!.line, column: g.error!.column, error: g.error!.message, reason: g.error!.reason, token: g.error!.token })}\n`;
  let k = 0;
  let games = 0;
  let bad = 0;
  let positions = 0;
  const parts: string[] = [];
  for (const g of chunk.games) {
    games++;
    if (g.error) {
      bad++;
      parts.push(errorRecord(g));
      if (o.strict) return { text: parts.join(''), games, bad, positions, stopped: g.error.message };
      continue;
    }
    if (per === 'game') {
      const rec: Record<string, unknown> = { game: g.game + offset, result: g.result, plies: g.moves.length, tags: Object.fromEntries(tags.filter((t) => t in g.tags).map((t) => [t, g.tags[t]])) };
      const sums = names.map((n, f) => new Array<number>(FEATURES[ids[f]!]!.perColor ? 2 : 1).fill(0));
      for (; k < chunk.game.length && chunk.game[k] === g.game; k++) {
        positions++;
        names.forEach((n, f) => {
          const width = sums[f]!.length;
          for (let c = 0; c < width; c++) {
            const v = res[n]![k * width + c]!;
            sums[f]![c]! += typeof v === 'bigint' ? popcount(v) : v;
          }
        });
      }
      names.forEach((n, f) => { rec[n] = sums[f]!.length === 2 ? sums[f] : sums[f]![0]; });
      parts.push(`${JSON.stringify(rec)}\n`);
    } else {
      for (; k < chunk.game.length && chunk.game[k] === g.game; k++) {
        positions++;
        const ply = chunk.ply[k]!;
        let rec = `{"game":${g.game + offset},"ply":${ply},"san":${ply > 0 ? `"${g.sans[ply - 1]}"` : 'null'},"fen":"${fenAt(halves, k)}"`;
        for (let f = 0; f < names.length; f++) {
          const info = FEATURES[ids[f]!]!;
          rec += info.perColor ? `,"${names[f]}":[${cell(f, 2 * k, info.type)},${cell(f, 2 * k + 1, info.type)}]` : `,"${names[f]}":${cell(f, k, info.type)}`;
        }
        parts.push(`${rec}}\n`);
      }
    }
  }
  return { text: parts.join(''), games, bad, positions };
}

let workerApi: ReturnType<typeof createApi> | undefined;
/** The worker side: one piece of splitPgn read, analysed and formatted on this thread's backend. */
export function formatPgnPiece(piece: PgnPiece, o: FormatOptions): Formatted {
  workerApi ??= createApi(o.backend === 'native' ? loadNative() : jsBackend);
  return formatChunk(pgnPiecePositions(piece, { backend: o.backend, games: true, select: o.select }), workerApi, o);
}

const PIECE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const m = await import(workerData.entry);
  parentPort.on('message', ({ id, piece }) => {
    try {
      parentPort.postMessage({ id, result: m.formatPgnPiece(piece, workerData.options) });
    } catch (e) {
      parentPort.postMessage({ id, fatal: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => parentPort.postMessage({ fatal: String(e && e.stack || e) }));
`;

/** Worker threads that format pieces (dist/analyze-worker.js re-exports formatPgnPiece). */
class PiecePool {
  private readonly pool: WorkerPool<Formatted>;
  constructor(n: number, options: FormatOptions) {
    this.pool = new WorkerPool(n, PIECE_WORKER, { entry: new URL('./analyze-worker.js', import.meta.url).href, options });
  }
  run(piece: PgnPiece): Promise<Formatted> {
    return this.pool.run({ piece }, [piece.bytes.buffer as ArrayBuffer]);
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}
