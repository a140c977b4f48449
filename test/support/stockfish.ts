/**
 * Stockfish for the tests that use it as a live oracle: where it is, whether it is there, and the
 * rule that it must be when BITBOARD_PATTERNS_REQUIRE_STOCKFISH=1 (CI installs it).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const STOCKFISH = '/usr/games/stockfish';
export const haveStockfish = existsSync(STOCKFISH);
export const requireStockfish = process.env.BITBOARD_PATTERNS_REQUIRE_STOCKFISH === '1';

/**
 * Stockfish driven by hand, one process: `run(commands, until)` writes the commands and resolves
 * with the lines printed up to and including the first line starting with `until`.
 */
export function stockfishByHand(): { run(commands: string[], until: string): Promise<string[]>; quit(): Promise<void> } {
  const child = spawn(STOCKFISH, [], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  let lines: string[] = [];
  let waiting: { until: string; resolve(l: string[]): void } | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (s: string) => {
    buffer += s;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      if (waiting && line.startsWith(waiting.until)) {
        const w = waiting;
        waiting = undefined;
        const got = lines;
        lines = [];
        w.resolve(got);
      }
    }
  });
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  return {
    run(commands, until) {
      return new Promise((resolve) => {
        waiting = { until, resolve };
        child.stdin.write(`${commands.join('\n')}\n`);
      });
    },
    async quit() {
      child.stdin.end('quit\n');
      await closed;
    },
  };
}

/** One position's answer from Stockfish by hand: the last exact score from White's view, best move, PV. */
export interface HandSearch { cp: number | null; mate: number | null; best: string | null; pv: string | null }

/**
 * Each FEN searched by hand in deterministic mode: Threads 1, then per position ucinewgame, isready,
 * position fen, go nodes. The score is turned to White's view as the package reports it.
 */
export async function searchByHand(fens: string[], nodes: number): Promise<HandSearch[]> {
  const sf = stockfishByHand();
  await sf.run(['uci'], 'uciok');
  await sf.run(['setoption name Threads value 1', 'isready'], 'readyok');
  const out: HandSearch[] = [];
  for (const fen of fens) {
    await sf.run(['ucinewgame', 'isready'], 'readyok');
    const lines = await sf.run([`position fen ${fen}`, `go nodes ${nodes}`], 'bestmove');
    const last = lines.filter((l) => l.startsWith('info') && / score /.test(l) && !/bound/.test(l)).at(-1)!;
    const [, kind, v] = / score (cp|mate) (-?\d+)/.exec(last)!;
    const n = Number(v) * (fen.split(' ')[1] === 'b' ? -1 : 1) || 0;
    // A mated or stalemated position has no move and no PV.
    const best = /^bestmove (\S+)/.exec(lines.at(-1)!)?.[1] ?? null;
    const pv = / pv (.*)$/.exec(last)?.[1] ?? null;
    out.push({ cp: kind === 'cp' ? n : null, mate: kind === 'mate' ? n : null, best: best === '(none)' ? null : best, pv });
  }
  await sf.quit();
  return out;
}
