/**
 * Selecting games by their tags, as users of pgn-extract do (its tag criteria: player ratings,
 * TimeControl, Result, Termination), and dropping games that end in a position already seen (the
 * final position's first four FEN fields: placement, side to move, castling rights, en passant
 * square where a capture is possible). Used by `bitboard-patterns pgn filter`.
 */
import type { PgnGame } from './pgn.js';
import { isPgnResult } from './pgn-tags.js';
import { openingOf, type OpeningGame } from './openings.js';

export interface GameFilter {
  /** Both players rated at least this (WhiteElo and BlackElo tags; a game without a number fails). */
  minElo?: number;
  /** Both players rated at most this. */
  maxElo?: number;
  /** TimeControl tag values, one of which the game must have exactly (e.g. '180+2'). */
  timeControls?: readonly string[];
  /** Result values ('1-0', '0-1', '1/2-1/2', '*'), one of which the Result tag must be. */
  results?: readonly string[];
  /** Termination tag values, compared without regard to case (e.g. 'Normal', 'Time forfeit'). */
  terminations?: readonly string[];
  /**
   * ECO codes or ranges ('B90-B99', 'C42'), one of which the game's opening (openingOf: the
   * lichess data set's name of its last named position) must be in.
   */
  ecos?: readonly string[];
  /** Opening name prefixes ('Sicilian Defense'), any case, one of which the game's opening name must start with. */
  openings?: readonly string[];
}

const ECO = /^[A-E]\d\d$/;


/** The Elo of a tag value: a whole number of up to 5 digits, or null. */
function elo(v: string | undefined): number | null {
  return v !== undefined && /^\s*\d{1,5}\s*$/.test(v) ? Number(v) : null;
}

/** A predicate for the games `f` selects; a RangeError for a value out of range. */
export function gameFilter(f: GameFilter): (g: Pick<PgnGame, 'tags' | 'result'> & Partial<OpeningGame>) => boolean {
  if (typeof f !== 'object' || f === null) throw new TypeError('gameFilter: the filter must be an object');
  for (const key of ['minElo', 'maxElo'] as const) {
    if (f[key] !== undefined && typeof f[key] !== 'number') throw new TypeError(`gameFilter: ${key} must be a number`);
  }
  for (const key of ['timeControls', 'results', 'terminations', 'ecos', 'openings'] as const) {
    const v: unknown = f[key];
    if (v !== undefined && (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))) {
      throw new TypeError(`gameFilter: ${key} must be an array of strings`);
    }
  }
  for (const key of ['minElo', 'maxElo'] as const) {
    const v = f[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > 99999)) throw new RangeError(`${key} must be an integer 0..99999`);
  }
  for (const r of f.results ?? []) if (!isPgnResult(r)) throw new RangeError(`result must be 1-0, 0-1, 1/2-1/2 or *, got ${JSON.stringify(r)}`);
  const ecos = f.ecos?.map((r) => {
    const [lo, hi = lo] = r.toUpperCase().split('-').map((x) => x.trim()) as [string, string?];
    if (!ECO.test(lo) || !ECO.test(hi!) || lo > hi!) throw new RangeError(`eco must be a code like B90 or a range like B90-B99, got ${JSON.stringify(r)}`);
    return [lo, hi!] as const;
  });
  const names = f.openings?.map((n) => n.toLowerCase());
  const tcs = f.timeControls ? new Set(f.timeControls) : undefined;
  const results = f.results ? new Set(f.results) : undefined;
  const terms = f.terminations ? new Set(f.terminations.map((t) => t.toLowerCase())) : undefined;
  const { minElo, maxElo } = f;
  return (g) => {
    if (minElo !== undefined || maxElo !== undefined) {
      const w = elo(g.tags.WhiteElo);
      const b = elo(g.tags.BlackElo);
      if (w === null || b === null) return false;
      if (minElo !== undefined && (w < minElo || b < minElo)) return false;
      if (maxElo !== undefined && (w > maxElo || b > maxElo)) return false;
    }
    if (tcs && !tcs.has(g.tags.TimeControl ?? '')) return false;
    if (results && !results.has(g.tags.Result ?? g.result ?? '')) return false;
    if (terms && !terms.has((g.tags.Termination ?? '').toLowerCase())) return false;
    if (ecos || names) {
      if (!Array.isArray(g.moves)) return false;
      const o = openingOf(g as OpeningGame);
      if (o === null) return false;
      if (ecos && !ecos.some(([lo, hi]) => o.eco >= lo && o.eco <= hi)) return false;
      const name = o.name.toLowerCase();
      if (names && !names.some((n) => name.startsWith(n))) return false;
    }
    return true;
  };
}

/**
 * The key of a final position for deduplication, from its packed words (position.h's layout): the
 * piece sets and the side / castling / en passant bits, without the move clocks. Two positions have
 * the same key exactly when the first four fields of their FEN are the same.
 */
export function finalPositionKey(words: BigUint64Array, at: number): string {
  let s = '';
  for (let k = 0; k < 8; k++) s += words[at + k]!.toString(36) + ',';
  return s + (words[at + 8]! & 0xffffn).toString(36);
}
