/**
 * EnginePool: several UCI engine processes answering positions, every engine busy, answers in input
 * order, a fault costing one retry on a new process and never a lost or duplicated answer, repeated
 * positions searched once (a cache by Polyglot key, the package's polyglotKey).
 */
import { accessSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Position } from '../core/types.js';
import { isPosition, toFen } from '../core/position.js';
import { polyglotKey } from '../backends/js/polyglot.js';
import { EngineError, EngineProcess } from './process.js';
import { checkLimit, type CheckedLimit, type EngineAnalysis, type EngineLimit } from './uci.js';

export interface EnginePoolOptions {
  /** The engine's program (default: `stockfish` on PATH, then /usr/games/stockfish). */
  command?: string;
  args?: string[];
  /** How many engine processes (default: os.availableParallelism()). */
  engines?: number;
  /** UCI options set after the handshake, such as `{ Hash: 16, Threads: 1 }`. */
  options?: Record<string, string | number | boolean>;
  /** The deadline of one search (a `movetime` limit is added to it); default 30000. */
  timeoutMs?: number;
  /** The deadline of starting an engine and its handshake; default 30000. */
  startTimeoutMs?: number;
  /**
   * Deterministic mode: Threads=1 and, before each search, `ucinewgame` and `isready`, so with a
   * node or depth limit the answer equals Stockfish driven by hand with the same commands.
   */
  fresh?: boolean;
  /** The most answers the cache keeps (default 100000; 0 turns it off). */
  cacheSize?: number;
}

export interface EnginePoolStats {
  /** Searches an engine ran to the end. */
  searches: number;
  /** Answers the cache gave (a finished search, or one under way for the same key). */
  cacheHits: number;
  cacheMisses: number;
  /** cacheHits / (cacheHits + cacheMisses), 0 before the first request. */
  hitRate: number;
  /** Engine processes replaced after a fault. */
  restarts: number;
  /** Positions searched a second time after a fault. */
  retries: number;
  /** Positions answered with an error. */
  errors: number;
}

/** An answer of analyseAll: the analysis, or `{ error }` for a position that could not be analysed. */
export type EngineResult = EngineAnalysis | { error: Error };

interface Job {
  fen: string;
  blackToMove: boolean;
  chess960: boolean;
  go: string;
  multiPv: number;
  timeoutMs: number;
  attempts: number;
  signal?: AbortSignal;
  resolve(a: EngineAnalysis): void;
  reject(e: unknown): void;
}

interface Slot {
  engine?: EngineProcess;
  busy: boolean;
  dead?: EngineError;
  /** The job taken from the queue and sent early to this slot's engine (presend), searched next. */
  pre?: Job;
}

const DEFAULT_TIMEOUT = 30_000;

/** The program to run: the one given, else `stockfish` on PATH, else /usr/games/stockfish. */
export function findEngine(command?: string): string {
  if (command !== undefined) {
    if (typeof command !== 'string' || command === '') throw new TypeError('EnginePool.start: command must be a non-empty string');
    return command;
  }
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const candidate of [...dirs.map((d) => join(d, 'stockfish')), '/usr/games/stockfish']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch { /* next */ }
  }
  throw new EngineError('missing', `EnginePool.start: no UCI engine found: tried stockfish on PATH (${dirs.join(delimiter)}) and /usr/games/stockfish; give { command }`);
}

function positiveInt(name: string, v: unknown, max: number): number {
  if (typeof v !== 'number') throw new TypeError(`EnginePool.start: ${name} must be a number`);
  if (!Number.isInteger(v) || v < 1 || v > max) throw new RangeError(`EnginePool.start: ${name} must be an integer 1..${max}, got ${v}`);
  return v;
}

/** The iterable when it has no async iterator (for await would read it as a plain iterable). */
function syncIterable<T>(x: Iterable<T> | AsyncIterable<T>): Iterable<T> | undefined {
  if (x === null || x === undefined) return undefined;
  const o = x as Partial<Iterable<T> & AsyncIterable<T>>;
  return typeof o[Symbol.asyncIterator] !== 'function' && typeof o[Symbol.iterator] === 'function' ? (x as Iterable<T>) : undefined;
}

/** A position that could not be analysed, as analyseAll yields it. */
function asResult(error: unknown): EngineResult {
  return { error: error as Error };
}

function isThenable(x: unknown): x is PromiseLike<Position> {
  return x !== null && (typeof x === 'object' || typeof x === 'function') && typeof (x as { then?: unknown }).then === 'function';
}

