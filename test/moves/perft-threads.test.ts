/**
 * perft and perftStats on several threads, and perftAsync / perftStatsAsync with cancellation, on
 * every backend.
 *
 * Truth: the chess programming wiki, "Perft Results" (https://www.chessprogramming.org/Perft_Results):
 * node counts of the initial position, position 2 (Kiwipete), 3, 4, 5 and 6, and the statistics
 * rows (captures, e.p., castles, promotions, checks, discovery checks, double checks, checkmates) of
 * Kiwipete depth 3 and position 3 depth 5 (the numbers: test/fixtures/cpw-perft.json). The count
 * must not depend on the thread count. The native
 * backend splits the tree near the root only below depth 4, so its rows are deeper (depth 4-6: one to
 * three plies split); the JS backend checks `threads` and counts on one thread (shallower rows).
 */
import { describe, expect, it } from 'vitest';
import { PERFT_STATS_COLUMNS } from '../../lib/core/types.js';
import { loadNative } from '../../lib/backends/native.js';
import { backends } from '../support/backends.js';
import { KIWIPETE, POSITION_3, START, cpw } from './cpw-perft.js';

/** [name, FEN, depth, CPW nodes] for the native backend (split) and the JS backend: depths per position. */
const rowsAt = (depths: [name: string, depth: number][]) => depths.map(([name, depth]): [string, string, number, number] => {
  const nodes = cpw(name).nodes[depth - 1];
  if (nodes === undefined) throw new Error(`test/fixtures/cpw-perft.json has no depth ${depth} for ${name}`);
  return [name, cpw(name).fen, depth, nodes];
});
const NATIVE_ROWS = rowsAt([['initial position', 5], ['Kiwipete', 4], ['position 3', 6], ['position 4', 4], ['position 5', 4], ['position 6', 4]]);
const JS_ROWS = rowsAt([['initial position', 3], ['Kiwipete', 2], ['position 3', 4], ['position 4', 3], ['position 5', 2], ['position 6', 2]]);

/** CPW statistics rows in PERFT_STATS_COLUMNS order. */
const KIWIPETE_D3 = cpw('Kiwipete').stats[2];
const POSITION_3_D5 = cpw('position 3').stats[4];

const statsRow = (s: Record<string, number>) => PERFT_STATS_COLUMNS.map((c) => s[c]);

