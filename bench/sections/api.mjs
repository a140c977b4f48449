/**
 * Every public function, one call at a time and (for the batch forms) over a typed array: the JS
 * backend, the native backend, the WebAssembly backend and the default facade (`bitboard-patterns`,
 * routed per function).
 * The cases follow from the declarations (lib/api/declarations.ts). The section checks the facade
 * against the faster backend (goal: facade / faster <= 1.1x) and lists the misses.
 *
 * Each (function, implementation) pair gets its own loop compiled with `new Function`, so V8's type
 * feedback is never shared between backends (a shared call site would go polymorphic and slow every
 * backend down). Inputs cycle through 4096 precomputed argument tuples; results are compared with a
 * sentinel so they stay alive. Batch forms get caller-allocated outputs and a fixed batch size.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, makeRandom, measurement, ratio, sample, sampleAsync, sampleInterleaved } from '../lib.mjs';

export const title = 'Every public function: JS vs native vs facade (ns per call; batch forms: ns per element)';

const M = 4096; // argument tuples per single-call case (a power of two: index i & (M - 1))
const SENTINEL = Symbol('sentinel');

/** A loop calling f with `arity` arguments from column arrays; fresh code (own type feedback) each time. */
function compileLoop(arity) {
  const cols = Array.from({ length: arity }, (_, k) => `c${k}`);
  // eslint-disable-next-line no-new-func
  return new Function('f', 'sentinel', 'cols', 'm', `const [${cols.join(', ')}] = cols;
    return (n) => { let s = 0; for (let i = 0; i < n; i++) { const j = i & m; if (f(${cols.map((c) => `${c}[j]`).join(', ')}) === sentinel) s++; } return s; };`);
}

/** Positions of examples/positions.epd (both sides to move occur), as FEN strings. */
function sampleFens(count) {
  const lines = readFileSync(join(benchDir, '..', 'examples', 'positions.epd'), 'utf8').trim().split('\n');
  const step = Math.max(1, Math.floor(lines.length / count));
  const out = [];
  for (let i = 0; out.length < count && i < lines.length; i += step) {
    const [pl, side, castling, ep] = lines[i].split(' ');
    out.push(`${pl} ${side} ${castling} ${ep} 0 1`);
  }
  return out;
}

/** Random legal KBNK positions (white K B N vs black k, either side to move), as FENs. */
function kbnkFens(js, count, rand) {
  const out = [];
  while (out.length < count) {
    const squares = new Set();
    while (squares.size < 4) squares.add(Number(rand() & 63n));
    const [K, B, N, k] = [...squares];
    const board = new Array(64).fill('');
    board[K] = 'K'; board[B] = 'B'; board[N] = 'N'; board[k] = 'k';
    const ranks = [];
    for (let r = 7; r >= 0; r--) {
      let row = '', empty = 0;
      for (let f = 0; f < 8; f++) { const p = board[r * 8 + f]; if (!p) empty++; else { row += (empty || '') + p; empty = 0; } }
      ranks.push(row + (empty || ''));
    }
    const fen = `${ranks.join('/')} ${out.length & 1 ? 'b' : 'w'} - - 0 1`;
    try { js.kbnkEval(js.parseFen(fen)); out.push(fen); } catch { /* illegal (kings adjacent, side not to move in check) */ }
  }
  return out;
}

