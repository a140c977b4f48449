#!/usr/bin/env node
/**
 * Differential fuzz of hostile game dumps through `bitboard-patterns analyze` (dist/cli.cjs): a
 * generated PGN corpus with bad games mixed in, compressed as gzip or zstd (the addon's libzstd),
 * then damaged: cut at a random byte, bytes flipped, frames concatenated (a valid multi-frame
 * file), garbage appended, or left whole. Each case runs the command on the native backend (libzstd,
 * the addon's reader) and on the JS backend (fzstd, the JS reader), in NDJSON, CSV or Parquet, on
 * one or two threads. Checked:
 * - the exit codes are equal and one of 0 (clean), 1 (the input could not be read to its end) or
 *   3 (bad games); no signal, no stack trace or engine-internal message on stderr;
 * - the outputs are the same bytes on both backends;
 * - NDJSON of a cut file: its records are the first records of the whole file's (nothing lost before
 *   the damage, nothing duplicated, nothing invented after it).
 *
 *   node scripts/fuzz-dumps.mjs [--seconds 60] [--seed S]   (run `npm run build` first)
 *   node scripts/fuzz-dumps.mjs --seed S --case N           one case again, its files kept
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { makePgn } from './make-pgn.mjs';
import { seeded } from './seeded.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.cjs');
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};
const seconds = Number(opt('seconds', '60'));
const seed = opt('seed', String(Date.now() % 1e9));
const only = opt('case', undefined);

const js = await import(join(root, 'dist', 'js-entry.js'));
const { loadNative } = await import(join(root, 'dist', 'analyze-worker.js'));
const addonZstd = (() => { try { return loadNative().zstd ?? null; } catch { return null; } })();
if (!addonZstd) {
  console.error('fuzz-dumps: the addon has no libzstd (zstd.h at build time): zstd cases need it');
  process.exit(1);
}

/** Integers below n, from a PRNG of (seed, case) alone. */
function prng(index) {
  const next = seeded(seed, index);
  return (n) => Math.floor(next() * n);
}

const BAD = ['[Event "bad move"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n', '[Event "bad token"]\n[Result "1-0"]\n\n1. d4 @@ 1-0\n',
  '[Event "cut"]\n[Result "*"]\n\n1. e4 {never closed\n'];
const toSan = (pos, m) => js.toSan(pos, m);

function makeCase(index) {
  const r = prng(index);
  const games = makePgn({ ...js, toSan }, { games: 3 + r(40), seed: 1 + r(1e6), maxPlies: 20 + r(100) }).split(/\n(?=\[Event )/);
  for (let k = r(3); k > 0; k--) games.splice(r(games.length + 1), 0, BAD[r(BAD.length)]);
  const text = Buffer.from(games.join('\n'));
  const kind = r(2) === 0 ? 'gz' : 'zst';
  const compress = (b) => (kind === 'gz' ? gzipSync(b, { level: 1 + r(9) }) : Buffer.from(addonZstd.compress(b, 1 + r(5))));
  let bytes = compress(text);
  const damage = ['whole', 'cut', 'flip', 'concat', 'garbage'][r(5)];
  if (damage === 'cut') bytes = bytes.subarray(0, r(bytes.length));
  else if (damage === 'flip') {
    bytes = Buffer.from(bytes);
    for (let k = 1 + r(3); k > 0; k--) bytes[r(bytes.length)] ^= 1 << r(8);
  } else if (damage === 'concat') {
    // Two frames (members) one after the other: a valid file of both texts.
    const cutAt = text.indexOf('\n[Event ', r(text.length));
    bytes = cutAt > 0 ? Buffer.concat([compress(text.subarray(0, cutAt + 1)), compress(text.subarray(cutAt + 1))]) : bytes;
  } else if (damage === 'garbage') bytes = Buffer.concat([bytes, Buffer.from(Array.from({ length: 1 + r(64) }, () => r(256)))]);
  const format = ['ndjson', 'csv', 'parquet'][r(3)];
  const threads = 1 + r(2);
  return { kind, damage, format, threads, bytes, text, features: ['inCheck', 'checkers,legalMoveCount', 'motifs'][r(3)] };
}

const INTERNAL = /(TypeError|ReferenceError|RangeError): .*\n\s+at |Cannot read properties|is not a function|Segmentation|Aborted|core dumped|FATAL|heap out of memory/;

function run(dir, c, backend, file, format = c.format) {
  const args = [cli, 'analyze', file, '--backend', backend, '--features', c.features, '--threads', String(c.threads), '--no-progress'];
  if (format !== 'ndjson') args.push('--format', format);
  const r = spawnSync(process.execPath, args, { cwd: dir, maxBuffer: 1 << 28, timeout: 60_000, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr.toString() };
}

function check(index, keep) {
  const c = makeCase(index);
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-dumps-'));
  const problems = [];
  try {
    const file = join(dir, `games.pgn.${c.kind}`);
    writeFileSync(file, c.bytes);
    const a = run(dir, c, 'native', file);
    const b = run(dir, c, 'js', file);
    for (const [name, x] of [['native', a], ['js', b]]) {
      if (x.signal) problems.push(`${name}: killed by ${x.signal}`);
      else if (![0, 1, 3].includes(x.status)) problems.push(`${name}: exit code ${x.status}: ${x.err.slice(0, 300)}`);
      if (INTERNAL.test(x.err)) problems.push(`${name}: internal error on stderr: ${x.err.slice(0, 400)}`);
    }
    if (a.status !== b.status) problems.push(`exit codes differ: native ${a.status}, js ${b.status} (${a.err.trim().slice(0, 200)} | ${b.err.trim().slice(0, 200)})`);
    if (!a.out.equals(b.out)) problems.push(`outputs differ (${a.out.length} and ${b.out.length} bytes)`);
    if (c.damage === 'cut' && c.format === 'ndjson' && problems.length === 0) {
      const whole = join(dir, 'whole.pgn');
      writeFileSync(whole, c.text);
      const w = run(dir, c, 'native', whole, 'ndjson');
      if (!w.out.subarray(0, a.out.length).equals(a.out)) problems.push('the cut file\'s records are not the first records of the whole file\'s');
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
    else console.log(`files kept in ${dir}`);
  }
  return { c, problems };
}

if (only !== undefined) {
  const { c, problems } = check(Number(only), true);
  console.log(`case ${only}: ${c.kind} ${c.damage} ${c.format} threads ${c.threads} features ${c.features}: ${problems.length ? problems.join('; ') : 'ok'}`);
  process.exit(problems.length ? 1 : 0);
}

const started = Date.now();
const seen = new Map();
let cases = 0;
let failed = 0;
while (Date.now() - started < seconds * 1000) {
  const { c, problems } = check(cases, false);
  const label = `${c.kind} ${c.damage} ${c.format}`;
  seen.set(label, (seen.get(label) ?? 0) + 1);
  if (problems.length) {
    failed++;
    console.log(`case ${cases} (${label}, threads ${c.threads}, features ${c.features}): ${problems.join('; ')}`);
    console.log(`  replay: node scripts/fuzz-dumps.mjs --seed ${seed} --case ${cases}`);
  }
  cases++;
}
console.log(`fuzz-dumps seed ${seed}: ${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failed} failed`);
console.log(`  kinds: ${[...seen].sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
process.exit(failed ? 1 : 0);
