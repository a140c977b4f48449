/**
 * Bench section: general tablebase generation (lib/tablebases/tablebase.ts) per ending: wall time of the ending
 * itself (its sub-endings made first, untimed) and the peak RSS of a child process that makes the
 * family, native on 1 and 2 threads and JS (3 pieces; 4 without --quick), DTM and DTZ.
 *
 *   node bench/sections/tbgen.mjs [--quick]     (stand-alone, after `npm run build`)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runStandalone } from '../lib.mjs';

export const title = 'Tablebase generation (DTM, DTZ)';

const CHILD = `
const [material, backend, threads, metric] = process.argv.slice(1);
const { Tablebase, tablebaseMaterial, tablebaseSubMaterials } = await import('bitboard-patterns');
const made = new Map();
const make = async (name) => {
  if (made.has(name)) return made.get(name);
  for (const s of tablebaseSubMaterials(tablebaseMaterial('bench', name))) await make(s);
  const t = await Tablebase.generate(name, { backend: name === material ? backend : 'native', threads: Number(threads), metric, known: [...made.values()] });
  made.set(name, t);
  return t;
};
for (const s of tablebaseSubMaterials(tablebaseMaterial('bench', material))) await make(s);
const t0 = performance.now();
const tb = await Tablebase.generate(material, { backend, threads: Number(threads), metric, known: [...made.values()] });
const ms = performance.now() - t0;
const s = tb.stats();
process.stdout.write(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024, longest: s.whiteToMove.longestWin, bytes: tb.table.length }));
`;

function measure(material, backend, threads, metric) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, material, backend, String(threads), metric], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out);
}

export async function run({ native, quick, filter }) {
  if (filter && !filter.test('Tablebase.generate')) return null;
  const endings = quick ? ['KQvK', 'KPvK', 'KQvKR'] : ['KQvK', 'KRvK', 'KPvK', 'KBBvK', 'KBNvK', 'KQvKR', 'KRvKN', 'KPvKN'];
  const rows = [], measurements = [];
  for (const m of endings) {
    const pieces = m.replace('v', '').length;
    const configs = [];
    if (native) configs.push(['native', 1, 'dtm'], ['native', 2, 'dtm'], ['native', 1, 'dtz'], ['native', 2, 'dtz']);
    if (pieces <= 3 || (!quick && m === 'KQvKR')) configs.push(['js', 1, 'dtm'], ['js', 1, 'dtz']);
    for (const [backend, threads, metric] of configs) {
      const r = measure(m, backend, threads, metric);
      const label = `${backend === 'js' ? 'JS' : `native ${threads} thread${threads > 1 ? 's' : ''}`} ${metric.toUpperCase()}`;
      rows.push([m, label, r.ms.toFixed(0), r.maxRssMB.toFixed(0), String(r.longest), (r.bytes / 1e6).toFixed(1)]);
      measurements.push({ fn: 'Tablebase.generate', mode: 'single', impl: `${m} ${label}`, unit: 'ns/op', batchSize: 1, perOp: 'generation',
        op: `one ${m} ${metric.toUpperCase()} table (sub-endings given)`, samples: [r.ms * 1e6], median: r.ms * 1e6, min: r.ms * 1e6, max: r.ms * 1e6 });
    }
  }
  return {
    measurements,
    columns: ['ending', 'generator', 'ms', 'peak RSS MB', 'longest win wtm (DTM moves, DTZ plies)', 'table MB'],
    rows,
    notes: ['one run each in a child process (peak RSS is that process\'s, sub-endings included); goals: each 3-4 piece ending natively < 1 s'],
  };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
