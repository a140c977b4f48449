/**
 * KBNK: the wiki page's corner distance, the mop-up evaluation, and the distance-to-mate table (generated
 * by both backends, byte-identical), probed, checked move by move against chessops, saved and loaded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen as parseChessopsFen } from 'chessops/fen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE } from '../../lib/core/types.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import {
  KBNK_FILE_HEADER_SIZE, KbnkFileError, KbnkTablebase, crc32, kbnkIndex, kbnkMoves, type KbnkFileProblem,
} from '../../lib/tablebases/kbnk.js';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { fenOfCells } from '../core/fen-writer.js';
import { kbnkReferenceTable } from './reference-kbnk.js';

// ------------------------------------------------------------------------------ corner distance

/**
 * The wiki page's two 8x8 tables, as printed side by side (rank 8 at the top, file a on the left):
 * left = a light-squared bishop (corners a8, h1), right = a dark-squared one (corners a1, h8).
 */
const SEED_ROWS = [
  '0 1 2 3 4 5 6 7 7 6 5 4 3 2 1 0',
  '1 2 3 4 5 6 7 6 6 7 6 5 4 3 2 1',
  '2 3 4 5 6 7 6 5 5 6 7 6 5 4 3 2',
  '3 4 5 6 7 6 5 4 4 5 6 7 6 5 4 3',
  '4 5 6 7 6 5 4 3 3 4 5 6 7 6 5 4',
  '5 6 7 6 5 4 3 2 2 3 4 5 6 7 6 5',
  '6 7 6 5 4 3 2 1 1 2 3 4 5 6 7 6',
  '7 6 5 4 3 2 1 0 0 1 2 3 4 5 6 7',
].map((row) => row.split(' ').map(Number));
/** seedTable(light)[kingSq] */
const seedTable = (light: boolean) => {
  const t = new Array<number>(64);
  SEED_ROWS.forEach((row, i) => row.slice(light ? 0 : 8, light ? 8 : 16).forEach((v, f) => { t[(7 - i) * 8 + f] = v; }));
  return t;
};
const isLight = (sq: number) => (((sq & 7) + (sq >> 3)) & 1) === 1;
/** Plain reference: Manhattan distance to the nearer corner of the bishop's square colour. */
function cornerReference(bishop: number, king: number): number {
  const corners = isLight(bishop) ? [7, 56] : [0, 63];
  return Math.min(...corners.map((c) => Math.abs((c & 7) - (king & 7)) + Math.abs((c >> 3) - (king >> 3))));
}
const sqName = (sq: number) => 'abcdefgh'[sq & 7]! + String((sq >> 3) + 1);
const sqOf = (name: string) => 'abcdefgh'.indexOf(name[0]!) + 8 * (Number(name[1]) - 1);

