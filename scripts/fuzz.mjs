#!/usr/bin/env node
/**
 * Differential fuzz harness: every public function of `bitboard-patterns/native`, `/wasm` (when the
 * WebAssembly module is built), `/js` and the facade (`bitboard-patterns`), found at run time (functions, static methods of exported classes,
 * constructors, `variants.*`), called with the same seeded hostile arguments; the outcome classes
 * must agree: the same value (typed arrays by bytes, bigints, nested objects) and the same writes
 * into array arguments, or the same error class. An error with an engine-internal message (V8's
 * "Cannot convert ...", "Cannot mix BigInt ...", "detached ArrayBuffer", "... is not a function",
 * ...) is a failure even when both backends throw it.
 *
 *   npm run fuzz -- --seconds 60 --seed 12345     (defaults: 60 s, a random seed, printed)
 *   npm run fuzz -- --seed 12345 --case 4711      replay one case, print its arguments and outcomes
 *   options: --batch N (cases per child process, 400), --max-show N (reproducers printed, 40),
 *            --dist DIR (the built package, default dist/; run `npm run build` first)
 *
 * Each batch of cases runs in a child process (so a crash is caught: the child reports each case
 * before it runs it, and the parent names the case that killed it). Case i's arguments come from a
 * PRNG seeded with (seed, i) alone, so `--seed S --case i` reproduces it exactly. Exit status:
 * 0 when there was no disagreement, no engine-internal message, no crash and no hang; 1 otherwise.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { types } from 'node:util';
import { seeded } from './seeded.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};
const dist = resolve(opt('dist', join(here, '..', 'dist')));
const CASE_TIMEOUT_MS = 20_000;

// ---------------------------------------------------------------- PRNG (sfc32 over a hashed seed)

function prng(seed, index) {
  const next = seeded(seed, index);
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    u64: () => (BigInt(Math.floor(next() * 2 ** 32)) << 32n) | BigInt(Math.floor(next() * 2 ** 32)),
  };
  return r;
}

// ---------------------------------------------------------------- argument recipes
//
// A recipe is plain data (made from the PRNG); materialize(recipe, api) builds fresh objects from it
// for one backend, so every backend gets equal arguments that share nothing.

// The chess programming wiki's perft positions (test/fixtures/cpw-perft.json), then a few endings.
const CPW = JSON.parse(readFileSync(new URL('../test/fixtures/cpw-perft.json', import.meta.url), 'utf8')).positions;
const FENS = [
  ...['initial position', 'Kiwipete', 'position 3', 'position 4', 'position 5'].map((name) => CPW.find((p) => p.name === name).fen),
  '7k/8/8/8/8/8/8/KBN5 w - - 0 1',
  '8/8/3k4/8/8/8/8/NB2K3 b - - 0 1',
  '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1',
  '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2',
  '4k3/4R3/8/8/8/8/8/4K3 b - - 0 1',
  // Chess960 (Shredder-FEN: a Chess960 position by itself): the chess programming wiki's "Chess960
  // Perft Results" positions 1-5, then castling cases (the king on its rook's target, a rook
  // shielding the king's target, the king not moving, inner rooks).
  'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  '2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9',
  'b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9',
  'qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9',
  '1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9',
  '1r5k/8/8/8/8/8/8/4K1R1 w G - 0 1',
  '8/8/8/8/8/8/8/qR1K3k w B - 0 1',
  '4k3/8/8/8/8/8/8/6KR w H - 0 1',
  'rk2r3/8/8/8/8/8/8/1K3R1R w Fa - 0 1',
  'r1k1r3/8/8/8/8/8/8/R1K1R3 b EAea - 0 1',
];
// Chess960 X-FEN (KQkq the outermost rooks, a letter an inner one): positions only with { chess960: true },
// standard FEN or a castling error without it (the FEN-line batch parsers' chess960 option).
const XFENS = ['bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9', 'b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9',
  'qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w kq - 0 9', '1r5k/8/8/8/8/8/8/4K1R1 w K - 0 1', '8/8/8/8/8/8/8/qR1K3k w Q - 0 1',
  'rk2r3/8/8/8/8/8/8/1K3R1R w Fq - 0 1', 'r1k1r3/8/8/8/8/8/8/R1K1R3 b KQkq - 0 1', 'r3r1kr/8/8/8/8/8/8/RK3R1R w FQe - 0 1',
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'r3r1kr/8/8/8/8/8/8/RK3R1R w KQkq - 0 1', 'r3r1kr/8/8/8/8/8/8/RK3R1R w Gg - 0 1',
  'rk2r3/8/8/8/8/8/8/1K3R1R w qF - 0 1', 'rk2r3/8/8/8/8/8/8/1K3R1R w FF - 0 1', 'rk2r3/8/8/8/8/8/8/1K3R1R w Fq', 'rk2r3/8/8/8/8/8/8/1K3R1R w Fq - bm a1a2;'];
const BAD_FENS = ['', 'x', '8/8/8/8/8/8/8/8 w - - 0 1', '4k3/4R3/8/8/8/8/8/4K3 w - - 0 1', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0',
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1', '\u00e9\u00e9', 'k7/8/8/8/8/8/8/K7 w - - 99999999999 1',
  'rk2r3/8/8/8/8/8/8/1K3R1R w G - 0 1', 'rk2r3/8/8/8/8/8/8/1K3R1R w FFa - 0 1', 'rk2r3/8/8/8/8/8/8/1K3R1R w Fq - 0 1', 'rk2r3/8/8/8/8/8/8/1K3R1R w KQ - 0 1'];
const PGNS = ['', '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *', '[Event "x"]\n\n1. d4 d5 2. c4 1-0\n\n1. e4 c5 *\n', '1. e4 {c} (1. d4) e5 2. Qh5 Ke7 3. Qxe5# 1-0',
  '[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n[SetUp "1"]\n\n1. O-O Kd7 *',
  '[Variant "fischerandom"]\n[FEN "1r5k/8/8/8/8/8/8/4K1R1 w K - 0 1"]\n\n1. O-O Kh7 2. Rb1 *', '[Variant "Chess960"]\n[FEN "r1k1r3/8/8/8/8/8/8/R1K1R3 w EAea - 0 1"]\n\n1. O-O-O O-O 2. Kb1 *',
  '[Variant "FRC"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *', '[Variant "Atomic"]\n\n1. e4 *', '1. e4 e5 2. Ke3 Nx9 *\n\n1. f3 e5 2. g4 Qh4# 0-1', '1. e4 {unterminated'];
/**
 * A PGN game with random variations, comments, commands and annotations: tokens drawn from a legal
 * game's moves (so some variations are legal and some not), move numbers, '(' and ')', brace and ';'
 * comments with [%clk] [%eval] [%cal] [%csl] commands (well-formed or not), NAGs, suffixes, null
 * moves and '%' lines.
 */
