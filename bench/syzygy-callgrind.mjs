/**
 * Instructions and (simulated) branch mispredictions per WDL probe, native batch on one thread vs
 * Fathom's tb_probe_wdl, counted by valgrind's callgrind over the same random legal positions as
 * the bench's Syzygy section. Counts are taken inside the batch loop only (native: runBatch; Fathom:
 * tb_probe_wdl_impl) for 1 and 3 passes; the difference over 2 passes is the steady state (tables
 * mapped, block marks noted). Wall-clock timings on a busy machine vary; these counts do not.
 *
 *   node bench/syzygy-callgrind.mjs [positions=4000]     (after `npm run build`; needs valgrind, libfathom-dev)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomPositions } from './sections/syzygy.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const build = join(here, '.build');
const tables = join(here, '..', 'test', 'fixtures', 'syzygy');
const n = Number(process.argv[2] ?? 4000);
mkdirSync(build, { recursive: true });

const js = await import('bitboard-patterns/js');
const { words } = randomPositions(js, n);
const input = join(build, 'syzygy-callgrind-positions.bin');
writeFileSync(input, Buffer.from(words.buffer, words.byteOffset, words.byteLength));

// the native side: a child process that probes the file `passes` times
const child = join(build, 'syzygy-callgrind-child.mjs');
writeFileSync(child, `import { readFileSync } from 'node:fs';
const { SyzygyTablebase } = await import('bitboard-patterns/native');
const b = readFileSync(process.argv[2]);
const words = new BigUint64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const tb = SyzygyTablebase.open(${JSON.stringify(tables)}, { backend: 'native' });
for (let r = 0; r < Number(process.argv[3]); r++) tb.probeWdlBatch(words, undefined, 1);
`);

/** [instructions, conditional branches mispredicted] inside `fn` for a run of `argv`. */
function counts(fn, argv) {
  const r = spawnSync('valgrind', ['--tool=callgrind', '--branch-sim=yes', `--toggle-collect=${fn}`, '--callgrind-out-file=/dev/null', ...argv], { encoding: 'utf8' });
  const m = /Collected : ([\d ]+)/.exec(r.stderr);
  if (!m) throw new Error(`callgrind gave no counts: ${r.stderr.slice(-500)}`);
  const fields = m[1].trim().split(' ').map(Number); // Ir Bc Bcm Bi Bim
  return { ir: fields[0], bcm: fields[2] };
}
function perProbe(fn, argvOf) {
  const one = counts(fn, argvOf(1)), three = counts(fn, argvOf(3));
  return { ir: (three.ir - one.ir) / (2 * n), bcm: (three.bcm - one.bcm) / (2 * n) };
}

const ours = perProbe('*runBatch*', (passes) => ['node', child, input, String(passes)]);
console.log(`native batch, 1 thread: ${ours.ir.toFixed(0)} instructions, ${ours.bcm.toFixed(1)} mispredicted branches per probe`);
if (existsSync('/usr/include/tbprobe.h')) {
  const exe = join(build, 'syzygy-fathom');
  execFileSync('gcc', ['-O2', join(here, 'syzygy-fathom.c'), '-lfathom', '-o', exe]);
  // the driver makes one untimed pass before its timed ones: 0 and 2 timed passes are 1 and 3 in all
  const f = perProbe('tb_probe_wdl_impl', (passes) => [exe, tables, input, join(build, 'syzygy-callgrind-out.bin'), String(passes - 1)]);
  console.log(`Fathom tb_probe_wdl:    ${f.ir.toFixed(0)} instructions, ${f.bcm.toFixed(1)} mispredicted branches per probe`);
} else {
  console.log('Fathom: skipped (libfathom-dev is not installed)');
}
console.log(`${n} random legal 3-4 piece positions; callgrind's simple branch predictor model`);
