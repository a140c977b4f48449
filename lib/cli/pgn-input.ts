/**
 * `bitboard-patterns analyze games.pgn[.gz|.zst]`: the PGN input of the analyze command. Chosen by
 * `--input pgn`, or for a file by its bytes: the zstd magic (28 b5 2f fd), or text (plain or gzip)
 * whose first non-blank character is '[' (a tag pair). zstd is decompressed by the addon's libzstd
 * (lib/cli/zstd.ts; fzstd, pure JavaScript, on the JS backend or without it), gzip by node:zlib.
 *
 * Records (NDJSON, or CSV with --format csv: one header line, then the same fields as columns),
 * in game order:
 *   --per position (default): {"game","ply","san","fen", features...} for each selected position
 *     (ply 0 = the start position, san null there);
 *   --per game: {"game","result","plies","outcome","termination","eco","opening","tags":{...the --tags chosen},
 *     features...} with each feature aggregated over the game's selected positions: flags counted,
 *     numbers summed, bitboards summed as square counts, polyglotKey the last selected position's
 *     (null when the game has none); per-colour features as [white, black]; "termination" is what
 *     the rules say ends the game at its last position (lib/games/outcome.ts: "checkmate",
 *     "stalemate", "threefold repetition", ...) and "outcome" the result that gives ("1-0", "0-1",
 *     "1/2-1/2"), both null when the game goes on (CSV: empty); "eco" and "opening" the code and name of
 *     the game's opening (lib/games/openings.ts: the last named position of the lichess data set
 *     along the game), null when none;
 *   a bad game: {"game","line","column","error","reason","token"} in its place (CSV: the game number
 *     and the error message, which names the line and column, the other columns empty).
 * --syzygy DIR (per position): "wdl" and "dtz" of each position from the Syzygy tables in DIR
 * (lib/tablebases/syzygy.ts; null / empty where no table has it), as on FEN input.
 * --features move_see (per position): "move_see", the static exchange evaluation (seeBatch) of the
 * move that led to the position, in the position before it (null at ply 0 and after a null move).
 * --features opening (per position): "eco" and "opening", the game's opening so far
 * (openingsAtPositions: openingOf of the moves up to the position), null while none is named.
 * Exit code 3 when any game was bad, 1 with --strict (stops at the first), 2 for bad usage, 141 when
 * the output pipe was closed (as `| head` does).
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { zstdChunks } from './zstd.js';
import type { ZstdBackend } from '../backends/contract.js';
import { createApi } from '../api/create-api.js';
import { FEATURES, featureColumns, featureIds } from '../core/features.js';
import { featureWidth } from '../core/features.js';
import { csvQuote } from '../core/lines.js';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../backends/js/syzygy.js';
import { SyzygyTablebase } from '../tablebases/syzygy.js';
import { jsBackend } from '../backends/js/index.js';
import { loadNative } from '../backends/native.js';
import { requestedBackend } from '../backends/variable.js';
import { commandBackend } from './args.js';
import { availableParallelism } from 'node:os';
import { WORKER_ENTRY, WorkerPool } from './worker-pool.js';
import { ZSTD_MAGIC } from './pgn-detect.js';
import { guardStdout } from './output.js';
import { pgnPiecePositions, piecePositionsForRecords, readPgnPositions, readerRecordsOf, splitPgn, type GamePositions, type PgnGame, type PgnPiece, type PositionSelect } from '../games/pgn.js';
import { popcount32 } from '../board/bits.js';
import { GAME_RECORD } from '../backends/js/pgn.js';
import { openingOf, openingsOfGames } from '../games/openings.js';
import { ByteSink } from '../core/byte-sink.js';
import type { BaseFeatureName } from '../core/features.js';
import type { PgnOutcome } from '../games/outcome.js';
import { NO_SEE, moveSeeOf, openingsOfRows, variationRows, ROW_GROUP_ROWS, encodeRowGroups, encodeTypedRowGroups, pgnPositionColumns, loadParquetWriter, openParquetOutput, pgnGameColumns, pgnParquetColumns, type EncodedGroups, type ParquetOutput } from './analyze-parquet.js';

/**
 * The file (or stdin) as decompressed chunks, counting compressed bytes read in `progress.bytesIn`.
 * zstd by the addon's libzstd (lib/cli/zstd.ts) whenever the addon loads, whatever backend analyses
 * (so both backends read a damaged frame alike: decoders differ on corrupt data that no checksum
 * covers), else by fzstd.
 */
export async function* inputChunks(file: string, progress: { bytesIn: number }): AsyncGenerator<Uint8Array> {
  // Pieces of 64 KB, as a pipe gives them: larger pieces come in bursts that leave the worker
  // threads waiting (bench/sections/dump.mjs compares a file with `cat FILE |`).
  const raw = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 16 });
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
    let native: ZstdBackend | undefined;
    try { native = loadNative().zstd; } catch { /* no addon: fzstd */ }
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const c of all()) {
        progress.bytesIn += c.length;
        yield new Uint8Array(c.buffer, c.byteOffset, c.length);
      }
    }
    yield* zstdChunks(counted(), native);
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

