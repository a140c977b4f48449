/**
 * Batch analysis: many positions in one typed array, one call for a million of them.
 *
 * Layout. A PositionBatch holds its positions in the packed layout of `backend.ts`
 * (PACKED_POSITION_WORDS = 10 unsigned 64-bit words per position, array-of-structs): white, black,
 * pawns, knights, bishops, rooks, queens, kings, state, fullmove number. Not struct-of-arrays, on
 * purpose: every feature reads most of the eight sets of a position, so one position is one
 * contiguous 80-byte record (two cache lines at most) instead of nine streams, and the layout is the
 * one the existing batch forms (`checkersBatch`, ...) and `packPositions` already use, so nothing is
 * converted anywhere. Zero-copy construction: `PositionBatch.fromPacked(words)` wraps a
 * BigUint64Array, an ArrayBuffer, a SharedArrayBuffer or a Buffer / Uint8Array (e.g. a file read with
 * fs.readFileSync, or memory shared with another process or worker) without copying.
 *
 * Outputs: one typed array per requested feature, `width * n` elements: per-colour features ("pair")
 * hold white's value at [2i] and black's at [2i + 1]; the others one value at [i].
 */
import { PACKED_POSITION_WORDS, PLANE_BYTES, SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../core/types.js';
import type { ParseInto, Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { FEN_FIELDS, csvQuote, lineAt, parseLine, trimAscii } from '../core/lines.js';
import { FenError, MoveError, isPosition, packPositions } from '../core/position.js';
import { uciOfCode } from '../core/position-record.js';
import { checkArray, checkThreads, isDetachedArray, outArray, sharesMemory } from '../core/validate.js';
import { recordFormatter } from './records.js';

export { PLANE_BYTES };
import {
  FEATURES, FEATURE_COUNT, FEATURE_GROUPS, PENDING_FEATURES, SYZYGY_FEATURES, csvHeader, featureIds, featureWidth, isU64Feature,
} from '../core/features.js';
import type { BaseFeatureName, BatchResults, FeatureGroupName, FeatureName, SyzygyFeatureName } from '../core/features.js';

/**
 * What batch analysis needs of an endgame tablebase: `SyzygyTablebase` (lib/tablebases/syzygy.ts)
 * has it. The batch topic names only this shape, so tablebases may build on batches, never back.
 */
export interface EndgameProber {
  probeWdlBatch(positions: BigUint64Array | PositionBatch, out?: Int8Array, threads?: number): Int8Array;
  probeDtzBatch(positions: BigUint64Array | PositionBatch, out?: Int16Array, threads?: number): Int16Array;
  probeWdlBatchAsync(positions: BigUint64Array | PositionBatch, threads?: number): Promise<Int8Array>;
  probeDtzBatchAsync(positions: BigUint64Array | PositionBatch, threads?: number): Promise<Int16Array>;
}

export { FEATURES, FEATURE_GROUPS, PENDING_FEATURES, SYZYGY_FEATURES, csvHeader, featureIds };
export type {
  BaseFeatureName, BatchResults, FeatureArray, FeatureGroupName, FeatureInfo, FeatureName, FeatureType, SyzygyFeatureName,
} from '../core/features.js';

/** Options of analyzeBatch. */
export interface AnalyzeOptions {
  /** Answers the `wdl` and `dtz` features (required when they are asked for). */
  syzygy?: EndgameProber;
}

/** Options of analyzeBatch (the synchronous call only: see `out`). */
export interface AnalyzeSyncOptions<F extends FeatureName | FeatureGroupName = BaseFeatureName> extends AnalyzeOptions {
  /**
   * Arrays to write the results into, by feature name, instead of new ones: for instance the
   * results of the previous call over a batch of the same length, so a loop over chunks allocates
   * nothing. Each must be of its feature's type (BigUint64Array or Uint8Array; Int8Array for `wdl`,
   * Int16Array for `dtz`) with exactly `width * batch.length` elements, and share no memory with
   * the batch or with another output (a TypeError or RangeError otherwise). Features not listed
   * get new arrays. The result holds the given arrays themselves.
   */
  out?: Partial<BatchResults<F>> & Partial<Record<SyzygyFeatureName, Int8Array | Int16Array>>;
}

const isSyzygyName = (x: unknown): x is SyzygyFeatureName => x === 'wdl' || x === 'dtz';

/** Splits off the Syzygy features; checks that a tablebase is there when one is asked for. */
function splitSyzygy(fn: string, features: readonly string[] | 'all' | undefined, options: unknown):
  { base: readonly string[] | 'all' | undefined; wdl: boolean; dtz: boolean; tb: EndgameProber | undefined } {
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`${fn}: options must be an object`);
  const tb = (options as AnalyzeOptions | undefined)?.syzygy;
  if (tb !== undefined && (typeof tb !== 'object' || tb === null || typeof (tb as EndgameProber).probeWdlBatch !== 'function'
    || typeof (tb as EndgameProber).probeDtzBatch !== 'function')) {
    throw new TypeError(`${fn}: options.syzygy must be a SyzygyTablebase (SyzygyTablebase.open)`);
  }
  if (!Array.isArray(features)) return { base: features, wdl: false, dtz: false, tb };
  const wdl = features.includes('wdl'), dtz = features.includes('dtz');
  if ((wdl || dtz) && tb === undefined) {
    throw new TypeError(`${fn}: feature ${wdl ? 'wdl' : 'dtz'} needs a Syzygy tablebase: pass { syzygy: SyzygyTablebase.open(dir) } as options.syzygy`);
  }
  return { base: features.filter((f) => !isSyzygyName(f)), wdl, dtz, tb };
}

/** Status codes of FEN parsing: 0 ok, then the FenError field names. */
export const FEN_STATUS = ['ok', ...FEN_FIELDS] as const;

// ---- PositionBatch ----

/**
 * The PositionBatches this package made. Module-private (one shared chunk in dist/, see
 * tsup.config.ts), so no look-alike passes for a batch; batches are frozen, so none is reshaped.
 */
const BATCHES = new WeakSet<object>();

/** A line or string that did not parse: its index in the batch and the FenError parseFen throws for it. */
export interface BatchError {
  readonly index: number;
  readonly error: FenError;
}

/** Many positions, packed (see the header of this file). */
export class PositionBatch {
  /** PACKED_POSITION_WORDS words per position. */
  readonly words: BigUint64Array;
  /** Per position 1 (a position) or 0 (a line that did not parse: all-zero words, zero results); null = all valid. */
  readonly valid: Uint8Array | null;
  /** The positions that did not parse, in index order. */
  readonly errors: readonly BatchError[];

  protected constructor(words: BigUint64Array, valid: Uint8Array | null, errors: readonly BatchError[]) {
    this.words = words;
    this.valid = valid;
    this.errors = errors;
    BATCHES.add(this);
    Object.freeze(this);
  }

  get length(): number {
    return this.words.length / PACKED_POSITION_WORDS;
  }

  /**
   * Zero-copy: wraps packed words (a BigUint64Array, or the bytes of one: ArrayBuffer,
   * SharedArrayBuffer, Buffer / Uint8Array with an 8-byte-aligned offset). The words are checked
   * position by position when analysed (a RangeError names the first inconsistent one).
   * `valid` (optional): 0 marks slots to skip.
   */
  static fromPacked(words: BigUint64Array | ArrayBufferLike | Uint8Array, valid?: Uint8Array): PositionBatch {
    const fn = 'PositionBatch.fromPacked';
    let w: BigUint64Array;
    if (ArrayBuffer.isView(words) && !(words instanceof Uint8Array)) w = checkArray(fn, 'words', words, BigUint64Array);
    else if (ArrayBuffer.isView(words)) {
      const bytes = checkArray(fn, 'words', words, Uint8Array);
      if (bytes.byteOffset % 8 !== 0 || bytes.byteLength % 8 !== 0) {
        throw new RangeError(`${fn}: the bytes must start at a multiple of 8 and hold whole 64-bit words, got offset ${bytes.byteOffset}, length ${bytes.byteLength}`);
      }
      w = new BigUint64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
    } else if (words instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && words instanceof SharedArrayBuffer)) {
      if (words.byteLength % 8 !== 0) throw new RangeError(`${fn}: the buffer must hold whole 64-bit words, got ${words.byteLength} bytes`);
      try {
        w = new BigUint64Array(words);
      } catch {
        throw new TypeError(`${fn}: words is a detached ArrayBuffer (it was transferred)`);
      }
    } else {
      throw new TypeError(`${fn}: words must be a BigUint64Array, an ArrayBuffer or a Uint8Array / Buffer`);
    }
    if (w.length % PACKED_POSITION_WORDS !== 0) {
      throw new RangeError(`${fn}: words must hold ${PACKED_POSITION_WORDS} words per position, got ${w.length}`);
    }
    const flags = valid === undefined ? null : checkArray(fn, 'valid', valid, Uint8Array);
    if (flags && flags.length !== w.length / PACKED_POSITION_WORDS) {
      throw new RangeError(`${fn}: valid must have one flag per position (${w.length / PACKED_POSITION_WORDS}), got ${flags.length}`);
    }
    return new PositionBatch(w, flags, []);
  }

  /** From Positions (parseFen / createPosition): their packed words, concatenated. */
  static fromPositions(positions: readonly Position[]): PositionBatch {
    const fn = 'PositionBatch.fromPositions';
    if (!Array.isArray(positions)) throw new TypeError(`${fn}: positions must be an array of Positions`);
    positions.forEach((p, i) => {
      if (!isPosition(p)) throw new TypeError(`${fn}: positions[${i}] must be a Position from parseFen or createPosition`);
    });
    return new PositionBatch(packPositions(positions), null, []);
  }

  /** @internal the parsers below build batches through this. */
  static create(words: BigUint64Array, valid: Uint8Array | null, errors: readonly BatchError[]): PositionBatch {
    return new PositionBatch(words, valid, errors);
  }
}

