/**
 * Positions: FEN round trips, the board sets checked square by square against the FEN text (read by
 * test/patterns/reference-checks.ts's own reader), the packed layout word by word (backend.ts), createPosition,
 * and every kind of bad FEN, on every backend.
 */
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { bit, has, rng } from '../patterns/reference.js';
import { boardFromFen, fenFromBoard, randomBoard, randomEpBoard } from '../patterns/reference-checks.js';
import { thrown } from '../support/thrown.js';

/** The fields a FenError carries. */
type FenFields = Error & { field?: string; text?: string };

const STARTING = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Published FENs: the start position, Kiwipete and the chess programming wiki's perft positions 3-6, and more. */
const FENS = [
  STARTING,
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', // Kiwipete (CPW position 2)
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', // CPW position 3
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', // CPW position 4
  'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1', // CPW position 4, mirrored
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', // CPW position 5
  'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', // CPW position 6
  'rnb1k1nr/2pppppp/3P4/8/1b5q/8/PPPNPBPP/RNBQKB1R w KQkq - 0 1', // python-chess pin example
  'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', // after 1.e4
  'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3', // 1.e4 a6 2.e5 d5
  '8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1',
  '4k3/8/3N4/8/8/8/8/K3R3 b - - 99 1000000', // in double check; clocks at their limits
  'r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 40',
];

