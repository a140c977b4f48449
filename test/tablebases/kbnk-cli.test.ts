/**
 * `bitboard-patterns kbnk ...` from dist/ (run `npm run build` first; `npm test` does), in child processes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/backends/native.js';
import { nativeApi } from '../support/backends.js';

const cli = join(packageRoot, 'dist', 'cli.cjs');

function run(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.BITBOARD_PATTERNS_BACKEND;
  const r = spawnSync(process.execPath, [cli, 'kbnk', ...args], { cwd: packageRoot, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const OEIS = '8/8/8/8/8/8/2k5/KNB5 w - - 0 1';

describe('bitboard-patterns kbnk', () => {
  let dir: string;
  let table: string;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), 'kbnk-cli-'));
    table = join(dir, 'kbnk.bin');
  });
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

  it('generate --out writes the table and prints the statistics (no progress bar without a terminal)', () => {
    const r = run('generate', '--out', table, '--backend', 'js');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*kbnk\.bin \(5,242,904 bytes\)/);
    expect(r.stdout).toContain('strong side to move: 10,875,504 legal, 10,822,184 wins, 53,320 draws, longest mate 33 moves (65 plies)');
    expect(r.stdout).toContain('weak side to move:   13,660,584 legal, 11,188,168 losses, 2,472,416 draws, longest mate 33 moves (66 plies)');
    expect(readFileSync(table).subarray(0, 8).toString('latin1')).toBe('BBP-KBNK');
  });

  it.skipIf(!nativeApi)('generate --backend native --threads 2 writes the same file', () => {
    const other = join(dir, 'native.bin');
    const r = run('generate', '--out', other, '--backend', 'native', '--threads', '2');
    expect(r.status, r.stderr).toBe(0);
    expect(Buffer.compare(readFileSync(other), readFileSync(table))).toBe(0);
  });

  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript)('draws a progress bar on stderr when it is a terminal (util-linux script)', () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} kbnk generate --backend js --out ${JSON.stringify(join(dir, 'tty.bin'))}`;
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: packageRoot, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\rgenerating \[#*\.*\] +\d+% step \d+\/\d+/);
    expect(r.stdout).toMatch(/\[#{30}\] 100% step (\d+)\/\1\r?\n/);
  });

  it('probe prints the result, the distance to mate and the best move', () => {
    const r = run('probe', OEIS, '--table', table);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('result: win (for the side to move)\ndtm: mate in 33 (65 plies)\nbest move: c1d2\n');
  });

  it('probe --json, a black-strong position, a draw, a mate', () => {
    const json = (fen: string) => JSON.parse(run('probe', fen, '--table', table, '--json').stdout);
    expect(json('knb5/2K5/8/8/8/8/8/8 b - - 0 1')).toEqual({ result: 'win', dtm: 33, plies: 65, bestMove: 'c8d7' });
    expect(json('8/8/8/3N4/3k4/8/8/4KB2 b - - 0 1')).toEqual({ result: 'draw', dtm: null, plies: null, bestMove: 'd4d5' });
    expect(json('k7/3N4/1K6/8/4B3/8/8/8 b - - 0 1')).toEqual({ result: 'loss', dtm: 0, plies: 0, bestMove: null });
  });

  it('probe without --table generates the table in memory', () => {
    const r = run('probe', OEIS, '--backend', 'js');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('dtm: mate in 33 (65 plies)');
  });

  it('fails clearly: a corrupted table, a bad FEN, a position that is not KBNK, bad usage', () => {
    const bad = join(dir, 'bad.bin');
    const image = readFileSync(table);
    image[1000] ^= 0xff;
    writeFileSync(bad, image);
    let r = run('probe', OEIS, '--table', bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/checksum mismatch.*corrupted/);
    writeFileSync(bad, image.subarray(0, 5000));
    r = run('probe', OEIS, '--table', bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/truncated/);
    r = run('probe', '8/8/8/8/8/8/2k5/KNB5 x - - 0 1', '--table', table);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad FEN sideToMove/);
    r = run('probe', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '--table', table);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/not a KBNK position/);
    for (const args of [['generate'], ['probe'], ['frobnicate'], ['generate', '--out', table, '--threads', 'many'], ['generate', '--out', table, '--backend', 'gpu'], ['probe', OEIS, '--wat']]) {
      r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/usage:/);
    }
  });
});
