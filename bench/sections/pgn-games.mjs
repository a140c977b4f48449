/**
 * PGN games II, one core, on the reader section's corpus (scripts/make-pgn.mjs, seed 2026: a
 * [%clk] / [%eval] comment on some moves):
 *  - the positions path with the clock / eval annotations (pgnPositions { annotations: true }: typed
 *    arrays per position), next to the same path without them, and with game objects as well (what
 *    `analyze --features clock,eval` reads);
 *  - parsePgn with { annotations: true };
 *  - writePgn of the parsed games (comments, NAGs, clocks and evals kept);
 *  - the filter of `pgn filter` in process: read the records (tags, final positions), select by
 *    tags, dedupe by final position, copy the kept games' text (lib/games/pgn-copy.ts); and the
 *    `--export` path (games with comments and annotations, written again by writePgn).
 * Native and JS readers; writePgn and the filter's selection are TypeScript on both.
 * Reported: games/s (wall clock and CPU time) and the ratio to the issue's targets.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { buildDir, measurement, pgnCorpus, runStandalone, timeRuns } from '../lib.mjs';

/** The --dedupe key of the pgn command's --export path: the final position's sets and state, as text. */
function finalKey(words, at) {
  let s = '';
  for (let k = 0; k < 8; k++) s += `${words[at + k].toString(36)},`;
  return s + (words[at + 8] & 0xffffn).toString(36);
}

export const title = 'PGN games II: annotations, writePgn, filter, one core (games/s)';

/** The `pgn filter` pipeline in process (lib/games/pgn-copy.ts): tags and final positions from the records, kept games' own bytes copied. */
function copyFilterRun(api, text, backend) {
  return api.filterPgn(text, { backend, results: ['1-0', '0-1', '1/2-1/2', '*'], dedupe: true }).pgn.length;
}

/** `pgn filter --export` in process: games kept by the tag filter and the final-position dedupe, written again by writePgn. */
function filterRun(api, text, backend) {
  const keep = api.gameFilter({ results: ['1-0', '0-1', '1/2-1/2', '*'], minElo: 0 });
  const r = api.pgnPositions(text, { backend, games: true, comments: true, annotations: true, select: { mode: 'final' } });
  const at = new Map();
  r.game.forEach((g, k) => at.set(g, k));
  const seen = new Set();
  const out = [];
  for (const g of r.games) {
    if (g.error || !keep({ ...g, tags: { ...g.tags, WhiteElo: '2000', BlackElo: '2000' } })) continue;
    const key = finalKey(r.batch.words, at.get(g.game) * 10);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(g);
  }
  return api.writePgn(out).length;
}

export async function run({ js, native, quick, filter }) {
  if (filter && !/pgn|writePgn|annotation|filter/i.test(filter.source)) return null;
  const api = native ?? js;
  const games = quick ? 1000 : 5000;
  const text = await pgnCorpus(api, games);
  const samples = quick ? 3 : 7;
  const results = [];
  const add = (name, impl, r, target) => results.push({ name, impl, ...r, target });
  const backends = native ? ['native', 'js'] : ['js'];
  for (const b of backends) {
    const n = b === 'native' ? samples : Math.max(1, samples >> 1);
    add(`${b} reader: pgnPositions (all plies), for comparison`, `${b} positions`, timeRuns(() => api.pgnPositions(text, { backend: b }).batch.length, n));
    add(`${b} reader: pgnPositions + clock/eval per position`, `${b} positions annotations`,
      timeRuns(() => api.pgnPositions(text, { backend: b, annotations: true }).annotations.clock.length, n), 150000);
    add(`${b} reader: the same with game objects (analyze's path)`, `${b} positions annotations games`,
      timeRuns(() => api.pgnPositions(text, { backend: b, annotations: true, games: true }).batch.length, n));
    add(`${b} reader: parsePgn { annotations: true }`, `${b} parsePgn annotations`, timeRuns(() => api.parsePgn(text, { backend: b, annotations: true }).length, n));
    add(`${b} reader: pgn filter in process (read records, select, dedupe, copy)`, `${b} filter`, timeRuns(() => copyFilterRun(api, text, b), n), 50000);
    add(`${b} reader: pgn filter --export (game objects, writePgn)`, `${b} filter export`, timeRuns(() => filterRun(api, text, b), n));
  }
  const parsed = api.parsePgn(text, { comments: true, annotations: true }).filter((g) => !g.error);
  add('writePgn (comments, NAGs, clocks, evals)', 'writePgn', timeRuns(() => api.writePgn(parsed).length, samples), 50000);

  const gps = (r) => games / (r.ms / 1000);
  const cpuGps = (r) => games / (r.cpuMs / 1000);
  const measurements = results.map((r) => measurement({ fn: 'pgnGamesII', mode: 'single', impl: r.impl, perOp: 'game',
    op: 'one game of the generated corpus' },
  { samples: r.samples.map((ms) => (ms * 1e6) / games), median: (r.ms * 1e6) / games, min: (Math.min(...r.samples) * 1e6) / games, max: (Math.max(...r.samples) * 1e6) / games }));
  return {
    measurements,
    columns: ['path', 'games/s', 'games/s (CPU time)', 'target', 'x target (CPU)'],
    rows: results.map((r) => [r.name, Math.round(gps(r)).toLocaleString('en-US'), Math.round(cpuGps(r)).toLocaleString('en-US'),
      r.target ? r.target.toLocaleString('en-US') : '-', r.target ? `${(cpuGps(r) / r.target).toFixed(2)}x` : '-']),
    notes: [
      `corpus: ${games} games, ${(text.length / 1e6).toFixed(1)} MB (scripts/make-pgn.mjs, seed 2026), medians of ${samples} runs (JS fewer)`,
      'targets (issue "Games II", per core): the positions path with clock and eval 150,000 games/s; writePgn and the filter 50,000 games/s',
      'the filter rows keep every game (a filter that passes all, then the final-position dedupe) so that the whole corpus is written: the worst case',
    ],
  };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
