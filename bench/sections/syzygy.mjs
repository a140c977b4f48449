/**
 * Bench section: Syzygy probes per second on random legal 3-4 piece positions (the repository's
 * fixture tables: every 2v1 and 2v2 ending and KBNvK), WDL and DTZ, native (single calls, batch on
 * one thread and on all cores) and JS, and Fathom (Debian's libfathom-dev, C) when it is installed:
 * bench/syzygy-fathom.c is compiled here and runs the same positions; its WDL results are compared
 * with ours position by position.
 *
 *   node bench/sections/syzygy.mjs [--quick]     (stand-alone, after `npm run build`)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStandalone } from '../lib.mjs';

export const title = 'Syzygy probing';

const here = dirname(fileURLToPath(import.meta.url));
const TABLES = join(here, '..', '..', 'test', 'fixtures', 'syzygy');
const MATERIALS = ['KQvK', 'KRvK', 'KPvK', 'KBNvK', 'KQvKR', 'KQvKP', 'KRvKP', 'KPvKP', 'KRvKR', 'KBvKP', 'KNvKP', 'KQvKQ', 'KRvKB', 'KRvKN'];

/** Random legal positions of the materials above (FEN validation rejects illegal placements). */
export function randomPositions(api, n, seed = 12345) {
  let s = seed;
  const rnd = (m) => { s = (s * 1103515245 + 12345) & 0x7fffffff; return (s >> 7) % m; };
  const words = new BigUint64Array(n * 10);
  const positions = [];
  let k = 0;
  while (k < n) {
    const material = MATERIALS[rnd(MATERIALS.length)];
    const [white, black] = material.split('v');
    const board = new Array(64).fill('');
    let ok = true;
    for (const [side, upper] of [[white, true], [black, false]]) {
      for (const c of side) {
        let sq;
        do sq = rnd(64); while (board[sq]);
        if (c === 'P' && (sq < 8 || sq >= 56)) ok = false;
        board[sq] = upper ? c : c.toLowerCase();
      }
    }
    if (!ok) continue;
    const rows = [];
    for (let r = 7; r >= 0; r--) {
      let row = '', empty = 0;
      for (let f = 0; f < 8; f++) {
        const p = board[r * 8 + f];
        if (!p) empty++;
        else { if (empty) row += empty; empty = 0; row += p; }
      }
      rows.push(row + (empty ? empty : ''));
    }
    const mirror = rnd(2) === 1;
    let placement = rows.join('/');
    if (mirror) placement = placement.replace(/[a-zA-Z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
    const fen = `${placement} ${rnd(2) ? 'w' : 'b'} - - 0 1`;
    let pos;
    try { pos = api.parseFen(fen); } catch { continue; }
    words.set(pos.packed, k * 10);
    if (positions.length < 2000) positions.push(pos);
    k++;
  }
  return { words, positions };
}

function rate(run, n, reps) {
  run(); // warm-up
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return { perSecond: (n / best) * 1000, nsPerProbe: (best * 1e6) / n };
}

/** Builds the Fathom driver and returns a function running it over `words` (best of `reps` passes), or { skipped }. */
function fathomDriver(words) {
  if (!existsSync('/usr/include/tbprobe.h')) return { skipped: 'libfathom-dev is not installed (apt-get install libfathom-dev)' };
  const build = join(here, '..', '.build');
  mkdirSync(build, { recursive: true });
  const exe = join(build, 'syzygy-fathom');
  try {
    execFileSync('gcc', ['-O2', join(here, '..', 'syzygy-fathom.c'), '-lfathom', '-o', exe], { stdio: 'pipe' });
  } catch (e) {
    return { skipped: `the Fathom driver did not build: ${e.message.split('\n')[0]}` };
  }
  const input = join(build, 'syzygy-positions.bin'), output = join(build, 'syzygy-fathom-results.bin');
  writeFileSync(input, Buffer.from(words.buffer, words.byteOffset, words.byteLength));
  return {
    run(reps) {
      const r = JSON.parse(execFileSync(exe, [TABLES, input, output, String(reps)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      const out = readFileSync(output);
      return { ...r, results: new Int8Array(out.buffer, out.byteOffset, out.byteLength) };
    },
  };
}

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('SyzygyTablebase') && !filter.test('syzygy')) return null;
  const cores = availableParallelism();
  const n = quick ? 4000 : 40000;
  const nJs = quick ? 1000 : 4000;
  const reps = quick ? 3 : 7;
  const { words, positions } = randomPositions(js, n);
  const jsWords = words.subarray(0, nJs * 10);
  const rows = [];
  const notes = [];
  const measurements = [];
  const add = (name, impl, kind, r) => {
    rows.push([name, Math.round(r.perSecond).toLocaleString('en-US'), r.nsPerProbe.toFixed(0)]);
    measurements.push({ fn: `SyzygyTablebase.probe${kind === 'wdl' ? 'Wdl' : 'Dtz'}`, mode: impl.includes('batch') ? 'batch' : 'single', impl, unit: 'ns/op', batchSize: 1, perOp: 'probe', op: `${kind.toUpperCase()} probe of a random legal 3-4 piece position`, samples: [r.nsPerProbe], median: r.nsPerProbe, min: r.nsPerProbe, max: r.nsPerProbe });
  };

  const jsTb = js.SyzygyTablebase.open(TABLES, { backend: 'js' });
  jsTb.probeDtzBatch(jsWords); // maps every table the positions need
  const jsWdl = jsTb.probeWdlBatch(jsWords);
  add('JS batch, WDL', 'js batch', 'wdl', rate(() => jsTb.probeWdlBatch(jsWords), nJs, quick ? 1 : 3));
  add('JS batch, DTZ', 'js batch', 'dtz', rate(() => jsTb.probeDtzBatch(jsWords), nJs, quick ? 1 : 3));

  const fathom = fathomDriver(words);
  let nativeWdl = null;
  let fathomBest = null;
  if (native) {
    const tb = native.SyzygyTablebase.open(TABLES, { backend: 'native' });
    tb.probeDtzBatch(words);
    nativeWdl = tb.probeWdlBatch(words, undefined, 1);
    add('native single calls, WDL', 'native single', 'wdl', rate(() => { for (const p of positions) tb.probeWdl(p); }, positions.length, reps));
    // one core, ours and Fathom's in alternating rounds (the machine may be busy): the best of each
    let oneThread = null;
    for (let round = 0; round < (quick ? 2 : 4); round++) {
      const r = rate(() => tb.probeWdlBatch(words, undefined, 1), n, reps);
      if (!oneThread || r.nsPerProbe < oneThread.nsPerProbe) oneThread = r;
      if (fathom.run) {
        const f = fathom.run(reps);
        if (!fathomBest || f.nsPerProbe < fathomBest.nsPerProbe) fathomBest = f;
      }
    }
    add('native batch, 1 thread, WDL', 'native batch 1 thread', 'wdl', oneThread);
    // CPU time per probe summed over the threads: equal on 1 and N threads means no contention,
    // whatever else runs on the machine
    const cpuPerProbe = (threads) => {
      const c0 = process.cpuUsage();
      for (let r = 0; r < reps; r++) tb.probeWdlBatch(words, undefined, threads);
      const c = process.cpuUsage(c0);
      return ((c.user + c.system) * 1000) / (n * reps);
    };
    const cpu1 = cpuPerProbe(1), cpuN = cpuPerProbe(cores);
    const allThreads = rate(() => tb.probeWdlBatch(words, undefined, cores), n, reps);
    add(`native batch, ${cores} threads, WDL`, `native batch ${cores} threads`, 'wdl', allThreads);
    const dtzOne = rate(() => tb.probeDtzBatch(words, undefined, 1), n, reps);
    add('native batch, 1 thread, DTZ', 'native batch 1 thread', 'dtz', dtzOne);
    const dtzAll = rate(() => tb.probeDtzBatch(words, undefined, cores), n, reps);
    add(`native batch, ${cores} threads, DTZ`, `native batch ${cores} threads`, 'dtz', dtzAll);
    notes.push(`native batch, 1 -> ${cores} threads: WDL ${(allThreads.perSecond / oneThread.perSecond).toFixed(2)}x, DTZ ${(dtzAll.perSecond / dtzOne.perSecond).toFixed(2)}x wall-clock (on a machine shared with other work a lower bound); WDL CPU time per probe ${cpu1.toFixed(0)} ns on 1 thread, ${cpuN.toFixed(0)} ns summed over ${cores}`);
    const same = Buffer.from(nativeWdl.buffer, 0, nJs).equals(Buffer.from(jsWdl.buffer));
    notes.push(`native and JS WDL byte-identical on the ${nJs} JS positions: ${same ? 'yes' : 'NO'}`);
    tb.close();
  } else if (fathom.run) {
    fathomBest = fathom.run(reps);
  }
  jsTb.close();

  if (fathom.skipped) notes.push(`Fathom: skipped: ${fathom.skipped}`);
  else {
    const f = fathomBest;
    rows.push(['Fathom tb_probe_wdl (C), 1 thread', Math.round(1e9 / f.nsPerProbe).toLocaleString('en-US'), f.nsPerProbe.toFixed(0)]);
    measurements.push({ fn: 'SyzygyTablebase.probeWdl', mode: 'batch', impl: 'fathom 1 thread', unit: 'ns/op', batchSize: 1, perOp: 'probe', op: 'WDL probe (Fathom)', samples: [f.nsPerProbe], median: f.nsPerProbe, min: f.nsPerProbe, max: f.nsPerProbe });
    if (nativeWdl) {
      let agree = 0;
      for (let i = 0; i < n; i++) agree += nativeWdl[i] === f.results[i] ? 1 : 0;
      notes.push(`Fathom and native WDL agree on ${agree} of ${n} positions`);
      const ours = measurements.find((m) => m.impl === 'native batch 1 thread' && m.fn.endsWith('Wdl'));
      notes.push(`WDL batch on one core: native ${(f.nsPerProbe / ours.median).toFixed(2)}x Fathom's probes/s (alternating rounds, best of each)`);
    }
  }
  notes.push(`${n} random legal positions (${MATERIALS.join(', ')}, either colour strong), JS on the first ${nJs}; best of ${reps} runs; ${cores} cores`);
  return { measurements, columns: ['prober', 'probes/s', 'ns/probe'], rows, notes };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
