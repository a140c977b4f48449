/**
 * Chess960 perft through the native fast generator (native/core/perft.h: the castling squares of
 * the root in a table its subtree reads) against the JS twin, on every compared backend (native,
 * the facade, wasm): random start positions and playouts at depth 4, and random back ranks built to
 * hit the castling rules of the FIDE Laws' Chess960 appendix (a king that does not move, a rook
 * already on its target, a king landing where its rook stood, a rook shielding the king's target
 * along the back rank from an enemy rook or queen, enemy sliders on the squares the king crosses) at
 * depth 3, with threads and perftStats' castles column. Where Stockfish is installed, the chess
 * programming wiki's Chess960 perft positions at depth 5 against it (UCI_Chess960, `go perft`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparedApis, comparedRows, jsApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { chess960StartPosition } from '../../lib/core/position.js';
import type { Position } from '../../lib/core/types.js';
import { CPW_CHESS960_POSITIONS as CPW_960 } from '../support/chess960.js';
import { placementOf } from '../core/fen-writer.js';

/** Random legal playout of n plies from pos (JS moves: the reference's own). */
function playout(pos: Position, plies: number, next: () => number): Position {
  for (let i = 0; i < plies; i++) {
    const moves = jsApi.legalMoves(pos);
    if (moves.length === 0) break;
    pos = jsApi.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
  }
  return pos;
}

const FILES = 'abcdefgh';

/**
 * A Shredder-FEN with each side's king on its back rank between castling rooks (a right for each
 * with probability 0.8), enemy rooks and queens often on the other side's back rank (attacks along
 * it, through a castling rook's square), and a few other pieces anywhere; null when the library
 * refuses it (the side not to move in check and the like).
 */
function castlingFen(seed: number): string | null {
  const next = rng(seed);
  const cells: string[] = new Array(64).fill('');
  const rights: string[] = [];
  for (const color of [0, 1]) {
    const rank = color === 0 ? 0 : 7;
    const k = 1 + Math.floor(next() * 6);
    const piece = (c: string) => (color === 0 ? c.toUpperCase() : c);
    cells[rank * 8 + k] = piece('k');
    if (next() < 0.8) {
      const f = k + 1 + Math.floor(next() * (7 - k));
      cells[rank * 8 + f] = piece('r');
      rights.push(color === 0 ? FILES[f]!.toUpperCase() : FILES[f]!);
    }
    if (next() < 0.8) {
      const f = Math.floor(next() * k);
      cells[rank * 8 + f] = piece('r');
      rights.push(color === 0 ? FILES[f]!.toUpperCase() : FILES[f]!);
    }
  }
  const put = (sq: number, c: string) => { if (!cells[sq]) cells[sq] = c; };
  // Enemy rook-wise sliders on a back rank: on the edge files (beyond a castling rook) or anywhere on it.
  for (const color of [0, 1]) {
    const rank = color === 0 ? 0 : 7;
    if (next() < 0.5) put(rank * 8 + (next() < 0.5 ? 0 : 7), color === 0 ? (next() < 0.5 ? 'r' : 'q') : (next() < 0.5 ? 'R' : 'Q'));
    if (next() < 0.3) put(rank * 8 + Math.floor(next() * 8), color === 0 ? 'r' : 'R');
  }
  const extra = Math.floor(next() * 9);
  for (let i = 0; i < extra; i++) {
    const sq = Math.floor(next() * 64);
    const kind = 'pnbrq'[Math.floor(next() * 5)]!;
    if (kind === 'p' && (sq < 8 || sq >= 56)) continue;
    put(sq, next() < 0.5 ? kind.toUpperCase() : kind);
  }
  const fen = `${placementOf(cells)} ${next() < 0.5 ? 'w' : 'b'} ${rights.join('') || '-'} - 0 1`;
  try {
    jsApi.parseFen(fen, { chess960: true });
    return fen;
  } catch {
    return null;
  }
}

const castlingPosition = fc.integer({ min: 1, max: 2 ** 31 - 1 }).map(castlingFen).filter((f): f is string => f !== null);

describe.skipIf(comparedApis.length === 0).each(comparedRows)('Chess960 perft: %s = JS', (_label, api) => {
  it('random start positions and playouts, depth 4', () => {
    const next = rng(960_4);
    for (let i = 0; i < 24; i++) {
      const start = chess960StartPosition(Math.floor(next() * 960));
      const pos = i < 6 ? start : playout(start, 1 + Math.floor(next() * 30), next);
      const fen = jsApi.toFen(pos, { shredder: true });
      expect(api.perft(api.parseFen(fen), 4), fen).toBe(jsApi.perft(pos, 4));
    }
  });

  it('random back ranks with castling rights, depth 3, threads and the castles column', () => {
    let castles = 0;
    fc.assert(fc.property(castlingPosition, (fen) => {
      const j = jsApi.parseFen(fen, { chess960: true });
      const n = api.parseFen(fen, { chess960: true });
      const nodes = jsApi.perft(j, 3);
      expect(api.perft(n, 3), fen).toBe(nodes);
      expect(api.perft(n, 3, { threads: 2 }), fen).toBe(nodes);
      const stats = jsApi.perftStats(j, 2);
      expect(api.perftStats(n, 2), fen).toEqual(stats);
      castles += stats.castles;
    }), { numRuns: 300 });
    expect(castles).toBeGreaterThan(0);
  });
});

const STOCKFISH = '/usr/games/stockfish';

describe.skipIf(comparedApis.length === 0 || !existsSync(STOCKFISH)).each(comparedRows)(
  'Chess960 perft 5 on the wiki\'s positions: %s = Stockfish', (_label, api) => {
    it('depth 5', () => {
      const input = ['uci', 'setoption name UCI_Chess960 value true', ...CPW_960.flatMap((f) => [`position fen ${f}`, 'go perft 5']), 'quit'].join('\n');
      const out = spawnSync(STOCKFISH, { input, encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
      const counts = [...out.matchAll(/Nodes searched: (\d+)/g)].map((m) => Number(m[1]));
      expect(counts.length).toBe(CPW_960.length);
      CPW_960.forEach((fen, i) => expect(api.perft(api.parseFen(fen), 5), fen).toBe(counts[i]));
    });
  });
