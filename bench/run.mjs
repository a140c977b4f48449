#!/usr/bin/env node
/**
 * npm run bench [-- --quick] [-- --filter king]
 *
 * Per function, in one process run on the same inputs: JS single call (ns/op), native single call
 * (ns/op), JS batch and native batch (ns/element), and a plain C++ loop over the same core
 * function (bench/baseline.cc, compiled here with the addon's flags), so the table shows the
 * Node-API overhead and how close the batch path gets to raw C++. Medians of several samples.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as js from 'bitboard-patterns/js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filterAt = args.indexOf('--filter');
const filter = filterAt >= 0 ? new RegExp(args[filterAt + 1] ?? '', 'i') : null;

let native = null;
try {
  native = await import('bitboard-patterns/native');
} catch (e) {
  console.warn(`native backend unavailable, benchmarking JS only: ${e.message}`);
}

// ------------------------------------------------------------------ inputs (shared with C++)
const N = quick ? 1 << 16 : 1 << 20; // batch size
const SINGLE = quick ? 1 << 14 : 1 << 17; // single calls per sample
const SAMPLES = quick ? 3 : 7;

let seed = 0x9e3779b97f4a7c15n;
function rand64() { // xorshift64*, deterministic inputs
  seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xffffffffffffffffn; seed ^= seed >> 27n;
  return (seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
}
const sq = new Uint8Array(N), sq2 = new Uint8Array(N);
const sets = Array.from({ length: 5 }, () => new BigUint64Array(N));
const path = new BigUint64Array(N), single1 = new BigUint64Array(N), single2 = new BigUint64Array(N);
for (let i = 0; i < N; i++) {
  sq[i] = Number(rand64() & 63n); sq2[i] = Number(rand64() & 63n);
  for (const s of sets) s[i] = rand64() & rand64(); // ~25% density: piece-set-like
  path[i] = (rand64() | rand64() | (1n << BigInt(sq[i])) | (1n << BigInt(sq2[i]))); // ~75%: fills run several steps
  single1[i] = 1n << BigInt(sq[i]); single2[i] = 1n << BigInt(sq2[i]);
}
const [a, b, c, d, e] = sets;

// ------------------------------------------------------------------ cases
// single(api, i) is one call; batch(api) one call over all N; cpp names the baseline's loop.
const u64 = () => new BigUint64Array(N), u8 = () => new Uint8Array(N), i8 = () => new Int8Array(N);
const setCase = (name) => {
  const out = u64();
  return { name, single: (api, i) => api[name](a[i]), batch: (api) => api[`${name}Batch`](a, out) };
};
const cases = [
  (() => { const out = u64(); return { name: 'kingAttacks', single: (api, i) => api.kingAttacks(sq[i]), batch: (api) => api.kingAttacksBatch(sq, out) }; })(),
  (() => { const out = u64(); return { name: 'knightAttacks', single: (api, i) => api.knightAttacks(sq[i]), batch: (api) => api.knightAttacksBatch(sq, out) }; })(),
  ...['kingAttacksSet', 'knightAttacksSet', 'knightFill', 'forkTargetSquares',
    'noNoEa', 'noEaEa', 'soEaEa', 'soSoEa', 'noNoWe', 'noWeWe', 'soWeWe', 'soSoWe'].map(setCase),
  (() => { const out = u64(); return { name: 'pawnShieldMask', single: (api, i) => api.pawnShieldMask(0, sq[i]), batch: (api) => api.pawnShieldMaskBatch(0, sq, out) }; })(),
  (() => { const out = u8(); return { name: 'pawnShieldIndex', single: (api, i) => api.pawnShieldIndex(0, sq[i], a[i]), batch: (api) => api.pawnShieldIndexBatch(0, sq, a, out) }; })(),
  (() => { const out = u64(); return { name: 'kingMoveTargets', single: (api, i) => api.kingMoveTargets(sq[i], a[i]), batch: (api) => api.kingMoveTargetsBatch(sq, a, out) }; })(),
  (() => { const out = u8(); return { name: 'distantCheckLines', single: (api, i) => api.distantCheckLines(sq[i], a[i]), batch: (api) => api.distantCheckLinesBatch(sq, a, out) }; })(),
  (() => { const out = u64(); return { name: 'caughtableArea', single: (api, i) => api.caughtableArea(1, 0, sq[i]), batch: (api) => api.caughtableAreaBatch(1, 0, sq, out) }; })(),
  (() => { const out = u64(); return { name: 'uncatchablePassers', single: (api, i) => api.uncatchablePassers(a[i], 1, 0, sq[i]), batch: (api) => api.uncatchablePassersBatch(a, 1, 0, sq, out) }; })(),
  (() => { const out = u8(); return { name: 'squaresAreConnected', single: (api, i) => api.squaresAreConnected(single1[i], single2[i], path[i]), batch: (api) => api.squaresAreConnectedBatch(single1, single2, path, out) }; })(),
  (() => { const out = i8(); return { name: 'kingDistance', single: (api, i) => api.kingDistance(sq[i], sq2[i], path[i]), batch: (api) => api.kingDistanceBatch(sq, sq2, path, out) }; })(),
  (() => { const out = i8(); return { name: 'knightDistance', single: (api, i) => api.knightDistance(sq[i], sq2[i], path[i]), batch: (api) => api.knightDistanceBatch(sq, sq2, path, out) }; })(),
  (() => { const out = u64(); return { name: 'knightForkMoves', single: (api, i) => api.knightForkMoves(a[i], b[i], c[i], d[i], e[i]), batch: (api) => api.knightForkMovesBatch(a, b, c, d, e, out) }; })(),
].filter((k) => !filter || filter.test(k.name));

// ------------------------------------------------------------------ timing
function median(xs) { const s = [...xs].sort((x, y) => x - y); return s[s.length >> 1]; }

/** ns per element of `run(count)` over `count` elements: median of SAMPLES after one warm-up. */
function measure(run, count) {
  run(count);
  const samples = [];
  for (let s = 0; s < SAMPLES; s++) {
    const t0 = process.hrtime.bigint();
    run(count);
    samples.push(Number(process.hrtime.bigint() - t0) / count);
  }
  return median(samples);
}

