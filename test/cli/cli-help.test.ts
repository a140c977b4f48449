/**
 * The command's help: `bitboard-patterns help <subcommand>`, `<subcommand> --help` and `-h` print
 * the same usage text (exit code 0) for every subcommand the overview lists; an unknown one is exit 2.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.cjs');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

const overview = run();
const names = [...overview.stdout.matchAll(/^ {2}bitboard-patterns (\w+) \.\.\.$/gm)].map((m) => m[1]!);

describe('bitboard-patterns help', () => {
  it('lists the subcommands, each documented in docs/cli.md', async () => {
    expect(overview.status).toBe(0);
    expect(names).toEqual(expect.arrayContaining(['analyze', 'perft', 'kbnk', 'tb', 'show', 'syzygy', 'pgn']));
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
    for (const name of names) expect(doc, name).toContain(`## ${name}`);
  });

  it.each(names)('%s: --help and -h print the usage of help <name>', (name) => {
    const reference = run('help', name);
    expect(reference.status).toBe(0);
    expect(reference.stdout).toMatch(/usage/);
    for (const flag of ['--help', '-h']) {
      const r = run(name, flag);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(reference.stdout);
    }
  });

  it('an unknown subcommand is exit code 2 with the overview', () => {
    const r = run('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown subcommand "frobnicate"');
  });
});
