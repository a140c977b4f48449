/**
 * The cost of each game's outcome (lib/games/outcome.ts: the rules that end a game, with a board kept per
 * ply for repetition) in the PGN readers, one core: the PGN section's corpus read with the outcome
 * and without it ({ outcome: false }), the two timed alternately in one process so that drift hits
 * both alike. Rows:
 *  - parsePgn (game objects; the outcome is on by default);
 *  - pgnPositions with { games: true } (positions and game objects, as `analyze --per game` reads);
 *  - the addon's reader alone (its pgnRead: the records, no JS objects) writing every position, and
 *    writing the SAN as parsePgn has it, with and without the outcome flag: the reader's own cost;
 *  - the same reader as a plain C++ loop (bench/pgn.cc), positions and SAN, CPU time of the best
 *    run (the least disturbed by other work on the machine), with and without, alternately;
 *  - pgnPositions without games (the positions path, which computes no outcome), for the reference
 *    figure of games/s per core.
 * Reported: games/s of each and the ratio with / without the outcome.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { execFileSync } from 'node:child_process';
import { benchDir, buildDir, compileCpp, measurement, pgnCorpus } from '../lib.mjs';

// Flags of the reader (native/core/pgn.h Options).
const WRITE_SAN = 1, WRITE_POSITIONS = 4, LAST_CHUNK = 16, OUTCOME = 64;

/** The addon built from source, for its raw reader; null when there is none (prebuilds only). */
function sourceAddon() {
  const file = join(benchDir, '..', 'build', 'Release', 'bitboard_patterns.node');
  return existsSync(file) ? createRequire(import.meta.url)(file) : null;
}

export const title = 'PGN readers: the cost of each game\'s outcome, one core (games/s)';

/**
 * Times each of `fns` `samples` times, round-robin (the order turned each round): the median CPU
 * ms of the process per run (user + system: on a shared machine the wall clock also counts the
 * time other processes held the core), and the wall-clock samples.
 */
function alternate(fns, samples) {
  for (const f of fns) f();
  const ms = fns.map(() => []);
  const cpu = fns.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (let k = 0; k < fns.length; k++) {
      const i = (k + s) % fns.length;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      fns[i]();
      ms[i].push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu[i].push((c.user + c.system) / 1000);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return ms.map((m, i) => ({ ms: median(cpu[i]), wallMs: median(m), samples: m }));
}

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('pgn') && !filter.test('outcome')) return null;
  const api = native ?? js;
  const games = quick ? 1000 : 5000;
  const text = await pgnCorpus(api, games);
  const samples = quick ? 5 : 15;
  const pairs = [];
  const pair = (name, impl, on, off) => pairs.push({ name, impl, on, off });
  const addon = native ? sourceAddon() : null;
  if (addon) {
    const read = (flags) => () => addon.pgnRead(text, flags, 1, 0, 1).games.length;
    pair('native reader alone, positions (every ply)', 'native reader positions', read(WRITE_POSITIONS | LAST_CHUNK | OUTCOME),
      read(WRITE_POSITIONS | LAST_CHUNK));
    pair('native reader alone, SAN (as parsePgn)', 'native reader san', read(WRITE_SAN | LAST_CHUNK | OUTCOME), read(WRITE_SAN | LAST_CHUNK));
  }
  if (native) {
    pair('native: parsePgn', 'native parsePgn', () => native.parsePgn(text, { backend: 'native' }).length,
      () => native.parsePgn(text, { backend: 'native', outcome: false }).length);
    pair('native: pgnPositions { games: true }', 'native positions+games',
      () => native.pgnPositions(text, { backend: 'native', games: true }).batch.length,
      () => native.pgnPositions(text, { backend: 'native', games: true, outcome: false }).batch.length);
  }
  pair('JS: parsePgn', 'js parsePgn', () => js.parsePgn(text, { backend: 'js' }).length,
    () => js.parsePgn(text, { backend: 'js', outcome: false }).length);

  const rows = [];
  const measurements = [];
  const gps = (ms) => games / (ms / 1000);
  for (const p of pairs) {
    const n = p.impl.startsWith('js') ? Math.max(3, samples >> 1) : samples;
    const [on, off] = alternate([p.on, p.off], n);
    rows.push([p.name, Math.round(gps(off.ms)).toLocaleString('en-US'), Math.round(gps(on.ms)).toLocaleString('en-US'), `${(off.ms / on.ms).toFixed(3)}x`]);
    for (const [r, label] of [[on, 'outcome'], [off, 'no outcome']]) {
      measurements.push(measurement({ fn: 'pgnOutcome', mode: 'single', impl: `${p.impl}, ${label}`, perOp: 'game', op: 'one game of the generated corpus' },
        { samples: r.samples.map((ms) => (ms * 1e6) / games), median: (r.ms * 1e6) / games, min: (Math.min(...r.samples) * 1e6) / games, max: (Math.max(...r.samples) * 1e6) / games }));
    }
  }
  // The plain C++ loop: best CPU time of its samples, rounds alternating with and without.
  if (native) {
    try {
      const exe = compileCpp('pgn', native);
      const file = join(buildDir, `corpus-${games}.pgn`);
      for (const [label, flags] of [['positions (every ply)', WRITE_POSITIONS], ['SAN', WRITE_SAN]]) {
        const best = { on: Infinity, off: Infinity };
        for (let round = 0; round < (quick ? 2 : 4); round++) {
          for (const which of round % 2 ? ['off', 'on'] : ['on', 'off']) {
            const r = JSON.parse(execFileSync(exe, [file, String(quick ? 5 : 9), String(flags | (which === 'on' ? OUTCOME : 0))], { encoding: 'utf8' }));
            best[which] = Math.min(best[which], r.bestCpuSeconds);
          }
        }
        rows.push([`plain C++ loop, ${label} (bench/pgn.cc, best CPU time)`, Math.round(games / best.off).toLocaleString('en-US'),
          Math.round(games / best.on).toLocaleString('en-US'), `${(best.off / best.on).toFixed(3)}x`]);
      }
    } catch (e) {
      rows.push([`plain C++ loop: not built (${e.message.split('\n')[0]})`, '-', '-', '-']);
    }
  }
  let positionsNote = '';
  if (native) {
    const [positions] = alternate([() => native.pgnPositions(text, { backend: 'native' }).batch.length], samples);
    positionsNote = `the positions path (native pgnPositions, no game objects, no outcome): ${Math.round(gps(positions.ms)).toLocaleString('en-US')} games/s`;
  }
  const ends = {};
  for (const g of api.parsePgn(text)) {
    const t = g.outcome?.termination ?? 'none';
    ends[t] = (ends[t] ?? 0) + 1;
  }
  return {
    measurements,
    columns: ['reader', 'games/s without outcome', 'games/s with outcome', 'with / without (speed)'],
    rows,
    notes: [
      'games/s from CPU time (median of the runs; the plain C++ rows: the best run)',
      `corpus: ${games} games, ${(text.length / 1e6).toFixed(1)} MB (scripts/make-pgn.mjs, seed 2026), medians of ${samples} runs each (JS fewer), with and without timed alternately`,
      `outcomes in the corpus: ${Object.entries(ends).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      ...(positionsNote ? [positionsNote] : []),
    ],
  };
}
