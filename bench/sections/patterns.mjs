/**
 * King and knight patterns: per function, JS single call (ns/op), native single call (ns/op), JS
 * batch and native batch (ns/element), and the plain C++ loop (bench/baseline.cc, mode `patterns`)
 * over the same inputs, so the table shows the Node-API overhead and how close the batch path is
 * to raw C++.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDir, makeRandom, measure, ratio } from '../lib.mjs';

export const title = 'King and knight patterns (ns per call / ns per batch element)';

export async function run({ js, native, quick, filter, baseline }) {
  const N = quick ? 1 << 16 : 1 << 20;
  const SINGLE = quick ? 1 << 14 : 1 << 17;
  const SAMPLES = quick ? 3 : 7;
  const rand64 = makeRandom();
  const sq = new Uint8Array(N), sq2 = new Uint8Array(N);
  const sets = Array.from({ length: 5 }, () => new BigUint64Array(N));
  const path = new BigUint64Array(N), single1 = new BigUint64Array(N), single2 = new BigUint64Array(N);
  for (let i = 0; i < N; i++) {
    sq[i] = Number(rand64() & 63n); sq2[i] = Number(rand64() & 63n);
    for (const s of sets) s[i] = rand64() & rand64(); // ~25% density: piece-set-like
    path[i] = rand64() | rand64() | (1n << BigInt(sq[i])) | (1n << BigInt(sq2[i])); // ~75%: fills run several steps
    single1[i] = 1n << BigInt(sq[i]); single2[i] = 1n << BigInt(sq2[i]);
  }
  const [a, b, c, d, e] = sets;

  // single(api, i) is one call; batch(api) one call over all N. Output arrays are allocated once.
  const out = { u64: new BigUint64Array(N), u8: new Uint8Array(N), i8: new Int8Array(N) };
  const byName = (name, single, batch) => ({ name, single, batch });
  const setCase = (name) => byName(name, (api, i) => api[name](a[i]), (api) => api[`${name}Batch`](a, out.u64));
  const cases = [
    byName('kingAttacks', (api, i) => api.kingAttacks(sq[i]), (api) => api.kingAttacksBatch(sq, out.u64)),
    byName('knightAttacks', (api, i) => api.knightAttacks(sq[i]), (api) => api.knightAttacksBatch(sq, out.u64)),
    ...['kingAttacksSet', 'knightAttacksSet', 'knightFill', 'forkTargetSquares',
      'noNoEa', 'noEaEa', 'soEaEa', 'soSoEa', 'noNoWe', 'noWeWe', 'soWeWe', 'soSoWe'].map(setCase),
    byName('pawnShieldMask', (api, i) => api.pawnShieldMask(0, sq[i]), (api) => api.pawnShieldMaskBatch(0, sq, out.u64)),
    byName('pawnShieldIndex', (api, i) => api.pawnShieldIndex(0, sq[i], a[i]), (api) => api.pawnShieldIndexBatch(0, sq, a, out.u8)),
    byName('kingMoveTargets', (api, i) => api.kingMoveTargets(sq[i], a[i]), (api) => api.kingMoveTargetsBatch(sq, a, out.u64)),
    byName('distantCheckLines', (api, i) => api.distantCheckLines(sq[i], a[i]), (api) => api.distantCheckLinesBatch(sq, a, out.u8)),
    byName('caughtableArea', (api, i) => api.caughtableArea(1, 0, sq[i]), (api) => api.caughtableAreaBatch(1, 0, sq, out.u64)),
    byName('uncatchablePassers', (api, i) => api.uncatchablePassers(a[i], 1, 0, sq[i]),
      (api) => api.uncatchablePassersBatch(a, 1, 0, sq, out.u64)),
    byName('squaresAreConnected', (api, i) => api.squaresAreConnected(single1[i], single2[i], path[i]),
      (api) => api.squaresAreConnectedBatch(single1, single2, path, out.u8)),
    byName('kingDistance', (api, i) => api.kingDistance(sq[i], sq2[i], path[i]), (api) => api.kingDistanceBatch(sq, sq2, path, out.i8)),
    byName('knightDistance', (api, i) => api.knightDistance(sq[i], sq2[i], path[i]), (api) => api.knightDistanceBatch(sq, sq2, path, out.i8)),
    byName('knightForkMoves', (api, i) => api.knightForkMoves(a[i], b[i], c[i], d[i], e[i]),
      (api) => api.knightForkMovesBatch(a, b, c, d, e, out.u64)),
  ].filter((k) => !filter || filter.test(k.name));
  if (cases.length === 0) return null;

  let sink = 0;
  const timeSingle = (api, k) => measure(() => {
    for (let i = 0; i < SINGLE; i++) { const r = k.single(api, i & (N - 1)); sink ^= typeof r === 'bigint' ? Number(r & 1n) : Number(r); }
  }, SINGLE, SAMPLES);
  const timeBatch = (api, k) => measure(() => k.batch(api), N, SAMPLES);

  const inputFile = join(buildDir, 'patterns.bin');
  writeFileSync(inputFile, Buffer.concat([sq, sq2, a, b, c, d, e, path, single1, single2]
    .map((x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength))));
  const cpp = JSON.parse(execFileSync(baseline, ['patterns', inputFile, String(N), String(SAMPLES)], { encoding: 'utf8' }));

  const rows = cases.map((k) => {
    const r = { jsSingle: timeSingle(js, k), jsBatch: timeBatch(js, k) };
    if (native) { r.nativeSingle = timeSingle(native, k); r.nativeBatch = timeBatch(native, k); }
    return [k.name, r.jsSingle, r.nativeSingle, r.jsBatch, r.nativeBatch, cpp[k.name],
      ratio(r.nativeBatch, cpp[k.name]), ratio(r.jsSingle, r.nativeSingle)];
  });
  if (sink === 0.5) console.log(''); // keeps the results alive
  return {
    columns: ['function', 'JS single', 'native single', 'JS batch', 'native batch', 'C++ loop', 'native batch / C++', 'JS / native single'],
    rows,
    notes: [`batch N = ${N} random inputs, ${SINGLE} single calls per sample, median of ${SAMPLES} samples`],
  };
}
