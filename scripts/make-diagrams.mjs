#!/usr/bin/env node
/**
 * node scripts/make-diagrams.mjs [--check]   (after `npm run build`; `npm run diagrams` does both)
 *
 * Regenerates docs/diagrams/*.svg: the examples of the chess programming wiki pages this library
 * implements, drawn by the library itself. Every set shown is computed by the library, and each
 * figure checks the fact it illustrates before it is written (the script fails when the library
 * and the page disagree).
 * - King Pattern: the attacks of a king on g2 (the page's example).
 * - Knight Pattern, Knight Fill: a knight on a1 filled 1, 2, 3 and 4 times on the empty board.
 * - Checks and Pinned Pieces: an absolute pin and a discovered-check candidate, then the discovered
 *   check itself.
 * - KBNK Endgame: the mate in the corner of the bishop's colour, and the corner distance the page's
 *   bit-twiddled function gives for a light-squared bishop.
 * - Tactical motifs (docs/motifs.md): one position per motif (hanging, fork, relative pin, skewer,
 *   discovered attack) and a losing capture (see), each checked against the library's answer.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  WHITE, bitboardOf, checkKind, cornerDistance, discoveredCheckCandidates, isInCheck, kingAttacks, knightFill, legalMoves,
  makeMove, parseFen, parseSquare, pinnedPieces, pinners, squaresOf, toSvg,
  BLACK, hanging, forks, relativePins, skewers, discoveredAttacks, see,
} from 'bitboard-patterns';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'diagrams');
if (!process.argv.includes('--check')) mkdirSync(out, { recursive: true });
const check = process.argv.includes('--check');
const written = [];
const stale = [];
function write(name, svg) {
  const file = join(out, name);
  if (check) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== `${svg}\n`) stale.push(name);
  } else writeFileSync(file, `${svg}\n`);
  written.push(name);
}
function expectSquares(what, set, names) {
  const got = squaresOf(set).map((s) => `${'abcdefgh'[s & 7]}${(s >> 3) + 1}`).sort().join(' ');
  const want = [...names].sort().join(' ');
  if (got !== want) throw new Error(`${what}: the library gives ${got || '(none)'}, the figure needs ${want}`);
}
const sq = parseSquare;

// King Pattern: "For instance a king on g2" (the black king stands far away to make a position).
{
  const pos = parseFen('8/k7/8/8/8/8/6K1/8 w - - 0 1');
  const attacks = kingAttacks(sq('g2'));
  expectSquares('king attacks of g2', attacks, ['f1', 'g1', 'h1', 'f2', 'h2', 'f3', 'g3', 'h3']);
  write('king-attacks.svg', toSvg(pos, { highlight: [{ squares: attacks, color: '#6fa8dc' }], size: 240 }));
}

// Knight Pattern, Knight Fill: a knight on a1, the union of its attacks with itself, step by step
// (the page's figures "1. Fill" to "6. Fill"); earlier squares dark, the step's new squares light.
{
  let filled = bitboardOf('a1');
  const firstStep = ['a1', 'b3', 'c2'];
  for (let step = 1; step <= 4; step++) {
    const next = knightFill(filled);
    if (step === 1) expectSquares('knight fill of a1, step 1', next, firstStep);
    write(`knight-fill-${step}.svg`, toSvg(null, {
      highlight: [{ squares: filled, color: '#3d6fa3' }, { squares: next & ~filled, color: '#9fc5e8' }], size: 200,
    }));
    filled = next;
  }
}

// Checks and Pinned Pieces: the bishop on b6 pins the knight on f2 to the king on g1 (an absolute
// pin); the knight on d3 stands alone between the bishop on b1 and the black king on h7 (a
// discovered-check candidate); moving it gives the discovered check.
{
  const pos = parseFen('8/7k/1b6/8/8/3N4/5N2/1B4K1 w - - 0 1');
  expectSquares('pinned white pieces', pinnedPieces(pos, WHITE), ['f2']);
  expectSquares('pinners of white', pinners(pos, WHITE), ['b6']);
  expectSquares('white discovered-check candidates', discoveredCheckCandidates(pos, WHITE), ['d3']);
  write('pin-and-discovered-check.svg', toSvg(pos, {
    size: 320,
    highlight: [
      { squares: pinners(pos, WHITE), color: '#f6b26b' },
      { squares: pinnedPieces(pos, WHITE), color: '#e5735c' },
      { squares: discoveredCheckCandidates(pos, WHITE), color: '#93c47d' },
    ],
    arrows: [
      { from: sq('b6'), to: sq('g1'), color: 'rgba(204, 0, 0, 0.6)' },
      { from: sq('b1'), to: sq('h7'), color: 'rgba(0, 128, 0, 0.6)' },
    ],
  }));
  const move = 'd3e5';
  if (checkKind(pos, move) !== 'discovered') throw new Error(`checkKind(${move}) is ${checkKind(pos, move)}, the figure needs discovered`);
  const after = makeMove(pos, move);
  if (!isInCheck(after)) throw new Error('after the discovered check black must be in check');
  write('discovered-check.svg', toSvg(after, {
    size: 320, lastMove: move, arrows: [{ from: sq('b1'), to: sq('h7'), color: 'rgba(0, 128, 0, 0.6)' }],
  }));
}

// KBNK Endgame: the mate is delivered in a corner of the bishop's colour (a light-squared bishop:
// a8 or h1), and the page's corner distance for every square of the lone king (bishop on d5).
{
  const pos = parseFen('k7/3N4/1K6/3B4/8/8/8/8 b - - 0 1');
  if (legalMoves(pos).length !== 0 || !isInCheck(pos)) throw new Error('the KBNK figure must show a checkmate');
  write('kbnk-mate.svg', toSvg(pos, {
    size: 240, highlight: [{ squares: bitboardOf('a8', 'h1'), color: '#93c47d' }],
    arrows: [{ from: sq('d5'), to: sq('a8'), color: 'rgba(0, 128, 0, 0.6)' }],
  }));
  const shades = ['#38761d', '#6aa84f', '#93c47d', '#b6d7a8', '#d9ead3', '#fff2cc', '#fce5cd', '#f4cccc'];
  const byDistance = shades.map(() => 0n);
  for (let k = 0; k < 64; k++) byDistance[cornerDistance(sq('d5'), k)] |= 1n << BigInt(k);
  if (cornerDistance(sq('d5'), sq('a8')) !== 0 || cornerDistance(sq('d5'), sq('h1')) !== 0 || cornerDistance(sq('d5'), sq('a1')) !== 7) {
    throw new Error('cornerDistance: a8 and h1 must be 0, a1 7 for a light-squared bishop');
  }
  write('kbnk-corner-distance.svg', toSvg(null, {
    size: 240, highlight: byDistance.map((squares, d) => ({ squares, color: shades[d] })),
  }));
}

// Tactical motifs: each figure's set is the library's, checked against what the figure shows.
{
  const motif = (name, fen, color, fn, want, extra = {}) => {
    const pos = parseFen(fen);
    const set = fn(pos, color);
    expectSquares(`${name} (${color === WHITE ? 'white' : 'black'})`, set, want);
    write(`motif-${name}.svg`, toSvg(pos, { size: 240, highlight: [{ squares: set, color: '#e5735c' }], ...extra }));
  };
  // The knight d5 is attacked by the pawn e4 and defended by nothing.
  motif('hanging', '6k1/8/8/3n4/4P3/8/8/6K1 w - - 0 1', BLACK, hanging, ['d5'],
    { arrows: [{ from: sq('e4'), to: sq('d5'), color: 'rgba(204, 0, 0, 0.6)' }] });
  // The knight c7 attacks the king e8 and the rook a8 (worth more than a knight).
  motif('fork', 'r3k3/2N5/8/8/8/8/8/4K3 b - - 0 1', WHITE, forks, ['c7'],
    { arrows: [{ from: sq('c7'), to: sq('e8'), color: 'rgba(204, 0, 0, 0.6)' }, { from: sq('c7'), to: sq('a8'), color: 'rgba(204, 0, 0, 0.6)' }] });
  // The rook b1 attacks the knight e1, with the queen g1 (worth more) behind it.
  motif('relative-pin', '4k3/8/8/8/8/8/7K/1r2N1Q1 w - - 0 1', WHITE, relativePins, ['e1'],
    { arrows: [{ from: sq('b1'), to: sq('g1'), color: 'rgba(204, 0, 0, 0.6)' }] });
  // The bishop b5 checks the king d7, with the queen e8 behind it.
  motif('skewer', '4q3/3k4/8/1B6/8/8/8/7K b - - 0 1', WHITE, skewers, ['b5'],
    { arrows: [{ from: sq('b5'), to: sq('e8'), color: 'rgba(204, 0, 0, 0.6)' }] });
  // The knight e4 stands alone between the rook e1 and the queen e7 (worth more than the rook).
  motif('discovered-attack', '6k1/4q3/8/8/4N3/8/8/4R1K1 w - - 0 1', WHITE, discoveredAttacks, ['e4'],
    { arrows: [{ from: sq('e1'), to: sq('e7'), color: 'rgba(0, 128, 0, 0.6)' }] });
  // Rxd5 loses the rook for a pawn: see = 100 - 500.
  const pos = parseFen('4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1');
  if (see(pos, 'd1d5') !== -400) throw new Error(`see(d1d5) is ${see(pos, 'd1d5')}, the figure needs -400`);
  write('motif-losing-capture.svg', toSvg(pos, {
    size: 240, arrows: [{ from: sq('d1'), to: sq('d5'), color: 'rgba(204, 0, 0, 0.6)' }, { from: sq('c6'), to: sq('d5'), color: 'rgba(0, 0, 0, 0.5)' }],
  }));
}

if (check) {
  if (stale.length) {
    console.error(`docs/diagrams out of date (run npm run diagrams): ${stale.join(', ')}`);
    process.exitCode = 1;
  } else console.log(`docs/diagrams: all ${written.length} diagrams up to date`);
} else console.log(`wrote ${written.length} diagrams to ${out}: ${written.join(', ')}`);