let sink = 0;
const timeSingle = (api, k) => measure((count) => {
  for (let i = 0; i < count; i++) { const r = k.single(api, i & (N - 1)); sink ^= typeof r === 'bigint' ? Number(r & 1n) : Number(r); }
}, SINGLE);
const timeBatch = (api, k) => measure(() => { k.batch(api); }, N);

// ------------------------------------------------------------------ C++ baseline
function cppBaseline() {
  const buildDir = join(here, '.build');
  mkdirSync(buildDir, { recursive: true });
  const exe = join(buildDir, 'baseline');
  const x86 = native?.cpuPath === 'sse4.1+popcnt';
  const flags = ['-O3', '-std=c++17', ...(x86 ? ['-msse4.1', '-mpopcnt'] : ['-DBBP_PORTABLE'])];
  execFileSync('g++', [...flags, '-I', join(here, '..', 'native'), join(here, 'baseline.cc'), '-o', exe], { stdio: 'inherit' });
  const inputFile = join(buildDir, 'inputs.bin');
  const parts = [sq, sq2, a, b, c, d, e, path, single1, single2].map((x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength));
  writeFileSync(inputFile, Buffer.concat(parts));
  const out = execFileSync(exe, [inputFile, String(N), String(SAMPLES)], { encoding: 'utf8' });
  return { result: JSON.parse(out), flags: flags.join(' ') };
}

// ------------------------------------------------------------------ run
const cpp = existsSync(join(here, 'baseline.cc')) ? cppBaseline() : { result: {}, flags: 'n/a' };
const rows = [];
for (const k of cases) {
  const row = { name: k.name, jsSingle: timeSingle(js, k), jsBatch: timeBatch(js, k) };
  if (native) { row.nativeSingle = timeSingle(native, k); row.nativeBatch = timeBatch(native, k); }
  row.cpp = cpp.result[k.name];
  rows.push(row);
}

const fmt = (x) => (x === undefined ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const ratio = (x, y) => (x === undefined || y === undefined ? '-' : `${(x / y).toFixed(2)}x`);
console.log(`\nbitboard-patterns bench: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}`);
console.log(`native cpuPath: ${native?.cpuPath ?? 'unavailable'}; C++ baseline flags: ${cpp.flags}; batch N=${N}, ${SAMPLES} samples, medians`);
console.log('ns per op (single) / ns per element (batch)\n');
const header = ['function', 'JS single', 'native single', 'JS batch', 'native batch', 'C++ loop', 'native batch / C++', 'JS/native single'];
const table = [header, ...rows.map((r) => [r.name, fmt(r.jsSingle), fmt(r.nativeSingle), fmt(r.jsBatch), fmt(r.nativeBatch), fmt(r.cpp),
  ratio(r.nativeBatch, r.cpp), ratio(r.jsSingle, r.nativeSingle)])];
const widths = header.map((_, col) => Math.max(...table.map((row) => row[col].length)));
for (const row of table) console.log(row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('  '));
if (sink === 0.5) console.log(''); // keep results alive
