/**
 * The FEN text of the analyze command's PGN records: the addon's writer (native/addon/records.h
 * putFen, through chunkFens) against the pipeline's JS writer, and both against toFen, the public
 * FEN writer, on random positions (en passant, castling rights, big clocks).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkFens } from '../../lib/cli/pgn-input.js';
import { packedOf } from '../../lib/core/position.js';
import { nativeApi, jsApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';
import { rng } from '../patterns/reference.js';
import { fenFromBoard, randomBoard, randomEpBoard } from '../patterns/reference-checks.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** n random positions' FENs, with random clocks, and their packed words one after another. */
function positions(seed: number, n: number): { fens: string[]; words: BigUint64Array } {
  const next = rng(seed);
  const fens: string[] = [];
  const words = new BigUint64Array(10 * n);
  for (let i = 0; i < n; i++) {
    // Random boards (en passant among them), and random games from the start (castling rights).
    const r = next();
    let fen0: string;
    if (r < 0.4) {
      let pos = jsApi.parseFen(START);
      for (let ply = Math.floor(next() * 40); ply > 0; ply--) {
        const moves = jsApi.legalMoves(pos);
        if (moves.length === 0) break;
        pos = jsApi.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
      }
      fen0 = jsApi.toFen(pos);
    } else fen0 = fenFromBoard(r < 0.6 ? randomEpBoard(next) : randomBoard(next, 2 + Math.floor(next() * 30)));
    const fields = fen0.split(' ');
    // Clocks up to parseFen's limit, 1,000,000 (the packed layout holds 2^20 - 1 and 2^32 - 1).
    const big = next() < 0.2;
    fields[4] = String(big ? Math.floor(next() * 1_000_001) : Math.floor(next() * 100));
    fields[5] = String(big ? 1 + Math.floor(next() * 1_000_000) : 1 + Math.floor(next() * 300));
    const fen = fields.join(' ');
    fens.push(jsApi.toFen(jsApi.parseFen(fen)));
    words.set(packedOf(jsApi.parseFen(fen)), 10 * i);
  }
  return { fens, words };
}

const backends = ['js', ...(nativeApi ? ['native'] as const : [])] as const;

describe.each(backends)('chunkFens (%s)', (backend) => {
  it('gives toFen\'s text for random positions, one after another (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.nat({ max: 300 }), (seed, n) => {
      const { fens, words } = positions(seed, n);
      const { bytes, starts } = chunkFens(words, backend);
      expect(starts.length).toBe(n + 1);
      expect(starts[0]).toBe(0);
      const got = Array.from({ length: n }, (_, k) => Buffer.from(bytes.subarray(starts[k]!, starts[k + 1]!)).toString('latin1'));
      expect(got).toEqual(fens);
    }), { numRuns: 60 });
  });

  it('prefixed: each FEN after its length (4 bytes, little-endian) within its span, the Parquet PLAIN form (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.nat({ max: 300 }), (seed, n) => {
      const { fens, words } = positions(seed, n);
      const { bytes, starts } = chunkFens(words, backend, true);
      expect(starts.length).toBe(n + 1);
      const want = Buffer.concat(fens.map((f) => { const t = Buffer.from(f, 'latin1'); const len = Buffer.alloc(4); len.writeUInt32LE(t.length); return Buffer.concat([len, t]); }));
      expectSameBytes(bytes.subarray(0, starts[n]!), want, 'prefixed FENs');
      for (let k = 0; k < n; k++) expect(starts[k + 1]! - starts[k]!).toBe(4 + fens[k]!.length);
    }), { numRuns: 40 });
  });

  it('writes chunk after chunk, small and large, each right (the native writer reuses its buffer)', () => {
    for (const n of [2000, 3, 0, 5000, 1]) {
      const { fens, words } = positions(n + 17, n);
      const { bytes, starts } = chunkFens(words, backend);
      expectSameBytes(bytes.subarray(0, starts[n]!), Buffer.from(fens.join(''), 'latin1'), `${n} positions`);
    }
  });
});

describe.runIf(nativeApi !== undefined)('chunkFens on words no position has: native and JS write the same bytes', () => {
  it('arbitrary piece sets (a square in several sets, pieces outside the colour sets) and state words (fast-check)', () => {
    const word = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    // Sparse sets too, so that sets overlap on some squares and not on others.
    const set = fc.oneof(word, fc.tuple(word, word, word).map(([a, b, c]) => a & b & c));
    fc.assert(fc.property(fc.array(fc.array(set, { minLength: 10, maxLength: 10 }), { minLength: 1, maxLength: 40 }), (rows) => {
      const words = BigUint64Array.from(rows.flat());
      const js = chunkFens(words, 'js');
      const native = chunkFens(words, 'native');
      expectSameBytes(native.bytes.subarray(0, native.starts[rows.length]!), js.bytes.subarray(0, js.starts[rows.length]!), 'FENs');
      expectSameBytes(native.starts, js.starts, 'starts');
    }), { numRuns: 300 });
  });
});

describe.runIf(nativeApi !== undefined)('the addon\'s fenTexts refuses bad arguments', () => {
  it('TypeError / RangeError, never a crash', async () => {
    const { loadNative } = await import('../../lib/backends/native.js');
    const fenTexts = loadNative().batch.fenTexts!;
    expect(() => fenTexts(new BigUint64Array(9))).toThrow(RangeError);
    expect(() => fenTexts(new Uint32Array(10) as never)).toThrow(TypeError);
    expect(() => fenTexts(42 as never)).toThrow(TypeError);
    expect(() => fenTexts(new BigUint64Array(10), 'x' as never)).toThrow(TypeError);
    expect(() => fenTexts(new BigUint64Array(10), undefined, 1 as never)).toThrow(TypeError);
    // `into` too small: a new buffer instead.
    const { words, fens } = positions(5, 4);
    const [got] = fenTexts(words, new Uint8Array(3));
    expect(Buffer.isBuffer(got) && got.toString('latin1')).toBe(fens.join(''));
  });
});