const TREE_MOVES = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'd4', 'd5', 'c4', 'c5', 'Nc3', 'Ke3', 'Qxh7#', '--', 'Z0', 'e8=Q', 'Nbd2'];
const TREE_EXTRAS = ['(', '(', ')', ')', '{c}', '{[%clk 0:01:02.5]}', '{[%eval -1.25] x}', '{[%eval #-3]}', '{[%cal Ge2e4,Rd8d1]}', '{[%csl Gd4] y [%cal Xz9]}',
  '{ a (b) }', '$1', '$14', '$256', '!?', '??', '; rest\n', '\n% escape\n', '1.', '2...', '{', '}', '[%clk 1:00:00]'];
function treePgnText(r) {
  const tokens = [];
  const n = 1 + r.int(40);
  for (let i = 0; i < n; i++) {
    if (r.chance(0.6)) tokens.push(r.pick(TREE_MOVES) + (r.chance(0.1) ? r.pick(['!', '?', '!?', '?!', '!!', '??']) : ''));
    else tokens.push(r.pick(TREE_EXTRAS));
  }
  const tags = r.chance(0.7) ? '[Event "tree"]\n\n' : '';
  return `${tags}${tokens.join(' ')} ${r.pick(['*', '1-0', '', '1/2-1/2'])}\n\n`;
}
const FEATURE_NAMES = ['checkers', 'pinned', 'attacked', 'legalMoveCount', 'checkmate', 'inCheck', 'knightForkSquares', 'hanging', 'skewers', 'motifs', 'nope'];
const NUMBERS = [0, -0, 1, 2, 3, 7, 63, 64, -1, 255, 256, 0.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), 1e300, 21, 20];
const BIGINTS = [0n, 1n, -1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 63n, -(2n ** 63n), 0xffn, 0x8100000000000081n];
const ARRAY_TYPES = ['BigUint64Array', 'Uint8Array', 'Uint16Array', 'Int8Array', 'Float64Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'Uint8ClampedArray'];

/** Hostile values of any kind (the pool every argument draws from some of the time). */
function anyRecipe(r, depth = 0) {
  const k = r.int(depth > 1 ? 6 : 16);
  switch (k) {
    case 0: return { kind: 'undefined' };
    case 1: return { kind: 'null' };
    case 2: return { kind: 'number', value: r.pick(NUMBERS) };
    case 3: return { kind: 'bigint', value: r.pick(BIGINTS) };
    case 4: return { kind: 'string', value: r.pick([...FENS, ...XFENS, ...BAD_FENS, 'all', 'e4', '0', 'js', 'native']) };
    case 5: return { kind: r.pick(['true', 'false', 'symbol', 'function', 'throwingFunction', 'emptyObject']) };
    case 6: return positionRecipe(r);
    case 7: return typedRecipe(r, r.pick(ARRAY_TYPES), r.int(4) === 0 ? r.pick([0, 1, 9, 10, 11, 64, 100]) : 10 * r.int(4));
    case 8: return forgedRecipe(r);
    case 9: return batchRecipe(r);
    case 10: return { kind: 'array', items: Array.from({ length: r.int(4) }, () => anyRecipe(r, depth + 1)) };
    case 11: return { kind: 'object', entries: Array.from({ length: r.int(3) }, () => [r.pick(['threads', 'signal', 'epd', 'backend', 'onProgress', 'from', 'to', 'promotion', 'packed', 'length', 'valid']), anyRecipe(r, depth + 1)]) };
    case 12: return { kind: 'signal', how: r.pick(['aborted', 'abortAfterCall', 'live', 'fake']) };
    case 13: return { kind: 'lyingArray', type: r.pick(ARRAY_TYPES), length: 10 * r.int(3), claim: r.pick([0, 5, 10, 20, 2 ** 32, -1, NaN]), how: r.pick(['subclass', 'ownProperty', 'proxy']) };
    case 14: return { kind: 'throwingGetters' };
    default: return { kind: 'number', value: r.int(64) };
  }
}

function positionRecipe(r) {
  return { kind: 'position', fen: r.pick(FENS) };
}

function wordsFor(r, positions) {
  const words = [];
  for (let i = 0; i < positions; i++) {
    words.push({
      fen: r.pick(FENS),
      damage: r.chance(0.1) ? [r.int(10), r.u64()] : null,
      // Words whose sets are consistent but that break one of parseFen's board rules.
      rule: r.chance(0.1) ? [r.pick(['pawnBackRank', 'castling', 'epSquare']), r.int(64), r.int(16)] : null,
    });
  }
  return words;
}

/**
 * Breaks one of parseFen's board rules in the packed position at word `at`, keeping its sets
 * consistent (layout: lib/core/types.ts): a pawn put on an empty square of the first or last rank, a
 * castling right whose king or rook is not at home, or an en-passant square on the right rank with
 * nothing checked about its pawn and squares.
 */
function breakRule(w, at, [rule, n, bits]) {
  const occupied = w[at] | w[at + 1];
  if (rule === 'pawnBackRank') {
    const sq = (n & 7) + (n & 8 ? 56 : 0);
    if ((occupied >> BigInt(sq)) & 1n) return;
    w[at + (n & 16 ? 1 : 0)] |= 1n << BigInt(sq);
    w[at + 2] |= 1n << BigInt(sq);
  } else if (rule === 'castling') {
    w[at + 8] |= BigInt(bits || 1) << 1n;
  } else {
    const rank = w[at + 8] & 1n ? 2 : 5;
    w[at + 8] = (w[at + 8] & ~0xff00n) | (BigInt(rank * 8 + (n & 7)) << 8n);
  }
}

function typedRecipe(r, type, length) {
  // A typed array whose `length` property lies about its real length.
  if (r.chance(0.12)) {
    return { kind: 'lyingArray', type, length, claim: r.pick([0, Math.max(0, length - 1), length + 1, length * 2 + 10, 2 ** 32, -1, NaN]), how: r.pick(['subclass', 'ownProperty', 'proxy']) };
  }
  if (type === 'BigUint64Array' && length % 10 === 0 && r.chance(0.7)) {
    return { kind: 'packedWords', positions: wordsFor(r, length / 10), backing: r.pick(['plain', 'plain', 'shared', 'offset', 'detached']) };
  }
  return { kind: 'typed', type, length, fill: r.pick(['zero', 'squares', 'random', 'ones']), seed: r.int(1e9), backing: r.pick(['plain', 'plain', 'plain', 'shared', 'offset', 'detached']) };
}

function forgedRecipe(r) {
  return { kind: 'forged', how: r.pick(['packedOnly', 'brandCopy', 'proxy', 'brandCopyChanged', 'frozenCopy']), fen: r.pick(FENS), word: r.int(10), value: r.u64() };
}

function batchRecipe(r) {
  const how = r.pick(['fromFens', 'fromPacked', 'fromPackedValid', 'forged', 'reshaped', 'detachedAfter']);
  return { kind: 'batch', how, fens: Array.from({ length: r.int(6) }, () => (r.chance(0.6) ? r.pick(FENS) : r.chance(0.5) ? r.pick(XFENS) : r.pick(BAD_FENS))), n: r.int(4), words: wordsFor(r, 1 + r.int(4)),
    options: r.chance(0.5) ? { chess960: r.chance(0.8), epd: r.chance(0.3) } : undefined };
}

/** The `reuse` option of the PGN position readers: an earlier result's shape, with hostile parts. */
function reuseRecipe(r) {
  const part = (type) => (r.chance(0.8) ? typedRecipe(r, type, r.pick([0, 1, 7, 4096])) : anyRecipe(r));
  return { kind: 'object', entries: [['batch', r.chance(0.8) ? batchRecipe(r) : anyRecipe(r)], ['game', part('Uint32Array')], ['ply', part('Uint32Array')]] };
}

/** analyzeBatch's `out` option: typed arrays by feature name, of plausible and wrong types and lengths. */
function featureOutRecipe(r) {
  if (r.chance(0.15)) return anyRecipe(r, 2);
  const entries = Array.from({ length: 1 + r.int(3) }, () => [r.pick([...FEATURE_NAMES, 'wdl', 'dtz']),
    typedRecipe(r, r.chance(0.5) ? 'BigUint64Array' : r.chance(0.6) ? 'Uint8Array' : r.pick(ARRAY_TYPES), r.pick([0, 1, 2, 3, 4, 5, 6, 8, 10]))]);
  return { kind: 'object', entries };
}

/** A plausible value for a parameter, from its name (and the function's); else a hostile one. */
function paramRecipe(r, fn, param) {
  if (r.chance(0.3)) return anyRecipe(r);
  const p = param.toLowerCase();
  const batch = /batch$/i.test(fn);
  const n = r.pick([0, 1, 2, 3, 5, 8]);
  if (p === 'out') {
    const type = /perft/.test(fn) ? 'Float64Array' : /^see/i.test(fn) ? 'Int16Array' : /distance/i.test(fn) ? 'Int8Array' : /legalmoves/i.test(fn) ? 'Uint16Array' : /planes/i.test(fn) ? 'Uint8Array' : 'BigUint64Array';
    return r.chance(0.5) ? { kind: 'undefined' } : typedRecipe(r, r.chance(0.8) ? type : r.pick(ARRAY_TYPES), type === 'Uint16Array' ? r.pick([256, 300, 10]) : n);
  }
  if (p === 'text' && /pgn/i.test(fn)) {
    if (r.chance(0.4)) return { kind: 'string', value: Array.from({ length: 1 + r.int(4) }, () => treePgnText(r)).join('') };
    return { kind: 'string', value: r.pick(PGNS).repeat(r.pick([1, 1, 3, 40])) };
  }
  if (/^(pos|position|before)$/.test(p)) return r.chance(0.8) ? positionRecipe(r) : forgedRecipe(r);
  if (/positions$/.test(p)) return r.chance(0.5) ? typedRecipe(r, 'BigUint64Array', 10 * n) : { kind: 'array', items: Array.from({ length: n }, () => positionRecipe(r)) };
  if (p === 'batch') return batchRecipe(r);
  if (p === 'depth') return { kind: 'number', value: r.chance(0.8) ? r.int(3) : r.pick([-1, 21, 2.5, NaN, 20]) };
  if (/^(color|side|bycolor|us)$/.test(p)) return { kind: 'number', value: r.pick([0, 1, 1, 0, 2, -1, 0.5]) };
  if (/squares|^sq$|square$|^from$|^to$|bishop|knight|king|^sq\d?$/.test(p)) {
    if (batch || /squares/.test(p)) return typedRecipe(r, r.chance(0.85) ? 'Uint8Array' : r.pick(ARRAY_TYPES), n);
    return { kind: 'number', value: r.chance(0.85) ? r.int(64) : r.pick(NUMBERS) };
  }
  if (/direction|dir$/.test(p)) return { kind: 'number', value: r.chance(0.85) ? r.int(8) : r.pick(NUMBERS) };
  if (/fens?$/.test(p)) return p.endsWith('s') ? { kind: 'array', items: Array.from({ length: n }, () => ({ kind: 'string', value: r.chance(0.6) ? r.pick(FENS) : r.chance(0.5) ? r.pick(XFENS) : r.pick(BAD_FENS) })) } : { kind: 'string', value: r.chance(0.8) ? r.pick(FENS) : r.pick(BAD_FENS) };
  if (p === 'features') return r.chance(0.3) ? { kind: 'string', value: 'all' } : { kind: 'array', items: Array.from({ length: 1 + r.int(3) }, () => ({ kind: 'string', value: r.pick(FEATURE_NAMES) })) };
  if (p === 'options' || p === 'init') return { kind: 'object', entries: [['threads', { kind: 'number', value: r.pick([1, 2, 0, 300, 1.5]) }], ...(r.chance(0.5) ? [['signal', { kind: 'signal', how: r.pick(['aborted', 'abortAfterCall', 'live', 'fake']) }]] : []), ...(r.chance(0.3) ? [['epd', { kind: r.pick(['true', 'false']) }]] : []), ...(r.chance(0.3) ? [[r.pick(['chess960', 'shredder']), r.chance(0.8) ? { kind: r.pick(['true', 'false']) } : anyRecipe(r, 2)]] : []), ...(/pgn/i.test(fn) && r.chance(0.5) ? [['reuse', reuseRecipe(r)]] : []), ...(/pgn/i.test(fn) && r.chance(0.6) ? [['variations', r.chance(0.9) ? { kind: 'true' } : anyRecipe(r, 2)]] : []), ...(/pgn/i.test(fn) && r.chance(0.3) ? [['annotations', { kind: 'true' }]] : []), ...(fn === 'analyzeBatch' && r.chance(0.5) ? [['out', featureOutRecipe(r)]] : [])] };
  if (p === 'moves') return typedRecipe(r, r.chance(0.85) ? 'Uint16Array' : r.pick(ARRAY_TYPES), r.chance(0.8) ? n : r.int(9));
  if (p === 'threshold') return { kind: 'number', value: r.chance(0.7) ? r.int(2001) - 1000 : r.pick([0.5, 100001, -100001, NaN, Infinity]) };
  if (p === 'move' && r.chance(0.4)) {
    const name = (s) => `${'abcdefgh'[s & 7]}${(s >> 3) + 1}`;
    return { kind: 'string', value: `${name(r.int(64))}${name(r.int(64))}${r.chance(0.1) ? r.pick(['q', 'n', 'x']) : ''}` };
  }
  if (p === 'move') return r.chance(0.5) ? { kind: 'number', value: r.int(65536) } : { kind: 'object', entries: [['from', { kind: 'number', value: r.int(64) }], ['to', { kind: 'number', value: r.int(64) }]] };
  if (p === 'promotion') return { kind: 'number', value: r.int(5) };
  if (batch) return typedRecipe(r, r.chance(0.85) ? 'BigUint64Array' : r.pick(ARRAY_TYPES), n);
  if (/set|occupied|path|sliders|empty|mask|bb|bitboard|pawns|blockers|pieces|own|area/.test(p)) return { kind: 'bigint', value: r.chance(0.8) ? r.u64() : r.pick(BIGINTS) };
  if (/table|buffer|bytes|data/.test(p)) return typedRecipe(r, 'Uint8Array', r.pick([0, 24, 100]));
  return anyRecipe(r);
}

// ---------------------------------------------------------------- materializing

function fillTyped(type, length, fill, seed) {
  const Ctor = globalThis[type];
  const a = new Ctor(length);
  const r = prng(seed, 'fill');
  for (let i = 0; i < length; i++) {
    const v = fill === 'zero' ? 0 : fill === 'ones' ? 255 : fill === 'squares' ? r.int(64) : r.int(256);
    a[i] = (type.startsWith('Big') ? (fill === 'random' ? (type === 'BigInt64Array' ? BigInt.asIntN(64, r.u64()) : r.u64()) : BigInt(v)) : v);
  }
  return a;
}

function backed(a, backing, post) {
  const Ctor = a.constructor;
  if (backing === 'shared') {
    const out = new Ctor(new SharedArrayBuffer(a.byteLength || 8), 0, a.length);
    out.set(a);
    return out;
  }
  if (backing === 'offset') {
    const out = new Ctor(new ArrayBuffer(a.byteLength + 16), 16, a.length);
    out.set(a);
    return out;
  }
  if (backing === 'detached') {
    post.push(() => {});
    structuredClone(a.buffer, { transfer: [a.buffer] });
  }
  return a;
}

function packedOf(api, fen) {
  return api.parseFen(fen).packed;
}

function materialize(rec, api, post) {
  switch (rec.kind) {
    case 'undefined': return undefined;
    case 'null': return null;
    case 'true': return true;
    case 'false': return false;
    case 'symbol': return Symbol('fuzz');
    case 'function': return () => {};
    case 'throwingFunction': return () => { throw new Error('fuzz callback threw'); };
    case 'emptyObject': return {};
    case 'number': case 'bigint': case 'string': return rec.value;
    case 'position': return api.parseFen(rec.fen);
    case 'typed': return backed(fillTyped(rec.type, rec.length, rec.fill, rec.seed), rec.backing, post);
    case 'packedWords': {
      const w = new BigUint64Array(rec.positions.length * 10);
      rec.positions.forEach((p, i) => {
        w.set(packedOf(api, p.fen), i * 10);
        if (p.damage) w[i * 10 + p.damage[0]] = p.damage[1];
        if (p.rule) breakRule(w, i * 10, p.rule);
      });
      return backed(w, rec.backing, post);
    }
    case 'forged': {
      const real = api.parseFen(rec.fen);
      const packed = Uint8Array.prototype.slice.call(new Uint8Array(real.packed.buffer)).buffer;
      const words = new BigUint64Array(packed);
      if (rec.how === 'packedOnly') return { packed: words };
      if (rec.how === 'proxy') return new Proxy(real, {});
      const copy = {};
      for (const key of Reflect.ownKeys(real)) copy[key] = real[key];
      copy.packed = words;
      if (rec.how === 'brandCopyChanged') {
        words[rec.word] = rec.value;
        copy.white = rec.value;
      }
      return rec.how === 'frozenCopy' ? Object.freeze(copy) : copy;
    }
    case 'batch': {
      const B = api.PositionBatch;
      if (rec.how === 'fromFens') return B.fromFens(rec.fens, rec.options);
      const w = new BigUint64Array(rec.words.length * 10);
      rec.words.forEach((p, i) => {
        w.set(packedOf(api, p.fen), i * 10);
        if (p.damage) w[i * 10 + p.damage[0]] = p.damage[1];
        if (p.rule) breakRule(w, i * 10, p.rule);
      });
      if (rec.how === 'fromPacked') return B.fromPacked(w);
      if (rec.how === 'fromPackedValid') return B.fromPacked(w, new Uint8Array(rec.words.length).fill(1));
      const real = B.fromPacked(w);
      if (rec.how === 'forged') {
        const copy = {};
        for (const key of Reflect.ownKeys(real)) copy[key] = real[key];
        return copy;
      }
      if (rec.how === 'reshaped') {
        try { real.length = real.length + 1 + rec.n; } catch { /* frozen: fine */ }
        try { real.valid = new Uint8Array(real.length); } catch { /* frozen: fine */ }
        return real;
      }
      structuredClone(w.buffer, { transfer: [w.buffer] });  // detachedAfter
      return real;
    }
    case 'array': return rec.items.map((item) => materialize(item, api, post));
    case 'object': return Object.fromEntries(rec.entries.map(([k, v]) => [k, materialize(v, api, post)]));
    case 'signal': {
      if (rec.how === 'aborted') return AbortSignal.abort(new Error('fuzz abort'));
      if (rec.how === 'fake') return { aborted: false, addEventListener() {}, removeEventListener() {} };
      const c = new AbortController();
      if (rec.how === 'abortAfterCall') post.push(() => c.abort(new Error('fuzz abort')));
      return c.signal;
    }
    case 'lyingArray': {
      const Ctor = globalThis[rec.type];
      const real = fillTyped(rec.type, rec.length, 'squares', rec.length);
      if (rec.how === 'subclass') {
        const claim = rec.claim;
        const Liar = class extends Ctor { get length() { return claim; } };
        const liar = new Liar(rec.length);
        liar.set(real);
        return liar;
      }
      if (rec.how === 'ownProperty') {
        Object.defineProperty(real, 'length', { value: rec.claim });
        return real;
      }
      return new Proxy(real, { get: (t, k) => (k === 'length' ? rec.claim : Reflect.get(t, k)) });
    }
    case 'throwingGetters': {
      const o = {};
      for (const k of ['length', 'packed', 'threads', 'signal', 'from', 'to', 'valid', 'words', 'epd', 'white']) {
        Object.defineProperty(o, k, { get() { throw new Error('fuzz getter threw'); }, enumerable: true });
      }
      return o;
    }
    default: throw new Error(`unknown recipe ${rec.kind}`);
  }
}

const kindOf = (rec) => (rec.kind === 'typed' ? `${rec.type}${rec.backing === 'plain' ? '' : `/${rec.backing}`}`
  : rec.kind === 'packedWords' ? `packedWords${rec.positions.some((p) => p.damage) ? '/damaged' : ''}${rec.positions.some((p) => p.rule) ? '/fenRule' : ''}${rec.backing === 'plain' ? '' : `/${rec.backing}`}`
  : rec.kind === 'forged' ? `forged/${rec.how}` : rec.kind === 'batch' ? `batch/${rec.how}` : rec.kind === 'lyingArray' ? `lying/${rec.how}`
  : rec.kind === 'signal' ? `signal/${rec.how}` : rec.kind === 'number' ? (Number.isInteger(rec.value) && rec.value >= 0 && rec.value < 64 ? 'int' : `number:${rec.value}`)
  : rec.kind === 'bigint' ? (rec.value >= 0n && rec.value < 2n ** 64n ? 'bigint' : 'bigint/out-of-range') : rec.kind);

// ---------------------------------------------------------------- outcomes

const INTERNAL = [/Cannot convert/, /Cannot mix BigInt/, /detached ArrayBuffer/, /is not a function/, /Cannot read propert/,
  /Cannot set propert/, /is not iterable/, /Invalid typed array length/, /Maximum call stack/, /Invalid array length/,
  /Array buffer allocation failed/, /is not a constructor/, /Cannot perform/, /undefined is not/, /null is not/,
  /Cannot create property/, /Cannot mix BigInt/, /to a BigInt/, /BigInt value/, /out of memory/i, /Invalid atomic/, /offset is out of bounds/, /Reflect\./,
  /Cannot access/, /Cannot destructure/, /object is not extensible/, /read[- ]only/, /Invalid count value/];

function digest(s) {
  return s.length > 200 ? `#${createHash('sha1').update(s).digest('hex').slice(0, 16)}` : s;
}

function sig(v, depth = 0) {
  if (depth > 5) return '…';
  switch (typeof v) {
    case 'bigint': return `${v}n`;
    case 'number': return Object.is(v, -0) ? '-0' : String(v);
    case 'string': return digest(JSON.stringify(v));
    case 'undefined': case 'boolean': return String(v);
    case 'symbol': return 'symbol';
    case 'function': return `fn ${v.name}`;
    default: break;
  }
  if (v === null) return 'null';
  try {
    if (ArrayBuffer.isView(v)) {
      const bytes = v.buffer.byteLength === 0 && v.byteLength === 0 ? '' : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
      return `${v.constructor.name}(${v.length}):${digest(bytes)}`;
    }
    if (v instanceof ArrayBuffer) return `ArrayBuffer:${digest(Buffer.from(v).toString('hex'))}`;
    if (Array.isArray(v)) return digest(`[${v.slice(0, 2000).map((x) => sig(x, depth + 1)).join(',')}${v.length > 2000 ? `,+${v.length - 2000}` : ''}]`);
    if (v instanceof Error) return `${v.constructor.name}`;
    if (v instanceof Map) return digest(`Map{${[...v].map(([k, x]) => `${sig(k, depth + 1)}=>${sig(x, depth + 1)}`).sort().join(',')}}`);
    if (v instanceof Set) return digest(`Set{${[...v].map((x) => sig(x, depth + 1)).sort().join(',')}}`);
    const keys = Object.keys(v).sort();
    return digest(`${v.constructor?.name ?? 'Object'}{${keys.map((k) => `${k}:${sig(v[k], depth + 1)}`).join(',')}}`);
  } catch (e) {
    return `unreadable(${e?.constructor?.name})`;
  }
}

/** One call's outcome: { cls, detail, internal } (cls compared across backends). */
async function outcome(call, args, post, name) {
  let value;
  try {
    value = call(...args);
    for (const f of post) f();
    if (value && typeof value.then === 'function') value = await value;
  } catch (e) {
    const name = e?.constructor?.name ?? typeof e;
    const message = e instanceof Error ? e.message : String(e);
    // The library's own messages start with the function's name ("perft: depth must ..."); an
    // engine or Node message (or a Node ERR_* code) reaching the caller is a failure.
    const own = /^[\w.]+: /.test(message) && !/^(TypeError|RangeError|Error): /.test(message);
    const internal = e instanceof Error && !['fuzz abort', 'fuzz callback threw', 'fuzz getter threw'].includes(e.message) &&
      ((!own && INTERNAL.some((re) => re.test(message))) || /^ERR_/.test(String(e.code ?? '')));
    return { cls: `throws ${name}`, detail: message.slice(0, 160), internal };
  }
  // Writes into array arguments count as part of the result (out parameters).
  // legalMovesEncoded lists the moves in each backend's own order (documented): compared as sets.
  const unordered = name === 'legalMovesEncoded';
  if (unordered && ArrayBuffer.isView(value)) value = value.slice().sort();
  const writes = unordered ? '' : args.map((a) => (ArrayBuffer.isView(a) && !types.isProxy(a) ? sig(a) : '')).join('|');
  const s = sig(value);
  return { cls: 'returns', detail: `${s.slice(0, 160)}`, value: `${s}//${writes}`, internal: false };
}

// ---------------------------------------------------------------- the functions

function paramNames(fn) {
  const src = Function.prototype.toString.call(fn);
  const m = /^(?:async\s+)?(?:function\s*\*?\s*[\w$]*|[\w$]+)?\s*\(([^)]*)\)/.exec(src) ?? /^\(?([\w$\s,]*)\)?\s*=>/.exec(src);
  if (!m) return [];
  return m[1].split(',').map((p) => p.trim().replace(/\s*=.*$/, '').replace(/^\.\.\./, '')).filter(Boolean);
}

