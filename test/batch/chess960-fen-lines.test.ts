/**
 * FEN lines read as Chess960 in batches: `PositionBatch.fromFens(lines, { chess960: true })` reads
 * every line as `parseFen(line, { chess960: true })` does (X-FEN: `KQkq` name the outermost rook, a
 * file letter any rook), and without the option X-FEN lines keep their standard reading (Shredder-FEN
 * lines are Chess960 by themselves). The truth is the single-position parser (lib/core/position.ts),
 * which the batch parsers do not use for good lines (the native one is native/core/fen.h); the
 * backends are compared with one another on random Chess960 X-FEN lines (start positions in
 * Scharnagl's numbering, random playouts, an extra rook outside a castling rook for the inner-rook
 * letters), hostile castling fields included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { chess960StartPosition } from '../../lib/core/position.js';
import { chess960Playout } from '../support/chess960.js';
import type { Api } from '../../lib/api/create-api.js';

type Outcome = { words: bigint[] } | { name: string; field: string; message: string };

/** What parseFen (the truth) makes of a line: the packed words or the FenError. */
function truth(line: string, chess960: boolean): Outcome {
  try {
    return { words: Array.from(jsApi.parseFen(line, chess960 ? { chess960 } : undefined).packed) };
  } catch (e) {
    const err = e as { name: string; field: string; message: string };
    if (err.name !== 'FenError') throw e;
    return { name: err.name, field: err.field, message: err.message };
  }
}

/** What a batch made of each line. */
function outcomes(api: Api, lines: string[], options: { chess960?: boolean; epd?: boolean }): Outcome[] {
  const b = api.PositionBatch.fromFens(lines, options);
  const errors = new Map(b.errors.map((e) => [e.index, e.error]));
  return lines.map((_, i) => {
    const e = errors.get(i);
    if (e) {
      expect(b.valid![i]).toBe(0);
      expect(Array.from(b.words.subarray(10 * i, 10 * i + 10)).every((w) => w === 0n)).toBe(true);
      return { name: e.name, field: e.field, message: e.message };
    }
    if (b.valid) expect(b.valid[i]).toBe(1);
    return { words: Array.from(b.words.subarray(10 * i, 10 * i + 10)) };
  });
}

/** Places a rook of `color` on the first empty square of its first rank beyond its castling rook (outside it), if any. */
function withOuterRook(fen: string, color: 0 | 1): string {
  const [board, ...rest] = fen.split(' ');
  const ranks = board!.split('/');
  const at = color === 0 ? 7 : 0;
  const squares = [...ranks[at]!].flatMap((c) => (/\d/.test(c) ? Array(Number(c)).fill('.') : [c]));
  const rook = color === 0 ? 'R' : 'r', king = color === 0 ? 'K' : 'k';
  const k = squares.indexOf(king);
  if (k < 0) return fen;
  // Beyond the outermost rook on the h side, else on the a side.
  const hRook = squares.lastIndexOf(rook);
  const aRook = squares.indexOf(rook);
  let target = -1;
  if (hRook > k) for (let f = hRook + 1; f < 8 && target < 0; f++) if (squares[f] === '.') target = f;
  if (target < 0 && aRook >= 0 && aRook < k) for (let f = aRook - 1; f >= 0 && target < 0; f--) if (squares[f] === '.') target = f;
  if (target < 0) return fen;
  squares[target] = rook;
  ranks[at] = squares.join('').replace(/\.+/g, (m) => String(m.length));
  return [ranks.join('/'), ...rest].join(' ');
}

/** Chess960 X-FEN lines: start positions, random playouts, extra rooks that make a right's rook an inner one. */
function xfenLines(count: number, seed: number): string[] {
  const next = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const pos = chess960Playout(next, 40);
    const shredder = jsApi.toFen(pos, { shredder: true });
    let fen = shredder;
    if (next() < 0.5) fen = withOuterRook(fen, 0);
    if (next() < 0.5) fen = withOuterRook(fen, 1);
    // The extra rook's position written as X-FEN (toFen picks a letter for an inner rook); it may be
    // no legal position (a check along a file): then the Shredder-FEN line is the bad line.
    try {
      out.push(jsApi.toFen(jsApi.parseFen(fen)));
    } catch {
      out.push(fen);
    }
  }
  return out;
}

const LINES = xfenLines(300, 36960);
const CASTLING_FIELDS = ['-', 'K', 'Q', 'k', 'q', 'KQkq', 'qkQK', 'Kq', 'A', 'H', 'a', 'h', 'B', 'G', 'KK', 'Kk', 'KA', 'HK',
  'KQkqA', 'E', 'e', 'X', '-K', 'K-', 'KQ-', 'kK', 'HAha', 'AHah', 'HH', 'Ah'];
/** Each castling field on a few positions: good, bad and hostile fields alike. */
const HOSTILE = LINES.slice(0, 12).flatMap((line) => {
  const f = line.split(' ');
  return CASTLING_FIELDS.map((c) => [f[0], f[1], c, ...f.slice(3)].join(' '));
});

