/**
 * Syzygy tablebases: WDL and DTZ of 3- to 7-piece positions from Ronald de Man's `.rtbw` / `.rtbz`
 * files (regular chess), with python-chess's numbers:
 *
 * - WDL from the side to move: 2 win, 1 cursed win (a win the 50-move rule spoils), 0 draw,
 *   -1 blessed loss, -2 loss. As the format defines it, the value assumes the position was just
 *   reached by a zeroing move (the halfmove clock is not used).
 * - DTZ: signed plies to the next zeroing move (capture, pawn move or mate) with best play, with the
 *   sign of the WDL; 0 for draws; beyond ±100 for cursed wins and blessed losses. The format stores
 *   some distances in moves, so a value n can mean n or n + 1 plies (never where it would change the
 *   result under the 50-move rule: https://syzygy-tables.info/metrics#dtz).
 *
 * What cannot be answered, and how:
 * - castling rights, more pieces than the loaded tables hold, or a table that is needed but not
 *   loaded (the position's, or one that a capture or promotion leads to): `probeWdl` / `probeDtz`
 *   throw a `SyzygyError` whose `reason` is 'castling' | 'too-many-pieces' | 'missing-table';
 *   `getWdl` / `getDtz` return null instead; batch outputs hold SYZYGY_WDL_NONE (-128) /
 *   SYZYGY_DTZ_NONE (-32768) for those and for packed words that are no legal position.
 * - a damaged table (wrong magic, a size that is not 64k + 16, a truncated layout, a header whose
 *   material is not the file name's, a broken symbol grammar or an index, block or value out of
 *   range) is a `SyzygyFileError` (`problem` says which check failed) when the file is first read:
 *   files are read on first use, so the error comes from the first probe that needs the table (or
 *   from `open(..., { verify: true })`, which reads every table at once). Damage inside the
 *   compressed payload that still decodes to legal values is not detected: the format's trailing
 *   checksum is not verified.
 *
 * Backends: native maps each file on first use (several threads may share a tablebase) and runs
 * batches on all cores (`threads` defaults to all). On a compressed block's first use it notes
 * where the symbols at every 64 bits (or every 1/16 of a larger block) start, so later probes
 * decode a few symbols instead of walking the block from its start; for blocks of 32 bytes to 4 KB,
 * in memory of at most half the compressed data's size that the system fills only where blocks
 * are used. JS reads each file whole into memory on first use (right for 3-5 pieces; use native
 * for larger tables). `probeRoot` runs in the chosen backend too (the same moves, values and
 * order). The async batch forms copy their input first (native) and resolve to new arrays.
 */
import type { Position } from '../core/types.js';
import type { SyzygyBackend } from '../backends/contract.js';
import { PACKED_POSITION_WORDS } from '../core/types.js';
import { isPositionBatch, type PositionBatch } from '../batch/batch.js';
import {
  Prober, SEARCH_PLY, SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE, SyzygyError, SyzygyFileError, boardFromPacked, isCheckmate,
  materialKeyAt, nameFromKey, probeBatch, rootMoves, scanBytes, scanDirectories, type TableSet,
} from '../backends/js/syzygy.js';
import { play } from '../board/movegen.js';
import { uciOfCode } from '../core/position-record.js';
import { backendNamed } from '../backends/named.js';
import { loadWasmCore } from '../backends/wasm/load.js';
import type { WasmCore } from '../backends/wasm/core.js';
import { wasmSyzygyBackend } from '../backends/wasm/syzygy.js';
import { chooseBackend } from '../backends/choose.js';
import { isPosition, packedOf } from '../core/position.js';
import { checkThreads } from '../core/validate.js';

export { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE, SyzygyError, SyzygyFileError };
export type { SyzygyFileProblem, SyzygyReason } from '../backends/js/syzygy.js';
import type { SyzygyFileProblem } from '../backends/js/syzygy.js';
import { popcount32 } from '../board/bits.js';
import { squareName } from '../core/squares.js';

export interface SyzygyOpenOptions {
  /** 'native' (memory-mapped files, C++ decoder) or 'js' (files read on first use); default as the package's backend. */
  backend?: 'native' | 'js';
  /** Read and check every table now instead of on first use (a SyzygyFileError names the first damaged one). */
  verify?: boolean;
}

/** One legal move at the root with what it leads to, from the mover's point of view. */
export interface SyzygyRootMove {
  /** UCI, e.g. 'e7e8q'. */
  uci: string;
  /** WDL after the move for the side that moves (-2..2). */
  wdl: number;
  /** Plies to the next zeroing move when this move is played (1 for a zeroing or mating move), signed like wdl; 0 for draws. */
  dtz: number;
  /** Capture or pawn move. */
  zeroing: boolean;
  /** The move mates. */
  mate: boolean;
}