/** The cases: [name, what one op is, columns of arguments (M each) | { batch, args }]. */
function buildCases(js, quick) {
  const rand = makeRandom(0xbe7c4n);
  const col = (f) => Array.from({ length: M }, (_, i) => f(i));
  const sq = col(() => Number(rand() & 63n));
  const sq2 = col(() => Number(rand() & 63n));
  const set = () => rand() & rand(); // ~25% density: piece-set-like
  const [a, b, c, d, e] = [0, 1, 2, 3, 4].map(() => col(set));
  const path = col((i) => rand() | rand() | (1n << BigInt(sq[i])) | (1n << BigInt(sq2[i]))); // ~75%
  const occ = col((i) => set() | (1n << BigInt(sq[i])));
  const color = col(() => Number(rand() & 1n));
  const color2 = col(() => Number(rand() & 1n));
  const dir = col(() => Number(rand() & 7n));
  const bit = (s) => 1n << BigInt(s);

  const P = 512;
  const fens = sampleFens(P);
  const positions = fens.map((f) => js.parseFen(f));
  const pos = col((i) => positions[i % P]);
  const posSq = col((i) => sq[i]);
  const moves = positions.map((p) => js.legalMoves(p));
  const withMoves = positions.map((p, i) => [p, moves[i]]).filter(([, m]) => m.length > 0);
  const movePos = col((i) => withMoves[i % withMoves.length][0]);
  const move = col((i) => { const ms = withMoves[i % withMoves.length][1]; return ms[(i * 7) % ms.length]; });
  const inits = col((i) => { const p = positions[i % P]; return { colors: [...p.colors], pieces: [...p.pieces], sideToMove: p.sideToMove, castling: p.castling, epSquare: p.epSquare, halfmoveClock: p.halfmoveClock, fullmoveNumber: p.fullmoveNumber }; });
  const kbnk = kbnkFens(js, 256, rand).map((f) => js.parseFen(f));
  const kbnkPos = col((i) => kbnk[i % kbnk.length]);
  const fenCol = col((i) => fens[i % P]);

  const B = quick ? 1024 : 4096; // batch size
  const u8 = (xs) => Uint8Array.from(xs.slice(0, B));
  const u64 = (xs) => BigUint64Array.from(xs.slice(0, B));
  const PB = 256; // positions per position-batch call
  const packed = js.packPositions(positions.slice(0, PB));
  const packed64 = js.packPositions(positions.slice(0, 64));
  const moveOut = new Uint16Array(256);

  const single = (name, op, ...cols) => ({ name, mode: 'single', op, cols });
  const batch = (name, op, size, ...args) => ({ name, mode: 'batch', op, batchSize: size, cols: args.map((x) => [x]) });
  const OUT = { u64: BigUint64Array, u8: Uint8Array, i8: Int8Array, f64: Float64Array };
  const NOTE = { occupied: 'occupied', path: '~75% dense path', empty: 'empty squares' };

  // Every declared function (lib/api/declarations.ts), its arguments drawn by kind: a single-call case
  // cycles M argument tuples, a batch case passes B elements (PB / 64 positions) and a caller's out.
  const cases = [];
  for (const [name, decl] of Object.entries(js.DECLARATIONS)) {
    // Promise-returning functions (perftAsync, perftStatsAsync): the timing loop cannot await them.
    if (decl.async) continue;
    const isBatch = decl.out !== undefined || decl.args.some(([, k]) => ['squares', 'sets', 'paths', 'positions', 'positionList'].includes(k));
    if (!isBatch) {
      let squares = 0, colors = 0, sets = 0;
      const usesMove = decl.args.some(([, k]) => k === 'uci');
      const cols = [];
      for (const [arg, kind] of decl.args) {
        if (kind === 'square') cols.push([sq, sq2, a.map((x) => Number(x & 63n)), b.map((x) => Number(x & 63n))][squares++]);
        else if (kind === 'color' || kind === 'optColor') cols.push([color, color2][colors++]);
        else if (kind === 'squareOrSet') cols.push([sq, sq2][squares++].map(bit));
        else if (kind === 'bitboard') cols.push(arg === 'occupied' ? occ : arg === 'path' ? path : arg === 'empty' ? a.map((x) => ~x & 0xffffffffffffffffn) : [a, b, c, d, e][sets++]);
        else if (kind === 'path') cols.push(path);
        else if (kind === 'direction') cols.push(dir);
        else if (kind === 'depth' || kind === 'divideDepth') cols.push(col(() => 2));
        else if (kind === 'position') cols.push(usesMove ? movePos : pos);
        else if (kind === 'kbnkPosition') cols.push(kbnkPos);
        else if (kind === 'uci') cols.push(move);
        else if (kind === 'fen') cols.push(fenCol);
        else if (kind === 'init') cols.push(inits);
        else if (kind === 'moveBuffer') cols.push(col(() => moveOut));
        else if (kind === 'centipawns') cols.push(col(() => 0));
        else if (kind === 'optBitboard' || kind === 'perftOptions' || kind === 'fenOptions' || kind === 'toFenOptions') break; // left out: its default
        else throw new Error(`api bench: no single-call column for ${name}'s ${kind}`);
      }
      const shown = decl.args.slice(0, cols.length).map(([arg]) => arg + (NOTE[arg] ? ` (${NOTE[arg]})` : '')).join(', ');
      cases.push(single(name, `${name}(${shown})`, ...cols));
      continue;
    }
    const positionsArg = decl.args.find(([, k]) => k === 'positions');
    const size = positionsArg ? (name === 'perftBatch' ? 64 : PB) : decl.args.some(([, k]) => k === 'positionList') ? PB : B;
    let squares = 0, sets = 0, colors = 0;
    const args = [];
    for (const [arg, kind] of decl.args) {
      if (kind === 'squares') args.push(u8([sq, sq2][squares++]));
      else if (kind === 'sets') args.push(u64(arg === 'occupied' ? occ : arg === 'path' ? path : [a, b, c, d, e][sets++]));
      else if (kind === 'paths') args.push(u64(path));
      else if (kind === 'color') args.push(colors++ === 0 ? 1 : 0);
      else if (kind === 'batchColor' || kind === 'optBatchColor') args.push(2);
      else if (kind === 'positions') args.push(size === 64 ? packed64 : packed);
      else if (kind === 'depth') args.push(2);
      else if (kind === 'positionList') args.push(positions.slice(0, PB));
      else throw new Error(`api bench: no batch column for ${name}'s ${kind}`);
    }
    if (decl.out) args.push(new OUT[decl.out](size * (decl.outWidth ?? 1)));
    cases.push(batch(name, `${name}(${decl.args.map(([arg]) => arg).join(', ')}${decl.out ? ', out' : ''}) per ${positionsArg ? 'position' : 'element'}`, size, ...args));
  }
  // The batch API: a PositionBatch of BA positions (examples/positions.epd order).
  const BA = quick ? 1024 : 4096;
  const words = new BigUint64Array(BA * 10);
  for (let at = 0; at < words.length; at += packed.length) words.set(packed.subarray(0, Math.min(packed.length, words.length - at)), at);
  const batchFens = Array.from({ length: BA }, (_, i) => fens[i % P]);
  return { cases, batchApi: { words, BA, batchFens, positions: positions.slice(0, 256) } };
}

