/**
 * Perft speed, leaf nodes per second per core, one run, the same positions and depths for every
 * column (a column that needs a program that is not there is skipped with a note):
 *   C++      bench/perft.cc over native/core, compiled here with g++ -O3 (no Node at all); its wall-clock
 *            figure is used here; it also prints nodes per CPU second (cpu_mnps), the figure to
 *            quote when other programs share the cores
 *   native   the addon's bulk-counting perft on one thread; native stats: perftStats (leaf
 *            classification); native N thr: perft on every core, divided by the core count
 *   Stockfish `go perft N` of the `stockfish` binary (PATH, /usr/games, or BENCH_STOCKFISH), timed
 *            from the command to its "Nodes searched" line (single-threaded, bulk counting)
 *   ellxor   ellxor/perft (MIT) from the checkout BENCH_ELLXOR_PERFT points at, built here with
 *            g++ -O3 -march=native (it needs PEXT), run under `taskset -c 0` (one core) and timed
 *            by itself (millisecond resolution)
 *   Gigantua a checkout BENCH_GIGANTUA points at, built here from Gigantua/Gigantua.cpp with
 *            clang++-16 -O3 -flto -march=native (g++ when there is no clang++-16; BENCH_GIGANTUA_CXX
 *            overrides), run under `taskset -c 0` with `FEN DEPTH`, timed by itself (its last line,
 *            microsecond resolution). Its public snapshot has no Movemap.hpp (its lookup tables):
 *            then bench/peers/gigantua-movemap.hpp, our own header computing those tables with
 *            native/core, stands in for it. The build takes minutes (its templates), so it is kept
 *            in bench/.build and redone only when the sources, header or compiler change. A count
 *            that differs from ours drops the column with a note.
 *   wasm     the same C++ compiled to WebAssembly (wasm32, SIMD128), perft through the wasm backend in Node
 *   Chromium the wasm backend in headless Chromium, the example page's own count and timing
 *            (bench/browser-perft.mjs; skipped with a note when there is no Chromium)
 *   JS       the pure-TS backend's perft (int32 halves, bulk counting)
 *   chessops chessops 0.15.1, a perft loop over its public API written here: allDests at every
 *            node, clone + play per move, dests counted at the last ply (bulk counting, like ours)
 *   chess.js chess.js 1.4.0's own public perft() (make/undo over its move list, no bulk counting)
 * Each figure is the median of several timed runs after one warm-up run (chess.js: one timed run);
 * the structured measurements carry every run as ns per leaf node.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess as ChessopsChess } from 'chessops/chess';
import { parseFen as chessopsParseFen } from 'chessops/fen';
import { Chess as ChessJs } from 'chess.js';
import { buildDir, compileCpp, cppFlags, measurement, stats } from '../lib.mjs';
import { startBrowserPerft } from '../browser-perft.mjs';

export const title = 'perft';

const here = dirname(fileURLToPath(import.meta.url));

const POSITIONS = [
  ['initial', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 5],
  ['Kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4],
  ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5],
  ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 4],
  ['position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 4],
  // Chess960 (Shredder-FEN): the chess programming wiki's "Chess960 Perft Results", positions 1 and 3.
  // Stockfish runs them with UCI_Chess960, the C++ driver reads their Shredder-FEN; the peers without
  // Chess960 (ellxor, Gigantua, chess.js) and chessops (its dests list castling twice) are left out
  // of these rows.
  ['Chess960 #1', 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', 5],
  ['Chess960 #3', 'b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9', 5],
  // The standard setup as a Chess960 position (Scharnagl's 518): the initial row's tree under the
  // Chess960 rules, so the two rows give the cost per node of the Chess960 castling path itself.
  ['Chess960 518', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1', 5],
];
const isChess960 = (name) => name.startsWith('Chess960');

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

/** The stockfish binary, or null. */
function findStockfish() {
  const candidates = [process.env.BENCH_STOCKFISH, ...(process.env.PATH ?? '').split(':').map((d) => d && join(d, 'stockfish')),
    '/usr/games/stockfish'];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

/** A running `stockfish`: perft(fen, depth) resolves with [nodes, ns] timed from the command to "Nodes searched". */
async function startStockfish(exe) {
  const child = spawn(exe, [], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  let waiting = null;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    if (waiting && waiting.test.test(buffer)) {
      const { resolve, test } = waiting;
      waiting = null;
      const m = test.exec(buffer);
      buffer = '';
      resolve(m);
    }
  });
  const until = (test, command) => new Promise((resolve) => { waiting = { resolve, test }; child.stdin.write(command); });
  await until(/readyok/, 'uci\nisready\n');
  return {
    async perft(fen, depth, chess960 = false) {
      await until(/readyok/, `setoption name UCI_Chess960 value ${chess960}\nposition fen ${fen}\nisready\n`);
      const t0 = process.hrtime.bigint();
      const m = await until(/Nodes searched: (\d+)/, `go perft ${depth}\n`);
      return [Number(m[1]), Number(process.hrtime.bigint() - t0)];
    },
    stop() { child.stdin.end('quit\n'); },
  };
}

