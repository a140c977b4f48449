/**
 * The everyday API on Positions kept as int32 halves (lib/core/position-record.ts): whole games replayed
 * with makeMove and toFen against chessops as the oracle (board, side, castling, clocks from its
 * makeFen; the en-passant field against its legal en-passant captures), the bigint sets against
 * chessops's board, legalMoves against chess.js's move list in string order, spread copies,
 * immutability and the brand, and FEN letters outside ASCII.
 */
import { Chess as ChessJs } from 'chess.js';
import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen as chessopsFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import { FenError, PositionError, isPosition } from '../../lib/core/position.js';
import { join } from 'node:path';
import { createSanApi } from '../../lib/games/san.js';
import { SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { loadNative } from '../../lib/backends/native.js';
import { decodeMove } from '../../lib/moves/moves.js';
import type { Backend } from '../../lib/backends/contract.js';
import { backends, nativeApi } from '../support/backends.js';

/** A seeded generator (xorshift32), so a failure replays. */
function random(seed: number): (n: number) => number {
  let s = seed | 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
// Starts with castling, en passant and promotions close by (Chess Programming Wiki, Perft Results).
const STARTS = [START, 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1'];

const SQUARES = 'abcdefgh';
const squareName = (sq: number): string => `${SQUARES[sq % 8]}${Math.floor(sq / 8) + 1}`;
/** A chessops SquareSet as a bigint. */
const setOf = (s: { lo: number; hi: number }): bigint => (BigInt(s.hi >>> 0) << 32n) | BigInt(s.lo >>> 0);

describe.each(backends)('%s', (_name, api) => {
  it('replays random games: toFen after each makeMove is chessops\'s position', () => {
    const pick = random(2026);
    let plies = 0;
    for (let g = 0; g < 40; g++) {
      const start = STARTS[g % STARTS.length]!;
      let pos = api.parseFen(start);
      const oracle = Chess.fromSetup(chessopsFen(start).unwrap()).unwrap();
      for (let ply = 0; ply < 120; ply++) {
        const moves = api.legalMoves(pos);
        if (moves.length === 0) break;
        const uci = moves[pick(moves.length)]!;
        pos = api.makeMove(pos, uci);
        oracle.play(normalizeMove(oracle, parseUci(uci)!));
        plies++;
        const [board, side, castling, ep, half, full] = api.toFen(pos).split(' ');
        const [wantBoard, wantSide, wantCastling, , wantHalf, wantFull] = makeFen(oracle.toSetup()).split(' ');
        expect([board, side, castling, half, full]).toEqual([wantBoard, wantSide, wantCastling, wantHalf, wantFull]);
        // The en-passant field: the target square exactly when a legal capture lands there en passant.
        const epCaptures = new Set<string>();
        for (const [from, dests] of oracle.allDests()) {
          if (oracle.board.get(from)?.role !== 'pawn') continue;
          for (const to of dests) if (to === oracle.epSquare) epCaptures.add(squareName(to));
        }
        expect(ep).toBe(epCaptures.size ? [...epCaptures][0] : '-');
        // The bigint sets, made when read, against chessops's board.
        expect(pos.colors).toEqual([setOf(oracle.board.white), setOf(oracle.board.black)]);
        expect(pos.pieces).toEqual(['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'].map((r) => setOf(oracle.board[r as 'pawn'])));
      }
    }
    expect(plies).toBeGreaterThan(2000);
  });

  it('legalMoves: chess.js\'s moves as UCI, in string order', () => {
    const pick = random(7);
    let pos = api.parseFen(STARTS[1]!);
    for (let i = 0; i < 300; i++) {
      const moves = api.legalMoves(pos);
      const ref = new ChessJs(api.toFen(pos)).moves({ verbose: true }).map((m) => m.from + m.to + (m.promotion ?? ''));
      expect(moves).toEqual([...ref].sort());
      pos = moves.length && pos.halfmoveClock < 40 ? api.makeMove(pos, moves[pick(moves.length)]!) : api.parseFen(STARTS[i % STARTS.length]!);
    }
  });

  it('a spread copy derives a position: createPosition({ ...pos, sideToMove })', () => {
    const pos = api.parseFen('4k3/8/8/1b6/8/8/8/R3K2R b KQ - 3 20');
    const white = api.createPosition({ ...pos, sideToMove: 0, castling: 0 });
    expect(api.toFen(white)).toBe('4k3/8/8/1b6/8/8/8/R3K2R w - - 3 20');
    // The spread copy is no Position, and the derivation is validated like any other.
    expect(isPosition({ ...pos })).toBe(false);
    expect(() => api.createPosition({ ...pos, epSquare: 'e3' })).toThrow(PositionError);
    // Explicit sets win over the copy's.
    expect(() => api.createPosition({ ...pos, pieces: { white: { king: 1n << 4n }, black: { king: 1n << 60n } } })).toThrow(PositionError);
    expect(api.toFen(api.createPosition({ ...pos, castling: 0, pieces: { white: { king: 1n << 4n }, black: { king: 1n << 60n } } })))
      .toBe('4k3/8/8/8/8/8/8/4K3 b - - 3 20');
  });

  it('is frozen, and what a caller writes into pos.packed or its copies changes nothing', () => {
    const pos = api.parseFen(STARTS[1]!);
    expect(Object.isFrozen(pos)).toBe(true);
    expect(() => { (pos as { sideToMove: number }).sideToMove = 1; }).toThrow(TypeError);
    expect(Object.keys(pos)).toEqual(['sideToMove', 'castling', 'epSquare', 'halfmoveClock', 'fullmoveNumber']);
    const fen = api.toFen(pos), moves = api.legalMoves(pos);
    pos.packed.fill(0n);
    expect(() => { (pos.pieces as unknown as bigint[])[0] = 0n; }).toThrow(TypeError);
    expect(api.toFen(pos)).toBe(fen);
    expect(api.legalMoves(pos)).toEqual(moves);
    expect(createSanApi(api.backend).toSan(pos, 'e1g1')).toBe('O-O');
    expect(isPosition(new Proxy(pos, {}))).toBe(false);
    expect(isPosition(Object.create(pos))).toBe(false);
  });

  it('FEN piece letters are ASCII: a letter whose case mapping is one is refused', () => {
    // U+212A KELVIN SIGN lower-cases to 'k'.
    expect(() => api.parseFen('4k3/8/8/8/8/8/8/4\u212a3 w - - 0 1')).toThrow(FenError);
    expect(() => api.parseFen('4k3/8/8/8/8/8/8/4\u212a3 w - - 0 1')).toThrow(/bad piece letter/);
    expect(api.PositionBatch.fromFens(['4k3/8/8/8/8/8/8/4\u212a3 w - - 0 1']).valid?.[0]).toBe(0);
  });
});

describe.each(nativeApi ? ['js', 'native'] as const : ['js'] as const)('Syzygy probes (%s) read the Position, not pos.packed', (mode) => {
  it('probes the same after the caller overwrites pos.packed', () => {
    const tb = SyzygyTablebase.open(join(__dirname, '..', 'fixtures', 'syzygy'), { backend: mode });
    try {
      // A rook pawn with the defender in the corner: a draw (WDL 0, as test/tablebases/syzygy.test.ts has it);
      // the words written over pos.packed are a king and queen against a king, a win.
      const pos = backends[0]![1].parseFen('7k/8/7K/7P/8/8/8/8 w - - 0 1');
      const other = backends[0]![1].parseFen('7k/8/6K1/8/8/8/8/1Q6 w - - 0 1');
      expect(tb.probeWdl(other)).toBe(2);
      pos.packed.set(other.packed);
      expect(tb.probeWdl(pos)).toBe(0);
      expect(tb.probeDtz(pos)).toBe(0);
    } finally {
      tb.close();
    }
  });
});

const MOVE_BACKENDS: [string, Backend][] = [['js', jsBackend]];
if (nativeApi) MOVE_BACKENDS.push(['native', loadNative()]);

describe.each(MOVE_BACKENDS)('makeMove of the %s backend', (_name, backend) => {
  it('accepts exactly the generated moves: every from, to and promotion of positions along random games', () => {
    const api = backends[0]![1];
    const pick = random(99);
    const out = new BigUint64Array(10);
    const codes = new Uint16Array(256);
    let positions = 0, legal = 0;
    const wrong: string[] = [];
    for (const start of [...STARTS, '8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8']) {
      let pos = api.parseFen(start);
      for (let ply = 0; ply < 24; ply++) {
        const n = backend.legalMoves(pos, codes);
        if (n === 0) break;
        const generated = new Set(Array.from(codes.subarray(0, n)));
        for (let code = 0; code < 5 << 12; code++) {
          const from = code & 63, to = (code >> 6) & 63, promotion = code >> 12;
          if (backend.makeMove(pos, from, to, promotion, out) !== generated.has(code)) wrong.push(`${api.toFen(pos)} ${from} ${to} ${promotion}`);
        }
        legal += n;
        positions++;
        pos = api.makeMove(pos, decodeMove(codes[pick(n)]!));
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(positions).toBeGreaterThan(100);
    expect(legal).toBeGreaterThan(2000);
  });
});