export function isPositionBatch(x: unknown): x is PositionBatch {
  return typeof x === 'object' && x !== null && BATCHES.has(x);
}

/** A PositionBatch this package made, its arrays still attached (a transferred buffer reads as length 0). */
function checkBatch(fn: string, v: unknown): PositionBatch {
  if (!isPositionBatch(v)) throw new TypeError(`${fn}: batch must be a PositionBatch`);
  if (v.words.length === 0 && isDetachedArray(v.words)) {
    throw new TypeError(`${fn}: the batch's words were detached (their ArrayBuffer was transferred)`);
  }
  if (v.valid && (v.valid.length !== v.length || isDetachedArray(v.valid))) throw new TypeError(`${fn}: the batch's valid flags were detached (their ArrayBuffer was transferred)`);
  return v;
}

// ---- Text -> positions ----

/** Text parsed into a batch: the batch plus where each line starts (for echoing and error records). */
export interface ParsedText {
  readonly text: Uint8Array;
  readonly lineStarts: Uint32Array;
  readonly words: BigUint64Array;
  readonly valid: Uint8Array;
  readonly errors: BatchError[];
}

/**
 * Lines of UTF-8 text (one position per line, '\n' ends a line) through the backend's parser; lines
 * it leaves to JS (non-ASCII) and the bad ones (for their FenError message) are parsed by `parseFen`.
 * `chess960`: castling fields read as X-FEN (parseFen's `{ chess960: true }`), by both parsers.
 */
