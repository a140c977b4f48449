/**
 * Brute-force references for sliders, positions, checks and pins. Everything is computed square by
 * square from (file, rank) coordinates on a plain 64-cell board of this file's own, with its own FEN
 * reader and writer; nothing here calls the library.
 *
 * - Sliders walk their rays one square at a time.
 * - Attackers: every piece's move pattern is tried against the target square.
 * - Pins: take the piece away and look whether an enemy slider on that line now sees the king.
 * - Discovered-check candidates: take the piece away and look whether a slider of its colour now
 *   sees the enemy king.
 * - checkKind: play the move on a copy of the board and compare the checkers after it by origin.
 */
import {
  ALL_SQUARES_LIST, FULL, bit, chebyshev, fileOf, has, onBoard, rankOf, squareAt, squaresIn,
} from './reference.js';
import { placementOf } from '../core/fen-writer.js';
import { DECLARATIONS, type Declaration } from '../../lib/api/declarations.js';

/**
 * The public functions of these topics (facade names), read from the declarations:
 * test/patterns/properties.test.ts leaves them to test/patterns/properties-checks.test.ts, which
 * compares every one of them across the backends.
 */
export const CHECK_TOPICS = ['sliders', 'positions', 'checks', 'outcome', 'polyglot'] as const;
export const CHECK_TOPIC_FUNCTIONS: readonly string[] = Object.entries(DECLARATIONS as Record<string, Declaration>)
  .filter(([, d]) => (CHECK_TOPICS as readonly string[]).includes(d.topic)).map(([name]) => name);

// ------------------------------------------------------------------ rays and lines

/** (file, rank) steps in the order of RAY_DIRECTIONS: nort, noEa, east, soEa, sout, soWe, west, noWe. */
export const RAY_STEPS = [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]] as const;
export const ROOK_DIRS = [0, 2, 4, 6];
export const BISHOP_DIRS = [1, 3, 5, 7];

/** Squares from `from` (excluded) in one direction: every square up to and including the first in `occupied`. */
export function walk(from: number, dir: number, occupied: bigint): bigint {
  const [df, dr] = RAY_STEPS[dir]!;
  let f = fileOf(from) + df;
  let r = rankOf(from) + dr;
  let set = 0n;
  while (onBoard(f, r)) {
    const s = squareAt(f, r);
    set |= bit(s);
    if (has(occupied, s)) break;
    f += df;
    r += dr;
  }
  return set;
}

const walkAll = (from: number, dirs: number[], occupied: bigint): bigint =>
  dirs.reduce((acc, d) => acc | walk(from, d, occupied), 0n);

export const rookRef = (sq: number, occ: bigint): bigint => walkAll(sq, ROOK_DIRS, occ);
export const bishopRef = (sq: number, occ: bigint): bigint => walkAll(sq, BISHOP_DIRS, occ);
export const queenRef = (sq: number, occ: bigint): bigint => rookRef(sq, occ) | bishopRef(sq, occ);

/** Each slider walks `dir` while the squares are empty; the first non-empty square is included. */
export function rayAttacksRef(dir: number, sliders: bigint, empty: bigint): bigint {
  let set = 0n;
  for (const s of squaresIn(sliders)) set |= walk(s, dir, ~empty & FULL);
  return set;
}

/**
 * X-ray by walking: along each ray, when the first piece met is in `blockers`, the squares behind it
 * up to and including the next piece; nothing for that ray otherwise.
 */
export function xrayRef(occ: bigint, blockers: bigint, sq: number, dirs: number[]): bigint {
  let set = 0n;
  for (const d of dirs) {
    const [df, dr] = RAY_STEPS[d]!;
    let f = fileOf(sq) + df;
    let r = rankOf(sq) + dr;
    let passed = false;
    while (onBoard(f, r)) {
      const s = squareAt(f, r);
      if (passed) set |= bit(s);
      if (has(occ, s)) {
        if (passed || !has(blockers, s)) break;
        passed = true;
      }
      f += df;
      r += dr;
    }
  }
  return set;
}