/** [what, fen, field]: every kind of bad FEN. */
const BAD_FENS: [string, string, string][] = [
  ['3 fields', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq', 'fen'],
  ['5 fields', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0', 'fen'],
  ['7 fields', `${STARTING} 7`, 'fen'],
  ['the empty string', '', 'fen'],
  ['only spaces', '      ', 'fen'],
  ['a 100 kB string', `${STARTING} ${'x'.repeat(100_000)}`, 'fen'],
  ['a 100 kB placement', `${'8/'.repeat(50_000)}8 w - - 0 1`, 'fen'],
  ['bad piece letter X', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', 'pieces'],
  ['bad piece letter 0', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1', 'pieces'],
  ['digit 9', 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'pieces'],
  ['a rank of 7 squares', 'rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'pieces'],
  ['a rank of 9 squares', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1', 'pieces'],
  ['a rank of 9 squares by digits', 'rnbqkbnr/pppppppp/8/8/8/7p1/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'pieces'],
  ['an empty rank', 'rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'pieces'],
  ['7 ranks', 'rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'pieces'],
  ['9 ranks', 'rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'pieces'],
  ['two white kings', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1', 'pieces'],
  ['no black king', '8/8/8/8/8/8/8/4K3 w - - 0 1', 'pieces'],
  ['no kings at all', '8/8/8/8/8/8/8/8 w - - 0 1', 'pieces'],
  ['a white pawn on rank 8', 'P3k3/8/8/8/8/8/8/4K3 w - - 0 1', 'pieces'],
  ['a black pawn on rank 1', '4k3/8/8/8/8/8/8/4K2p w - - 0 1', 'pieces'],
  ["side to move 'x'", '4k3/8/8/8/8/8/8/4K3 x - - 0 1', 'sideToMove'],
  ["side to move 'W'", '4k3/8/8/8/8/8/8/4K3 W - - 0 1', 'sideToMove'],
  ['the side not to move in check', '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1', 'sideToMove'],
  ['castling X', 'r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1', 'castling'],
  ['castling KK', 'r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1', 'castling'],
  ['castling in the wrong order', 'r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1', 'castling'],
  ['a K right without the rook', 'r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1', 'castling'],
  ['a Q right without the king at home', 'r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1', 'castling'],
  ['a q right with a white rook on a8', 'R3k2r/8/8/8/8/8/8/4K3 w q - 0 1', 'castling'],
  ['en passant z9', 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq z9 0 3', 'enPassant'],
  ['en passant on the wrong rank', 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d5 0 3', 'enPassant'],
  ['en passant on rank 3 with white to move', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1', 'enPassant'],
  ['en passant without a pawn in front', 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 3', 'enPassant'],
  ['en passant with its square occupied', 'rnbqkbnr/1pp1pppp/p2n4/3pP3/8/8/PPPP1PPP/RNBQKB1R w KQkq d6 0 3', 'enPassant'],
  ['halfmove clock x', '4k3/8/8/8/8/8/8/4K3 w - - x 1', 'halfmoveClock'],
  ['halfmove clock -1', '4k3/8/8/8/8/8/8/4K3 w - - -1 1', 'halfmoveClock'],
  ['halfmove clock 1.5', '4k3/8/8/8/8/8/8/4K3 w - - 1.5 1', 'halfmoveClock'],
  ['fullmove number 0', '4k3/8/8/8/8/8/8/4K3 w - - 0 0', 'fullmoveNumber'],
  ['fullmove number -3', '4k3/8/8/8/8/8/8/4K3 w - - 0 -3', 'fullmoveNumber'],
  ['fullmove number abc', '4k3/8/8/8/8/8/8/4K3 w - - 0 abc', 'fullmoveNumber'],
  ['fullmove number 1e3', '4k3/8/8/8/8/8/8/4K3 w - - 0 1e3', 'fullmoveNumber'],
];

describe.each(backends)('%s', (_name, api) => {
  describe('parseFen and toFen', () => {
    it.each(FENS)('round trip and square-by-square sets: %s', (fen) => {
      const pos = api.parseFen(fen);
      expect(api.toFen(pos)).toBe(fen);
      const b = boardFromFen(fen);
      for (let s = 0; s < 64; s++) {
        const p = b.cells[s];
        for (const c of [0, 1]) expect(has(pos.colors[c]!, s), `colour ${c} on ${s}`).toBe(p !== null && p.color === c);
        for (let t = 0; t < 6; t++) expect(has(pos.pieces[t]!, s), `type ${t} on ${s}`).toBe(p !== null && p.type === t);
      }
      expect(pos.sideToMove).toBe(b.side);
      expect(pos.castling).toBe(b.castling);
      expect(pos.epSquare).toBe(b.ep);
      expect(pos.halfmoveClock).toBe(b.halfmove);
      expect(pos.fullmoveNumber).toBe(b.fullmove);
    });

    it('four-field FENs get the clocks 0 and 1; surrounding spaces are allowed', () => {
      expect(api.toFen(api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -'))).toBe(STARTING);
      expect(api.toFen(api.parseFen('8/8/8/8/8/8/8/K6k b - -'))).toBe('8/8/8/8/8/8/8/K6k b - - 0 1');
      expect(api.toFen(api.parseFen(`  ${STARTING}  `))).toBe(STARTING);
    });

    it('literal sets of the start position', () => {
      const pos = api.parseFen(STARTING);
      expect(pos.colors).toEqual([0xffffn, 0xffff000000000000n]);
      expect(pos.pieces).toEqual([
        0x00ff00000000ff00n, 0x4200000000000042n, 0x2400000000000024n,
        0x8100000000000081n, 0x0800000000000008n, 0x1000000000000010n,
      ]);
      expect(pos.castling).toBe(15);
      expect(pos.epSquare).toBe(-1);
    });

    it('the packed layout, word by word (backend.ts), for the published FENs', () => {
      for (const fen of FENS) {
        const pos = api.parseFen(fen);
        const b = boardFromFen(fen);
        expect(pos.packed).toBeInstanceOf(BigUint64Array);
        expect(pos.packed.length).toBe(10);
        const want = [pos.colors[0], pos.colors[1], ...pos.pieces,
          BigInt(b.side | (b.castling << 1) | ((b.ep < 0 ? 64 : b.ep) << 8)) | (BigInt(b.halfmove) << 16n),
          BigInt(b.fullmove)];
        expect(Array.from(pos.packed), fen).toEqual(want);
      }
      // Literal: after 1.e4 (black to move, KQkq, e3 = 20, clocks 0 1).
      const e4 = api.parseFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
      expect(e4.packed[8]).toBe(1n | (15n << 1n) | (20n << 8n));
      expect(api.parseFen('4k3/8/3N4/8/8/8/8/K3R3 b - - 99 1000000').packed[8]).toBe(1n | (64n << 8n) | (99n << 16n));
    });

    it('round trips of 500 random positions written by the reference', () => {
      const next = rng(5);
      for (let i = 0; i < 500; i++) {
        const fen = fenFromBoard(i % 4 === 0 ? randomEpBoard(next) : randomBoard(next, 10));
        expect(api.toFen(api.parseFen(fen))).toBe(fen);
      }
    });

    it('positions are frozen', () => {
      const pos = api.parseFen(STARTING);
      expect(Object.isFrozen(pos)).toBe(true);
      expect(() => { (pos as { sideToMove: number }).sideToMove = 1; }).toThrow(TypeError);
    });
  });

  describe('bad FENs: FenError with the field and the offending text', () => {
    it.each(BAD_FENS)('%s', (_what, fen, field) => {
      const err = thrown<FenFields>(() => api.parseFen(fen));
      expect(err.name, err.message).toBe('FenError');
      expect(err.field, err.message).toBe(field);
      expect(typeof err.text).toBe('string');
      expect(err.text!.length).toBeLessThanOrEqual(60);
      expect(fen).toContain(err.text!.replace(/\.\.\.$/, ''));
      expect(err.message).toContain(field);
    });

    it('non-strings are TypeErrors', () => {
      for (const v of [undefined, null, 42, 1n, {}, [STARTING], new String(STARTING)]) {
        expect(() => api.parseFen(v as string)).toThrow(TypeError);
      }
    });
  });

  describe('createPosition', () => {
    const kiwipete = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    const sides = (fen: string) => {
      const b = boardFromFen(fen);
      const names = ['pawns', 'knights', 'bishops', 'rooks', 'queens', 'king'];
      const side = (c: number) => Object.fromEntries(names.map((n, t) => [n, b.cells.reduce((acc, p, s) =>
        (p && p.color === c && p.type === t ? acc | bit(s) : acc), 0n)]));
      return { white: side(0), black: side(1) } as unknown as Parameters<typeof api.createPosition>[0]['pieces'];
    };

    it('builds the same position as parseFen, from sets by colour and from the Position form', () => {
      for (const fen of FENS) {
        const b = boardFromFen(fen);
        const fromSides = api.createPosition({
          pieces: sides(fen), sideToMove: b.side, castling: b.castling, epSquare: b.ep,
          halfmoveClock: b.halfmove, fullmoveNumber: b.fullmove,
        });
        expect(api.toFen(fromSides)).toBe(fen);
        expect(Array.from(fromSides.packed)).toEqual(Array.from(api.parseFen(fen).packed));
        const parsed = api.parseFen(fen);
        const copy = api.createPosition({ ...parsed });
        expect(api.toFen(copy)).toBe(fen);
      }
    });

    it('defaults: white to move, no castling, no en passant, clocks 0 and 1', () => {
      const pos = api.createPosition({ pieces: { white: { king: bit(4) }, black: { king: bit(60) } } });
      expect(api.toFen(pos)).toBe('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
    });

    it('validates like parseFen: PositionError naming the field', () => {
      const kings = { white: { king: bit(4) }, black: { king: bit(60) } };
      const bad: [string, Parameters<typeof api.createPosition>[0], string][] = [
        ['two white kings', { pieces: { white: { king: bit(4) | bit(5) }, black: { king: bit(60) } } }, 'pieces'],
        ['no black king', { pieces: { white: { king: bit(4) }, black: { king: 0n } } }, 'pieces'],
        ['a pawn on rank 1', { pieces: { white: { king: bit(4), pawns: bit(0) }, black: { king: bit(60) } } }, 'pieces'],
        ['overlapping sets', { pieces: { white: { king: bit(4), rooks: bit(4) }, black: { king: bit(60) } } }, 'pieces'],
        ['overlapping colours', { colors: [bit(4) | bit(60), bit(60)], pieces: [0n, 0n, 0n, 0n, 0n, bit(4) | bit(60)] }, 'pieces'],
        ['a type without a colour', { colors: [bit(4), bit(60)], pieces: [bit(20), 0n, 0n, 0n, 0n, bit(4) | bit(60)] }, 'pieces'],
        ['side 2', { pieces: kings, sideToMove: 2 as 0 }, 'sideToMove'],
        ['the side not to move in check', { pieces: { white: { king: bit(4), rooks: bit(52) }, black: { king: bit(60) } } }, 'sideToMove'],
        ['castling without rooks', { pieces: kings, castling: 1 }, 'castling'],
        ['castling 16', { pieces: kings, castling: 16 }, 'castling'],
        ['en passant without a pawn', { pieces: kings, epSquare: 44 }, 'enPassant'],
        ['en passant 64', { pieces: kings, epSquare: 64 }, 'enPassant'],
        ['fullmove 0', { pieces: kings, fullmoveNumber: 0 }, 'fullmoveNumber'],
        ['halfmove -1', { pieces: kings, halfmoveClock: -1 }, 'halfmoveClock'],
      ];
      for (const [what, init, field] of bad) {
        const err = thrown<FenFields>(() => api.createPosition(init));
        expect(err.name, `${what}: ${err.message}`).toBe('PositionError');
        expect(err.field, what).toBe(field);
      }
    });

    it('wrong JS types are TypeErrors', () => {
      for (const init of [undefined, null, 42, 'fen', { pieces: 42 }, { pieces: { white: { king: 16 }, black: { king: bit(60) } } }]) {
        expect(() => api.createPosition(init as unknown as Parameters<typeof api.createPosition>[0])).toThrow(TypeError);
      }
    });

    it('kiwipete from sets by colour', () => {
      expect(api.toFen(api.createPosition({ pieces: sides(kiwipete), castling: 'KQkq' }))).toBe(kiwipete);
    });
  });
});
