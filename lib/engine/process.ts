/**
 * One UCI engine process: start and handshake (`uci` / `uciok`, `setoption`, `isready` / `readyok`),
 * one search at a time, and the faults that end it (the process exits, misses a deadline, or prints
 * something that is not UCI). A fault rejects the operation under way with an EngineError and kills
 * the process; the pool replaces it.
 *
 * Every process started here is in LIVE until it exits, and killed when Node exits or is stopped by
 * SIGINT / SIGTERM, so none outlives its program.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ProblemError } from '../core/coded-error.js';
import { isUciLine, parseInfo, whiteScore, type EngineAnalysis, type EngineLine, type InfoLine } from './uci.js';

export type EngineProblem = 'missing' | 'start' | 'exited' | 'timeout' | 'protocol' | 'closed' | 'failed';

/** A UCI engine could not be started or could not answer (`problem` says why). */
export class EngineError extends ProblemError<EngineProblem> {
  override readonly name = 'EngineError';
}

const LIVE = new Set<ChildProcessWithoutNullStreams>();
let hooked = false;

function killAll(): void {
  for (const c of LIVE) {
    try { c.kill('SIGKILL'); } catch { /* already gone */ }
  }
  LIVE.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  // Nobody else listens: do what Node does without a listener (end with the signal).
  if (process.listenerCount(signal) === 1) {
    process.removeListener(signal, onSignal);
    process.kill(process.pid, signal);
  }
}

/** Installs, once, the hooks that end every engine with the program. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** The number of engine processes alive in this program (for tests and diagnostics). */
export function liveEngines(): number {
  return LIVE.size;
}

export interface SearchRequest { fen: string; blackToMove: boolean; chess960: boolean; go: string; multiPv: number; timeoutMs: number }

/** A PV as the answer gives it: the score and win/draw/loss from White's view. */
function lineOf(i: InfoLine, blackToMove: boolean): EngineLine {
  const line: EngineLine = {
    score: whiteScore(i.score, blackToMove), bestMove: i.pv[0] ?? null, pv: i.pv, depth: i.depth, seldepth: i.seldepth, nodes: i.nodes,
  };
  if (i.wdl) line.wdl = blackToMove ? [i.wdl[2], i.wdl[1], i.wdl[0]] : i.wdl;
  return line;
}

