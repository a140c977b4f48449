/**
 * PGN trees and opening names, one core, next to the reader's rows:
 *  - parsePgn with { variations: true } against the main-line path on a corpus without variations
 *    (the reader section's games, scripts/make-pgn.mjs seed 2026, written again by writePgn: main
 *    line, comments, NAGs, clocks and evals), as a ratio (target: at least 0.8x); a game without
 *    variations gets its tree on first read, so a second row reads every tree too;
 *  - parsePgn { variations: true } on the same games with generated variations (a legal side line of
 *    2 to 6 moves on about one move in eight, some nested, comments and NAGs on some moves), and on
 *    the reader section's corpus itself (its generator writes variations too), in games/s (target:
 *    at least 50,000 per core);
 *  - the positions path (pgnPositions, every ply) with and without the opening name of every
 *    position (openingsOfBatch), as a ratio (target: at most 1.1x), and openingOf per game.
 * Native and JS readers; the tree builder and the opening table are TypeScript on both.
 */
import { buildDir, measurement, pgnCorpus, runStandalone, timeRuns } from '../lib.mjs';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const title = 'PGN trees and openings, one core (games/s)';

/** The corpus's games again with generated variations (seeded; written by writePgn from trees). */
function withVariations(api, text, seed) {
  let s = seed;
  const rnd = (n) => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s % n;
  };
  const node = (san, uci) => ({ san, uci, nags: [], comment: '', startingComment: '', clock: null, eval: null, arrows: [], squares: [], children: [] });
  const sideLine = (pos, length, depth) => {
    const moves = api.legalMoves(pos);
    if (moves.length === 0 || length === 0) return null;
    const uci = moves[rnd(moves.length)];
    const n = node(api.toSan(pos, uci), uci);
    if (rnd(6) === 0) n.comment = 'an idea';
    const next = api.makeMove(pos, uci);
    const rest = sideLine(next, length - 1, depth);
    if (rest) n.children.push(rest);
    if (rest && depth < 2 && rnd(5) === 0) {
      const inner = sideLine(next, 2 + rnd(3), depth + 1);
      if (inner && inner.uci !== rest.uci) n.children.push(inner);
    }
    return n;
  };
  const games = api.parsePgn(text).filter((g) => !g.error);
  for (const g of games) {
    const root = { comment: '', children: [] };
    let parent = root;
    let pos = api.parseFen(g.startFen);
    g.moves.forEach((m, i) => {
      const n = node(g.sans[i], m);
      if (rnd(10) === 0) n.nags.push(1 + rnd(6));
      parent.children.push(n);
      if (rnd(8) === 0) {
        const alt = sideLine(pos, 2 + rnd(5), 0);
        if (alt && alt.uci !== m) parent.children.push(alt);
      }
      pos = api.makeMove(pos, m);
      parent = n;
    });
    g.tree = root;
  }
  return Buffer.from(api.writePgn(games));
}

async function variationCorpus(api, text, games) {
  mkdirSync(buildDir, { recursive: true });
  const file = join(buildDir, `corpus-${games}-variations.pgn`);
  if (existsSync(file)) return readFileSync(file);
  const out = withVariations(api, text, 47);
  writeFileSync(file, out);
  return out;
}

