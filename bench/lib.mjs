/** Shared pieces of the benchmark sections: deterministic inputs, timing, the C++ drivers, tables. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const buildDir = join(benchDir, '.build');

/** xorshift64*: the same inputs on every run. */
export function makeRandom(seed = 0x9e3779b97f4a7c15n) {
  let s = seed;
  return () => {
    s ^= s >> 12n; s ^= (s << 25n) & 0xffffffffffffffffn; s ^= s >> 27n;
    return (s * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
  };
}

export function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  return s[s.length >> 1];
}

/** ns per element of `run()` doing `count` elements: { samples, median, min, max } of `samples` runs after one warm-up. */
export function measureStats(run, count, samples) {
  run();
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t0 = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - t0) / count);
  }
  return { samples: times, ...stats(times) };
}

/** The median of measureStats. */
export function measure(run, count, samples) {
  return measureStats(run, count, samples).median;
}

/** g++ flags matching the addon's kernels for the CPU path it chose. */
export function cppFlags(native) {
  const path = native?.cpuPath ?? 'portable';
  // --quick is the harness's smoke run: the plain C++ loops are built without optimisation (a build
  // check that takes seconds instead of minutes); their figures are then not comparable.
  const flags = [process.argv.includes('--quick') ? '-O0' : '-O3', '-std=c++17', '-I', join(benchDir, '..', 'native')];
  if (path.includes('sse4.1')) flags.push('-msse4.1', '-mpopcnt');
  if (path.includes('bmi2')) flags.push('-mbmi', '-mbmi2');
  if (path === 'portable') flags.push('-DBBP_PORTABLE');
  return flags;
}

/**
 * Compiles bench/<name>.cc with the addon's slider tables (native/kernels/tables.cc), once per run,
 * and returns the executable's path.
 */
export function compileCpp(name, native, extraSources = []) {
  mkdirSync(buildDir, { recursive: true });
  const exe = join(buildDir, name);
  const tables = join(benchDir, '..', 'native', 'kernels', 'tables.cc');
  execFileSync('g++', [...cppFlags(native), join(benchDir, `${name}.cc`), tables, ...extraSources, '-o', exe, '-pthread'],
    { stdio: 'inherit' });
  return exe;
}

export const fmt = (x) => (x === undefined || x === null ? '-' : typeof x === 'string' ? x
  : x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x < 10 ? x.toFixed(2) : x.toFixed(1));
export const ratio = (x, y) => (x === undefined || y === undefined || !y ? '-' : `${(x / y).toFixed(2)}x`);

export function printTable({ title, columns, rows, notes = [] }) {
  console.log(`\n## ${title}\n`);
  for (const n of notes) console.log(n);
  if (notes.length) console.log('');
  const cells = [columns, ...rows.map((r) => r.map(fmt))];
  const widths = columns.map((_, c) => Math.max(...cells.map((r) => String(r[c]).length)));
  for (const r of cells) console.log(r.map((v, c) => (c === 0 ? String(v).padEnd(widths[c]) : String(v).padStart(widths[c]))).join('  '));
}

/** Median, min and max of a list of numbers. */
export function stats(xs) {
  const s = [...xs].sort((x, y) => x - y);
  return { median: s[s.length >> 1], min: s[0], max: s[s.length - 1] };
}

/**
 * Samples of ns per op: `run(reps)` does `reps * opsPerRep` ops. Warm-up first (at least
 * `warmupMs`, so the JIT has settled), then `reps` is chosen so one sample takes about `sampleMs`,
 * then `samples` timed samples. Returns { samples, median, min, max, reps }. The one-implementation
 * case of `sampleInterleaved`.
 */
export function sample(run, options = {}) {
  return sampleInterleaved([run], options)[0];
}

/** Async twin of `sample` for functions that return promises (fixed reps = 1 per sample). */
export async function sampleAsync(run, { opsPerRep = 1, samples = 5, warmups = 1 } = {}) {
  for (let i = 0; i < warmups; i++) await run();
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t0 = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - t0) / opsPerRep);
  }
  return { samples: times, ...stats(times), reps: 1 };
}

/**
 * A structured measurement: what was measured (function, mode single | batch | cpp | peer | load,
 * implementation, what one op is, batch size) and its samples in ns per op.
 */
export function measurement(fields, s) {
  return { unit: 'ns/op', batchSize: 1, ...fields, samples: s.samples, median: s.median, min: s.min, max: s.max };
}

/** A measurement from one already-reduced figure (e.g. the C++ driver's median): one sample. */
export function single(fields, ns) {
  return measurement(fields, { samples: [ns], median: ns, min: ns, max: ns });
}

