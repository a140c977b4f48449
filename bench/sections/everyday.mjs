/**
 * The everyday API, one position at a time, one core: what a user meets first (parse a FEN, list
 * the moves, make one, write the FEN or the SAN), on positions from whole games (random playouts of
 * scripts/make-pgn.mjs, seed 2026, captures and checks weighted up), read by
 *  - this package's default entry (`bitboard-patterns`: the addon, JS for what is cheaper in JS);
 *  - this package's JS twin (`bitboard-patterns/js`);
 *  - this package's WebAssembly backend (`bitboard-patterns/wasm`), where it is built;
 *  - chessops: `parseFen` + `Chess.fromSetup`, `makeFen`, `allDests`, `play` on a clone, `makeSan`,
 *    `parseSan`, `Chess.fromSetup` of a ready setup;
 *  - chess.js: `new Chess(fen)`, `fen()`, `moves()`, `move` + `undo` (the same for SAN both ways).
 * Each operation runs over every position of the list; the implementations' samples interleave
 * (bench/lib.mjs sampleInterleaved). Reported: ns per call and the ratio to chessops (> 1: faster).
 * The replay row is one whole game per op: from its first position, makeMove and toFen each ply.
 */
import { Chess as ChessJs } from 'chess.js';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen as chessopsFen } from 'chessops/fen';
import { makeSan, parseSan as chessopsSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { measurement, runStandalone, sampleInterleaved } from '../lib.mjs';

export const title = 'The everyday API, one call at a time (ns per call; x chessops > 1 is faster)';

/** The games (start FEN, UCI moves, SAN moves) and every position in them with the move played there. */
function corpus(api, games) {
  const parsed = api.parsePgn(makePgn(api, { games, seed: 2026, maxPlies: 120 }));
  const plies = [];
  const replays = [];
  for (const g of parsed) {
    if (g.error || g.moves.length === 0) continue;
    const start = g.startFen ?? 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    replays.push({ start, moves: g.moves });
    let pos = api.parseFen(start);
    for (let i = 0; i < g.moves.length; i++) {
      plies.push({ fen: api.toFen(pos), uci: g.moves[i], san: g.sans[i] });
      pos = api.makeMove(pos, g.moves[i]);
    }
  }
  return { plies, replays };
}

function chessops(plies, replays) {
  const positions = plies.map((p) => Chess.fromSetup(chessopsFen(p.fen).unwrap()).unwrap());
  const setups = positions.map((p) => p.toSetup());
  const moves = plies.map((p) => parseUci(p.uci));
  const starts = replays.map((g) => Chess.fromSetup(chessopsFen(g.start).unwrap()).unwrap());
  const gameMoves = replays.map((g) => g.moves.map(parseUci));
  let sink = 0;
  const over = (f) => (reps) => { for (let r = 0; r < reps; r++) for (let i = 0; i < plies.length; i++) sink += f(i); };
  return {
    parseFen: over((i) => Chess.fromSetup(chessopsFen(plies[i].fen).unwrap()).unwrap().turn.length),
    toFen: over((i) => makeFen(positions[i].toSetup()).length),
    legalMoves: over((i) => positions[i].allDests().size),
    makeMove: over((i) => { const p = positions[i].clone(); p.play(moves[i]); return p.fullmoves; }),
    toSan: over((i) => makeSan(positions[i], moves[i]).length),
    parseSan: over((i) => (chessopsSan(positions[i], plies[i].san) ? 1 : 0)),
    createPosition: over((i) => Chess.fromSetup(setups[i]).unwrap().fullmoves),
    replay: (reps) => {
      for (let r = 0; r < reps; r++) {
        for (let g = 0; g < starts.length; g++) {
          const pos = starts[g].clone();
          for (const m of gameMoves[g]) { pos.play(m); sink += makeFen(pos.toSetup()).length; }
        }
      }
    },
    sink: () => sink,
  };
}

function chessjs(plies, replays) {
  const boards = plies.map((p) => new ChessJs(p.fen));
  const moves = plies.map((p) => ({ from: p.uci.slice(0, 2), to: p.uci.slice(2, 4), promotion: p.uci[4] }));
  let sink = 0;
  const over = (f) => (reps) => { for (let r = 0; r < reps; r++) for (let i = 0; i < plies.length; i++) sink += f(i); };
  return {
    parseFen: over((i) => new ChessJs(plies[i].fen).turn().length),
    toFen: over((i) => boards[i].fen().length),
    legalMoves: over((i) => boards[i].moves().length),
    makeMove: over((i) => { const b = boards[i]; b.move(moves[i]); b.undo(); return 1; }),
    toSan: over((i) => { const b = boards[i]; const san = b.move(moves[i]).san; b.undo(); return san.length; }),
    parseSan: over((i) => { const b = boards[i]; const m = b.move(plies[i].san); b.undo(); return m.from.length; }),
    createPosition: null,
    replay: (reps) => {
      for (let r = 0; r < reps; r++) {
        for (const g of replays) {
          const b = new ChessJs(g.start);
          for (const m of g.moves) { b.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] }); sink += b.fen().length; }
        }
      }
    },
    sink: () => sink,
  };
}