/** Builds ellxor/perft from a checkout (src/unity_build.cc), or throws saying why not. */
export function buildEllxor(dir) {
  const source = join(dir, 'src', 'unity_build.cc');
  if (!existsSync(source)) throw new Error(`${dir} has no src/unity_build.cc`);
  mkdirSync(buildDir, { recursive: true });
  const exe = join(buildDir, 'ellxor-perft');
  execFileSync('g++', ['-std=c++20', '-O3', '-march=native', '-fno-exceptions', '-fno-rtti', source, '-o', exe, '-pthread'],
    { stdio: 'inherit' });
  return exe;
}

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** ellxor/perft on one core: samples of ns per node from its own timing. */
function ellxorRate(exe, fen, depth, nodes, runs) {
  const samples = [];
  for (let i = 0; i < runs + 1; i++) {
    const args = hasTaskset ? ['-c', '0', exe, fen, String(depth)] : [fen, String(depth)];
    const out = execFileSync(hasTaskset ? 'taskset' : exe, args, { encoding: 'utf8' });
    const got = Number(/Result:\s+(\d+)/.exec(out)?.[1]);
    if (got !== nodes) throw new Error(`ellxor/perft: expected ${nodes} nodes, got ${got}`);
    const seconds = Number(/Time taken:\s+([\d.]+)/.exec(out)?.[1]);
    if (i > 0 && seconds > 0) samples.push((seconds * 1e9) / nodes);
  }
  return samples;
}

/**
 * Builds Gigantua from a checkout (Gigantua/Gigantua.cpp), with its own Movemap.hpp when the checkout
 * has one, else with ours (bench/peers/gigantua-movemap.hpp, found as Movemap.hpp through a one-line
 * include in bench/.build). Kept in bench/.build under a hash of sources, header and command.
 */
export function buildGigantua(dir) {
  const srcDir = join(dir, 'Gigantua');
  const source = join(srcDir, 'Gigantua.cpp');
  if (!existsSync(source)) throw new Error(`${dir} has no Gigantua/Gigantua.cpp`);
  const own = existsSync(join(srcDir, 'Movemap.hpp'));
  mkdirSync(buildDir, { recursive: true });
  const include = join(buildDir, 'gigantua-include');
  mkdirSync(include, { recursive: true });
  const header = join(here, '..', 'peers', 'gigantua-movemap.hpp');
  writeFileSync(join(include, 'Movemap.hpp'), `#include "${header}"\n`);
  const clang = spawnSync('clang++-16', ['--version']).status === 0;
  const cxx = process.env.BENCH_GIGANTUA_CXX ?? (clang ? 'clang++-16' : 'g++');
  const flags = ['-std=c++20', '-O3', ...(/clang/.test(cxx) ? ['-flto'] : []), '-march=native'];
  const args = [...flags, '-I', include, source, '-o'];
  const hash = createHash('sha256').update(JSON.stringify([cxx, args]));
  for (const f of ['Gigantua.cpp', 'Chess_Base.hpp', 'Chess_Test.hpp', 'Movegen.hpp', 'Movelist.hpp', 'Movemap.hpp']) {
    if (existsSync(join(srcDir, f))) hash.update(readFileSync(join(srcDir, f)));
  }
  if (!own) for (const f of ['sliders.h', 'king.h', 'knight.h', 'bitboard.h']) hash.update(readFileSync(join(here, '..', '..', 'native', 'core', f)));
  if (!own) hash.update(readFileSync(header));
  const exe = join(buildDir, `gigantua-${hash.digest('hex').slice(0, 12)}`);
  if (!existsSync(exe)) {
    console.error(`perft bench: building Gigantua with ${cxx} (its templates take minutes; kept as ${exe})`);
    execFileSync(cxx, [...args, exe], { stdio: 'inherit' });
  }
  const tables = own ? 'its own Movemap.hpp' : 'our bench/peers/gigantua-movemap.hpp in place of its missing Movemap.hpp';
  return { exe, build: `${cxx} ${flags.join(' ')} and ${tables}` };
}