export async function run({ js, native, quick, filter }) {
  if (filter && !/pgn|tree|variation|opening/i.test(filter.source)) return null;
  const api = native ?? js;
  const games = quick ? 500 : 5000;
  const corpus = await pgnCorpus(api, games);
  const text = Buffer.from(api.writePgn(api.parsePgn(corpus, { comments: true, annotations: true }).filter((g) => !g.error)));
  const varied = await variationCorpus(api, text, games);
  const samples = quick ? 3 : 7;
  const results = [];
  const add = (name, impl, r, n) => results.push({ name, impl, ...r, games: n ?? games });
  const backends = native ? ['native', 'js'] : ['js'];
  const nodes = api.parsePgn(varied, { variations: true }).reduce((n, g) => {
    const count = (xs) => xs.reduce((k, x) => k + 1 + count(x.children), 0);
    return n + count(g.tree.children);
  }, 0);
  for (const b of backends) {
    const n = b === 'native' ? samples : Math.max(1, samples >> 1);
    add(`${b} reader: parsePgn (main line)`, `${b} parsePgn`, timeRuns(() => api.parsePgn(text, { backend: b }).length, n));
    add(`${b} reader: parsePgn { variations: true }, no variations in the text`, `${b} parsePgn variations`,
      timeRuns(() => api.parsePgn(text, { backend: b, variations: true }).length, n));
    // The trees of games without variations are made when first read: this row reads every one.
    add(`${b} reader: parsePgn { variations: true }, no variations in the text, every tree read`, `${b} parsePgn variations walked`,
      timeRuns(() => api.parsePgn(text, { backend: b, variations: true }).reduce((k, g) => k + g.tree.children.length, 0), n));
    add(`${b} reader: parsePgn (main line), text with variations`, `${b} parsePgn varied`, timeRuns(() => api.parsePgn(varied, { backend: b }).length, n));
    add(`${b} reader: parsePgn { variations: true }, text with variations`, `${b} parsePgn variations varied`,
      timeRuns(() => api.parsePgn(varied, { backend: b, variations: true }).length, n));
    add(`${b} reader: parsePgn { variations: true }, the reader section's corpus`, `${b} parsePgn variations corpus`,
      timeRuns(() => api.parsePgn(corpus, { backend: b, variations: true }).length, n));
    add(`${b} reader: pgnPositions (all plies)`, `${b} positions`, timeRuns(() => api.pgnPositions(text, { backend: b }).batch.length, n));
    add(`${b} reader: pgnPositions + openingsOfBatch`, `${b} positions openings`,
      timeRuns(() => api.openingsOfBatch(api.pgnPositions(text, { backend: b }).batch).length, n));
  }
  const parsed = api.parsePgn(text).filter((g) => !g.error);
  add('openingOf per game (replay + table)', 'openingOf', timeRuns(() => parsed.reduce((k, g) => k + (api.openingOf(g) ? 1 : 0), 0), samples), parsed.length);

  const gps = (r) => r.games / (r.ms / 1000);
  const cpuGps = (r) => r.games / (r.cpuMs / 1000);
  const byImpl = Object.fromEntries(results.map((r) => [r.impl, r]));
  const ratio = (a, b) => (byImpl[b].cpuMs / byImpl[a].cpuMs);
  const target = (r) => {
    const b = r.impl.split(' ')[0];
    if (r.impl === `${b} parsePgn variations`) return [`>= 0.8x main line`, `${ratio(`${b} parsePgn variations`, `${b} parsePgn`).toFixed(2)}x`];
    if (r.impl === `${b} parsePgn variations walked`) return ['(the same, trees read)', `${ratio(`${b} parsePgn variations walked`, `${b} parsePgn`).toFixed(2)}x`];
    if (r.impl === `${b} parsePgn variations varied` || r.impl === `${b} parsePgn variations corpus`) return ['50,000 games/s', `${(cpuGps(r) / 50000).toFixed(2)}x`];
    if (r.impl === `${b} positions openings`) return ['<= 1.1x positions', `${(1 / ratio(`${b} positions openings`, `${b} positions`)).toFixed(2)}x`];
    return ['-', '-'];
  };
  const measurements = results.map((r) => measurement({ fn: 'pgnTrees', mode: 'single', impl: r.impl, perOp: 'game',
    op: 'one game of the generated corpus' },
  { samples: r.samples.map((ms) => (ms * 1e6) / r.games), median: (r.ms * 1e6) / r.games, min: (Math.min(...r.samples) * 1e6) / r.games, max: (Math.max(...r.samples) * 1e6) / r.games }));
  return {
    measurements,
    columns: ['path', 'games/s', 'games/s (CPU time)', 'target', 'measured (CPU)'],
    rows: results.map((r) => [r.name, Math.round(gps(r)).toLocaleString('en-US'), Math.round(cpuGps(r)).toLocaleString('en-US'), ...target(r)]),
    notes: [
      `corpus: ${games} games, ${(text.length / 1e6).toFixed(1)} MB (scripts/make-pgn.mjs, seed 2026); with variations ${(varied.length / 1e6).toFixed(1)} MB, ${nodes.toLocaleString('en-US')} nodes; medians of ${samples} runs (JS fewer)`,
      'ratios are CPU time of the path over CPU time of its comparison row, in one run',
    ],
  };
}

// Stand-alone: node bench/sections/<name>.mjs [--quick]
await runStandalone(import.meta.url, title, run);
