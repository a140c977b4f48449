/**
 * Sliders and position analysis. Sliders: JS, native single call, native batch and the plain C++
 * loop (with magic and PEXT side by side in C++). Analysis of a position = checkers, pinned pieces
 * and discovered-check candidates for both colours: JS and native single calls, checkAnalysisBatch
 * over packed positions (and, on a row of its own, the six single-purpose batch calls), the plain C++
 * loop over the same positions, and chessops (its `ctx()` for each side to move on positions built
 * beforehand: checkers and slider blockers of both colours, the same information).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen as chessopsFen } from 'chessops/fen';
import { buildDir, makeRandom, measure, ratio } from '../lib.mjs';

export const title = 'Sliders and position analysis (ns per call / ns per element or position)';

/** Random legal-looking positions where neither king is in check, as FEN piece placements. */
function randomPlacements(count, rand64, api) {
  const letters = 'PNBRQ';
  const out = [];
  while (out.length < count) {
    const board = new Array(64).fill('');
    const free = () => { for (;;) { const s = Number(rand64() & 63n); if (!board[s]) return s; } };
    const wk = free(); board[wk] = 'K';
    let bk; do { bk = free(); } while (Math.max(Math.abs((bk & 7) - (wk & 7)), Math.abs((bk >> 3) - (wk >> 3))) < 2);
    board[bk] = 'k';
    const pieces = 6 + Number(rand64() % 18n);
    for (let i = 0; i < pieces; i++) {
      const letter = letters[Number(rand64() % 5n)];
      let s = free();
      if (letter === 'P') { while ((s >> 3) === 0 || (s >> 3) === 7) s = free(); }
      board[s] = (i & 1) ? letter.toLowerCase() : letter;
    }
    const ranks = [];
    for (let r = 7; r >= 0; r--) {
      let row = '', empty = 0;
      for (let f = 0; f < 8; f++) { const p = board[r * 8 + f]; if (!p) empty++; else { row += (empty || '') + p; empty = 0; } }
      ranks.push(row + (empty || ''));
    }
    const placement = ranks.join('/');
    try {
      const w = api.parseFen(`${placement} w - - 0 1`), b = api.parseFen(`${placement} b - - 0 1`);
      if (api.isInCheck(w, 0) || api.isInCheck(b, 1)) continue;
      out.push(placement);
    } catch { /* the side not to move is in check: draw again */ }
  }
  return out;
}