/** Every callable of a module namespace: [name, (ns) => the callable, params, isConstructor]. */
function callables(ns) {
  const out = [];
  for (const [name, v] of Object.entries(ns)) {
    if (typeof v === 'function') {
      const isClass = /^class\b/.test(Function.prototype.toString.call(v));
      if (isClass) {
        out.push([`new ${name}`, (m) => (...a) => new m[name](...a), paramNames(v), true]);
        for (const s of Object.getOwnPropertyNames(v)) {
          if (typeof v[s] === 'function' && !['length', 'name', 'prototype'].includes(s)) {
            out.push([`${name}.${s}`, (m) => (...a) => m[name][s](...a), paramNames(v[s]), false]);
          }
        }
      } else {
        out.push([name, (m) => m[name], paramNames(v), false]);
      }
    } else if (name === 'variants' && v && typeof v === 'object') {
      for (const [k, f] of Object.entries(v)) if (typeof f === 'function') out.push([`variants.${k}`, (m) => m.variants[k], paramNames(f), false]);
    }
  }
  return out;
}

// Functions whose cost grows with an argument: bounded here (documented in the report).
function bounded(name, args) {
  if (/perft/i.test(name)) return args.map((a) => (typeof a === 'number' && Number.isInteger(a) && a > 3 && a <= 20 ? 2 : a));
  // A number is a file descriptor to fs: fd 0-2 would block on or write into the harness's pipes.
  if (/\.load$/.test(name)) return args.map((a) => (typeof a === 'number' && a >= 0 && a <= 2 ? 1e6 : a));
  return args;
}