/** Gigantua on one core: samples of ns per node from its own timing of the last depth; null on a wrong count. */
function gigantuaRate(exe, fen, depth, nodes, runs) {
  const samples = [];
  for (let i = 0; i < runs + 1; i++) {
    const args = hasTaskset ? ['-c', '0', exe, fen, String(depth)] : [fen, String(depth)];
    const out = execFileSync(hasTaskset ? 'taskset' : exe, args, { encoding: 'utf8', input: '\n' });
    const m = new RegExp(`Perft ${depth}: (\\d+) \\d+ms ([\\d.]+) MNodes/s`).exec(out);
    if (!m || Number(m[1]) !== nodes) return { wrong: m ? Number(m[1]) : 'no count' };
    if (i > 0) samples.push(1e3 / Number(m[2]));
  }
  return { samples };
}

const fmt = (x) => (x === null ? 'n/a' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ratio = (a, b) => (a === null || b === null ? 'n/a' : `${(a / b).toFixed(1)}x`);

/**
 * The initial row's tree against the same tree under the Chess960 rules (the 518 row), timed in
 * alternating native runs (A B A B ...) so a drift of the machine's speed falls on both: the median
 * of the pairs' rate ratios (Chess960 / standard), or null without both rows.
 */
function pairedChess960(native, positions, quick) {
  const standard = positions.find(([name]) => name === 'initial');
  const c960 = positions.find(([name]) => name === 'Chess960 518');
  if (!standard || !c960) return null;
  const depth = quick ? 4 : 6;
  const pairs = quick ? 3 : 15;
  const a = native.parseFen(standard[1]);
  const b = native.parseFen(c960[1]);
  const time = (pos) => {
    const t0 = process.hrtime.bigint();
    const nodes = native.perft(pos, depth, { threads: 1 });
    return [nodes, Number(process.hrtime.bigint() - t0)];
  };
  time(a);
  time(b);
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    const [na, ta] = time(a);
    const [nb, tb] = time(b);
    if (na !== nb) throw new Error(`perft bench: the 518 tree has ${nb} nodes, the initial tree ${na}`);
    ratios.push(ta / tb);
  }
  ratios.sort((x, y) => x - y);
  return { depth, pairs, ratio: ratios[pairs >> 1] };
}

