/**
 * Chess960 moves on every backend: castling by the FIDE Laws' Chess960 appendix, written as the king
 * taking its own rook. Truth: the chess programming wiki's "Chess960 Perft Results" table
 * (https://www.chessprogramming.org/Chess960_Perft_Results, the first five start positions of its
 * list), Stockfish as a live oracle (UCI_Chess960, `go perft` with its per-move divide) on random
 * start positions and random playouts, chessops for SAN, a brute-force perftStats written here, and
 * native = JS on every position.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Chess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { chess960StartPosition } from '../../lib/core/position.js';
import { createSanApi } from '../../lib/games/san.js';
import type { Position } from '../../lib/core/types.js';

/**
 * The wiki page's table: Shredder-FEN and perft 1..4 (its depths 5 and 6 are run in the bench's range).
 * The same counts stand in the fischer.epd perft file several engines ship, and Stockfish 15.1
 * (UCI_Chess960, go perft) gives each of them.
 */
const CPW_960: [string, number[]][] = [
  ['bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', [21, 528, 12189, 326672]],
  ['2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9', [21, 807, 18002, 667366]],
  ['b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9', [20, 479, 10471, 273318]],
  ['qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9', [22, 593, 13440, 382958]],
  ['1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9', [28, 1120, 31058, 1171749]],
];

/** Positions with the castling cases the appendix's wording is about. */
const CASES = {
  // King e1 and the g1 rook: O-O puts the king on g1 and the rook on f1 (X-FEN K: the outermost rook).
  kingStays: '1r5k/8/8/8/8/8/8/4K1R1 w K - 0 1',
  // A rook on b1 shields the king's target c1 from the a1 queen: O-O-O (king d1 -> c1, rook b1 -> d1) is illegal.
  shield: '8/8/8/8/8/8/8/qR1K3k w B - 0 1',
  // The king lands where its rook stood (king f1 -> g1, rook g1 -> f1).
  kingOnRook: '4k3/8/8/8/8/8/8/5KR1 w G - 0 1',
};

/** Random legal playout of n plies from pos (native moves when loaded: the same on both). */
function playout(pos: Position, plies: number, next: () => number): Position {
  const api = nativeApi ?? jsApi;
  for (let i = 0; i < plies; i++) {
    const moves = api.legalMoves(pos);
    if (moves.length === 0) break;
    pos = api.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
  }
  return pos;
}