export function parseText(b: Backend, text: Uint8Array, epd: boolean, scratch?: ChunkScratch, chess960 = false): ParsedText {
  const r = b.batch.parseFenText(text, epd, scratch?.parse, chess960);
  let words: BigUint64Array, status: Uint8Array, lineStarts: Uint32Array;
  if (typeof r === 'number') {
    const into = scratch!.parse!;
    words = into.words.subarray(0, r * PACKED_POSITION_WORDS);
    status = into.status.subarray(0, r);
    lineStarts = into.starts.subarray(0, r + 1);
  } else {
    [words, status, lineStarts] = r;
    // Kept for the next chunk (they hold this one's lines until then).
    if (scratch) scratch.parse = { words, status, starts: lineStarts };
  }
  const valid = new Uint8Array(status.length);
  const errors: BatchError[] = [];
  for (let i = 0; i < status.length; i++) {
    if (status[i] === 0) { valid[i] = 1; continue; }
    const r = parseLine(lineAt(text, lineStarts, i), epd, b.checkers, chess960);
    if (r instanceof FenError) errors.push({ index: i, error: r });
    else { words.set(r, i * PACKED_POSITION_WORDS); valid[i] = 1; }
  }
  return { text, lineStarts, words, valid, errors };
}

/** Strings -> PositionBatch with per-string errors (the batch API's fromFens). */
export function batchFromFens(b: Backend, fens: readonly string[], epd: boolean, chess960 = false): PositionBatch {
  const fn = 'PositionBatch.fromFens';
  if (!Array.isArray(fens)) throw new TypeError(`${fn}: fens must be an array of strings`);
  const n = fens.length;
  // A string holding '\n' would split into several lines: it goes to parseFen alone (as a blank line here).
  const lines = fens.map((s, i) => {
    if (typeof s !== 'string') throw new TypeError(`${fn}: fens[${i}] must be a string, got ${typeof s}`);
    return s.includes('\n') ? '' : s;
  });
  const text = Buffer.from(n ? `${lines.join('\n')}\n` : '', 'utf8');
  const parsed = parseText(b, text, epd, undefined, chess960);
  const errors: BatchError[] = [];
  const byIndex = new Map(parsed.errors.map((e) => [e.index, e]));
  for (let i = 0; i < n; i++) {
    if (fens[i]!.includes('\n')) {
      const r = parseLine(fens[i]!, epd, b.checkers, chess960);
      if (r instanceof FenError) { errors.push({ index: i, error: r }); parsed.valid[i] = 0; parsed.words.fill(0n, i * 10, i * 10 + 10); }
      else { parsed.words.set(r, i * PACKED_POSITION_WORDS); parsed.valid[i] = 1; }
    } else if (byIndex.has(i)) {
      errors.push(byIndex.get(i)!);
    }
  }
  return PositionBatch.create(parsed.words, errors.length ? parsed.valid : null, errors);
}

