/** Random Chess960 positions for the tests: a start position in Scharnagl's numbering, then a random playout. */
import type { Api } from '../../lib/api/create-api.js';
import { chess960StartPosition } from '../../lib/core/position.js';
import type { Position } from '../../lib/core/types.js';
import { jsApi } from './backends.js';

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