export class EnginePool {
  readonly command: string;
  readonly #args: string[];
  readonly #options: Record<string, string | number | boolean>;
  readonly #timeoutMs: number;
  readonly #startTimeoutMs: number;
  readonly #fresh: boolean;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  readonly #cache = new Map<string, EngineAnalysis>();
  readonly #pending = new Map<string, Promise<EngineAnalysis>>();
  readonly #cacheSize: number;
  readonly #restarting = new Set<Promise<void>>();
  #closed = false;
  #stats = { searches: 0, cacheHits: 0, cacheMisses: 0, restarts: 0, retries: 0, errors: 0 };

  private constructor(command: string, o: EnginePoolOptions, engines: number) {
    this.command = command;
    this.#args = o.args ?? [];
    this.#timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT;
    this.#startTimeoutMs = o.startTimeoutMs ?? DEFAULT_TIMEOUT;
    this.#fresh = o.fresh === true;
    this.#options = { ...(o.options ?? {}) };
    if (this.#fresh) {
      const threads = this.#options.Threads;
      if (threads !== undefined && Number(threads) !== 1) throw new RangeError('EnginePool.start: { fresh: true } searches with Threads=1');
      this.#options = { Threads: 1, ...this.#options };
    }
    this.#cacheSize = o.cacheSize ?? 100_000;
    for (let i = 0; i < engines; i++) this.#slots.push({ busy: false });
  }

