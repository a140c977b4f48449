/**
 * Checks and pinned pieces (Chess Programming Wiki: Checks and Pinned Pieces): the wiki page's rook/king diagrams, the
 * python-chess pin example, hand-made positions (double checks, en passant, pins on every line,
 * castling and promotion checks, illegal moves), then a brute-force comparison with
 * test/patterns/reference-checks.ts on thousands of random positions, on every backend.
 */
import { describe, expect, it } from 'vitest';
import type { Api } from '../../lib/api/create-api.js';
import { backends } from '../support/backends.js';
import { FULL, bit, checkBatch, diagram, rng, setOf, show, sq, squaresIn, ALL_SQUARES_LIST, randomSet } from './reference.js';
import {
  type Board, attackersRef, boardFromFen, checkBlockRef, checkKindRef, checkersRef, discoveredRef, fenFromBoard,
  isLegal, legalMovesRef, pinRayRef, playMove, pinnedRef, pinnersRef, pseudoMoves, randomBoard, randomEpBoard, uci, walk, type Move,
} from './reference-checks.js';

const squares = (...names: string[]) => setOf(names.map(sq));

/** The error class MoveError, found through a throwing call (it is not part of the Api object itself). */
function expectMoveError(f: () => unknown, what: string) {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err, `${what} should throw`).toBeInstanceOf(Error);
  expect((err as Error).name, `${what}: ${(err as Error).message}`).toBe('MoveError');
}

// ------------------------------------------------------------------ seed: opposite ray-directions

/**
 * The wiki picture, one rank: a black rook on b and a white king on g, with no, one and two pieces
 * between. Drawn here on rank 4 of otherwise empty boards (black king on h8, out of the way).
 */
const seedRank = (row: string) => diagram(`
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  ${row}
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
`);
const RANK4_EMPTY = FULL & ~squares('b4', 'g4');