describe.each(backends)('Chess960 moves (%s)', (name, api) => {
  const san = createSanApi(name === 'js' ? 'js' : 'native');
  it('perft matches the chess programming wiki\'s Chess960 table', () => {
    for (const [fen, counts] of CPW_960) {
      const pos = api.parseFen(fen);
      for (let d = 1; d <= counts.length; d++) expect(api.perft(pos, d), `${fen} depth ${d}`).toBe(counts[d - 1]);
    }
  });

  it('castling is the king taking its own rook; makeMove takes it; rights follow', () => {
    const stays = api.parseFen(CASES.kingStays, { chess960: true });
    expect(stays.castlingFiles[0]).toBe(6);
    expect(api.legalMoves(stays)).toContain('e1g1'); // king e1 takes the g1 rook: O-O
    const after = api.makeMove(stays, 'e1g1');
    expect(api.toFen(after)).toBe('1r5k/8/8/8/8/8/8/5RK1 b - - 1 1');
    expect(san.toSan(stays, 'e1g1')).toBe('O-O');
    expect(san.parseSan(stays, 'O-O')).toBe('e1g1');

    const noMove = api.parseFen('4k3/8/8/8/8/8/8/6KR w H - 0 1');
    expect(api.legalMoves(noMove)).toContain('g1h1');
    expect(api.toFen(api.makeMove(noMove, 'g1h1'), { shredder: true })).toBe('4k3/8/8/8/8/8/8/5RK1 b - - 1 1');

    const shield = api.parseFen(CASES.shield);
    expect(shield.castlingFiles[1]).toBe(1);
    expect(api.legalMoves(shield)).not.toContain('d1b1');
    expect(() => api.checkKind(shield, 'd1b1')).toThrow(/not a legal move/);

    const onRook = api.parseFen(CASES.kingOnRook);
    expect(api.legalMoves(onRook)).toContain('f1g1');
    expect(api.toFen(api.makeMove(onRook, 'f1g1'))).toBe('4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
    expect(api.checkKind(onRook, 'f1g1')).toBe('none');

    // A standard position keeps e1g1; the same setup as a Chess960 position uses e1h1.
    const std = api.parseFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect(api.legalMoves(std)).toEqual(expect.arrayContaining(['e1g1', 'e1c1']));
    expect(api.legalMoves(std)).not.toContain('e1h1');
    const c960 = api.parseFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', { chess960: true });
    expect(api.legalMoves(c960)).toEqual(expect.arrayContaining(['e1h1', 'e1a1']));
    expect(api.legalMoves(c960)).not.toContain('e1g1');
    expect(api.toFen(api.makeMove(c960, 'e1a1'))).toBe('r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1');
    expect(api.makeMove(c960, 'e1a1').chess960).toBe(true);
    // A rook move loses its right only; the file of the other right stays.
    const rookMoved = api.makeMove(api.parseFen(CPW_960[0]![0]), 'f1f2');
    expect([...rookMoved.castlingFiles]).toEqual([7, -1, 7, 5]);
    expect(api.toFen(rookMoved)).toBe('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1PRPP/BQ1BN1KR b Kkq - 3 9');
    const kingMoved = api.makeMove(api.makeMove(rookMoved, 'a7a6'), 'g1f1');
    expect([...kingMoved.castlingFiles]).toEqual([-1, -1, 7, 5]);
  });

  it('the start positions\' first two plies and perftStats follow a brute force written here', () => {
    const next = rng(4242);
    for (let i = 0; i < 6; i++) {
      const pos = playout(chess960StartPosition(Math.floor(next() * 960)), 8 + Math.floor(next() * 10), next);
      const stats = api.perftStats(pos, 2);
      // Brute force: every leaf move made, its kind read from the child.
      let nodes = 0, captures = 0, castles = 0, checks = 0, mates = 0;
      for (const m of api.legalMoves(pos)) {
        const child = api.makeMove(pos, m);
        for (const n of api.legalMoves(child)) {
          nodes++;
          const before = child.colors[child.sideToMove ^ 1]!;
          const to = BigInt(parseSquareName(n.slice(2, 4)));
          const own = (child.colors[child.sideToMove]! >> to) & 1n;
          if (own) castles++;
          else if ((before >> to) & 1n) captures++;
          const leaf = api.makeMove(child, n);
          if (api.isInCheck(leaf)) {
            checks++;
            if (api.legalMoves(leaf).length === 0) mates++;
          }
        }
      }
      expect(stats.nodes).toBe(nodes);
      expect(stats.castles).toBe(castles);
      expect(stats.captures - stats.enPassant).toBe(captures);
      expect(stats.checks).toBe(checks);
      expect(stats.checkmates).toBe(mates);
    }
  });

  it('SAN both ways on random playouts, as chessops writes it', () => {
    const next = rng(960960);
    for (let g = 0; g < 20; g++) {
      let pos = chess960StartPosition(Math.floor(next() * 960));
      for (let ply = 0; ply < 40; ply++) {
        const moves = api.legalMoves(pos);
        if (moves.length === 0) break;
        const chess = Chess.fromSetup(opsParseFen(api.toFen(pos, { shredder: true })).unwrap()).unwrap();
        for (const m of moves) {
          const text = san.toSan(pos, m);
          expect(text, `${api.toFen(pos)} ${m}`).toBe(makeSan(chess, parseUci(m)!));
          expect(san.parseSan(pos, text)).toBe(m);
        }
        pos = api.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
      }
    }
  });

  it('perft with threads gives the single-thread counts', () => {
    const pos = api.parseFen(CPW_960[0]![0]);
    expect(api.perft(pos, 4, { threads: 2 })).toBe(326672);
  });
});

const STOCKFISH = '/usr/games/stockfish';
const haveStockfish = existsSync(STOCKFISH);
const requireStockfish = process.env.BITBOARD_PATTERNS_REQUIRE_STOCKFISH === '1';

/** Stockfish's divide (move -> leaf count) of perft `depth` for each Shredder-FEN, in one process. */
function stockfishDivide(fens: string[], depth: number): Map<string, number>[] {
  const input = ['uci', 'setoption name UCI_Chess960 value true',
    ...fens.flatMap((f) => [`position fen ${f}`, `go perft ${depth}`]), 'quit'].join('\n');
  const r = spawnSync(STOCKFISH, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  const out: Map<string, number>[] = [];
  let current = new Map<string, number>();
  for (const line of r.stdout.split('\n')) {
    const m = /^([a-h][1-8][a-h][1-8][nbrq]?): (\d+)$/.exec(line.trim());
    if (m) current.set(m[1]!, Number(m[2]));
    else if (line.startsWith('Nodes searched')) {
      out.push(current);
      current = new Map();
    }
  }
  return out;
}

describe('Chess960 against Stockfish (live oracle)', () => {
  it('Stockfish is installed when BITBOARD_PATTERNS_REQUIRE_STOCKFISH=1', () => {
    if (requireStockfish) expect(haveStockfish, `${STOCKFISH} is missing`).toBe(true);
  });

  it.runIf(haveStockfish)('legal moves and perft 3 divides on random start positions and playouts, native = JS', () => {
    const next = rng(96_0001);
    const positions: Position[] = [];
    for (let i = 0; i < 40; i++) {
      const start = chess960StartPosition(Math.floor(next() * 960));
      positions.push(i < 10 ? start : playout(start, 1 + Math.floor(next() * 40), next));
    }
    const fens = positions.map((p) => jsApi.toFen(p, { shredder: true }));
    const divides = stockfishDivide(fens, 3);
    expect(divides.length).toBe(positions.length);
    let castlesSeen = 0;
    for (let i = 0; i < positions.length; i++) {
      const sf = divides[i]!;
      for (const [, api] of backends) {
        const pos = api.parseFen(fens[i]!);
        const moves = api.legalMoves(pos);
        expect([...moves].sort(), fens[i]).toEqual([...sf.keys()].sort());
        for (const m of moves) {
          const child = api.makeMove(pos, m);
          expect(api.perft(child, 2), `${fens[i]} ${m}`).toBe(sf.get(m));
          if ((pos.colors[pos.sideToMove]! >> BigInt(parseSquareName(m.slice(2, 4)))) & 1n) castlesSeen++;
        }
        expect(api.perft(pos, 3)).toBe([...sf.values()].reduce((a, b) => a + b, 0));
      }
    }
    expect(castlesSeen).toBeGreaterThan(0);
  });
});

function parseSquareName(s: string): number {
  return (s.charCodeAt(1) - 49) * 8 + s.charCodeAt(0) - 97;
}
