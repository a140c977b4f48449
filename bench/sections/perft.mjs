/**
 * Perft speed, leaf nodes per second, one run, the same positions and depths for every column:
 *   C++      bench/perft.cc over native/core, compiled here with g++ -O3 (no Node at all)
 *   native   the addon's bulk-counting perft; native stats: perftStats (leaf classification)
 *   JS       the pure-TS backend's perft (int32 halves, bulk counting)
 *   chessops chessops 0.15.1, a perft loop over its public API written here: allDests at every
 *            node, clone + play per move, dests counted at the last ply (bulk counting, like ours)
 *   chess.js chess.js 1.4.0's own public perft() (make/undo over its move list, no bulk counting)
 * Each figure is the median of several timed runs after one warm-up run (chess.js: one timed run);
 * the structured measurements carry every run as ns per leaf node.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess as ChessopsChess } from 'chessops/chess';
import { parseFen as chessopsParseFen } from 'chessops/fen';
import { Chess as ChessJs } from 'chess.js';
import { compileCpp, cppFlags, measurement, stats } from '../lib.mjs';

export const title = 'perft';

const here = dirname(fileURLToPath(import.meta.url));

const POSITIONS = [
  ['initial', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 5],
  ['Kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4],
  ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5],
  ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 4],
  ['position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 4],
];

const PROMOTION_ROLES = ['queen', 'rook', 'bishop', 'knight'];

/** Perft over chessops' public API (bulk counting at the last ply). */
function chessopsPerft(pos, depth) {
  if (depth === 0) return 1;
  const ctx = pos.ctx();
  let nodes = 0;
  for (const [from, dests] of pos.allDests(ctx)) {
    const pawn = pos.board.pawn.has(from);
    if (depth === 1) {
      nodes += dests.size();
      if (pawn) for (const to of dests) if (to < 8 || to >= 56) nodes += 3;
      continue;
    }
    for (const to of dests) {
      const roles = pawn && (to < 8 || to >= 56) ? PROMOTION_ROLES : [undefined];
      for (const promotion of roles) {
        const child = pos.clone();
        child.play({ from, to, promotion });
        nodes += chessopsPerft(child, depth - 1);
      }
    }
  }
  return nodes;
}

/**
 * Timed runs after one checked warm-up: at least `runs` runs and, for small trees, more until `minMs`
 * have passed (a tree of a few thousand nodes is over before the JIT settles). Returns the samples
 * in ns per leaf node.
 */
function rate(f, nodes, runs, minMs) {
  const warm = f();
  if (warm !== nodes) throw new Error(`perft bench: expected ${nodes} nodes, got ${warm}`);
  const samples = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs || Number(process.hrtime.bigint() - start) < minMs * 1e6; i++) {
    const t0 = process.hrtime.bigint();
    f();
    samples.push(Number(process.hrtime.bigint() - t0) / nodes);
  }
  return samples;
}

function buildCpp(native) {
  if (!existsSync(join(here, '..', 'perft.cc'))) return null;
  const exe = compileCpp('perft', native);
  return { exe, flags: cppFlags(native).filter((f) => /^-[Om]|^-std/.test(f)).join(' ') };
}

function cppRate(cpp, fen, depth, runs) {
  const samples = [];
  for (let i = 0; i < runs + 1; i++) {
    const out = execFileSync(cpp.exe, [String(depth), fen], { encoding: 'utf8' });
    const m = /mnps=([\d.]+)/.exec(out);
    if (m && i > 0) samples.push(1e3 / Number(m[1])); // the first run is the warm-up
  }
  return samples;
}

const fmt = (x) => (x === null ? 'n/a' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ratio = (a, b) => (a === null || b === null ? 'n/a' : `${(a / b).toFixed(1)}x`);

export async function run({ js, native, quick, filter }) {
  if (filter && !filter.test('perft')) return null;
  const runs = quick ? 1 : 3;
  const minMs = quick ? 200 : 1000;
  const notes = [];
  let cpp = null;
  try {
    cpp = buildCpp(native);
    if (cpp) notes.push(`C++: bench/perft.cc compiled with g++ ${cpp.flags}.`);
  } catch (e) {
    notes.push(`C++ column skipped: ${e.message}`);
  }
  const rows = [];
  const measurements = [];
  for (const [name, fen, fullDepth] of POSITIONS) {
    const depth = quick ? fullDepth - 1 : fullDepth;
    const group = `perft ${name} d${depth} (per leaf node)`;
    /** Records the samples (ns per node) and returns M nodes/s of their median. */
    const rec = (fn, mode, impl, series, samples) => {
      if (!samples?.length) return null;
      const st = stats(samples);
      measurements.push(measurement({ fn, mode, impl, op: `${fn}(${name}, depth ${depth}): ${nodes} leaf nodes, per node`,
        batchSize: 1, perOp: 'node', chart: series && { group, series } }, { samples, ...st }));
      return 1e3 / st.median;
    };
    const jsPos = js.parseFen(fen);
    const nodes = js.perft(jsPos, depth);
    const jsRate = rec('perft', 'single', 'js', 'JS', rate(() => js.perft(jsPos, depth), nodes, runs, minMs));
    let nativeRate = null;
    let statsRate = null;
    if (native) {
      const nPos = native.parseFen(fen);
      nativeRate = rec('perft', 'single', 'native', 'native, single call', rate(() => native.perft(nPos, depth), nodes, runs, minMs));
      statsRate = rec('perftStats', 'single', 'native', null, rate(() => native.perftStats(nPos, depth).nodes, nodes, runs, minMs));
    }
    const setup = chessopsParseFen(fen).unwrap();
    const copsPos = ChessopsChess.fromSetup(setup).unwrap();
    const copsRate = rec('perft', 'peer', 'chessops', 'chessops', rate(() => chessopsPerft(copsPos, depth), nodes, runs, minMs));
    const chessJs = new ChessJs(fen);
    const chessJsRate = rec('perft', 'peer', 'chess.js', 'chess.js', rate(() => chessJs.perft(depth), nodes, 1, 0));
    const cppMnps = cpp ? rec('perft', 'cpp', 'cpp', 'plain C++ loop (per element)', cppRate(cpp, fen, depth, runs)) : null;
    rows.push([`${name} d${depth}`, nodes, fmt(cppMnps), fmt(nativeRate), fmt(statsRate), fmt(jsRate), fmt(copsRate), fmt(chessJsRate),
      ratio(jsRate, copsRate), ratio(jsRate, chessJsRate), ratio(nativeRate, jsRate)]);
  }
  notes.push('M nodes/s, median of the timed runs after a warm-up; every column counts the same leaf nodes (checked).');
  notes.push('chessops: our loop over its public API (allDests, clone, play), bulk-counted at the last ply; chess.js: its own perft().');
  if (!native) notes.push('native backend not loaded: native columns n/a.');
  return {
    columns: ['position', 'nodes', 'C++', 'native', 'native stats', 'JS', 'chessops', 'chess.js', 'JS/chessops', 'JS/chess.js', 'native/JS'],
    rows,
    notes,
    measurements,
  };
}
