/**
 * Scale-out: `analyze` as the map step of Dask.distributed (Debian: python3-distributed). A PGN file
 * cannot be cut at arbitrary byte offsets, so the corpus is split at game boundaries (before each
 * line starting with "[Event "), each part is analysed with --first-game (its first game's number in
 * the whole file) by a real scheduler and two worker processes over TCP on localhost, and the joined
 * output must equal the single-machine run byte for byte. Skipped, with a message, where Python's
 * `distributed` cannot be imported. Needs dist/ (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

// CI sets BITBOARD_PATTERNS_REQUIRE_DASK=1 so that a missing Dask fails instead of skipping.
describe.runIf(!haveDask && process.env.BITBOARD_PATTERNS_REQUIRE_DASK === '1')('Dask required', () => {
  it('python3 imports distributed (BITBOARD_PATTERNS_REQUIRE_DASK=1)', () => {
    expect.fail('python3 cannot import distributed: apt-get install -y python3-distributed');
  });
});
