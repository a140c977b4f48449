/**
 * Tactical motifs and the static exchange evaluation, facade side: the public functions that are
 * more than one backend call. The algorithms are the backend's (native/core/motifs.h,
 * lib/backends/js/motifs.ts).
 */
import type { Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { SEE_ILLEGAL } from '../core/types.js';
import type { UciMove } from './moves.js';
import { MoveError } from '../core/position.js';
import { uciOfCode } from '../core/position-record.js';

export function seeCall(b: Backend, pos: Position, move: UciMove): number {
  const v = b.see(pos, move & 63, (move >> 6) & 63, move >> 12);
  if (v === SEE_ILLEGAL) throw new MoveError(uciOfCode(move), 'see: not a legal move in this position');
  return v;
}

export function seeGeCall(b: Backend, pos: Position, move: UciMove, threshold: number): boolean {
  const v = b.seeGe(pos, move & 63, (move >> 6) & 63, move >> 12, threshold);
  if (v < 0) throw new MoveError(uciOfCode(move), 'seeGe: not a legal move in this position');
  return v === 1;
}