export class EngineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The options the engine offers (from its `option name ...` lines). */
  readonly offered = new Set<string>();
  #buffer = '';
  #handler: ((line: string) => void) | undefined;
  #fail: ((e: EngineError) => void) | undefined;
  /** The deadline of the wait under way: one timer per process, restarted for each wait. */
  #timer: NodeJS.Timeout | undefined;
  #timerMs = 0;
  #waitingFor = '';
  #dead: EngineError | undefined;
  #handshaken = false;
  #chess960 = false;
  #multiPv = 1;
  /** The request whose `position` and `go` went out early (presend), not yet searched by #go. */
  #sent: SearchRequest | undefined;
  /**
   * Called when a search's `bestmove` arrives, before its answer is read: the pool's chance to send
   * the next request at once (presend), so the engine searches while the answer is read here.
   */
  onBestMove: (() => void) | undefined;
  readonly exited: Promise<void>;

  private constructor(readonly command: string, args: string[]) {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    hookExit();
    LIVE.add(child);
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.on('error', (e: NodeJS.ErrnoException) => {
      this.#die(new EngineError(e.code === 'ENOENT' ? 'missing' : 'start', `cannot start the engine ${command}: ${e.message}`));
    });
    child.once('exit', (code, signal) => {
      LIVE.delete(child);
      this.#die(new EngineError('exited', `the engine ${command} exited (${signal ?? `code ${code}`})`));
    });
    child.stdin.on('error', () => { /* the exit reports it */ });
    child.stderr.resume();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      const text = this.#buffer === '' ? s : this.#buffer + s;
      let start = 0;
      let nl: number;
      while ((nl = text.indexOf('\n', start)) >= 0) {
        // A line ends with LF, or CR LF.
        const line = text.slice(start, nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
        start = nl + 1;
        if (this.#dead) break;
        if (this.#handshaken && !isUciLine(line)) {
          this.#die(new EngineError('protocol', `the engine ${command} wrote a line that is not UCI: ${JSON.stringify(line.slice(0, 80))}`));
          break;
        }
        this.#handler?.(line);
      }
      this.#buffer = start === 0 ? text : text.slice(start);
    });
  }

  /** Starts the engine and completes the handshake with `options` (setoption name ... value ...). */
  static async start(command: string, args: string[], options: Record<string, string | number | boolean>, timeoutMs: number): Promise<EngineProcess> {
    const e = new EngineProcess(command, args);
    try {
      e.#send('uci');
      await e.#until((line) => {
        const m = /^option\s+name\s+(.+?)\s+type\s/.exec(line.trim());
        if (m) e.offered.add(m[1]!);
        return line.trim() === 'uciok';
      }, timeoutMs, 'uciok');
      e.#handshaken = true;
      for (const [name, value] of Object.entries(options)) e.#send(`setoption name ${name} value ${value}`);
      // Win/draw/loss figures for each answer, unless the caller set the option itself.
      if (e.offered.has('UCI_ShowWDL') && !Object.hasOwn(options, 'UCI_ShowWDL')) e.#send('setoption name UCI_ShowWDL value true');
      await e.ready(timeoutMs);
    } catch (err) {
      e.kill();
      throw err;
    }
    return e;
  }

  get dead(): boolean {
    return this.#dead !== undefined;
  }

  #die(error: EngineError): void {
    if (this.#dead) return;
    this.#dead = error;
    this.kill();
    const fail = this.#fail;
    this.#fail = undefined;
    this.#handler = undefined;
    fail?.(error);
  }

  #send(text: string): void {
    if (this.#dead) return;
    this.child.stdin.write(`${text}\n`);
  }

  /**
   * Starts the deadline of a wait: the process's one timer, restarted (or made anew when the
   * duration changes). It stays armed after the wait and does nothing when it fires with no wait
   * under way.
   */
  #arm(timeoutMs: number, what: string): void {
    this.#waitingFor = what;
    if (this.#timer !== undefined && this.#timerMs === timeoutMs) {
      this.#timer.refresh();
      return;
    }
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerMs = timeoutMs;
    this.#timer = setTimeout(this.#expire, timeoutMs);
  }

  readonly #expire = (): void => {
    if (this.#fail === undefined) return;
    this.#die(new EngineError('timeout', `the engine ${this.command} did not answer ${this.#waitingFor} within ${this.#timerMs} ms`));
  };

  /** Lines go to `take` until it returns true; a fault or the deadline rejects. */
  #until(take: (line: string) => boolean, timeoutMs: number, what: string): Promise<void> {
    if (this.#dead) return Promise.reject(this.#dead);
    return new Promise((resolve, reject) => {
      this.#arm(timeoutMs, what);
      this.#fail = reject;
      this.#handler = (line) => {
        let done: boolean;
        try {
          done = take(line);
        } catch (e) {
          this.#die(new EngineError('protocol', `the engine ${this.command} wrote a line the pool cannot read: ${(e as Error).message}`));
          return;
        }
        if (done) {
          this.#handler = undefined;
          this.#fail = undefined;
          resolve();
        }
      };
    });
  }

  /** `isready` / `readyok`. */
  ready(timeoutMs: number): Promise<void> {
    this.#send('isready');
    return this.#until((line) => line.trim() === 'readyok', timeoutMs, 'isready');
  }

  /** One search (after `ucinewgame` and `isready` when `fresh`); the answer from White's view. */
  search(r: SearchRequest, fresh: boolean): Promise<EngineAnalysis> {
    if (fresh) return this.#freshSearch(r);
    try {
      return this.#go(r);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async #freshSearch(r: SearchRequest): Promise<EngineAnalysis> {
    this.#send('ucinewgame');
    await this.ready(r.timeoutMs);
    return this.#go(r);
  }

  /** `position fen` and `go`, with the `setoption`s the request changes, in one write. */
  #write(r: SearchRequest): void {
    let head = '';
    if (r.chess960 !== this.#chess960 && this.offered.has('UCI_Chess960')) {
      head += `setoption name UCI_Chess960 value ${r.chess960}\n`;
      this.#chess960 = r.chess960;
    } else if (r.chess960 && !this.offered.has('UCI_Chess960')) {
      throw new EngineError('failed', `the engine ${this.command} does not offer UCI_Chess960`);
    }
    if (r.multiPv !== this.#multiPv) {
      head += `setoption name MultiPV value ${r.multiPv}\n`;
      this.#multiPv = r.multiPv;
    }
    this.#send(`${head}position fen ${r.fen}\n${r.go}`);
  }

  /**
   * Sends the next search's `position` and `go` now, while no search is under way (from
   * onBestMove); the `search` of the same request then only waits for its answer. False when the
   * request cannot go early (fresh mode, a dead engine, or an option the engine lacks): its
   * `search` then does all the work.
   */
  presend(r: SearchRequest, fresh: boolean): boolean {
    if (fresh || this.#dead || this.#sent !== undefined || this.#handler !== undefined) return false;
    try {
      this.#write(r);
    } catch {
      return false;
    }
    this.#sent = r;
    return true;
  }

  /**
   * `position fen` and `go` (with the `setoption`s the request changes, in one write); the answer
   * is made when `bestmove` arrives, from the last `info` line of each PV with an exact score
   * (lines with a bound are aspiration-window failures).
   */
  #go(r: SearchRequest): Promise<EngineAnalysis> {
    if (this.#sent === r) this.#sent = undefined;
    else this.#write(r);
    if (this.#dead) return Promise.reject(this.#dead);
    return new Promise((resolve, reject) => {
      this.#arm(r.timeoutMs, r.go);
      this.#fail = reject;
      // With one PV the last score line is the answer; with more, the last of each PV by number.
      let last: string | undefined;
      const raw = r.multiPv === 1 ? undefined : new Map<number, string>();
      this.#handler = (line) => {
        if (line.startsWith('info ')) {
          if (line.includes(' score ') && !line.includes('bound')) {
            if (raw) raw.set(Number(/ multipv (\d+)/.exec(line)?.[1] ?? 1), line);
            else last = line;
          }
          return;
        }
        if (!line.startsWith('bestmove')) return;
        this.#handler = undefined;
        this.#fail = undefined;
        this.onBestMove?.();
        const move = line.trim().split(/\s+/)[1];
        const best = move === undefined || move === '(none)' || move === '0000' ? null : move;
        let a: EngineAnalysis;
        try {
          a = raw ? this.#answer(r, raw, best) : this.#answerOne(r, last, best);
        } catch (e) {
          reject(e);
          return;
        }
        resolve(a);
      };
    });
  }

  /** The answer from the score lines of each PV (numbered) and the `bestmove`. */
  #answer(r: SearchRequest, raw: Map<number, string>, best: string | null): EngineAnalysis {
    const last = new Map<number, InfoLine>();
    for (const [k, line] of raw) {
      const info = parseInfo(line);
      if (info) last.set(k, info);
    }
    const lines = [...last.keys()].sort((a, b) => a - b).map((k) => lineOf(last.get(k)!, r.blackToMove));
    if (!lines.length) throw new EngineError('protocol', `the engine ${this.command} answered ${r.go} without a score`);
    const top = lines[0]!;
    return { ...top, bestMove: best ?? top.bestMove, lines };
  }

  /** #answer for one PV: its last score line (if any) and the `bestmove`. */
  #answerOne(r: SearchRequest, last: string | undefined, best: string | null): EngineAnalysis {
    const info = last === undefined ? null : parseInfo(last);
    if (!info) throw new EngineError('protocol', `the engine ${this.command} answered ${r.go} without a score`);
    const top = lineOf(info, r.blackToMove);
    return { ...top, bestMove: best ?? top.bestMove, lines: [top] };
  }

  kill(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.child.exitCode === null && this.child.signalCode === null) {
      try { this.child.kill('SIGKILL'); } catch { /* already gone */ }
    }
  }
}