/** Direction index from a to b when they share a line, else -1 (also for a === b). */
export function directionOf(a: number, b: number): number {
  const df = fileOf(b) - fileOf(a);
  const dr = rankOf(b) - rankOf(a);
  if (a === b || !(df === 0 || dr === 0 || Math.abs(df) === Math.abs(dr))) return -1;
  return RAY_STEPS.findIndex(([sf, sr]) => sf === Math.sign(df) && sr === Math.sign(dr));
}

export function betweenRef(a: number, b: number): bigint {
  const d = directionOf(a, b);
  if (d < 0) return 0n;
  const [df, dr] = RAY_STEPS[d]!;
  let set = 0n;
  for (let f = fileOf(a) + df, r = rankOf(a) + dr; squareAt(f, r) !== b; f += df, r += dr) set |= bit(squareAt(f, r));
  return set;
}

/** Every square collinear with a and b (by the cross product), when they share a rank, file or diagonal. */
export function lineRef(a: number, b: number): bigint {
  if (directionOf(a, b) < 0) return 0n;
  const [fa, ra, fb, rb] = [fileOf(a), rankOf(a), fileOf(b), rankOf(b)];
  let set = 0n;
  for (const s of ALL_SQUARES_LIST) {
    if ((fileOf(s) - fa) * (rb - ra) === (rankOf(s) - ra) * (fb - fa)) set |= bit(s);
  }
  return set;
}

// ------------------------------------------------------------------ the board

export const PAWN = 0, KNIGHT = 1, BISHOP = 2, ROOK = 3, QUEEN = 4, KING = 5;
export interface Piece { color: 0 | 1; type: number }
export interface Board {
  cells: (Piece | null)[];
  side: 0 | 1;
  castling: number; // 1 K, 2 Q, 4 k, 8 q
  ep: number; // -1 when none
  halfmove: number;
  fullmove: number;
}

const LETTERS = 'pnbrqk';

/** Reads a well-formed FEN (no validation: test inputs only). Four-field FENs get 0 and 1. */
export function boardFromFen(fen: string): Board {
  const [placement, side, castling, ep, half = '0', full = '1'] = fen.trim().split(/\s+/);
  const cells: (Piece | null)[] = new Array(64).fill(null);
  placement!.split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        cells[squareAt(file, 7 - i)] = { color: ch === ch.toUpperCase() ? 0 : 1, type: LETTERS.indexOf(ch.toLowerCase()) };
        file++;
      }
    }
  });
  let rights = 0;
  for (const ch of castling!) rights |= ({ K: 1, Q: 2, k: 4, q: 8 } as Record<string, number>)[ch] ?? 0;
  const epSq = ep === '-' ? -1 : squareAt('abcdefgh'.indexOf(ep![0]!), Number(ep![1]) - 1);
  return { cells, side: side === 'w' ? 0 : 1, castling: rights, ep: epSq, halfmove: Number(half), fullmove: Number(full) };
}

const sqName = (s: number): string => `${'abcdefgh'[fileOf(s)]}${rankOf(s) + 1}`;

export function fenFromBoard(b: Board): string {
  const placement = placementOf(b.cells.map((p) => (p ? (p.color === 0 ? LETTERS[p.type]!.toUpperCase() : LETTERS[p.type]) : '')));
  const c = ['K', 'Q', 'k', 'q'].filter((_, i) => b.castling & (1 << i)).join('') || '-';
  return `${placement} ${b.side ? 'b' : 'w'} ${c} ${b.ep < 0 ? '-' : sqName(b.ep)} ${b.halfmove} ${b.fullmove}`;
}

export const cloneBoard = (b: Board): Board => ({ ...b, cells: b.cells.slice() });

export function occupiedRef(b: Board): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => { if (p) set |= bit(s); });
  return set;
}

export function colorSetRef(b: Board, color: number): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => { if (p && p.color === color) set |= bit(s); });
  return set;
}

export function typeSetRef(b: Board, type: number): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => { if (p && p.type === type) set |= bit(s); });
  return set;
}