/** The KBNK squares of a KBNK position with white strong (kbnkFens makes only those). */
function kbnkSquares(api, p) {
  const lsb = (bb) => api.squaresOf(bb)[0];
  const white = p.colors[0];
  return { strongToMove: p.sideToMove === 0, strongKing: lsb(p.pieces[5] & white), bishop: lsb(p.pieces[2]),
    knight: lsb(p.pieces[1]), weakKing: lsb(p.pieces[5] & p.colors[1]) };
}

/** Looks up `variants.x` / `x` on an API. */
const lookup = (api, name) => name.split('.').reduce((o, k) => o?.[k], api);

export async function run({ js, native, wasm, facade, quick, filter, impl: only }) {
  const SAMPLES = quick ? 5 : 15;
  const opts = { samples: SAMPLES, sampleMs: quick ? 1.5 : 4, warmupMs: quick ? 8 : 40 };
  const { cases, batchApi } = buildCases(js, quick);
  const impls = [['js', js], ...(native ? [['native', native]] : []), ...(wasm ? [['wasm', wasm]] : []), ['facade', facade]].filter(([n]) => !only || n === only);
  const measurements = [];
  const rows = [];
  const wanted = (name) => !filter || filter.test(name);

  for (const k of cases) {
    if (!wanted(k.name)) continue;
    const per = {};
    const present = impls.filter(([, api]) => typeof lookup(api, k.name) === 'function');
    const size = k.batchSize ?? 1;
    const loops = present.map(([, api]) => compileLoop(k.cols.length)(lookup(api, k.name), SENTINEL, k.cols, k.cols[0].length - 1));
    sampleInterleaved(loops, { ...opts, opsPerRep: size }).forEach((s, i) => {
      const impl = present[i][0];
      per[impl] = s.median;
      measurements.push(measurement({ fn: k.name, mode: k.mode, impl, op: k.op, batchSize: size,
        perOp: k.mode === 'batch' ? 'element' : 'call' }, s));
    });
    rows.push(row(k.name, k.mode, size, per, facade.routing?.[k.name]));
  }

  // The batch API (PositionBatch, analyzeBatch, analyzeBatchAsync, toPlanes): per position.
  const { words, BA, batchFens, positions } = batchApi;
  const batchCases = [
    ['PositionBatch.fromFens', `PositionBatch.fromFens(${BA} FENs) per position`, BA, (api) => () => api.PositionBatch.fromFens(batchFens)],
    ['PositionBatch.fromPacked', `PositionBatch.fromPacked(${BA} positions' words) per position`, BA, (api) => () => api.PositionBatch.fromPacked(words)],
    ['PositionBatch.fromPositions', 'PositionBatch.fromPositions(256 Positions) per position', 256, (api) => () => api.PositionBatch.fromPositions(positions)],
    ['analyzeBatch', `analyzeBatch(${BA} positions, all features) per position`, BA, (api) => { const bt = api.PositionBatch.fromPacked(words); return () => api.analyzeBatch(bt, 'all'); }],
    ['toPlanes', `toPlanes(${BA} positions, out) per position`, BA, (api) => { const bt = api.PositionBatch.fromPacked(words); const out = new Uint8Array(BA * 776); return () => api.toPlanes(bt, out); }],
  ];
  for (const [name, op, size, make] of batchCases) {
    if (!wanted(name)) continue;
    const per = {};
    const calls = impls.map(([, api]) => make(api));
    sampleInterleaved(calls.map((call) => (reps) => { for (let i = 0; i < reps; i++) call(); }), { ...opts, opsPerRep: size }).forEach((s, i) => {
      const impl = impls[i][0];
      per[impl] = s.median;
      measurements.push(measurement({ fn: name, mode: 'batch', impl, op, batchSize: size, perOp: 'position' }, s));
    });
    rows.push(row(name, 'batch', size, per, facade.routing?.[name.split('.')[0]]));
  }
  if (wanted('analyzeBatchAsync') && impls.length) {
    const per = {};
    for (const [impl, api] of impls) {
      const bt = api.PositionBatch.fromPacked(words);
      const s = await sampleAsync(() => api.analyzeBatchAsync(bt, 'all'), { opsPerRep: BA, samples: quick ? 3 : 9 });
      per[impl] = s.median;
      measurements.push(measurement({ fn: 'analyzeBatchAsync', mode: 'batch', impl,
        op: `analyzeBatchAsync(${BA} positions, all features, all cores) per position`, batchSize: BA, perOp: 'position' }, s));
    }
    rows.push(row('analyzeBatchAsync', 'batch', BA, per, facade.routing?.analyzeBatchAsync));
  }

  // Backend-independent exports (the same JS code whatever the backend): one figure each.
  const helpers = !only || only === 'facade' ? await backendIndependent(facade, js, opts) : [];
  for (const h of helpers) {
    if (!wanted(h.fn)) continue;
    measurements.push(h);
    rows.push([h.fn, 'single (backend-independent)', h.median, '-', '-', '-', '-', h.median, '1.00x', 'shared', '-']);
  }

  return {
    columns: API_COLUMNS,
    rows,
    notes: [
      `single calls: ${M} argument tuples cycled, ${SAMPLES} samples per implementation after warm-up, taken round-robin`,
      'across JS / native / wasm / facade (so drift hits all alike); median ns per call;',
      'batch forms: ns per element (per position for position batches), caller-allocated out; batch size in the op description.',
      'facade = the default `bitboard-patterns` export: cheap lookups (lib/api/declarations.ts) in JS, the rest native; "route" is what it called.',
    ],
    measurements,
  };
}

