/**
 * Chess960 positions in batches on every backend: packed words through PositionBatch (fromPositions,
 * fromPacked, fromFens with Shredder-FEN lines), every analyzeBatch feature equal between the
 * backends, the move features against the single-position functions (legalMoves, checkmate,
 * stalemate), and perftBatch against perft.
 */
import { describe, expect, it } from 'vitest';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { chess960Playout } from '../support/chess960.js';
import type { Position } from '../../lib/core/types.js';

/** Start positions and random playouts from them (native moves when loaded: the same on both). */
function samples(count: number, seed: number): Position[] {
  const next = rng(seed);
  const api = nativeApi ?? jsApi;
  const out: Position[] = [];
  for (let i = 0; i < count; i++) {
    const pos = chess960Playout(next, 60, api);
    out.push(pos);
  }
  return out;
}

const POSITIONS = samples(400, 9600);

describe.each(backends)('Chess960 batches (%s)', (_name, api) => {
  const batch = api.PositionBatch.fromPositions(POSITIONS);

  it('packed words keep the Chess960 bit and rook files; fromFens reads Shredder-FEN lines alike', () => {
    expect(POSITIONS.some((p) => p.chess960 && p.castling !== 0 && p.castlingFiles.some((f, r) => f >= 0 && f !== [7, 0, 7, 0][r]))).toBe(true);
    expect(Array.from(batch.words)).toEqual(Array.from(api.packPositions(POSITIONS)));
    const fens = POSITIONS.map((p) => api.toFen(p, { shredder: true }));
    const fromText = api.PositionBatch.fromFens(fens);
    // A position without castling rights has no Shredder letters: read as standard, the words differ by bit 5 only.
    const words = fromText.words, want = batch.words;
    for (let i = 0; i < POSITIONS.length; i++) {
      for (let w = 0; w < 10; w++) {
        const a = words[10 * i + w]!, b = want[10 * i + w]!;
        if (w === 8 && POSITIONS[i]!.castling === 0) expect(a | 0x20n).toBe(b | 0x20n);
        else expect(a, `${fens[i]} word ${w}`).toBe(b);
      }
    }
    expect(fromText.errors).toEqual([]);
  });

  it('move features equal the single-position functions', () => {
    const r = api.analyzeBatch(batch, 'all');
    POSITIONS.forEach((p, i) => {
      const moves = api.legalMoves(p);
      expect(r.legalMoveCount[i], api.toFen(p)).toBe(moves.length);
      expect(r.checkmate[i]).toBe(moves.length === 0 && api.isInCheck(p) ? 1 : 0);
      expect(r.stalemate[i]).toBe(moves.length === 0 && !api.isInCheck(p) ? 1 : 0);
    });
  });

  it('perftBatch equals perft', () => {
    const few = POSITIONS.slice(0, 40);
    const out = api.perftBatch(api.packPositions(few), 2);
    few.forEach((p, i) => expect(out[i]).toBe(api.perft(p, 2)));
  });
});

describe.runIf(nativeApi)('Chess960 batches: native = JS on every feature', () => {
  it('analyzeBatch all features, toPlanes', () => {
    const n = nativeApi!.analyzeBatch(nativeApi!.PositionBatch.fromPositions(POSITIONS), 'all') as unknown as Record<string, ArrayLike<unknown>>;
    const j = jsApi.analyzeBatch(jsApi.PositionBatch.fromPositions(POSITIONS), 'all') as unknown as Record<string, ArrayLike<unknown>>;
    for (const key of Object.keys(j)) {
      if (typeof j[key] !== 'object' || j[key] === null || !('length' in j[key]!)) continue;
      expect(Array.from(n[key]!), key).toEqual(Array.from(j[key]!));
    }
    expect(Array.from(nativeApi!.toPlanes(nativeApi!.PositionBatch.fromPositions(POSITIONS))))
      .toEqual(Array.from(jsApi.toPlanes(jsApi.PositionBatch.fromPositions(POSITIONS))));
  });
});
