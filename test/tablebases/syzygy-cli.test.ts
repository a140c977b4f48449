/**
 * `bitboard-patterns syzygy probe ...` from dist/ (run `npm run build` first; `npm test` does), in
 * child processes. Truth: python-chess's documented KBNvK example (WDL -2, DTZ -53) and the rules
 * (the line a KQvK win follows must end in checkmate after exactly DTZ plies: DTZ is the distance
 * to mate there, no zeroing move exists before it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/backends/native.js';
import { nativeApi } from '../support/backends.js';

const cli = join(packageRoot, 'dist', 'cli.cjs');
const TABLES = join(packageRoot, 'test', 'fixtures', 'syzygy');

function run(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.BITBOARD_PATTERNS_BACKEND;
  const r = spawnSync(process.execPath, [cli, 'syzygy', ...args], { cwd: packageRoot, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.each(nativeApi ? ['js', 'native'] : ['js'])('bitboard-patterns syzygy probe (--backend %s)', (backend) => {
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  });

  it('prints WDL, DTZ and the best line (python-chess\'s KBNvK example)', () => {
    const r = run('probe', '8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1', '--tb', TABLES, '--backend', backend, '--json', '--max-plies', '4');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ wdl: -2, dtz: -53, result: 'loss', backend });
    expect(out.line).toHaveLength(4);
    expect(out.best).toBe(out.line[0]);
  });

  it('a KQvK win: the line ends in checkmate after DTZ plies', () => {
    const r = run('probe', '8/8/8/8/8/2k5/8/K6Q w - - 0 1', '--tb', TABLES, '--backend', backend);
    expect(r.status).toBe(0);
    const dtz = Number(/^dtz: +(\d+)$/m.exec(r.stdout)![1]);
    const line = /^line: (.*) \(checkmate\)$/m.exec(r.stdout)![1]!.split(' ');
    expect(r.stdout).toMatch(/^wdl: +2 \(win/m);
    expect(Math.abs(line.length - dtz)).toBeLessThanOrEqual(1);
  });

  it('castling rights: exit code 3 and the reason; a bad FEN: exit code 2', () => {
    const r = run('probe', 'r3k3/8/8/8/8/8/8/4K3 b q - 0 1', '--tb', TABLES, '--backend', backend);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('castling');
    expect(run('probe', 'not a fen', '--tb', TABLES).status).toBe(2);
    expect(run('probe', '8/8/8/8/8/2k5/8/K6Q w - - 0 1').status).toBe(2); // no --tb
  });
});