/**
 * The records' bytes, written in place (ASCII) into one growing buffer: no string per record or
 * per field for the collector to clean up.
 */
class RecordBytes extends ByteSink {
  /** An ASCII string. */
  ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.n++] = s.charCodeAt(i);
  }
  /** Any string, as UTF-8. */
  text(s: string): void {
    this.room(Buffer.byteLength(s));
    this.n += this.buf.write(s, this.n, 'utf8');
  }
  /** A non-negative integer below 2^32. */
  uint(v: number): void {
    this.room(10);
    if (v < 10) { this.buf[this.n++] = 48 + v; return; }
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits++;
    this.n += digits;
    for (let at = this.n - 1; digits > 0; digits--, at--) { this.buf[at] = 48 + (v % 10); v = Math.floor(v / 10); }
  }
  /** 0x and the hex digits of the 64-bit value hi:lo (unsigned halves), no leading zeros. */
  hex(hi: number, lo: number): void {
    this.room(18);
    this.buf[this.n++] = 48;
    this.buf[this.n++] = 120;
    let started = false;
    for (let k = 7; k >= 0; k--) {
      const d = (hi >>> (4 * k)) & 15;
      if (d || started) { this.buf[this.n++] = HEX[d]!; started = true; }
    }
    for (let k = 7; k >= 0; k--) {
      const d = (lo >>> (4 * k)) & 15;
      if (d || started || k === 0) { this.buf[this.n++] = HEX[d]!; started = true; }
    }
  }
}
const HEX = Buffer.from('0123456789abcdef', 'latin1');

