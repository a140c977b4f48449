/**
 * A Position onto ply 0 of movegen.ts's board, read from the Position itself: its sets' halves and
 * its state fields, without packed words in between (the everyday calls' way in).
 */
import type { Position } from '../../core/types.js';
import { PositionRecord, writeSets } from '../../core/position-record.js';
import { BOARD, C960, CASTLING, CHESS960_FLAG, EP, SIDE } from '../../board/movegen.js';

/** Loads pos (a Position this package made) into ply 0, as loadPacked does its packed words. */
export function loadPosition(pos: Position): void {
  const B = BOARD;
  writeSets(pos, B, 0);
  B[SIDE] = pos.sideToMove;
  B[CASTLING] = pos.castling;
  B[C960] = pos.chess960 ? CHESS960_FLAG | PositionRecord.rookFieldsOf(pos as PositionRecord) : 0;
  B[EP] = pos.epSquare;
}
