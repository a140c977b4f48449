/**
 * Bench section: full KBNK table generation (2 x 10 x 64^3 entries, retrograde to the 33-move mate),
 * KbnkTablebase.generate, which is the KBNvK case of the general generator: native on one thread and
 * on all cores (the async path, off the main thread), the JS twin, and the plain C++ core without
 * Node-API (bench/kbnk.cc) when a compiler is at hand. Medians of a few runs
 * in one process, so the ratios compare like with like.
 *
 *   node bench/sections/kbnk.mjs [--quick]     (stand-alone, after `npm run build`)
 *
 * `--quick` times JS once instead of three times and native three times instead of seven.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCpp, cppFlags, runStandalone } from '../lib.mjs';

export const title = 'KBNK generation';

const here = dirname(fileURLToPath(import.meta.url));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Median milliseconds of `samples` generations after one warm-up; also the table of the last one. */
async function time(KbnkTablebase, options, samples) {
  let tb = await KbnkTablebase.generate(options); // warm-up (JIT, page faults)
  const ms = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    tb = await KbnkTablebase.generate(options);
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), samples: ms, tb };
}

function plainCpp(native, samples) {
  if (!existsSync(join(here, '..', 'kbnk.cc'))) return undefined;
  try {
    const exe = compileCpp('kbnk', native);
    return { ...JSON.parse(execFileSync(exe, [String(samples)], { encoding: 'utf8' })), flags: cppFlags(native).filter((f) => f.startsWith('-') && f !== '-I').join(' ') };
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('KbnkTablebase') && !filter.test('kbnkGenerate')) return null;
  const cores = availableParallelism();
  const nativeSamples = quick ? 3 : 7;
  const jsSamples = quick ? 1 : 3;
  const { KbnkTablebase } = js;
  const results = [];
  const jsRun = await time(KbnkTablebase, { backend: 'js' }, jsSamples);
  results.push({ name: 'JS (int32 halves, main thread)', ms: jsRun.ms, samples: jsRun.samples, impl: 'js', series: 'JS' });
  let identical = 'n/a';
  if (native) {
    const one = await time(KbnkTablebase, { backend: 'native', threads: 1 }, nativeSamples);
    const all = await time(KbnkTablebase, { backend: 'native', threads: cores }, nativeSamples);
    results.push({ name: 'native, 1 thread (async)', ms: one.ms, samples: one.samples, impl: 'native 1 thread', series: 'native, single call' });
    results.push({ name: `native, ${cores} threads (async)`, ms: all.ms, samples: all.samples, impl: `native ${cores} threads` });
    identical = Buffer.compare(Buffer.from(all.tb.table), Buffer.from(jsRun.tb.table)) === 0
      && Buffer.compare(Buffer.from(one.tb.table), Buffer.from(jsRun.tb.table)) === 0 ? 'yes' : 'NO';
  }
  const cpp = plainCpp(native, quick ? 3 : 5);
  if (cpp && !cpp.error) {
    results.push({ name: 'plain C++, 1 thread', ms: cpp.kbnkGenerate1ThreadMs, impl: 'cpp 1 thread', series: 'plain C++ loop (per element)', mode: 'cpp' });
    results.push({ name: `plain C++, ${cpp.threads} threads`, ms: cpp.kbnkGenerateAllThreadsMs, impl: `cpp ${cpp.threads} threads`, mode: 'cpp' });
  }
  const jsMs = jsRun.ms;
  const stats = jsRun.tb.stats();
  const measurements = results.map((r) => {
    const samples = (r.samples ?? [r.ms]).map((ms) => ms * 1e6);
    const sorted = [...samples].sort((x, y) => x - y);
    return { fn: 'KbnkTablebase.generate', mode: r.mode ?? 'single', impl: r.impl, unit: 'ns/op', batchSize: 1, perOp: 'generation',
      op: 'one full KBNK table generation (2 x 10 x 64^3 entries, retrograde to mate)', samples,
      median: sorted[sorted.length >> 1], min: sorted[0], max: sorted[sorted.length - 1],
      chart: r.series ? { group: 'KBNK generation (1 thread)', series: r.series } : undefined };
  });
  return {
    measurements,
    columns: ['generator', 'ms (median)', 'JS / this'],
    rows: results.map((r) => [r.name, r.ms.toFixed(1), `${(jsMs / r.ms).toFixed(1)}x`]),
    notes: [
      `${cores} cores; medians of ${jsSamples} JS and ${nativeSamples} native runs after a warm-up; goals: native < 2000 ms, JS < 60000 ms`,
      `native and JS tables byte-identical: ${identical}`,
      `longest mate: ${(stats.strongToMove.longestPlies + 1) >> 1} moves (${stats.strongToMove.longestPlies} plies strong to move, ${stats.weakToMove.longestPlies} weak to move)`,
      cpp ? (cpp.error ? `plain C++: not built (${cpp.error})` : `plain C++ flags: ${cpp.flags}`) : 'plain C++: bench/kbnk.cc not present',
    ],
  };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
