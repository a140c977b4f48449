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
  const B = BOARD;
  // Written out: V8 runs the straight stores from an array to a typed array several times faster than the loop.
  B[0] = h[0]!; B[1] = h[1]!; B[2] = h[2]!; B[3] = h[3]!; B[4] = h[4]!; B[5] = h[5]!;
  B[6] = h[6]!; B[7] = h[7]!; B[8] = h[8]!; B[9] = h[9]!; B[10] = h[10]!; B[11] = h[11]!;
  B[12] = h[12]!; B[13] = h[13]!; B[14] = h[14]!; B[15] = h[15]!;
  B[SIDE] = pos.sideToMove;
  B[CASTLING] = pos.castling;
  B[C960] = pos.chess960 ? CHESS960_FLAG | PositionRecord.rookFieldsOf(pos as PositionRecord) : 0;
  B[EP] = pos.epSquare;
}