describe.each(backends)('%s', (_name, api) => {
  describe('manhattanDistance', () => {
    it('is the file distance plus the rank distance, counted square by square, for all 64 x 64 pairs', () => {
      for (let a = 0; a < 64; a++) {
        for (let b = 0; b < 64; b++) {
          // Walk from a to b: one file step at a time, then one rank step at a time.
          let steps = 0, s = a;
          while (s % 8 !== b % 8) { s += s % 8 < b % 8 ? 1 : -1; steps++; }
          while (s !== b) { s += s < b ? 8 : -8; steps++; }
          expect(api.manhattanDistance(a, b), `${sqName(a)} ${sqName(b)}`).toBe(steps);
        }
      }
    });

    it('is 14 between opposite corners and 1 between neighbours on a file or rank', () => {
      expect(api.manhattanDistance(sqOf('a1'), sqOf('h8'))).toBe(14);
      expect(api.manhattanDistance(sqOf('h1'), sqOf('a8'))).toBe(14);
      expect(api.manhattanDistance(sqOf('e4'), sqOf('e5'))).toBe(1);
      expect(api.manhattanDistance(sqOf('e4'), sqOf('f5'))).toBe(2);
    });
  });

  describe('cornerDistance', () => {
    it('matches the wiki page\'s two tables and a plain reference for all 64 x 64 inputs', () => {
      const light = seedTable(true), dark = seedTable(false);
      for (let b = 0; b < 64; b++) {
        for (let k = 0; k < 64; k++) {
          const d = api.cornerDistance(b, k);
          expect(d, `${sqName(b)} ${sqName(k)}`).toBe((isLight(b) ? light : dark)[k]);
          expect(d).toBe(cornerReference(b, k));
        }
      }
    });

    it('is 0 in the bishop\'s corners: a1/h8 for dark squares, h1/a8 for light ones', () => {
      expect([0, 63].map((k) => api.cornerDistance(sqOf('c1'), k))).toEqual([0, 0]); // c1 is dark
      expect([7, 56].map((k) => api.cornerDistance(sqOf('f1'), k))).toEqual([0, 0]); // f1 is light
      expect(api.cornerDistance(sqOf('c1'), sqOf('h1'))).toBe(7);
      expect(api.cornerDistance(sqOf('e4'), sqOf('d4'))).toBe(7);
    });
  });

  describe('kbnkEval', () => {
    const formula = (k: number, b: number, w: number) => {
      const df = Math.abs((k & 7) - (w & 7)), dr = Math.abs((k >> 3) - (w >> 3));
      return (7 - cornerReference(b, w)) * 16 + (7 - Math.max(df, dr)) * 4 + (14 - df - dr);
    };

    it('is the documented formula, 0..154, independent of the knight', () => {
      let min = Infinity, max = -Infinity;
      for (let i = 0; i < 20000; i++) {
        const k = (i * 37) & 63, b = (i * 11 + (i >> 6)) & 63, n = (i * 5) & 63, w = (i * 29 + (i >> 3)) & 63;
        const v = api.kbnkEvalSquares(k, b, n, w);
        expect(v).toBe(formula(k, b, w));
        expect(api.kbnkEvalSquares(k, b, (n + 1) & 63, w)).toBe(v);
        min = Math.min(min, v); max = Math.max(max, v);
      }
      expect(min).toBeGreaterThanOrEqual(0);
      expect(max).toBeLessThanOrEqual(154);
      expect(api.kbnkEvalSquares(0, sqOf('c1'), 1, 0)).toBe(154); // both kings in the right corner (no legality check)
    });

    it('prefers the lone king in the bishop\'s corner over the wrong corner, and the kings close', () => {
      const b = sqOf('c1'); // dark: a1, h8
      expect(api.kbnkEvalSquares(sqOf('c3'), b, sqOf('e4'), sqOf('a1'))).toBeGreaterThan(api.kbnkEvalSquares(sqOf('f3'), b, sqOf('e4'), sqOf('h1')));
      expect(api.kbnkEvalSquares(sqOf('c3'), b, sqOf('e4'), sqOf('a1'))).toBeGreaterThan(api.kbnkEvalSquares(sqOf('e5'), b, sqOf('e4'), sqOf('a1')));
      // a step nearer the right corner outweighs any king-distance change
      expect(api.kbnkEvalSquares(sqOf('h8'), b, sqOf('e4'), sqOf('b1'))).toBeGreaterThan(api.kbnkEvalSquares(sqOf('c4'), b, sqOf('e4'), sqOf('c2')));
    });

    it('reads a Position of either colour, from the strong side\'s view', () => {
      const white = api.parseFen('8/8/8/8/8/8/2k5/KNB5 w - - 0 1');
      const black = api.parseFen('knb5/2K5/8/8/8/8/8/8 b - - 0 1');
      const v = api.kbnkEvalSquares(sqOf('a1'), sqOf('c1'), sqOf('b1'), sqOf('c2'));
      expect(api.kbnkEval(white)).toBe(v);
      expect(api.kbnkEval(black)).toBe(v);
      expect(() => api.kbnkEval(api.parseFen('8/8/8/8/8/8/2k5/KN5R w - - 0 1'))).toThrow(RangeError);
      expect(() => api.kbnkEval(api.parseFen('8/8/8/8/8/8/2k5/K6B w - - 0 1'))).toThrow(/not a KBNK position/);
      expect(() => api.kbnkEval('8/8/8/8/8/8/2k5/KNB5 w - - 0 1' as never)).toThrow(TypeError);
    });
  });
});

// ------------------------------------------------------------------------------ the table

