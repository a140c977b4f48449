/**
 * hasInsufficientMaterial (and isInsufficientMaterial, both sides) on every backend against a brute-force truth written here: for small
 * pawnless material sets (and a pawn on the defending side), every placement of the pieces is tried
 * and the test asks whether any legal position is checkmate for the defending side (FIDE Laws of
 * Chess 5.2.2 / 9.6.2: "no series of legal moves" can mate). A side can mate when some position
 * with its material, or with less (pieces of either side captured), is mate; a pawn of the side
 * that mates counts as the queen it can promote to. The function's approximation (material and
 * bishop square colours, python-chess's and chessops') must agree on every set tried; chessops is
 * the live oracle on random positions.
 */
import { Chess } from 'chessops/chess';
import { parseFen as chessopsFen } from 'chessops/fen';
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { fenOfCells } from '../core/fen-writer.js';

// Piece letters as in FEN; upper case the side that tries to mate (white), lower case the defender.
type Material = { attacker: string; defender: string };

const KING_STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]] as const;
const KNIGHT_STEPS = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]] as const;
const ROOK_DIRS = KING_STEPS.slice(0, 4);
const BISHOP_DIRS = KING_STEPS.slice(4);
const file = (s: number) => s & 7;
const rank = (s: number) => s >> 3;
const at = (f: number, r: number) => (f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1);
const dark = (s: number) => (file(s) + rank(s)) % 2 === 0; // a1 is dark

/** Does the piece `p` (FEN letter) on `from` attack `to` on `board` (64 letters or '')? */
function attacks(board: string[], p: string, from: number, to: number): boolean {
  const t = p.toLowerCase();
  const df = file(to) - file(from), dr = rank(to) - rank(from);
  if (t === 'k') return Math.max(Math.abs(df), Math.abs(dr)) === 1;
  if (t === 'n') return (Math.abs(df) === 1 && Math.abs(dr) === 2) || (Math.abs(df) === 2 && Math.abs(dr) === 1);
  if (t === 'p') return Math.abs(df) === 1 && dr === (p === 'P' ? 1 : -1);
  const straight = df === 0 || dr === 0, diagonal = Math.abs(df) === Math.abs(dr);
  if (from === to || !((t === 'r' && straight) || (t === 'b' && diagonal) || (t === 'q' && (straight || diagonal)))) return false;
  const sf = Math.sign(df), sr = Math.sign(dr);
  for (let f = file(from) + sf, r = rank(from) + sr; at(f, r) !== to; f += sf, r += sr) if (board[at(f, r)]) return false;
  return true;
}
const isWhite = (p: string) => p !== '' && p === p.toUpperCase();
function attacked(board: string[], sq: number, byWhite: boolean): boolean {
  for (let s = 0; s < 64; s++) if (board[s] && isWhite(board[s]!) === byWhite && attacks(board, board[s]!, s, sq)) return true;
  return false;
}

/** The defender's (black's) moves on `board` as [from, to] pairs, pseudo-legal (promotion's piece irrelevant here). */
function blackMoves(board: string[]): [number, number][] {
  const out: [number, number][] = [];
  const target = (to: number) => to >= 0 && !(board[to] && !isWhite(board[to]!));
  for (let s = 0; s < 64; s++) {
    const p = board[s]!;
    if (!p || isWhite(p)) continue;
    const t = p;
    const steps = t === 'k' ? KING_STEPS : t === 'n' ? KNIGHT_STEPS : [];
    for (const [df, dr] of steps) { const to = at(file(s) + df, rank(s) + dr); if (target(to)) out.push([s, to]); }
    const dirs = t === 'r' ? ROOK_DIRS : t === 'b' ? BISHOP_DIRS : t === 'q' ? KING_STEPS : [];
    for (const [df, dr] of dirs) {
      for (let f = file(s) + df, r = rank(s) + dr; at(f, r) >= 0; f += df, r += dr) {
        const to = at(f, r);
        if (target(to)) out.push([s, to]);
        if (board[to]) break;
      }
    }
    if (t === 'p') {
      const one = s - 8;
      if (!board[one]) {
        out.push([s, one]);
        if (rank(s) === 6 && !board[s - 16]) out.push([s, s - 16]);
      }
      for (const df of [-1, 1]) { const to = at(file(s) + df, rank(s) - 1); if (to >= 0 && board[to] && isWhite(board[to]!)) out.push([s, to]); }
    }
  }
  return out;
}

/** Black to move is checkmated on `board` (assumed legal). */
function blackMated(board: string[]): boolean {
  const king = board.indexOf('k');
  if (!attacked(board, king, true)) return false;
  for (const [from, to] of blackMoves(board)) {
    const next = board.slice();
    next[to] = next[from]!;
    next[from] = '';
    if (!attacked(next, next[to] === 'k' ? to : king, true)) return false;
  }
  return true;
}

