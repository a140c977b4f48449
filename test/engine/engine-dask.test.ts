/**
 * The engine on more than one machine: examples/dask_map.py maps `annotate` (one engine pool per
 * task, one task per worker) over parts of a generated corpus on Dask.distributed, a real scheduler
 * and two worker processes over TCP on localhost; in deterministic mode (--fresh, a node limit) the
 * joined output must equal `annotate` of the whole file on one machine, byte for byte. Skipped, with
 * a message, where Python's `distributed` or Stockfish is missing; with
 * BITBOARD_PATTERNS_REQUIRE_DASK=1 / BITBOARD_PATTERNS_REQUIRE_STOCKFISH=1 (CI sets both) that is a
 * failure instead. Needs dist/ (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSanApi } from '../../lib/games/san.js';
import { parsePgn } from '../../lib/games/pgn.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi } from '../support/backends.js';
import { haveStockfish, requireStockfish } from '../support/stockfish.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const job = join(root, 'examples', 'dask_map.py');
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import distributed'], { encoding: 'utf8' }).status === 0);
if (python === undefined) console.warn('engine-dask.test.ts skipped: python3 cannot import distributed (apt-get install python3-distributed)');
const dir = mkdtempSync(join(tmpdir(), 'engine-dask-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf((python === undefined && process.env.BITBOARD_PATTERNS_REQUIRE_DASK === '1') || (!haveStockfish && requireStockfish))('Dask and Stockfish required', () => {
  it('python3 imports distributed and Stockfish is installed', () => {
    expect.fail('needs python3-distributed and stockfish (apt-get install -y python3-distributed stockfish)');
  });
});

describe.skipIf(python === undefined || !haveStockfish)('examples/dask_map.py: annotate as the map step', () => {
  it('the joined output of 3 parts on two workers equals annotate of the whole file', () => {
    const text = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 6, seed: 45, maxPlies: 16 });
    const pgn = join(dir, 'all.pgn');
    writeFileSync(pgn, text);
    const command = ['annotate', '--engine-nodes', '300', '--fresh', '--engines', '1', '--no-progress'];
    const whole = spawnSync(process.execPath, [cli, ...command, pgn], { encoding: 'utf8' });
    expect(whole.status, whole.stderr).toBe(0);
    const r = spawnSync(python!, [job, pgn, '--out', join(dir, 'joined.pgn'), '--parts', '3', '--workers', '2', '--work-dir', join(dir, 'work'),
      '--cli', `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`, '--', ...command], { encoding: 'utf8', timeout: 180_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ parts: 3, workers: 2 });
    const joined = readFileSync(join(dir, 'joined.pgn'), 'utf8');
    expect(joined).toBe(whole.stdout);
    // Every move of every game has its eval (a mated position aside).
    const games = parsePgn(joined, { annotations: true });
    expect(games).toHaveLength(6);
    expect(games.flatMap((g) => g.evals!).filter((e) => e === null).length).toBeLessThanOrEqual(games.length);
  });
});
