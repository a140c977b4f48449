/**
 * Sliders and position analysis. Sliders: JS, native single call, native batch and the plain C++
 * loop (with magic and PEXT side by side in C++). Analysis of a position = checkers, pinned pieces
 * and discovered-check candidates for both colours: JS and native single calls, checkAnalysisBatch
 * over packed positions (and, on a row of its own, the six single-purpose batch calls), the plain C++
 * loop over the same positions, and chessops (its `ctx()` for each side to move on positions built
 * beforehand: checkers and slider blockers of both colours, the same information).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen as chessopsFen } from 'chessops/fen';
import { buildDir, makeRandom, measureStats, measurement, randomPlacement, ratio, single as one } from '../lib.mjs';

export const title = 'Sliders and position analysis (ns per call / ns per element or position)';

/** Random legal-looking positions where neither king is in check, as FEN piece placements. */
function randomPlacements(count, rand64, api) {
  const out = [];
  while (out.length < count) {
    const placement = randomPlacement(rand64, 18);
    try {
      const w = api.parseFen(`${placement} w - - 0 1`), b = api.parseFen(`${placement} b - - 0 1`);
      if (api.isInCheck(w, 0) || api.isInCheck(b, 1)) continue;
      out.push(placement);
    } catch { /* the side not to move is in check: draw again */ }
  }
  return out;
}

