/**
 * Scale-out of the opening explorer: examples/dask_explore.py on Dask.distributed (Debian:
 * python3-distributed), a real scheduler and two worker processes over TCP on localhost, runs
 * `explore` on parts of a generated corpus cut at game boundaries and `explore merge` on their
 * Parquet trees; the merged tree must equal `explore` of the whole file on one machine, byte for byte
 * (as NDJSON), and the parts must be the input cut at game starts. Skipped, with a message, where
 * Python's `distributed` cannot be imported; with BITBOARD_PATTERNS_REQUIRE_DASK=1 (CI sets it) that
 * is a failure instead. Needs dist/ (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi } from '../support/backends.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const job = join(root, 'examples', 'dask_explore.py');
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import distributed'], { encoding: 'utf8' }).status === 0);
if (python === undefined) console.warn('explore-dask.test.ts skipped: python3 cannot import distributed (apt-get install python3-distributed)');
const dir = mkdtempSync(join(tmpdir(), 'explore-dask-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(python === undefined && process.env.BITBOARD_PATTERNS_REQUIRE_DASK === '1')('Dask required', () => {
  it('python3 imports distributed (BITBOARD_PATTERNS_REQUIRE_DASK=1)', () => {
    expect.fail('python3 cannot import distributed: apt-get install -y python3-distributed');
  });
});

describe.skipIf(python === undefined)('examples/dask_explore.py: explore as the map, explore merge as the reduce', () => {
  it('the merged tree of 7 parts on two workers over TCP equals the single-machine tree', () => {
    const text = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 150, seed: 21, maxPlies: 60 });
    const pgn = join(dir, 'all.pgn');
    writeFileSync(pgn, text);
    const whole = spawnSync(process.execPath, [cli, 'explore', pgn, '--max-ply', '14', '--out', join(dir, 'whole.ndjson')], { encoding: 'utf8' });
    expect(whole.status, whole.stderr).toBe(0);
    const work = join(dir, 'work');
    const r = spawnSync(python!, [job, pgn, '--out', join(dir, 'merged.ndjson'), '--parts', '7', '--max-ply', '14', '--workers', '2',
      '--work-dir', work, '--cli', `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`], { encoding: 'utf8', timeout: 180_000 });
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { parts: number; workers: number };
    expect(summary).toMatchObject({ parts: 7, workers: 2 });
    // The parts are the input cut at game starts: each begins with a tag pair, together they are the input.
    const parts = readdirSync(work).filter((f) => f.endsWith('.pgn')).sort().map((f) => readFileSync(join(work, f), 'utf8'));
    expect(parts).toHaveLength(7);
    for (const p of parts) expect(p.startsWith('[Event ')).toBe(true);
    expect(parts.join('')).toBe(text);
    const merged = readFileSync(join(dir, 'merged.ndjson'), 'utf8');
    expect(merged).toBe(readFileSync(join(dir, 'whole.ndjson'), 'utf8'));
    expect(merged.split('\n').length).toBeGreaterThan(1000);
  });
});
