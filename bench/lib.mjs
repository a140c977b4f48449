/** Shared pieces of the benchmark sections: deterministic inputs, timing, the C++ drivers, tables. */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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

/** ns per element of `run()` doing `count` elements: median of `samples` runs after one warm-up. */
export function measure(run, count, samples) {
  run();
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t0 = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - t0) / count);
  }
  return median(times);
}

/** g++ flags matching the addon's kernels for the CPU path it chose. */
export function cppFlags(native) {
  const path = native?.cpuPath ?? 'portable';
  const flags = ['-O3', '-std=c++17', '-I', join(benchDir, '..', 'native')];
  if (path.includes('sse4.1')) flags.push('-msse4.1', '-mpopcnt');
  if (path.includes('bmi2')) flags.push('-mbmi2');
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
