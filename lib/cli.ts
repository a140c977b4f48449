#!/usr/bin/env node
/**
 * The `bitboard-patterns` command. Each subcommand lives in lib/cli/<name>.ts and exports
 * `run(args): Promise<number>` (the exit code) plus a one-line `summary` and a `usage` text.
 */
import type { Subcommand } from './cli/subcommand.js';
import { guardStdout } from './cli/output.js';

const subcommands: Record<string, () => Promise<Subcommand>> = {
  analyze: () => import('./cli/analyze.js'),
  perft: async () => (await import('./cli/perft.js')).default,
  kbnk: () => import('./cli/kbnk.js'),
  tb: () => import('./cli/tb.js'),
  show: () => import('./cli/show.js'),
  syzygy: () => import('./cli/syzygy.js'),
  pgn: () => import('./cli/pgn.js'),
  explore: () => import('./cli/explore.js'),
  annotate: () => import('./cli/annotate.js'),
};

function help(): string {
  const lines = Object.keys(subcommands).map((name) => `  bitboard-patterns ${name} ...`);
  return ['usage:', ...lines, '  bitboard-patterns help <subcommand>   (or: bitboard-patterns <subcommand> --help)',
    '', 'docs/cli.md describes every subcommand.'].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    guardStdout();
    const about = rest[0] !== undefined ? subcommands[rest[0]] : undefined;
    process.stdout.write(`${about ? (await about()).usage : help()}\n`);
    return 0;
  }
  const load = subcommands[name];
  if (!load) {
    process.stderr.write(`bitboard-patterns: unknown subcommand ${JSON.stringify(name)}\n${help()}\n`);
    return 2;
  }
  const sub = await load();
  if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
    guardStdout();
    process.stdout.write(`${sub.usage}\n`);
    return 0;
  }
  // Only for the commands that write through process.stdout: making the stream costs a few
  // milliseconds at start-up, which the others skip.
  if (!sub.writesFd1) guardStdout();
  return sub.run(rest);
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e: unknown) => {
  process.stderr.write(`bitboard-patterns: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