  /** Starts the engines and completes each one's UCI handshake; rejects (and ends them all) if one fails. */
  static async start(options: EnginePoolOptions = {}): Promise<EnginePool> {
    if (typeof options !== 'object' || options === null) throw new TypeError('EnginePool.start: options must be an object');
    const engines = options.engines === undefined ? availableParallelism() : positiveInt('engines', options.engines, 1024);
    if (options.timeoutMs !== undefined) positiveInt('timeoutMs', options.timeoutMs, 2 ** 31 - 1);
    if (options.startTimeoutMs !== undefined) positiveInt('startTimeoutMs', options.startTimeoutMs, 2 ** 31 - 1);
    if (options.cacheSize !== undefined && (typeof options.cacheSize !== 'number' || !Number.isInteger(options.cacheSize) || options.cacheSize < 0)) {
      throw new RangeError('EnginePool.start: cacheSize must be an integer >= 0');
    }
    if (options.args !== undefined && (!Array.isArray(options.args) || options.args.some((a) => typeof a !== 'string'))) {
      throw new TypeError('EnginePool.start: args must be an array of strings');
    }
    if (options.options !== undefined && (typeof options.options !== 'object' || options.options === null)) {
      throw new TypeError('EnginePool.start: options.options must be an object of UCI option values');
    }
    const pool = new EnginePool(findEngine(options.command), options, engines);
    const started = await Promise.allSettled(pool.#slots.map(() => pool.#spawn()));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      for (const s of started) if (s.status === 'fulfilled') s.value.kill();
      throw (failed as PromiseRejectedResult).reason;
    }
    started.forEach((s, i) => { pool.#slots[i]!.engine = (s as PromiseFulfilledResult<EngineProcess>).value; });
    return pool;
  }

  #spawn(): Promise<EngineProcess> {
    return EngineProcess.start(this.command, this.#args, this.#options, this.#startTimeoutMs);
  }

  /** The number of engine processes. */
  get engines(): number {
    return this.#slots.length;
  }

  /** The process ids of the engines running now. */
  get pids(): number[] {
    return this.#slots.flatMap((s) => (s.engine && !s.engine.dead && s.engine.child.pid !== undefined ? [s.engine.child.pid] : []));
  }

  get stats(): EnginePoolStats {
    const s = this.#stats;
    const asked = s.cacheHits + s.cacheMisses;
    return { ...s, hitRate: asked ? s.cacheHits / asked : 0 };
  }

  /**
   * The analysis of one position (a Position from parseFen / createPosition). Scores are from
   * White's view; a Chess960 position is searched with UCI_Chess960 and its moves are the king
   * taking its rook, as the package writes them. Rejects with an EngineError when the position could
   * not be analysed (after one retry on a new engine process).
   */
  analyse(pos: Position, limit: EngineLimit, signal?: AbortSignal): Promise<EngineAnalysis> {
    try {
      if (!isPosition(pos)) throw new TypeError('EnginePool.analyse: pos must be a Position (parseFen, createPosition)');
      return this.#analyse(pos, checkLimit('EnginePool.analyse', limit), signal);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** analyse with the limit checked (analyseAll checks it once for every position). */
  #analyse(pos: Position, l: CheckedLimit, signal: AbortSignal | undefined): Promise<EngineAnalysis> {
    try {
      if (!isPosition(pos)) throw new TypeError('EnginePool.analyse: pos must be a Position (parseFen, createPosition)');
      if (this.#closed) throw new EngineError('closed', 'EnginePool.analyse: the pool is closed');
      const fen = toFen(pos, { shredder: pos.chess960 });
      // The Polyglot key names the pieces, side, castling rights and en passant; the halfmove clock
      // (the fifty-move rule) and the kind of chess change a search too.
      const job = (): Promise<EngineAnalysis> => new Promise<EngineAnalysis>((resolve, reject) => {
        signal?.throwIfAborted();
        this.#queue.push({
          fen, blackToMove: pos.sideToMove === 1, chess960: pos.chess960, go: l.go, multiPv: l.multiPv,
          timeoutMs: this.#timeoutMs + l.movetime, attempts: 0, signal, resolve, reject,
        });
        this.#dispatch();
      });
      if (this.#cacheSize === 0) {
        this.#stats.cacheMisses++;
        return job();
      }
      const key = `${polyglotKey(pos).toString(16)}/${pos.halfmoveClock}/${pos.chess960 ? 1 : 0}/${l.key}`;
      const hit = this.#cache.get(key);
      if (hit) {
        this.#stats.cacheHits++;
        this.#cache.delete(key);
        this.#cache.set(key, hit); // most recently used last
        return Promise.resolve(hit);
      }
      const under = this.#pending.get(key);
      if (under) {
        this.#stats.cacheHits++;
        return under;
      }
      this.#stats.cacheMisses++;
      const p = job();
      this.#pending.set(key, p);
      p.then((a) => {
        this.#pending.delete(key);
        this.#cache.set(key, a);
        if (this.#cache.size > this.#cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
      }, () => this.#pending.delete(key));
      return p;
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * The analyses of `positions` (an iterable or async iterable of Positions) in their order: at most
   * two positions per engine are under way, and the next is read only when the consumer asks for
   * answers (backpressure). A position that could not be analysed yields `{ error }` in its place.
   * An aborted `signal` drops the positions not yet started and ends the iteration by throwing the
   * signal's reason; leaving the loop early (break) drops them too.
   */
  async *analyseAll(positions: Iterable<Position> | AsyncIterable<Position>, limit: EngineLimit, options: { signal?: AbortSignal } = {}): AsyncGenerator<EngineResult> {
    const l = checkLimit('EnginePool.analyseAll', limit);
    const { own, signal } = this.#iterationSignal(options.signal);
    const window: Promise<EngineResult>[] = [];
    const max = 2 * this.#slots.length;
    /** Starts one position; true when the window is full (its first answer is then awaited). */
    const start = (pos: Position): boolean => {
      options.signal?.throwIfAborted();
      window.push(this.#analyse(pos, l, signal).then(undefined, asResult));
      return window.length >= max;
    };
    try {
      const sync = syncIterable(positions);
      if (sync) {
        // What for await does with an iterable that is not async, without a promise per item:
        // an item that is a promise (or any thenable) is awaited.
        for (const item of sync) {
          if (start(isThenable(item) ? await item : item)) {
            const r = await window.shift()!;
            options.signal?.throwIfAborted();
            yield r;
          }
        }
      } else {
        for await (const pos of positions) {
          if (start(pos)) {
            const r = await window.shift()!;
            options.signal?.throwIfAborted();
            yield r;
          }
        }
      }
      while (window.length) {
        const r = await window.shift()!;
        options.signal?.throwIfAborted();
        yield r;
      }
    } finally {
      own.abort(new EngineError('closed', 'EnginePool.analyseAll: the iteration ended'));
      this.#dropAborted();
      // Searches under way finish on their own (their limit bounds them); their answers are dropped.
      await Promise.allSettled(window);
    }
  }

  /**
   * The signal of one analyseAll: the caller's (if any) joined with one of its own, ended with the
   * iteration. The positions not yet started are dropped at once when it aborts.
   */
  #iterationSignal(outer: AbortSignal | undefined): { own: AbortController; signal: AbortSignal } {
    const own = new AbortController();
    const signal = outer ? AbortSignal.any([outer, own.signal]) : own.signal;
    signal.addEventListener('abort', () => this.#dropAborted(), { once: true });
    return { own, signal };
  }

  #dropAborted(): void {
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      const j = this.#queue[i]!;
      if (j.signal?.aborted) {
        this.#queue.splice(i, 1);
        j.reject(j.signal.reason);
      }
    }
  }

  /** The first queued job whose signal has not aborted (the aborted ones before it reject). */
  #next(): Job | undefined {
    let job = this.#queue.shift();
    while (job?.signal?.aborted) {
      job.reject(job.signal.reason);
      job = this.#queue.shift();
    }
    return job;
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy || !slot.engine || slot.dead) continue;
      const job = this.#next();
      if (!job) return;
      void this.#run(slot, job);
    }
    if (this.#queue.length && this.#allDead()) {
      const why = this.#slots[0]!.dead!;
      for (const j of this.#queue.splice(0)) { this.#stats.errors++; j.reject(why); }
    }
  }

  #allDead(): boolean {
    for (const s of this.#slots) if (!s.dead) return false;
    return true;
  }

  /**
   * Searches `first` on the slot's engine, then the queued jobs while the slot has a live engine:
   * one loop for as long as the slot is busy.
   */
  async #run(slot: Slot, first: Job): Promise<void> {
    slot.busy = true;
    for (let job: Job | undefined = first; job; job = slot.engine && !slot.dead ? this.#nextFor(slot) : undefined) {
      for (;;) {
        const engine = slot.engine!;
        engine.onBestMove ??= () => this.#presend(slot, engine);
        try {
          const a = await engine.search(job, this.#fresh);
          this.#stats.searches++;
          job.resolve(a);
          break;
        } catch (e) {
          engine.kill();
          job.attempts++;
          if (job.attempts >= 2 || this.#closed) {
            this.#stats.errors++;
            job.reject(e instanceof EngineError ? e : new EngineError('failed', String(e)));
          }
          if (this.#closed) break;
          // The engine is replaced; the position is searched once more, on the new process.
          slot.engine = undefined;
          this.#stats.restarts++;
          try {
            const restart = this.#spawn();
            const tracked = restart.then(() => undefined, () => undefined);
            this.#restarting.add(tracked);
            slot.engine = await restart;
            this.#restarting.delete(tracked);
            if (this.#closed) {
              slot.engine.kill();
              if (job.attempts < 2) job.reject(new EngineError('closed', 'EnginePool: closed before this position was searched again'));
              break;
            }
          } catch (err) {
            slot.dead = err instanceof EngineError ? err : new EngineError('start', String(err));
            if (job.attempts < 2) { this.#stats.errors++; job.reject(slot.dead); }
            break;
          }
          if (job.attempts >= 2) break;
          if (job.signal?.aborted) { job.reject(job.signal.reason); break; }
          this.#stats.retries++;
        }
      }
    }
    // A job sent early to an engine that is gone goes back to the front of the queue.
    if (slot.pre) {
      this.#queue.unshift(slot.pre);
      slot.pre = undefined;
    }
    slot.busy = false;
    this.#dispatch();
  }

  /** The slot's next job: the one sent early, else the queue's next. */
  #nextFor(slot: Slot): Job | undefined {
    const pre = slot.pre;
    if (pre === undefined) return this.#next();
    slot.pre = undefined;
    return pre;
  }

  /**
   * When a search's `bestmove` arrives: the next queued job's `position` and `go` are written to the
   * same engine at once, before that answer is read and handed on, so the engine is not idle while
   * the pool works (the job stays this slot's, in `pre`, and is searched next). Not in fresh mode,
   * whose `ucinewgame` / `isready` must be answered first.
   */
  #presend(slot: Slot, engine: EngineProcess): void {
    if (this.#fresh || this.#closed || slot.pre !== undefined || slot.engine !== engine || slot.dead) return;
    const job = this.#next();
    if (job === undefined) return;
    slot.pre = job;
    engine.presend(job, false);
  }

  /** Ends every engine process; searches not yet answered reject with an EngineError ('closed'). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const j of this.#queue.splice(0)) j.reject(new EngineError('closed', 'EnginePool: closed before this position was searched'));
    await Promise.allSettled([...this.#restarting]);
    const exits: Promise<void>[] = [];
    for (const s of this.#slots) {
      if (s.engine) {
        s.engine.kill();
        exits.push(s.engine.exited);
      }
    }
    await Promise.all(exits);
  }
}
