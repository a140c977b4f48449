/**
 * polyglotKey of Chess960 positions. The Polyglot book format ("Polyglot book format",
 * http://hgm.nubati.net/book_format.html) has one random number per castling right (white short,
 * white long, black short, black long) and none for rook files: a Chess960 right is hashed as the
 * right it is (the king side or the queen side of its king), whichever rook holds it. So the key is
 * the one written from the format's description over the position's pieces, rights, en-passant file
 * and side to move; two positions that differ only in which rook holds a right share a key; the
 * standard setup read as Chess960 keeps the format's published keys. Every backend, and the batch
 * feature, give the same keys on random Chess960 playouts with inner rooks.
 */
import { describe, expect, it } from 'vitest';
import { POLYGLOT_RANDOM_HALVES } from '../../lib/backends/js/polyglot-random.js';
import { backends, jsApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { PUBLISHED_KEYS } from './polyglot-keys.js';
import { chess960StartPosition } from '../../lib/core/position.js';
import { chess960Playout } from '../support/chess960.js';
import type { Position } from '../../lib/core/types.js';

const random = (i: number): bigint =>
  (BigInt(POLYGLOT_RANDOM_HALVES[2 * i + 1]!) << 32n) | BigInt(POLYGLOT_RANDOM_HALVES[2 * i]!);

const squares = (set: bigint): number[] => {
  const out: number[] = [];
  for (let s = 0; s < 64; s++) if ((set >> BigInt(s)) & 1n) out.push(s);
  return out;
};

/**
 * The key from the format's description: piece kind 2 * type + (white ? 1 : 0) at 64 * kind + square,
 * castling 768 + right (the position's right bits K, Q, k, q), en passant 772 + file when a pawn of the
 * side to move stands beside the pushed pawn, turn 780 for white.
 */
function keyRef(pos: Position): bigint {
  let key = 0n;
  for (let color = 0; color < 2; color++) {
    for (let type = 0; type < 6; type++) {
      for (const sq of squares(pos.colors[color]! & pos.pieces[type]!)) key ^= random(64 * (2 * type + (color === 0 ? 1 : 0)) + sq);
    }
  }
  for (let right = 0; right < 4; right++) if (pos.castling & (1 << right)) key ^= random(768 + right);
  if (pos.epSquare >= 0 && pos.epSquare < 64) {
    const pushed = pos.epSquare + (pos.sideToMove === 0 ? -8 : 8);
    const file = pos.epSquare & 7;
    const ownPawns = pos.colors[pos.sideToMove]! & pos.pieces[0]!;
    const beside = [file - 1, file + 1].filter((f) => f >= 0 && f < 8).map((f) => (pushed & ~7) + f);
    if (beside.some((s) => (ownPawns >> BigInt(s)) & 1n)) key ^= random(772 + file);
  }
  if (pos.sideToMove === 0) key ^= random(780);
  return key;
}

/** Random Chess960 playouts, each also with an extra rook outside a castling rook (an inner-rook right) where one fits. */
function samples(count: number, seed: number): Position[] {
  const next = rng(seed);
  const out: Position[] = [];
  for (let i = 0; i < count; i++) {
    const pos = chess960Playout(next, 30);
    out.push(pos);
    // A white rook on the first empty square of rank 1 beyond a castling rook (outside it).
    for (const [right, step] of [[0, 1], [1, -1]] as const) {
      const file = pos.castlingFiles[right]!;
      const occupied = pos.colors[0]! | pos.colors[1]!;
      let f = file + step;
      while (file >= 0 && f >= 0 && f < 8 && (occupied >> BigInt(f)) & 1n) f += step;
      if (file < 0 || f < 0 || f > 7) continue;
      const fen = jsApi.toFen(pos, { shredder: true }).split(' ');
      const ranks = fen[0]!.split('/');
      const rank = [...ranks[7]!].flatMap((c) => (/\d/.test(c) ? Array(Number(c)).fill('.') : [c]));
      rank[f] = 'R';
      ranks[7] = rank.join('').replace(/\.+/g, (m) => String(m.length));
      try { out.push(jsApi.parseFen([ranks.join('/'), ...fen.slice(1)].join(' '))); } catch { /* a check: no position */ }
      break;
    }
  }
  return out;
}

const POSITIONS = samples(240, 3696);

describe.each(backends)('polyglotKey of Chess960 positions (%s)', (_name, api) => {
  it('the samples hold rights held by inner rooks', () => {
    const inner = POSITIONS.filter((p) => api.toFen(p).split(' ')[2]!.match(/[A-Ha-h]/));
    expect(inner.length).toBeGreaterThan(10);
  });

  it('is the key written from the format\'s description: one number per right, no rook file', () => {
    for (const p of POSITIONS) expect(api.polyglotKey(p), api.toFen(p)).toBe(keyRef(p));
  });

  it('the batch feature gives the same keys', () => {
    const r = api.analyzeBatch(api.PositionBatch.fromPositions(POSITIONS), ['polyglotKey']);
    expect(Array.from(r.polyglotKey)).toEqual(POSITIONS.map((p) => keyRef(p)));
  });

  it('positions that differ only in which rook holds a right share a key', () => {
    // King b1, rooks f1 and h1: the king-side right with the f rook or with the h rook.
    const a = api.parseFen('rk2r3/8/8/8/8/8/8/1K3R1R w Fa - 0 1');
    const b = api.parseFen('rk2r3/8/8/8/8/8/8/1K3R1R w Ha - 0 1');
    expect(a.castlingFiles[0]).toBe(5);
    expect(b.castlingFiles[0]).toBe(7);
    expect(api.polyglotKey(a)).toBe(api.polyglotKey(b));
    expect(api.polyglotKey(a)).not.toBe(api.polyglotKey(api.parseFen('rk2r3/8/8/8/8/8/8/1K3R1R w a - 0 1')));
  });

  it.each(PUBLISHED_KEYS)('the format\'s test key after "%s", the position read as Chess960', (_moves, fen, key) => {
    const pos = api.parseFen(fen, { chess960: true });
    expect(pos.chess960).toBe(true);
    expect(api.polyglotKey(pos)).toBe(key);
  });

  it('Chess960 start position 518 (the standard setup) has the published start key', () => {
    expect(api.polyglotKey(chess960StartPosition(518))).toBe(0x463b96181691fc9cn);
  });
});
