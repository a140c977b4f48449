/**
 * Filtering PGN by copying: the games that pass a tag filter (pgn-filter.ts), written as their own
 * bytes from the source, without making game objects. The reader's compact records give each game's
 * byte range and tag pairs; the tags the filter reads are the only text decoded. A game's text is
 * kept as it was (move text, comments, variations, NAGs, line ends), made into the PGN standard's
 * export form only where a reader could otherwise take it for something else:
 *
 * - a game without tags (only the first game of a file can be one) gets the Seven Tag Roster
 *   (section 8.1.1) with unknown values ('?'), so that it cannot run into the game before it;
 * - a tag section with a blank line inside it (as ChessBase writes some) is written again from its
 *   tag pairs, one per line, so that other readers see one game;
 * - a game without a game termination marker (section 8.2.6) gets one: its Result tag when that is
 *   a marker, else '*', on a line of its own (a ';' comment may end the last line);
 * - each game ends with a line end and a blank line.
 *
 * The records are the same on both readers, so is the output. Used by `bitboard-patterns pgn
 * filter`; `filterPgn` is the in-memory form.
 */
import * as jsPgn from '../backends/js/pgn.js';
import { uciOf } from './san.js';
import { finalPositionKey, gameFilter, type GameFilter } from './pgn-filter.js';
import { PGN_RESULTS as RESULTS, ROSTER_UNKNOWN, SEVEN_TAG_ROSTER, isPgnResult, unescapeTag } from './pgn-tags.js';
import { bytesOf, gamesOf, readerFor, recordsOf, type ChunkRead, type PgnError, type PgnResult, type PgnSource } from './pgn.js';

export interface FilterPgnOptions extends GameFilter {
  /** Keep only the first game ending in each position (the first four fields of its FEN). */
  dedupe?: boolean;
  /** The PGN reader: 'native' | 'js' (default: the facade's backend). */
  backend?: 'native' | 'js';
}

/** The games of a text (or of one chunk of a source) that passed, as PGN, and the games that could not be read. */
export interface FilteredPgn {
  /** The kept games' PGN (UTF-8 or whatever the source's bytes were), each ending with a blank line. */
  pgn: Uint8Array;
  /** How many games `pgn` holds. */
  kept: number;
  /** The games that could not be read (left out), in order. */
  errors: PgnError[];
}

/** The tags the filter reads. */
const FILTER_TAGS = ['WhiteElo', 'BlackElo', 'TimeControl', 'Result', 'Termination', 'FEN', 'Variant'] as const;
const FILTER_TAG_BYTES = FILTER_TAGS.map((t) => Buffer.from(t, 'latin1'));
const BLANK_LINE = Buffer.from('\n\n', 'latin1');
const LINE_END = Buffer.from('\n', 'latin1');
const OPEN_TAG = Buffer.from('[', 'latin1');
const OPEN_VALUE = Buffer.from(' "', 'latin1');
const CLOSE_TAG = Buffer.from('"]\n', 'latin1');

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 13 || c === 10;