// ---------------------------------------------------------------- one case

async function runCase(mods, list, seed, index, show) {
  const r = prng(seed, index);
  const [name, , params, isCtor] = list[r.int(list.length)];
  // KbnkTablebase.generate builds the whole table (about a second in JS): one case in 200 reaches it.
  if (name === 'KbnkTablebase.generate' && !r.chance(0.005)) return null;
  let arity = params.length;
  if (r.chance(0.1)) arity = Math.max(0, arity + r.pick([-1, 1, 2]));
  const recipes = Array.from({ length: arity }, (_, i) => (i < params.length ? paramRecipe(r, name, params[i]) : anyRecipe(r)));
  const outcomes = [];
  for (const [label, m] of mods) {
    const entry = list.find((e) => e[0] === name);
    let args, post = [];
    try {
      args = bounded(name, recipes.map((rec) => materialize(rec, m, post)));
    } catch (e) {
      outcomes.push([label, { cls: 'setup failed', detail: String(e), internal: false }]);
      continue;
    }
    const fn = entry[1](m);
    if (typeof fn !== 'function') continue;  // variants differ per backend
    outcomes.push([label, await outcome(fn, args, post, name)]);
  }
  const base = outcomes.find(([l]) => l === 'js')?.[1];
  const internal = outcomes.filter(([, o]) => o.internal).map(([l]) => l);
  const differs = outcomes.filter(([l, o]) => l !== 'js' && base && (o.cls !== base.cls || (o.cls === 'returns' && o.value !== base.value))).map(([l]) => l);
  const problems = [];
  if (differs.length) problems.push(`${differs.join('+')} differs from js`);
  if (internal.length) problems.push(`engine message (${internal.join('+')})`);
  if (show) {
    console.log(`case ${index}: ${name}(${recipes.map((rec) => JSON.stringify(rec, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))).join(', ')})`);
    for (const [label, o] of outcomes) console.log(`  ${label}: ${o.cls} ${o.detail}`);
  }
  return { name, kinds: recipes.map(kindOf).join(', '), outcomes: outcomes.map(([l, o]) => [l, o.cls, o.detail]), problems, isCtor };
}