// ---- Analysis ----

/**
 * The output arrays, not zeroed: both backends write every element of every requested output
 * (zeros for skipped slots; on an inconsistent position the call fails and the arrays are dropped).
 * Zeroing and first-touching tens of megabytes cost more than the check features themselves; a
 * non-pooled Buffer's memory is reused by the allocator from one call to the next.
 */
function allocate(ids: readonly number[], n: number, planes?: (ArrayBuffer | undefined)[],
  given?: readonly (BigUint64Array | Uint8Array | undefined)[]): (BigUint64Array | Uint8Array | undefined)[] {
  const outs: (BigUint64Array | Uint8Array | undefined)[] = new Array(FEATURE_COUNT).fill(undefined);
  for (const f of ids) {
    if (given?.[f]) {
      outs[f] = given[f];
      continue;
    }
    const length = featureWidth(f) * n;
    const bytes = isU64Feature(f) ? 8 * length : length;
    let memory = planes?.[f];
    if (memory === undefined || memory.byteLength < bytes) {
      memory = Buffer.allocUnsafeSlow(planes ? Math.ceil(bytes * 1.25) : bytes).buffer;
      if (planes) planes[f] = memory;
    }
    outs[f] = isU64Feature(f) ? new BigUint64Array(memory, 0, length) : new Uint8Array(memory, 0, length);
  }
  return outs;
}

function results<F extends FeatureName | FeatureGroupName>(ids: readonly number[], outs: (BigUint64Array | Uint8Array | undefined)[]): BatchResults<F> {
  const r: Record<string, BigUint64Array | Uint8Array> = {};
  for (const f of ids) r[FEATURES[f]!.name] = outs[f]!;
  return r as BatchResults<F>;
}

