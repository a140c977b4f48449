/**
 * Tactical motifs (hanging, forks, relativePins, skewers, discoveredAttacks) on every backend,
 * against the brute-force references of reference-motifs.ts written from the definitions: on
 * random positions (fast-check seeds of reference-checks' position maker), on every position of the
 * games in test/fixtures/pgn, and on diagrams whose answer is worked out by hand in the comments (the
 * Checks and Pinned Pieces page's one-piece-between rank diagram among them).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../lib/api/create-api.js';
import { backends, jsApi } from '../support/backends.js';
import { rng, sq } from '../patterns/reference.js';
import { boardFromFen, fenFromBoard, randomBoard, randomEpBoard } from '../patterns/reference-checks.js';
import { MOTIF_REFERENCES } from './reference-motifs.js';
import { parsePgn } from '../../lib/games/index.js';

const NAMES = Object.keys(MOTIF_REFERENCES) as (keyof typeof MOTIF_REFERENCES)[];
const bits = (...names: string[]): bigint => names.reduce((s, n) => s | (1n << BigInt(sq(n))), 0n);

/** The reference's ten answers for a FEN: [name, colour, set]. */
function expected(fen: string): [string, number, bigint][] {
  const b = boardFromFen(fen);
  return NAMES.flatMap((n) => [0, 1].map((c): [string, number, bigint] => [n, c, MOTIF_REFERENCES[n](b, c)]));
}

function check(api: Api, fen: string, want: [string, number, bigint][]): void {
  const pos = api.parseFen(fen);
  for (const [n, c, set] of want) {
    expect((api as unknown as Record<string, (p: unknown, c: number) => bigint>)[n]!(pos, c), `${n}(${fen}, ${c})`).toBe(set);
  }
}

/** A random legal-looking position's FEN from a seed (one in four with an en-passant chance, up to 14 pieces a side). */
const randomFen = (seed: number): string => {
  const next = rng(seed);
  return fenFromBoard(seed % 4 === 0 ? randomEpBoard(next) : randomBoard(next, 2 + (seed % 13)));
};

/** Every position of the fixture games (FENs), made with the JS backend's makeMove. */
function gameFens(): string[] {
  const fens: string[] = [];
  for (const file of ['chessbase.pgn', 'quirky.pgn', 'messy.pgn']) {
    const text = readFileSync(new URL(`../fixtures/pgn/${file}`, import.meta.url), 'utf8');
    for (const g of parsePgn(text)) {
      if (g.error || g.moves.includes('0000')) continue;
      let pos = jsApi.parseFen(g.startFen);
      fens.push(jsApi.toFen(pos));
      for (const m of g.moves) {
        pos = jsApi.makeMove(pos, m);
        fens.push(jsApi.toFen(pos));
      }
    }
  }
  return fens;
}
const GAME_FENS = gameFens();
const GAME_EXPECTED = GAME_FENS.map(expected);

/**
 * Diagrams with their answers worked out by hand from the definitions ([name, colour, set]; the
 * sets not listed are checked against the reference only).
 */
const DIAGRAMS: [string, string, [string, number, bigint][]][] = [
  // The Checks and Pinned Pieces page's rank ". r . . x . K ." with x a black knight: the knight
  // stands alone between the black rook and the white king: a discovered attack (check) of black's.
  ['page rank diagram, x black', '4k3/8/8/8/8/8/8/1r2n1K1 w - - 0 1', [['discoveredAttacks', 1, bits('e1')]]],
  // The same rank with x a white knight and a white queen in place of the king (the kings
  // elsewhere): the knight is pinned to the queen, worth more, by the rook: a relative pin.
  ['page rank diagram, relative pin', '4k3/8/8/8/8/8/7K/1r2N1Q1 w - - 0 1', [['relativePins', 0, bits('e1')], ['relativePins', 1, 0n]]],
  // Knight on c7 attacks the rook a8 and the king e8: a fork; the rook (5) is worth more than the knight (3).
  ['knight fork', 'r3k3/2N5/8/8/8/8/8/4K3 b - - 0 1', [['forks', 0, bits('c7')]]],
  // A bishop skewer along a4-e8: Bb5 attacks the king d7 with the queen e8 behind it (the king is
  // t1, the queen t2 is worth more than the bishop).
  ['bishop skewer', '4q3/3k4/8/1B6/8/8/8/7K b - - 0 1', [['skewers', 0, bits('b5')]]],
  // The white rook e1 behind the knight e4 sees the black queen e7 once the knight moves: the queen
  // is worth more than the rook, so the knight is a discovered attacker.
  ['discovered attack', '6k1/4q3/8/8/4N3/8/8/4R1K1 w - - 0 1', [['discoveredAttacks', 0, bits('e4')]]],
  // The black knight d5 is attacked by the pawn e4 and defended by nothing: hanging. The pawn is
  // not attacked (a knight on d5 attacks b4, b6, c3, c7, e3, e7, f4, f6).
  ['hanging knight', '6k1/8/8/3n4/4P3/8/8/6K1 w - - 0 1', [['hanging', 1, bits('d5')], ['hanging', 0, 0n]]],
];

describe.each(backends)('%s: tactical motifs', (_label, api) => {
  it('match the brute-force references on random positions (both colours)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      const fen = randomFen(seed);
      check(api, fen, expected(fen));
    }), { numRuns: 250 });
  });

  it(`match the references on every position of the fixture games (${GAME_FENS.length})`, () => {
    expect(GAME_FENS.length).toBeGreaterThan(100);
    GAME_FENS.forEach((fen, i) => check(api, fen, GAME_EXPECTED[i]!));
    // Real games have motifs: the sets are not all empty.
    expect(GAME_EXPECTED.flat().filter(([, , s]) => s !== 0n).length).toBeGreaterThan(50);
  });

  it.each(DIAGRAMS)('%s', (_name, fen, hand) => {
    const want = expected(fen);
    // The hand-worked answers agree with the reference ...
    for (const [n, c, set] of hand) expect(want.find(([m, d]) => m === n && d === c)![2], `${n} ${c}`).toBe(set);
    // ... and the backend with both.
    check(api, fen, want);
  });
});
