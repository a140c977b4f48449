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
