/**
 * Checks and Pinned Pieces (Chess Programming Wiki), facade side: the public functions that are
 * more than one backend call. The algorithms are the backend's (native/core/checks.h, lib/backends/js/checks.ts).
 */
import type { CheckKind, Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { CHECK_KINDS } from '../core/types.js';
import type { UciMove } from './moves.js';
import { MoveError } from '../core/position.js';
import { uciOfCode } from '../core/position-record.js';

/** attackersTo: sliders see through the position's own pieces unless `occupied` is given. */
export function attackersToCall(b: Backend, pos: Position, sq: number, byColor: number, occupied: bigint | undefined): bigint {
  return b.attackersTo(pos, sq, byColor, occupied ?? (pos.colors[0] | pos.colors[1]));
}

export function checkersCall(b: Backend, pos: Position, color: number | undefined): bigint {
  return b.checkers(pos, color ?? pos.sideToMove);
}

export function isInCheckCall(b: Backend, pos: Position, color: number | undefined): boolean {
  return b.checkers(pos, color ?? pos.sideToMove) !== 0n;
}

export function checkKindCall(b: Backend, pos: Position, move: UciMove): CheckKind {
  const kind = b.checkKind(pos, move & 63, (move >> 6) & 63, move >> 12);
  if (kind < 0) throw new MoveError(uciOfCode(move), 'checkKind: not a legal move in this position');
  return CHECK_KINDS[kind]!;
}
