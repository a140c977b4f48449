/**
 * Faults lose nothing: with a fake engine (test/fixtures/engine/fake-engine.mjs) that crashes,
 * hangs past the deadline or writes garbage on a schedule, every position gets exactly one answer,
 * in input order: its own (the fake's score is the FEN's fullmove number) when it faulted at most
 * once, else `{ error }`. A fast-check property draws fault schedules. And no engine process
 * outlives its program: an uncaught exception and SIGTERM, in a child Node process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EnginePool, EngineError, liveEngines, type EngineResult } from '../../lib/engine/index.js';
import { jsApi } from '../support/backends.js';

const FAKE = resolve('test/fixtures/engine/fake-engine.mjs');
type Fault = 'crash' | 'hang' | 'garbage';

/** Positions told apart by their fullmove number (the fake's answer). */
const positions = (n: number) => Array.from({ length: n }, (_, i) => jsApi.parseFen(`4k3/8/8/8/8/8/8/4K3 w - - 0 ${i + 1}`));

async function runAll(pool: EnginePool, n: number): Promise<EngineResult[]> {
  const out: EngineResult[] = [];
  for await (const r of pool.analyseAll(positions(n), { nodes: 1 })) out.push(r);
  return out;
}

const scoreOf = (r: EngineResult): number | string => ('error' in r ? (r.error as EngineError).problem ?? r.error.name : (r.score as { cp: number }).cp);

async function withSchedule<T>(schedule: Record<number, Fault[]>, f: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const state = mkdtempSync(join(tmpdir(), 'fake-engine-'));
  const saved = { ...process.env };
  process.env.FAKE_ENGINE_FAULTS = JSON.stringify(schedule);
  process.env.FAKE_ENGINE_STATE = state;
  try {
    return await f(process.env);
  } finally {
    process.env = saved;
    rmSync(state, { recursive: true, force: true });
  }
}