/**
 * Some legal position with this material (white's pieces, black's) has black to move and mated.
 * `darkBishops`: every bishop on a dark square (the one-colour sets of SETS). White's pieces are placed
 * first: black's can only block a check, never give one, so a placement of white's pieces that
 * does not check the black king is dropped there.
 */
function mateExists(m: Material, darkBishops = false): boolean {
  const pieces = [...m.attacker, ...m.defender];
  const pawnless = !m.defender.includes('p');
  // Board symmetries keep mates mates. Mirrors flip every square's colour, which keeps bishops on
  // one colour or on both: the defending king on a1-d4's triangle, or files a-d with a pawn. With
  // every bishop on dark squares only the colour-keeping turn by 180 degrees: ranks 1-4.
  const kingSquares = [...Array(64).keys()].filter((s) => (darkBishops ? rank(s) < 4
    : file(s) < 4 && (!pawnless || (rank(s) < 4 && rank(s) <= file(s)))));
  const board: string[] = new Array(64).fill('');
  let ks = 0;
  const place = (k: number): boolean => {
    if (k === m.attacker.length && !attacked(board, ks, true)) return false;
    if (k === pieces.length) return !attacked(board, board.indexOf('K'), false) && blackMated(board);
    const p = pieces[k]!;
    for (let s = 0; s < 64; s++) {
      if (board[s]) continue;
      if (p === 'p' && (rank(s) === 0 || rank(s) === 7)) continue;
      if (darkBishops && p.toLowerCase() === 'b' && !dark(s)) continue;
      board[s] = p;
      if (place(k + 1)) return true;
      board[s] = '';
    }
    return false;
  };
  for (ks of kingSquares) {
    board[ks] = 'k';
    for (let kw = 0; kw < 64; kw++) {
      if (kw === ks || attacks(board, 'K', kw, ks)) continue;
      board[kw] = 'K';
      if (place(0)) return true;
      board[kw] = '';
    }
    board[ks] = '';
  }
  return false;
}

/** Every material set reached from m by captures (either side's pieces removed). */
function reductions(m: Material): Material[] {
  const out = new Map<string, Material>();
  const walk = (a: string, d: string) => {
    out.set(`${a}/${d}`, { attacker: a, defender: d });
    for (let i = 0; i < a.length; i++) walk(a.slice(0, i) + a.slice(i + 1), d);
    for (let i = 0; i < d.length; i++) walk(a, d.slice(0, i) + d.slice(i + 1));
  };
  walk(m.attacker, m.defender);
  return [...out.values()];
}

const mateCache = new Map<string, boolean>();
/** White can mate with this material (bishop colours left free). */
function canMate(m: Material): boolean {
  const attacker = m.attacker.replace(/P/g, 'Q'); // a pawn promotes
  return reductions({ attacker, defender: m.defender }).some((r) => {
    const key = `${r.attacker}/${r.defender}`;
    if (!mateCache.has(key)) mateCache.set(key, mateExists(r));
    return mateCache.get(key)!;
  });
}

/** A random legal FEN with this material, bishops of each side on the given colours; white to move
 * unless black is in check (so the FEN is legal). null when the draw found none. */
function randomFen(m: Material, bishopsDark: boolean[], swap: boolean, next: () => number): string | null {
  for (let tries = 0; tries < 200; tries++) {
    const board: string[] = new Array(64).fill('');
    const letters = ['K', 'k', ...m.attacker, ...m.defender].map((p) => (swap ? (isWhite(p) ? p.toLowerCase() : p.toUpperCase()) : p));
    let b = 0;
    let ok = true;
    for (const p of letters) {
      let s = -1;
      for (let k = 0; k < 100 && s < 0; k++) {
        const c = Math.floor(next() * 64);
        if (board[c]) continue;
        if (p.toLowerCase() === 'p' && (rank(c) === 0 || rank(c) === 7)) continue;
        if (p.toLowerCase() === 'b' && dark(c) !== bishopsDark[b]) continue;
        s = c;
      }
      if (s < 0) { ok = false; break; }
      if (p.toLowerCase() === 'b') b++;
      board[s] = p;
    }
    if (!ok) continue;
    const wk = board.indexOf('K'), bk = board.indexOf('k');
    if (attacks(board, 'K', wk, bk)) continue;
    const whiteInCheck = attacked(board, wk, false), blackInCheck = attacked(board, bk, true);
    if (whiteInCheck && blackInCheck) continue;
    return fenOfCells(board, !blackInCheck);
  }
  return null;
}

