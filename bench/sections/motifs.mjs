/**
 * Tactical motifs and SEE. One row per position set: the five motif features (hanging, forks,
 * relativePins, skewers, discoveredAttacks) of both colours in one analyzeBatch call (the `motifs`
 * group), in positions per second on one thread, native, wasm and JS; then seeBatch in moves per
 * second (one legal move per position, a capture where there is one). Position sets: random
 * positions (6-24 pieces), every position of the real games in test/fixtures/pgn (tiled to the
 * batch size), and the bench's generated PGN corpus (bench/lib.mjs pgnCorpus). The C++ loop column:
 * the same kernels over the same positions in bench/baseline.cc (no Node-API, outputs allocated
 * once), so the gap to the native column is the call's own cost. The motifs rows reuse their output
 * arrays (options.out); a row per set shows the same call with new arrays each time.
 * `node bench/sections/motifs.mjs [--quick]` runs it alone (after `npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, buildDir, compileCpp, makeRandom, measurement, pgnCorpus, randomPlacement, runStandalone } from '../lib.mjs';

export const title = 'Tactical motifs and SEE (million positions or moves per CPU second, one thread)';

/** Random piece placements (6-24 pieces besides the kings, kings apart), as FENs the API accepts. */
function randomFens(count, rand64, api) {
  const out = [];
  while (out.length < count) {
    const placement = randomPlacement(rand64, 19);
    const fen = `${placement} ${rand64() & 1n ? 'b' : 'w'} - - 0 1`;
    try { api.parseFen(fen); out.push(fen); } catch { /* the side not to move is in check: draw again */ }
  }
  return out;
}

/** The FENs of every position of the PGN text's games (game order). */
function gameFens(api, text) {
  const fens = [];
  for (const g of api.parsePgn(text)) {
    if (g.error || g.moves.includes('0000')) continue;
    let pos = api.parseFen(g.startFen);
    fens.push(api.toFen(pos));
    for (const m of g.moves) { pos = api.makeMove(pos, m); fens.push(api.toFen(pos)); }
  }
  return fens;
}

/** The FENs with a legal move, and one legal move for each (a capture where there is one) as 16-bit codes. */
function withMoves(api, fens) {
  const kept = [];
  const moves = [];
  const buf = new Uint16Array(256);
  for (const fen of fens) {
    const pos = api.parseFen(fen);
    const list = api.legalMovesEncoded(pos, buf);
    if (list.length === 0) continue;
    const occ = pos.colors[0] | pos.colors[1];
    let pick = list[0];
    for (const m of list) if (occ & (1n << BigInt((m >> 6) & 63))) { pick = m; break; }
    kept.push(fen);
    moves.push(pick);
  }
  return [kept, Uint16Array.from(moves)];
}

/**
 * ns of CPU time (user + system of this process) per op of run() doing `count` ops: the median of
 * `samples` runs after one warm-up. Per core: on a shared machine the wall clock also counts the time
 * other processes held the core.
 */
function cpuStats(run, count, samples) {
  run();
  const times = [];
  for (let i = 0; i < samples; i++) {
    const c0 = process.cpuUsage();
    run();
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) * 1000 / count);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { samples: times, median: sorted[sorted.length >> 1], min: sorted[0], max: sorted[sorted.length - 1] };
}

/** ns per position of bench/baseline.cc's motif loops over the batch's words and moves, or undefined. */
function cppLoop(baseline, batch, moves, samples) {
  if (!baseline) return undefined;
  const file = join(buildDir, 'motifs.bin');
  writeFileSync(file, Buffer.concat([Buffer.from(batch.words.buffer, batch.words.byteOffset, batch.words.byteLength),
    Buffer.from(moves.buffer, moves.byteOffset, moves.byteLength)]));
  return JSON.parse(execFileSync(baseline, ['motifs', file, String(moves.length), String(samples)], { encoding: 'utf8' }));
}

