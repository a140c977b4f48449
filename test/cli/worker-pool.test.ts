/**
 * The analyze command's worker pool ends its threads only once they have loaded: Node 20 aborts the
 * whole process (a V8 fatal error in require of an ES module) when a thread is terminated while it
 * loads hyparquet-writer, which a Parquet run's workers do before they say they are ready.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../lib/cli/worker-pool.js';

const dir = mkdtempSync(join(tmpdir(), 'bbp-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker that takes `ms` to load, writes `marker` when it has, then says it is ready. */
const slowWorker = `
const { parentPort, workerData } = require('node:worker_threads');
const t = Date.now();
while (Date.now() - t < workerData.ms);
require('node:fs').writeFileSync(workerData.marker, 'loaded');
parentPort.postMessage({ ready: true });
parentPort.on('message', ({ id }) => parentPort.postMessage({ id, result: id }));
`;

describe('WorkerPool.close', () => {
  it('ends a worker that is still loading only once it has loaded', async () => {
    const marker = join(dir, 'loaded-1');
    const pool = new WorkerPool<number>(1, slowWorker, { ms: 400, marker });
    await pool.close();
    expect(existsSync(marker)).toBe(true);
  });

  it('ends loaded workers, after their jobs, and a pool whose worker failed to load', async () => {
    const marker = join(dir, 'loaded-2');
    const pool = new WorkerPool<number>(2, slowWorker, { ms: 0, marker });
    expect(await Promise.all([pool.run({}), pool.run({}), pool.run({})])).toEqual([0, 1, 2]);
    await pool.close();
    const broken = new WorkerPool<number>(1, 'throw new Error("cannot load")', {});
    await expect(broken.run({})).rejects.toThrow('cannot load');
    await broken.close();
  });
});