/** The caller's output arrays of analyzeBatch (options.out), checked: by feature id, then wdl and dtz. */
function givenOutputs(fn: string, out: unknown, ids: readonly number[], sz: { wdl: boolean; dtz: boolean }, bt: PositionBatch):
  [(BigUint64Array | Uint8Array | undefined)[], Int8Array | undefined, Int16Array | undefined] {
  const given: (BigUint64Array | Uint8Array | undefined)[] = new Array(FEATURE_COUNT).fill(undefined);
  let wdl: Int8Array | undefined, dtz: Int16Array | undefined;
  if (out === undefined) return [given, wdl, dtz];
  if (typeof out !== 'object' || out === null || ArrayBuffer.isView(out)) {
    throw new TypeError(`${fn}: options.out must be an object of typed arrays by feature name, got ${out === null ? 'null' : typeof out}`);
  }
  const taken: [string, ArrayBufferView][] = [['the batch\'s words', bt.words]];
  if (bt.valid) taken.push(['the batch\'s valid flags', bt.valid]);
  const n = bt.length;
  for (const key of Object.keys(out)) {
    const v = (out as Record<string, unknown>)[key];
    if (v === undefined) continue;
    const what = `options.out.${key}`;
    const f = ids.find((id) => FEATURES[id]!.name === key);
    const asked = f !== undefined || (key === 'wdl' && sz.wdl) || (key === 'dtz' && sz.dtz);
    if (!asked) throw new TypeError(`${fn}: ${what} is no feature this call asks for`);
    const ctor = f !== undefined ? (isU64Feature(f) ? BigUint64Array : Uint8Array) : key === 'wdl' ? Int8Array : Int16Array;
    const length = f !== undefined ? featureWidth(f) * n : n;
    const arr = checkArray(fn, what, v, ctor) as BigUint64Array | Uint8Array | Int8Array | Int16Array;
    if (arr.length !== length) throw new RangeError(`${fn}: ${what} must have ${length} elements for a batch of ${n} positions, got ${arr.length}`);
    const clash = taken.find(([, t]) => sharesMemory(arr, t));
    if (clash) throw new RangeError(`${fn}: ${what} shares memory with ${clash[0]}`);
    taken.push([what, arr]);
    if (f !== undefined) given[f] = arr as BigUint64Array | Uint8Array;
    else if (key === 'wdl') wdl = arr as Int8Array;
    else dtz = arr as Int16Array;
  }
  return [given, wdl, dtz];
}

const maskOf = (ids: readonly number[]): number => ids.reduce((m, f) => m | (1 << f), 0);

export interface AnalyzeAsyncOptions extends AnalyzeOptions {
  /** Cancels the work: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Native threads to use (default: all hardware threads); the JS backend runs in chunks on this thread. */
  threads?: number;
}