async function loadModules() {
  const load = (f) => import(pathToFileURL(join(dist, f)).href);
  const [nat, js, facade] = await Promise.all([load('native-entry.js'), load('js-entry.js'), load('index.js')]);
  // The wasm entry throws at import when the module is not built: then it is left out (said once).
  const wasm = await load('wasm-entry.js').catch((e) => {
    if (process.env.BITBOARD_PATTERNS_REQUIRE_WASM === '1') throw e;
    if (!argv.includes('--child')) console.log(`fuzz: no wasm entry (${e.message.split('\n')[0]})`);
    return null;
  });
  const mods = [['js', js], ['native', nat], ...(wasm ? [['wasm', wasm]] : []), ['facade', facade]];
  // Callables: the union over the entries (a function one of them lacks shows as 'missing').
  const seen = new Map();
  for (const [, ns] of mods) for (const e of callables(ns)) if (!seen.has(e[0])) seen.set(e[0], e);
  return { mods, list: [...seen.values()].sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
}

// ---------------------------------------------------------------- child: a batch of cases

async function child() {
  const seed = opt('seed');
  const from = Number(opt('from'));
  const count = Number(opt('count'));
  const { mods, list } = await loadModules();
  const write = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  write({ type: 'functions', count: list.length });
  for (let i = from; i < from + count; i++) {
    write({ type: 'start', index: i });
    const res = await runCase(mods, list, seed, i, false);
    if (res) write({ type: 'done', index: i, ...res });
    else write({ type: 'skip', index: i });
  }
  write({ type: 'end' });
}

// ---------------------------------------------------------------- parent

function runChild(seed, from, count) {
  return new Promise((resolvePromise) => {
    const p = spawn(process.execPath, ['--max-old-space-size=1536', fileURLToPath(import.meta.url), '--child', '--seed', String(seed),
      '--from', String(from), '--count', String(count), '--dist', dist], { stdio: ['ignore', 'pipe', 'pipe'] });
    const results = [];
    let current = null, functions = 0, ended = false, buf = '', stderr = '';
    let timer = null;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { p.kill('SIGKILL'); }, CASE_TIMEOUT_MS);
    };
    arm();
    p.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let m;
        try { m = JSON.parse(line); } catch { continue; }
        if (m.type === 'functions') functions = m.count;
        else if (m.type === 'start') { current = m.index; arm(); }
        else if (m.type === 'done' || m.type === 'skip') { results.push(m); current = null; }
        else if (m.type === 'end') ended = true;
      }
    });
    p.stderr.on('data', (d) => { if (stderr.length < 20000) stderr += d; });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ results, functions, crashed: !ended ? { code, signal, index: current, stderr: stderr.slice(-4000) } : null, nextFrom: current === null ? from + count : current + 1 });
    });
  });
}

