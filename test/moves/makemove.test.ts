/**
 * makeMove, the backend function (native/core/makemove.h, lib/backends/js/makemove.ts) and the facade's
 * makeMove over it: against the brute-force reference of test/patterns/reference-checks.ts (moves played on
 * a plain 64-cell board; the en-passant square kept only when the reference finds a legal
 * en-passant capture after the move), native against JS word for word (every legal move and random
 * illegal ones of random positions), the clock caps, and the raw addon's argument checks.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PACKED_POSITION_WORDS } from '../../lib/core/types.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { addonPath, loadNative } from '../../lib/backends/native.js';
import { requestedBackend } from '../../lib/backends/choose.js';
import { packedOf } from '../../lib/core/position.js';
import { backends, jsApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import {
  PAWN, boardFromFen, fenFromBoard, legalMovesRef, playMove, randomBoard, randomEpBoard, uci, type Board, type Move,
} from '../patterns/reference-checks.js';

/** Random positions (one in three built around an en-passant chance), as FENs. */
function randomFens(n: number, seed: number): string[] {
  const next = rng(seed);
  return Array.from({ length: n }, (_, i) => fenFromBoard(i % 3 === 0 ? randomEpBoard(next) : randomBoard(next, 2 + (i % 12))));
}

/** The reference's position after a move, its en-passant square kept only when a legal capture uses it. */
function referenceAfter(board: Board, move: Move): string {
  const after = playMove(board, move);
  if (after.ep >= 0 && !legalMovesRef(after).some((m) => m.to === after.ep && after.cells[m.from]?.type === PAWN)) after.ep = -1;
  return fenFromBoard(after);
}

/** `count` positions of random games from the start position, `plies` each, played by the reference. */
function gameFens(count: number, plies: number, seed: number): string[] {
  const next = rng(seed);
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const fens = [start];
  while (fens.length < count) {
    const board = boardFromFen(fens[fens.length - 1]!);
    const moves = legalMovesRef(board);
    fens.push(moves.length && fens.length % plies ? referenceAfter(board, moves[Math.floor(next() * moves.length)]!) : start);
  }
  return fens;
}

