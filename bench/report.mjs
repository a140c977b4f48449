/**
 * The bench driver's second half: module load and table initialisation (fresh `node` processes),
 * memory (table sizes, peak RSS per section), the coverage check, the summary, the routing table
 * generator and the report files (report.md, report.svg, results.json).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, fmt, stats } from './lib.mjs';

export const resultsDir = join(benchDir, 'results');
const repoRoot = join(benchDir, '..');

// ---------------------------------------------------------------- load and initialisation

/** What each fresh process does after the import: the first call of each topic (lazy tables are built here). */
const FIRST_CALLS = [
  ['king/knight tables: kingAttacks(0)', 'm.kingAttacks(0)'],
  ['sliders: rookAttacks(0, 0n)', 'm.rookAttacks(0, 0n)'],
  ['positions: parseFen + checkers', "m.checkers(m.parseFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'))"],
  ['moves: legalMoves(start)', 'm.legalMoves(m.parseFen(m.STARTING_FEN))'],
  ['KBNK: kbnkEvalSquares', 'm.kbnkEvalSquares(4, 2, 1, 60)'],
  ['batch: analyzeBatch(1 position)', "m.analyzeBatch(m.PositionBatch.fromFens(['8/8/8/8/8/8/8/K6k w - - 0 1']))"],
];

function loadScript(spec) {
  return `const t0 = performance.now();
const m = await import(${JSON.stringify(spec)});
const importMs = performance.now() - t0;
const first = {};
${FIRST_CALLS.map(([label, code]) => `{ const a = performance.now(); ${code}; first[${JSON.stringify(label)}] = performance.now() - a; }`).join('\n')}
console.log(JSON.stringify({ importMs, first, maxRssKb: process.resourceUsage().maxRSS, backend: m.backend }));`;
}

/** Module load and table initialisation per entry point: medians over fresh processes. */
export function measureLoad({ quick, native }) {
  const runs = quick ? 3 : 9;
  const specs = [['JS backend', 'bitboard-patterns/js'], ...(native ? [['native backend', 'bitboard-patterns/native']] : []),
    ['facade (routed)', 'bitboard-patterns']];
  const spawnMs = (argv) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, argv, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`load bench: ${r.stderr}`);
    return [ms, r.stdout];
  };
  const bare = stats(Array.from({ length: runs }, () => spawnMs(['--input-type=module', '-e', ''])[0]));
  const rows = [];
  const measurements = [];
  for (const [label, spec] of specs) {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const [wall, out] = spawnMs(['--input-type=module', '-e', loadScript(spec)]);
      samples.push({ wall, ...JSON.parse(out.trim().split('\n').pop()) });
    }
    const imp = stats(samples.map((s) => s.importMs));
    const firstTotal = stats(samples.map((s) => Object.values(s.first).reduce((x, y) => x + y, 0)));
    const wall = stats(samples.map((s) => s.wall));
    const rss = stats(samples.map((s) => s.maxRssKb));
    const firsts = FIRST_CALLS.map(([l]) => stats(samples.map((s) => s.first[l])).median);
    rows.push([label, imp.median, `${imp.min.toFixed(1)}-${imp.max.toFixed(1)}`, ...firsts, firstTotal.median, wall.median - bare.median, rss.median / 1024]);
    const add = (fn, op, xs) => measurements.push({ fn, mode: 'load', impl: label, op, unit: 'ns/op', batchSize: 1, perOp: 'process',
      samples: xs.map((x) => x * 1e6), ...Object.fromEntries(Object.entries(stats(xs)).map(([k, v]) => [k, v * 1e6])) });
    add(`import ${spec}`, `time of await import('${spec}') in a fresh node process`, samples.map((s) => s.importMs));
    add(`first calls ${spec}`, 'first call of each topic after the import, summed', samples.map((s) => Object.values(s.first).reduce((x, y) => x + y, 0)));
  }
  return {
    title: `Module load and table initialisation (ms; median of ${runs} fresh node processes)`,
    columns: ['entry point', 'import ms', 'import min-max', ...FIRST_CALLS.map(([l]) => `first ${l.split(':')[0]}`), 'first calls total', 'process ms over bare node', 'peak RSS MB'],
    rows,
    notes: [
      `import = \`await import(spec)\` inside a fresh \`node --input-type=module\` (ESM build in dist/); bare \`node -e ''\` takes ${bare.median.toFixed(0)} ms.`,
      'first X = the first call of that topic after the import, in ms (lazily built tables and JIT-cold code show up here).',
      'process ms over bare node = the whole process (start, import, first calls, exit) minus a bare node process.',
    ],
    measurements,
    bareNodeMs: bare.median,
  };
}

