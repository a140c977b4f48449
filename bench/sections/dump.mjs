/**
 * A lichess-style dump end to end: `bitboard-patterns analyze` on a 100,000-game `.pgn.zst` (one
 * feature, all cores), the ways of feeding it and of writing it out, each against the plain reader's
 * games/s on the same games so the cost of each stage shows:
 *
 * - decompression alone, in process: the addon's libzstd against fzstd (pure JS), MB/s of PGN out;
 * - input: the .zst read by the command (native libzstd) against `zstd -dc FILE | analyze --input pgn`
 *   (the zstd tool in its own process), NDJSON out;
 * - output: NDJSON, CSV and Parquet (to stdout), and NDJSON with one record per game (--per game),
 *   records/s, output bytes, peak RSS (/usr/bin/time); Parquet also at a quarter of the input, to
 *   show whether its memory grows with the input.
 *
 * "x the reader" is each row's games/s over the reader's (1.00x: as fast as reading the games).
 *
 * Runs alternate (A, B, C, A, B, C, ...) and the median of each is reported, so load from other
 * processes on the machine falls on every row alike. The corpus: the pgn section's generated games
 * (scripts/make-pgn.mjs, 5,000 games, seed 2026) repeated, compressed with the zstd tool, in
 * bench/.build (never committed).
 *
 * Stand-alone: node bench/sections/dump.mjs [--quick]
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Decompress } from 'fzstd';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { benchDir, buildDir, measurement, runStandalone } from '../lib.mjs';

export const title = 'dump: analyze a 100,000-game .pgn.zst (native zstd vs zstd -dc pipe; NDJSON, CSV, Parquet)';

const BASE_GAMES = 5000;
const FEATURE = 'inCheck';

function baseCorpus(api) {
  mkdirSync(buildDir, { recursive: true });
  const file = join(buildDir, `corpus-${BASE_GAMES}.pgn`);
  if (!existsSync(file)) writeFileSync(file, makePgn(api, { games: BASE_GAMES, seed: 2026 }));
  return file;
}

/** bench/.build/dump-N.pgn and .pgn.zst: the base corpus repeated `copies` times; null without the zstd tool. */
async function corpus(base, copies) {
  const plain = join(buildDir, `dump-${copies * BASE_GAMES}.pgn`);
  const zst = `${plain}.zst`;
  if (!existsSync(plain)) {
    const text = readFileSync(base);
    const out = createWriteStream(plain);
    for (let i = 0; i < copies; i++) {
      if (!out.write(text)) await new Promise((r) => out.once('drain', r));
      if (!out.write('\n')) await new Promise((r) => out.once('drain', r));
    }
    await new Promise((r) => out.end(r));
  }
  if (!existsSync(zst) && spawnSync('zstd', ['-q', '-f', '-T0', plain, '-o', zst]).status !== 0) return null;
  return { plain, zst };
}

const hasTime = existsSync('/usr/bin/time');