export async function run({ js, native, quick, filter, baseline }) {
  const N = quick ? 1 << 16 : 1 << 20;
  const P = quick ? 1 << 12 : 1 << 15;
  const SAMPLES = quick ? 3 : 7;
  const rand64 = makeRandom(0x1234567n);
  const sq = new Uint8Array(N), occ = new BigUint64Array(N);
  for (let i = 0; i < N; i++) { sq[i] = Number(rand64() & 63n); occ[i] = rand64() & rand64() | (1n << BigInt(sq[i])); }
  const placements = randomPlacements(P, rand64, js);
  const positions = placements.map((p) => js.parseFen(`${p} w - - 0 1`));
  const packed = js.packPositions(positions);
  const chessops = placements.map((p) => ['w', 'b'].map((side) => Chess.fromSetup(chessopsFen(`${p} ${side} - - 0 1`).unwrap()).unwrap()));

  // The C++ loop reads N squares, N occupancies, then the same P packed positions the addon gets.
  const inputFile = join(buildDir, 'checks.bin');
  writeFileSync(inputFile, Buffer.concat([sq, occ, packed].map((x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength))));
  const cpp = JSON.parse(execFileSync(baseline, ['checks', inputFile, String(N), String(SAMPLES)], { encoding: 'utf8' }));

  let sink = 0;
  const out = new BigUint64Array(N);
  const rows = [];
  const measurements = [];
  /** Times run() (count ops each) and records it; returns the median. */
  const measure = (run, count, samples, fields) => {
    const s = measureStats(run, count, samples);
    measurements.push(measurement({ batchSize: count, ...fields }, s));
    return s.median;
  };
  const cppRow = (fn, ns, op, chart) => {
    if (ns !== undefined) measurements.push(one({ fn, mode: 'cpp', impl: 'cpp', op, batchSize: N, perOp: 'element', chart }, ns));
    return ns;
  };
  for (const name of ['rookAttacks', 'bishopAttacks', 'queenAttacks']) {
    if (filter && !filter.test(name)) continue;
    const batch = (api, impl) => measure(() => api[`${name}Batch`](sq, occ, out), N, SAMPLES,
      { fn: `${name}Batch`, mode: 'batch', impl, op: `${name}Batch over ${N} random squares and occupancies, per element`, perOp: 'element',
        chart: impl === 'native' ? { group: name, series: 'native, batch (per element)' } : undefined });
    const nb = native && batch(native, 'native');
    cppRow(name, cpp[name], `plain C++ loop of ${name} over the same ${N} inputs (the addon's lookup: ${native?.cpuPath?.includes('bmi2') ? 'PEXT' : 'magic'})`,
      { group: name, series: 'plain C++ loop (per element)' });
    rows.push([name, '-', '-', batch(js, 'js'), nb, cpp[name], ratio(nb, cpp[name]), '-', '-']);
  }

  if (!filter || filter.test('analysis')) {
    const outs = Array.from({ length: 6 }, () => new BigUint64Array(P));
    const analysisOut = new BigUint64Array(6 * P);
    const G = 'analysis: checkers, pins, discovered';
    const op = `checkers + pinnedPieces + discoveredCheckCandidates for both colours of one of ${P} random positions`;
    // A fresh closure per backend so the call sites are not shared (see the api section).
    const single = (api, impl) => measure(new Function('api', 'positions', `return () => { let s = 0;
      for (const pos of positions) for (const color of [0, 1]) s ^= Number((api.checkers(pos, color) ^ api.pinnedPieces(pos, color) ^ api.discoveredCheckCandidates(pos, color)) & 1n);
      return s; };`)(api, positions), P, SAMPLES,
    { fn: 'analysis', mode: 'single', impl, op: `${op}: six single calls`, perOp: 'position',
      chart: { group: G, series: impl === 'js' ? 'JS' : 'native, single call' } });
    const fused = (api, impl) => measure(() => api.checkAnalysisBatch(packed, analysisOut), P, SAMPLES,
      { fn: 'checkAnalysisBatch', mode: 'batch', impl, op: `${op}: one checkAnalysisBatch call over all, per position`, perOp: 'position',
        chart: impl === 'native' ? { group: G, series: 'native, batch (per element)' } : undefined });
    const separate = (api, impl) => measure(() => {
      for (const color of [0, 1]) {
        api.checkersBatch(packed, color, outs[color * 3]);
        api.pinnedPiecesBatch(packed, color, outs[color * 3 + 1]);
        api.discoveredCheckCandidatesBatch(packed, color, outs[color * 3 + 2]);
      }
    }, P, SAMPLES, { fn: 'checkersBatch + pinnedPiecesBatch + discoveredCheckCandidatesBatch', mode: 'batch', impl,
      op: `${op}: six batch calls (three functions x two colours), per position`, perOp: 'position' });
    const peer = measure(() => {
      for (const [white, black] of chessops) {
        const w = white.ctx(), b = black.ctx();
        sink ^= w.checkers.lo ^ w.blockers.hi ^ b.checkers.lo ^ b.blockers.hi;
      }
    }, P, SAMPLES, { fn: 'analysis', mode: 'peer', impl: 'chessops', op: 'chessops ctx() for both sides to move (checkers + slider blockers), per position',
      perOp: 'position', chart: { group: G, series: 'chessops' } });
    const jsSingle = single(js, 'js'), nativeSingle = native && single(native, 'native');
    const nb = native && fused(native, 'native');
    cppRow('analysis', cpp.analysis, `plain C++ loop of the checkAnalysis kernel over the same ${P} positions, per position`,
      { group: G, series: 'plain C++ loop (per element)' });
    rows.push(['analysis (per position)', jsSingle, nativeSingle, fused(js, 'js'), nb, cpp.analysis, ratio(nb, cpp.analysis), peer, ratio(peer, nb)]);
    const ns = native && separate(native, 'native');
    cppRow('analysisSeparate', cpp.analysisSeparate, 'plain C++ loop of the six single-purpose functions, per position');
    rows.push(['analysis, six batch calls', '-', '-', separate(js, 'js'), ns, cpp.analysisSeparate, ratio(ns, cpp.analysisSeparate), peer, ratio(peer, ns)]);
  }
  if (sink === 0.5) console.log('');
  if (rows.length === 0) return null;
  const notes = [
    `sliders: ${N} random squares and occupancies; analysis: ${P} random positions (6-24 pieces, neither king in check),`,
    'checkers + pinned pieces + discovered-check candidates for both colours; chessops: ctx() for both sides to move.',
    'analysis: JS/native single = the six single calls per position; batch = one checkAnalysisBatch call (each position',
    'validated once, one x-ray per king); C++ loop = the same kernel without validation. "six batch calls": checkersBatch,',
    'pinnedPiecesBatch, discoveredCheckCandidatesBatch for colours 0 and 1, against the C++ loop of the six separate functions.',
    `C++ slider lookups: rook magic ${cpp.rookAttacksMagic?.toFixed(2)} ns, PEXT ${cpp.rookAttacksPext?.toFixed(2) ?? 'n/a'} ns; `
      + `bishop magic ${cpp.bishopAttacksMagic?.toFixed(2)} ns, PEXT ${cpp.bishopAttacksPext?.toFixed(2) ?? 'n/a'} ns (independent lookups).`,
    `C++ checkAnalysisBatch kernel with its per-position validation: ${cpp.analysisValidated?.toFixed(2)} ns per position.`,
  ];
  return {
    columns: ['function', 'JS single', 'native single', 'JS batch', 'native batch', 'C++ loop', 'native batch / C++', 'chessops', 'chessops / native batch'],
    rows,
    notes: [...notes, 'sliders: single calls are in the api section.'],
    measurements,
  };
}