// ---------------------------------------------------------------- memory

export function memory({ baseline, results }) {
  let tables = {};
  try { tables = JSON.parse(execFileSync(baseline, ['tables'], { encoding: 'utf8' })); } catch { /* no compiler */ }
  const rows = Object.entries(tables).map(([k, v]) => [k, `${(v / 1024).toFixed(1)} KiB`]);
  const rss = results.map((r) => [`peak RSS of section "${r.name}" (its own node process)`, `${(r.maxRssKb / 1024).toFixed(0)} MiB`]);
  return {
    title: 'Memory (table sizes: sizeof in the C++ core; peak RSS: process.resourceUsage().maxRSS of each section\'s child process)',
    columns: ['what', 'size'],
    rows: [...rows, ...rss],
    notes: [
      'The addon builds the magic tables once per process (and the PEXT tables too when BMI2 is active); the other tables are',
      'constexpr data in the binary. The KBNK table is allocated per KbnkTablebase. A bare node process peaks near 40 MiB.',
    ],
    tables,
  };
}

// ---------------------------------------------------------------- coverage

/** Error classes: exported, but nothing to time. */
const NOT_FUNCTIONS = new Set(['FenError', 'MoveError', 'PositionError', 'KbnkFileError']);

/** Every public function of the facade (Object.keys, variants as variants.x) and the rows measuring it. */
export function coverage(facade, results, filter) {
  let functions = Object.keys(facade).filter((k) => typeof facade[k] === 'function' && !NOT_FUNCTIONS.has(k));
  functions.push(...Object.keys(facade.variants).filter((k) => typeof facade.variants[k] === 'function').map((k) => `variants.${k}`));
  if (filter) functions = functions.filter((f) => filter.test(f));
  const all = results.flatMap((r) => (r.measurements ?? []).map((m) => ({ ...m, section: r.name })));
  const map = functions.map((fn) => {
    const rows = all.filter((m) => m.fn === fn || m.fn.startsWith(`${fn}.`) || m.fn.startsWith(`${fn}#`));
    return [fn, [...new Set(rows.map((m) => `${m.section}: ${m.mode}${m.impl ? ` ${m.impl}` : ''}`))]];
  });
  return {
    functions,
    covered: map.filter(([, r]) => r.length).map(([f]) => f),
    uncovered: map.filter(([, r]) => !r.length).map(([f]) => f),
    map,
  };
}

// ---------------------------------------------------------------- summary

const BATCH_NAME = /Batch$/;

