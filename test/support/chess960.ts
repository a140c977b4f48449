/** Random Chess960 positions for the tests: a start position in Scharnagl's numbering, then a random playout. */
import type { Api } from '../../lib/api/create-api.js';
import { chess960StartPosition } from '../../lib/core/position.js';
import type { Position } from '../../lib/core/types.js';
import { jsApi } from './backends.js';

/**
 * The first six positions of the chess programming wiki's "Chess960 Perft Results" page
 * (https://www.chessprogramming.org/Chess960_Perft_Results), in its Shredder-FEN.
 */
export const CPW_CHESS960_POSITIONS: readonly string[] = [
  'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  '2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9',
  'b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9',
  'qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9',
  '1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9',
  'qnbbrknr/1p1ppppp/8/p1p5/5P2/PP1P4/2P1P1PP/QNBBRKNR w HEhe - 1 9',
];

/** Start position floor(next() * 960), then up to floor(next() * maxPlies) random legal moves on `api`. */
export function chess960Playout(next: () => number, maxPlies: number, api: Api = jsApi): Position {
  let pos = chess960StartPosition(Math.floor(next() * 960));
  const plies = Math.floor(next() * maxPlies);
  for (let p = 0; p < plies; p++) {
    const moves = api.legalMoves(pos);
    if (moves.length === 0) break;
    pos = api.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
  }
  return pos;
}