const OPS = ['parseFen', 'toFen', 'legalMoves', 'makeMove', 'toSan', 'parseSan', 'createPosition', 'replay'];

/**
 * The loops over one of this package's APIs, from a module instance of its own (the loops' file
 * imported under a query naming the API): each API's loops have their own call sites, as the
 * chessops and chess.js loops do and as in a program that uses one entry, instead of call sites
 * shared by all three APIs.
 */
async function ours(name, api, plies, replays) {
  const { loops } = await import(new URL(`../everyday-loops.mjs?api=${encodeURIComponent(name)}`, import.meta.url).href);
  return loops(api, plies, replays);
}

export async function run({ js, wasm, facade, quick, filter }) {
  if (filter && !filter.test('everyday') && !OPS.some((op) => filter.test(op))) return null;
  const main = facade ?? (await import('bitboard-patterns'));
  const games = quick ? 30 : 60;
  const { plies, replays } = corpus(js, games);
  const totalPlies = replays.reduce((n, g) => n + g.moves.length, 0);
  const impls = [
    ['ours, default', await ours('default', main, plies, replays)],
    ['ours, JS twin', await ours('js', js, plies, replays)],
    ...(wasm ? [['ours, wasm', await ours('wasm', wasm, plies, replays)]] : []),
    ['chessops', chessops(plies, replays)],
    ['chess.js', chessjs(plies, replays)],
  ];
  const samples = quick ? 5 : 11;
  const measurements = [];
  const rows = [];
  for (const op of OPS) {
    if (filter && !filter.test('everyday') && !filter.test(op)) continue;
    const present = impls.filter(([, loops]) => loops[op]);
    const perOp = op === 'replay' ? replays.length : plies.length;
    const stats = sampleInterleaved(present.map(([, loops]) => loops[op]), { opsPerRep: perOp, samples, sampleMs: quick ? 20 : 60, warmupMs: quick ? 100 : 400 });
    const ns = Object.fromEntries(present.map(([name], k) => [name, stats[k].median]));
    present.forEach(([name], k) => measurements.push(measurement({ fn: `everyday.${op}`, mode: 'single', impl: name,
      op: op === 'replay' ? 'one whole game: makeMove + toFen per ply' : `${op} on one position of a game` }, stats[k])));
    const base = ns.chessops;
    const show = (name) => (ns[name] === undefined ? '-' : ns[name] >= 1e5 ? `${(ns[name] / 1000).toFixed(0)} µs` : ns[name] >= 1000 ? `${(ns[name] / 1000).toFixed(2)} µs` : `${ns[name].toFixed(0)} ns`);
    const x = (name) => (ns[name] === undefined ? '-' : `${(base / ns[name]).toFixed(2)}x`);
    rows.push([op, show('ours, default'), show('ours, JS twin'), show('ours, wasm'), show('chessops'), show('chess.js'), x('ours, default'), x('ours, JS twin'), x('ours, wasm'), x('chess.js')]);
  }
  for (const [, loops] of impls) loops.sink();
  return {
    measurements,
    columns: ['operation', 'ours, default', 'ours, JS twin', 'ours, wasm', 'chessops', 'chess.js', 'default x chessops', 'JS x chessops', 'wasm x chessops', 'chess.js x chessops'],
    rows,
    notes: [
      `${plies.length} positions from ${replays.length} games (scripts/make-pgn.mjs, seed 2026; ${totalPlies} plies replayed per replay loop), medians of ${samples} interleaved samples`,
      'legalMoves: ours returns UCI strings, chessops allDests a map of destination sets, chess.js SAN strings',
      'makeMove: chessops plays on a clone (its positions are mutable), chess.js move + undo; ours returns a new immutable Position',
      'createPosition: ours from the Position\'s own sets (validated), chessops Chess.fromSetup of a ready setup (validated); chess.js has no such call',
      `default entry: ${main.backend} (${main.cpuPath})`,
    ],
  };
}

// Stand-alone: node bench/sections/everyday.mjs [--quick]
await runStandalone(import.meta.url, title, run);
