/**
 * PGN to validated positions, one core: the generated corpus of scripts/make-pgn.mjs (random
 * playouts written with this package's SAN writer, with comments, clocks, NAGs and variations),
 * read by
 *  - this package, native: `pgnPositions` (tokenize, resolve SAN, play, write packed positions) and
 *    `parsePgn` (game objects with UCI and SAN moves);
 *  - this package, JS twin: the same two;
 *  - chessops: `parsePgn` + `startingPosition` + `parseSan` + `play` over each main line;
 *  - chess.js: `loadPgn` per game (the corpus split at game boundaries beforehand, outside the timing).
 * Reported: games/s and MB/s of PGN text, and the ratio to chessops.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess as ChessJs } from 'chess.js';
import { parsePgn as chessopsPgn, startingPosition } from 'chessops/pgn';
import { parseSan as chessopsSan } from 'chessops/san';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { execFileSync } from 'node:child_process';
import { buildDir, compileCpp, measurement, pgnCorpus, runStandalone, timeRuns } from '../lib.mjs';

export const title = 'PGN to validated positions, one core (games/s, MB/s)';

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('pgn') && !filter.test('parsePgn')) return null;
  const api = native ?? js;
  const games = quick ? 1000 : 5000;
  const text = await pgnCorpus(api, games);
  const str = text.toString('utf8');
  const mb = text.length / 1e6;
  const samples = quick ? 3 : 7;
  const results = [];
  const add = (name, impl, r, n = games, bytes = text.length) => results.push({ name, impl, ...r, games: n, bytes });

  if (native) {
    add('this package, native: pgnPositions (all plies)', 'native positions', timeRuns(() => native.pgnPositions(text, { backend: 'native' }).batch.length, samples));
    // A streaming consumer's loop: each call writes into the memory of the one before (after the warm-up).
    let last;
    add('this package, native: pgnPositions, { reuse } (all plies)', 'native positions reuse',
      timeRuns(() => (last = native.pgnPositions(text, { backend: 'native', reuse: last })).batch.length, samples));
    add('this package, native: parsePgn (game objects)', 'native parsePgn', timeRuns(() => native.parsePgn(text, { backend: 'native' }).length, samples));
  }
  add('this package, JS: pgnPositions (all plies)', 'js positions', timeRuns(() => js.pgnPositions(text, { backend: 'js' }).batch.length, Math.max(1, samples >> 1)));
  add('this package, JS: parsePgn (game objects)', 'js parsePgn', timeRuns(() => js.parsePgn(text, { backend: 'js' }).length, Math.max(1, samples >> 1)));

  // The same reader as a plain C++ loop (bench/pgn.cc): the ceiling without Node-API and JS objects.
  let cppNote = 'plain C++: not built';
  try {
    const exe = compileCpp('pgn', native);
    const file = join(buildDir, `corpus-${games}.pgn`);
    const r = JSON.parse(execFileSync(exe, [file, String(samples), '4'], { encoding: 'utf8' }));
    results.push({ name: 'plain C++ loop, positions (bench/pgn.cc)', impl: 'cpp', ms: r.seconds * 1000, cpuMs: r.cpuSeconds * 1000, samples: [r.seconds * 1000], games, bytes: text.length });
    // The same statistic on both sides of the comparison: medians above, and the best runs here.
    const api = results.find((x) => x.impl === 'native positions');
    const best = api ? `; best runs: pgnPositions ${Math.round(games / (Math.min(...api.samples) / 1000)).toLocaleString('en-US')} games/s, ` : '; best run: ';
    cppNote = `plain C++: median of ${samples} runs, into output arrays kept from one run to the next, as pgnPositions with { reuse } (without it, each call returns new arrays)` +
      `${best}C++ loop ${Math.round(games / r.bestSeconds).toLocaleString('en-US')} games/s (wall clock)`;
  } catch (e) {
    cppNote = `plain C++: not built (${e.message.split('\n')[0]})`;
  }

  // chessops: every main-line move parsed and played (validated).
  const chessops = timeRuns(() => {
    let plies = 0;
    for (const game of chessopsPgn(str)) {
      const pos = startingPosition(game.headers).unwrap();
      for (const node of game.moves.mainline()) {
        const move = chessopsSan(pos, node.san);
        if (!move) break;
        pos.play(move);
        plies++;
      }
    }
    return plies;
  }, Math.max(1, samples >> 1));
  add('chessops: parsePgn + parseSan + play', 'chessops', chessops);

  // chess.js: loadPgn per game, on a slice (it is slow); games split outside the timing.
  const split = str.split(/\n(?=\[Event )/);
  const sliceGames = split.slice(0, quick ? 100 : 400);
  const sliceBytes = Buffer.byteLength(sliceGames.join('\n'));
  let failures = 0;
  const chessjs = timeRuns(() => {
    let plies = 0;
    failures = 0;
    for (const g of sliceGames) {
      const c = new ChessJs();
      try { c.loadPgn(g); plies += c.history().length; } catch { failures++; }
    }
    return plies;
  }, 1);
  add('chess.js: loadPgn', 'chess.js', chessjs, sliceGames.length, sliceBytes);

  const gps = (r) => r.games / (r.ms / 1000);
  const chessopsGps = gps(results.find((r) => r.impl === 'chessops'));
  const cpuGps = (r) => r.games / (r.cpuMs / 1000);
  const chessopsCpuGps = cpuGps(results.find((r) => r.impl === 'chessops'));
  const measurements = results.map((r) => measurement({ fn: 'pgnToPositions', mode: 'single', impl: r.impl, perOp: 'game',
    op: 'one game of the generated corpus, PGN text to validated positions' },
  { samples: r.samples.map((ms) => (ms * 1e6) / r.games), median: (r.ms * 1e6) / r.games, min: (Math.min(...r.samples) * 1e6) / r.games, max: (Math.max(...r.samples) * 1e6) / r.games }));
  return {
    measurements,
    columns: ['reader', 'games/s', 'MB/s', 'x chessops', 'games/s (CPU time)', 'MB/s (CPU time)', 'x chessops (CPU)'],
    rows: results.map((r) => [r.name, Math.round(gps(r)).toLocaleString('en-US'), ((r.bytes / 1e6) / (r.ms / 1000)).toFixed(1), `${(gps(r) / chessopsGps).toFixed(1)}x`,
      Math.round(cpuGps(r)).toLocaleString('en-US'), ((r.bytes / 1e6) / (r.cpuMs / 1000)).toFixed(1), `${(cpuGps(r) / chessopsCpuGps).toFixed(1)}x`]),
    notes: [
      `corpus: ${games} games, ${mb.toFixed(1)} MB (scripts/make-pgn.mjs, seed 2026), medians of ${samples} runs (JS and peers fewer)`,
      `chess.js on the first ${sliceGames.length} games (${failures} refused: it does not read every construct of the corpus)`,
      'positions checked equal to a reference replay and native = JS byte for byte in test/games/pgn.test.ts',
      cppNote,
      'games/s: wall clock (median); games/s (CPU time): the same runs by the process\'s CPU time (the C++ loop: its thread\'s; the process\'s includes the garbage collector\'s threads), which a shared machine inflates less',
    ],
  };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