const PIECE_CODES = Buffer.from('PNBRQKpnbrqk', 'latin1');
const SQUARES = new Uint8Array(64);
/** FEN of position i (int32 halves of packed words, 20 per position), written into out. */
function fenInto(all: Int32Array, i: number, w: RecordBytes): void {
  const o = i * 20;
  w.room(100);
  const out = w.buf;
  let n = w.n;
  // The piece letter of each square (0 = empty), from the set bits of each type's halves.
  const board = SQUARES.fill(0);
  for (let t = 0; t < 6; t++) {
    for (let half = 0; half < 2; half++) {
      const white = all[o + half]!;
      for (let bits = all[o + 4 + 2 * t + half]!; bits !== 0; bits &= bits - 1) {
        const b = 31 - Math.clz32(bits & -bits);
        board[32 * half + b] = PIECE_CODES[(white >>> b) & 1 ? t : t + 6]!;
      }
    }
  }
  for (let r = 7; r >= 0; r--) {
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const c = board[8 * r + f]!;
      if (c === 0) { empty++; continue; }
      if (empty) { out[n++] = 48 + empty; empty = 0; }
      out[n++] = c;
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
  out[n++] = 32;
  w.n = n;
  w.uint(((st >>> 16) | (all[o + 17]! << 16)) & 0xfffff);
  w.byte(32);
  w.uint(all[o + 18]! >>> 0);
}

/**
 * Every position's FEN of a chunk, one after another: position k's is bytes[starts[k]..starts[k + 1]).
 * By the addon in one call where the native backend formats (native/addon/records.h putFen, the same
 * bytes), else by fenInto. `prefixed`: each FEN after its length (4 bytes, little-endian) within its
 * span, as a Parquet PLAIN page holds it.
 */
export function chunkFens(words: BigUint64Array, backend: 'native' | 'js', prefixed = false): { bytes: Buffer; starts: Uint32Array } {
  const n = words.length / 10;
  const starts = new Uint32Array(n + 1);
  const native = backend === 'native' ? loadNative().batch.fenTexts : undefined;
  if (native) {
    // This thread's FEN buffer, kept from chunk to chunk (its pages stay mapped); the bytes are
    // used before the next call. A FEN takes fewer than 100 bytes: room for all at once.
    if (fenScratch.length < 100 * n) fenScratch = Buffer.allocUnsafeSlow(Math.ceil(125 * n));
    const [got, ends] = native(words, fenScratch, prefixed);
    starts.set(ends, 1);
    if (typeof got === 'number') return { bytes: fenScratch.subarray(0, got), starts };
    fenScratch = got;
    return { bytes: got, starts };
  }
  const all = new Int32Array(words.buffer, words.byteOffset, words.length * 2);
  const fen = new RecordBytes(n * 64 + 4096);
  for (let k = 0; k < n; k++) {
    if (prefixed) {
      fen.room(4);
      const at = fen.n;
      fen.n += 4;
      fenInto(all, k, fen);
      fen.buf.writeUInt32LE(fen.n - at - 4, at);
    } else fenInto(all, k, fen);
    starts[k + 1] = fen.n;
  }
  return { bytes: fen.bytes(), starts };
}

let fenScratch: Buffer = Buffer.allocUnsafe(0);

class PgnUsageError extends Error {}

export async function runPgnAnalyze(args: string[]): Promise<number> {
  let file = '-';
  let features: string[] | 'all' = 'all';
  let { backend, explicit } = commandBackend('analyze', requestedBackend());
  let per: 'position' | 'game' = 'position';
  let tags = ['Event', 'White', 'Black', 'Result'];
  let mode: 'all' | 'final' = 'all';
  let every = 1;
  let fromPly = 0;
  let strict = false;
  let firstGame = 1;
  let threads = availableParallelism();
  let progress = process.stderr.isTTY === true;
  let format: 'ndjson' | 'csv' | 'parquet' = 'ndjson';
  let outFile: string | undefined;
  let moveSee = false;
  let opening = false;
  let variations = false;
  let rowGroupRows = ROW_GROUP_ROWS;
  const syzygy: string[] = [];
  let annotations = { clock: false, eval: false };
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
      else if (a === '--format') {
        const v = value();
        if (v !== 'ndjson' && v !== 'csv' && v !== 'parquet') throw new PgnUsageError(`--format must be ndjson, csv or parquet, got ${v}`);
        format = v;
      }
      else if (a === '--out') outFile = value();
      else if (a === '--variations') variations = true;
      else if (a === '--row-group') rowGroupRows = int(1);
      else if (a === '--backend') {
        const v = value();
        if (v === 'wasm') throw new PgnUsageError('--backend must be native or js: this command has no WebAssembly path');
        if (v !== 'native' && v !== 'js') throw new PgnUsageError(`--backend must be native or js, got ${v}`);
        backend = v;
        explicit = true;
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
      else if (a === '--syzygy') syzygy.push(value());
      else if (a === '--strict') strict = true;
      else if (a === '--progress') progress = true;
      else if (a === '--no-progress') progress = false;
      else if (a === '--chess960') throw new PgnUsageError('--chess960 is for FEN / EPD lines: a PGN game is Chess960 by its Variant tag (or a Shredder-FEN FEN tag)');
      else if (a.startsWith('-') && a !== '-') throw new PgnUsageError(`unknown option ${a}`);
      else file = a;
    }
    if (features !== 'all') {
      // wdl and dtz come from --syzygy, as on FEN input.
      const asked = features.filter((f) => f === 'wdl' || f === 'dtz');
      if (asked.length && !syzygy.length) throw new PgnUsageError(`feature ${asked[0]} needs --syzygy DIR`);
      features = features.filter((f) => f !== 'wdl' && f !== 'dtz');
      // clock and eval come from the games' comments (pgn-annotations.ts), not from analyzeBatch.
      annotations = { clock: features.includes('clock'), eval: features.includes('eval') };
      features = features.filter((f) => f !== 'clock' && f !== 'eval');
      if ((annotations.clock || annotations.eval) && per === 'game') throw new PgnUsageError('features clock and eval need --per position');
      // move_see: the static exchange evaluation of the move that led to each position (seeBatch).
      moveSee = features.includes('move_see');
      features = features.filter((f) => f !== 'move_see');
      if (moveSee && per === 'game') throw new PgnUsageError('feature move_see needs --per position');
      // opening: per position, the game's opening so far (openingsAtPositions).
      opening = features.includes('opening');
      features = features.filter((f) => f !== 'opening');
      if (opening && per === 'game') throw new PgnUsageError('feature opening needs --per position (--per game records have eco and opening)');
    }
    if (syzygy.length && per === 'game') throw new PgnUsageError('--syzygy needs --per position (wdl and dtz are per position)');
    if (variations && per === 'game') throw new PgnUsageError('--variations needs --per position (a record per node of each game\'s tree)');
    if (variations && (mode !== 'all' || every !== 1 || fromPly !== 0)) throw new PgnUsageError('--variations gives every node\'s position: --select, --every and --from-ply cannot be used with it');
    if (outFile !== undefined && format !== 'parquet') throw new PgnUsageError('--out FILE is for --format parquet (other formats go to stdout)');
    featureIds('--features', features);
  } catch (e) {
    if (e instanceof PgnUsageError || e instanceof RangeError || e instanceof TypeError) {
      process.stderr.write(`bitboard-patterns analyze: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const ids = featureIds('--features', features);
  if (syzygy.length) {
    // Checked here for a clear message; each thread opens its own.
    try {
      const tb = SyzygyTablebase.open(syzygy, { backend: 'js' });
      const none = tb.tables.length === 0;
      tb.close();
      if (none) throw new Error(`no Syzygy tables (.rtbw) in ${syzygy.join(', ')}`);
    } catch (e) {
      process.stderr.write(`bitboard-patterns analyze: --syzygy: ${(e as Error).message}\n`);
      return 2;
    }
  }
  let api: ReturnType<typeof createApi>;
  try {
    api = createApi(backend === 'native' ? loadNative() : jsBackend);
  } catch (e) {
    if (explicit) throw e;
    api = createApi(jsBackend);
    backend = 'js';
  }

  // A closed pipe (| head) ends the run quietly.
  let closed = false;
  let drained: (() => void) | undefined;
  guardStdout(() => {
    closed = true;
    drained?.();
  });
  const counter = { bytesIn: 0 };
  let games = 0;
  let bad = 0;
  let positions = 0;
  const started = performance.now();
  let lastProgress = 0;
  // `written`: called once the bytes are out (not when the output is closed or fails).
  const write = (s: string | Uint8Array, written?: () => void): Promise<void> | undefined =>
    closed || process.stdout.write(s, written && ((e) => { if (!e) written(); })) ? undefined : new Promise((r) => {
      drained = () => { drained = undefined; r(); };
      process.stdout.once('drain', drained);
    });

  const fmt: FormatOptions = { ids, per, tags, offset: firstGame - 1, strict, backend, select: { mode, every, fromPly }, format, syzygy, annotations, moveSee, opening, variations,
    ...(format === 'parquet' && { parquet: { groupRows: rowGroupRows, zstd: parquetZstd() !== undefined } }) };
  if (format === 'csv') await write(csvHeaderPgn(fmt));
  // Parquet: row groups written as the chunks come (lib/cli/analyze-parquet.ts), to the file or fd 1.
  let parquet: ParquetOutput | undefined;
  try {
    parquet = format === 'parquet' ? await openParquetOutput(outFile, pgnParquetColumns(fmt), fmt.parquet!.zstd) : undefined;
  } catch (e) {
    process.stderr.write(`bitboard-patterns analyze: ${(e as Error).message}\n`);
    return 1;
  }
  const account = async (r: Formatted, pool?: PiecePool): Promise<boolean> => {
    games += r.games;
    bad += r.bad;
    positions += r.positions;
    if (parquet) {
      if (!parquet.append(r.encoded!)) closed = true;
    } else await write(r.text, pool && (() => pool.recycle(r)));
    if (r.stopped) {
      if (parquet && !parquet.finish()) closed = true; // the rows up to the bad game, in a whole file
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
      for await (const chunk of readPgnPositions(inputChunks(file, counter), { backend, games: true, sans: per !== 'game', outcome: per === 'game', select: fmt.select, annotations: annotated(fmt),
        ...(variations && { variations: true }) })) {
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
          while (inFlight.length >= 2 * threads) if (await account(await inFlight.shift()!, pool)) return closed ? 141 : 1;
        }
        while (inFlight.length) if (await account(await inFlight.shift()!, pool)) return closed ? 141 : 1;
      } finally {
        await pool.close();
      }
    }
  } catch (e) {
    process.stderr.write(`bitboard-patterns analyze: ${(e as Error).message}\n`);
    // The rows of the games before the failure, in a whole file (when the output still takes bytes).
    try { parquet?.finish(); } catch { parquet?.abandon(); }
    return 1;
  }
  if (parquet && !parquet.finish()) return 141;
  if (progress) process.stderr.write('\n');
  if (bad > 0) {
    process.stderr.write(`bitboard-patterns analyze: ${bad} of ${games} games had errors\n`);
    return 3;
  }
  return 0;
}

/** Loads what a thread needs before it formats records in `format` (Parquet: the writer module). */
export async function preparePgnFormat(format: FormatOptions['format']): Promise<void> {
  if (format === 'parquet') await loadParquetWriter();
}

/**
 * zstd for Parquet pages: the addon's libzstd at level 1, when it loads with it (on the analyze
 * command's pages as small as zstd's default level 3, and cheaper to make).
 */
export function parquetZstd(): ((bytes: Uint8Array) => Uint8Array) | undefined {
  let zstd: ZstdBackend | undefined;
  try { zstd = loadNative().zstd; } catch { return undefined; }
  return zstd && ((bytes) => zstd.compress(bytes, 1));
}

export interface FormatOptions {
  ids: number[];
  per: 'position' | 'game';
  tags: string[];
  offset: number;
  strict: boolean;
  backend: 'native' | 'js';
  select: Required<PositionSelect>;
  /** Default ndjson. */
  format?: 'ndjson' | 'csv' | 'parquet';
  /** Syzygy table directories (per position: wdl, dtz). */
  syzygy?: string[];
  /** Per position: the clock and the eval of the move that led there (the games' annotations). */
  annotations?: { clock: boolean; eval: boolean };
  /** Parquet: rows per row group, and zstd pages (the addon's libzstd) or Snappy. */
  parquet?: { groupRows: number; zstd: boolean };
  /** Per position: move_see, the SEE of the move that led there (seeBatch). */
  moveSee?: boolean;
  /** Per position: eco and opening, the game's opening so far (openingsAtPositions). */
  opening?: boolean;
  /** Per position: the position after every node of each game's tree, with node, parent and main_line. */
  variations?: boolean;
}


const annotated = (o: FormatOptions): boolean => o.annotations?.clock === true || o.annotations?.eval === true;

/** The CSV header of the PGN records (see formatChunk). */
export function csvHeaderPgn(o: FormatOptions): string {
  const cols = o.per === 'game' ? ['game', 'result', 'plies', 'outcome', 'termination', 'eco', 'opening', ...o.tags]
    : ['game', 'ply', ...(o.variations ? ['node', 'parent', 'main_line'] : []), 'san', 'fen'];
  cols.push(...featureColumns(o.ids));
  if (o.syzygy?.length) cols.push('wdl', 'dtz');
  if (o.annotations?.clock) cols.push('clock');
  if (o.annotations?.eval) cols.push('eval_cp', 'eval_mate');
  if (o.moveSee && o.per === 'position') cols.push('move_see');
  if (o.opening && o.per === 'position') cols.push('eco', 'opening');
  cols.push('error');
  return `${cols.map((c) => (/^[A-Za-z0-9_]+$/.test(c) ? c : csvQuote(c))).join(',')}\n`;
}

/** The tables of this thread, opened once per set of directories and backend. */
let threadTables: { key: string; tb: SyzygyTablebase } | undefined;
function tablesFor(dirs: string[], backend: 'native' | 'js'): SyzygyTablebase {
  const key = `${backend}\0${dirs.join('\0')}`;
  if (threadTables?.key !== key) {
    threadTables?.tb.close();
    threadTables = { key, tb: SyzygyTablebase.open(dirs, { backend }) };
  }
  return threadTables.tb;
}
/** The result the rules give a game (its outcome's winner, or a draw), null when it goes on. */
function resultOf(outcome: PgnOutcome | null | undefined): string | null {
  if (!outcome) return null;
  return outcome.winner === 'white' ? '1-0' : outcome.winner === 'black' ? '0-1' : '1/2-1/2';
}

export interface Formatted {
  text: Uint8Array; games: number; bad: number; positions: number; stopped?: string;
  /** Parquet: the rows as encoded row groups (lib/cli/analyze-parquet.ts), text empty. */
  encoded?: EncodedGroups;
}

/** The records of one chunk of games (analysed here), in game order; with strict, up to the first bad game. */
export function formatChunk(chunk: GamePositions, api: ReturnType<typeof createApi>, o: FormatOptions): Formatted {
  const { ids, per, tags, offset } = o;
  const csv = o.format === 'csv';
  const names = ids.map((i) => FEATURES[i]!.name);
  const tb = o.syzygy?.length && per === 'position' ? tablesFor(o.syzygy, o.backend) : undefined;
  if (o.format === 'parquet') {
    const zstd = o.parquet?.zstd ? parquetZstd() : undefined;
    const groupRows = o.parquet?.groupRows ?? ROW_GROUP_ROWS;
    if (per === 'position') {
      // Typed columns straight from the chunk's arrays; the FEN column is a view of the FENs written
      // as its pages hold them.
      const fens = { ...chunkFens(chunk.batch.words, o.backend, true), plain: true };
      const { columns, rows, ...counts } = pgnPositionColumns(chunk, api, o, tb, fens);
      return { text: new Uint8Array(0), ...counts, encoded: encodeTypedRowGroups(pgnParquetColumns(o), columns, rows, groupRows, zstd) };
    }
    const { columns, rows, ...counts } = pgnGameColumns(chunk, api, o);
    return { text: new Uint8Array(0), ...counts, encoded: encodeRowGroups(pgnParquetColumns(o), columns, rows, groupRows, zstd) };
  }
  // One thread per call: the worker pool already spreads the pieces over the cores.
  const wdl = tb ? tb.probeWdlBatch(chunk.batch, undefined, 1) : undefined;
  const dtz = tb ? tb.probeDtzBatch(chunk.batch, undefined, 1) : undefined;
  const withClock = o.annotations?.clock === true && per === 'position';
  const withEval = o.annotations?.eval === true && per === 'position';
  const withSee = o.moveSee === true && per === 'position';
  const openings = per === 'game' ? openingsOfGames(chunk, o.select, api.backend) : undefined;
  const emptyColumns = ids.reduce((n, f) => n + featureWidth(f), 0) + (tb ? 2 : 0) + (per === 'game' ? 6 + tags.length : 3) +
    (withClock ? 1 : 0) + (withEval ? 2 : 0) + (withSee ? 1 : 0) + (o.opening && per === 'position' ? 2 : 0) + (o.variations && per === 'position' ? 3 : 0);
  const vr = chunk.node && per === 'position' ? variationRows(chunk) : undefined;
  const moveSees = withSee ? moveSeeOf(chunk, api, vr) : undefined;
  const openingsHere = o.opening === true && per === 'position' ? openingsOfRows(chunk, o.select ?? {}, vr, api.backend) : undefined;
  const res: Record<string, BigUint64Array | Uint8Array> = api.analyzeBatch(chunk.batch, names as BaseFeatureName[]);
  let fens: ReturnType<typeof chunkFens> | undefined;
  const fen = (k: number): void => {
    fens ??= chunkFens(chunk.batch.words, o.backend);
    const a = fens.starts[k]!;
    const b = fens.starts[k + 1]!;
    out.room(b - a);
    out.n += fens.bytes.copy(out.buf, out.n, a, b);
  };
  // Bitboard results as int32 halves too: hex without BigInt arithmetic.
  const resHalves = names.map((n) => { const a = res[n]!; return a instanceof BigUint64Array ? new Int32Array(a.buffer, a.byteOffset, a.length * 2) : null; });
  // Room for the records at once, by the bytes per position of this thread's earlier calls: a buffer
  // grown by doubling is copied each time, into fresh memory the system must fault in.
  const out = new RecordBytes(bytesPerPosition > 0 ? Math.ceil(bytesPerPosition * 1.1 * chunk.game.length) + 4096 : 1 << 16, spareRecordMemory);
  spareRecordMemory = undefined;
  // Bitboards from their unsigned halves; numbers; flags as true / false (CSV: 1 / 0).
  const cell = (f: number, k: number, type: string): void => {
    const h = resHalves[f];
    if (h) {
      if (!csv) out.byte(34);
      out.hex(h[2 * k + 1]! >>> 0, h[2 * k]! >>> 0);
      if (!csv) out.byte(34);
      return;
    }
    const v = res[names[f]!]![k] as number;
    if (type === 'flag' && !csv) out.ascii(v ? 'true' : 'false');
    else out.uint(v);
  };
  // The records of positions a..b-1 by the addon (the same bytes as the loop below writes), where it
  // can: the native backend, per position, with no column beyond the features.
  const native = nativeRecords(o) ? nativeRecordWriter(chunk, res, ids, names, offset, csv ? 1 : 0, out) : undefined;
  const errorRecord = (g: PgnGame) => out.text(csv
    ? `${g.game + offset}${','.repeat(emptyColumns + 1)}${csvQuote(g.error!.message)}\n`
    : `${JSON.stringify({ game: g.game + offset, line: g.error!.line, column: g.error!.column, error: g.error!.message, reason: g.error!.reason, token: g.error!.token })}\n`);
  // Feature names as written in NDJSON records: ,"name":
  const keys = names.map((n) => `,"${n}":`);
  let k = 0;
  let games = 0;
  let bad = 0;
  let positions = 0;
  const done = (): Formatted => {
    if (chunk.game.length >= 1000) bytesPerPosition = out.n / chunk.game.length;
    return { text: out.bytes(), games, bad, positions };
  };
  if (native) {
    // The addon writes the records of the positions before each bad game, then the game's error
    // record goes after them (chunk.games may hold the bad games only: piecePositionsForRecords).
    let from = 0;
    for (const g of chunk.games) {
      if (!g.error) continue;
      for (k = from; k < chunk.game.length && chunk.game[k]! < g.game; k++);
      native.write(from, k);
      from = k;
      bad++;
      errorRecord(g);
      if (o.strict) return { text: out.bytes(), games: g.game - native.firstGame + 1, bad, positions: k, stopped: g.error.message };
    }
    native.write(from, chunk.game.length);
    games = native.games;
    positions = chunk.game.length;
    return done();
  }
  for (const g of chunk.games) {
    games++;
    if (g.error) {
      bad++;
      errorRecord(g);
      if (o.strict) return { text: out.bytes(), games, bad, positions, stopped: g.error.message };
      continue;
    }
    if (per === 'game') {
      const outcome = resultOf(g.outcome);
      const termination = g.outcome?.termination ?? null;
      const opening = openings ? (openings.get(g.game) ?? null) : openingOf(g);
      const rec: Record<string, unknown> = { game: g.game + offset, result: g.result, plies: g.moves.length, outcome, termination,
        eco: opening?.eco ?? null, opening: opening?.name ?? null, tags: Object.fromEntries(tags.filter((t) => t in g.tags).map((t) => [t, g.tags[t]])) };
      const sums = names.map((n, f) => new Array<number>(FEATURES[ids[f]!]!.perColor ? 2 : 1).fill(0));
      // A 64-bit value that is not a set (polyglotKey): the last selected position's, not a sum.
      const last = names.map(() => '');
      const first = k;
      while (k < chunk.game.length && chunk.game[k] === g.game) k++;
      positions += k - first;
      for (let f = 0; f < names.length; f++) {
        const values = res[names[f]!]!;
        const sum = sums[f]!;
        const width = sum.length;
        if (FEATURES[ids[f]!]!.type === 'u64') {
          if (k > first) last[f] = `0x${(values[k - 1] as bigint).toString(16)}`;
          continue;
        }
        const halves = resHalves[f];
        for (let c = 0; c < width; c++) {
          let total = 0;
          if (halves) for (let at = first * width + c; at < k * width; at += width) total += popcount32(halves[2 * at]!) + popcount32(halves[2 * at + 1]!);
          else for (let at = first * width + c; at < k * width; at += width) total += (values as Uint8Array)[at]!;
          sum[c] = total;
        }
      }
      names.forEach((n, f) => {
        rec[n] = FEATURES[ids[f]!]!.type === 'u64' ? (last[f] || null) : sums[f]!.length === 2 ? sums[f] : sums[f]![0];
      });
      if (csv) {
        const t = rec.tags as Record<string, string>;
        const values = names.flatMap((n, f): (string | number)[] => (FEATURES[ids[f]!]!.type === 'u64' ? [last[f]!] : sums[f]!));
        out.text(`${[rec.game, g.result ?? '', rec.plies, outcome ?? '', termination ?? '', opening?.eco ?? '', opening ? csvQuote(opening.name) : '', ...tags.map((x) => (x in t ? csvQuote(t[x]!) : '')), ...values].join(',')},\n`);
      } else out.text(`${JSON.stringify(rec)}\n`);
    } else {
      const gameNumber = g.game + offset;
      for (; k < chunk.game.length && chunk.game[k] === g.game; k++) {
        positions++;
        const ply = chunk.ply[k]!;
        const node = vr?.nodes[k];
        const san = vr ? (node?.san ?? null) : ply > 0 ? g.sans[ply - 1]! : null;
        const clock = vr ? (node?.clock ?? null) : ply > 0 ? (g.clocks?.[ply - 1] ?? null) : null;
        const ev = vr ? (node?.eval ?? null) : ply > 0 ? (g.evals?.[ply - 1] ?? null) : null;
        if (csv) {
          out.uint(gameNumber);
          out.byte(44);
          out.uint(ply);
          out.byte(44);
          if (vr) {
            out.uint(chunk.node![k]!);
            out.byte(44);
            if (chunk.parent![k]! >= 0) out.uint(chunk.parent![k]!);
            out.ascii(chunk.mainLine![k] === 1 ? ',1,' : ',0,');
          }
          if (san !== null) out.ascii(san);
          out.byte(44);
          fen(k);
          for (let f = 0; f < names.length; f++) {
            const info = FEATURES[ids[f]!]!;
            out.byte(44);
            if (info.perColor) { cell(f, 2 * k, info.type); out.byte(44); cell(f, 2 * k + 1, info.type); } else cell(f, k, info.type);
          }
          if (wdl && dtz) out.ascii(`,${wdl[k] === SYZYGY_WDL_NONE ? '' : wdl[k]},${dtz[k] === SYZYGY_DTZ_NONE ? '' : dtz[k]}`);
          if (withClock) out.ascii(`,${clock ?? ''}`);
          if (withEval) out.ascii(ev ? ('cp' in ev ? `,${ev.cp},` : `,,${ev.mate}`) : ',,');
          if (moveSees) out.ascii(moveSees[k] === NO_SEE ? ',' : `,${moveSees[k]}`);
          if (openingsHere) {
            const named = openingsHere[k];
            out.text(named ? `,${named.eco},${csvQuote(named.name)}` : ',,');
          }
          out.ascii(',\n');
          continue;
        }
        out.ascii('{"game":');
        out.uint(gameNumber);
        out.ascii(',"ply":');
        out.uint(ply);
        if (vr) {
          out.ascii(',"node":');
          out.uint(chunk.node![k]!);
          out.ascii(',"parent":');
          if (chunk.parent![k]! >= 0) out.uint(chunk.parent![k]!);
          else out.ascii('null');
          out.ascii(chunk.mainLine![k] === 1 ? ',"main_line":true' : ',"main_line":false');
        }
        if (san !== null) {
          out.ascii(',"san":"');
          out.ascii(san);
          out.ascii('","fen":"');
        } else out.ascii(',"san":null,"fen":"');
        fen(k);
        out.byte(34);
        for (let f = 0; f < names.length; f++) {
          const info = FEATURES[ids[f]!]!;
          out.ascii(keys[f]!);
          if (info.perColor) { out.byte(91); cell(f, 2 * k, info.type); out.byte(44); cell(f, 2 * k + 1, info.type); out.byte(93); } else cell(f, k, info.type);
        }
        if (wdl && dtz) out.ascii(`,"wdl":${wdl[k] === SYZYGY_WDL_NONE ? 'null' : wdl[k]},"dtz":${dtz[k] === SYZYGY_DTZ_NONE ? 'null' : dtz[k]}`);
        if (withClock) out.ascii(`,"clock":${clock ?? 'null'}`);
        if (withEval) out.ascii(ev ? ('cp' in ev ? `,"eval_cp":${ev.cp},"eval_mate":null` : `,"eval_cp":null,"eval_mate":${ev.mate}`) : ',"eval_cp":null,"eval_mate":null');
        if (moveSees) out.ascii(moveSees[k] === NO_SEE ? ',"move_see":null' : `,"move_see":${moveSees[k]}`);
        if (openingsHere) {
          const named = openingsHere[k];
          out.text(named ? `,"eco":"${named.eco}","opening":${JSON.stringify(named.name)}` : ',"eco":null,"opening":null');
        }
        out.ascii('}\n');
      }
    }
  }
  return done();
}
/**
 * Whether the addon writes the records (BatchBackend.pgnRecords): NDJSON or CSV per position on the
 * native backend, with no column beyond the features, when the addon has the writer.
 */
function nativeRecords(o: FormatOptions): boolean {
  return o.backend === 'native' && o.per === 'position' && o.format !== 'parquet' && !o.variations && !o.syzygy?.length &&
    !annotated(o) && o.moveSee !== true && o.opening !== true && loadNative().batch.pgnRecords !== undefined;
}

/**
 * Whether Parquet rows per position come from the reader's records alone (pgnPositionColumns reads
 * the SAN from them): no column that needs the game objects (the tree, clocks and evals, move_see,
 * openings).
 */
function parquetFromRecords(o: FormatOptions): boolean {
  return o.format === 'parquet' && o.per === 'position' && !o.variations && !annotated(o) && o.moveSee !== true && o.opening !== true;
}

/**
 * The addon's writer of a chunk's per-position records (BatchBackend.pgnRecords) appending to `out`
 * (`write(from, to)`), with the number of the chunk's first game and how many games it has, when the
 * chunk comes from the reader with its records; else undefined.
 */
function nativeRecordWriter(chunk: GamePositions, res: Record<string, BigUint64Array | Uint8Array>, ids: readonly number[],
  names: readonly string[], offset: number, format: number, out: RecordBytes):
  { write: (from: number, to: number) => void; firstGame: number; games: number } | undefined {
  const write = loadNative().batch.pgnRecords;
  const raw = readerRecordsOf(chunk);
  if (!write || !raw) return undefined;
  const outs: (BigUint64Array | Uint8Array | undefined)[] = new Array(FEATURES.length).fill(undefined);
  ids.forEach((id, f) => { outs[id] = res[names[f]!]; });
  const order = Uint8Array.from(ids);
  const { words } = chunk.batch;
  const writeRange = (from: number, to: number): void => {
    if (from >= to) return;
    out.room(Math.ceil((bytesPerPosition || 128) * 1.1 * (to - from)) + 4096);
    let got = write(words, chunk.game, chunk.ply, from, to, raw.records.san, raw.records.games, raw.firstGame, offset, outs, order, format, out.buf, out.n);
    if (got < 0) {
      out.room(-got);
      got = write(words, chunk.game, chunk.ply, from, to, raw.records.san, raw.records.games, raw.firstGame, offset, outs, order, format, out.buf, out.n);
    }
    out.n += got;
  };
  return { write: writeRange, firstGame: raw.firstGame, games: raw.records.games.length / GAME_RECORD };
}

/** Output bytes per position of this thread's last large formatChunk (0: none yet). */
let bytesPerPosition = 0;
/**
 * Memory of earlier records that the main thread has written out and given back (formatPgnPiece's
 * `spare`): the next records are written into it, whose pages are mapped already.
 */
let spareRecordMemory: ArrayBuffer | undefined;

let workerApi: ReturnType<typeof createApi> | undefined;
/** The positions of this thread's last piece, whose memory the next one reuses. */
let lastPiece: GamePositions | undefined;
/**
 * The worker side: one piece of splitPgn read, analysed and formatted on this thread's backend.
 * `spare`: the memory of an earlier piece's records, written out by the main thread, to reuse.
 */
export function formatPgnPiece(piece: PgnPiece, o: FormatOptions, spare?: ArrayBuffer): Formatted {
  workerApi ??= createApi(o.backend === 'native' ? loadNative() : jsBackend);
  if (spare) spareRecordMemory = spare;
  // Game objects for the bad games only where the addon writes the records or Parquet rows need no
  // more than the reader's records: the SAN is read from them.
  // The positions go into the memory of the thread's previous piece (its pages stay mapped): its
  // records are written by now, and nothing of them refers to that memory.
  if (nativeRecords(o) || parquetFromRecords(o)) {
    lastPiece = piecePositionsForRecords(piece, o.backend, o.select, lastPiece);
    return formatChunk(lastPiece, workerApi, o);
  }
  const options = { backend: o.backend, games: true, sans: o.per !== 'game', outcome: o.per === 'game', select: o.select, annotations: annotated(o) };
  if (o.variations) return formatChunk(pgnPiecePositions(piece, { ...options, variations: true }), workerApi, o);
  lastPiece = pgnPiecePositions(piece, { ...options, reuse: lastPiece });
  return formatChunk(lastPiece, workerApi, o);
}

const PIECE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const format = await require(workerData.entry).loadPgnFormatter(workerData.options.format);
  parentPort.on('message', ({ id, piece, spare }) => {
    try {
      const result = format(piece, workerData.options, spare);
      // The records' buffer (or the encoded Parquet row groups') moves to the main thread rather
      // than being copied: a ByteSink's own or the encoder's (never Buffer's shared pool, whose slabs
      // are at most Buffer.poolSize bytes); small ones are copied.
      const moved = [result.text.buffer, result.encoded && result.encoded.bytes.buffer]
        .filter((b) => b instanceof ArrayBuffer && b.byteLength > Buffer.poolSize);
      parentPort.postMessage({ id, result }, moved);
    } catch (e) {
      parentPort.postMessage({ id, fatal: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => parentPort.postMessage({ fatal: String(e && e.stack || e) }));
`;

/** Worker threads that format pieces (dist/analyze-worker.cjs loads formatPgnPiece for them). */
class PiecePool {
  private readonly pool: WorkerPool<Formatted>;
  constructor(n: number, options: FormatOptions) {
    this.pool = new WorkerPool(n, PIECE_WORKER, { entry: WORKER_ENTRY, options });
  }
  /** Memory of records written out, to go back to a worker with its next piece. */
  private readonly spares: ArrayBuffer[] = [];
  run(piece: PgnPiece): Promise<Formatted> {
    const spare = this.spares.pop();
    return this.pool.run({ piece, spare }, spare ? [piece.bytes.buffer as ArrayBuffer, spare] : [piece.bytes.buffer as ArrayBuffer]);
  }
  /**
   * A result's records once written out: their memory (when it is theirs alone, moved from the
   * worker) goes back to a worker with a later piece.
   */
  recycle(r: Formatted): void {
    const b = r.text.buffer;
    if (b instanceof ArrayBuffer && b.byteLength > Buffer.poolSize && this.spares.length < 4) this.spares.push(b);
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}