describe.each(backends)('%s', (_name, api) => {
  describe('the wiki page: a black rook and a white king on one rank', () => {
    it('no obstruction: the rays r-> and <-K and their intersection, the squares to block the check', () => {
      // r->  . . 1 1 1 1 1 .   <-K  . 1 1 1 1 1 . .   &  . . 1 1 1 1 . .
      expect(show(api.rayAttacks('east', bit(sq('b4')), RANK4_EMPTY))).toBe(show(seedRank('. . 1 1 1 1 1 .')));
      expect(show(api.rayAttacks('west', bit(sq('g4')), RANK4_EMPTY))).toBe(show(seedRank('. 1 1 1 1 1 . .')));
      const pos = api.parseFen('7k/8/8/8/1r4K1/8/8/8 w - - 0 1');
      expect(api.checkers(pos)).toBe(bit(sq('b4')));
      expect(api.checkers(pos, 0)).toBe(bit(sq('b4')));
      expect(api.isInCheck(pos)).toBe(true);
      expect(api.isInCheck(pos, 1)).toBe(false);
      expect(show(api.checkBlockSquares(pos, 0))).toBe(show(seedRank('. . 1 1 1 1 . .')));
      expect(api.pinnedPieces(pos, 0)).toBe(0n);
      expect(api.pinners(pos, 0)).toBe(0n);
      expect(api.discoveredCheckCandidates(pos, 1)).toBe(0n);
    });

    it('one piece between, of the king\'s colour: pinned (the intersection is that piece)', () => {
      const empty = RANK4_EMPTY & ~bit(sq('e4'));
      expect(show(api.rayAttacks('east', bit(sq('b4')), empty))).toBe(show(seedRank('. . 1 1 1 . . .')));
      expect(show(api.rayAttacks('west', bit(sq('g4')), empty))).toBe(show(seedRank('. . . . 1 1 . .')));
      const pos = api.parseFen('7k/8/8/8/1r2N1K1/8/8/8 w - - 0 1');
      const pinned = seedRank('. . . . 1 . . .');
      expect(show(api.pinnedPieces(pos, 0))).toBe(show(pinned));
      expect(show(api.variants.pinnedPiecesXray(pos, 0))).toBe(show(pinned));
      expect(show(api.variants.pinnedPiecesOppositeRays(pos, 0))).toBe(show(pinned));
      expect(api.pinners(pos, 0)).toBe(bit(sq('b4')));
      expect(api.pinRay(pos, sq('e4'))).toBe(squares('b4', 'c4', 'd4', 'e4', 'f4'));
      expect(api.discoveredCheckCandidates(pos, 1)).toBe(0n);
      expect(api.checkers(pos, 0)).toBe(0n);
      expect(api.checkBlockSquares(pos, 0)).toBe(0n);
    });

    it('one piece between, of the rook\'s colour: a discovered-check candidate', () => {
      const pos = api.parseFen('7k/8/8/8/1r2n1K1/8/8/8 b - - 0 1');
      expect(show(api.discoveredCheckCandidates(pos, 1))).toBe(show(seedRank('. . . . 1 . . .')));
      expect(api.pinnedPieces(pos, 0)).toBe(0n);
      expect(api.pinners(pos, 0)).toBe(0n);
      expect(api.pinRay(pos, sq('e4'))).toBe(FULL);
      // The knight's every move uncovers the rook: discovered check (e4g5 and e4g3 do not attack g4).
      expect(api.checkKind(pos, 'e4c5')).toBe('discovered');
      expect(api.checkKind(pos, 'e4g5')).toBe('discovered');
    });

    it('two pieces between: no check, no pin, no candidate, whatever their colours', () => {
      const empty = RANK4_EMPTY & ~squares('d4', 'e4');
      expect(show(api.rayAttacks('east', bit(sq('b4')), empty))).toBe(show(seedRank('. . 1 1 . . . .')));
      expect(show(api.rayAttacks('west', bit(sq('g4')), empty))).toBe(show(seedRank('. . . . 1 1 . .')));
      for (const middle of ['NN', 'Nn', 'nN', 'nn']) {
        const pos = api.parseFen(`7k/8/8/8/1r1${middle}1K1/8/8/8 w - - 0 1`);
        expect(api.pinnedPieces(pos, 0), middle).toBe(0n);
        expect(api.variants.pinnedPiecesXray(pos, 0), middle).toBe(0n);
        expect(api.variants.pinnedPiecesOppositeRays(pos, 0), middle).toBe(0n);
        expect(api.pinners(pos, 0), middle).toBe(0n);
        expect(api.discoveredCheckCandidates(pos, 1), middle).toBe(0n);
        expect(api.checkers(pos, 0), middle).toBe(0n);
      }
    });
  });

  // ---------------------------------------------------------------- published: python-chess pin example

  describe('python-chess: pins by b4 and h4', () => {
    const fen = 'rnb1k1nr/2pppppp/3P4/8/1b5q/8/PPPNPBPP/RNBQKB1R w KQkq - 0 1';
    it('d2 and f2 are pinned, by b4 and h4', () => {
      const pos = api.parseFen(fen);
      expect(api.pinnedPieces(pos, 0)).toBe(squares('d2', 'f2'));
      expect(api.variants.pinnedPiecesXray(pos, 0)).toBe(squares('d2', 'f2'));
      expect(api.variants.pinnedPiecesOppositeRays(pos, 0)).toBe(squares('d2', 'f2'));
      expect(api.pinners(pos, 0)).toBe(squares('b4', 'h4'));
      expect(api.pinnedPieces(pos, 1)).toBe(0n);
      expect(api.pinners(pos, 1)).toBe(0n);
      expect(api.pinRay(pos, sq('d2'))).toBe(squares('d2', 'c3', 'b4'));
      expect(api.pinRay(pos, sq('f2'))).toBe(squares('f2', 'g3', 'h4'));
      expect(api.pinRay(pos, sq('e2'))).toBe(FULL);
      expect(api.pinRay(pos, sq('e1'))).toBe(FULL);
      expect(api.pinRay(pos, sq('e4'))).toBe(FULL); // empty square
      expect(api.checkers(pos)).toBe(0n);
      expect(api.isInCheck(pos)).toBe(false);
    });
    it('pinned pieces may move along the pin only', () => {
      const pos = api.parseFen(fen);
      expectMoveError(() => api.checkKind(pos, 'd2e4'), 'pinned knight d2e4');
      expectMoveError(() => api.checkKind(pos, 'd2b3'), 'pinned knight d2b3');
      expect(api.checkKind(pos, 'f2g3')).toBe('none');
      expect(api.checkKind(pos, 'f2h4')).toBe('none');
      expectMoveError(() => api.checkKind(pos, 'f2e3'), 'pinned bishop f2e3');
      expect(api.checkKind(pos, 'd6c7')).toBe('none');
      expect(api.checkKind(pos, 'd6e7')).toBe('none');
    });
  });

  // ---------------------------------------------------------------- hand-made positions

  describe('hand-made positions', () => {
    /** checkKind of each [FEN, move, kind, why] row, the why (or FEN and move) naming a failure. */
    const expectKinds = (rows: [fen: string, move: string, kind: string, why?: string][]) => {
      for (const [fen, move, kind, why] of rows) expect(api.checkKind(api.parseFen(fen), move), why ?? `${fen} ${move}`).toBe(kind);
    };

    it('pins along a rank, a file, a diagonal and an anti-diagonal, both ways each', () => {
      // White king d4; pinned: f4 (rook h4), d6 (queen d8), e5 (bishop g7), c5 (bishop a7), c3 (bishop a1), d2 (rook d1).
      const pos = api.parseFen('3q4/b5b1/3B4/2Q1R3/3K1N1r/2P5/3N3k/b2r4 w - - 0 1');
      const pinned = squares('f4', 'd6', 'e5', 'c5', 'c3', 'd2');
      expect(show(api.pinnedPieces(pos, 0))).toBe(show(pinned));
      expect(show(api.variants.pinnedPiecesXray(pos, 0))).toBe(show(pinned));
      expect(show(api.variants.pinnedPiecesOppositeRays(pos, 0))).toBe(show(pinned));
      expect(show(api.pinners(pos, 0))).toBe(show(squares('h4', 'd8', 'g7', 'a7', 'a1', 'd1')));
      expect(api.pinRay(pos, sq('f4'))).toBe(squares('e4', 'f4', 'g4', 'h4'));
      expect(api.pinRay(pos, sq('d6'))).toBe(squares('d5', 'd6', 'd7', 'd8'));
      expect(api.pinRay(pos, sq('e5'))).toBe(squares('e5', 'f6', 'g7'));
      expect(api.pinRay(pos, sq('c5'))).toBe(squares('c5', 'b6', 'a7'));
      expect(api.pinRay(pos, sq('c3'))).toBe(squares('c3', 'b2', 'a1'));
      expect(api.pinRay(pos, sq('d2'))).toBe(squares('d3', 'd2', 'd1'));
      expect(api.checkers(pos)).toBe(0n);
      expect(api.checkKind(pos, 'c5b6')).toBe('none');
      expect(api.checkKind(pos, 'c5a7')).toBe('none');
      expect(api.checkKind(pos, 'd4e4')).toBe('none');
      for (const m of ['c5c6', 'c5d5', 'f4g6', 'f4e6', 'd6e7', 'e5f5', 'e5e6', 'c3c4', 'd2b3', 'd2f3']) {
        expectMoveError(() => api.checkKind(pos, m), m);
      }
    });

    it('double check on the board: two checkers, nothing to block', () => {
      const pos = api.parseFen('4k3/8/3N4/8/8/8/8/K3R3 b - - 0 1');
      expect(api.checkers(pos)).toBe(squares('e1', 'd6'));
      expect(api.isInCheck(pos)).toBe(true);
      expect(api.checkBlockSquares(pos, 1)).toBe(0n);
      expect(api.attackersTo(pos, sq('e8'), 0)).toBe(squares('e1', 'd6'));
      expectMoveError(() => api.checkKind(pos, 'e8e7'), 'e8e7 stays on the file');
      expectMoveError(() => api.checkKind(pos, 'e8f7'), 'e8f7 is covered by the knight');
      expect(api.checkKind(pos, 'e8f8')).toBe('none');
      expect(api.checkKind(pos, 'e8d7')).toBe('none');
    });

    it('a knight uncovering a rook: double, discovered or none', () => {
      const pos = api.parseFen('4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1');
      expect(api.discoveredCheckCandidates(pos, 0)).toBe(bit(sq('e4')));
      expect(api.checkKind(pos, 'e4d6')).toBe('double');
      expect(api.checkKind(pos, 'e4f6')).toBe('double');
      expect(api.checkKind(pos, 'e4c5')).toBe('discovered');
      expect(api.checkKind(pos, 'e4g5')).toBe('discovered');
      expect(api.checkKind(pos, 'a1b1')).toBe('none');
      expect(api.checkKind(pos, 'e1e2')).toBe('none');
    });

    it('checks from a distance and next to the king; what blocks them', () => {
      const rook = api.parseFen('4k3/8/8/8/8/8/8/K6R w - - 0 1');
      expect(api.checkKind(rook, 'h1h8')).toBe('direct');
      expect(api.checkKind(rook, 'h1e1')).toBe('direct');
      expect(api.checkKind(rook, 'h1h2')).toBe('none');
      const bishop = api.parseFen('4k3/8/8/b7/8/8/8/4K3 w - - 0 1');
      expect(api.checkers(bishop)).toBe(bit(sq('a5')));
      expect(api.checkBlockSquares(bishop, 0)).toBe(squares('b4', 'c3', 'd2'));
      const knight = api.parseFen('4k3/8/8/8/8/5n2/8/4K3 w - - 0 1');
      expect(api.checkers(knight)).toBe(bit(sq('f3')));
      expect(api.checkBlockSquares(knight, 0)).toBe(0n);
      const pawn = api.parseFen('4k3/8/8/8/8/8/3p4/4K3 w - - 0 1');
      expect(api.checkers(pawn)).toBe(bit(sq('d2')));
      expect(api.checkBlockSquares(pawn, 0)).toBe(0n);
      const adjacentQueen = api.parseFen('4k3/8/8/8/8/8/4q3/4K3 w - - 0 1');
      expect(api.checkers(adjacentQueen)).toBe(bit(sq('e2')));
      expect(api.checkBlockSquares(adjacentQueen, 0)).toBe(0n);
    });

    it('capturing the checking piece, with a rook that then checks', () => {
      const pos = api.parseFen('4k3/8/8/8/8/8/R3r3/4K3 w - - 0 1');
      expect(api.checkers(pos)).toBe(bit(sq('e2')));
      expect(api.checkBlockSquares(pos, 0)).toBe(0n);
      expect(api.checkKind(pos, 'a2e2')).toBe('direct');
      expect(api.checkKind(pos, 'e1e2')).toBe('none');
      expect(api.checkKind(pos, 'e1d1')).toBe('none');
      for (const m of ['a2a3', 'e1d2', 'e1f2', 'a2b2']) expectMoveError(() => api.checkKind(pos, m), m);
    });

    it('en passant: by hand, 8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3', () => {
      // The black king on b5 is in check from f1 along f1-e2-d3-c4. exd3 e.p. lands on d3 and blocks it;
      // the black pawn on d3 attacks c2 and e2, not e1, and black has no slider: no check.
      const pos = api.parseFen('8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1');
      expect(api.checkers(pos)).toBe(bit(sq('f1')));
      expect(api.checkBlockSquares(pos, 1)).toBe(squares('c4', 'd3', 'e2'));
      expect(api.checkKind(pos, 'e4d3')).toBe('none');
      expectMoveError(() => api.checkKind(pos, 'e4e3'), 'e4e3 leaves the king in check');
      expect(api.checkKind(pos, 'b5a5')).toBe('none');
      expectMoveError(() => api.checkKind(pos, 'b5c4'), 'b5c4 stays on the diagonal');
    });

    it('en passant opening the captured pawn\'s diagonal, the from-square\'s file, and both with a direct check', () => {
      expectKinds([
        ['6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 1', 'e5d6', 'discovered', 'the bishop a2 sees g8 once d5 is gone'],
        ['4k3/8/8/3pP3/8/8/4R3/K7 w - d6 0 1', 'e5d6', 'discovered', 'the rook e2 sees e8 once e5 has left'],
        ['8/4k3/8/3pP3/8/8/4R3/K7 w - d6 0 1', 'e5d6', 'double', 'king on e7: the pawn on d6 checks it and the rook e2 does too'],
        ['2r5/8/8/8/2pP4/8/8/2K1k3 b - d3 0 1', 'c4d3', 'discovered', 'black: c4xd3 e.p. opens the c-file for the rook c8 onto the king on c1'],
      ]);
    });

    it('en passant through a horizontal "double pin" is illegal, but neither pawn is pinned', () => {
      const pos = api.parseFen('8/8/8/K2pP2r/8/8/8/7k w - d6 0 1');
      expect(api.pinnedPieces(pos, 0)).toBe(0n);
      expect(api.variants.pinnedPiecesXray(pos, 0)).toBe(0n);
      expect(api.variants.pinnedPiecesOppositeRays(pos, 0)).toBe(0n);
      expect(api.pinRay(pos, sq('e5'))).toBe(FULL);
      expectMoveError(() => api.checkKind(pos, 'e5d6'), 'e5d6 e.p. exposes the king on a5');
      expect(api.checkKind(pos, 'e5e6')).toBe('none');
      // The same with black capturing on the 4th rank.
      const black = api.parseFen('7K/8/8/8/R2Pp2k/8/8/8 b - d3 0 1');
      expectMoveError(() => api.checkKind(black, 'e4d3'), 'e4d3 e.p. exposes the king on h4');
    });

    it('castling: the rook giving check is direct; through, out of or into check is illegal', () => {
      expectKinds([
        ['5k2/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1', 'direct'],
        ['3k4/8/8/8/8/8/8/R3K3 w Q - 0 1', 'e1c1', 'direct'],
        ['r3k3/8/8/8/8/8/8/3K4 b q - 0 1', 'e8c8', 'direct'],
        ['4k2r/8/8/8/8/8/8/5K2 b k - 0 1', 'e8g8', 'direct'],
        ['4k3/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1', 'none'],
        ['4k3/8/8/8/8/8/8/R3K3 w Q - 0 1', 'e1c1', 'none'],
        ['1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1', 'e1c1', 'none', 'b1 attacked does not matter for queen-side castling; only e1, d1, c1 do'],
      ]);
      const illegal: [string, string][] = [
        ['4kr2/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1'], // through f1
        ['4k3/8/8/4r3/8/8/8/4K2R w K - 0 1', 'e1g1'], // out of check
        ['4k1r1/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1'], // into check on g1
        ['3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1', 'e1c1'], // through d1
        ['4k3/8/8/8/8/8/8/4KB1R w K - 0 1', 'e1g1'], // f1 occupied
        ['4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1', 'e1c1'], // b1 occupied
        ['4k3/8/8/8/8/8/8/4K2R w - - 0 1', 'e1g1'], // no right
        ['4k3/8/8/8/8/8/8/R3K2R w K - 0 1', 'e1c1'], // only the other right
      ];
      for (const [fen, m] of illegal) expectMoveError(() => api.checkKind(api.parseFen(fen), m), `${fen} ${m}`);
    });

    it('promotions: queen and knight checks, underpromotion, discovered check by the promoting pawn', () => {
      const pos = api.parseFen('8/4k1P1/8/8/8/8/8/K7 w - - 0 1');
      expect(api.checkKind(pos, 'g7g8n')).toBe('direct'); // knight g8 attacks e7
      expect(api.checkKind(pos, 'g7g8q')).toBe('none');
      expect(api.checkKind(pos, 'g7g8r')).toBe('none');
      expect(api.checkKind(pos, 'g7g8b')).toBe('none');
      expectMoveError(() => api.checkKind(pos, 'g7g8'), 'promotion missing');
      const queen = api.parseFen('4k3/6P1/8/8/8/8/8/K7 w - - 0 1');
      expect(api.checkKind(queen, 'g7g8q')).toBe('direct');
      expect(api.checkKind(queen, 'g7g8r')).toBe('direct');
      expect(api.checkKind(queen, 'g7g8b')).toBe('none');
      const discovered = api.parseFen('8/RP5k/8/8/8/8/8/K7 w - - 0 1');
      expect(api.checkKind(discovered, 'b7b8q')).toBe('discovered');
      expect(api.checkKind(discovered, 'b7b8n')).toBe('discovered');
      const capture = api.parseFen('1r5k/P7/8/8/8/8/8/K7 w - - 0 1');
      expect(api.checkKind(capture, 'a7b8q')).toBe('direct'); // b8-h8 along the rank
      expect(api.checkKind(capture, 'a7b8n')).toBe('none');
      expect(api.checkKind(capture, 'a7a8r')).toBe('none'); // the rook b8 blocks a8-h8
      expect(api.checkKind(capture, 'a7a8q')).toBe('none');
    });

    it('illegal moves of every kind throw MoveError', () => {
      const start = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      const cases: [ReturnType<Api['parseFen']>, string, string][] = [
        [start, 'e7e5', "the other side's piece"],
        [start, 'e3e4', 'no piece'],
        [start, 'g1g3', 'a knight moving like a rook'],
        [start, 'b1b3', 'a knight moving straight'],
        [start, 'f1c4', 'a bishop through its own pawn'],
        [start, 'a1a3', 'a rook through its own pawn'],
        [start, 'd1d2', 'capturing an own piece'],
        [start, 'e2e5', 'a pawn three squares'],
        [start, 'e2d3', 'a pawn diagonally to an empty square'],
        [start, 'e1e3', 'a king two squares'],
        [start, 'e1g1', 'castling through pieces'],
        [start, 'e2e4q', 'a promotion before the last rank'],
        [start, 'g1f3q', 'a knight promoting'],
        [start, 'e2e2', 'to its own square'],
        [api.parseFen('4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1'), 'e3e4', 'a pawn pushing into a piece'],
        [api.parseFen('4k3/8/8/8/8/4P3/8/4K3 w - - 0 1'), 'e3e5', 'a double push off the start rank'],
        [api.parseFen('4k3/8/8/8/8/4P3/8/4K3 w - - 0 1'), 'e3e2', 'a pawn backwards'],
        [api.parseFen('4k3/8/8/8/8/8/8/R3K3 w - - 0 1'), 'a1a8q', 'a rook promoting'],
        [api.parseFen('4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1'), 'a1a2', 'ignoring a check'],
        [api.parseFen('4k3/8/8/8/8/8/8/4K2r w - - 0 1'), 'e1d1', 'staying on the checking line'],
        [api.parseFen('4k3/8/8/8/8/8/8/4K2r w - - 0 1'), 'e1f1', 'stepping towards the checker'],
        [api.parseFen('8/8/8/3k4/8/3K4/8/8 w - - 0 1'), 'd3d4', 'the king next to the other king'],
        [api.parseFen('4k3/8/8/8/8/4p3/8/4K3 w - - 0 1'), 'e1d2', 'the king onto a square a pawn attacks'],
      ];
      for (const [pos, m, what] of cases) expectMoveError(() => api.checkKind(pos, m), `${m}: ${what}`);
      // The same positions do have legal moves: the errors are about the moves.
      expect(api.checkKind(api.parseFen('4k3/8/8/8/8/8/8/4K2r w - - 0 1'), 'e1e2')).toBe('none');
      expect(api.checkKind(start, 'g1f3')).toBe('none');
    });

    it('malformed UCI strings throw MoveError', () => {
      const pos = api.parseFen('4k3/6P1/8/8/8/8/4P3/4K3 w - - 0 1');
      for (const m of ['', 'e2', 'e2e', 'e2e4 ', ' e2e4', 'E2E4', 'e2e9', 'i2i4', 'e0e1', 'e2e4x', 'g7g8k', 'g7g8p',
        'e2-e4', '0000', 'g7g8qq', 'e2e4e5', '\u0000\u0000\u0000\u0000', 'x'.repeat(100_000)]) {
        expectMoveError(() => api.checkKind(pos, m), JSON.stringify(m.slice(0, 10)));
      }
    });
  });

  // ---------------------------------------------------------------- published: perft check statistics

  describe('published perft statistics (chess programming wiki): the checks columns', () => {
    // [name, fen, depth, checks, discovery checks, double checks] at the last ply. The wiki gives the
    // discovery and double columns for the start position, Kiwipete and position 3; position 4's
    // discovery count (2) is the reference's own, agreeing with the wiki's total of checks.
    it.each([
      ['start position', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 3, 12, 0, 0],
      ['Kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 2, 3, 0, 0],
      ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 4, 1680, 106, 0],
      ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 3, 38, 2, 0],
      ['position 4 mirrored', 'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1', 3, 38, 2, 0],
    ] as const)('%s', (_n, fen, depth, checks, discovered, double) => {
      const tally = { none: 0, direct: 0, discovered: 0, double: 0 };
      for (const [leafFen, moves] of lastPly(fen, depth)) {
        const pos = api.parseFen(leafFen);
        for (const m of moves) tally[api.checkKind(pos, m)]++;
      }
      expect(tally.direct + tally.discovered + tally.double).toBe(checks);
      expect(tally.discovered + tally.double).toBe(discovered + double);
      expect(tally.double).toBe(double);
    });
  });

  // ---------------------------------------------------------------- brute force on random positions

  describe('random positions against the brute-force reference', () => {
    const cases = randomCases();

    it(`attackersTo, checkers, isInCheck on ${cases.length} positions`, () => {
      for (const c of cases) {
        const pos = api.parseFen(c.fen);
        for (const color of [0, 1] as const) {
          const want = c.attackers[color]!;
          c.attackSquares.forEach((s, i) => {
            if (api.attackersTo(pos, s, color) !== want[i]) {
              expect(show(api.attackersTo(pos, s, color)), `${c.fen} sq ${s} by ${color}`).toBe(show(want[i]!));
            }
          });
          const occWant = c.attackersOcc[color]!;
          c.attackSquares.forEach((s, i) => {
            if (api.attackersTo(pos, s, color, c.occ) !== occWant[i]) {
              expect(api.attackersTo(pos, s, color, c.occ), `${c.fen} sq ${s} by ${color} occ ${c.occ}`).toBe(occWant[i]);
            }
          });
          expect(api.checkers(pos, color), c.fen).toBe(c.checkers[color]);
          expect(api.isInCheck(pos, color), c.fen).toBe(c.checkers[color] !== 0n);
        }
        expect(api.checkers(pos), c.fen).toBe(c.checkers[c.side]);
        expect(api.isInCheck(pos), c.fen).toBe(c.checkers[c.side] !== 0n);
      }
    });

    it('pinnedPieces (and both variants), pinners, discoveredCheckCandidates, checkBlockSquares', () => {
      for (const c of cases) {
        const pos = api.parseFen(c.fen);
        for (const color of [0, 1] as const) {
          const at = `${c.fen} color ${color}`;
          expect(api.pinnedPieces(pos, color), at).toBe(c.pinned[color]);
          expect(api.variants.pinnedPiecesXray(pos, color), at).toBe(c.pinned[color]);
          expect(api.variants.pinnedPiecesOppositeRays(pos, color), at).toBe(c.pinned[color]);
          expect(api.pinners(pos, color), at).toBe(c.pinners[color]);
          expect(api.discoveredCheckCandidates(pos, color), at).toBe(c.discovered[color]);
          expect(api.checkBlockSquares(pos, color), at).toBe(c.block[color]);
        }
      }
      // The random positions do exercise what they test.
      expect(cases.filter((c) => c.pinned[0] | c.pinned[1]).length).toBeGreaterThan(cases.length / 10);
      expect(cases.filter((c) => c.discovered[0] | c.discovered[1]).length).toBeGreaterThan(cases.length / 10);
      expect(cases.filter((c) => c.block[c.side] !== 0n).length).toBeGreaterThan(cases.length / 50);
    });

    it('pinRay on every square', () => {
      for (const c of cases) {
        const pos = api.parseFen(c.fen);
        for (const s of ALL_SQUARES_LIST) {
          if (api.pinRay(pos, s) !== c.pinRay[s]) expect(show(api.pinRay(pos, s)), `${c.fen} sq ${s}`).toBe(show(c.pinRay[s]!));
        }
      }
    });

    it('checkKind for every pseudo-legal move: legal ones classified like the reference, illegal ones throw', () => {
      const tally = { none: 0, direct: 0, discovered: 0, double: 0, illegal: 0 };
      for (const c of cases) {
        const pos = api.parseFen(c.fen);
        for (const [move, want] of c.moves) {
          if (want === 'illegal') {
            expectMoveError(() => api.checkKind(pos, move), `${c.fen} ${move}`);
          } else {
            let got: string;
            try {
              got = api.checkKind(pos, move);
            } catch (e) {
              got = `threw ${(e as Error).message}`;
            }
            expect(got, `${c.fen} ${move}`).toBe(want);
          }
          tally[want]++;
        }
      }
      expect(tally.direct).toBeGreaterThan(100);
      expect(tally.discovered).toBeGreaterThan(20);
      expect(tally.double).toBeGreaterThan(3);
      expect(tally.illegal).toBeGreaterThan(100);
    });

    it('checkKind throws for random from/to pairs that are not moves', () => {
      for (const c of cases.slice(0, 600)) {
        const pos = api.parseFen(c.fen);
        for (const m of c.nonMoves) expectMoveError(() => api.checkKind(pos, m), `${c.fen} ${m}`);
      }
    });
  });

  // ---------------------------------------------------------------- batch forms

  describe('batch forms over packPositions', () => {
    const cases = randomCases().slice(0, 300);
    it.each([
      ['checkersBatch', 'checkers'], ['pinnedPiecesBatch', 'pinned'], ['discoveredCheckCandidatesBatch', 'discovered'],
    ] as const)('%s equals the reference for colour 0, 1 and each side to move', (name, key) => {
      // 2 = each position's side to move; checkersBatch also takes the colour left out.
      const colors = name === 'checkersBatch' ? [0, 1, 2, undefined] : [0, 1, 2];
      for (const color of colors) {
        checkBatch(BigUint64Array, 0xbadn, (n) => {
          const chosen = cases.slice(0, n);
          const packed = api.packPositions(chosen.map((c) => api.parseFen(c.fen)));
          return {
            run: (out?: BigUint64Array) => api[name](packed, color as number, out),
            expected: chosen.map((c) => c[key][color === undefined || color === 2 ? c.side : color]!),
          };
        });
      }
    });
    it('checkAnalysisBatch equals the six single calls and the reference on every random position', () => {
      const all = randomCases();
      const positions = all.map((c) => api.parseFen(c.fen));
      const packed = api.packPositions(positions);
      const fresh = api.checkAnalysisBatch(packed);
      expect(fresh).toBeInstanceOf(BigUint64Array);
      expect(fresh.length).toBe(6 * all.length);
      const out = new BigUint64Array(6 * all.length).fill(0xbadn);
      expect(api.checkAnalysisBatch(packed, out)).toBe(out);
      positions.forEach((pos, i) => {
        const singles = [0, 1].flatMap((color) => [api.checkers(pos, color), api.pinnedPieces(pos, color), api.discoveredCheckCandidates(pos, color)]);
        const c = all[i]!;
        const reference = [0, 1].flatMap((color) => [c.checkers[color], c.pinned[color], c.discovered[color]]);
        const got = Array.from(out.subarray(6 * i, 6 * i + 6));
        if (got.some((w, k) => w !== singles[k] || w !== reference[k] || fresh[6 * i + k] !== w)) {
          expect(got.map(show), c.fen).toEqual(singles.map(show));
          expect(got, c.fen).toEqual(reference);
        }
      });
      expect(api.checkAnalysisBatch(new BigUint64Array(0)).length).toBe(0);
    });
    it('packPositions concatenates the packed positions', () => {
      const positions = cases.slice(0, 20).map((c) => api.parseFen(c.fen));
      const packed = api.packPositions(positions);
      expect(packed).toBeInstanceOf(BigUint64Array);
      expect(Array.from(packed)).toEqual(positions.flatMap((p) => Array.from(p.packed)));
      expect(api.packPositions([]).length).toBe(0);
    });
  });
});