describe('the Chess960 X-FEN samples', () => {
  it('hold inner-rook letters, outermost-rook KQkq and Chess960 positions that standard FEN refuses', () => {
    const fields = LINES.map((l) => l.split(' ')[2]!);
    expect(fields.some((f) => /[A-H]/.test(f))).toBe(true);
    expect(fields.some((f) => /[a-h]/.test(f))).toBe(true);
    expect(fields.some((f) => /[KQ]/.test(f))).toBe(true);
    expect(LINES.filter((l) => 'words' in truth(l, true) && !('words' in truth(l, false))).length).toBeGreaterThan(50);
  });
});

describe.each(backends)('PositionBatch.fromFens with { chess960 } (%s)', (_name, api) => {
  it('the chess programming wiki\'s Chess960 perft position in X-FEN: equal to its Shredder-FEN form with the option, a castling error without', () => {
    // Chess Programming Wiki, "Chess960 Perft Results", position 1 (Shredder-FEN HFhf): in X-FEN the
    // rights are the outermost rooks on each side, KQkq.
    const shredder = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';
    const xfen = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9';
    const b = api.PositionBatch.fromFens([xfen, shredder], { chess960: true });
    expect(b.errors).toEqual([]);
    expect(Array.from(b.words.subarray(0, 10))).toEqual(Array.from(api.parseFen(shredder).packed));
    expect(Array.from(b.words.subarray(10, 20))).toEqual(Array.from(api.parseFen(shredder).packed));
    const plain = api.PositionBatch.fromFens([xfen, shredder]);
    expect(plain.errors.map((e) => [e.index, e.error.field])).toEqual([[0, 'castling']]);
    expect(Array.from(plain.words.subarray(10, 20))).toEqual(Array.from(api.parseFen(shredder).packed));
  });

  it('standard FEN keeps its standard reading without the option, and is Chess960 with it', () => {
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const [plain] = outcomes(api, [start], {});
    expect(plain).toEqual(truth(start, false));
    expect(api.PositionBatch.fromFens([start]).words[8]! & 0x20n).toBe(0n);
    const [c960] = outcomes(api, [start], { chess960: true });
    expect(c960).toEqual({ words: Array.from(chess960StartPosition(518).packed) });
  });

  it('random Chess960 X-FEN lines: with the option equal to parseFen(line, { chess960: true }), without it to parseFen(line)', () => {
    expect(outcomes(api, LINES, { chess960: true })).toEqual(LINES.map((l) => truth(l, true)));
    expect(outcomes(api, LINES, {})).toEqual(LINES.map((l) => truth(l, false)));
  });

  it('hostile castling fields give parseFen\'s FenError (field, message) or its words, both ways', () => {
    expect(outcomes(api, HOSTILE, { chess960: true })).toEqual(HOSTILE.map((l) => truth(l, true)));
    expect(outcomes(api, HOSTILE, {})).toEqual(HOSTILE.map((l) => truth(l, false)));
  });

  it('EPD lines (four fields and operations) take the option too', () => {
    const epd = LINES.slice(0, 40).map((l) => `${l.split(' ').slice(0, 4).join(' ')} bm a1a1; id "x";`);
    expect(outcomes(api, epd, { chess960: true, epd: true }))
      .toEqual(LINES.slice(0, 40).map((l) => truth(`${l.split(' ').slice(0, 4).join(' ')} 0 1`, true)));
  });

  it('a line holding a newline or non-ASCII text goes to parseFen with the option', () => {
    const lines = [`${LINES[0]}\n`, `${LINES[1]} \u00a0`, `${LINES[2]}\u2003`];
    expect(outcomes(api, lines, { chess960: true })).toEqual(lines.map((l) => truth(l, true)));
  });

  it('options.chess960 must be a boolean', () => {
    expect(() => api.PositionBatch.fromFens([], { chess960: 1 as never })).toThrow(TypeError);
    expect(() => api.PositionBatch.fromFens([], { chess960: 'yes' as never })).toThrow(/options.chess960 must be a boolean/);
  });
});

describe.runIf(nativeApi)('fromFens with { chess960 }: every backend gives the same batch on random lines', () => {
  const CHARS = ['K', 'Q', 'k', 'q', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '-'];
  it('random playouts with random castling fields', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0x7fffffff }), fc.array(fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
      fc.boolean(), (seed, fields, epd) => {
        const base = xfenLines(fields.length, seed);
        const lines = base.map((l, i) => {
          const f = l.split(' ');
          return i % 2 ? l : [f[0], f[1], fields[i]!.join(''), ...f.slice(3)].join(' ');
        });
        const reference = outcomes(jsApi, lines, { chess960: true, epd });
        for (const [, api] of backends) expect(outcomes(api, lines, { chess960: true, epd })).toEqual(reference);
        expect(reference).toEqual(lines.map((l) => truth(l, true)));
      }), { numRuns: 60 });
  });
});