// The material sets: [white's pieces, black's pieces, bishop colours in order of appearance
// (true = dark)].
// Sets with two or more bishops all on one colour are searched with every bishop on dark squares:
// a mate with them on light squares is, mirrored, one with them on dark squares.
const SETS: [string, string, boolean[]][] = [
  ['', '', []], ['N', '', []], ['B', '', [true]], ['N', 'n', []], ['N', 'b', [true]], ['N', 'r', []], ['N', 'q', []],
  ['N', 'p', []], ['B', 'n', [true]], ['B', 'b', [true, true]], ['B', 'b', [true, false]], ['B', 'r', [false]],
  ['B', 'q', [true]], ['B', 'p', [false]], ['NN', '', []], ['BB', '', [true, true]], ['BB', '', [false, true]], ['BN', '', [true]],
  ['R', '', []], ['P', '', []],
];

/** Truth for white (the side that tries to mate) in set [a, d, colours]. */
function truthCanMate(a: string, d: string, colours: boolean[]): boolean {
  const bishops = colours.length;
  const oneColour = bishops >= 2 && colours.every((c) => c === colours[0]);
  if (oneColour) {
    // Fewer bishops by captures keep one colour: the same search on every reduction.
    return reductions({ attacker: a.replace(/P/g, 'Q'), defender: d }).some((r) => {
      const key = `same:${r.attacker}/${r.defender}`;
      if (!mateCache.has(key)) mateCache.set(key, mateExists(r, true));
      return mateCache.get(key)!;
    });
  }
  return canMate({ attacker: a, defender: d });
}

describe.each(backends)('hasInsufficientMaterial and isInsufficientMaterial (%s)', (_name, api) => {
  it.each(SETS)('K%s v K%s: insufficient exactly when no mate exists (brute force)', (a, d, colours) => {
    const expected = !truthCanMate(a, d, colours);
    const next = rng(a.length * 131 + d.length * 17 + colours.filter(Boolean).length);
    for (let k = 0; k < 6; k++) {
      const fen = randomFen({ attacker: a, defender: d }, colours, false, next);
      expect(fen).not.toBeNull();
      expect(api.hasInsufficientMaterial(api.parseFen(fen!), 0), fen!).toBe(expected);
      // The same material with the colours swapped: black is the side that tries.
      const swapped = randomFen({ attacker: a, defender: d }, colours, true, next);
      expect(api.hasInsufficientMaterial(api.parseFen(swapped!), 1), swapped!).toBe(expected);
    }
  }, 120_000);

  it('agrees with chessops on random positions of few pieces', () => {
    const next = rng(35);
    const letters = 'NBRQPnbrqp';
    for (let k = 0; k < 400; k++) {
      const n = Math.floor(next() * 4);
      let a = '', d = '';
      for (let i = 0; i < n; i++) {
        const p = letters[Math.floor(next() * letters.length)]!;
        if (isWhite(p)) a += p; else d += p;
      }
      const colours = [...a + d].filter((p) => p.toLowerCase() === 'b').map(() => next() < 0.5);
      const fen = randomFen({ attacker: a, defender: d }, colours, false, next);
      if (!fen) continue;
      const oracle = Chess.fromSetup(chessopsFen(fen).unwrap()).unwrap();
      const pos = api.parseFen(fen);
      expect(api.hasInsufficientMaterial(pos, 0), fen).toBe(oracle.hasInsufficientMaterial('white'));
      expect(api.hasInsufficientMaterial(pos, 1), fen).toBe(oracle.hasInsufficientMaterial('black'));
      // The position's answer, as chessops' isInsufficientMaterial() gives it (both sides).
      expect(api.isInsufficientMaterial(pos), fen).toBe(oracle.isInsufficientMaterial());
      // The deprecated form answers for one side, as hasInsufficientMaterial does.
      expect(api.isInsufficientMaterial(pos, 0), fen).toBe(oracle.hasInsufficientMaterial('white'));
      expect(api.isInsufficientMaterial(pos, 1), fen).toBe(oracle.hasInsufficientMaterial('black'));
    }
  });

  it('refuses a non-Position and a bad colour', () => {
    expect(() => api.hasInsufficientMaterial({} as never, 0)).toThrow(TypeError);
    expect(() => api.hasInsufficientMaterial(api.parseFen('8/8/8/8/8/8/8/K1k5 w - - 0 1'), 2 as never)).toThrow(RangeError);
    expect(() => api.isInsufficientMaterial({} as never)).toThrow(TypeError);
    expect(() => api.isInsufficientMaterial({} as never, 0)).toThrow(TypeError);
    expect(() => api.isInsufficientMaterial(api.parseFen('8/8/8/8/8/8/8/K1k5 w - - 0 1'), 2 as never)).toThrow(RangeError);
  });
});
