/**
 * Every 3- and 4-piece ending (both colourings, pawns included), native, synchronously, each table
 * once with its sub-endings given: per-table seconds, the total, the longest white-to-move win.
 *
 *   /usr/bin/time -v node bench/tbgen-family.mjs [--threads N]
 */
const { Tablebase, tablebaseMaterial, tablebaseSubMaterials } = await import('bitboard-patterns');

const ti = process.argv.indexOf('--threads');
const threads = ti >= 0 ? Number(process.argv[ti + 1]) : undefined;
const pieces = ['Q', 'R', 'B', 'N', 'P'];
const names = new Set(['KvK']);
for (const a of pieces) { names.add(`K${a}vK`); names.add(`KvK${a}`); }
for (const a of pieces) for (const b of pieces) { names.add(tablebaseMaterial('f', `K${a}${b}vK`).name); names.add(tablebaseMaterial('f', `KvK${a}${b}`).name); names.add(`K${a}vK${b}`); }
const made = new Map();
let total = 0;
const rows = [];
const make = (name) => {
  if (made.has(name)) return;
  for (const s of tablebaseSubMaterials(tablebaseMaterial('f', name))) make(s);
  const t0 = performance.now();
  const tb = Tablebase.generateSync(name, { backend: 'native', threads, known: [...made.values()] });
  const ms = performance.now() - t0;
  total += ms;
  made.set(name, tb);
  rows.push([name, ms, tb.stats().whiteToMove.longestWin]);
};
for (const n of names) make(n);
rows.sort((a, b) => b[1] - a[1]);
console.log(`${made.size} tables, ${(total / 1000).toFixed(1)} s in all; slowest:`);
for (const [n, ms, l] of rows.slice(0, 8)) console.log(`  ${n.padEnd(7)} ${(ms / 1000).toFixed(2)} s  longest win wtm ${l} moves`);
console.log(`longest wins (wtm): ${rows.sort((a, b) => b[2] - a[2]).slice(0, 6).map(([n, , l]) => `${n} ${l}`).join(', ')}`);