/**
 * `sample` for several implementations of the same op, interleaved: each is warmed up and
 * calibrated on its own, then the timed samples go round-robin (rotating the order each round), so
 * drift over the process's life (GC, JIT tiering, frequency) hits every implementation alike.
 */
export function sampleInterleaved(runs, { opsPerRep = 1, samples = 7, sampleMs = 4, warmupMs = 40 } = {}) {
  const reps = runs.map((run) => {
    let r = 1;
    const start = performance.now();
    for (;;) {
      const t0 = performance.now();
      run(r);
      const ms = performance.now() - t0;
      if (ms >= sampleMs / 4 || r >= 1 << 30) {
        r = Math.max(1, Math.round(r * sampleMs / Math.max(ms, 1e-3)));
        if (performance.now() - start >= warmupMs) return r;
      } else {
        r *= 4;
      }
    }
  });
  const times = runs.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (let k = 0; k < runs.length; k++) {
      const i = (k + s) % runs.length;
      const t0 = process.hrtime.bigint();
      runs[i](reps[i]);
      times[i].push(Number(process.hrtime.bigint() - t0) / (reps[i] * opsPerRep));
    }
  }
  return times.map((t, i) => ({ samples: t, ...stats(t), reps: reps[i] }));
}

/**
 * A section file run on its own (`node bench/sections/NAME.mjs [--quick]`, after `npm run build`):
 * runs the section against the built package and prints its table. Does nothing when the file is
 * imported by bench/run.mjs.
 */
export async function runStandalone(moduleUrl, title, run) {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return;
  const js = await import('bitboard-patterns/js');
  let native = null;
  try { native = await import('bitboard-patterns/native'); } catch (e) { console.warn(`native unavailable: ${e.message}`); }
  let wasm = null;
  try { wasm = await import('bitboard-patterns/wasm'); } catch (e) { console.warn(`wasm unavailable: ${e.message}`); }
  const { columns, rows, notes = [] } = await run({ js, native, wasm, quick: process.argv.includes('--quick') });
  printTable({ title, columns, rows, notes });
}

/**
 * The bench's PGN corpus of `games` generated games (scripts/make-pgn.mjs, seed 2026), made once
 * and kept in bench/.build/ for the next sections and runs.
 */
export async function pgnCorpus(api, games) {
  mkdirSync(buildDir, { recursive: true });
  const file = join(buildDir, `corpus-${games}.pgn`);
  if (existsSync(file)) return readFileSync(file);
  const { makePgn } = await import('../scripts/make-pgn.mjs');
  const text = Buffer.from(makePgn(api, { games, seed: 2026 }));
  writeFileSync(file, text);
  return text;
}

/**
 * Median ms of `samples` runs of fn after one warm-up (wall clock), and the median CPU ms of the
 * process over the same runs (user + system, all threads: on a shared machine the wall clock also
 * counts the time other processes held the core); fn returns a checksum.
 */
export function timeRuns(fn, samples) {
  let check = fn();
  const ms = [];
  const cpu = [];
  for (let i = 0; i < samples; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    check = fn();
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { ms: ms[ms.length >> 1], cpuMs: cpu[cpu.length >> 1], samples: ms, check };
}

/**
 * One random FEN piece placement from rand64 (makeRandom): the kings apart, then 6 to 6 + range - 1
 * other pieces, alternately white and black, no pawn on the first or last rank. Whether a side is in
 * check is the caller's to judge.
 */
export function randomPlacement(rand64, range) {
  const letters = 'PNBRQ';
  const board = new Array(64).fill('');
  const free = () => { for (;;) { const s = Number(rand64() & 63n); if (!board[s]) return s; } };
  const wk = free(); board[wk] = 'K';
  let bk; do { bk = free(); } while (Math.max(Math.abs((bk & 7) - (wk & 7)), Math.abs((bk >> 3) - (wk >> 3))) < 2);
  board[bk] = 'k';
  const pieces = 6 + Number(rand64() % BigInt(range));
  for (let i = 0; i < pieces; i++) {
    const letter = letters[Number(rand64() % 5n)];
    let s = free();
    if (letter === 'P') { while ((s >> 3) === 0 || (s >> 3) === 7) s = free(); }
    board[s] = (i & 1) ? letter.toLowerCase() : letter;
  }
  const ranks = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) { const p = board[r * 8 + f]; if (!p) empty++; else { row += (empty || '') + p; empty = 0; } }
    ranks.push(row + (empty || ''));
  }
  return ranks.join('/');
}