/** The batch API over one backend (the facade binds it like createApi). */
export function createBatchApi(b: Backend) {
  const nb = b.batch;
  class BoundPositionBatch extends PositionBatch {
    /**
     * FEN strings (or EPD lines with `{ epd: true }`) -> PositionBatch. Parsed natively on the native
     * backend with the exact parseFen rules; a string that does not parse leaves a zero slot
     * (`valid[i] = 0`) and an entry in `errors` with its FenError. Nothing is thrown for bad strings.
     * `{ chess960: true }` reads every string as `parseFen(fen, { chess960: true })` does (X-FEN
     * castling fields: `KQkq` the outermost rooks); without it, Shredder-FEN strings are still
     * Chess960 positions and `KQkq` is standard FEN.
     */
    static fromFens(fens: readonly string[], options: { epd?: boolean; chess960?: boolean } = {}): PositionBatch {
      const fn = 'PositionBatch.fromFens';
      if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object, got ${options === null ? 'null' : typeof options}`);
      const { epd, chess960 } = options;
      if (epd !== undefined && typeof epd !== 'boolean') throw new TypeError(`${fn}: options.epd must be a boolean, got ${typeof epd}`);
      if (chess960 !== undefined && typeof chess960 !== 'boolean') throw new TypeError(`${fn}: options.chess960 must be a boolean, got ${typeof chess960}`);
      return batchFromFens(b, fens, epd === true, chess960 === true);
    }
  }

  return {
    PositionBatch: BoundPositionBatch,

    /**
     * Computes the requested features (names from FEATURES, default all) for every position: one
     * typed array per feature, no per-position objects. `wdl` and `dtz` (SYZYGY_FEATURES) need
     * `{ syzygy: tablebase }` in the options (a TypeError otherwise) and are not part of 'all';
     * positions the tables cannot answer, and skipped slots, get SYZYGY_WDL_NONE / SYZYGY_DTZ_NONE.
     */
    analyzeBatch<F extends FeatureName | FeatureGroupName = BaseFeatureName>(batch: PositionBatch, features?: readonly F[] | 'all',
      options?: AnalyzeSyncOptions<F>): BatchResults<F> {
      const fn = 'analyzeBatch';
      const bt = checkBatch(fn, batch);
      const sz = splitSyzygy(fn, features, options);
      const ids = featureIds(fn, sz.base);
      const [given, wdlOut, dtzOut] = givenOutputs(fn, options?.out, ids, sz, bt);
      const outs = allocate(ids, bt.length, undefined, given);
      // Called with no feature too: it checks the packed words (a RangeError names an inconsistent one).
      nb.analyzeBatch(bt.words, bt.valid, maskOf(ids), outs);
      const r = results<F>(ids, outs) as Record<string, unknown>;
      if (sz.wdl) r.wdl = sz.tb!.probeWdlBatch(bt, wdlOut);
      if (sz.dtz) r.dtz = sz.tb!.probeDtzBatch(bt, dtzOut);
      return r as BatchResults<F>;
    },

    /**
     * analyzeBatch off the main thread (native: a Node-API async work item splitting the batch over
     * `threads` native threads), cancellable with an AbortSignal. Same results as analyzeBatch.
     * Do not write to or transfer the batch's arrays while it runs.
     */
    async analyzeBatchAsync<F extends FeatureName | FeatureGroupName = BaseFeatureName>(batch: PositionBatch, features?: readonly F[] | 'all',
      options: AnalyzeAsyncOptions = {}): Promise<BatchResults<F>> {
      const fn = 'analyzeBatchAsync';
      const bt = checkBatch(fn, batch);
      if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object, got ${options === null ? 'null' : typeof options}`);
      const sz = splitSyzygy(fn, features, options);
      const ids = featureIds(fn, sz.base);
      const { signal } = options;
      const threads = checkThreads(fn, 'options.threads', options.threads === undefined ? nb.hardwareThreads : options.threads, 256);
      if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError(`${fn}: signal must be an AbortSignal`);
      signal?.throwIfAborted();
      const outs = allocate(ids, bt.length);
      const cancel = new Int32Array(1);
      const onAbort = () => { cancel[0] = 1; };
      signal?.addEventListener('abort', onAbort, { once: true });
      let wdl: Int8Array | undefined, dtz: Int16Array | undefined;
      try {
        // The JS backend works in chunks between turns of the event loop: it reads its own copy of
        // the batch, so a buffer transferred or written meanwhile changes nothing. (The native backend
        // copies what its threads read itself.)
        const [words, valid] = b.name === 'js' ? [bt.words.slice(), bt.valid && bt.valid.slice()] : [bt.words, bt.valid];
        const done = await nb.analyzeBatchAsync(words, valid, maskOf(ids), outs, threads, cancel);
        if (!done) signal!.throwIfAborted();
        // The tablebase copies the positions before its threads read them (see probeWdlBatchAsync).
        if (sz.wdl) { wdl = await sz.tb!.probeWdlBatchAsync(bt, threads); signal?.throwIfAborted(); }
        if (sz.dtz) { dtz = await sz.tb!.probeDtzBatchAsync(bt, threads); signal?.throwIfAborted(); }
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      const r = results<F>(ids, outs) as Record<string, unknown>;
      if (wdl) r.wdl = wdl;
      if (dtz) r.dtz = dtz;
      return r as BatchResults<F>;
    },

    /**
     * The static exchange evaluation (`see`) of moves[i] (a 16-bit move code, `encodeMove`) in
     * position i of the batch, into an Int16Array (allocated when omitted): centipawns. Slots of
     * lines that did not parse get 0. A move that is not legal in its position is a MoveError naming
     * the index; an inconsistent position a RangeError.
     */
    seeBatch(batch: PositionBatch, moves: Uint16Array, out?: Int16Array): Int16Array {
      const fn = 'seeBatch';
      const bt = checkBatch(fn, batch);
      const m = checkArray(fn, 'moves', moves, Uint16Array);
      if (m.length !== bt.length) throw new RangeError(`${fn}: moves must have one move per position (${bt.length}), got ${m.length}`);
      const result = outArray(fn, out, Int16Array, bt.length);
      const bad = nb.seeBatch(bt.words, bt.valid, m, result);
      if (bad >= 0) {
        const i = Math.floor(bad / 2);
        if (bad % 2 === 0) throw new RangeError(`${fn}: position ${i} is not a valid position`);
        throw new MoveError(uciOfCode(m[i]!), `${fn}: moves[${i}] is not a legal move in position ${i}`);
      }
      return result;
    },

    /**
     * Machine-learning input planes: PLANE_BYTES (776) bytes per position, 0 / 1 piece planes
     * (12 x 64: white P N B R Q K, then black; byte plane * 64 + square) then 8 state bytes
     * (side to move, castling K Q k q, en-passant square or 64, halfmove clock capped at 255, 0).
     */
    toPlanes(batch: PositionBatch, out?: Uint8Array): Uint8Array {
      const fn = 'toPlanes';
      const bt = checkBatch(fn, batch);
      const want = bt.length * PLANE_BYTES;
      const result = outArray(fn, out, Uint8Array, want);
      nb.toPlanes(bt.words, bt.valid, result);
      return result;
    },
  };
}

