/**
 * `bitboard-patterns analyze` end to end on a `.pgn.zst`: zstd decompression (fzstd), splitting at
 * game boundaries, reading the games (native), the check features of every position, NDJSON records
 * to /dev/null, on all cores. Reported: games/s and positions/s, and the peak RSS at two input sizes
 * (it should not grow with the input: the command streams).
 *
 * The input: the generated corpus of the pgn section (scripts/make-pgn.mjs, 5,000 games, seed 2026)
 * repeated to 50,000 and 200,000 games, compressed with the zstd command line tool, written to
 * bench/.build at bench time (never committed).
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { benchDir, buildDir, measurement, runStandalone } from '../lib.mjs';

export const title = 'analyze on a .pgn.zst, all cores (check features, NDJSON)';

const FEATURES = 'checkers,pinned,discoveredCheckCandidates,inCheck';
const BASE_GAMES = 5000;

function baseCorpus(api) {
  mkdirSync(buildDir, { recursive: true });
  const file = join(buildDir, `corpus-${BASE_GAMES}.pgn`);
  if (existsSync(file)) return readFileSync(file);
  const text = Buffer.from(makePgn(api, { games: BASE_GAMES, seed: 2026 }));
  writeFileSync(file, text);
  return text;
}

/** bench/.build/games-N.pgn.zst: the base corpus repeated to N games; null without the zstd tool. */
async function zstFile(base, copies) {
  const zst = join(buildDir, `games-${copies * BASE_GAMES}.pgn.zst`);
  if (existsSync(zst)) return zst;
  const plain = join(buildDir, `games-${copies * BASE_GAMES}.pgn`);
  const out = createWriteStream(plain);
  for (let i = 0; i < copies; i++) {
    if (!out.write(base)) await new Promise((r) => out.once('drain', r));
    if (!out.write('\n')) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  const z = spawnSync('zstd', ['-q', '-f', '-T0', plain, '-o', zst]);
  rmSync(plain, { force: true });
  return z.status === 0 ? zst : null;
}

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('pgn') && !filter.test('analyze')) return null;
  if (!native) return null;
  const cli = join(benchDir, '..', 'dist', 'cli.cjs');
  if (!existsSync(cli)) return null;
  const base = baseCorpus(native ?? js);
  // Positions per copy of the base corpus: what the command analyses (bad games have none).
  const perCopy = native.pgnPositions(base, { backend: 'native' }).batch.length;
  const threads = availableParallelism();
  const hasTime = existsSync('/usr/bin/time');
  const sizes = quick ? [1, 3] : [10, 40];
  const rows = [];
  const measurements = [];
  const notes = [];
  for (const copies of sizes) {
    const file = await zstFile(base, copies);
    if (!file) return { columns: ['input'], rows: [['zstd command line tool not found: section skipped']], measurements: [] };
    const games = copies * BASE_GAMES;
    const positions = copies * perCopy;
    const args = [cli, 'analyze', file, '--features', FEATURES, '--threads', String(threads), '--no-progress'];
    const t0 = performance.now();
    const r = hasTime
      ? spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const secs = (performance.now() - t0) / 1000;
    const last = r.stderr.toString().trim().split('\n').pop() ?? '';
    const [, rssKb, user, sys] = hasTime ? last.split(' ').map(Number) : [0, NaN, NaN, NaN];
    const mb = (readFileSync(file).length / 1e6);
    rows.push([`${games.toLocaleString('en-US')} games, ${mb.toFixed(0)} MB zstd`, Math.round(games / secs).toLocaleString('en-US'),
      Math.round(positions / secs).toLocaleString('en-US'), hasTime ? `${(rssKb / 1024).toFixed(0)} MB` : 'n/a',
      hasTime ? `${(user + sys).toFixed(1)} s` : 'n/a', `${secs.toFixed(1)} s`]);
    measurements.push(measurement({ fn: 'analyze CLI (PGN)', mode: 'cli', impl: `--threads ${threads}`, perOp: 'position', batchSize: positions,
      op: `bitboard-patterns analyze games.pgn.zst --features ${FEATURES} on ${games} games (${positions} positions); peak RSS ${hasTime ? `${(rssKb / 1024).toFixed(0)} MB` : 'n/a'}` },
    { samples: [secs * 1e9 / positions], median: secs * 1e9 / positions, min: secs * 1e9 / positions, max: secs * 1e9 / positions }));
    if (r.status !== 0 && r.status !== 3) notes.push(`exit status ${r.status}: ${last}`);
  }
  notes.unshift(`${threads} hardware threads; the pgn section's corpus (${BASE_GAMES} games, ${perCopy.toLocaleString('en-US')} positions) repeated; output to /dev/null; one run each (wall time; CPU = user + sys of all threads)`);
  return { columns: ['input', 'games/s', 'positions/s', 'peak RSS', 'CPU', 'wall'], rows, notes, measurements };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