export function kingSquare(b: Board, color: number): number {
  return b.cells.findIndex((p) => p !== null && p.color === color && p.type === KING);
}

// ------------------------------------------------------------------ attacks by move pattern

const KNIGHT_JUMPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, 2], [-2, 1], [-2, -1], [-1, -2]] as const;

/** Does a piece of this kind on `from` attack `to`, with sliders blocked by `occupied`? */
export function pieceAttacks(p: Piece, from: number, to: number, occupied: bigint): boolean {
  const df = fileOf(to) - fileOf(from);
  const dr = rankOf(to) - rankOf(from);
  switch (p.type) {
    case PAWN: return Math.abs(df) === 1 && dr === (p.color === 0 ? 1 : -1);
    case KNIGHT: return KNIGHT_JUMPS.some(([f, r]) => f === df && r === dr);
    case KING: return from !== to && chebyshev(from, to) === 1;
    default: {
      const d = directionOf(from, to);
      if (d < 0) return false;
      const diagonal = BISHOP_DIRS.includes(d);
      if (p.type === ROOK && diagonal) return false;
      if (p.type === BISHOP && !diagonal) return false;
      return (betweenRef(from, to) & occupied) === 0n;
    }
  }
}

/** Pieces of `byColor` (as they stand on the board) attacking sq, sliders blocked by `occupied`. */
export function attackersRef(b: Board, sq: number, byColor: number, occupied = occupiedRef(b)): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => {
    if (p && p.color === byColor && pieceAttacks(p, s, sq, occupied)) set |= bit(s);
  });
  return set;
}

export const checkersRef = (b: Board, color: number): bigint => attackersRef(b, kingSquare(b, color), 1 - color);

const isSlider = (p: Piece) => p.type === BISHOP || p.type === ROOK || p.type === QUEEN;

/** Enemy sliders that attack the king of `color` once the piece on `s` is taken away, but not before. */
function slidersSeenWithout(b: Board, s: number, kingColor: number, sliderColor: number): bigint {
  const k = kingSquare(b, kingColor);
  const occ = occupiedRef(b);
  let set = 0n;
  b.cells.forEach((p, from) => {
    if (!p || p.color !== sliderColor || !isSlider(p) || from === s) return;
    if (!pieceAttacks(p, from, k, occ) && pieceAttacks(p, from, k, occ & ~bit(s))) set |= bit(from);
  });
  return set;
}

/** The enemy slider pinning the piece on s to its own king, or -1. */
export function pinnerOf(b: Board, s: number): number {
  const p = b.cells[s];
  if (!p || p.type === KING) return -1;
  const seen = squaresIn(slidersSeenWithout(b, s, p.color, 1 - p.color));
  if (seen.length > 1) throw new Error('a piece with two pinners cannot exist');
  return seen.length ? seen[0]! : -1;
}

export function pinnedRef(b: Board, color: number): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => { if (p && p.color === color && pinnerOf(b, s) >= 0) set |= bit(s); });
  return set;
}

export function pinnersRef(b: Board, color: number): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => {
    if (p && p.color === color) {
      const pinner = pinnerOf(b, s);
      if (pinner >= 0) set |= bit(pinner);
    }
  });
  return set;
}

export function discoveredRef(b: Board, color: number): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => {
    if (p && p.color === color && slidersSeenWithout(b, s, 1 - color, color) !== 0n) set |= bit(s);
  });
  return set;
}

export function checkBlockRef(b: Board, color: number): bigint {
  const checkers = squaresIn(checkersRef(b, color));
  if (checkers.length !== 1) return 0n;
  const c = checkers[0]!;
  if (!isSlider(b.cells[c]!)) return 0n;
  return betweenRef(kingSquare(b, color), c);
}

export function pinRayRef(b: Board, s: number): bigint {
  const pinner = pinnerOf(b, s);
  if (pinner < 0) return FULL;
  return betweenRef(kingSquare(b, b.cells[s]!.color), pinner) | bit(pinner);
}

