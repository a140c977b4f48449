/**
 * A Position onto ply 0 of movegen.ts's board, read from the Position itself: its sets' halves and
 * its state fields, without packed words in between (the everyday calls' way in).
 */
import type { Position } from '../../core/types.js';
import { PositionRecord } from '../../core/position-record.js';
import { BOARD, C960, CASTLING, CHESS960_FLAG, EP, SIDE } from './movegen.js';

/** Loads pos (a Position this package made) into ply 0, as loadPacked does its packed words. */
export function loadPosition(pos: Position): void {
  const h = PositionRecord.setsOf(pos as PositionRecord);
  // Written out: V8 runs the straight stores from an array to a typed array several times faster than the loop.
  BOARD[0] = h[0]!; BOARD[1] = h[1]!; BOARD[2] = h[2]!; BOARD[3] = h[3]!; BOARD[4] = h[4]!; BOARD[5] = h[5]!;
  BOARD[6] = h[6]!; BOARD[7] = h[7]!; BOARD[8] = h[8]!; BOARD[9] = h[9]!; BOARD[10] = h[10]!; BOARD[11] = h[11]!;
  BOARD[12] = h[12]!; BOARD[13] = h[13]!; BOARD[14] = h[14]!; BOARD[15] = h[15]!;
  BOARD[SIDE] = pos.sideToMove;
  BOARD[CASTLING] = pos.castling;
  BOARD[C960] = pos.chess960 ? CHESS960_FLAG | PositionRecord.rookFieldsOf(pos as PositionRecord) : 0;
  BOARD[EP] = pos.epSquare;
}
