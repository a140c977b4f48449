/**
 * `bitboard-patterns explore` end to end (one core): the opening tree of the first 20 plies of every
 * game of the pgn section's corpus (scripts/make-pgn.mjs, 5,000 games, seed 2026) repeated, to
 * Parquet, against the plain reader's games/s on the same file (`readPgnPositions` with the games,
 * what explore reads through), so the cost of the counting and the file shows. Both backends; peak
 * RSS of each explore run (/usr/bin/time).
 *
 * Stand-alone: node bench/sections/explore.mjs [--quick]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { benchDir, buildDir, measurement, runStandalone } from '../lib.mjs';

export const title = 'explore: opening tree to Parquet, one core (games/s, against the plain reader)';

const BASE_GAMES = 5000;

function corpusFile(api, copies) {
  mkdirSync(buildDir, { recursive: true });
  const base = join(buildDir, `corpus-${BASE_GAMES}.pgn`);
  if (!existsSync(base)) writeFileSync(base, makePgn(api, { games: BASE_GAMES, seed: 2026 }));
  const file = join(buildDir, `explore-${copies * BASE_GAMES}.pgn`);
  if (!existsSync(file)) {
    const text = readFileSync(base);
    writeFileSync(file, Buffer.concat(Array.from({ length: copies }, () => [text, Buffer.from('\n')]).flat()));
  }
  return file;
}

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('explore')) return null;
  const cli = join(benchDir, '..', 'dist', 'cli.cjs');
  if (!existsSync(cli)) return null;
  const api = native ?? js;
  const copies = quick ? 1 : 4;
  const file = corpusFile(api, copies);
  const games = copies * BASE_GAMES;
  const hasTime = existsSync('/usr/bin/time');
  const rows = [];
  const measurements = [];
  const out = join(buildDir, 'explore-bench.parquet');
  for (const backend of native ? ['native', 'js'] : ['js']) {
    // The plain reader: the games and positions explore reads, nothing done with them.
    let t0 = performance.now();
    let read = 0;
    for await (const chunk of api.readPgnPositions({ path: file }, { backend, games: true, outcome: false })) read += chunk.games.length;
    const readSecs = (performance.now() - t0) / 1000;
    const args = [cli, 'explore', file, '--max-ply', '20', '--backend', backend, '--out', out];
    t0 = performance.now();
    const r = hasTime
      ? spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const secs = (performance.now() - t0) / 1000;
    const last = r.stderr.toString().trim().split('\n').pop() ?? '';
    const [, rssKb] = hasTime ? last.split(' ').map(Number) : [0, NaN];
    const treeBytes = existsSync(out) ? readFileSync(out).length : 0;
    rows.push([backend, Math.round(read / readSecs).toLocaleString('en-US'), Math.round(games / secs).toLocaleString('en-US'),
      `${(readSecs / secs).toFixed(2)}x`, hasTime ? `${(rssKb / 1024).toFixed(0)} MB` : 'n/a', `${(treeBytes / 1e6).toFixed(1)} MB`,
      r.status === 0 || r.status === 3 ? `${secs.toFixed(1)} s` : `exit ${r.status}: ${last}`]);
    measurements.push(measurement({ fn: 'explore CLI', mode: 'cli', impl: backend, perOp: 'game', batchSize: games,
      op: `bitboard-patterns explore (--max-ply 20, Parquet) on ${games} games; peak RSS ${hasTime ? `${(rssKb / 1024).toFixed(0)} MB` : 'n/a'}` },
    { samples: [secs * 1e9 / games], median: secs * 1e9 / games, min: secs * 1e9 / games, max: secs * 1e9 / games }));
  }
  rmSync(out, { force: true });
  return {
    columns: ['backend', 'reader games/s', 'explore games/s', 'explore / reader', 'explore peak RSS', 'tree', 'explore wall'],
    rows, measurements,
    notes: [`the pgn section's corpus (${BASE_GAMES} games, seed 2026) repeated to ${games.toLocaleString('en-US')} games (repeated games grow the counts, not the tree); explore includes process start; one run each`],
  };
}

await runStandalone(import.meta.url, title, run);
