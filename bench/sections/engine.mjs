/**
 * The UCI engine pool (bitboard-patterns/engine) against Stockfish driven by hand: positions per
 * second at depth 1 (the engine's own time is trivial, so the pool's own cost shows) of a pool of
 * one engine against a bare loop writing `position fen` / `go depth 1` to one Stockfish process and
 * waiting for `bestmove`, each with the engine set up alike: UCI_ShowWDL off (the pool with
 * `options: { UCI_ShowWDL: false }`), and on (the pool's default, for its `wdl`); two engines against one at a node limit where the search is the cost; the
 * cache on the bench's PGN corpus (every position of its games, the openings repeating), with and
 * without it. Skipped when Stockfish is not installed.
 *
 * Stand-alone: node bench/sections/engine.mjs [--quick]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measurement, pgnCorpus, runStandalone } from '../lib.mjs';

export const title = 'engine: the UCI engine pool against Stockfish by hand (positions/s)';

const STOCKFISH = '/usr/games/stockfish';

/** One Stockfish process driven by hand: handshake, then each FEN searched with `go`, answers awaited. */
async function bareLoop(fens, go, wdl) {
  const child = spawn(STOCKFISH, [], { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.setEncoding('utf8');
  let buffer = '';
  let waiting;
  child.stdout.on('data', (s) => {
    buffer += s;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (waiting && line.startsWith(waiting.prefix)) { const w = waiting; waiting = undefined; w.resolve(); }
    }
  });
  const until = (prefix, text) => new Promise((resolve) => { waiting = { prefix, resolve }; child.stdin.write(text); });
  await until('uciok', 'uci\n');
  await until('readyok', `setoption name Threads value 1\n${wdl ? 'setoption name UCI_ShowWDL value true\n' : ''}isready\n`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const fen of fens) await until('bestmove', `position fen ${fen}\n${go}\n`);
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  child.stdin.end('quit\n');
  return { rate: fens.length / secs, cpuUs: (cpu.user + cpu.system) / fens.length };
}

async function poolRate(EnginePool, positions, limit, engines, cacheSize, options = {}) {
  const pool = await EnginePool.start({ command: STOCKFISH, engines, options: { Threads: 1, ...options }, cacheSize });
  try {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let n = 0;
    for await (const r of pool.analyseAll(positions, limit)) {
      if ('error' in r) throw r.error;
      n++;
    }
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    return { rate: n / secs, cpuUs: (cpu.user + cpu.system) / n, stats: pool.stats };
  } finally {
    await pool.close();
  }
}

export async function run({ js, quick, filter }) {
  if (filter && !filter.test('engine')) return null;
  if (!existsSync(STOCKFISH)) return null;
  const { EnginePool } = await import('bitboard-patterns/engine');
  const corpus = await pgnCorpus(js, 5000);
  const games = js.parsePgn(corpus.subarray(0, quick ? 60_000 : 400_000), { sans: false });
  const positions = [];
  for (const g of games) {
    if (g.error) continue;
    let p = js.parseFen(g.startFen);
    positions.push(p);
    for (const m of g.moves) { p = js.makeMove(p, m); positions.push(p); }
  }
  const sample = positions.filter((_, i) => i % 7 === 0).slice(0, quick ? 300 : 3000);
  const fens = sample.map((p) => js.toFen(p));
  const rows = [];
  const measurements = [];
  const add = (what, rate, cpuUs, note) => {
    rows.push([what, Math.round(rate).toLocaleString('en-US'), cpuUs.toFixed(0), note]);
    measurements.push(measurement({ fn: `engine ${what}`, mode: 'cli', impl: 'stockfish', perOp: 'position', op: what },
      { samples: [1e9 / rate], median: 1e9 / rate, min: 1e9 / rate, max: 1e9 / rate }));
  };
  // Depth 1: the pool (one engine, no cache) against the bare loop, interleaved, the engine set up
  // alike (UCI_ShowWDL off, then on); the best round of each.
  const rounds = quick ? 2 : 4;
  const best = (xs) => xs.reduce((a, x) => (x.rate > a.rate ? x : a));
  for (const wdl of [false, true]) {
    const bare = [];
    const one = [];
    for (let round = 0; round < rounds; round++) {
      bare.push(await bareLoop(fens, 'go depth 1', wdl));
      one.push(await poolRate(EnginePool, sample, { depth: 1 }, 1, 0, wdl ? {} : { UCI_ShowWDL: false }));
    }
    const b = best(bare);
    const p1 = best(one);
    const setup = wdl ? 'UCI_ShowWDL on' : 'UCI_ShowWDL off';
    add(`bare loop, one Stockfish, depth 1, ${setup}`, b.rate, b.cpuUs, `${fens.length} positions; best of ${rounds}`);
    add(`pool of 1, depth 1, no cache, ${setup}${wdl ? ' (the default)' : ''}`, p1.rate, p1.cpuUs, `${(p1.rate / b.rate).toFixed(2)}x the bare loop (goal >= 0.95x)`);
  }
  // Two engines against one where the search costs (a node limit).
  const nodes = quick ? 5000 : 20000;
  const few = sample.slice(0, quick ? 40 : 200);
  const s1 = await poolRate(EnginePool, few, { nodes }, 1, 0);
  const s2 = await poolRate(EnginePool, few, { nodes }, 2, 0);
  add(`pool of 1, ${nodes} nodes`, s1.rate, s1.cpuUs, `${few.length} positions`);
  add(`pool of 2, ${nodes} nodes`, s2.rate, s2.cpuUs, `${(s2.rate / s1.rate).toFixed(2)}x one engine (goal >= 1.8x on two free cores)`);
  // The cache on every position of the corpus's games.
  const all = positions.slice(0, quick ? 2000 : 20000);
  const off = await poolRate(EnginePool, all, { depth: 1 }, 1, 0);
  const on = await poolRate(EnginePool, all, { depth: 1 }, 1, 100000);
  add('corpus, depth 1, no cache', off.rate, off.cpuUs, `${all.length} positions of ${games.length} games`);
  add('corpus, depth 1, cache', on.rate, on.cpuUs, `hit rate ${(100 * on.stats.hitRate).toFixed(1)}%, ${(on.rate / off.rate).toFixed(2)}x without`);
  return {
    columns: ['what', 'positions/s', 'driver CPU µs/position', 'note'],
    rows, measurements,
    notes: ['Stockfish 15.1 (/usr/games/stockfish), Threads=1 per engine; the corpus is the bench\'s generated PGN (random playouts: only the first plies repeat)',
      'driver CPU: user + system time of this Node process per position (the pool\'s own cost, or the bare loop\'s), the engines\' time not counted'],
  };
}

await runStandalone(import.meta.url, title, run);
