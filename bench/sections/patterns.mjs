/**
 * King and knight patterns, batch paths against the plain C++ loop: per function, JS batch and
 * native batch (ns/element, one call over N elements) and the plain C++ loop (bench/baseline.cc,
 * mode `patterns`) over the same inputs, so the table shows how close the batch path is to raw C++.
 * Single calls of the same functions are in the api section (one loop per backend there).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDir, makeRandom, measureStats, measurement, ratio, single as one } from '../lib.mjs';

export const title = 'King and knight patterns: batch paths vs the plain C++ loop (ns per element)';

export async function run({ js, native, quick, filter, baseline }) {
  const N = quick ? 1 << 16 : 1 << 20;
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

  const measurements = [];
  const timeBatch = (api, impl, k) => {
    const s = measureStats(() => k.batch(api), N, SAMPLES);
    measurements.push(measurement({ fn: `${k.name}Batch`, mode: 'batch', impl, op: `${k.name}Batch over ${N} random inputs, per element`,
      batchSize: N, perOp: 'element', chart: impl === 'native' ? { group: k.name, series: 'native, batch (per element)' } : undefined }, s));
    return s.median;
  };

  const inputFile = join(buildDir, 'patterns.bin');
  writeFileSync(inputFile, Buffer.concat([sq, sq2, a, b, c, d, e, path, single1, single2]
    .map((x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength))));
  const cpp = JSON.parse(execFileSync(baseline, ['patterns', inputFile, String(N), String(SAMPLES)], { encoding: 'utf8' }));

  const rows = cases.map((k) => {
    const jsBatch = timeBatch(js, 'js', k);
    const nativeBatch = native && timeBatch(native, 'native', k);
    if (cpp[k.name] !== undefined) {
      measurements.push(one({ fn: k.name, mode: 'cpp', impl: 'cpp', op: `plain C++ loop of ${k.name} over the same ${N} inputs, per element`,
        batchSize: N, perOp: 'element', chart: { group: k.name, series: 'plain C++ loop (per element)' } }, cpp[k.name]));
    }
    return [k.name, jsBatch, nativeBatch, cpp[k.name], ratio(nativeBatch, cpp[k.name]), ratio(jsBatch, nativeBatch)];
  });
  return {
    columns: ['function', 'JS batch', 'native batch', 'C++ loop', 'native batch / C++', 'JS / native batch'],
    rows,
    notes: [`N = ${N} random inputs per batch call, median of ${SAMPLES} samples (after one warm-up call); C++: the same core`
      + ' functions in a plain loop over the same inputs (bench/baseline.cc), median of as many samples.'],
    measurements,
  };
}