// ------------------------------------------------------------------ moves

export interface Move { from: number; to: number; promotion: number } // promotion: 0 none, 1 n, 2 b, 3 r, 4 q
export const uci = (m: Move): string => `${sqName(m.from)}${sqName(m.to)}${m.promotion ? ' nbrq'[m.promotion] : ''}`;

/** Castling: [right bit, king from, king to, rook from, rook to, squares that must be empty, squares the king crosses]. */
const CASTLES = [
  [1, 4, 6, 7, 5, [5, 6], [4, 5, 6]],
  [2, 4, 2, 0, 3, [1, 2, 3], [4, 3, 2]],
  [4, 60, 62, 63, 61, [61, 62], [60, 61, 62]],
  [8, 60, 58, 56, 59, [57, 58, 59], [60, 59, 58]],
] as const;

/** Every pseudo-legal move of the side to move (own king possibly left in check, castling through attacks). */
export function pseudoMoves(b: Board): Move[] {
  const moves: Move[] = [];
  const us = b.side;
  const occ = occupiedRef(b);
  const add = (from: number, to: number) => {
    const p = b.cells[from]!;
    if (p.type === PAWN && (rankOf(to) === 0 || rankOf(to) === 7)) {
      for (const promotion of [1, 2, 3, 4]) moves.push({ from, to, promotion });
    } else moves.push({ from, to, promotion: 0 });
  };
  b.cells.forEach((p, from) => {
    if (!p || p.color !== us) return;
    if (p.type === PAWN) {
      const dr = us === 0 ? 1 : -1;
      const f = fileOf(from);
      const r = rankOf(from);
      const one = squareAt(f, r + dr);
      if (!b.cells[one]) {
        add(from, one);
        const start = us === 0 ? 1 : 6;
        const two = squareAt(f, r + 2 * dr);
        if (r === start && !b.cells[two]) add(from, two);
      }
      for (const cf of [f - 1, f + 1]) {
        if (!onBoard(cf, r + dr)) continue;
        const to = squareAt(cf, r + dr);
        const target = b.cells[to];
        if ((target && target.color !== us) || to === b.ep) add(from, to);
      }
      return;
    }
    for (const to of ALL_SQUARES_LIST) {
      const target = b.cells[to];
      if (target && target.color === us) continue;
      if (pieceAttacks(p, from, to, occ)) add(from, to);
    }
  });
  for (const [right, kFrom, kTo, , , empty] of CASTLES) {
    if (!(b.castling & right)) continue;
    if (b.cells[kFrom]?.type !== KING || b.cells[kFrom]?.color !== us) continue;
    if (empty.every((s) => !b.cells[s])) moves.push({ from: kFrom, to: kTo, promotion: 0 });
  }
  return moves;
}

const castleOf = (b: Board, m: Move) => CASTLES.find(([right, kFrom, kTo]) =>
  m.from === kFrom && m.to === kTo && b.cells[kFrom]?.type === KING && (b.castling & right) !== 0);

/** The board after a pseudo-legal move, and the square of the moved piece (the rook when castling). */
export function applyMove(b: Board, m: Move): { after: Board; movedTo: number } {
  const after = cloneBoard(b);
  const p = b.cells[m.from]!;
  let movedTo = m.to;
  const castle = castleOf(b, m);
  if (p.type === PAWN && m.to === b.ep && !b.cells[m.to]) {
    after.cells[squareAt(fileOf(m.to), rankOf(m.from))] = null; // the pawn taken en passant
  }
  after.cells[m.from] = null;
  after.cells[m.to] = m.promotion ? { color: p.color, type: m.promotion } : p;
  if (castle) {
    const [, , , rFrom, rTo] = castle;
    after.cells[rTo] = after.cells[rFrom]!;
    after.cells[rFrom] = null;
    movedTo = rTo;
  }
  after.side = (1 - b.side) as 0 | 1;
  return { after, movedTo };
}