describe('EnginePool with a faulty engine', () => {
  // noscore: a `bestmove` without a score, which the pool reads only after it has sent the next
  // position to the same engine; that position is searched again on the new engine, not counted as
  // a failed attempt.
  it.each([['crash', 3], ['hang', 2], ['garbage', 2], ['noscore', 2], ['noscore', 3]] as const)('%s on every %ith search: every position answered once, in order', async (kind, n) => {
    const before = liveEngines();
    const pool = await EnginePool.start({ command: process.execPath, args: [FAKE, `--${kind}-every`, String(n)], engines: 2, timeoutMs: 1000, startTimeoutMs: 20_000, cacheSize: 0 });
    try {
      const out = await runAll(pool, 10);
      expect(out.map(scoreOf)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(pool.stats.restarts).toBeGreaterThan(0);
      expect(pool.stats.retries).toBe(pool.stats.restarts);
      expect(pool.stats.errors).toBe(0);
      expect(pool.stats.searches).toBe(10);
    } finally {
      await pool.close();
    }
    expect(liveEngines()).toBe(before);
  });

  it('a position that faults twice is an error in its place; the others are answered', async () => {
    await withSchedule({ 2: ['crash', 'crash'], 4: ['hang', 'garbage'], 5: ['garbage'], 7: ['garbage', 'hang'] }, async () => {
      const pool = await EnginePool.start({ command: process.execPath, args: [FAKE], engines: 2, timeoutMs: 1000, startTimeoutMs: 20_000, cacheSize: 0 });
      try {
        const out = await runAll(pool, 8);
        expect(out.map(scoreOf)).toEqual([1, 'exited', 3, 'protocol', 5, 6, 'timeout', 8]);
        expect(pool.stats).toMatchObject({ errors: 3, restarts: 7, retries: 4, searches: 5 });
      } finally {
        await pool.close();
      }
    });
  });

  it('every search crashing: every position is an error, none lost', async () => {
    const pool = await EnginePool.start({ command: process.execPath, args: [FAKE, '--crash-every', '1'], engines: 2, cacheSize: 0 });
    try {
      const out = await runAll(pool, 5);
      expect(out.map(scoreOf)).toEqual(Array(5).fill('exited'));
    } finally {
      await pool.close();
    }
  });

  it.each(['crash', 'noscore'])('an engine that cannot be started again (%s): its positions are errors, the pool does not hang', async (kind) => {
    // The fake faults on its first search and refuses to start again (FAKE_ENGINE_ONCE: a file that
    // exists). With noscore, the second position was already sent to the engine that is gone.
    const state = mkdtempSync(join(tmpdir(), 'fake-engine-'));
    process.env.FAKE_ENGINE_ONCE = join(state, 'started');
    try {
      const pool = await EnginePool.start({ command: process.execPath, args: [FAKE, `--${kind}-every`, '1'], engines: 1, cacheSize: 0 });
      try {
        const out = await runAll(pool, 3);
        expect(out.map(scoreOf)).toEqual(['exited', 'exited', 'exited']);
      } finally {
        await pool.close();
      }
    } finally {
      delete process.env.FAKE_ENGINE_ONCE;
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('close() while a faulted engine is being replaced: the position still settles', async () => {
    const pool = await EnginePool.start({ command: process.execPath, args: [FAKE, '--crash-every', '1'], engines: 1, cacheSize: 0 });
    const answer = pool.analyse(positions(1)[0]!, { nodes: 1 }).catch((e: unknown) => e); // handled at once: it rejects during close()
    await new Promise((r) => setTimeout(r, 30));
    await pool.close();
    expect(await answer).toBeInstanceOf(EngineError);
  });

  it('property: random fault schedules, engines and lengths lose and duplicate nothing', async () => {
    const fault = fc.constantFrom<Fault>('crash', 'hang', 'garbage');
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }),
      fc.array(fc.array(fault, { maxLength: 2 }), { minLength: 1, maxLength: 6 }),
      async (engines, faults) => {
        const schedule = Object.fromEntries(faults.map((f, i) => [i + 1, f]));
        await withSchedule(schedule, async () => {
          const pool = await EnginePool.start({ command: process.execPath, args: [FAKE], engines, timeoutMs: 600, startTimeoutMs: 20_000, cacheSize: 0 });
          try {
            const out = await runAll(pool, faults.length);
            const want = faults.map((f, i) => (f.length >= 2 ? { crash: 'exited', hang: 'timeout', garbage: 'protocol' }[f[1]!] : i + 1));
            expect(out.map(scoreOf)).toEqual(want);
          } finally {
            await pool.close();
          }
        });
      },
    ), { numRuns: 5 });
  }, 120_000);

  it('an aborted signal ends analyseAll and drops the positions not started; break does too', async () => {
    const pool = await EnginePool.start({ command: process.execPath, args: [FAKE], engines: 1, cacheSize: 0 });
    try {
      const controller = new AbortController();
      const seen: EngineResult[] = [];
      await expect((async () => {
        for await (const r of pool.analyseAll(positions(50), { nodes: 1 }, { signal: controller.signal })) {
          seen.push(r);
          if (seen.length === 3) controller.abort();
        }
      })()).rejects.toMatchObject({ name: 'AbortError' });
      expect(seen.map(scoreOf)).toEqual([1, 2, 3]);
      for await (const r of pool.analyseAll(positions(50), { nodes: 1 })) if (scoreOf(r) === 2) break;
      expect(pool.stats.searches).toBeLessThan(20);
      // The pool still answers.
      expect(scoreOf(await pool.analyse(positions(9)[8]!, { nodes: 1 }))).toBe(9);
    } finally {
      await pool.close();
    }
  });
});

describe('no engine process outlives its program (the built package, dist/engine.js)', () => {
  const script = (end: string) => `
    const { EnginePool } = await import(${JSON.stringify(resolve('dist/engine.js'))});
    const pool = await EnginePool.start({ command: process.execPath, args: [${JSON.stringify(FAKE)}, '--hang-every', '1'], engines: 2, timeoutMs: 60000 });
    console.log(JSON.stringify(pool.pids));
    ${end}`;
  /** Running: /proc/PID exists and is not a zombie (a killed process waits there until reaped). */
  const alive = (pid: number): boolean => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };
  /** The pids still running after up to two seconds. */
  const survivors = async (pids: number[]): Promise<number[]> => {
    for (let i = 0; i < 20 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    return pids.filter(alive);
  };

  it('an uncaught exception', async () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script("setTimeout(() => { throw new Error('boom'); }, 50);")], { encoding: 'utf8' });
    expect(r.stderr).toContain('boom');
    const pids = JSON.parse(r.stdout) as number[];
    expect(pids).toHaveLength(2);
    expect(await survivors(pids)).toEqual([]);
  });

  it('SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script('setInterval(() => {}, 1000);')], { stdio: ['ignore', 'pipe', 'inherit'] });
      const pids = await new Promise<number[]>((res) => child.stdout.once('data', (b: Buffer) => res(JSON.parse(b.toString()) as number[])));
      expect(pids.filter(alive)).toHaveLength(2);
      const exited = new Promise<NodeJS.Signals | null>((res) => child.once('exit', (_c, s) => res(s)));
      child.kill(signal);
      expect(await exited).toBe(signal);
      expect(await survivors(pids)).toEqual([]);
    }
  });
});