export async function run({ js, native, wasm, quick, filter }) {
  if (filter && !filter.test('perft')) return null;
  const runs = quick ? 1 : 3;
  const minMs = quick ? 50 : 1000;
  const notes = [];
  let cpp = null;
  try {
    cpp = buildCpp(native);
    if (cpp) notes.push(`C++: bench/perft.cc compiled with g++ ${cpp.flags}.`);
  } catch (e) {
    notes.push(`C++ column skipped: ${e.message}`);
  }
  const cores = Math.min(256, availableParallelism());
  let stockfish = null;
  const stockfishExe = findStockfish();
  if (stockfishExe) {
    stockfish = await startStockfish(stockfishExe);
    notes.push(`Stockfish: ${stockfishExe} \`go perft\`, one thread, timed from the command to "Nodes searched".`);
  } else {
    notes.push('Stockfish column skipped: no `stockfish` binary (PATH, /usr/games, BENCH_STOCKFISH); Debian package `stockfish`.');
  }
  const oneCore = hasTaskset ? 'run under taskset -c 0 (one core).' : 'no taskset: its figure is for all cores, divided by the core count.';
  /** A peer built from the checkout an environment variable points at, or null with a note saying why. */
  const peer = (label, variable, url, build, describe) => {
    const dir = process.env[variable];
    if (!dir) {
      notes.push(`${label} column skipped: set ${variable} to a checkout of ${url}.`);
      return null;
    }
    try {
      const built = build(dir);
      notes.push(`${label}: ${dir} built with ${describe(built)}; ${oneCore}`);
      return built;
    } catch (e) {
      notes.push(`${label} column skipped: ${e.message}`);
      return null;
    }
  };
  const ellxor = peer('ellxor/perft', 'BENCH_ELLXOR_PERFT', 'https://github.com/ellxor/perft', buildEllxor, () => 'g++ -O3 -march=native');
  let gigantua = peer('Gigantua', 'BENCH_GIGANTUA', 'https://github.com/Gigantua/Gigantua', buildGigantua, (g) => g.build);
  const chromium = wasm ? await startBrowserPerft() : 'no wasm backend';
  if (typeof chromium === 'string') notes.push(`Chromium column skipped: ${chromium}.`);
  else notes.push(`Chromium: ${chromium.version}, headless, the wasm backend on the example page (examples/browser/).`);
  if (!wasm) notes.push('wasm column skipped: the WebAssembly module is not built (npm run build:wasm).');
  const rows = [];
  const perStockfish = new Map(); // row name -> native rate / Stockfish's rate on the same tree
  const measurements = [];
  let gigantuaWrong = false;
  // A filter naming rows (e.g. 'perft|initial|Chess960') keeps those rows; one naming none keeps all.
  const rowFilter = filter && POSITIONS.some(([n]) => filter.test(n)) ? filter : null;
  for (const [name, fen, fullDepth] of POSITIONS) {
    if (rowFilter && !rowFilter.test(name)) continue;
    // --quick (CI's smoke run of the harness) goes three plies less: the JS rows dominate its time.
    const depth = quick ? Math.min(fullDepth, Math.max(3, fullDepth - 3)) : fullDepth;
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
    let threadsRate = null;
    if (native) {
      const nPos = native.parseFen(fen);
      nativeRate = rec('perft', 'single', 'native', 'native, single call', rate(() => native.perft(nPos, depth, { threads: 1 }), nodes, runs, minMs));
      statsRate = rec('perftStats', 'single', 'native', null, rate(() => native.perftStats(nPos, depth, { threads: 1 }).nodes, nodes, runs, minMs));
      // All cores: ns per node times the core count, so the figure is per core like the others.
      const all = rate(() => native.perft(nPos, depth, { threads: cores }), nodes, runs, minMs).map((x) => x * cores);
      threadsRate = rec('perft', 'threads', 'native', `native, ${cores} threads (per core)`, all);
    }
    let stockfishRate = null;
    if (stockfish) {
      const samples = [];
      for (let i = 0; i < runs + 1; i++) {
        const [got, ns] = await stockfish.perft(fen, depth, isChess960(name));
        if (got !== nodes) throw new Error(`stockfish: expected ${nodes} nodes, got ${got}`);
        if (i > 0) samples.push(ns / nodes);
      }
      stockfishRate = rec('perft', 'peer', 'stockfish', 'Stockfish go perft', samples);
    }
    const c960 = isChess960(name);
    const ellxorMnps = ellxor && !c960 ? rec('perft', 'peer', 'ellxor', 'ellxor/perft', ellxorRate(ellxor, fen, depth, nodes, runs)) : null;
    let gigantuaMnps = null;
    if (gigantua && !c960) {
      const g = gigantuaRate(gigantua.exe, fen, depth, nodes, runs);
      if (g.wrong !== undefined) {
        notes.push(`Gigantua counted ${g.wrong} on ${name} d${depth}, not ${nodes}: its column is dropped.`);
        gigantua = null;
        gigantuaWrong = true;
        for (const row of rows) row[8] = 'wrong';
      } else gigantuaMnps = rec('perft', 'peer', 'gigantua', 'Gigantua', g.samples);
    }
    const copsPos = c960 ? null : ChessopsChess.fromSetup(chessopsParseFen(fen).unwrap()).unwrap();
    const copsRate = c960 ? null : rec('perft', 'peer', 'chessops', 'chessops', rate(() => chessopsPerft(copsPos, depth), nodes, runs, minMs));
    const chessJs = c960 ? null : new ChessJs(fen);
    const chessJsRate = c960 ? null : rec('perft', 'peer', 'chess.js', 'chess.js', rate(() => chessJs.perft(depth), nodes, 1, 0));
    const cppMnps = cpp ? rec('perft', 'cpp', 'cpp', 'plain C++ loop (per element)', cppRate(cpp, fen, depth, runs)) : null;
    let wasmRate = null;
    let chromiumRate = null;
    if (wasm) {
      const wPos = wasm.parseFen(fen);
      wasmRate = rec('perft', 'single', 'wasm', 'wasm (Node)', rate(() => wasm.perft(wPos, depth), nodes, runs, minMs));
      if (typeof chromium !== 'string') chromiumRate = rec('perft', 'browser', 'wasm-chromium', 'wasm (Chromium)', await chromium.rate(fen, depth, nodes, runs));
    }
    if (nativeRate && stockfishRate) perStockfish.set(name, nativeRate / stockfishRate);
    rows.push([`${name} d${depth}`, nodes.toLocaleString('en'), fmt(cppMnps), fmt(nativeRate), fmt(threadsRate), fmt(statsRate), fmt(stockfishRate),
      fmt(ellxorMnps), gigantuaWrong ? 'wrong' : fmt(gigantuaMnps), fmt(jsRate), fmt(copsRate), fmt(chessJsRate), ratio(jsRate, copsRate), ratio(jsRate, chessJsRate),
      ratio(nativeRate, jsRate), ratio(nativeRate, stockfishRate), fmt(wasmRate), fmt(chromiumRate), ratio(wasmRate, nativeRate), ratio(wasmRate, jsRate)]);
  }
  stockfish?.stop();
  if (typeof chromium !== 'string') await chromium.stop();
  notes.push('M nodes/s per core, median of the timed runs after a warm-up; every column counts the same leaf nodes (checked).');
  const rateOf = (label) => rows.find((r) => r[0].startsWith(label))?.[3];
  if (native && rateOf('Chess960') && rateOf('initial')) {
    const c960 = rows.filter((r) => r[0].startsWith('Chess960')).map((r) => `${r[0]} ${r[3]}`);
    notes.push(`Chess960 rows: native perft ${c960.join(', ')} M nodes/s against ${rateOf('initial')} on the initial position (the target: within 10%; `
      + 'the 518 row is the initial tree under the Chess960 rules, the other rows other trees).');
  }
  const pair = native && rateOf('initial') && rateOf('Chess960 518') ? pairedChess960(native, POSITIONS, quick) : null;
  if (pair) {
    notes.push(`Chess960 518 against initial, the same tree, ${pair.pairs} alternating native runs at depth ${pair.depth} (one thread): `
      + `the Chess960 rules run at ${pair.ratio.toFixed(2)} of the standard rate (median of the pairs' ratios; the target: 0.90 or more).`);
  }
  if (perStockfish.has('initial') && [...perStockfish.keys()].some(isChess960)) {
    // Each tree's own shape divided out: native/Stockfish on a Chess960 row against the initial row's.
    const rel = [...perStockfish].filter(([n]) => isChess960(n)).map(([n, r]) => `${n} ${(r / perStockfish.get('initial')).toFixed(2)}`);
    notes.push(`Chess960 rows against Stockfish on the same trees: native/Stockfish relative to the initial row's: ${rel.join(', ')}.`);
  }
  notes.push('chessops: our loop over its public API (allDests, clone, play), bulk-counted at the last ply; chess.js: its own perft().');
  if (!native) notes.push('native backend not loaded: native columns n/a.');
  return {
    columns: ['position', 'nodes', 'C++', 'native', `native ${cores} thr/core`, 'native stats', 'Stockfish', 'ellxor', 'Gigantua', 'JS', 'chessops',
      'chess.js', 'JS/chessops', 'JS/chess.js', 'native/JS', 'native/Stockfish', 'wasm', 'Chromium wasm', 'wasm/native', 'wasm/JS'],
    rows,
    notes,
    measurements,
  };
}