export interface SyzygyRootProbe {
  wdl: number;
  dtz: number;
  /** Every legal move, best first (higher WDL; wins: fewer plies to zeroing; losses: more; equal ranks by from square, then to square, promotion queen first). */
  moves: SyzygyRootMove[];
  /** The best move in UCI, null when there is no legal move. */
  best: string | null;
}

/** The native decoder as the addon exports it (native/addon/syzygy.cc). */

/** The addon reports a damaged file as an Error with code BBP_SYZYGY_FILE, `problem` and `path`: make it a SyzygyFileError. */
function nativeCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw fileErrorOf(e);
  }
}
function fileErrorOf(e: unknown): unknown {
  if (!(e instanceof Error) || (e as { code?: unknown }).code !== 'BBP_SYZYGY_FILE') return e;
  const { problem, path } = e as Error & { problem: SyzygyFileProblem; path: string };
  return new SyzygyFileError(path, problem, e.message);
}

function nativeSyzygy(): SyzygyBackend | null {
  return backendNamed('native').syzygy;
}


/** Does the move (movegen's code) capture or move a pawn in the position? */
function isZeroingMove(pos: Position, m: number): boolean {
  const from = BigInt(m & 63), to = (m >> 6) & 63;
  return ((pos.colors[0] | pos.colors[1]) >> BigInt(to) & 1n) !== 0n || ((pos.pieces[0] >> from) & 1n) !== 0n;
}

/** f(), or null when it throws a SyzygyError (a position the tables cannot answer). */
function orNull(f: () => number): number | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof SyzygyError) return null;
    throw e;
  }
}

/** Module-private: only `SyzygyTablebase.open` passes it to the constructor. */
const OPENING = Symbol('SyzygyTablebase.open');

/** A set of Syzygy tables opened from one or more directories. */
export class SyzygyTablebase {
  /** The most pieces any loaded table has (0 when none). */
  readonly maxPieces: number;
  /** Which prober answers: the addon's, the WebAssembly module's (tables from bytes) or the JS one. */
  readonly backend: 'native' | 'wasm' | 'js';
  /** Table names found (WDL files), e.g. ['KBNvK', 'KQvK', ...]. */
  readonly tables: readonly string[];
  private readonly set: TableSet;
  private readonly prober: Prober;
  private native: { api: SyzygyBackend; handle: unknown } | null;
  private closed = false;

  private constructor(token: symbol, set: TableSet, backend: 'native' | 'wasm' | 'js', native: { api: SyzygyBackend; handle: unknown } | null) {
    if (token !== OPENING) throw new TypeError('SyzygyTablebase: not constructible; use SyzygyTablebase.open(dirOrDirs, options)');
    this.set = set;
    this.prober = new Prober(set);
    this.maxPieces = set.maxPieces;
    this.backend = backend;
    this.native = native;
    this.tables = Object.freeze([...set.wdl.keys()].map(nameFromKey).sort());
  }

