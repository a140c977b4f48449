#!/usr/bin/env node
/**
 * npm run bench [-- --quick] [-- --filter <regexp>]      the report (bench/results/)
 *
 * One run measures everything: each section of bench/sections/ runs in a child process of its own
 * (so its peak RSS is its own and no JIT state leaks between sections; the api section runs once
 * per implementation, JS / native / facade, for the same reason), measuring the JS backend,
 * the native addon (single calls and batch forms), the default facade, a plain C++ loop over the same
 * core (compiled here with the addon's flags) and, where the section has them, peer libraries. Every
 * comparison is a ratio of two figures from this run. Then module load / table initialisation (fresh
 * `node` processes) and memory (table sizes, peak RSS per section). Writes bench/results/report.md,
 * report.svg and results.json (raw samples) and prints the summary.
 *
 * `--filter` keeps the functions whose name matches (across sections); `--quick` takes fewer and
 * shorter samples and smaller inputs (under a minute on two cores; CI runs it, without assertions).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchDir, compileCpp, cppFlags, printTable } from './lib.mjs';
import { coverage, measureLoad, memory, writeReports, summaryRows } from './report.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name) => { const at = args.indexOf(name); return at >= 0 ? args[at + 1] : undefined; };
const quick = flag('--quick');
const filterText = value('--filter');
const filter = filterText !== undefined ? new RegExp(filterText, 'i') : null;
if (flag('--help') || flag('-h')) {
  const sections = readdirSync(join(benchDir, 'sections')).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4));
  process.stdout.write(`usage: npm run bench [-- --quick] [-- --filter <regexp>]
  --quick            fewer, shorter samples and smaller inputs (CI runs it, without assertions)
  --filter <regexp>  only the functions (and sections' rows) whose name matches
  --child <section>  one section alone, its results as JSON to --out FILE (sections: ${sections.join(', ')})
Writes bench/results/report.md, report.svg and results.json, and prints the summary.
`);
  process.exit(0);
}

async function loadNative() {
  try {
    return await import('bitboard-patterns/native');
  } catch (e) {
    console.warn(`native backend unavailable, benchmarking JS only: ${e.message}`);
    return null;
  }
}

async function loadWasm() {
  try {
    return await import('bitboard-patterns/wasm');
  } catch (e) {
    console.warn(`wasm backend unavailable, its columns are skipped: ${e.message}`);
    return null;
  }
}

// ---- child: one section, results to a JSON file ----
if (value('--child')) {
  const name = value('--child');
  const js = await import('bitboard-patterns/js');
  const native = await loadNative();
  const wasm = await loadWasm();
  const facade = await import('bitboard-patterns');
  const section = await import(join(benchDir, 'sections', `${name}.mjs`));
  const t0 = performance.now();
  const result = await section.run({ js, native, wasm, facade, quick, filter, baseline: value('--baseline'), impl: value('--impl') });
  const out = result && { title: section.title, ...result, wallMs: performance.now() - t0, maxRssKb: process.resourceUsage().maxRSS };
  writeFileSync(value('--out'), JSON.stringify(out, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
  process.exit(0);
}

// ---- driver ----
const started = performance.now();
const native = await loadNative();
const wasmBuilt = (await loadWasm()) !== null;
const CPU_PATHS = {
  portable: 'portable C++ (no x86 intrinsics): shift-based fills, software popcount, magic-bitboard sliders',
  'sse4.1+popcnt': 'SSE4.1 (two-lane _mm_cmpeq_epi64 / 128-bit fills) + hardware POPCNT; magic-bitboard sliders',
  'sse4.1+popcnt+bmi2': 'SSE4.1 + hardware POPCNT + BMI2: sliders indexed with PEXT instead of magic multiplication',
};
const cpuFlags = (() => {
  try { return (/^flags\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '').split(' '); } catch { return []; }
})();
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown CPU',
  cores: cpus().length,
  memoryGb: +(totalmem() / 2 ** 30).toFixed(1),
  node: process.version,
  v8: process.versions.v8,
  platform: `${process.platform}-${process.arch}`,
  cpuSupports: ['sse4_1', 'popcnt', 'bmi2'].filter((f) => cpuFlags.includes(f)).join(', ') || 'unknown',
  cpuPath: native?.cpuPath ?? 'unavailable (native not loaded)',
  cpuPathMeans: CPU_PATHS[native?.cpuPath] ?? 'JS only',
  cppFlags: cppFlags(native).filter((f) => f.startsWith('-m') || f.startsWith('-O') || f.startsWith('-D')).join(' '),
  command: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`,
  date: new Date().toISOString(),
  // One-minute load average as the run starts: other work on the machine shows here.
  loadAverage: loadavg()[0],
};
console.log(`# bitboard-patterns bench${quick ? ' (--quick)' : ''}`);
console.log(`${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; CPU supports ${machine.cpuSupports}; `
  + `native cpuPath: ${machine.cpuPath} (${machine.cpuPathMeans}); C++ flags: ${machine.cppFlags}`);

const baseline = compileCpp('baseline', native);
const order = ['api', 'patterns', 'checks', 'motifs', 'perft', 'kbnk', 'batch'];
const available = readdirSync(join(benchDir, 'sections')).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4));
const sections = available.sort((x, y) => (order.indexOf(x) + 1 || 99) - (order.indexOf(y) + 1 || 99) || x.localeCompare(y));
const tmp = join(tmpdir(), `bbp-bench-${process.pid}`);
mkdirSync(tmp, { recursive: true });
const results = [];
/** Runs one section in a child process; returns its result (null when it measured nothing). */
function runChild(name, extra = []) {
  const out = join(tmp, `${name}${extra.join('-')}.json`);
  const childArgs = [join(benchDir, 'run.mjs'), '--child', name, '--out', out, '--baseline', baseline, ...extra,
    ...(quick ? ['--quick'] : []), ...(filterText !== undefined ? ['--filter', filterText] : [])];
  const r = spawnSync(process.execPath, childArgs, { stdio: 'inherit', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  if (r.status !== 0) throw new Error(`bench section ${name} failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(readFileSync(out, 'utf8'));
}
const facade = await import('bitboard-patterns');
for (const name of sections) {
  const t0 = performance.now();
  let result;
  if (name === 'api') {
    // One process per implementation: JS, native and facade loops never share a process's JIT state.
    // A full run takes two rounds, the second in the reverse order, and keeps the lower median per
    // function and implementation: a machine that slows down for a while then weighs on no one
    // implementation alone.
    const impls = ['js', ...(native ? ['native'] : []), ...(wasmBuilt ? ['wasm'] : []), 'facade'];
    const rounds = quick ? [impls] : [impls, [...impls].reverse()];
    const parts = rounds.flatMap((order, r) => order.map((impl) => runChild(name, ['--impl', impl, '--round', String(r)]))).filter(Boolean);
    result = parts.length ? (await import(join(benchDir, 'sections', 'api.mjs'))).merge(parts, facade.routing, rounds.length) : null;
  } else {
    result = runChild(name);
  }
  if (!result) continue;
  result.name = name;
  result.processMs = performance.now() - t0;
  results.push(result);
  printTable(result);
  console.log(`(section ${name}: ${(result.processMs / 1000).toFixed(1)} s, peak RSS ${(result.maxRssKb / 1024).toFixed(0)} MB)`);
}
rmSync(tmp, { recursive: true, force: true });

const wantsExtra = (w) => !filter || filter.test(w);
const load = wantsExtra('load') ? measureLoad({ quick, native }) : null;
if (load) printTable(load);
const mem = wantsExtra('memory') ? memory({ baseline, results }) : null;
if (mem) printTable(mem);
const cov = coverage(facade, results, filter);
const summary = summaryRows(results);
const wallMs = performance.now() - started;
const files = writeReports({ machine, results, load, memory: mem, coverage: cov, summary, quick, filter: filterText, wallMs });

printTable({ title: 'Summary (per function: ns per call; batch: ns per element)', ...summary });
console.log(`\ncoverage: ${cov.covered.length} of ${cov.functions.length} public functions measured`
  + (cov.uncovered.length ? `; NOT measured: ${cov.uncovered.join(', ')}` : ' (none left out)'));
console.log(`facade goal (<= 1.1x the faster backend): ${summary.goal.met} met, ${summary.goal.missed.length} missed`
  + (summary.goal.missed.length ? ` (${summary.goal.missed.join(', ')})` : '')
  + (quick ? '\n(--quick: samples too few and short for the 1.1x check; the full run is the measurement)' : ''));
console.log(`wrote ${files.join(', ')}; total ${(wallMs / 1000).toFixed(1)} s`);
