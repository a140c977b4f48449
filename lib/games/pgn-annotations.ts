/**
 * Clocks, move times and evaluations of a game read with `{ annotations: true }`: the records of
 * the readers (native/core/annotations.h, lib/backends/js/pgn-annotations.ts) turned into arrays parallel to
 * the moves. A command belongs to the move it follows (a comment after ply p annotates move p; one
 * before the first move annotates none); of two commands of one kind after one move, the later counts.
 */
import {
  ANNOTATION_CLOCK, ANNOTATION_CP, ANNOTATION_EMT, ANNOTATION_FIELDS, ANNOTATION_MATE,
} from '../backends/js/pgn-annotations.js';

/** An engine evaluation from White's view: centipawns, or moves to mate (negative: Black mates). */
export type PgnEval = { cp: number } | { mate: number };

export interface GameAnnotations {
  clocks: (number | null)[];
  emts: (number | null)[];
  evals: (PgnEval | null)[];
  /** The index of the first record of the next games. */
  next: number;
}

/** The annotations of game `g` (its index in the read) with `moves` moves, from record `cursor` on. */
export function annotationsOf(records: Int32Array, cursor: number, g: number, moves: number): GameAnnotations {
  const clocks = new Array<number | null>(moves).fill(null);
  const emts = new Array<number | null>(moves).fill(null);
  const evals = new Array<PgnEval | null>(moves).fill(null);
  const F = ANNOTATION_FIELDS;
  let k = cursor;
  while (k < records.length && records[k]! < g) k += F;
  for (; k < records.length && records[k] === g; k += F) {
    const ply = records[k + 1]!;
    if (ply < 1 || ply > moves) continue;
    const kind = records[k + 2]!;
    const value = records[k + 3]!;
    if (kind === ANNOTATION_CLOCK) clocks[ply - 1] = value + records[k + 4]! / 1000;
    else if (kind === ANNOTATION_EMT) emts[ply - 1] = value + records[k + 4]! / 1000;
    else if (kind === ANNOTATION_CP) evals[ply - 1] = { cp: value };
    else if (kind === ANNOTATION_MATE) evals[ply - 1] = { mate: value };
  }
  return { clocks, emts, evals, next: k };
}

/** Per position of a read: the clock and eval of the move that led to it (NaN where absent, and at ply 0). */
export interface PositionAnnotations {
  /** Seconds on the clock of the side that just moved ([%clk]). */
  clock: Float64Array;
  /** [%eval] in centipawns from White's view. */
  evalCp: Float64Array;
  /** [%eval] as moves to mate (negative: Black mates). */
  evalMate: Float64Array;
}

/**
 * The annotations of each position of a read whose positions are numbered `positionGame` (the game
 * index in the read plus `gameBase`) and `positionPly`: both lists are in (game, ply) order, so one
 * pass over each (positions without a record are not visited).
 */
export function positionAnnotations(records: Int32Array, positionGame: Uint32Array, positionPly: Uint32Array, gameBase: number): PositionAnnotations {
  const n = positionGame.length;
  const clock = new Float64Array(n).fill(Number.NaN);
  const evalCp = new Float64Array(n).fill(Number.NaN);
  const evalMate = new Float64Array(n).fill(Number.NaN);
  const F = ANNOTATION_FIELDS;
  // One pass over the records, the position cursor only moving forward: a game's positions are
  // often consecutive plies, so the cursor first tries the jump to the record's ply.
  let k = 0;
  for (let a = 0; a < records.length && k < n; a += F) {
    const g = records[a]! + gameBase;
    const ply = records[a + 1]!;
    if (positionGame[k] === g) {
      const j = k + ply - positionPly[k]!;
      if (j > k && j < n && positionGame[j] === g && positionPly[j] === ply) k = j;
    }
    while (k < n && (positionGame[k]! < g || (positionGame[k] === g && positionPly[k]! < ply))) k++;
    if (k === n || positionGame[k] !== g || positionPly[k] !== ply) continue;
    const kind = records[a + 2]!;
    const value = records[a + 3]!;
    if (kind === ANNOTATION_CLOCK) clock[k] = value + records[a + 4]! / 1000;
    else if (kind === ANNOTATION_CP) { evalCp[k] = value; evalMate[k] = Number.NaN; }
    else if (kind === ANNOTATION_MATE) { evalMate[k] = value; evalCp[k] = Number.NaN; }
  }
  return { clock, evalCp, evalMate };
}
