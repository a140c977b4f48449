#!/usr/bin/env node
/**
 * `bitboard-patterns analyze` on 1 and 2 threads, end to end: wall seconds, CPU seconds (user + system,
 * all threads) and peak RSS from /usr/bin/time, output to /dev/null. Usage (after `npm run build`):
 *   node bench/analyze-scaling.mjs [lines=1000000] [runs=3] [extra analyze options...]
 * The input is examples/positions.epd repeated to `lines` lines, written once to the OS temp dir.
 * Wall-clock figures mean something only on a quiet machine; CPU seconds do not depend on other load.
 * The fixed part of a run is printed too: a bare `node -e 0` and the command on a one-line file (Node's
 * start-up, the command's own, the exit), with the scaling of what is left (the work). The runs take
 * the command's default pipeline (the addon's threads on the native backend); with
 * BITBOARD_PATTERNS_ANALYZE_PIPELINE=workers set, the worker threads'.
 * NODE_EXTRA_CA_CERTS, when set, makes every Node process read that certificate bundle at start-up:
 * the runs are made with it as the environment has it, and the script says so.
 */
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [lines = 1_000_000, runs = 3] = process.argv.slice(2, 4).map(Number);
const extra = process.argv.slice(4);
const file = join(tmpdir(), `bitboard-patterns-analyze-${lines}.epd`);
if (!existsSync(file)) {
  const src = readFileSync(join(root, 'examples', 'positions.epd'), 'utf8').split('\n').filter(Boolean);
  const out = [];
  for (let i = 0; i < lines; i++) out.push(src[i % src.length]);
  writeFileSync(file, `${out.join('\n')}\n`);
}
const cli = join(root, 'dist', 'cli.cjs');
const run = (threads) => {
  const devNull = openSync('/dev/null', 'w');
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, cli, 'analyze', file, ...extra, '--threads', String(threads), '--no-progress'],
    { stdio: ['ignore', devNull, 'pipe'] });
  const wall = (performance.now() - t0) / 1000;
  const [rssKb, user, sys] = r.stderr.toString().trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, user, sys, rssMb: rssKb / 1024 };
};
const one = join(tmpdir(), 'bitboard-patterns-analyze-1.epd');
writeFileSync(one, `${readFileSync(join(root, 'examples', 'positions.epd'), 'utf8').split('\n')[0]}\n`);
const wallOf = (args) => {
  const t0 = performance.now();
  spawnSync(process.execPath, args, { stdio: 'ignore' });
  return (performance.now() - t0) / 1000;
};
const best = {};
let bare = Infinity, fixed = Infinity;
for (let i = 0; i < runs; i++) {
  for (const t of [1, 2]) {
    const r = run(t);
    if (!best[t] || r.wall < best[t].wall) best[t] = r;
  }
  for (let j = 0; j < 3; j++) {
    bare = Math.min(bare, wallOf(['-e', '0']));
    fixed = Math.min(fixed, wallOf([cli, 'analyze', one, ...extra, '--threads', '1', '--no-progress']));
  }
}
for (const t of [1, 2]) {
  const b = best[t];
  console.log(`--threads ${t}: wall ${b.wall.toFixed(3)} s, CPU ${b.cpu.toFixed(2)} s (user ${b.user.toFixed(2)}, sys ${b.sys.toFixed(2)}), peak RSS ${b.rssMb.toFixed(0)} MB`);
}
console.log(`scaling 1 -> 2 threads: wall ${(best[1].wall / best[2].wall).toFixed(2)}x, CPU ratio ${(best[2].cpu / best[1].cpu).toFixed(2)} (min wall of ${runs} runs, ${lines} lines)`);
console.log(`fixed part: node -e 0 ${(bare * 1000).toFixed(0)} ms, analyze of one line ${(fixed * 1000).toFixed(0)} ms`
  + `${process.env.NODE_EXTRA_CA_CERTS ? ' (NODE_EXTRA_CA_CERTS is set: every Node start reads that bundle)' : ''}; `
  + `the rest scales ${((best[1].wall - fixed) / (best[2].wall - fixed)).toFixed(2)}x`);