/** True when bytes[s..e) equals name. */
function sameBytes(bytes: Uint8Array, s: number, e: number, name: Uint8Array): boolean {
  if (e - s !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (bytes[s + k] !== name[k]) return false;
  return true;
}

/** True when bytes[s..e) holds a line with nothing but white space (a '\n', blanks, a '\n'). */
function hasBlankLine(bytes: Uint8Array, s: number, e: number): boolean {
  for (let k = s; k < e; k++) {
    if (bytes[k] !== 10) continue;
    let j = k + 1;
    while (j < e && (bytes[j] === 32 || bytes[j] === 9 || bytes[j] === 13)) j++;
    if (j < e && bytes[j] === 10) return true;
  }
  return false;
}

/** Selection state kept from one chunk of a source to the next: the filter and the final positions seen. */
export class PgnCopier {
  private readonly keep: ReturnType<typeof gameFilter>;
  private readonly seen: Set<string> | undefined;
  /** The filter names openings: it needs each game's moves. */
  private readonly byOpening: boolean;

  constructor(options: FilterPgnOptions) {
    this.keep = gameFilter(options);
    this.byOpening = options.ecos !== undefined || options.openings !== undefined;
    this.seen = options.dedupe ? new Set() : undefined;
  }

  /** The reader flags this copier needs (final positions only when it dedupes). */
  get flags(): number {
    return this.seen ? jsPgn.PGN_WRITE_POSITIONS | jsPgn.PGN_FINAL_ONLY : 0;
  }

  /** The kept games of one read (made with this.flags) as PGN, and its bad games. */
  select(c: ChunkRead): FilteredPgn {
    const { bytes, records: r } = c;
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const G = jsPgn.G;
    const F = jsPgn.GAME_RECORD;
    const pieces: Uint8Array[] = [];
    let kept = 0;
    let bad = false;
    const tags: Record<string, string> = {};
    const view: { tags: Record<string, string>; result: PgnResult | null; moves?: string[]; startFen?: string } = { tags, result: null };
    for (let g = 0; g * F < r.games.length; g++) {
      const at = g * F;
      if (r.games[at + G.error] !== 0) {
        bad = true;
        continue;
      }
      const tagStart = r.games[at + G.tagStart]!;
      const tagEnd = tagStart + r.games[at + G.tagCount]!;
      for (const name of FILTER_TAGS) delete tags[name];
      for (let t = tagStart; t < tagEnd; t++) {
        const ns = r.tags[4 * t]!;
        const ne = r.tags[4 * t + 1]!;
        for (let k = 0; k < FILTER_TAGS.length; k++) {
          if (sameBytes(bytes, ns, ne, FILTER_TAG_BYTES[k]!)) {
            tags[FILTER_TAGS[k]!] = unescapeTag(buf.toString('utf8', r.tags[4 * t + 2]!, r.tags[4 * t + 3]!));
            break;
          }
        }
      }
      const code = r.games[at + G.result]!;
      view.result = code >= 0 ? RESULTS[code]! : null;
      if (this.byOpening) {
        const codes = r.moves.subarray(r.games[at + G.moveStart]!, r.games[at + G.moveStart]! + r.games[at + G.moveCount]!);
        view.moves = Array.from(codes, uciOf);
        view.startFen = r.games[at + G.fenTag]! >= 0 && tags.FEN !== undefined ? tags.FEN.trim() : undefined;
      }
      if (!this.keep(view)) continue;
      if (this.seen) {
        const key = finalPositionKey(r.positions, r.games[at + G.positionStart]! * 10);
        if (this.seen.has(key)) continue;
        this.seen.add(key);
      }
      kept++;
      const marker = view.result ?? (isPgnResult(tags.Result) ? tags.Result : '*');
      this.copyGame(bytes, r, at, tagStart, tagEnd, marker, pieces);
    }
    const errors = bad ? gamesOf(bytes, r, c.firstGame, { outcome: false, sans: false }, true).map((g) => g.error!) : [];
    return { pgn: Buffer.concat(pieces), kept, errors };
  }

  private copyGame(bytes: Uint8Array, r: jsPgn.PgnRecords, at: number, tagStart: number, tagEnd: number, marker: string,
    pieces: Uint8Array[]): void {
    const G = jsPgn.G;
    const s = r.games[at + G.start]!;
    let e = r.games[at + G.end]!;
    while (e > s && isSpace(bytes[e - 1]!)) e--;
    const ended = r.games[at + G.result]! >= 0;
    if (tagEnd === tagStart) {
      const roster = SEVEN_TAG_ROSTER.map((name) => `[${name} "${name === 'Result' ? marker : ROSTER_UNKNOWN[name]}"]\n`).join('');
      pieces.push(Buffer.from(`${roster}\n`, 'latin1'), bytes.subarray(s, e));
      if (!ended) pieces.push(Buffer.from(e > s ? `\n${marker}\n\n` : `${marker}\n\n`, 'latin1'));
      else pieces.push(BLANK_LINE);
      return;
    }
    // The end of the tag section: the line end after the last tag pair's value.
    let lineEnd = r.tags[4 * (tagEnd - 1) + 3]!;
    while (lineEnd < e && bytes[lineEnd] !== 10) lineEnd++;
    const movetext = lineEnd < e;
    let blank = false;
    for (let t = tagStart + 1; t < tagEnd && !blank; t++) {
      const from = r.tags[4 * (t - 1) + 3]!;
      const to = r.tags[4 * t]!;
      if (to - from >= 5 && hasBlankLine(bytes, from, to)) blank = true;
    }
    if (blank) {
      // Written again from the pairs: name and value as the source had them (escapes included).
      for (let t = tagStart; t < tagEnd; t++) {
        pieces.push(OPEN_TAG, bytes.subarray(r.tags[4 * t]!, r.tags[4 * t + 1]!), OPEN_VALUE,
          bytes.subarray(r.tags[4 * t + 2]!, r.tags[4 * t + 3]!), CLOSE_TAG);
      }
      pieces.push(LINE_END);
      let k = lineEnd;
      while (k < e && isSpace(bytes[k]!)) k++;
      pieces.push(bytes.subarray(k, e));
      if (!ended) pieces.push(Buffer.from(movetext ? `\n${marker}\n\n` : `${marker}\n\n`, 'latin1'));
      else pieces.push(BLANK_LINE);
      return;
    }
    pieces.push(bytes.subarray(s, e));
    if (!ended) pieces.push(Buffer.from(movetext ? `\n${marker}\n\n` : `\n\n${marker}\n\n`, 'latin1'));
    else pieces.push(BLANK_LINE);
  }
}

function checkFilterOptions(fn: string, options: unknown): FilterPgnOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object`);
  const o = options as FilterPgnOptions;
  if (o.backend !== undefined && o.backend !== 'native' && o.backend !== 'js') {
    throw new RangeError(`${fn}: backend must be 'native' or 'js', got ${JSON.stringify(o.backend)}`);
  }
  if (o.dedupe !== undefined && typeof o.dedupe !== 'boolean') throw new TypeError(`${fn}: dedupe must be a boolean`);
  return o;
}

/**
 * The games of a PGN text that pass the tag filters of `options` (and, with `dedupe`, end in a
 * position no earlier game ended in), as PGN: each game's own text (see the module comment).
 */
export function filterPgn(text: string | Uint8Array, options?: FilterPgnOptions): FilteredPgn {
  const o = checkFilterOptions('filterPgn', options);
  const bytes = bytesOf('filterPgn', text);
  const copier = new PgnCopier(o);
  const records = readerFor(o.backend)(bytes, copier.flags | jsPgn.PGN_LAST_CHUNK, 1, 0, 1, 1);
  return copier.select({ bytes, records, firstGame: 1 });
}

/** filterPgn over a source read chunk by chunk (a file, a stream): one result per chunk that held games. */
export async function* readFilteredPgn(source: PgnSource, options?: FilterPgnOptions): AsyncGenerator<FilteredPgn> {
  const o = checkFilterOptions('readFilteredPgn', options);
  const copier = new PgnCopier(o);
  for await (const c of recordsOf('readFilteredPgn', source, copier.flags, { mode: 'all', every: 1, fromPly: 0 }, o.backend)) {
    yield copier.select(c);
  }
}
