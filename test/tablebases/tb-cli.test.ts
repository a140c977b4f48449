/**
 * `bitboard-patterns tb ...` from dist/ (run `npm run build` first; `npm test` does), in child processes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/backends/native.js';

const cli = join(packageRoot, 'dist', 'cli.cjs');

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'tb', ...args], { cwd: packageRoot, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('bitboard-patterns tb', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), 'tb-cli-'));
  });
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

  it('generate writes the table (and its sub-endings) and prints the counts per side to move', () => {
    const r = run('generate', 'KRvK', '--metric', 'dtm', '--out', dir, '--with-sub-endings', '--backend', 'js');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // KRK: 399,112 legal positions in all (Thompson / Nalimov statistics), all wins with white to move, longest 16 moves
    expect(r.stdout).toContain('white to move: 175,168 legal, 175,168 wins, 0 draws, 0 losses, longest win 16 moves');
    expect(r.stdout).toContain('black to move: 223,944 legal, 0 wins, 22,244 draws, 201,700 losses');
    expect(readFileSync(join(dir, 'KRvK.bbptb')).subarray(0, 8).toString('latin1')).toBe('BBP-TBGN');
    expect(existsSync(join(dir, 'KvK.bbptb'))).toBe(true);
  });

  it('probe prints WDL, DTM and the best move; --json for machines', () => {
    const fen = 'k7/8/1K6/8/8/8/8/7R w - - 0 1'; // Rh8#
    const table = join(dir, 'KRvK.bbptb');
    expect(run('probe', fen, '--table', table).stdout).toBe('wdl: 2 (win: mates in 1, for the side to move)\ndtm: 1\nbest move: h1h8\n');
    expect(JSON.parse(run('probe', fen, '--table', table, '--json').stdout)).toEqual({ wdl: 2, dtm: 1, bestMove: 'h1h8' });
  });

  it('stats prints the counts per DTM', () => {
    const r = run('stats', join(dir, 'KRvK.bbptb'), '--json');
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.whiteToMove.longestWin).toBe(16);
    expect(s.blackToMove.lossesByDtm.reduce((a: number, b: number) => a + b, 0)).toBe(201700);
  });

  it('--metric dtz: the DTZ table in KRvK.dtz.bbptb, probed with its DTZ sub-tables next to it', () => {
    const r = run('generate', 'KRvK', '--metric', 'dtz', '--out', dir, '--with-sub-endings');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // KRK has no zeroing but the capture of the rook (a draw): plies to zeroing are plies to mate,
    // the longest 16 moves = 31 plies with white to move; the counts are the DTM table's above.
    expect(r.stdout).toContain('white to move: 175,168 legal, 175,168 wins, 0 draws, 0 losses, longest win 31 plies to zeroing');
    const table = join(dir, 'KRvK.dtz.bbptb');
    expect(readFileSync(table).readUInt8(12)).toBe(2);
    expect(run('probe', 'k7/8/1K6/8/8/8/8/7R w - - 0 1', '--table', table).stdout)
      .toBe('wdl: 2 (win: zeroing in 1 ply, for the side to move)\ndtz: 1\nbest move: h1h8\n');
    // Black takes the undefended rook: a draw (the KvK sub-table of the same metric is found next to it).
    expect(JSON.parse(run('probe', '8/8/8/8/8/8/1k6/1R5K b - - 0 1', '--table', table, '--json').stdout))
      .toEqual({ wdl: 0, dtz: 0, bestMove: 'b2b1' });
  });

  it('usage errors exit 2, bad files and FENs exit 1', () => {
    expect(run('generate').status).toBe(2);
    expect(run('generate', 'KQvK', '--metric', 'dtx').status).toBe(2);
    expect(run('frobnicate').status).toBe(2);
    const threads = run('generate', 'KQvK', '--threads', '2x');
    expect(threads.status).toBe(2);
    expect(threads.stderr).toContain('--threads must be an integer 1..1024, got "2x"');
    expect(run('generate', 'KXvK', '--out', dir).status).toBe(1);
    expect(run('stats', join(packageRoot, 'package.json')).status).toBe(1);
    expect(run('probe', 'not a fen', '--table', join(dir, 'KRvK.bbptb')).status).toBe(1);
  });
});