/** Legal: own king not attacked afterwards; castling also neither out of nor through check. */
export function isLegal(b: Board, m: Move): boolean {
  const us = b.side;
  const castle = castleOf(b, m);
  if (castle) {
    if (castle[6].some((s) => attackersRef(b, s, 1 - us) !== 0n)) return false;
  }
  const { after } = applyMove(b, m);
  return attackersRef(after, kingSquare(after, us), 1 - us) === 0n;
}

export function legalMovesRef(b: Board): Move[] {
  return pseudoMoves(b).filter((m) => isLegal(b, m));
}

/** By origin: a checker standing where the moved piece went is direct, any other is discovered. */
export function checkKindRef(b: Board, m: Move): 'none' | 'direct' | 'discovered' | 'double' {
  const { after, movedTo } = applyMove(b, m);
  const checkers = squaresIn(attackersRef(after, kingSquare(after, 1 - b.side), b.side));
  const direct = checkers.includes(movedTo);
  const discovered = checkers.some((s) => s !== movedTo);
  return direct && discovered ? 'double' : direct ? 'direct' : discovered ? 'discovered' : 'none';
}

// ------------------------------------------------------------------ random positions

/**
 * A random position the library must accept: one king each, not adjacent; up to `maxPieces` more
 * pieces per side, sliders favoured so that pins and discovered checks are common; no pawns on the
 * back ranks; the side not to move not in check; castling rights only where king and rook stand at
 * home; an en-passant square only right after a plausible double push.
 */
export function randomBoard(next: () => number, maxPieces = 7): Board {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  for (;;) {
    const cells: (Piece | null)[] = new Array(64).fill(null);
    const side = (next() < 0.5 ? 0 : 1) as 0 | 1;
    const home = next() < 0.3;
    const wk = home ? 4 : Math.floor(next() * 64);
    const bk = home && next() < 0.7 ? 60 : Math.floor(next() * 64);
    if (wk === bk || chebyshev(wk, bk) <= 1) continue;
    cells[wk] = { color: 0, type: KING };
    cells[bk] = { color: 1, type: KING };
    if (home) for (const s of [0, 7, 56, 63]) if (!cells[s] && next() < 0.6) cells[s] = { color: s < 8 ? 0 : 1, type: ROOK };
    for (const color of [0, 1] as const) {
      const n = Math.floor(next() * (maxPieces + 1));
      for (let i = 0; i < n; i++) {
        const type = pick([PAWN, PAWN, KNIGHT, BISHOP, BISHOP, ROOK, ROOK, QUEEN]);
        const s = Math.floor(next() * 64);
        if (cells[s] || (type === PAWN && (rankOf(s) === 0 || rankOf(s) === 7))) continue;
        cells[s] = { color, type };
      }
    }
    // Often a line from a king: a piece on it, a slider behind (pins, discovered checks, x-rays).
    if (next() < 0.6) {
      const kc = next() < 0.5 ? 0 : 1;
      const k = kc === 0 ? wk : bk;
      const dir = Math.floor(next() * 8);
      const [df, dr] = RAY_STEPS[dir]!;
      const d1 = 1 + Math.floor(next() * 3);
      const d2 = d1 + 1 + Math.floor(next() * 3);
      const at = (d: number) => (onBoard(fileOf(k) + df * d, rankOf(k) + dr * d) ? squareAt(fileOf(k) + df * d, rankOf(k) + dr * d) : -1);
      const mid = at(d1);
      const far = at(d2);
      if (mid >= 0 && far >= 0 && cells[mid]?.type !== KING && cells[far]?.type !== KING) {
        for (let d = 1; d < d2; d++) if (cells[at(d)]?.type !== KING) cells[at(d)] = null;
        cells[far] = { color: (next() < 0.75 ? 1 - kc : kc) as 0 | 1, type: dir % 2 === 0 ? pick([ROOK, QUEEN]) : pick([BISHOP, QUEEN]) };
        const midType = pick([PAWN, KNIGHT, BISHOP, ROOK, QUEEN]);
        if (!(midType === PAWN && (rankOf(mid) === 0 || rankOf(mid) === 7))) {
          cells[mid] = { color: (next() < 0.5 ? kc : 1 - kc) as 0 | 1, type: midType };
        }
      }
    }
    const b: Board = { cells, side, castling: 0, ep: -1, halfmove: Math.floor(next() * 50), fullmove: 1 + Math.floor(next() * 80) };
    if (attackersRef(b, kingSquare(b, 1 - side), side) !== 0n) continue;
    for (const [right, kFrom, , rFrom] of CASTLES) {
      const color = kFrom < 8 ? 0 : 1;
      if (cells[kFrom]?.type === KING && cells[kFrom]?.color === color && cells[rFrom]?.type === ROOK
        && cells[rFrom]?.color === color && next() < 0.8) b.castling |= right;
    }
    // En passant: the side not to move just pushed a pawn two squares (its start and middle squares are empty).
    const them = 1 - side;
    const pushed = ALL_SQUARES_LIST.filter((s) => {
      const p = cells[s];
      if (!p || p.type !== PAWN || p.color !== them || rankOf(s) !== (them === 0 ? 3 : 4)) return false;
      const mid = squareAt(fileOf(s), them === 0 ? 2 : 5);
      const start = squareAt(fileOf(s), them === 0 ? 1 : 6);
      return !cells[mid] && !cells[start];
    });
    if (pushed.length && next() < 0.7) {
      const s = pick(pushed);
      b.ep = squareAt(fileOf(s), them === 0 ? 2 : 5);
      b.halfmove = 0;
    }
    return b;
  }
}

