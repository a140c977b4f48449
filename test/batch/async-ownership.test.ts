/**
 * Async work owns its memory (native/addon/async_work.h): the caller's buffers can be transferred
 * away, dropped and collected while async work runs, and the promise still settles with exactly the
 * undisturbed result. Runs in a child process (`node --expose-gc`, to collect at will) so a
 * use-after-free crash fails the test instead of the runner; the child is
 * test/batch/async-ownership.child.ts, bundled here with esbuild. Covered: both backends' analyzeBatchAsync
 * (truth: the synchronous analyzeBatch on an untouched copy), the native backend's perftAsync (JS
 * has none), the native SyzygyTablebase batch probes (truth: the synchronous batch) and
 * Tablebase.generate (truth: generateSync), with their inputs taken away mid-call. Under
 * `taskset -c 0` too when taskset exists (one core made the old crash happen every time).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonPath } from '../../lib/backends/native.js';
import { requestedBackend } from '../../lib/backends/choose.js';

let dir = '';
let child = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bbp-async-'));
  child = join(dir, 'child.mjs');
  await build({
    entryPoints: [join(__dirname, 'async-ownership.child.ts')], bundle: true, platform: 'node', format: 'esm',
    outfile: child, logLevel: 'silent',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
});
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

function run(args: string[], prefix: string[] = []): { ok: boolean; runs: number; failures: string[] } {
  const [cmd, ...rest] = prefix.length ? prefix : [process.execPath];
  const r = spawnSync(cmd!, [...rest, ...(prefix.length ? [process.execPath] : []), '--expose-gc', child, ...args], {
    encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_ADDON: addonPath(), BBP_SYZYGY_FIXTURES: join(__dirname, '..', 'fixtures', 'syzygy') }, maxBuffer: 1 << 24,
  });
  expect(r.signal, `child killed by ${r.signal}: ${r.stderr}`).toBeNull();
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

describe.runIf(requestedBackend() !== 'js')('async work owns its memory', () => {
  it('buffers transferred, dropped and collected mid-call change no result (analyzeBatchAsync, perftAsync, Syzygy batches, Tablebase.generate)', () => {
    const r = run(['2']);
    expect(r.failures).toEqual([]);
    expect(r.runs).toBeGreaterThanOrEqual(2 * 2 * 4 + 6 + 13 + 6);
  });

  it('the use-after-free reproducer resolves with the undisturbed counts', () => {
    expect(run(['1', 'reproducer']).failures).toEqual([]);
  });

  it.runIf(hasTaskset)('the same on one core (taskset -c 0)', () => {
    expect(run(['1'], ['taskset', '-c', '0']).failures).toEqual([]);
    expect(run(['1', 'reproducer'], ['taskset', '-c', '0']).failures).toEqual([]);
  });
});
