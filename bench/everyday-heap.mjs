#!/usr/bin/env node
/**
 * Memory of the everyday API over many positions made one by one: parse a FEN, make a move, write
 * the FEN, a million times (default), keeping nothing. Prints the heap in use (after a full
 * collection) and the resident set every tenth of the way: a flat heap means no Position, cache
 * or buffer outlives its use.
 *
 *   node --expose-gc bench/everyday-heap.mjs [count=1000000] [entry=default|js|native]
 *
 * After `npm run build` (the built package is what a user loads).
 */
const count = Number(process.argv[2] ?? 1_000_000);
const entry = process.argv[3] ?? 'default';
const api = await import(entry === 'default' ? 'bitboard-patterns' : `bitboard-patterns/${entry}`);
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc (the heap is read after a full collection)');
  process.exit(2);
}

// A few games' worth of positions to cycle through: the start position and positions after random
// legal moves (seeded), so every FEN parsed and written is one a game reaches.
const fens = [];
let seed = 2026;
const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
let pos = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
while (fens.length < 1000) {
  const moves = api.legalMoves(pos);
  if (moves.length === 0 || pos.halfmoveClock > 60) { pos = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'); continue; }
  fens.push(api.toFen(pos));
  pos = api.makeMove(pos, moves[random(moves.length)]);
}
const firstMoves = fens.map((f) => api.legalMoves(api.parseFen(f))[0]);

const mb = (bytes) => (bytes / 2 ** 20).toFixed(2);
const rows = [];
const sample = (done) => {
  globalThis.gc();
  const m = process.memoryUsage();
  rows.push([done, m.heapUsed, m.rss, m.external + m.arrayBuffers]);
};
sample(0);
const t0 = performance.now();
let chars = 0;
for (let i = 0; i < count; i++) {
  const k = i % fens.length;
  const p = api.parseFen(fens[k]);
  chars += api.toFen(api.makeMove(p, firstMoves[k])).length;
  if ((i + 1) % (count / 10) === 0) sample(i + 1);
}
const seconds = (performance.now() - t0) / 1000;
console.log(`${count.toLocaleString('en-US')} x (parseFen, makeMove, toFen) on the ${entry} entry (${api.backend}): ${seconds.toFixed(1)} s, ${(count / seconds).toFixed(0)} per second (${chars} FEN characters)`);
console.log('positions done | heap used MiB (after gc) | RSS MiB | external + array buffers MiB');
for (const [done, heap, rss, ext] of rows) console.log(`${String(done).padStart(14)} | ${mb(heap).padStart(8)} | ${mb(rss).padStart(8)} | ${mb(ext).padStart(8)}`);
const growth = rows[rows.length - 1][1] - rows[1][1];
console.log(`heap growth from the first tenth to the end: ${(growth / 1024).toFixed(1)} KiB`);