/** Per function of the api section: JS, native, facade, the faster backend, the goal, C++ and peers. */
export function summaryRows(results) {
  const api = results.find((r) => r.name === 'api');
  const ms = api?.measurements ?? [];
  const byFn = new Map();
  for (const m of ms) {
    if (!byFn.has(m.fn)) byFn.set(m.fn, { mode: m.mode, batchSize: m.batchSize, op: m.op });
    byFn.get(m.fn)[m.impl] = m.median;
  }
  const cpp = new Map();
  for (const r of results) for (const m of r.measurements ?? []) if (m.mode === 'cpp') cpp.set(m.fn, m.median);
  const routeOf = new Map((api?.rows ?? []).map((r) => [r[0], r[api.columns.indexOf('route')]]));
  const rows = [];
  const missed = [];
  let met = 0;
  for (const [fn, x] of byFn) {
    if (x.shared !== undefined) continue;
    const faster = Math.min(...[x.js, x.native].filter((v) => v !== undefined));
    const goal = x.facade / faster;
    if (goal <= 1.1) met++; else missed.push(`${fn} ${goal.toFixed(2)}x`);
    const single = fn.replace(BATCH_NAME, '');
    rows.push([fn, x.mode === 'batch' ? `batch ${x.batchSize}` : 'single', x.js ?? '-', x.native ?? '-',
      x.native === undefined || x.js === undefined ? '-' : `${(x.js / x.native).toFixed(2)}x`,
      x.wasm ?? '-', x.wasm === undefined || x.native === undefined ? '-' : `${(x.wasm / x.native).toFixed(2)}x`,
      x.facade, `${goal.toFixed(2)}x`, routeOf.get(fn) ?? '-',
      x.mode === 'batch' && cpp.has(single) ? cpp.get(single) : '-']);
  }
  return {
    columns: ['function', 'mode', 'JS ns', 'native ns', 'JS / native', 'wasm ns', 'wasm / native', 'facade ns', 'facade / faster', 'route', 'C++ loop ns/elem'],
    rows,
    notes: ['single: ns per call; batch N: ns per element (per position for position batches); C++ loop: bench/baseline.cc on the patterns/checks inputs.'],
    goal: { met, missed },
  };
}

// ---------------------------------------------------------------- report files

const mdTable = ({ columns, rows }) => [
  `| ${columns.join(' | ')} |`,
  `|${columns.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ...rows.map((r) => `| ${r.map((v) => String(fmt(v)).replace(/\|/g, '\\|')).join(' | ')} |`),
].join('\n');

export function writeReports({ machine, results, load, memory: mem, coverage: cov, summary, quick, filter, wallMs }) {
  mkdirSync(resultsDir, { recursive: true });
  const md = [];
  md.push('# bitboard-patterns benchmark report', '');
  md.push(`Command: \`${machine.command}\`${quick ? ' (quick mode: fewer, shorter samples; smaller inputs)' : ''}; `
    + `wall time ${(wallMs / 1000).toFixed(0)} s; ${machine.date}.`, '');
  md.push('## Machine', '');
  md.push(`- CPU: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GiB; ${machine.platform}`);
  md.push(`- Node ${machine.node} (V8 ${machine.v8})`);
  md.push(`- CPU supports: ${machine.cpuSupports}`);
  md.push(`- native cpuPath: \`${machine.cpuPath}\` = ${machine.cpuPathMeans}`);
  md.push(`- plain C++ loops: g++ ${machine.cppFlags}`);
  if (machine.loadAverage !== undefined) {
    md.push(`- load average (1 min) as the run started: ${machine.loadAverage.toFixed(2)}`
      + (machine.loadAverage >= machine.cores / 2 ? ' (other work was running: figures and ratios carry its noise)' : ''));
  }
  md.push('');
  md.push('## Method', '');
  md.push('- Every section runs in a child process of its own (peak RSS per section; no JIT state shared between sections);',
    '  every ratio is between two figures of the same run.',
    '- Single calls (api section): one process per implementation (JS, native, facade), each (function, implementation) pair in',
    '  its own loop compiled with `new Function`, so no JIT state is shared between backends (in one process, a JS loop compiled',
    '  after a native one ran measurably slower: 6 ns instead of 3 for kingAttacks); 4096 argument tuples are cycled; warm-up,',
    '  then samples of a few ms each;',
    '  figures are the median with min-max over the samples (raw samples in results.json); a full run makes two rounds of the',
    '  three processes, the second in the reverse order, and keeps the lower median per function and implementation, so a',
    '  machine that slows down for a while does not weigh on one implementation alone.',
    '- Batch forms: one call over a typed array, caller-allocated output; ns per element (per position for position batches).',
    '- "facade" is the default `bitboard-patterns` export: the lookups declared cheap in lib/api/declarations.ts answered in JS,',
    '  everything else natively; goal: facade <= 1.1x the faster backend for every function (the misses are listed).', '');
  md.push('## Summary: every function, JS vs native vs facade', '');
  md.push(`Goal (facade <= 1.1x the faster backend): **${summary.goal.met} met, ${summary.goal.missed.length} missed**`
    + (summary.goal.missed.length ? ` (${summary.goal.missed.join(', ')})` : '') + '.'
    + (quick ? ' (--quick run: too few, too short samples for this check; the full run is the measurement.)' : ''), '');
  md.push(mdTable(summary), '', ...summary.notes, '');
  md.push('![ns per op, log scale](report.svg)', '');
  for (const r of results) {
    md.push(`## ${r.title}`, '');
    if (r.notes?.length) md.push(...r.notes.map((n) => (n.startsWith('  ') ? n : `${n}`)), '');
    md.push(mdTable(r), '');
    md.push(`Section process: ${(r.processMs / 1000).toFixed(1)} s, peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB.`, '');
    if (r.name === 'api') {
      md.push('<details><summary>What one op is, per row</summary>', '');
      const ops = new Map();
      for (const m of r.measurements) if (!ops.has(m.fn)) ops.set(m.fn, `${m.op}${m.batchSize > 1 ? ` (batch size ${m.batchSize})` : ''}`);
      md.push(...[...ops].map(([f, o]) => `- ${f}: ${o}`), '', '</details>', '');
    }
  }
  for (const t of [load, mem].filter(Boolean)) md.push(`## ${t.title}`, '', ...(t.notes ?? []), '', mdTable(t), '');
  md.push('## Coverage', '', `${cov.covered.length} of ${cov.functions.length} public functions of the facade (Object.keys) are measured`
    + (cov.uncovered.length ? `; not measured: ${cov.uncovered.join(', ')}.` : '; none is left out.'), '');
  md.push('<details><summary>Which rows measure each function</summary>', '');
  md.push(...cov.map.map(([f, r]) => `- ${f}: ${r.join('; ') || '**not measured**'}`), '', '</details>', '');
  if (filter) md.push(`(--filter ${filter}: only matching functions were measured.)`, '');

  const files = [join(resultsDir, 'report.md'), join(resultsDir, 'report.svg'), join(resultsDir, 'results.json')];
  writeFileSync(files[0], `${md.join('\n')}\n`);
  writeFileSync(files[1], chart(results, machine, quick));
  writeFileSync(files[2], JSON.stringify({ machine, quick, filter: filter ?? null, wallMs, sections: results, load, memory: mem, coverage: cov }, null, 1));
  return files.map((f) => f.slice(repoRoot.length + 1));
}