export async function run({ js, native, wasm, quick, baseline }) {
  const P = quick ? 1 << 11 : 1 << 15;
  const SAMPLES = quick ? 3 : 7;
  const rand64 = makeRandom(0x5ee5ee5n);
  const fixtures = ['chessbase.pgn', 'quirky.pgn', 'messy.pgn']
    .map((f) => readFileSync(join(benchDir, '..', 'test', 'fixtures', 'pgn', f), 'utf8')).join('\n');
  const tile = (fens) => Array.from({ length: P }, (_, i) => fens[i % fens.length]);
  const corpus = gameFens(js, (await pgnCorpus(js, quick ? 20 : 200)).toString('utf8'));
  const sets = [
    ['random positions', randomFens(P, rand64, js)],
    ['real games (test/fixtures/pgn, tiled)', tile(gameFens(js, fixtures))],
    ['generated games (bench corpus)', tile(corpus)],
  ];
  const apis = [['native', native], ['wasm', wasm], ['js', js]].filter(([, a]) => a);
  // Run alone (not from bench/run.mjs), the section builds the C++ loops itself.
  const cpp = baseline ?? (native ? compileCpp('baseline', native) : undefined);
  const rows = [];
  const loopInputs = [];
  const measurements = [];
  let sink = 0;
  for (const [label, all] of sets) {
    const [fens, moves] = withMoves(js, all);
    const motifRates = {};
    const freshRates = {};
    const seeRates = {};
    for (const [impl, api] of apis) {
      const batch = api.PositionBatch.fromFens(fens);
      const n = fens.length;
      // JS runs a quarter of the batch: the same per-position work, in less time.
      const part = impl === 'js' ? api.PositionBatch.fromFens(fens.slice(0, n >> 2)) : batch;
      const count = part.length;
      // A batch pipeline's loop: each call writes into the previous call's arrays (options.out).
      const out = api.analyzeBatch(part, ['motifs']);
      const s = cpuStats(() => { sink ^= Number(api.analyzeBatch(part, ['motifs'], { out }).forks[0] & 1n); }, count, SAMPLES);
      measurements.push(measurement({ fn: 'motifs', mode: 'batch', impl, op: 'position (five motifs, both colours)', batchSize: count, set: label }, s));
      motifRates[impl] = 1e3 / s.median;
      // The same call with new output arrays every time (80 bytes a position).
      const f = cpuStats(() => { sink ^= Number(api.analyzeBatch(part, ['motifs']).forks[0] & 1n); }, count, SAMPLES);
      measurements.push(measurement({ fn: 'motifs', mode: 'batch-fresh', impl, op: 'position (five motifs, both colours, new outputs)', batchSize: count, set: label }, f));
      freshRates[impl] = 1e3 / f.median;
      const m = impl === 'js' ? moves.subarray(0, count) : moves;
      const seeOut = new Int16Array(count);
      const t = cpuStats(() => { for (let r = 0; r < 4; r++) api.seeBatch(part, m, seeOut); sink ^= seeOut[0]; }, 4 * count, SAMPLES);
      measurements.push(measurement({ fn: 'seeBatch', mode: 'batch', impl, op: 'move', batchSize: count, set: label }, t));
      seeRates[impl] = 1e3 / t.median;
    }
    rows.push([`${label}: motifs (positions)`, motifRates.native, undefined, motifRates.wasm, motifRates.js]);
    rows.push([`${label}: seeBatch (moves)`, seeRates.native, undefined, seeRates.wasm, seeRates.js]);
    rows.push([`${label}: motifs, new outputs each call`, freshRates.native, undefined, freshRates.wasm, freshRates.js]);
    if (native) loopInputs.push([rows.length - 3, fens, moves]);
  }
  // The C++ loops last: their inputs and the child process would change the heap the calls above
  // allocate their outputs from.
  for (const [row, fens, moves] of loopInputs) {
    const loop = cppLoop(cpp, native.PositionBatch.fromFens(fens), moves, SAMPLES);
    if (loop) [rows[row][2], rows[row + 1][2]] = [1e3 / loop.motifs, 1e3 / loop.seeBatch];
  }
  const f = (x) => (x === undefined ? '-' : x.toFixed(2));
  for (const r of rows) for (let c = 1; c < r.length; c++) r[c] = f(r[c]);
  if (sink === 0.5) console.log('');
  return {
    columns: ['what', 'native M/s', 'C++ loop M/s', 'wasm M/s', 'JS M/s'],
    rows,
    notes: [
      `${P} positions per set (JS: a quarter of them); motifs = analyzeBatch(batch, ['motifs']): the five sets for white and black;`,
      'rates per CPU second of the process (user + system time, median of the samples): per core, whatever else the machine runs;',
      'seeBatch: one legal move per position, a capture where there is one. Goals: motifs >= 4 M/s native, >= 0.3 M/s JS; seeBatch >= 15 M/s native.',
      'motifs rows: each call writes into the previous call\'s arrays (analyzeBatch\'s options.out), as a loop over chunks does; the "new outputs" rows',
      'let every call allocate its arrays (80 bytes a position), whose first writes cost page faults.',
      'C++ loop: the native kernels in bench/baseline.cc over the same positions and moves, wall clock, median of as many samples, outputs allocated once.',
    ],
    measurements,
  };
}

await runStandalone(import.meta.url, title, run);