/**
 * A random position with en-passant capture chances: a pawn of the side to move placed next to a
 * just-pushed enemy pawn, plus random pieces (often rooks and queens on that rank).
 */
export function randomEpBoard(next: () => number): Board {
  for (;;) {
    const side = (next() < 0.5 ? 0 : 1) as 0 | 1;
    const them = 1 - side;
    const rank = side === 0 ? 4 : 3; // where the pushed pawn stands
    const f = Math.floor(next() * 8);
    const cf = f + (next() < 0.5 ? -1 : 1);
    if (cf < 0 || cf > 7) continue;
    const b = randomBoard(next, 5);
    const pawnSq = squareAt(f, rank);
    const capSq = squareAt(cf, rank);
    const mid = squareAt(f, side === 0 ? 5 : 2);
    const start = squareAt(f, side === 0 ? 6 : 1);
    if ([pawnSq, capSq, mid, start].some((s) => b.cells[s]?.type === KING)) continue;
    b.cells[pawnSq] = { color: them as 0 | 1, type: PAWN };
    b.cells[capSq] = { color: side, type: PAWN };
    b.cells[mid] = null;
    b.cells[start] = null;
    b.side = side;
    b.ep = mid;
    b.halfmove = 0;
    // Castling rights may have lost their rook or king; drop the ones that no longer hold.
    for (const [right, kFrom, , rFrom] of CASTLES) {
      const color = kFrom < 8 ? 0 : 1;
      if (!(b.cells[kFrom]?.type === KING && b.cells[kFrom]?.color === color && b.cells[rFrom]?.type === ROOK
        && b.cells[rFrom]?.color === color)) b.castling &= ~right;
    }
    if (attackersRef(b, kingSquare(b, them), side) !== 0n) continue;
    return b;
  }
}

/** The game state after a legal move: en-passant square after a double push, castling rights lost. */
export function playMove(b: Board, m: Move): Board {
  const { after } = applyMove(b, m);
  const p = b.cells[m.from]!;
  after.ep = p.type === PAWN && Math.abs(m.to - m.from) === 16 ? (m.from + m.to) / 2 : -1;
  for (const [s, right] of [[4, 3], [7, 1], [0, 2], [60, 12], [63, 4], [56, 8]] as const) {
    if (m.from === s || m.to === s) after.castling &= ~right;
  }
  if (b.side === 1) after.fullmove++;
  after.halfmove = p.type === PAWN || b.cells[m.to] ? 0 : b.halfmove + 1;
  return after;
}