describe.each(backends)('threaded perft (%s)', (name, api) => {
  const native = api.backend === 'native';
  const rows = native ? NATIVE_ROWS : JS_ROWS;

  it.each(rows)('%s: the CPW count for threads 1..4', (_, fen, depth, nodes) => {
    const pos = api.parseFen(fen);
    for (const threads of [1, 2, 3, 4]) expect(api.perft(pos, depth, { threads })).toBe(nodes);
  });

  it('the default (all cores) gives the CPW count', () => {
    const [, fen, depth, nodes] = rows[0]!;
    expect(api.perft(api.parseFen(fen), depth)).toBe(nodes);
    expect(api.perft(api.parseFen(fen), depth, {})).toBe(nodes);
  });

  it('shallow trees (nothing to split) and depth 0 on many threads', () => {
    const pos = api.parseFen(KIWIPETE);
    expect(api.perft(pos, 0, { threads: 4 })).toBe(1);
    expect(api.perft(pos, 1, { threads: 4 })).toBe(48);
    expect(api.perft(pos, 2, { threads: 256 })).toBe(2039);
    // Checkmated (fool's mate) and stalemated roots: no moves to split.
    const mated = api.parseFen('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    expect(api.perft(mated, 5, { threads: 3 })).toBe(0);
    expect(api.perftStats(mated, 5, { threads: 3 }).nodes).toBe(0);
  });

  it('perftStats: the CPW rows for threads 1..4', () => {
    const kiwi = api.parseFen(KIWIPETE);
    const p3 = api.parseFen(POSITION_3);
    for (const threads of [1, 2, 3, 4]) {
      expect(statsRow(api.perftStats(kiwi, 3, { threads }))).toEqual(KIWIPETE_D3);
      if (native) expect(statsRow(api.perftStats(p3, 5, { threads }))).toEqual(POSITION_3_D5);
    }
  });

  it('perftAsync and perftStatsAsync resolve with the CPW counts', async () => {
    const [, fen, depth, nodes] = rows[1]!;
    const pos = api.parseFen(fen);
    for (const threads of [1, 2, 3]) await expect(api.perftAsync(pos, depth, { threads })).resolves.toBe(nodes);
    await expect(api.perftAsync(pos, 0)).resolves.toBe(1);
    const stats = await api.perftStatsAsync(api.parseFen(KIWIPETE), 3, { threads: 2 });
    expect(statsRow(stats)).toEqual(KIWIPETE_D3);
  });

  it('the async count leaves the main thread free (native) and the result is the CPW count', async () => {
    let ticks = 0;
    const timer = setInterval(() => { ticks++; }, 1);
    // wasm counts depth 4 in well under a millisecond: depth 6, as native, so the timer has turns.
    const deep = native || api.backend === 'wasm';
    const nodes = await api.perftAsync(api.parseFen(START), deep ? 6 : 4, { threads: 2 });
    clearInterval(timer);
    expect(nodes).toBe(deep ? 119060324 : 197281);
    expect(ticks).toBeGreaterThan(0);
  });

  it('an abort rejects with an AbortError (and with the reason given to abort())', async () => {
    const pos = api.parseFen(START);
    const deep = native ? 8 : 6; // minutes of work: only cancellation ends it within the test
    const controller = new AbortController();
    const running = api.perftAsync(pos, deep, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });

    const stats = new AbortController();
    const runningStats = api.perftStatsAsync(pos, deep, { signal: stats.signal, threads: 1 });
    const reason = new Error('enough');
    setTimeout(() => stats.abort(reason), 20);
    await expect(runningStats).rejects.toBe(reason);

    const before = new AbortController();
    before.abort();
    await expect(api.perftAsync(pos, deep, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
    // An abort after completion changes nothing.
    const after = new AbortController();
    await expect(api.perftAsync(pos, 2, { signal: after.signal })).resolves.toBe(400);
    after.abort();
  });

  it('a thread count that is not a number is a TypeError, a number not an integer 1..256 a RangeError; bad options are TypeErrors', () => {
    const pos = api.parseFen(START);
    for (const threads of [0, -1, 1.5, 257, NaN, Infinity]) {
      expect(() => api.perft(pos, 2, { threads: threads as number })).toThrow(RangeError);
      expect(() => api.perftStats(pos, 2, { threads: threads as number })).toThrow(RangeError);
      expect(() => api.perftAsync(pos, 2, { threads: threads as number })).toThrow(RangeError);
    }
    for (const threads of ['2', null, 2n]) {
      expect(() => api.perft(pos, 2, { threads: threads as never })).toThrow(TypeError);
      expect(() => api.perftStats(pos, 2, { threads: threads as never })).toThrow(TypeError);
      expect(() => api.perftAsync(pos, 2, { threads: threads as never })).toThrow(TypeError);
    }
    expect(() => api.perft(pos, 2, 4 as never)).toThrow(TypeError);
    expect(() => api.perftAsync(pos, 2, { signal: {} as AbortSignal })).toThrow(TypeError);
    expect(() => api.perftAsync(pos, 21)).toThrow(RangeError);
    expect(() => api.perftAsync({} as never, 2)).toThrow(TypeError);
  });

  it.runIf(native)('the addon checks its own arguments (no crash on a bad call)', async () => {
    const b = loadNative();
    const pos = api.parseFen(START);
    expect(() => b.perftThreads!(pos, 3, 0)).toThrow(RangeError);
    expect(() => b.perftThreads!(pos, 3, 257)).toThrow(RangeError);
    expect(() => b.perftStatsThreads!(pos, 3, new Float64Array(8), 2)).toThrow(RangeError);
    expect(() => b.perftAsync!(pos, 3, 2, 1 as never, new Int32Array(1))).toThrow(TypeError);
    expect(() => b.perftAsync!(pos, 3, 2, false, new Int32Array(2))).toThrow(RangeError);
    expect(() => b.perftAsync!(pos, 3, 2, false, new Uint32Array(1) as never)).toThrow(TypeError);
    // The position is copied before perftAsync returns: zeroing the words afterwards changes nothing.
    const copy = api.parseFen(KIWIPETE);
    const promise = b.perftAsync!(copy, 3, 2, false, new Int32Array(1));
    copy.packed.fill(0n);
    expect(Array.from((await promise)!)).toEqual([97862]);
  });
});