  /**
   * Finds the `.rtbw` / `.rtbz` files in `dirOrDirs` (not recursive; with the same table in two
   * directories the first wins). A directory that does not exist is a SyzygyFileError ('io').
   */
  static open(dirOrDirs: string | readonly string[], options: SyzygyOpenOptions = {}): SyzygyTablebase {
    const dirs = typeof dirOrDirs === 'string' ? [dirOrDirs] : dirOrDirs;
    if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string')) {
      throw new TypeError('SyzygyTablebase.open: dirOrDirs must be a directory path or an array of them');
    }
    if (typeof options !== 'object' || options === null) throw new TypeError('SyzygyTablebase.open: options must be an object');
    const choice = options.backend;
    if (choice !== undefined && choice !== 'native' && choice !== 'js') {
      throw new RangeError(`SyzygyTablebase.open: backend must be 'native' or 'js', got ${JSON.stringify(choice)}`);
    }
    const set = scanDirectories(dirs);
    const verifyJs = () => {
      for (const t of set.wdl.values()) t.load();
      for (const t of set.dtz.values()) t.load();
    };
    const decision = chooseBackend(choice);
    let api: SyzygyBackend | null = null;
    if (decision.name === 'native') {
      api = nativeSyzygy();
      if (!api && decision.forced) throw new Error('SyzygyTablebase.open: the native addon has no Syzygy prober');
    }
    if (!api) {
      if (options.verify) verifyJs();
      return new SyzygyTablebase(OPENING, set, 'js', null);
    }
    const paths = [...set.wdl.values(), ...set.dtz.values()].map((t) => t.path);
    const handle = api.syzygyOpen(paths);
    if (options.verify) nativeCall(() => api.syzygyVerify(handle));
    return new SyzygyTablebase(OPENING, set, 'native', { api, handle });
  }

  /**
   * The tables of files given as bytes (fetched by a page, read from a zip, ...), keyed by their
   * file names as a directory holds them: `{ 'KQvK.rtbw': bytes, 'KQvK.rtbz': bytes }` (a Map or a
   * plain object; other names are ignored). Probed by the WebAssembly module (the C++ prober, each
   * file copied into its memory once) when it loads, else by the JS prober; `backend: 'wasm' | 'js'`
   * chooses (forcing wasm where it cannot load throws, saying why; with the package's backend set to
   * js, js). A damaged table is a SyzygyFileError (naming the file) when it is first used, or at once
   * with `verify`.
   */
  static fromBytes(files: ReadonlyMap<string, Uint8Array> | Readonly<Record<string, Uint8Array>>,
    options: { verify?: boolean; backend?: 'wasm' | 'js' } = {}): SyzygyTablebase {
    if (typeof files !== 'object' || files === null) throw new TypeError('SyzygyTablebase.fromBytes: files must be a Map or an object of Uint8Arrays by file name');
    if (typeof options !== 'object' || options === null) throw new TypeError('SyzygyTablebase.fromBytes: options must be an object');
    if (options.backend !== undefined && options.backend !== 'wasm' && options.backend !== 'js') {
      throw new RangeError(`SyzygyTablebase.fromBytes: backend must be 'wasm' or 'js', got ${JSON.stringify(options.backend)}`);
    }
    const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
    for (const [name, bytes] of entries) {
      if (!(bytes instanceof Uint8Array)) throw new TypeError(`SyzygyTablebase.fromBytes: ${JSON.stringify(name)} must be a Uint8Array`);
    }
    const byName = new Map(entries as [string, Uint8Array][]);
    const set = scanBytes(byName);
    let core: WasmCore | null = null;
    if (options.backend === 'wasm') core = loadWasmCore();
    else if (options.backend === undefined && chooseBackend().name !== 'js') {
      try {
        core = loadWasmCore();
      } catch {
        core = null;  // not built: the JS prober
      }
    }
    if (core) {
      const api = wasmSyzygyBackend(core, byName);
      const handle = api.syzygyOpen([...set.wdl.values(), ...set.dtz.values()].map((t) => t.path));
      if (options.verify) nativeCall(() => api.syzygyVerify(handle));
      return new SyzygyTablebase(OPENING, set, 'wasm', { api, handle });
    }
    if (options.verify) {
      for (const t of set.wdl.values()) t.load();
      for (const t of set.dtz.values()) t.load();
    }
    return new SyzygyTablebase(OPENING, set, 'js', null);
  }

  /** The checks every probe makes first: an open tablebase, a Position, no castling rights, few enough pieces. */
  private check(fn: string, pos: Position): void {
    if (this.closed) throw new Error(`SyzygyTablebase.${fn}: the tablebase is closed`);
    if (!isPosition(pos)) throw new TypeError(`SyzygyTablebase.${fn}: pos must be a Position from parseFen or createPosition`);
    if (pos.castling) throw new SyzygyError('castling', 'positions with castling rights are not in the Syzygy tables');
    const occupied = pos.colors[0] | pos.colors[1];
    const count = popcount32(Number(occupied & 0xffffffffn)) + popcount32(Number(occupied >> 32n));
    if (count > this.maxPieces) throw new SyzygyError('too-many-pieces', `${count} pieces; the tables loaded have at most ${this.maxPieces}`);
  }

  /** Loads the position onto the search's ply of the JS generator's board stack and returns the ply. */
  private board(fn: string, pos: Position): number {
    this.check(fn, pos);
    boardFromPacked(packedOf(pos), 0);
    return SEARCH_PLY;
  }

  private nativeProbe(pos: Position, dtz: boolean): number {
    const { api, handle } = this.native!;
    const v = nativeCall(() => api.syzygyProbe(handle, packedOf(pos), dtz));
    if (v === (dtz ? SYZYGY_DTZ_NONE : SYZYGY_WDL_NONE)) {
      boardFromPacked(packedOf(pos), 0);
      const key = materialKeyAt(SEARCH_PLY);
      throw new SyzygyError('missing-table', `a table needed for ${nameFromKey(key)} is not loaded`);
    }
    return v;
  }

  /** WDL (-2..2) from the side to move. SyzygyError when unanswerable, SyzygyFileError for a damaged table. */
  probeWdl(pos: Position): number {
    if (this.native) {
      this.check('probeWdl', pos);
      return this.nativeProbe(pos, false);
    }
    return this.prober.wdl(this.board('probeWdl', pos));
  }

  /** DTZ in plies, signed from the side to move (see the module comment for the rounding). */
  probeDtz(pos: Position): number {
    if (this.native) {
      this.check('probeDtz', pos);
      return this.nativeProbe(pos, true);
    }
    return this.prober.dtz(this.board('probeDtz', pos));
  }

  /** probeWdl, or null when the position cannot be answered (SyzygyError). */
  getWdl(pos: Position): number | null {
    return orNull(() => this.probeWdl(pos));
  }

  /** probeDtz, or null when the position cannot be answered (SyzygyError). */
  getDtz(pos: Position): number | null {
    return orNull(() => this.probeDtz(pos));
  }

  /**
   * Every legal move with its WDL and DTZ after the move (mover's view) and the best move: the
   * highest WDL; among wins a mate, then the fewest plies to the next zeroing move (a winning
   * capture or pawn move counts 1); among losses the most plies; moves of equal rank by from square,
   * then to square, then promotion queen first (rootOrder in lib/backends/js/syzygy.ts).
   */
  probeRoot(pos: Position): SyzygyRootProbe {
    if (this.native) {
      this.check('probeRoot', pos);
      const { api, handle } = this.native;
      const r = nativeCall(() => api.syzygyProbeRoot(handle, packedOf(pos)));
      if (r === null) {
        boardFromPacked(packedOf(pos), 0);
        const key = materialKeyAt(SEARCH_PLY);
        throw new SyzygyError('missing-table', `a table needed for ${nameFromKey(key)} or a position after one of its moves is not loaded`);
      }
      const moves: SyzygyRootMove[] = [];
      for (let i = 0; i < r[2]!; i++) {
        const at = 3 + 4 * i, flags = r[at + 3]!;
        moves.push({ uci: uciOfCode(r[at]!), wdl: r[at + 1]!, dtz: r[at + 2]!, zeroing: (flags & 1) !== 0, mate: (flags & 2) !== 0 });
      }
      return { wdl: r[0]!, dtz: r[1]!, moves, best: moves[0]?.uci ?? null };
    }
    const p = this.board('probeRoot', pos);
    const moves: SyzygyRootMove[] = [];
    for (const m of rootMoves(p)) {
      const zeroing = isZeroingMove(pos, m);
      play(p, m);
      const mate = isCheckmate(p + 1);
      const wdl = mate ? 2 : 0 - this.childValue(p + 1, false);
      let dtz = 0;
      if (wdl !== 0) {
        const sign = wdl > 0 ? 1 : -1;
        if (mate || zeroing) dtz = sign * (Math.abs(wdl) === 2 ? 1 : 101);
        else dtz = -this.childValue(p + 1, true) + sign;  // the search keeps ply p + 1's board
      }
      moves.push({ uci: uciOfCode(m), wdl, dtz, zeroing, mate });
    }
    const rank = (x: SyzygyRootMove) => (x.mate ? 1e6 : 0) + x.wdl * 1e5 + (x.wdl > 0 ? -x.dtz : x.wdl < 0 ? -x.dtz : 0);
    const order = moves.map((x, i) => ({ x, i, r: rank(x) })).sort((a, c) => c.r - a.r || a.i - c.i).map((e) => e.x);
    return { wdl: this.probeWdl(pos), dtz: this.probeDtz(pos), moves: order, best: order[0]?.uci ?? null };
  }

  private childValue(p: number, dtz: boolean): number {
    return dtz ? this.prober.dtz(p) : this.prober.wdl(p);
  }

  /**
   * WDL of every position of a batch (a PositionBatch, or packed words: PACKED_POSITION_WORDS per
   * position). Positions that cannot be answered (see above) or are not legal get SYZYGY_WDL_NONE.
   * Native: on `threads` threads (default all cores).
   */
  probeWdlBatch(positions: BigUint64Array | PositionBatch, out?: Int8Array, threads?: number): Int8Array {
    return this.probeBatch('probeWdlBatch', positions, out, threads, false, Int8Array);
  }

  /** DTZ of every position of a batch (Int16Array; SYZYGY_DTZ_NONE where unanswerable). */
  probeDtzBatch(positions: BigUint64Array | PositionBatch, out?: Int16Array, threads?: number): Int16Array {
    return this.probeBatch('probeDtzBatch', positions, out, threads, true, Int16Array);
  }

  /**
   * probeWdlBatch off the main thread (native: the positions are copied first, so the caller's
   * arrays may change or be transferred meanwhile; JS: on the main thread in slices of 1000
   * positions, yielding to the event loop between them). Resolves to a new Int8Array.
   */
  async probeWdlBatchAsync(positions: BigUint64Array | PositionBatch, threads?: number): Promise<Int8Array> {
    return this.runBatchAsync('probeWdlBatchAsync', positions, false, threads) as Promise<Int8Array>;
  }

  /** probeDtzBatch off the main thread (see probeWdlBatchAsync). Resolves to a new Int16Array. */
  async probeDtzBatchAsync(positions: BigUint64Array | PositionBatch, threads?: number): Promise<Int16Array> {
    return this.runBatchAsync('probeDtzBatchAsync', positions, true, threads) as Promise<Int16Array>;
  }

  private async runBatchAsync(fn: string, positions: BigUint64Array | PositionBatch, dtz: boolean, threads?: number): Promise<Int8Array | Int16Array> {
    const { words, valid, n } = this.batchInput(fn, positions);
    if (threads !== undefined) checkThreads(fn, 'threads', threads, 1024);
    if (this.native) {
      const { api, handle } = this.native;
      try {
        return await api.syzygyProbeBatchAsync(handle, words, dtz, valid, threads ?? 0);
      } catch (e) {
        return nativeCall(() => { throw e; });
      }
    }
    const ownWords = words.slice(0, n * PACKED_POSITION_WORDS), ownValid = valid ? valid.slice(0, n) : null;
    const out = dtz ? new Int16Array(n) : new Int8Array(n);
    for (let from = 0; from < n; from += 1000) {
      const to = Math.min(n, from + 1000);
      if (this.closed) throw new Error(`SyzygyTablebase.${fn}: the tablebase was closed during the batch`);
      probeBatch(this.prober, ownWords.subarray(from * PACKED_POSITION_WORDS, to * PACKED_POSITION_WORDS), dtz ? 'dtz' : 'wdl',
        out.subarray(from, to), ownValid ? ownValid.subarray(from, to) : null);
      await new Promise<void>((resolve) => { setImmediate(resolve); });
    }
    return out;
  }

  /** probeWdlBatch and probeDtzBatch: checks the input and the output array, then probes. */
  private probeBatch<T extends Int8Array | Int16Array>(fn: string, positions: BigUint64Array | PositionBatch,
    out: T | undefined, threads: number | undefined, dtz: boolean, Type: { new (n: number): T; readonly name: string }): T {
    const { words, valid, n } = this.batchInput(fn, positions);
    const result = out ?? new Type(n);
    if (!(result instanceof Type) || result.length !== n) throw new TypeError(`${fn}: out must be an ${Type.name} of ${n} elements`);
    this.runBatch(fn, words, dtz, result, valid, threads);
    return result;
  }

  private batchInput(fn: string, positions: BigUint64Array | PositionBatch): { words: BigUint64Array; valid: Uint8Array | null; n: number } {
    if (this.closed) throw new Error(`SyzygyTablebase.${fn}: the tablebase is closed`);
    if (isPositionBatch(positions)) return { words: positions.words, valid: positions.valid, n: positions.length };
    if (!(positions instanceof BigUint64Array)) throw new TypeError(`${fn}: positions must be a BigUint64Array or a PositionBatch`);
    if (positions.length % PACKED_POSITION_WORDS !== 0) {
      throw new RangeError(`${fn}: positions length ${positions.length} is not a multiple of ${PACKED_POSITION_WORDS}`);
    }
    return { words: positions, valid: null, n: positions.length / PACKED_POSITION_WORDS };
  }

  private runBatch(fn: string, words: BigUint64Array, dtz: boolean, out: Int8Array | Int16Array, valid: Uint8Array | null, threads?: number): void {
    if (threads !== undefined) checkThreads(fn, 'threads', threads, 1024);
    if (this.native) {
      const { api, handle } = this.native;
      nativeCall(() => api.syzygyProbeBatch(handle, words, dtz, out, valid, threads ?? 0));
      return;
    }
    probeBatch(this.prober, words, dtz ? 'dtz' : 'wdl', out, valid);
  }

  /** Releases the files (unmaps them natively). Probing afterwards is an error. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.native) this.native.api.syzygyClose(this.native.handle);
    this.native = null;
    for (const t of [...this.set.wdl.values(), ...this.set.dtz.values()]) t.data = null;
  }
}