// ------------------------------------------------------------------ expected values, computed once

interface RandomCase {
  fen: string;
  side: 0 | 1;
  occ: bigint;
  attackSquares: number[];
  attackers: bigint[][];
  attackersOcc: bigint[][];
  checkers: bigint[];
  pinned: bigint[];
  pinners: bigint[];
  discovered: bigint[];
  block: bigint[];
  pinRay: bigint[];
  moves: [string, 'none' | 'direct' | 'discovered' | 'double' | 'illegal'][];
  nonMoves: string[];
}

let memo: RandomCase[] | undefined;

/** 1600 random positions plus 400 with en-passant chances, and what the reference says about them. */
function randomCases(): RandomCase[] {
  if (memo) return memo;
  const next = rng(2024);
  const boards: Board[] = [];
  for (let i = 0; i < 1600; i++) boards.push(randomBoard(next, i % 2 ? 7 : 12));
  for (let i = 0; i < 400; i++) boards.push(randomEpBoard(next));
  memo = boards.map((b, i) => {
    const attackSquares = i < 300 ? ALL_SQUARES_LIST : Array.from({ length: 6 }, () => Math.floor(next() * 64));
    const occ = randomSet(next, 0.3);
    const moves = pseudoMoves(b);
    const names = new Set(moves.map(uci));
    const nonMoves: string[] = [];
    while (nonMoves.length < 8) {
      const m: Move = { from: Math.floor(next() * 64), to: Math.floor(next() * 64), promotion: next() < 0.1 ? 1 + Math.floor(next() * 4) : 0 };
      // A king onto its own rook could be read as Chess960 castling: leave that question out.
      if (!names.has(uci(m)) && !(b.cells[m.from]?.type === 5 && b.cells[m.to]?.type === 3 && b.cells[m.to]?.color === b.cells[m.from]?.color)) {
        nonMoves.push(uci(m));
      }
    }
    return {
      fen: fenFromBoard(b),
      side: b.side,
      occ,
      attackSquares,
      attackers: [0, 1].map((c) => attackSquares.map((s) => attackersRef(b, s, c))),
      attackersOcc: [0, 1].map((c) => attackSquares.map((s) => attackersRef(b, s, c, occ))),
      checkers: [0, 1].map((c) => checkersRef(b, c)),
      pinned: [0, 1].map((c) => pinnedRef(b, c)),
      pinners: [0, 1].map((c) => pinnersRef(b, c)),
      discovered: [0, 1].map((c) => discoveredRef(b, c)),
      block: [0, 1].map((c) => checkBlockRef(b, c)),
      pinRay: ALL_SQUARES_LIST.map((s) => pinRayRef(b, s)),
      moves: moves.map((m): RandomCase['moves'][number] => [uci(m), isLegal(b, m) ? checkKindRef(b, m) : 'illegal']),
      nonMoves,
    };
  });
  return memo;
}

const lastPlyMemo = new Map<string, [string, string[]][]>();

/** The positions one ply above the leaves of the reference's perft tree, with their legal moves. */
function lastPly(fen: string, depth: number): [string, string[]][] {
  const key = `${fen} ${depth}`;
  const hit = lastPlyMemo.get(key);
  if (hit) return hit;
  const out: [string, string[]][] = [];
  const visit = (b: Board, d: number) => {
    const moves = legalMovesRef(b);
    if (d === 1) out.push([fenFromBoard(b), moves.map(uci)]);
    else for (const m of moves) visit(playMove(b, m), d - 1);
  };
  visit(boardFromFen(fen), depth);
  lastPlyMemo.set(key, out);
  return out;
}

// Keep the square helpers referenced (they document the reference's vocabulary in failures).
void squaresIn;
void walk;
void boardFromFen;