export async function run({ js, native, quick, filter, baseline }) {
  const N = quick ? 1 << 16 : 1 << 20;
  const P = quick ? 1 << 12 : 1 << 15;
  const SINGLE = quick ? 1 << 13 : 1 << 16;
  const SAMPLES = quick ? 3 : 7;
  const rand64 = makeRandom(0x1234567n);
  const sq = new Uint8Array(N), occ = new BigUint64Array(N);
  for (let i = 0; i < N; i++) { sq[i] = Number(rand64() & 63n); occ[i] = rand64() & rand64() | (1n << BigInt(sq[i])); }
  const placements = randomPlacements(P, rand64, js);
  const positions = placements.map((p) => js.parseFen(`${p} w - - 0 1`));
  const packed = js.packPositions(positions);
  const chessops = placements.map((p) => ['w', 'b'].map((side) => Chess.fromSetup(chessopsFen(`${p} ${side} - - 0 1`).unwrap()).unwrap()));

  // The C++ loop reads N squares, N occupancies, then the same P packed positions the addon gets.
  const inputFile = join(buildDir, 'checks.bin');
  writeFileSync(inputFile, Buffer.concat([sq, occ, packed].map((x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength))));
  const cpp = JSON.parse(execFileSync(baseline, ['checks', inputFile, String(N), String(SAMPLES)], { encoding: 'utf8' }));

  let sink = 0;
  const out = new BigUint64Array(N);
  const rows = [];
  for (const name of ['rookAttacks', 'bishopAttacks', 'queenAttacks']) {
    if (filter && !filter.test(name)) continue;
    const single = (api) => measure(() => { for (let i = 0; i < SINGLE; i++) sink ^= Number(api[name](sq[i], occ[i]) & 1n); }, SINGLE, SAMPLES);
    const batch = (api) => measure(() => api[`${name}Batch`](sq, occ, out), N, SAMPLES);
    const nb = native && batch(native);
    rows.push([name, single(js), native && single(native), batch(js), nb, cpp[name], ratio(nb, cpp[name]), '-']);
  }

  if (!filter || filter.test('analysis')) {
    const outs = Array.from({ length: 6 }, () => new BigUint64Array(P));
    const analysisOut = new BigUint64Array(6 * P);
    const single = (api) => measure(() => {
      for (const pos of positions) {
        for (const color of [0, 1]) sink ^= Number((api.checkers(pos, color) ^ api.pinnedPieces(pos, color) ^ api.discoveredCheckCandidates(pos, color)) & 1n);
      }
    }, P, SAMPLES);
    const fused = (api) => measure(() => api.checkAnalysisBatch(packed, analysisOut), P, SAMPLES);
    const separate = (api) => measure(() => {
      for (const color of [0, 1]) {
        api.checkersBatch(packed, color, outs[color * 3]);
        api.pinnedPiecesBatch(packed, color, outs[color * 3 + 1]);
        api.discoveredCheckCandidatesBatch(packed, color, outs[color * 3 + 2]);
      }
    }, P, SAMPLES);
    const peer = measure(() => {
      for (const [white, black] of chessops) {
        const w = white.ctx(), b = black.ctx();
        sink ^= w.checkers.lo ^ w.blockers.hi ^ b.checkers.lo ^ b.blockers.hi;
      }
    }, P, SAMPLES);
    const jsSingle = single(js), nativeSingle = native && single(native);
    const nb = native && fused(native);
    rows.push(['analysis (per position)', jsSingle, nativeSingle, fused(js), nb, cpp.analysis, ratio(nb, cpp.analysis), peer, ratio(peer, nb)]);
    const ns = native && separate(native);
    rows.push(['analysis, six batch calls', '-', '-', separate(js), ns, cpp.analysisSeparate, ratio(ns, cpp.analysisSeparate), peer, ratio(peer, ns)]);
  }
  if (sink === 0.5) console.log('');
  if (rows.length === 0) return null;
  const notes = [
    `sliders: ${N} random squares and occupancies; analysis: ${P} random positions (6-24 pieces, neither king in check),`,
    'checkers + pinned pieces + discovered-check candidates for both colours; chessops: ctx() for both sides to move.',
    'analysis: JS/native single = the six single calls per position; batch = one checkAnalysisBatch call (each position',
    'validated once, one x-ray per king); C++ loop = the same kernel without validation. "six batch calls": checkersBatch,',
    'pinnedPiecesBatch, discoveredCheckCandidatesBatch for colours 0 and 1, against the C++ loop of the six separate functions.',
    `C++ slider lookups: rook magic ${cpp.rookAttacksMagic?.toFixed(2)} ns, PEXT ${cpp.rookAttacksPext?.toFixed(2) ?? 'n/a'} ns; `
      + `bishop magic ${cpp.bishopAttacksMagic?.toFixed(2)} ns, PEXT ${cpp.bishopAttacksPext?.toFixed(2) ?? 'n/a'} ns (independent lookups).`,
    `C++ checkAnalysisBatch kernel with its per-position validation: ${cpp.analysisValidated?.toFixed(2)} ns per position.`,
  ];
  return {
    columns: ['function', 'JS single', 'native single', 'JS batch', 'native batch', 'C++ loop', 'native batch / C++', 'chessops', 'chessops / native batch'],
    rows: rows.map((r) => (r.length === 8 ? [...r, '-'] : r)),
    notes,
  };
}
