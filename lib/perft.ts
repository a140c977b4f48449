/**
 * Perft on several threads and off the main thread (the options of `perft`, `perftStats`, and
 * `perftAsync` / `perftStatsAsync` of the API object).
 *
 * Native backend: the tree is split a few plies below the root into at least about two thousand
 * subtrees (more in deep trees, so that none is deeper than 6 plies and a cancel is prompt) that
 * `threads` native threads take in turn (root splitting; perft has no alpha-beta, so the
 * subtrees are independent and the sum is the same for every thread count). perftAsync runs the
 * same work from a libuv worker, so the main thread stays free; an AbortSignal stops it between
 * subtrees and the promise rejects with the signal's reason (an AbortError DOMException unless
 * abort() was given another).
 *
 * JS backend: `threads` is checked and then counted on the calling thread (one core: a worker per
 * thread would have to load the whole backend, and the JS generator's tables, per call). Its
 * perftAsync runs on the main thread one child position (of the root, or of the root's children
 * from depth 5) at a time, yielding to the event loop between them, so the signal is honoured
 * between children.
 */
import { availableParallelism } from 'node:os';
import type { Backend, Position } from './backend.js';
import { PERFT_STATS_COLUMNS } from './backend.js';

/** Largest `threads` accepted. */
export const MAX_PERFT_THREADS = 256;

/** Options of perft and perftStats. */
export interface PerftOptions {
  /** Native threads, an integer 1..256 (default: all cores, os.availableParallelism()). */
  threads?: number;
}

/** Options of perftAsync and perftStatsAsync. */
export interface PerftAsyncOptions extends PerftOptions {
  /** Stops the count: the promise rejects with the signal's reason (an AbortError by default). */
  signal?: AbortSignal;
}

/** All cores, within the bound. */
export function defaultPerftThreads(): number {
  return Math.max(1, Math.min(MAX_PERFT_THREADS, availableParallelism()));
}

/** The thread count of an options object: TypeError for a non-object, RangeError for a bad count. */
export function perftThreads(fn: string, options: unknown): number {
  if (options === undefined) return defaultPerftThreads();
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${fn}: options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  const threads = (options as PerftOptions).threads;
  if (threads === undefined) return defaultPerftThreads();
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > MAX_PERFT_THREADS) {
    throw new RangeError(`${fn}: threads must be an integer 1..${MAX_PERFT_THREADS}, got ${String(threads)}`);
  }
  return threads;
}

export function perftSignal(fn: string, options: unknown): AbortSignal | undefined {
  const signal = (options as PerftAsyncOptions | undefined)?.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError(`${fn}: signal must be an AbortSignal`);
  return signal;
}

/** perft, on `threads` native threads when the backend has them. */
export function perftWith(b: Backend, pos: Position, depth: number, threads: number): number {
  return b.perftThreads && threads > 1 ? b.perftThreads(pos, depth, threads) : b.perft(pos, depth);
}

export function perftStatsWith(b: Backend, pos: Position, depth: number, threads: number, out: Float64Array): void {
  if (b.perftStatsThreads && threads > 1) b.perftStatsThreads(pos, depth, out, threads);
  else b.perftStats(pos, depth, out);
}

const nextTurn = () => new Promise<void>((resolve) => { setImmediate(resolve); });

/**
 * The async count: the native worker when there is one, else child by child on this thread.
 * `children(pos)` lists the positions after each legal move. Resolves with the nine perftStats
 * columns (stats) or [nodes].
 */
export async function perftAsyncWith(b: Backend, pos: Position, depth: number, threads: number, stats: boolean,
  signal: AbortSignal | undefined, children: (pos: Position) => Position[]): Promise<Float64Array> {
  signal?.throwIfAborted();
  if (b.perftAsync) {
    const [promise, cancel] = b.perftAsync(pos, depth, threads, stats);
    const onAbort = () => { cancel(); };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await promise;
      if (result === null) {
        signal?.throwIfAborted();
        throw new Error('perftAsync: cancelled');  // not reached: only the signal cancels
      }
      return typeof result === 'number' ? Float64Array.of(result) : result;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
  const total = new Float64Array(stats ? PERFT_STATS_COLUMNS.length : 1);
  const one = new Float64Array(PERFT_STATS_COLUMNS.length);
  const count = (p: Position, d: number) => {
    if (stats) {
      b.perftStats(p, d, one);
      for (let c = 0; c < one.length; c++) total[c]! += one[c]!;
    } else {
      total[0]! += b.perft(p, d);
    }
  };
  // Units of work: the children (depth 2..4), their children (depth 5 and more).
  let units: Position[] = [pos];
  let below = depth;
  for (let split = depth >= 5 ? 2 : depth >= 2 ? 1 : 0; split > 0; split--) {
    units = units.flatMap(children);
    below--;
  }
  for (const unit of units) {
    await nextTurn();
    signal?.throwIfAborted();
    count(unit, below);
  }
  return total;
}