async function parent() {
  const seconds = Number(opt('seconds', '60'));
  const seed = opt('seed', String(Math.floor(Math.random() * 2 ** 31)));
  const batch = Number(opt('batch', '400'));
  const maxShow = Number(opt('max-show', '40'));
  const one = opt('case');
  if (one !== undefined) {
    const { mods, list } = await loadModules();
    const res = await runCase(mods, list, seed, Number(one), true);
    if (!res) console.log(`case ${one}: skipped (KbnkTablebase.generate not drawn)`);
    process.exit(res && res.problems.length ? 1 : 0);
  }
  console.log(`fuzz: seed ${seed}, ${seconds} s, dist ${dist}`);
  const started = Date.now();
  let from = 0, calls = 0, cases = 0, functions = 0;
  const classes = new Map();
  const groups = new Map();  // "fn | problem | arg kinds" -> { count, first case, outcomes }
  const crashes = [];
  const called = new Set();
  while ((Date.now() - started) / 1000 < seconds) {
    const res = await runChild(seed, from, batch);
    functions = res.functions || functions;
    for (const m of res.results) {
      if (m.type !== 'done') continue;
      cases++;
      calls += m.outcomes.length;
      called.add(m.name);
      for (const [, cls] of m.outcomes) classes.set(cls, (classes.get(cls) ?? 0) + 1);
      for (const problem of m.problems) {
        const key = `${m.name} | ${problem} | ${m.kinds}`;
        const g = groups.get(key);
        if (g) g.count++;
        else groups.set(key, { count: 1, index: m.index, outcomes: m.outcomes });
      }
    }
    if (res.crashed) {
      crashes.push(res.crashed);
      const hang = res.crashed.signal === 'SIGKILL';
      console.log(`${hang ? `HANG (no answer in ${CASE_TIMEOUT_MS / 1000} s)` : 'CRASH'} in case ${res.crashed.index} (exit ${res.crashed.code}, signal ${res.crashed.signal}): reproduce with npm run fuzz -- --seed ${seed} --case ${res.crashed.index}`);
      if (res.crashed.stderr) console.log(res.crashed.stderr.split('\n').slice(-15).join('\n'));
    }
    from = res.nextFrom;
    if (res.results.length === 0 && !res.crashed) break;
  }
  const elapsed = (Date.now() - started) / 1000;
  console.log(`seed ${seed}: ${cases} cases, ${calls} calls in ${elapsed.toFixed(1)} s, ${called.size} of ${functions} callables reached`);
  console.log('outcome classes:');
  for (const [cls, n] of [...classes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(8)}  ${cls}`);
  const byFunction = new Map();
  for (const [key, g] of groups) {
    const fn = key.split(' | ')[0];
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + g.count);
  }
  const total = [...groups.values()].reduce((s, g) => s + g.count, 0);
  console.log(`disagreements and engine-internal messages: ${total} cases in ${groups.size} groups (function | problem | argument kinds), ${byFunction.size} functions`);
  let shown = 0;
  for (const [key, g] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (shown++ >= maxShow) {
      console.log(`  ... ${groups.size - maxShow} more groups (--max-show)`);
      break;
    }
    const outs = g.outcomes.map(([l, cls, detail]) => `${l}: ${cls}${detail ? ` (${detail.slice(0, 90)})` : ''}`).join('; ');
    console.log(`  ${g.count}x ${key}\n      ${outs}\n      npm run fuzz -- --seed ${seed} --case ${g.index}`);
  }
  // The most hostile kind among a case's arguments names its family.
  const family = (kinds) => (/lying/.test(kinds) ? 'lying length' : /forged\//.test(kinds) ? 'forged Position'
    : /batch\/(forged|reshaped|detachedAfter)/.test(kinds) ? 'forged/reshaped/detached batch' : /detached/.test(kinds) ? 'detached array'
    : /signal/.test(kinds) ? 'abort signal' : /out-of-range|symbol/.test(kinds) ? 'bigint out of range / symbol'
    : /shared/.test(kinds) ? 'SharedArrayBuffer' : 'wrong type / missing / other');
  const families = new Map();
  for (const [key, g] of groups) {
    const [fn, problem, kinds] = key.split(' | ');
    const k = `${fn} | ${problem.replace(/\(.*\)/, '')} | ${family(kinds ?? '')}`;
    const f = families.get(k);
    if (f) f.count += g.count;
    else families.set(k, { count: g.count, index: g.index });
  }
  console.log('by function, problem and argument family (cases, one reproducer):');
  for (const [k, f] of [...families].sort((a, b) => (a[0] < b[0] ? -1 : 1))) console.log(`  ${String(f.count).padStart(5)}  ${k}   --case ${f.index}`);
  console.log(`crashes: ${crashes.length}`);
  process.exit(total > 0 || crashes.length > 0 ? 1 : 0);
}

if (argv.includes('--child')) await child();
else await parent();