/** One run of a shell command line; wall seconds, and peak RSS (KB) of the command /usr/bin/time wraps. */
function timed(command) {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  const secs = (performance.now() - t0) / 1000;
  const lines = r.stderr.toString().trim().split('\n');
  const rss = Number(lines.find((l) => l.startsWith('RSS '))?.slice(4));
  return { secs, rssKb: rss, status: r.status, err: lines.filter((l) => !l.startsWith('RSS ')).slice(-1)[0] ?? '' };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const q = (s) => `'${s.replaceAll("'", "'\\''")}'`;

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('dump') && !filter.test('analyze')) return null;
  if (!native) return null;
  const cli = join(benchDir, '..', 'dist', 'cli.cjs');
  if (!existsSync(cli)) return null;
  const base = baseCorpus(native);
  const copies = quick ? 1 : 20;
  const reps = quick ? 1 : 3;
  const files = await corpus(base, copies);
  if (!files) return { columns: ['row'], rows: [['zstd command line tool not found: section skipped']], measurements: [] };
  const small = quick ? null : await corpus(base, copies / 4);
  const games = copies * BASE_GAMES;
  const node = q(process.execPath);
  const time = (cmd) => (hasTime ? `/usr/bin/time -f 'RSS %M' ${cmd}` : cmd);
  const threads = availableParallelism();
  const common = `--features ${FEATURE} --threads ${threads} --no-progress`;
  const outFile = (ext) => join(buildDir, `dump-out.${ext}`);
  // Timed runs write to /dev/null (every row alike: no disk in the figures); one untimed run of each
  // output format first writes to a file for its size.
  const sized = [['NDJSON', '', 'ndjson'], ['CSV', '--format csv', 'csv'], ['Parquet', '--format parquet', 'parquet'], ['per game', '--per game', 'games.ndjson']];
  const outBytes = {};
  for (const [name, flags, ext] of sized) {
    const r = timed(`${node} ${q(cli)} analyze ${q(files.zst)} ${common} ${flags} > ${q(outFile(ext))}`);
    outBytes[name] = r.status === 0 && existsSync(outFile(ext)) ? statSync(outFile(ext)).size : NaN;
    rmSync(outFile(ext), { force: true });
  }
  const cases = [
    { name: '.zst read by analyze (libzstd), NDJSON', cmd: `${time(`${node} ${q(cli)} analyze ${q(files.zst)} ${common}`)} > /dev/null`, size: 'NDJSON' },
    { name: 'zstd -dc | analyze --input pgn, NDJSON', cmd: `zstd -dc ${q(files.zst)} | ${time(`${node} ${q(cli)} analyze --input pgn ${common}`)} > /dev/null`, size: 'NDJSON' },
    { name: '.zst, CSV', cmd: `${time(`${node} ${q(cli)} analyze ${q(files.zst)} ${common} --format csv`)} > /dev/null`, size: 'CSV' },
    { name: '.zst, Parquet', cmd: `${time(`${node} ${q(cli)} analyze ${q(files.zst)} ${common} --format parquet`)} > /dev/null`, size: 'Parquet' },
    { name: '.zst, --per game, NDJSON (one record per game)', perGame: true, cmd: `${time(`${node} ${q(cli)} analyze ${q(files.zst)} ${common} --per game`)} > /dev/null`, size: 'per game' },
    ...(small ? [{ name: `.zst, Parquet, ${(games / 4).toLocaleString('en-US')} games (memory vs input size)`, quarter: true,
      cmd: `${time(`${node} ${q(cli)} analyze ${q(small.zst)} ${common} --format parquet`)} > /dev/null` }] : []),
  ];
  const samples = cases.map(() => []);
  const rss = cases.map(() => []);
  const failures = [];
  for (let rep = 0; rep < reps; rep++) {
    cases.forEach((c, i) => {
      const r = timed(c.cmd);
      if (r.status !== 0) failures.push(`${c.name}: exit ${r.status}: ${r.err}`);
      samples[i].push(r.secs);
      rss[i].push(r.rssKb);
    });
  }

  // The plain reader on the same games (in process, native, from the decompressed file, positions
  // only: no game objects), the median of as many runs as each command gets; and the records the
  // command writes (one per position).
  let t0;
  let read = 0;
  let positions = 0;
  const readerRuns = [];
  for (let rep = 0; rep < reps; rep++) {
    read = 0;
    positions = 0;
    t0 = performance.now();
    for await (const chunk of native.readPgnPositions({ path: files.plain }, { backend: 'native' })) {
      read = chunk.game.length > 0 ? chunk.game[chunk.game.length - 1] : read;
      positions += chunk.batch.length;
    }
    readerRuns.push((performance.now() - t0) / 1000);
  }
  const readerSecs = median(readerRuns);

  // Decompression alone, in process: libzstd (the addon's zstdReader*) against fzstd, 1 MB pieces in.
  const decompress = [];
  const addonFile = join(benchDir, '..', 'build', 'Release', 'bitboard_patterns.node');
  const addon = existsSync(addonFile) ? createRequire(import.meta.url)(addonFile) : {};
  const compressed = readFileSync(files.zst);
  const decoders = [
    ...(addon.zstdReaderNew ? [['libzstd (addon)', (piece, out) => {
      const reader = addon.zstdReaderNew();
      for (let at = 0; at < compressed.length; at += piece) {
        let input = compressed.subarray(at, at + piece);
        for (;;) {
          const r = addon.zstdReaderPush(reader, input);
          for (let k = 2; k < r.length; k++) out.n += r[k].length;
          input = input.subarray(r[0]);
          if (input.length === 0 && !r[1]) break;
        }
      }
      if (!addon.zstdReaderEnd(reader)) throw new Error('truncated');
    }]] : []),
    ['fzstd (pure JS)', (piece, out) => {
      const d = new Decompress((c) => { out.n += c.length; });
      for (let at = 0; at < compressed.length; at += piece) d.push(compressed.subarray(at, at + piece));
      d.push(new Uint8Array(0), true);
    }],
  ];
  for (const [name, decode] of decoders) {
    const secs = [];
    const out = { n: 0 };
    for (let rep = 0; rep < reps; rep++) {
      out.n = 0;
      t0 = performance.now();
      decode(1 << 20, out);
      secs.push((performance.now() - t0) / 1000);
    }
    decompress.push([name, median(secs), out.n]);
  }

  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const rows = [['plain reader (readPgnPositions, native, in process, positions only)', fmt(read / readerSecs), fmt(positions / readerSecs), '1.00x', '', '',
    `${readerSecs.toFixed(2)} s (${readerRuns.map((x) => x.toFixed(1)).join(', ')})`]];
  const measurements = [];
  for (const [name, secs, outBytes] of decompress) {
    rows.push([`decompress only: ${name}`, '', '', '', `${(outBytes / 1e6 / secs).toFixed(0)} MB/s out`, '', `${secs.toFixed(2)} s`]);
  }
  cases.forEach((c, i) => {
    const secs = median(samples[i]);
    const n = c.quarter ? games / 4 : games;
    const records = c.perGame ? n : c.quarter ? positions / 4 : positions;
    rows.push([c.name, fmt(n / secs), fmt(records / secs), `${((n / secs) / (read / readerSecs)).toFixed(2)}x`,
      c.size ? `${(outBytes[c.size] / 1e6).toFixed(1)} MB` : '', hasTime ? `${(median(rss[i]) / 1024).toFixed(0)} MB` : 'n/a',
      `${secs.toFixed(2)} s (${samples[i].map((s) => s.toFixed(1)).join(', ')})`]);
    measurements.push(measurement({ fn: `dump: ${c.name}`, mode: 'cli', impl: 'native', perOp: 'position', batchSize: records,
      op: `bitboard-patterns analyze, ${n} games (${records} positions), --features ${FEATURE}` },
    { samples: samples[i].map((s) => s * 1e9 / records), median: secs * 1e9 / records, min: Math.min(...samples[i]) * 1e9 / records, max: Math.max(...samples[i]) * 1e9 / records }));
  });
  const zstdBytes = statSync(files.zst).size;
  return {
    columns: ['run', 'games/s', 'records/s', 'x the reader', 'output', 'peak RSS', 'wall (median; each run)'],
    rows, measurements,
    notes: [`${games.toLocaleString('en-US')} games (the pgn section's ${BASE_GAMES}-game corpus repeated), ${(zstdBytes / 1e6).toFixed(0)} MB zstd, `
      + `${fmt(positions)} positions; ${threads} hardware threads; ${reps} alternating run(s) each, median; peak RSS of the analyze process`,
    ...failures],
  };
}

await runStandalone(import.meta.url, title, run);