export type BatchApi = ReturnType<typeof createBatchApi>;

// ---- Records for the CLI ----

export type RecordFormat = 'ndjson' | 'csv';

/** The record of a line that did not parse. */
export function errorRecord(line: number, input: string, error: FenError, ids: readonly number[], format: RecordFormat,
  syzygy = false): string {
  if (format === 'ndjson') {
    return `{"line":${line},"input":${JSON.stringify(trimAscii(input))},"error":${JSON.stringify(error.message)},"field":${JSON.stringify(error.field)}}\n`;
  }
  const empty = ids.reduce((s, f) => s + featureWidth(f), 0) + (syzygy ? 2 : 0);
  return `${line},${csvQuote(trimAscii(input))}${','.repeat(empty + 1)}${csvQuote(error.message)}\n`;
}

/**
 * Memory analyzeTextChunk reuses from call to call: where the records go, one buffer per feature
 * plane, and the parsed positions; it grows them itself when a chunk needs more.
 */
export interface ChunkScratch { records: Uint8Array; readonly planes: (ArrayBuffer | undefined)[]; parse?: ParseInto }

/**
 * Parse, analyse and format one chunk of lines: the CLI's unit of work (a worker runs it).
 * Returns the records of all lines, in order, and how many lines had errors. `firstLine` is the
 * line number of the chunk's first line, or a function that is told how many lines the chunk holds
 * once they are split (before the analysis) and returns it: the worker threads number their chunks
 * in turn that way, without counting the lines twice. With `scratch`, the parsed positions, the
 * feature planes and (when they fit) the records are made in its memory, reused from one call to
 * the next: the caller must be done with the result before it passes the same scratch again.
 * `chess960`: castling fields read as X-FEN (the analyze command's --chess960).
 */
export function analyzeTextChunk(b: Backend, text: Uint8Array, firstLine: number | ((lines: number) => number), ids: readonly number[],
  format: RecordFormat, epd: boolean, tb?: EndgameProber, scratch?: ChunkScratch, chess960 = false): { out: Uint8Array; lines: number; errors: number; firstError?: string; firstErrorEnd?: number } {
  const parsed = parseText(b, text, epd, scratch, chess960);
  const n = parsed.valid.length;
  if (typeof firstLine === 'function') firstLine = firstLine(n);
  const outs = allocate(ids, n, scratch?.planes);
  b.batch.analyzeBatch(parsed.words, parsed.valid, maskOf(ids), outs);
  let [bytes, starts] = recordFormatter(b)(text, parsed.lineStarts, parsed.valid, Uint8Array.from(ids), outs,
    format === 'ndjson' ? 0 : 1, firstLine, scratch?.records);
  if (scratch && bytes.length > scratch.records.length) scratch.records = Buffer.allocUnsafeSlow(Math.ceil(bytes.length * 1.25));
  if (tb) {
    // One thread per call: the CLI's worker pool already spreads the chunks over the cores.
    const positions = PositionBatch.create(parsed.words, parsed.valid, []);
    [bytes, starts] = appendSyzygy(bytes, starts, tb.probeWdlBatch(positions, undefined, 1), tb.probeDtzBatch(positions, undefined, 1), format);
  }
  if (parsed.errors.length === 0) return { out: bytes, lines: n, errors: 0 };
  // Failed lines get an error record in place of theirs; blank and comment lines get none (the records
  // that follow keep their input line numbers).
  const parts: Uint8Array[] = [];
  let from = 0;
  let size = 0;
  let skipped = 0;
  let firstError: BatchError | undefined;
  let firstErrorEnd: number | undefined;
  for (const e of parsed.errors) {
    const before = bytes.subarray(from, starts[e.index]!);
    parts.push(before);
    size += before.length;
    from = starts[e.index + 1]!;
    if (isSkippedLine(text, parsed.lineStarts, e.index)) { skipped++; continue; }
    const record = Buffer.from(errorRecord(firstLine + e.index, lineAt(text, parsed.lineStarts, e.index), e.error, ids, format, tb !== undefined));
    parts.push(record);
    size += record.length;
    firstError ??= e;
    firstErrorEnd ??= size;
  }
  parts.push(bytes.subarray(from));
  const errors = parsed.errors.length - skipped;
  return {
    out: Buffer.concat(parts), lines: n - skipped, errors,
    ...(firstError && { firstError: `line ${firstLine + firstError.index}: ${firstError.error.message}`, firstErrorEnd }),
  };
}

