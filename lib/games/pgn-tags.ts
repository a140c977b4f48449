/**
 * Facts of the PGN standard (Steven J. Edwards, "Portable Game Notation Specification and
 * Implementation Guide", sections 8.1 and 8.2) that the reader, the writer, the copier and the
 * filter share: the game termination markers, the Seven Tag Roster and tag-value escapes.
 */

export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** The termination markers, indexed by the reader's result code (-1 is "none"). */
export const PGN_RESULTS: readonly PgnResult[] = ['*', '1-0', '0-1', '1/2-1/2'];

/** True for one of the four termination markers. */
export function isPgnResult(s: unknown): s is PgnResult {
  return s === '*' || s === '1-0' || s === '0-1' || s === '1/2-1/2';
}

/** The Seven Tag Roster, in its required order (section 8.1.1). */
export const SEVEN_TAG_ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'] as const;

/** What a roster tag holds when its value is unknown (section 8.1.1). */
export const ROSTER_UNKNOWN: Readonly<Record<string, string>> = {
  Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', Result: '*',
};

/** A tag value with its backslash escapes (section 7) undone. */
export function unescapeTag(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s;
}

/**
 * The Variant tag values read as Chess960 (case-insensitive): the spellings of lichess
 * ("Chess960"), cutechess-cli ("fischerandom"), and others in use.
 */
export const CHESS960_VARIANTS = ['chess960', 'chess 960', 'fischerandom', 'fischer random', 'frc'] as const;

/** Whether a Variant tag value names Chess960. */
export function isChess960Variant(value: unknown): boolean {
  return typeof value === 'string' && (CHESS960_VARIANTS as readonly string[]).includes(value.toLowerCase());
}