const fenOf = (k: number, b: number, n: number, w: number, strongToMove: boolean) => {
  const board: string[] = new Array(64).fill('');
  board[k] = 'K'; board[b] = 'B'; board[n] = 'N'; board[w] = 'k';
  return fenOfCells(board, strongToMove);
};
const near = (a: number, b: number) => Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3))) <= 1;
/** Squares of table index i (strong side white, strong king in the triangle). */
const decode = (i: number) => ({
  strongToMove: i < KBNK_TABLE_SIZE / 2,
  k: KBNK_KING_TRIANGLE[Math.floor(i / 262144) % 10]!,
  b: (i >> 12) & 63,
  n: (i >> 6) & 63,
  w: i & 63,
});

let js: KbnkTablebase;
beforeAll(async () => {
  js = await KbnkTablebase.generate({ backend: 'js' });
});

describe('the generated table (JS)', () => {
  it('is byte for byte the table of the dedicated KBNK generator written for the test (test/tablebases/reference-kbnk.ts)', () => {
    const reference = kbnkReferenceTable();
    expect(Buffer.from(js.table).equals(Buffer.from(reference))).toBe(true);
  });

  it('has the longest mate of 33 moves: 65 plies with the strong side to move, 66 with the weak side', () => {
    const s = js.stats();
    expect(s.strongToMove.longestPlies).toBe(65);
    expect(s.weakToMove.longestPlies).toBe(66);
    expect(s.strongToMove.byMoves.length - 1).toBe(33);
    expect(s.weakToMove.byMoves.length - 1).toBe(33);
    // Karrer's statistics: 138 symmetry classes of wtm mate-in-33 positions, 8 positions each
    expect(s.strongToMove.byPlies[65]).toBe(138 * 8);
    let max = 0;
    for (const v of js.table) if (v < KBNK_DRAW && v > max) max = v;
    expect(max).toBe(66);
  });

  it('finds the OEIS A225556 position 8/8/8/8/8/8/2k5/KNB5 w a mate in 33', () => {
    expect(js.probe(jsApi.parseFen('8/8/8/8/8/8/2k5/KNB5 w - - 0 1'))).toEqual({ result: 'win', dtm: 33, plies: 65 });
  });

  it('counts every position of both sides to move, weighted by symmetry', () => {
    const s = js.stats();
    for (const side of [s.strongToMove, s.weakToMove]) {
      expect(side.wins + side.losses + side.draws).toBe(side.legal);
      expect(side.byPlies.reduce((a, c) => a + c, 0)).toBe(side.wins + side.losses);
      expect(side.byMoves.reduce((a, c) => a + c, 0)).toBe(side.wins + side.losses);
    }
    expect(s.strongToMove.losses).toBe(0);
    expect(s.weakToMove.wins).toBe(0);
    expect(s.strongToMove.byPlies.filter((_, v) => v % 2 === 0).every((c) => c === 0)).toBe(true);
    expect(s.weakToMove.byPlies.filter((_, v) => v % 2 === 1).every((c) => c === 0)).toBe(true);
    // by brute force over all 64^4 placements: the legal positions
    let legalStrong = 0, legalWeak = 0;
    for (let k = 0; k < 64; k++) for (let b = 0; b < 64; b++) for (let n = 0; n < 64; n++) for (let w = 0; w < 64; w++) {
      if (k === b || k === n || k === w || b === n || b === w || n === w || near(k, w)) continue;
      legalWeak++;
      if (js.value(true, k, b, n, w) !== KBNK_ILLEGAL) legalStrong++;
    }
    expect(s.weakToMove.legal).toBe(legalWeak);
    expect(s.strongToMove.legal).toBe(legalStrong);
  });

  it('marks exactly the illegal positions of the contract', () => {
    const reference = (i: number) => {
      const { strongToMove, k, b, n, w } = decode(i);
      if (new Set([k, b, n, w]).size < 4 || near(k, w)) return true;
      if (!strongToMove) return false;
      // strong side to move with the weak king in check
      const df = Math.abs((n & 7) - (w & 7)), dr = Math.abs((n >> 3) - (w >> 3));
      if (df * dr === 2) return true;
      const bf = (w & 7) - (b & 7), br = (w >> 3) - (b >> 3);
      if (bf === 0 || Math.abs(bf) !== Math.abs(br)) return false;
      for (let s = b + Math.sign(br) * 8 + Math.sign(bf); s !== w; s += Math.sign(br) * 8 + Math.sign(bf)) if (s === k || s === n) return false;
      return true;
    };
    let mismatches = 0;
    for (let i = 0; i < KBNK_TABLE_SIZE; i++) if ((js.table[i] === KBNK_ILLEGAL) !== reference(i)) mismatches++;
    expect(mismatches).toBe(0);
  });

  it('gives symmetric entries the same value (strong king on the a1-d4 diagonal)', () => {
    const transpose = (sq: number) => ((sq & 7) << 3) | (sq >> 3);
    for (let i = 0; i < KBNK_TABLE_SIZE; i += 13) {
      const { strongToMove, k, b, n, w } = decode(i);
      if (k % 9 !== 0) continue;
      expect(js.table[kbnkIndex(strongToMove, k, transpose(b), transpose(n), transpose(w))]).toBe(js.table[i]);
    }
  });

  it('satisfies the retrograde invariant against chessops moves on a random sample', () => {
    let seed = 12345;
    const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed; };
    let checked = 0;
    const kinds = { win: 0, loss: 0, draw: 0, mate: 0, stalemate: 0 };
    while (checked < 4000) {
      const i = rand() % KBNK_TABLE_SIZE;
      const v = js.table[i]!;
      if (v === KBNK_ILLEGAL) continue;
      const { strongToMove, k, b, n, w } = decode(i);
      const pos = Chess.fromSetup(parseChessopsFen(fenOf(k, b, n, w, strongToMove)).unwrap()).unwrap();
      const successors: number[] = []; // table values; KBNK_DRAW for a capture
      for (const [from, dests] of pos.allDests()) {
        for (const to of dests) {
          const after = pos.clone();
          after.play({ from, to });
          const moved = (sq: number) => (sq === from ? to : sq);
          if (!strongToMove && (to === b || to === n)) successors.push(KBNK_DRAW);
          else successors.push(js.value(!strongToMove, moved(k), moved(b), moved(n), moved(w)));
        }
      }
      const wins = successors.filter((x) => x !== KBNK_DRAW);
      const where = `${fenOf(k, b, n, w, strongToMove)} = ${v}, successors ${successors.join(',')}`;
      if (successors.length === 0) {
        if (pos.isCheck()) { expect(v, where).toBe(0); kinds.mate++; } else { expect(v, where).toBe(KBNK_DRAW); kinds.stalemate++; }
      } else if (v === KBNK_DRAW) {
        // strong: no move to a lost position; weak: a move that does not lose
        if (strongToMove) expect(wins, where).toEqual([]);
        else expect(successors.some((x) => x === KBNK_DRAW), where).toBe(true);
        kinds.draw++;
      } else if (strongToMove) {
        expect(v % 2, where).toBe(1);
        expect(Math.min(...wins), where).toBe(v - 1);
        kinds.win++;
      } else {
        expect(v % 2, where).toBe(0);
        expect(v, where).toBeGreaterThan(0);
        expect(successors.includes(KBNK_DRAW), where).toBe(false);
        expect(Math.max(...successors), where).toBe(v - 1);
        kinds.loss++;
      }
      checked++;
    }
    expect(kinds.win).toBeGreaterThan(100);
    expect(kinds.loss).toBeGreaterThan(100);
    expect(kinds.draw).toBeGreaterThan(10);
  });

  it('agrees with chessops on every checkmate and stalemate of the table', () => {
    let mates = 0;
    for (let i = KBNK_TABLE_SIZE / 2; i < KBNK_TABLE_SIZE; i++) {
      if (js.table[i] !== 0) continue;
      const { k, b, n, w } = decode(i);
      const pos = Chess.fromSetup(parseChessopsFen(fenOf(k, b, n, w, false)).unwrap()).unwrap();
      expect(pos.isCheckmate(), fenOf(k, b, n, w, false)).toBe(true);
      mates++;
    }
    expect(mates).toBeGreaterThan(0);
  });
});