/**
 * The features `ids` of parsed text's positions, one array per feature id (lines that did not
 * parse: zeros), and with `tb` each position's wdl and dtz (NONE where the tables cannot answer).
 * The analyze command's Parquet output of FEN / EPD lines reads its columns from these.
 */
export function analyzeParsed(b: Backend, parsed: ParsedText, ids: readonly number[], tb?: EndgameProber):
  { outs: (BigUint64Array | Uint8Array | undefined)[]; wdl?: Int8Array; dtz?: Int16Array } {
  const outs = allocate(ids, parsed.valid.length);
  b.batch.analyzeBatch(parsed.words, parsed.valid, maskOf(ids), outs);
  if (!tb) return { outs };
  const positions = PositionBatch.create(parsed.words, parsed.valid, []);
  return { outs, wdl: tb.probeWdlBatch(positions, undefined, 1), dtz: tb.probeDtzBatch(positions, undefined, 1) };
}

/**
 * Adds wdl and dtz to each non-empty record (null in NDJSON, an empty field in CSV where the tables
 * cannot answer): NDJSON `..."wdl":2,"dtz":13}`, CSV `...,wdl,dtz,error`.
 */
function appendSyzygy(bytes: Uint8Array, starts: Uint32Array, wdl: Int8Array, dtz: Int16Array, format: RecordFormat): [Uint8Array, Uint32Array] {
  const n = starts.length - 1;
  const parts: Uint8Array[] = [];
  const newStarts = new Uint32Array(n + 1);
  let size = 0;
  for (let i = 0; i < n; i++) {
    newStarts[i] = size;
    const from = starts[i]!, to = starts[i + 1]!;
    if (to === from) continue;
    // NDJSON records end in '}\n', CSV records in ',\n' (the empty error field): both lose 2 bytes.
    const head = bytes.subarray(from, to - 2);
    const w = wdl[i] === SYZYGY_WDL_NONE ? null : wdl[i]!;
    const d = dtz[i] === SYZYGY_DTZ_NONE ? null : dtz[i]!;
    const tail = Buffer.from(format === 'ndjson'
      ? `,"wdl":${w === null ? 'null' : w},"dtz":${d === null ? 'null' : d}}\n`
      : `,${w === null ? '' : w},${d === null ? '' : d},\n`);
    parts.push(head, tail);
    size += head.length + tail.length;
  }
  newStarts[n] = size;
  return [Buffer.concat(parts, size), newStarts];
}

/**
 * A line the analyze command passes over without a record: empty or only white space (CR of a CRLF
 * file included), or a comment whose first non-blank character is '#'.
 */
export function isSkippedLine(text: Uint8Array, lineStarts: Uint32Array, index: number): boolean {
  const end = Math.min(lineStarts[index + 1]!, text.length);
  for (let i = lineStarts[index]!; i < end; i++) {
    const c = text[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) continue;
    return c === 0x23;
  }
  return true;
}