const API_COLUMNS = ['function', 'mode', 'JS', 'native', 'native / JS', 'wasm', 'wasm / native', 'facade', 'facade / faster', 'route', 'goal <= 1.1x'];

/**
 * The table from measurements taken in separate processes (`--impl`: the driver runs this section
 * once per implementation, so no JIT state of one backend's loops can touch another's).
 */
export function merge(parts, routing, rounds = 1) {
  // Per function and implementation, the round with the lower median (a full run takes two rounds).
  const best = new Map();
  for (const m of parts.flatMap((p) => p.measurements)) {
    const key = `${m.fn}\u0000${m.impl}`;
    if (!best.has(key) || m.median < best.get(key).median) best.set(key, m);
  }
  const measurements = [...best.values()];
  const byFn = new Map();
  for (const m of measurements) {
    if (!byFn.has(m.fn)) byFn.set(m.fn, { m, per: {} });
    byFn.get(m.fn).per[m.impl] = m.median;
  }
  const rows = [];
  for (const [fn, { m, per }] of byFn) {
    if (per.shared !== undefined) rows.push([fn, 'single (backend-independent)', per.shared, '-', '-', '-', '-', per.shared, '1.00x', 'shared', '-']);
    else rows.push(row(fn, m.mode, m.batchSize, per, routing?.[fn.split('.')[0] === 'PositionBatch' ? 'PositionBatch' : fn]));
  }
  const notes = [...parts[0].notes];
  notes[0] = notes[0].replace('taken round-robin', rounds > 1
    ? `in one process per implementation, ${rounds} rounds (the second in the reverse order), the lower median of the rounds`
    : 'in one process per implementation');
  notes[1] = notes[1].replace('across JS / native / wasm / facade (so drift hits all alike); ', '(JS, native, wasm, facade: the same inputs and loop code); ');
  return { ...parts[0], columns: API_COLUMNS, rows, notes, measurements,
    wallMs: parts.reduce((t, p) => t + p.wallMs, 0), maxRssKb: Math.max(...parts.map((p) => p.maxRssKb)) };
}