describe('positions verified by hand', () => {
  const probe = (fen: string) => js.probe(jsApi.parseFen(fen));
  const best = (fen: string) => js.bestMove(jsApi.parseFen(fen));

  it('mate in 1: Ka8 Kb6 Nd7 Bh7, Be4#', () => {
    const fen = 'k7/3N3B/1K6/8/8/8/8/8 w - - 0 1';
    expect(probe(fen)).toEqual({ result: 'win', dtm: 1, plies: 1 });
    expect(best(fen)).toBe('h7e4');
  });

  it('checkmated: Ka8 against Kb6 Nd7 Be4', () => {
    const fen = 'k7/3N4/1K6/8/4B3/8/8/8 b - - 0 1';
    expect(probe(fen)).toEqual({ result: 'loss', dtm: 0, plies: 0 });
    expect(best(fen)).toBeNull();
  });

  it('stalemate: Ka8, Kc7 takes b7/b8, Be3 takes a7', () => {
    const fen = 'k7/2K5/8/8/8/4B3/8/7N b - - 0 1';
    expect(probe(fen)).toEqual({ result: 'draw', dtm: null, plies: null });
    expect(best(fen)).toBeNull();
  });

  it('the stalemate trap: Kc6-c7 would stalemate, so the best move is another one', () => {
    const fen = 'k7/8/2K5/8/8/4B3/8/7N w - - 0 1';
    expect(js.value(false, sqOf('c7'), sqOf('e3'), sqOf('h1'), sqOf('a8'))).toBe(KBNK_DRAW);
    expect(probe(fen).result).toBe('win');
    expect(best(fen)).not.toBe('c6c7');
  });

  it('the lone king takes a hanging knight: a draw', () => {
    const fen = '8/8/8/3N4/3k4/8/8/4KB2 b - - 0 1';
    expect(probe(fen)).toEqual({ result: 'draw', dtm: null, plies: null });
    expect(best(fen)).toBe('d4d5');
  });

  it('the lone king takes a hanging bishop: a draw', () => {
    const fen = '8/8/8/8/3k4/2B5/8/4K1N1 b - - 0 1';
    expect(probe(fen).result).toBe('draw');
    expect(best(fen)).toBe('d4c3');
  });

  it('a defended knight cannot be taken: a loss', () => {
    const fen = '8/8/8/3N4/3k4/1B6/8/4K3 b - - 0 1';
    expect(probe(fen).result).toBe('loss');
    expect(best(fen)).not.toBe('d4d5');
  });

  it('with the strong side to move a hanging piece is no problem', () => {
    expect(probe('8/8/8/3N4/3k4/8/8/4KB2 w - - 0 1').result).toBe('win');
  });
});

