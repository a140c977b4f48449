/**
 * Legal moves and makeMove on every backend: against the brute-force reference of
 * test/patterns/reference-checks.ts (pseudo-legal moves, each played on a plain 64-cell board and kept when
 * the own king is not attacked afterwards; castling also not out of or through check) on thousands
 * of random positions, and hand positions for every special case.
 */
import { describe, expect, it } from 'vitest';
import { decodeMove, encodeMove } from '../../lib/api/create-api.js';
import { backends } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import {
  boardFromFen, fenFromBoard, legalMovesRef, playMove, randomBoard, randomEpBoard, uci,
} from '../patterns/reference-checks.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** Random positions (one in four built around an en-passant chance), as FENs. */
function randomFens(n: number, seed: number): string[] {
  const next = rng(seed);
  return Array.from({ length: n }, (_, i) => fenFromBoard(i % 4 === 0 ? randomEpBoard(next) : randomBoard(next, 1 + (i % 12))));
}

/** A FEN without its en-passant field (the reference sets it after every double push). */
const withoutEp = (fen: string): string => fen.split(' ').filter((_, i) => i !== 3).join(' ');

describe.each(backends)('%s', (_name, api) => {
  describe('legalMoves against the brute-force reference', () => {
    const fens = randomFens(3000, 4242);

    it(`${fens.length} random positions: the same moves, sorted, no duplicates`, () => {
      let moves = 0;
      let epCaptures = 0;
      let promotions = 0;
      let castles = 0;
      for (const fen of fens) {
        const want = legalMovesRef(boardFromFen(fen)).map(uci).sort();
        const got = api.legalMoves(api.parseFen(fen));
        if (got.join() !== want.join()) expect(got, fen).toEqual(want);
        moves += got.length;
        const ep = fen.split(' ')[3];
        if (ep !== '-') epCaptures += got.filter((m) => m.endsWith(ep!)).length;
        promotions += got.filter((m) => m.length === 5).length;
        castles += got.filter((m) => /^e1[cg]1|^e8[cg]8/.test(m)).length;
      }
      // The random positions do exercise the special moves.
      expect(moves).toBeGreaterThan(fens.length * 5);
      expect(epCaptures).toBeGreaterThan(100);
      expect(promotions).toBeGreaterThan(100);
      expect(castles).toBeGreaterThan(50);
    });

    it('random games from the published positions, move by move, with makeMove', () => {
      const next = rng(99);
      for (const start of [START, KIWIPETE, '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
        'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1']) {
        for (let game = 0; game < 8; game++) {
          let pos = api.parseFen(start);
          for (let ply = 0; ply < 80; ply++) {
            const fen = api.toFen(pos);
            const board = boardFromFen(fen);
            const want = legalMovesRef(board).map(uci).sort();
            const got = api.legalMoves(pos);
            if (got.join() !== want.join()) expect(got, fen).toEqual(want);
            if (!got.length) break;
            const move = got[Math.floor(next() * got.length)]!;
            pos = api.makeMove(pos, move);
            // The reference's game state after the move, but for the en-passant field (see makeMove).
            const refMove = legalMovesRef(board).find((m) => uci(m) === move)!;
            expect(withoutEp(api.toFen(pos)), `${fen} ${move}`).toBe(withoutEp(fenFromBoard(playMove(board, refMove))));
          }
        }
      }
    });
  });

  describe('legalMovesEncoded, encodeMove, decodeMove', () => {
    it('the codes decode to legalMoves', () => {
      for (const fen of [START, KIWIPETE, ...randomFens(200, 7)]) {
        const pos = api.parseFen(fen);
        const codes = api.legalMovesEncoded(pos);
        expect(codes).toBeInstanceOf(Uint16Array);
        expect(Array.from(codes, decodeMove).sort()).toEqual(api.legalMoves(pos));
      }
    });

    it('returns a subarray of the caller buffer', () => {
      const buffer = new Uint16Array(300).fill(0xffff);
      const codes = api.legalMovesEncoded(api.parseFen(START), buffer);
      expect(codes.buffer).toBe(buffer.buffer);
      expect(codes).toHaveLength(20);
      expect(buffer[20]).toBe(0xffff);
    });

    it('encoding: from | to << 6 | promotion << 12', () => {
      expect(encodeMove('a1a2')).toBe(0 | (8 << 6));
      expect(encodeMove('e2e4')).toBe(12 | (28 << 6));
      expect(encodeMove('e7e8q')).toBe(52 | (60 << 6) | (4 << 12));
      expect(encodeMove('b2a1n')).toBe(9 | (0 << 6) | (1 << 12));
      for (const m of ['a1h8', 'h8a1', 'e7e8q', 'e7e8r', 'e7e8b', 'e7e8n', 'g2g1q', 'e1g1']) expect(decodeMove(encodeMove(m))).toBe(m);
      expect(() => decodeMove(5 << 12 | 8 << 6)).toThrow(RangeError);
      expect(() => decodeMove(0)).toThrow(RangeError);
      expect(() => decodeMove(-1)).toThrow(RangeError);
      expect(() => decodeMove(1.5)).toThrow(RangeError);
      expect(() => encodeMove('e2e9')).toThrow(/not a UCI move/);
    });
  });

  describe('special cases', () => {
    const moves = (fen: string) => api.legalMoves(api.parseFen(fen));

    it('a pinned piece moves only along its pin ray', () => {
      // The e2 rook is pinned on the e-file by the e8 rook: it may slide on the file and take the pinner.
      expect(moves('4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1').filter((m) => m.startsWith('e2')))
        .toEqual(['e2e3', 'e2e4', 'e2e5', 'e2e6', 'e2e7', 'e2e8']);
      // A pinned knight cannot move at all; a bishop pinned on a file neither.
      expect(moves('4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1').filter((m) => m.startsWith('e2'))).toEqual([]);
      expect(moves('4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1').filter((m) => m.startsWith('e2'))).toEqual([]);
      // A pawn pinned diagonally may only take the pinner; unpinned it pushes.
      expect(moves('7k/8/8/8/8/5b2/4P3/3K4 w - - 0 1').filter((m) => m.startsWith('e2'))).toEqual(['e2f3']);
      expect(moves('7k/8/8/8/8/8/4P3/3K4 w - - 0 1').filter((m) => m.startsWith('e2'))).toEqual(['e2e3', 'e2e4']);
      // Pinned further away the capture is off the ray: no move.
      expect(moves('7k/8/8/8/6b1/8/4P3/3K4 w - - 0 1').filter((m) => m.startsWith('e2'))).toEqual([]);
      expect(moves('7k/8/8/8/8/8/2b5/1K6 w - - 0 1')).toContain('b1c2');
    });

    it('check evasions: king moves, capturing the checker, interposing', () => {
      // Rook check on the e-file: Kd1/d2/f1/f2 (not e2), Bxe... no; block with Nd... / Bd3? The set is the reference's.
      const fen = '4r2k/8/8/8/8/3B4/8/4K1N1 w - - 0 1';
      expect(moves(fen)).toEqual(['d3e2', 'd3e4', 'e1d1', 'e1d2', 'e1f1', 'e1f2', 'g1e2']);
      // A knight check: take it or step away; no interposition.
      expect(moves('7k/8/8/8/8/3n4/8/R3K3 w - - 0 1')).toEqual(['e1d1', 'e1d2', 'e1e2', 'e1f1']);
      // The king may not step back along the checking ray (it does not shield itself).
      expect(moves('7k/8/8/8/8/8/8/r3K3 w - - 0 1')).not.toContain('e1f1');
    });

    it('double check: only king moves', () => {
      // Rook on e8 and knight on d3 both check; the rooks could take either checker, but may not.
      const fen = 'k3r3/8/8/8/8/3n4/3R4/4K2R w - - 0 1';
      expect(moves(fen)).toEqual(['e1d1', 'e1f1']);
    });

    it('en passant: allowed, pinned on a diagonal, and the horizontal pin', () => {
      expect(moves('7k/8/8/3pP3/8/8/8/4K3 w - d6 0 1')).toContain('e5d6');
      // K and enemy rook on the fifth rank with both pawns between: taking would clear the rank.
      expect(moves('8/8/8/K2pP2r/8/8/8/7k w - d6 0 1')).not.toContain('e5d6');
      // Only one pawn between king and rook after the capture (another piece stays): legal.
      expect(moves('8/8/8/K1NpP2r/8/8/8/7k w - d6 0 1')).toContain('e5d6');
      // The capturing pawn pinned diagonally towards the capture square: legal along the pin ray.
      expect(moves('1b5k/8/8/3pP3/8/6K1/8/8 w - d6 0 1').filter((m) => m.startsWith('e5'))).toEqual(['e5d6']);
      expect(moves('7k/8/8/3pP3/8/8/8/b6K w - d6 0 1')).toContain('e5d6');
      // The pawn that just moved gives check: taking it en passant is an evasion.
      expect(moves('8/8/8/8/3pP3/3K4/8/7k b - e3 0 1').length).toBeGreaterThan(0);
      expect(moves('8/8/8/3k4/3pP3/8/8/7K b - e3 0 1')).toContain('d4e3');
      // In check from a slider, en passant that does not block is illegal.
      expect(moves('7k/8/8/3pP3/8/8/8/4K2r w - d6 0 1')).not.toContain('e5d6');
    });

    it('castling: through unattacked squares only, never out of check, b1 may be attacked', () => {
      expect(moves('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1')).toEqual(expect.arrayContaining(['e1g1', 'e1c1']));
      // f1 attacked: no short castling; d1 attacked: no long castling.
      expect(moves('5r2/8/8/8/2k5/8/8/R3K2R w KQ - 0 1')).not.toContain('e1g1');
      expect(moves('5r2/8/8/8/2k5/8/8/R3K2R w KQ - 0 1')).toContain('e1c1');
      expect(moves('3r4/8/8/8/6k1/8/8/R3K2R w KQ - 0 1')).not.toContain('e1c1');
      // g1 (landing) attacked.
      expect(moves('6r1/8/8/8/2k5/8/8/R3K2R w KQ - 0 1')).not.toContain('e1g1');
      // b1 attacked (the king does not cross it): long castling allowed.
      expect(moves('1r6/8/8/8/6k1/8/8/R3K2R w KQ - 0 1')).toContain('e1c1');
      // In check: no castling at all.
      expect(moves('4r3/8/8/8/1k6/8/8/R3K2R w KQ - 0 1').filter((m) => m === 'e1g1' || m === 'e1c1')).toEqual([]);
      // A piece between: no castling on that side.
      expect(moves('8/8/8/2k5/8/8/8/RN2K1NR w KQ - 0 1').filter((m) => m === 'e1g1' || m === 'e1c1')).toEqual([]);
      expect(moves('r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1')).toEqual(expect.arrayContaining(['e8g8', 'e8c8']));
    });

    it('promotions to four pieces, pushes and captures', () => {
      const m = moves('1n5k/P7/8/8/8/8/8/4K3 w - - 0 1');
      expect(m.filter((x) => x.startsWith('a7'))).toEqual(['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r', 'a7b8b', 'a7b8n', 'a7b8q', 'a7b8r']);
      expect(moves('4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1').filter((x) => x.startsWith('a2'))).toHaveLength(8);
    });

    it('checkmate and stalemate: no legal moves', () => {
      expect(moves('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3')).toEqual([]);
      expect(moves('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')).toEqual([]);
    });
  });

  describe('makeMove', () => {
    const fenAfter = (fen: string, ...ms: string[]) => {
      let pos = api.parseFen(fen);
      for (const m of ms) pos = api.makeMove(pos, m);
      return api.toFen(pos);
    };

    it('plays moves and keeps clocks', () => {
      expect(fenAfter(START, 'e2e4')).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
      expect(fenAfter(START, 'g1f3', 'g8f6', 'f3g1')).toBe('rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2');
      // A capture or pawn move restarts the halfmove clock.
      expect(fenAfter('4k3/8/8/8/8/8/3p4/4K2R w K - 17 40', 'e1d2')).toBe('4k3/8/8/8/8/8/3K4/7R b - - 0 40');
      expect(fenAfter('4k3/8/8/8/8/8/8/4K2R b K - 17 40', 'e8e7')).toBe('8/4k3/8/8/8/8/8/4K2R w K - 18 41');
      // A new object; the original is untouched.
      const pos = api.parseFen(START);
      expect(api.makeMove(pos, 'e2e4')).not.toBe(pos);
      expect(api.toFen(pos)).toBe(START);
    });

    it('castling moves the rook and loses both rights of that side', () => {
      expect(fenAfter('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 'e1g1')).toBe('r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
      expect(fenAfter('r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', 'e8c8')).toBe('2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2');
    });

    it('castling rights go when the king or a rook moves, or a rook is taken at home', () => {
      const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
      expect(fenAfter(fen, 'e1e2').split(' ')[2]).toBe('kq');
      expect(fenAfter(fen, 'h1h2').split(' ')[2]).toBe('Qkq');
      expect(fenAfter(fen, 'a1a2').split(' ')[2]).toBe('Kkq');
      expect(fenAfter(fen, 'a1a8').split(' ')[2]).toBe('Kk'); // takes the a8 rook: both a-side rights go
      expect(fenAfter(fen, 'h1h8').split(' ')[2]).toBe('Qq');
      expect(fenAfter(fen, 'h1h2', 'h8h7', 'h2h1').split(' ')[2]).toBe('Qq'); // a rook back home does not restore it
    });

    it('the en-passant square is set only when an en-passant capture is legal', () => {
      // No black pawn beside e4: no en-passant square.
      expect(fenAfter(START, 'e2e4').split(' ')[3]).toBe('-');
      // A black pawn on d4: set.
      expect(fenAfter('4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1', 'e2e4').split(' ')[3]).toBe('e3');
      // The d4 pawn is pinned on the rank (K a4, R h4 after the push would see through): not set.
      expect(fenAfter('4k3/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1'.replace('4k3', '8'), 'e2e4').split(' ')[3]).toBe('-');
      // After the capture the square is gone again, and the captured pawn is off the board.
      expect(fenAfter('4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1', 'e2e4', 'd4e3')).toBe('4k3/8/8/8/8/4p3/8/4K3 w - - 0 2');
    });

    it('promotion to each piece', () => {
      for (const [p, letter] of [['q', 'Q'], ['r', 'R'], ['b', 'B'], ['n', 'N']]) {
        expect(fenAfter('7k/P7/8/8/8/8/8/4K3 w - - 5 9', `a7a8${p}`)).toBe(`${letter}6k/8/8/8/8/8/8/4K3 b - - 0 9`);
      }
    });

    it('malformed or illegal moves are MoveErrors', () => {
      const pos = api.parseFen(START);
      for (const m of ['e2e5', 'e7e5', 'e1g1', 'a1a2', 'e2e4q', 'e2', 'E2E4', '', 'e2e4 ']) {
        expect(() => api.makeMove(pos, m), m).toThrow(expect.objectContaining({ name: 'MoveError' }));
      }
      expect(() => api.makeMove(api.parseFen('7k/P7/8/8/8/8/8/4K3 w - - 0 1'), 'a7a8')).toThrow(/not a legal move/);
    });
  });
});
