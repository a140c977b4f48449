/**
 * Batch analysis: positions per second from a packed PositionBatch (native sync on one thread,
 * native async on all cores, JS, wasm: the same C++ compiled to WebAssembly, one thread; chessops computing checkers and slider blockers of both sides as
 * the peer for the check/pin features), and the analyze CLI end to end on a generated 1M-line file
 * (lines per second, the process's peak RSS and its CPU time, all cores and one; fastest of 3 runs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen as chessopsFen } from 'chessops/fen';
import { benchDir, buildDir, measureStats, measurement, stats } from '../lib.mjs';

export const title = 'Batch analysis (positions per second; CLI: lines per second, peak RSS)';

const CHECK_PINS = ['checkers', 'pinned', 'discoveredCheckCandidates'];

export async function run({ js, native, wasm, quick, filter }) {
  if (filter && !filter.test('batch') && !filter.test('analyze')) return null;
  const lines = readFileSync(join(benchDir, '..', 'examples', 'positions.epd'), 'utf8').trim().split('\n');
  const N = quick ? 1 << 17 : 1 << 20;
  const JS_N = quick ? 2000 : 10000;
  const SAMPLES = quick ? 3 : 5;
  const api = native ?? js;
  const base = api.PositionBatch.fromFens(lines, { epd: true });
  const words = new BigUint64Array(N * 10);
  for (let at = 0; at < words.length; at += base.words.length) words.set(base.words.subarray(0, Math.min(base.words.length, words.length - at)), at);
  const batch = api.PositionBatch.fromPacked(words);
  const jsBatch = js.PositionBatch.fromPacked(words.slice(0, JS_N * 10));
  const wasmBatch = wasm && wasm.PositionBatch.fromPacked(words);
  const wasmRatio = (w, n) => (w && n ? `${(n / w).toFixed(2)}x` : '-');
  const perSec = (ns) => 1e9 / ns;
  const rows = [];
  const measurements = [];
  let label = '';
  const G = 'analyzeBatch: checks + pins (per pos.)';
  /** measureStats + a record; fields.fn etc. Returns the median ns. */
  const measure = (run, count, samples, fields = {}) => {
    const s = measureStats(run, count, samples);
    measurements.push(measurement({ mode: 'batch', batchSize: count, perOp: 'position', op: label, ...fields }, s));
    return s.median;
  };
  const threads = cpus().length;

  async function measureAsync(features, t) {
    await native.analyzeBatchAsync(batch, features, { threads: t });
    const times = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = process.hrtime.bigint();
      await native.analyzeBatchAsync(batch, features, { threads: t });
      times.push(Number(process.hrtime.bigint() - t0) / N);
    }
    const st = stats(times);
    measurements.push(measurement({ fn: 'analyzeBatchAsync', mode: 'batch', impl: `native async ${t} thread${t > 1 ? 's' : ''}`,
      op: `${label}, analyzeBatchAsync over ${N} positions`, batchSize: N, perOp: 'position' }, { samples: times, ...st }));
    return st.median;
  }

  const chessops = lines.slice(0, quick ? 2000 : 10000).map((l) => {
    const [pl, side, castling, ep] = l.split(' ');
    return Chess.fromSetup(chessopsFen(`${pl} ${side} ${castling} ${ep} 0 1`).unwrap()).unwrap();
  });
  let sink = 0;
  label = 'checkers + blockers of both sides (chessops ctx() twice)';
  const peer = measure(() => {
    for (const pos of chessops) {
      // Both colours: checkers and blockers (pins) for the side to move, then the other side's view.
      const c = pos.ctx();
      sink ^= c.checkers.lo ^ c.blockers.hi;
      pos.turn = pos.turn === 'white' ? 'black' : 'white';
      const d = pos.ctx();
      sink ^= d.checkers.lo ^ d.blockers.hi;
      pos.turn = pos.turn === 'white' ? 'black' : 'white';
    }
  }, chessops.length, SAMPLES, { fn: 'analyzeBatch', mode: 'peer', impl: 'chessops', chart: { group: G, series: 'chessops' } });

  for (const [name, features] of [['checkers + pins + discovered (both colours)', CHECK_PINS], ['all features', 'all'],
    ['polyglotKey', ['polyglotKey']]]) {
    label = `analyzeBatch, ${name}`;
    const chart = (series) => (features === CHECK_PINS ? { group: G, series } : undefined);
    const sync = native && measure(() => native.analyzeBatch(batch, features), N, SAMPLES,
      { fn: 'analyzeBatch', impl: 'native', op: `${label}, ${N} positions`, chart: chart('native, batch (per element)') });
    const async1 = native && await measureAsync(features, 1);
    const asyncAll = native && await measureAsync(features, threads);
    const jsNs = measure(() => js.analyzeBatch(jsBatch, features), JS_N, SAMPLES,
      { fn: 'analyzeBatch', impl: 'js', op: `${label}, ${JS_N} positions`, chart: chart('JS') });
    const wasmNs = wasm && measure(() => wasm.analyzeBatch(wasmBatch, features), N, SAMPLES,
      { fn: 'analyzeBatch', impl: 'wasm', op: `${label}, ${N} positions`, chart: chart('wasm (Node)') });
    rows.push([name, sync && perSec(sync), asyncAll && perSec(asyncAll), async1 && asyncAll ? `${(async1 / asyncAll).toFixed(2)}x` : '-',
      perSec(jsNs), features === CHECK_PINS ? perSec(peer) : '-', wasmNs ? perSec(wasmNs) : '-', wasmRatio(wasmNs, sync),
      wasmNs ? `${(jsNs / wasmNs).toFixed(1)}x` : '-']);
  }
  label = 'toPlanes';
  const planes = native && measure(() => native.toPlanes(batch), N, SAMPLES, { fn: 'toPlanes', impl: 'native', op: `toPlanes over ${N} positions` });
  const planesJs = measure(() => js.toPlanes(jsBatch), JS_N, SAMPLES, { fn: 'toPlanes', impl: 'js', op: `toPlanes over ${JS_N} positions` });
  const planesWasm = wasm && measure(() => wasm.toPlanes(wasmBatch), N, SAMPLES, { fn: 'toPlanes', impl: 'wasm', op: `toPlanes over ${N} positions` });
  rows.push(['toPlanes', planes && perSec(planes), '-', '-', perSec(planesJs), '-', planesWasm ? perSec(planesWasm) : '-',
    wasmRatio(planesWasm, planes), planesWasm ? `${(planesJs / planesWasm).toFixed(1)}x` : '-']);
  const parse = native && measure(() => native.PositionBatch.fromFens(lines, { epd: true }), lines.length, SAMPLES,
    { fn: 'PositionBatch.fromFens', impl: 'native', op: `PositionBatch.fromFens(${lines.length} EPD lines), per line` });
  rows.push(['fromFens (EPD lines)', parse && perSec(parse), '-', '-', perSec(measure(() => js.PositionBatch.fromFens(lines.slice(0, 2000), { epd: true }), 2000, SAMPLES,
    { fn: 'PositionBatch.fromFens', impl: 'js', op: 'PositionBatch.fromFens(2000 EPD lines), per line' })), '-', '-', '-', '-']);
  // Chess960 X-FEN lines (start positions and random playouts) with { chess960: true }: the same
  // parsers with the castling field read as X-FEN, as many lines as the EPD row above.
  const x960 = [];
  for (let i = 0, seed = 960; i < 2000; i++) {
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    let pos = js.chess960StartPosition(Math.floor(next() * 960));
    for (let p = Math.floor(next() * 24); p > 0; p--) {
      const moves = js.legalMoves(pos);
      if (!moves.length) break;
      pos = js.makeMove(pos, moves[Math.floor(next() * moves.length)]);
    }
    x960.push(js.toFen(pos));
  }
  const x960Lines = Array.from({ length: lines.length }, (_, i) => x960[i % x960.length]);
  const parse960 = native && measure(() => native.PositionBatch.fromFens(x960Lines, { chess960: true }), x960Lines.length, SAMPLES,
    { fn: 'PositionBatch.fromFens', impl: 'native', op: `PositionBatch.fromFens(${x960Lines.length} Chess960 X-FEN lines, { chess960: true }), per line` });
  rows.push(['fromFens (Chess960 X-FEN lines, { chess960: true })', parse960 && perSec(parse960), '-', '-', perSec(measure(() => js.PositionBatch.fromFens(x960, { chess960: true }), x960.length, SAMPLES,
    { fn: 'PositionBatch.fromFens', impl: 'js', op: `PositionBatch.fromFens(${x960.length} Chess960 X-FEN lines, { chess960: true }), per line` })), '-', '-', '-', '-']);

  // CLI end to end.
  const cliLines = quick ? 200_000 : 1_000_000;
  const file = join(buildDir, `analyze-${cliLines}.epd`);
  if (!existsSync(file)) {
    const out = [];
    for (let i = 0; i < cliLines; i++) out.push(lines[i % lines.length]);
    writeFileSync(file, `${out.join('\n')}\n`);
  }
  const cli = join(benchDir, '..', 'dist', 'cli.cjs');
  const hasTime = existsSync('/usr/bin/time');
  // One run of the command: wall seconds, peak RSS and CPU seconds (user + system, all threads) from
  // /usr/bin/time when it is there. The CPU time does not depend on other load on the machine: the
  // same CPU time on 1 and N threads means the work itself divides (no main-thread serial part added).
  const cliRun = (args, env) => {
    const cmd = hasTime ? '/usr/bin/time' : process.execPath;
    const argv = hasTime ? ['-f', '%e %M %U %S', process.execPath, cli, 'analyze', file, ...args] : [cli, 'analyze', file, ...args];
    const t0 = performance.now();
    const r = spawnSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26, env: { ...process.env, ...env } });
    const secs = (performance.now() - t0) / 1000;
    const [, rssKb, user, sys] = hasTime ? r.stderr.toString().trim().split('\n').pop().split(' ').map(Number) : [0, NaN, NaN, NaN];
    return { secs, rssKb, cpu: user + sys };
  };
  /** The fastest of `runs` runs (a shared machine: the minimum is the least disturbed), with its RSS and CPU. */
  const cliBest = (args, runs, env = {}) => {
    let best;
    for (let i = 0; i < runs; i++) {
      const r = cliRun(args, env);
      if (!best || r.secs < best.secs) best = r;
    }
    const t = args[args.length - 1];
    const pipeline = env.BITBOARD_PATTERNS_ANALYZE_PIPELINE ? `BITBOARD_PATTERNS_ANALYZE_PIPELINE=${env.BITBOARD_PATTERNS_ANALYZE_PIPELINE} ` : '';
    measurements.push(measurement({ fn: 'analyze CLI', mode: 'cli', impl: `--threads ${t}`,
      op: `${pipeline}bitboard-patterns analyze ${args.join(' ')} on ${cliLines} lines, per line (min of ${runs}); peak RSS ${hasTime ? `${(best.rssKb / 1024).toFixed(0)} MB, CPU ${best.cpu.toFixed(2)} s` : 'n/a'}`,
      batchSize: cliLines, perOp: 'line' }, { samples: [best.secs * 1e9 / cliLines], median: best.secs * 1e9 / cliLines, min: best.secs * 1e9 / cliLines, max: best.secs * 1e9 / cliLines }));
    return best;
  };
  const runs = quick ? 1 : 3;
  const cliRows = [];
  // The native backend on a plain file takes the addon's own threads; the worker threads' pipeline
  // (stdin, gzip, --syzygy, the JS backend) is timed on the same file for comparison.
  // `--filter analyzeBatch` (or anything not matching 'analyze CLI') leaves the CLI runs out.
  for (const [label, args, env] of (filter && !filter.test('analyze CLI') ? [] : [
    ['CLI, all features, NDJSON', []],
    ['CLI, all features, NDJSON, worker threads', [], { BITBOARD_PATTERNS_ANALYZE_PIPELINE: 'workers' }],
    ['CLI, checkers + pins + discovered, NDJSON', ['--features', CHECK_PINS.join(',')]],
    ['CLI, inCheck, CSV', ['--features', 'inCheck', '--format', 'csv']],
  ])) {
    const all = cliBest([...args, '--threads', String(threads)], runs, env);
    const one = cliBest([...args, '--threads', '1'], runs, env);
    cliRows.push([label, all, one]);
  }
  const mb = (r) => (hasTime ? `${(r.rssKb / 1024).toFixed(0)} MB` : '-');
  const cpu = (r) => (hasTime ? `, CPU ${r.cpu.toFixed(2)} s` : '');
  if (sink === 0.5) console.log('');
  const notes = [
    `${N} packed positions (examples/positions.epd repeated); JS on ${JS_N}; ${threads} hardware threads.`,
    'columns: native sync (one thread) | native async on all cores | all-core speed-up over async on 1 thread | JS | chessops ctx() for both sides (checkers + blockers) | wasm (one thread) | wasm/native sync | wasm/JS.',
    `CLI: ${cliLines} lines, output to /dev/null, fastest of ${runs} runs; lines/s, peak RSS and CPU time (user + system) on ${threads} threads, then on one; speed-up:`,
    ...cliRows.map(([label, all, one]) => `  ${label}: ${Math.round(cliLines / all.secs).toLocaleString('en')} lines/s, ${mb(all)}${cpu(all)}; `
      + `one thread ${Math.round(cliLines / one.secs).toLocaleString('en')} lines/s, ${mb(one)}${cpu(one)}; ${(one.secs / all.secs).toFixed(2)}x`),
  ];
  void execFileSync;
  return {
    columns: ['analysis', 'native sync pos/s', 'native async all cores pos/s', 'all-core speed-up', 'JS pos/s', 'chessops pos/s', 'wasm pos/s', 'wasm/native', 'wasm/JS'],
    rows,
    notes,
    measurements,
  };
}
