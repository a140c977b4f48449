/**
 * Generation time of every 3- and 4-piece ending (one colouring each: white has the stronger or
 * equal side, as Syzygy names them), each table alone with its sub-endings given (made first,
 * untimed), synchronously on the calling thread: native with --threads N, or the JS twin.
 * Prints one line per ending (milliseconds), then those over a second, the total and the peak RSS.
 *
 *   node bench/tbgen-all.mjs [--backend native|js] [--threads N] [--metric dtm|dtz] [--only KQvKR,KBNvK]
 */
const { Tablebase, tablebaseMaterial, tablebaseSubMaterials } = await import('bitboard-patterns');

const arg = (name, d) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : d; };
const backend = arg('--backend', 'native');
const threads = Number(arg('--threads', '0')) || undefined;
const metric = arg('--metric', 'dtm');
const only = arg('--only', '');
const order = 'QRBNP';
const side = (s) => 'K' + [...s].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join('');
const names = new Set(['KvK']);
for (const a of order) names.add(`K${a}vK`);
for (const a of order) for (const b of order) {
  if (order.indexOf(a) <= order.indexOf(b)) names.add(`${side(a + b)}vK`);
  if (order.indexOf(a) <= order.indexOf(b)) names.add(`K${a}vK${b}`);
}
const wanted = only ? only.split(',') : [...names];
const made = new Map();
const make = (name, timed) => {
  if (made.has(name)) return;
  for (const s of tablebaseSubMaterials(tablebaseMaterial('bench', name))) make(s, false);
  const t0 = performance.now();
  const tb = Tablebase.generateSync(name, { backend: timed ? backend : 'native', threads, metric, known: [...made.values()] });
  const ms = performance.now() - t0;
  made.set(name, tb);
  if (timed) rows.push([name, ms]);
};
const rows = [];
for (const n of wanted) {
  made.delete(n); // time each wanted table itself, even when an earlier one made it as a sub-ending
  make(n, true);
}
for (const [n, ms] of rows) console.log(`${n.padEnd(7)} ${ms.toFixed(0).padStart(7)} ms`);
const total = rows.reduce((a, [, ms]) => a + ms, 0);
const slow = rows.filter(([, ms]) => ms > 1000).map(([n, ms]) => `${n} ${(ms / 1000).toFixed(2)} s`);
console.log(`${backend}${backend === 'native' ? ` ${threads ?? 'all'} thread(s)` : ''} ${metric}: ${rows.length} endings, ${(total / 1000).toFixed(1)} s in all; over 1 s: ${slow.length ? slow.join(', ') : 'none'}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