function row(name, mode, size, per, route) {
  const faster = Math.min(...[per.js, per.native].filter((x) => x !== undefined));
  const f = per.facade;
  const goal = f / faster;
  return [name, mode === 'batch' ? `batch of ${size}` : 'single', per.js ?? '-', per.native, ratio(per.native, per.js),
    per.wasm ?? '-', per.wasm === undefined ? '-' : ratio(per.wasm, per.native), f,
    `${goal.toFixed(2)}x`, route ?? '-', goal <= 1.1 ? 'yes' : 'MISSED'];
}

/** Exports that do not depend on the backend: square helpers, move codes, KBNK index and probe. */
async function backendIndependent(facade, js, opts) {
  const out = [];
  const rand = makeRandom(0x5eedn);
  const sqs = Array.from({ length: M }, () => Number(rand() & 63n));
  const names = sqs.map((s) => facade.squareName(s));
  const sets = sqs.map(() => rand() & rand());
  const codes = sqs.map((s, i) => s | (((s + 1 + (i % 62)) & 63) << 6));
  const ucis = codes.map((c) => facade.decodeMove(c));
  const positions = sampleFens(64).map((f) => facade.parseFen(f));
  const cases = [
    ['parseSquare', 'parseSquare(name)', [names]],
    ['squareName', 'squareName(sq)', [sqs]],
    ['bitboardOf', 'bitboardOf(sq)', [sqs]],
    ['squaresOf', 'squaresOf(set), ~25% dense', [sets]],
    ['encodeMove', 'encodeMove(uci)', [ucis]],
    ['decodeMove', 'decodeMove(code)', [codes]],
    ['isPosition', 'isPosition(pos)', [Array.from({ length: M }, (_, i) => positions[i & 63])]],
    ['isPositionBatch', 'isPositionBatch(x)', [Array.from({ length: M }, (_, i) => positions[i & 63])]],
    ['kbnkIndex', 'kbnkIndex(strongToMove, 4 squares)', [sqs.map((s) => (s & 1) === 0), sqs, sqs.map((s) => (s + 9) & 63), sqs.map((s) => (s + 18) & 63), sqs.map((s) => (s + 27) & 63)]],
  ];
  for (const [fn, op, cols] of cases) {
    const f = facade[fn];
    if (typeof f !== 'function') continue;
    try { f(...cols.map((c0) => c0[0])); } catch { continue; }
    const loop = compileLoop(cols.length)(f, SENTINEL, cols, M - 1);
    out.push(measurement({ fn, mode: 'single', impl: 'shared', op, batchSize: 1, perOp: 'call' }, sample(loop, opts)));
  }
  // KBNK tablebase: probe / bestMove / value on a generated table (native generation when loaded).
  const tb = await facade.KbnkTablebase.generate();
  const kbnk = kbnkFens(js, 256, rand).map((f) => facade.parseFen(f));
  const kp = Array.from({ length: M }, (_, i) => kbnk[i & 255]);
  for (const [fn, op, f, cols] of [
    ['KbnkTablebase#probe', 'tb.probe(KBNK position)', (p) => tb.probe(p), [kp]],
    ['KbnkTablebase#bestMove', 'tb.bestMove(KBNK position)', (p) => tb.bestMove(p), [kp]],
    ['KbnkTablebase#value', 'tb.value(strongToMove, 4 squares)', (s, a, b, c, d) => tb.value(s, a, b, c, d),
      [sqs.map((s) => (s & 1) === 0), sqs.map(() => 0), sqs.map((s) => (s + 9) & 63 || 9), sqs.map((s) => (s + 18) & 63 || 18), sqs.map((s) => (s + 36) & 63 || 36)]],
    ['kbnkMoves', 'kbnkMoves({ strongToMove, strongKing, bishop, knight, weakKing })', (x) => facade.kbnkMoves(x),
      [kp.map((p) => kbnkSquares(facade, p))]],
    ['KbnkTablebase.fromBuffer', 'KbnkTablebase.fromBuffer(5 MB file image) (checks the header and every entry)', (buf) => facade.KbnkTablebase.fromBuffer(buf), [[tb.toBuffer()]]],
    ['KbnkTablebase#stats', 'tb.stats() (one pass over the 5 MB table)', () => tb.stats(), []],
  ]) {
    if (!f) continue;
    try { f(...cols.map((c0) => c0[0])); } catch { continue; }
    const loop = compileLoop(cols.length)(f, SENTINEL, cols, (cols[0]?.length ?? 1) - 1);
    out.push(measurement({ fn, mode: 'single', impl: 'shared', op, batchSize: 1, perOp: 'call' }, sample(loop, opts)));
  }
  return out;
}