const bytes = (a: BigUint64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe.each(backends)('%s', (_name, api) => {
  /** Random positions (seed r, count n) and positions of random games (g games of p plies, seed s): FEN, reference board, Position. */
  const positions = (n: number, r: number, g: number, p: number, s: number) =>
    [...randomFens(n, r), ...gameFens(g, p, s)].map((fen) => ({ fen, board: boardFromFen(fen), pos: api.parseFen(fen) }));

  it('every legal move of random positions gives the reference position', () => {
    let epKept = 0;
    let epCleared = 0;
    for (const { fen, board, pos } of positions(100, 17, 240, 40, 3)) {
      const refMoves = legalMovesRef(board);
      expect(api.legalMoves(pos)).toEqual(refMoves.map(uci).sort());
      for (const move of refMoves) {
        const got = api.toFen(api.makeMove(pos, uci(move)));
        const want = referenceAfter(board, move);
        if (got !== want) expect(got, `${fen} ${uci(move)}`).toBe(want);
        if (board.cells[move.from]!.type === PAWN && Math.abs(move.to - move.from) === 16) {
          if (got.split(' ')[3] === '-') epCleared++; else epKept++;
        }
      }
    }
    // The positions exercise both sides of the en-passant rule.
    expect(epKept).toBeGreaterThan(10);
    expect(epCleared).toBeGreaterThan(20);
  });

  it('a move is taken exactly when the reference lists it: every from and to of the side to move', () => {
    // Random positions are full of checks, double checks and pins; every pair from an own piece,
    // with each promotion letter where a pawn may promote, is tried against the reference's list.
    let taken = 0;
    let refused = 0;
    for (const { fen, board, pos } of positions(60, 23, 40, 30, 5)) {
      const legal = new Set(legalMovesRef(board).map(uci));
      for (let from = 0; from < 64; from++) {
        if (board.cells[from]?.color !== board.side) continue;
        for (let to = 0; to < 64; to++) {
          const plain = `${'abcdefgh'[from & 7]}${(from >> 3) + 1}${'abcdefgh'[to & 7]}${(to >> 3) + 1}`;
          const promotes = board.cells[from]!.type === PAWN && (to >> 3 === 0 || to >> 3 === 7);
          for (const move of promotes ? ['q', 'r', 'b', 'n', ''].map((p) => plain + p) : [plain]) {
            let ok = true;
            try {
              api.makeMove(pos, move);
            } catch (e) {
              expect((e as Error).name, move).toBe('MoveError');
              ok = false;
            }
            if (ok !== legal.has(move)) expect(ok, `${fen} ${move}`).toBe(legal.has(move));
            if (ok) taken++; else refused++;
          }
        }
      }
    }
    expect(taken).toBeGreaterThan(1500);
    expect(refused).toBeGreaterThan(50_000);
  });

  it('the clocks stop at 1000000', () => {
    const pos = api.parseFen('4k3/8/8/8/8/8/8/4K2R b K - 999999 1000000');
    expect(api.toFen(api.makeMove(pos, 'e8e7'))).toBe('8/4k3/8/8/8/8/8/4K2R w K - 1000000 1000000');
    const at = api.parseFen('4k3/8/8/8/8/8/8/4K2R w K - 1000000 1000000');
    expect(api.toFen(api.makeMove(at, 'e1e2'))).toBe('4k3/8/8/8/8/8/4K3/7R b - - 1000000 1000000');
  });

  it('an illegal move is a MoveError and leaves the position as it was', () => {
    const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    const pos = api.parseFen(fen);
    // Through a piece, not the piece's move, the other side's piece, a promotion short of the last rank.
    for (const m of ['a1a8', 'e2e3', 'a8b8', 'f3f7', 'd5e6q', 'd2d3', 'e1e3']) {
      expect(() => api.makeMove(pos, m), m).toThrow(expect.objectContaining({ name: 'MoveError' }));
    }
    expect(api.toFen(pos)).toBe(fen);
  });
});

describe.skipIf(requestedBackend() === 'js')('native makeMove against the JS twin', () => {
  const native = loadNative();

  it('the same answer and the same words for every legal move and for random from/to/promotion', () => {
    const fens = randomFens(150, 5);
    const positions = fens.map((f) => jsApi.parseFen(f));
    const buffer = new Uint16Array(256);
    const outN = new BigUint64Array(PACKED_POSITION_WORDS);
    const outJ = new BigUint64Array(PACKED_POSITION_WORDS);
    let legal = 0;
    let illegal = 0;
    const compare = (i: number, from: number, to: number, promotion: number): void => {
      outN.fill(7n);
      outJ.fill(7n);
      const n = native.makeMove(positions[i]!, from, to, promotion, outN);
      const j = jsBackend.makeMove(positions[i]!, from, to, promotion, outJ);
      if (n !== j || !bytes(outN).equals(bytes(outJ))) {
        expect([n, [...outN]], `${fens[i]} ${from} ${to} ${promotion}`).toEqual([j, [...outJ]]);
      }
      // Legal exactly when legalMoves lists it; an illegal move writes nothing.
      const count = jsBackend.legalMoves(positions[i]!, buffer);
      expect(buffer.subarray(0, count).includes(from | (to << 6) | (promotion << 12))).toBe(j);
      if (j) legal++; else illegal++;
      if (!j) expect(outJ.every((w) => w === 7n)).toBe(true);
    };
    positions.forEach((pos, i) => {
      const count = jsBackend.legalMoves(pos, buffer);
      for (const code of buffer.slice(0, count)) compare(i, code & 63, (code >> 6) & 63, code >> 12);
    });
    // Every king move to every square, into check and out of it included (random pairs seldom start on the king).
    positions.forEach((pos, i) => {
      const king = pos.pieces[5] & pos.colors[pos.sideToMove];
      const from = king.toString(2).length - 1;
      for (let to = 0; to < 64; to++) compare(i, from, to, 0);
    });
    fc.assert(fc.property(fc.nat(positions.length - 1), fc.nat(63), fc.nat(63), fc.nat(4), (i, from, to, promotion) => {
      compare(i, from, to, promotion);
    }), { seed: 11, numRuns: 3000 });
    expect(legal).toBeGreaterThan(1000);
    expect(illegal).toBeGreaterThan(1000);
  });

  it('the raw addon checks its arguments', () => {
    const raw = createRequire(import.meta.url)(addonPath()) as {
      makeMove(pos: unknown, from: unknown, to: unknown, promotion: unknown, out: unknown): boolean;
    };
    const packed = packedOf(jsApi.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
    const out = () => new BigUint64Array(PACKED_POSITION_WORDS);
    expect(raw.makeMove(packed, 12, 28, 0, out())).toBe(true);
    expect(raw.makeMove(packed, 12, 36, 0, out())).toBe(false);
    const cases: [unknown[], ErrorConstructor, RegExp][] = [
      [[packed, 12, 28, 0], TypeError, /^makeMove: expected 5 arguments, got 4$/],
      [[packed.slice(0, 9), 12, 28, 0, out()], RangeError, /^makeMove: pos must have 10 words/],
      [[Object.assign(packed.slice(), { 7: 0n }), 12, 28, 0, out()], RangeError, /^makeMove: pos is not a valid position/],
      [[[...packed], 12, 28, 0, out()], TypeError, /^makeMove: pos must be a BigUint64Array, got object/],
      [[packed, 64, 28, 0, out()], RangeError, /^makeMove: from must be an integer 0..63, got 64/],
      [[packed, 12, '28', 0, out()], TypeError, /^makeMove: to must be an integer 0..63, got string/],
      [[packed, 12, 28, 5, out()], RangeError, /^makeMove: promotion must be 0 \(none\)/],
      [[packed, 12, 28, 0, new BigUint64Array(9)], RangeError, /^makeMove: out must have length 10, got 9/],
      [[packed, 12, 28, 0, new Float64Array(10)], TypeError, /^makeMove: out must be a BigUint64Array, got Float64Array/],
    ];
    for (const [args, cls, message] of cases) {
      expect(() => raw.makeMove(...(args as [unknown, unknown, unknown, unknown, unknown])), message.source).toThrow(cls);
      expect(() => raw.makeMove(...(args as [unknown, unknown, unknown, unknown, unknown])), message.source).toThrow(message);
    }
  });
});
