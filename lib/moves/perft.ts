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
import { types } from 'node:util';
import type { Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { PERFT_STATS_COLUMNS } from '../core/types.js';
import { childrenOf, type PerftStats } from './moves.js';

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

/** What the facade's `perftOptions` / `perftAsyncOptions` checks (lib/api/create-api.ts) make of an options argument. */
export interface CheckedPerftOptions {
  readonly threads: number;
  readonly signal: AbortSignal | undefined;
}

/** All cores, within the bound. */
export function defaultPerftThreads(): number {
  return Math.max(1, Math.min(MAX_PERFT_THREADS, availableParallelism()));
}

// AbortSignal's own accessors and EventTarget's own methods: a checked signal is a real AbortSignal
// (isAbortSignal), and these read its state whatever own properties it was given.
const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get! as (this: AbortSignal) => boolean;
const reasonOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'reason')!.get! as (this: AbortSignal) => unknown;
const addListener = EventTarget.prototype.addEventListener;
const { isProxy } = types;
const removeListener = EventTarget.prototype.removeEventListener;

/**
 * Is `v` an AbortSignal itself: not a Proxy of one, not an object inheriting from one (Node's
 * AbortSignal keeps its state in symbol-keyed properties, which both would pass through), and one
 * whose own `aborted` accessor accepts it.
 */
export function isAbortSignal(v: unknown): v is AbortSignal {
  if (typeof v !== 'object' || v === null || isProxy(v) || Object.getPrototypeOf(v) !== AbortSignal.prototype) return false;
  try {
    abortedOf.call(v as AbortSignal);
    return true;
  } catch {
    return false;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal && abortedOf.call(signal)) throw reasonOf.call(signal);
}

const statsOf = (out: Float64Array): PerftStats =>
  Object.fromEntries(PERFT_STATS_COLUMNS.map((name, i) => [name, out[i]!])) as PerftStats;

/** perft, on `threads` native threads when the backend has them. */
export function perftWith(b: Backend, pos: Position, depth: number, threads: number): number {
  return b.perftThreads && threads > 1 ? b.perftThreads(pos, depth, threads) : b.perft(pos, depth);
}

export function perftStatsWith(b: Backend, pos: Position, depth: number, threads: number, out: Float64Array): void {
  if (b.perftStatsThreads && threads > 1) b.perftStatsThreads(pos, depth, out, threads);
  else b.perftStats(pos, depth, out);
}

export function perftCall(b: Backend, pos: Position, depth: number, options: CheckedPerftOptions): number {
  return perftWith(b, pos, depth, options.threads);
}

export function perftStatsCall(b: Backend, pos: Position, depth: number, options: CheckedPerftOptions): PerftStats {
  const out = new Float64Array(PERFT_STATS_COLUMNS.length);
  perftStatsWith(b, pos, depth, options.threads, out);
  return statsOf(out);
}

export function perftAsyncCall(b: Backend, pos: Position, depth: number, options: CheckedPerftOptions): Promise<number> {
  return perftAsyncWith(b, pos, depth, options.threads, false, options.signal).then((out) => out[0]!);
}

export function perftStatsAsyncCall(b: Backend, pos: Position, depth: number, options: CheckedPerftOptions): Promise<PerftStats> {
  return perftAsyncWith(b, pos, depth, options.threads, true, options.signal).then(statsOf);
}

const nextTurn = () => new Promise<void>((resolve) => { setImmediate(resolve); });

/**
 * The async count: the native work (the addon's async mechanism) when there is one, else child by
 * child on this thread. Resolves with the nine perftStats columns (stats) or [nodes].
 */
export async function perftAsyncWith(b: Backend, pos: Position, depth: number, threads: number, stats: boolean,
  signal: AbortSignal | undefined): Promise<Float64Array> {
  throwIfAborted(signal);
  if (b.perftAsync) {
    // The addon reads this flag on the main thread while its threads count (async_work.h).
    const cancel = new Int32Array(1);
    const onAbort = () => { cancel[0] = 1; };
    if (signal) addListener.call(signal, 'abort', onAbort, { once: true });
    try {
      const result = await b.perftAsync(pos, depth, threads, stats, cancel);
      if (result === null) {
        throwIfAborted(signal);
        throw new Error('perftAsync: cancelled');  // not reached: only the signal cancels
      }
      return result;
    } finally {
      if (signal) removeListener.call(signal, 'abort', onAbort);
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
    units = units.flatMap((p) => childrenOf(b, p));
    below--;
  }
  for (const unit of units) {
    await nextTurn();
    throwIfAborted(signal);
    count(unit, below);
  }
  return total;
}