// ---------------------------------------------------------------- the chart

const SERIES = [
  ['JS', '#e8a33d'],
  ['native, single call', '#2f6db5'],
  ['native, batch (per element)', '#7fb2e5'],
  ['plain C++ loop (per element)', '#3a9a5b'],
  ['wasm (Node)', '#6a3d9a'],
  ['wasm (Chromium)', '#b294c7'],
  ['chessops', '#b5477e'],
  ['chess.js', '#8c6bb1'],
];

/** Groups: per function the bars it has, in ns per op. */
function chartGroups(results) {
  const groups = new Map();
  const put = (group, series, ns) => {
    if (!(ns > 0)) return;
    if (!groups.has(group)) groups.set(group, new Map());
    groups.get(group).set(series, ns);
  };
  for (const r of results) {
    for (const m of r.measurements ?? []) {
      if (r.name === 'api') {
        if (m.impl === 'facade' || m.impl === 'shared') continue;
        if (m.mode === 'single') put(m.fn, m.impl === 'js' ? 'JS' : 'native, single call', m.median);
        else if (BATCH_NAME.test(m.fn)) {
          const base = m.fn.replace(BATCH_NAME, '');
          if (m.impl === 'native') put(base, 'native, batch (per element)', m.median);
        }
      } else if (m.chart) {
        put(m.chart.group, m.chart.series, m.median);
      }
    }
  }
  // Only groups with at least two bars compare anything.
  return [...groups].filter(([, s]) => s.size >= 2);
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const nsLabel = (ns) => (ns >= 1e9 ? `${(ns / 1e9).toPrecision(3)} s` : ns >= 1e6 ? `${(ns / 1e6).toPrecision(3)} ms`
  : ns >= 1e3 ? `${(ns / 1e3).toPrecision(3)} µs` : `${ns.toPrecision(3)} ns`);

export function chart(results, machine, quick) {
  const groups = chartGroups(results);
  const W = 1150, left = 300, right = 90, top = 110, bar = 9, gap = 12;
  const plotW = W - left - right;
  const values = groups.flatMap(([, s]) => [...s.values()]);
  const lo = Math.floor(Math.log10(Math.min(...values, 1)));
  const hi = Math.ceil(Math.log10(Math.max(...values, 10)));
  const x = (ns) => left + ((Math.log10(ns) - lo) / (hi - lo)) * plotW;
  let y = top;
  const body = [];
  for (const [name, series] of groups) {
    const bars = SERIES.filter(([s]) => series.has(s));
    const h = bars.length * bar;
    body.push(`<text x="${left - 8}" y="${y + h / 2 + 4}" text-anchor="end" class="fn">${esc(name)}</text>`);
    bars.forEach(([s, color], i) => {
      const ns = series.get(s);
      const by = y + i * bar;
      body.push(`<rect x="${left}" y="${by}" width="${Math.max(1, x(ns) - left).toFixed(1)}" height="${bar - 1}" fill="${color}"><title>${esc(name)}: ${esc(s)} ${nsLabel(ns)}</title></rect>`);
      body.push(`<text x="${(x(ns) + 4).toFixed(1)}" y="${by + bar - 1.5}" class="val">${nsLabel(ns)}</text>`);
    });
    y += h + gap;
    body.push(`<line x1="10" x2="${W - 10}" y1="${y - gap / 2}" y2="${y - gap / 2}" class="sep"/>`);
  }
  const H = y + 40;
  const grid = [];
  for (let p = lo; p <= hi; p++) {
    const gx = x(10 ** p).toFixed(1);
    grid.push(`<line x1="${gx}" x2="${gx}" y1="${top - 6}" y2="${y}" class="grid"/>`);
    grid.push(`<text x="${gx}" y="${top - 10}" text-anchor="middle" class="axis">${nsLabel(10 ** p)}</text>`);
    grid.push(`<text x="${gx}" y="${y + 14}" text-anchor="middle" class="axis">${nsLabel(10 ** p)}</text>`);
  }
  const legend = SERIES.map(([s, color], i) => {
    const lx = 20 + (i % 3) * 330, ly = 56 + Math.floor(i / 3) * 16;
    return `<rect x="${lx}" y="${ly - 9}" width="12" height="10" fill="${color}"/><text x="${lx + 18}" y="${ly}" class="legend">${esc(s)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif">
<style>
  .fn { font-size: 11px; fill: #222; } .val { font-size: 8.5px; fill: #444; } .axis { font-size: 10px; fill: #555; }
  .legend { font-size: 11px; fill: #222; } .title { font-size: 15px; font-weight: bold; fill: #111; } .sub { font-size: 10.5px; fill: #555; }
  .grid { stroke: #ddd; stroke-width: 1; } .sep { stroke: #f0f0f0; stroke-width: 1; }
</style>
<rect width="100%" height="100%" fill="white"/>
<text x="20" y="20" class="title">bitboard-patterns: time per op, log scale (shorter is faster)</text>
<text x="20" y="33" class="sub">${esc(`${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, native ${machine.cpuPath}${quick ? ', --quick run' : ''}. Single call: ns per call; batch and C++ loop: ns per element; perft: ns per leaf node; KBNK: one full generation.`)}</text>
${legend.join('\n')}
${grid.join('\n')}
${body.join('\n')}
<text x="${W - 10}" y="${H - 8}" text-anchor="end" class="sub">bench/results/report.md has the numbers (median, min-max) and what each op is</text>
</svg>
`;
}
