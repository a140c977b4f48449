/**
 * Scale-out: `analyze` as the map step of Dask.distributed (Debian: python3-distributed). A PGN file
 * cannot be cut at arbitrary byte offsets, so the corpus is split at game boundaries (before each
 * line starting with "[Event "), each part is analysed with --first-game (its first game's number in
 * the whole file) by a real scheduler and two worker processes over TCP on localhost, and the joined
 * output must equal the single-machine run byte for byte. Skipped, with a message, where Python's
 * `distributed` cannot be imported. Needs dist/ (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi } from '../support/backends.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
// The first Python that imports distributed (Debian's /usr/bin/python3 when another python3 comes first on PATH).
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import distributed'], { encoding: 'utf8' }).status === 0);
const haveDask = python !== undefined;
if (!haveDask) console.warn('pgn-dask.test.ts skipped: python3 cannot import distributed (apt-get install python3-distributed)');

const DRIVER = `
import json, subprocess, sys
from distributed import Client, LocalCluster

def analyze(job):
    node, cli, path, first = job
    r = subprocess.run([node, cli, 'analyze', path, '--input', 'pgn', '--features', 'inCheck,pinned,knightForkSquares',
                        '--first-game', str(first), '--no-progress'], capture_output=True)
    return r.returncode, r.stdout.decode()

if __name__ == '__main__':
    jobs = json.loads(sys.argv[1])
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol='tcp', host='127.0.0.1', dashboard_address=None,
                           local_directory=sys.argv[2])
    client = Client(cluster)
    assert len(client.scheduler_info()['workers']) == 2
    assert client.scheduler.address.startswith('tcp://127.0.0.1')
    results = client.gather(client.map(analyze, jobs, pure=False))
    client.close(); cluster.close()
    sys.stdout.write(json.dumps(results))
`;

describe.skipIf(!haveDask)('Dask.distributed map step', () => {
  it('parts split at game boundaries, analysed by two workers over TCP, join to the single-machine output', () => {
    const text = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 40, seed: 3, maxPlies: 60 });
    const dir = mkdtempSync(join(tmpdir(), 'pgn-dask-'));
    writeFileSync(join(dir, 'all.pgn'), text);
    const games = text.split(/\n(?=\[Event )/);
    const jobs: [string, string, string, number][] = [];
    for (let part = 0, first = 0; part < 4; part++) {
      const slice = games.slice(first, first + 10);
      writeFileSync(join(dir, `part${part}.pgn`), `${slice.join('\n')}\n`);
      jobs.push([process.execPath, cli, join(dir, `part${part}.pgn`), first + 1]);
      first += slice.length;
    }
    const single = spawnSync(process.execPath, [cli, 'analyze', join(dir, 'all.pgn'), '--input', 'pgn', '--features', 'inCheck,pinned,knightForkSquares', '--no-progress'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(single.status).toBe(0);
    const r = spawnSync(python!, ['-c', DRIVER, JSON.stringify(jobs), join(dir, 'dask')], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const parts = JSON.parse(r.stdout) as [number, string][];
    expect(parts.map((p) => p[0])).toEqual([0, 0, 0, 0]);
    expect(parts.map((p) => p[1]).join('')).toBe(single.stdout);
    expect(single.stdout.split('\n').length).toBeGreaterThan(500);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.skipIf(!haveDask)('examples/dask_map.py --out-dir: analyze to Parquet parts', () => {
  it('the parts, read by DuckDB as one table and numbered on, equal the single-machine Parquet file', async () => {
    const text = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 30, seed: 8, maxPlies: 50 });
    const dir = mkdtempSync(join(tmpdir(), 'pgn-dask-parts-'));
    try {
      // As a dump comes: zstd when the tool is there (the example decompresses it first), else plain.
      writeFileSync(join(dir, 'all.pgn'), text);
      const zst = spawnSync('zstd', ['-q', join(dir, 'all.pgn'), '-o', join(dir, 'all.pgn.zst')]).status === 0;
      const input = join(dir, zst ? 'all.pgn.zst' : 'all.pgn');
      const command = ['analyze', '--format', 'parquet', '--features', 'inCheck,pinned', '--no-progress'];
      const single = spawnSync(process.execPath, [cli, ...command, '--out', join(dir, 'single.parquet'), join(dir, 'all.pgn')], { encoding: 'utf8' });
      expect(single.status, single.stderr).toBe(0);
      const r = spawnSync(python!, [join(root, 'examples', 'dask_map.py'), input, '--out-dir', join(dir, 'parts'), '--parts', '3', '--workers', '2',
        '--work-dir', join(dir, 'work'), '--cli', `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`, '--', ...command],
      { encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ parts: 3, workers: 2 });
      expect(readdirSync(join(dir, 'parts')).sort()).toEqual(['part00000.parquet', 'part00001.parquet', 'part00002.parquet']);
      const db = await DuckDBInstance.create(':memory:');
      const con = await db.connect();
      const rows = async (sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJson();
      const whole = await rows(`SELECT * FROM read_parquet('${join(dir, 'single.parquet')}') ORDER BY game, ply`);
      // Each part numbers its games from 1: number them on by the games of the parts before.
      const parts = await rows(`WITH p AS (SELECT *, filename AS part FROM read_parquet('${join(dir, 'parts')}/*.parquet', filename = true)),
        n AS (SELECT part, max(game) AS games FROM p GROUP BY part),
        o AS (SELECT part, coalesce(sum(games) OVER (ORDER BY part ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before FROM n)
        SELECT p.* EXCLUDE (game, part, filename), CAST(p.game + o.before AS UINTEGER) AS game FROM p JOIN o USING (part) ORDER BY game, ply`);
      expect(whole.length).toBeGreaterThan(500);
      expect(parts).toEqual(whole);
      // The worked example's query (docs/dump-to-parquet.md) over the parts, against the same
      // counts made here from the single-machine rows.
      const sql = readFileSync(join(root, 'examples', 'in_check_by_ply.sql'), 'utf8').replace("'parts/", `'${join(dir, 'parts')}/`);
      const bands = new Map<number, { positions: number; games: Set<number>; checks: number }>();
      for (const row of whole.filter((x) => x.error === null)) {
        const band = Math.floor((row.ply as number) / 20) * 20;
        const b = bands.get(band) ?? { positions: 0, games: new Set(), checks: 0 };
        b.positions++;
        b.games.add(row.game as number);
        if (row.inCheck === true) b.checks++;
        bands.set(band, b);
      }
      const want = [...bands].sort((x, y) => x[0] - y[0]).map(([band, b]) => ({ from_ply: band, positions: b.positions, games: b.games.size,
        in_check_pct: Math.round((10000 * b.checks) / b.positions) / 100 }));
      const got = (await rows(sql)).map((x) => ({ from_ply: Number(x.from_ply), positions: Number(x.positions), games: Number(x.games), in_check_pct: Number(x.in_check_pct) }));
      expect(got).toEqual(want);
      expect(want.length).toBeGreaterThan(2);
      con.closeSync();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

// CI sets BITBOARD_PATTERNS_REQUIRE_DASK=1 so that a missing Dask fails instead of skipping.
describe.runIf(!haveDask && process.env.BITBOARD_PATTERNS_REQUIRE_DASK === '1')('Dask required', () => {
  it('python3 imports distributed (BITBOARD_PATTERNS_REQUIRE_DASK=1)', () => {
    expect.fail('python3 cannot import distributed: apt-get install -y python3-distributed');
  });
});