describe('probe and bestMove', () => {
  const oeis = '8/8/8/8/8/8/2k5/KNB5 w - - 0 1';

  it('probes black-strong positions colour-flipped', () => {
    expect(js.probe(jsApi.parseFen('knb5/2K5/8/8/8/8/8/8 b - - 0 1'))).toEqual({ result: 'win', dtm: 33, plies: 65 });
    expect(js.probe(jsApi.parseFen('knb5/2K5/8/8/8/8/8/8 w - - 0 1')).result).toBe(
      js.probe(jsApi.parseFen('8/8/8/8/8/8/2k5/KNB5 b - - 0 1')).result,
    );
    const white = js.bestMove(jsApi.parseFen(oeis))!;
    const black = js.bestMove(jsApi.parseFen('knb5/2K5/8/8/8/8/8/8 b - - 0 1'))!;
    const flip = (uci: string) => uci.replace(/[1-8]/g, (r) => String(9 - Number(r)));
    expect(black).toBe(flip(white));
  });

  it('gives the 8 symmetric images of a position the same result', () => {
    const squares = [sqOf('a1'), sqOf('c1'), sqOf('b1'), sqOf('c2')];
    const maps = [(f: number, r: number) => [f, r], (f: number, r: number) => [7 - f, r], (f: number, r: number) => [f, 7 - r],
      (f: number, r: number) => [7 - f, 7 - r], (f: number, r: number) => [r, f], (f: number, r: number) => [7 - r, f],
      (f: number, r: number) => [r, 7 - f], (f: number, r: number) => [7 - r, 7 - f]];
    for (const map of maps) {
      const [k, b, n, w] = squares.map((s) => { const [f, r] = map(s & 7, s >> 3); return r! * 8 + f!; });
      expect(js.probe(jsApi.parseFen(fenOf(k!, b!, n!, w!, true)))).toEqual({ result: 'win', dtm: 33, plies: 65 });
    }
  });

  it('plays the longest mate out: every best move keeps the win and lowers the distance by one ply', () => {
    let sq = { strongKing: sqOf('a1'), bishop: sqOf('c1'), knight: sqOf('b1'), weakKing: sqOf('c2'), strongToMove: true };
    let v = js.value(true, sq.strongKing, sq.bishop, sq.knight, sq.weakKing);
    expect(v).toBe(65);
    while (v > 0) {
      const fen = fenOf(sq.strongKing, sq.bishop, sq.knight, sq.weakKing, sq.strongToMove);
      const uci = js.bestMove(jsApi.parseFen(fen))!;
      const move = kbnkMoves(sq).find((m) => sqName(m.from) + sqName(m.to) === uci)!;
      expect(move, `${fen} ${uci}`).toBeDefined();
      expect(move.next).not.toBeNull();
      sq = move.next!;
      const next = js.value(sq.strongToMove, sq.strongKing, sq.bishop, sq.knight, sq.weakKing);
      expect(next, `${fen} ${uci}`).toBe(v - 1);
      v = next;
    }
    const final = jsApi.parseFen(fenOf(sq.strongKing, sq.bishop, sq.knight, sq.weakKing, false));
    expect(js.probe(final)).toEqual({ result: 'loss', dtm: 0, plies: 0 });
  });

  it('refuses positions that are not KBNK', () => {
    expect(() => js.probe(jsApi.parseFen('8/8/8/8/8/8/2k5/KNN5 w - - 0 1'))).toThrow(RangeError);
    expect(() => js.probe(jsApi.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'))).toThrow(/not a KBNK/);
    expect(() => js.probe(jsApi.parseFen('8/8/8/8/8/8/2kb4/KNB5 w - - 0 1'))).toThrow(RangeError);
    expect(() => js.probe(oeis as never)).toThrow(TypeError);
    expect(() => js.bestMove({} as never)).toThrow(TypeError);
  });
});

// ------------------------------------------------------------------------------ native

describe.skipIf(!nativeApi)('native generation', () => {
  it('is byte-identical to the JS table, single-threaded and on all cores, with progress', async () => {
    const progress: { done: number; total: number }[] = [];
    const all = await KbnkTablebase.generate({ backend: 'native', onProgress: (p) => progress.push(p) });
    expect(Buffer.compare(Buffer.from(all.table), Buffer.from(js.table))).toBe(0);
    const one = await KbnkTablebase.generate({ backend: 'native', threads: 1 });
    expect(Buffer.compare(Buffer.from(one.table), Buffer.from(js.table))).toBe(0);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
  });
});

describe('generate options', () => {
  it('reports JS progress once per pass (a win ply and the next loss ply), increasing, the last with done === total', async () => {
    const progress: { done: number; total: number }[] = [];
    const tb = await KbnkTablebase.generate({ backend: jsBackend, onProgress: (p) => progress.push(p) });
    expect(Buffer.compare(Buffer.from(tb.table), Buffer.from(js.table))).toBe(0);
    // the longest win is 65 plies with the strong side to move: 33 passes at least
    expect(progress.length).toBeGreaterThanOrEqual(33);
    expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    expect(progress.at(-1)!.done).toBeGreaterThanOrEqual(66);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.done).toBeGreaterThan(progress[i - 1]!.done);
      expect(progress[i]!.done).toBeLessThanOrEqual(progress[i]!.total);
    }
  });

  it('checks its options', async () => {
    await expect(KbnkTablebase.generate({ backend: 'wasm' as never })).rejects.toThrow(RangeError);
    await expect(KbnkTablebase.generate({ threads: 0 })).rejects.toThrow(RangeError);
    await expect(KbnkTablebase.generate({ threads: '2' as never })).rejects.toThrow(TypeError);
    await expect(KbnkTablebase.generate({ threads: 1.5 })).rejects.toThrow(RangeError);
    await expect(KbnkTablebase.generate({ onProgress: 42 as never })).rejects.toThrow(TypeError);
    await expect(KbnkTablebase.generate({ signal: {} as never })).rejects.toThrow(TypeError);
  });

  it.each(nativeApi ? ['js', 'native'] as const : ['js'] as const)('stops with an AbortError when the signal aborts (%s)', async (name) => {
    const controller = new AbortController();
    const run = KbnkTablebase.generate({ backend: name, signal: controller.signal, onProgress: (p) => { if (p.done >= 2) controller.abort(); } });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    const aborted = new AbortController();
    aborted.abort();
    await expect(KbnkTablebase.generate({ backend: name, signal: aborted.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

// ------------------------------------------------------------------------------ files

describe('save and load', () => {
  let dir: string;
  let file: string;
  let image: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kbnk-test-'));
    file = join(dir, 'kbnk.bin');
    js.save(file);
    image = readFileSync(file);
  });
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

  it('round-trips, with the documented header', () => {
    expect(image.length).toBe(KBNK_FILE_HEADER_SIZE + KBNK_TABLE_SIZE);
    expect(image.toString('latin1', 0, 8)).toBe('BBP-KBNK');
    expect([image.readUInt16LE(8), image.readUInt16LE(10), image.readUInt32LE(12), image.readUInt32LE(16)]).toEqual([1, 1, 0, KBNK_TABLE_SIZE]);
    expect(image.readUInt32LE(20)).toBe(crc32(js.table));
    const back = KbnkTablebase.load(file);
    expect(Buffer.compare(Buffer.from(back.table), Buffer.from(js.table))).toBe(0);
    expect(back.probe(jsApi.parseFen('8/8/8/8/8/8/2k5/KNB5 w - - 0 1')).dtm).toBe(33);
    expect(Buffer.compare(KbnkTablebase.fromBuffer(image).toBuffer(), image)).toBe(0);
  });

  it('computes the zlib CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  const damaged = (name: string, make: (b: Buffer) => Buffer, problem: KbnkFileProblem) => [name, make, problem] as const;
  const copy = (b: Buffer) => Buffer.from(b);
  const cases = [
    damaged('empty', () => Buffer.alloc(0), 'truncated'),
    damaged('header only', (b) => copy(b.subarray(0, KBNK_FILE_HEADER_SIZE)), 'truncated'),
    damaged('half a header', (b) => copy(b.subarray(0, 10)), 'truncated'),
    damaged('one byte short', (b) => copy(b.subarray(0, b.length - 1)), 'truncated'),
    damaged('one byte too many', (b) => Buffer.concat([b, Buffer.from([0])]), 'length'),
    damaged('wrong magic', (b) => { const c = copy(b); c.write('BBP-KRK!', 0, 'latin1'); return c; }, 'magic'),
    damaged('format version 2', (b) => { const c = copy(b); c.writeUInt16LE(2, 8); return c; }, 'version'),
    damaged('layout version 2', (b) => { const c = copy(b); c.writeUInt16LE(2, 10); return c; }, 'layout'),
    damaged('unknown flags', (b) => { const c = copy(b); c.writeUInt32LE(1, 12); return c; }, 'flags'),
    damaged('wrong length field', (b) => { const c = copy(b); c.writeUInt32LE(KBNK_TABLE_SIZE - 64, 16); return c; }, 'length'),
    damaged('one table byte changed', (b) => { const c = copy(b); c[KBNK_FILE_HEADER_SIZE + 1000] ^= 1; return c; }, 'checksum'),
    damaged('checksum field changed', (b) => { const c = copy(b); c.writeUInt32LE((c.readUInt32LE(20) + 1) >>> 0, 20); return c; }, 'checksum'),
    damaged('an impossible byte with a matching checksum', (b) => {
      const c = copy(b);
      c[KBNK_FILE_HEADER_SIZE + 5] = 200;
      c.writeUInt32LE(crc32(c.subarray(KBNK_FILE_HEADER_SIZE)), 20);
      return c;
    }, 'content'),
  ];

  it.each(cases)('refuses a file: %s', (_name, make, problem) => {
    const bad = make(image);
    const path = join(dir, 'bad.bin');
    writeFileSync(path, bad);
    let err: unknown;
    try { KbnkTablebase.load(path); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(KbnkFileError);
    expect((err as KbnkFileError).problem).toBe(problem);
    expect((err as Error).message).toMatch(/KBNK table/);
  });

  it('refuses a missing file with the system error and a non-buffer with a TypeError', () => {
    expect(() => KbnkTablebase.load(join(dir, 'missing.bin'))).toThrow(/ENOENT/);
    expect(() => KbnkTablebase.fromBuffer('BBP-KBNK' as never)).toThrow(TypeError);
    expect(() => KbnkTablebase.fromTable(new Uint8Array(10))).toThrow(KbnkFileError);
  });
});
