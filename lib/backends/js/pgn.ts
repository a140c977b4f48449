/**
 * PGN reading for the JS backend; twin of `native/core/pgn.h` (read its header for the rules: PGN
 * standard section 8 import format, game boundaries, what makes a game bad). The same records,
 * byte for byte, on the same input; moves are resolved and played on the ply stack of movegen.ts.
 */
import { BOARD, C960, EP, MAX_MOVES, MOVES, PLY_WORDS, SIDE, loadPacked, play, typeAt } from '../../board/movegen.js';
import { parseFen } from '../../core/position.js';
import { checkers } from './checks.js';
import type { PgnBackend, PgnRecords } from '../contract.js';
import * as san from './san.js';
import { readAnnotations } from './pgn-annotations.js';
import { BOARD_WORDS, gameOutcome } from './outcome.js';

export const PGN_NO_ERROR = 0;
export const PGN_BAD_TAG = 1;
export const PGN_MALFORMED_MOVE = 2;
export const PGN_ILLEGAL_MOVE = 3;
export const PGN_AMBIGUOUS_MOVE = 4;
export const PGN_NULL_MOVE_IN_CHECK = 5;
export const PGN_UNBALANCED_PAREN = 6;
export const PGN_UNTERMINATED_COMMENT = 7;
export const PGN_BAD_FEN = 8;
export const PGN_UNSUPPORTED_VARIANT = 9;

/** Fields of a game record, the order of native/core/pgn.h's GameField. */
export const GAME_FIELDS = [
  'start', 'end', 'line', 'moveStart', 'moveCount', 'tagStart', 'tagCount', 'commentStart', 'commentCount',
  'nagStart', 'nagCount', 'result', 'error', 'errorLine', 'errorColumn', 'errorTokenStart', 'errorTokenEnd',
  'sanStart', 'sanEnd', 'positionStart', 'positionCount', 'fenTag', 'outcome',
] as const;
export const G = Object.fromEntries(GAME_FIELDS.map((f, i) => [f, i])) as { [K in (typeof GAME_FIELDS)[number]]: number };
export const GAME_RECORD = GAME_FIELDS.length;

export const PGN_WRITE_SAN = 1;
export const PGN_WRITE_COMMENTS = 2;
export const PGN_WRITE_POSITIONS = 4;
export const PGN_FINAL_ONLY = 8;
export const PGN_LAST_CHUNK = 16;
/** The input continues a file: no BOM, no tagless first game. */
export const PGN_NOT_FIRST = 32;
/** [%clk] [%emt] [%eval] commands of main-line comments (pgn-annotations.ts). */
export const PGN_WRITE_ANNOTATIONS = 64;
/** Each game's outcome (outcome.ts) in its record's `outcome` field. */
export const PGN_OUTCOME = 128;
/**
 * Games found by their tokens alone: no move is read and nothing is written but the game records
 * (their start, end and tags), for cutting a text at the game boundaries a full read would find.
 */
export const PGN_BOUNDARIES = 256;

export type { PgnRecords } from '../contract.js';

const MAX_CLOCK = 1_000_000;
const START_HALVES = new Int32Array(new BigUint64Array([
  0xffffn, 0xffff000000000000n, 0x00ff00000000ff00n, 0x4200000000000042n, 0x2400000000000024n,
  0x8100000000000081n, 0x0800000000000008n, 0x1000000000000010n, (15n << 1n) | (64n << 8n), 1n,
]).buffer);
/** The standard setup as a Chess960 position (a Chess960 game without a FEN tag). */
const START_HALVES_960 = START_HALVES.slice();
START_HALVES_960[16] = START_HALVES_960[16]! | 0x20;

/** A growable Int32 store (positions are written as int32 halves of the packed words). */
class Halves {
  a = new Int32Array(1 << 12);
  n = 0;
  room(k: number): void {
    if (this.n + k > this.a.length) {
      const b = new Int32Array(Math.max(this.a.length * 2, this.n + k));
      b.set(this.a.subarray(0, this.n));
      this.a = b;
    }
  }
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const DELIMITER = new Uint8Array(256);
for (const c of ' \t\r\n\v\f{}()[];$"') DELIMITER[c.charCodeAt(0)] = 1;
// What can matter in the movetext of a game read for its boundaries only (skipMovetext).
const BOUNDARY = new Uint8Array(256);
for (const c of '\n[{;%*-') BOUNDARY[c.charCodeAt(0)] = 1;
/** The termination marker (section 8.2.6) the token p[start, end) is: 0 '*', 1 "1-0", 2 "0-1", 3 "1/2-1/2"; else -1. */
function resultOf(p: Uint8Array, start: number, end: number): number {
  const len = end - start;
  const c = p[start];
  if (len === 1 && c === 42) return 0;
  if (len === 3 && c === 49 && p[start + 1] === 45 && p[start + 2] === 48) return 1;
  if (len === 3 && c === 48 && p[start + 1] === 45 && p[start + 2] === 49) return 2;
  if (len === 7 && c === 49 && p[start + 1] === 47 && p[start + 2] === 50 && p[start + 3] === 45 &&
    p[start + 4] === 49 && p[start + 5] === 47 && p[start + 6] === 50) return 3;
  return -1;
}
const isNameChar = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;

// The board lives at ply P of the stack; each move is played into P + 1 and copied back, so the
// stack never grows.
const P = 0;
const O = P * PLY_WORDS;
const NEXT = (P + 1) * PLY_WORDS;

/** The packed words (int32 halves) of a FEN tag's value, or null when it is no valid FEN (as fen.h's parseFenLine). */
/**
 * A `$n` token at p[start, end) (p[start] is '$'): its NAG 0..255, or -1 when malformed (no digits,
 * something else after them, or more than 255). Export format, PGN standard 8.2.4.
 */
export function nagOf(p: Uint8Array, start: number, end: number): number {
  let nag = 0;
  let k = start + 1;
  for (; k < end && p[k]! >= 48 && p[k]! <= 57 && nag < 1000; k++) nag = nag * 10 + (p[k]! - 48);
  return k !== end || end === start + 1 || nag > 255 ? -1 : nag;
}

/**
 * The NAG of a move's suffix annotation (PGN standard 8.2.3.8: ! 1, ? 2, !! 3, ?? 4, !? 5, ?! 6)
 * in the token p[start, end), or 0 when it has none.
 */
export function suffixNagOf(p: Uint8Array, start: number, end: number): number {
  let e = end;
  while (e > start && (p[e - 1] === 33 || p[e - 1] === 63)) e--;
  if (end - e === 1) return p[e] === 33 ? 1 : 2;
  if (end - e === 2) {
    const a = p[e];
    const b = p[e + 1];
    return a === 33 ? (b === 33 ? 3 : 5) : (b === 63 ? 4 : 6);
  }
  return 0;
}

/**
 * Where the move of the token p[start, end) begins after a move number indication ("12.", "12...",
 * "..."), PGN standard 8.2.2.2; `end` when the token is a move number alone.
 */
export function moveTextStart(p: Uint8Array, start: number, end: number): number {
  let k = start;
  while (k < end && p[k]! >= 48 && p[k]! <= 57) k++;
  if (k > start && (k === end || p[k] === 46)) {
    while (k < end && p[k] === 46) k++;
    if (k === end) return end;
  } else {
    k = start;
  }
  if (p[k] === 46) {
    while (k < end && p[k] === 46) k++;
  }
  return k;
}

function parseFenLineJs(p: Uint8Array, start: number, end: number, chess960: boolean): Int32Array | null {
  for (let k = start; k < end; k++) if (p[k]! >= 0x80) return null;
  try {
    const pos = parseFen(Buffer.from(p.buffer, p.byteOffset + start, end - start).toString('latin1'), checkers, { chess960 });
    return new Int32Array(pos.packed.buffer, pos.packed.byteOffset, 20);
  } catch {
    return null;
  }
}

/**
 * The records of the games of p (native/core/pgn.h Options): `gameBase` (default 0) is added to the
 * game index written with each position (positionGame).
 */
export function readPgnGamesJs(p: Uint8Array, options: { flags: number; every: number; fromPly: number; firstLine: number; gameBase?: number }): PgnRecords {
  const n = p.length;
  const { flags, every, fromPly } = options;
  const gameBase = options.gameBase ?? 0;
  const games: number[] = [];
  const moves: number[] = [];
  const sanParts: string[] = [];
  const tags: number[] = [];
  const comments: number[] = [];
  const nags: number[] = [];
  const pos = new Halves();
  const posGame: number[] = [];
  const posPly: number[] = [];
  const annotations: number[] = [];
  let i = 0;
  let line = options.firstLine;
  let lineStart = 0;
  let consumed = 0;
  let consumedLine = line;

  let rec = 0; // index of the game record's first field
  let listN = 0;
  let ply = 0;
  let halfmove = 0;
  let fullmove = 1;
  let failed = false;

  const newline = (): void => { line++; lineStart = i + 1; };
  const skipLine = (): void => {
    while (i < n && p[i] !== 10) i++;
    if (i < n) { newline(); i++; }
  };
  const skipBlank = (): void => {
    while (i < n) {
      const c = p[i]!;
      if (c === 10) { newline(); i++; }
      else if (isSpace(c)) i++;
      else if (c === 37 && i === lineStart) skipLine();
      else break;
    }
  };
  const fail = (code: number, tokenStart: number, tokenEnd: number, atLine: number, atLineStart: number): void => {
    if (failed) return;
    failed = true;
    games[rec + G.error] = code;
    games[rec + G.errorLine] = atLine;
    games[rec + G.errorColumn] = tokenStart - atLineStart + 1;
    games[rec + G.errorTokenStart] = tokenStart;
    games[rec + G.errorTokenEnd] = tokenEnd;
  };
  let gameLineStart = 0;
  const failInTags = (code: number, tokenStart: number, tokenEnd: number): void => {
    let atLine = games[rec + G.line]!;
    let ls = games[rec + G.start]!;
    for (let k = ls; k < tokenStart; k++) if (p[k] === 10) { atLine++; ls = k + 1; }
    if (atLine === games[rec + G.line]) ls = gameLineStart;
    fail(code, tokenStart, tokenEnd, atLine, ls);
  };
  const wantPosition = (k: number): boolean =>
    (flags & PGN_WRITE_POSITIONS) !== 0 && (flags & PGN_FINAL_ONLY) === 0 && k >= fromPly && (k - fromPly) % every === 0;
  const writePosition = (): void => {
    pos.room(20);
    const a = pos.a;
    let w = pos.n;
    for (let k = 0; k < 16; k++) a[w++] = BOARD[O + k]!;
    const ep = BOARD[O + EP]!;
    const c960 = BOARD[O + C960]!;
    a[w++] = BOARD[O + SIDE]! | (BOARD[O + 17]! << 1) | (c960 !== 0 ? 0x20 : 0) | ((ep < 0 ? 64 : ep) << 8) | ((halfmove & 0xffff) << 16);
    a[w++] = (halfmove >>> 16) | ((c960 & 0xfff) << 8);
    a[w++] = fullmove;
    a[w++] = 0;
    pos.n = w;
    posGame.push(gameBase + rec / GAME_RECORD);
    posPly.push(ply);
  };
  const generate = (): void => { listN = san.generateClean(P); };
  // With PGN_OUTCOME: the game's boards since its last capture or pawn move (BOARD_WORDS each), the
  // current one last.
  const withOutcome = (flags & PGN_OUTCOME) !== 0;
  let history = new Int32Array(withOutcome ? 64 * BOARD_WORDS : 0);
  let historyN = 0;
  const remember = (reset: boolean): void => {
    if (reset) historyN = 0;
    if ((historyN + 1) * BOARD_WORDS > history.length) {
      const h = new Int32Array(history.length * 2);
      h.set(history);
      history = h;
    }
    const at = historyN++ * BOARD_WORDS;
    for (let k = 0; k < BOARD_WORDS; k++) history[at + k] = BOARD[O + k]!;
  };

  const tag = (): boolean => {
    const start = i;
    i++;
    while (i < n && (p[i] === 32 || p[i] === 9)) i++;
    const nameStart = i;
    while (i < n && isNameChar(p[i]!)) i++;
    const nameEnd = i;
    while (i < n && (p[i] === 32 || p[i] === 9)) i++;
    let ok = nameEnd > nameStart && i < n && p[i] === 34;
    let valueStart = 0;
    let valueEnd = 0;
    if (ok) {
      valueStart = ++i;
      while (i < n && p[i] !== 34 && p[i] !== 10) i += p[i] === 92 && i + 1 < n && p[i + 1] !== 10 ? 2 : 1;
      ok = i < n && p[i] === 34;
      valueEnd = i;
      if (ok) {
        i++;
        while (i < n && (p[i] === 32 || p[i] === 9)) i++;
        ok = i < n && p[i] === 93;
        if (ok) i++;
      }
    }
    if (!ok) {
      let end = start;
      while (end < n && p[end] !== 10 && p[end] !== 13) end++;
      fail(PGN_BAD_TAG, start, end, line, lineStart);
      while (i < n && p[i] !== 10) i++;
      return false;
    }
    tags.push(nameStart, nameEnd, valueStart, valueEnd);
    games[rec + G.tagCount]!++;
    return true;
  };
  // After a blank line in a tag section (native/core/pgn.h tagsGoOn): more tags follow, the first
  // with a name this game has no tag of (ChessBase exports).
  const tagsGoOn = (k: number, firstTag: number): boolean => {
    while (k < n && isSpace(p[k]!)) k++;
    if (k >= n || p[k] !== 91) return false;
    k++;
    while (k < n && (p[k] === 32 || p[k] === 9)) k++;
    const nameStart = k;
    while (k < n && isNameChar(p[k]!)) k++;
    const len = k - nameStart;
    if (len === 0) return false;
    outer: for (let t = firstTag; t < tags.length / 4; t++) {
      const s = tags[t * 4]!;
      if (tags[t * 4 + 1]! - s !== len) continue;
      for (let j = 0; j < len; j++) if (p[s + j] !== p[nameStart + j]) continue outer;
      return false;
    }
    return true;
  };
  const tagIs = (k: number, name: string): boolean => {
    const s = tags[k * 4]!;
    if (tags[k * 4 + 1]! - s !== name.length) return false;
    for (let j = 0; j < name.length; j++) if (p[s + j] !== name.charCodeAt(j)) return false;
    return true;
  };
  const STANDARD = ['standard', 'chess', 'normal', ''];
  /** The Variant values read as Chess960 (case-insensitive). */
  const CHESS960 = ['chess960', 'chess 960', 'fischerandom', 'fischer random', 'frc'];
  const valueIsStandard = (k: number): boolean => valueIsAny(k, STANDARD);
  const valueIsAny = (k: number, values: string[]): boolean => {
    const s = tags[k * 4 + 2]!;
    const len = tags[k * 4 + 3]! - s;
    return values.some((v) => {
      if (v.length !== len) return false;
      for (let j = 0; j < len; j++) if ((p[s + j]! | 0x20) !== (v.charCodeAt(j) | 0x20)) return false;
      return true;
    });
  };
  const startPosition = (firstTag: number): void => {
    let words: Int32Array = START_HALVES;
    let chess960 = false;
    for (let k = firstTag; k < tags.length / 4; k++) {
      if (tagIs(k, 'Variant') && !valueIsStandard(k)) {
        if (valueIsAny(k, CHESS960)) {
          chess960 = true;
          continue;
        }
        failInTags(PGN_UNSUPPORTED_VARIANT, tags[k * 4 + 2]!, tags[k * 4 + 3]!);
        return;
      }
    }
    if (chess960) words = START_HALVES_960;
    for (let k = firstTag; k < tags.length / 4; k++) {
      if (tagIs(k, 'FEN')) {
        games[rec + G.fenTag] = k - firstTag;
        const w = parseFenLineJs(p, tags[k * 4 + 2]!, tags[k * 4 + 3]!, chess960);
        if (w === null) {
          failInTags(PGN_BAD_FEN, tags[k * 4 + 2]!, tags[k * 4 + 3]!);
          return;
        }
        words = w;
      }
    }
    loadPacked(words, 0, P);
    halfmove = ((words[16]! >>> 16) | (words[17]! << 16)) & 0xfffff;
    fullmove = words[18]!;
  };
  const addNag = (nag: number): void => {
    nags.push(ply, nag);
    games[rec + G.nagCount]!++;
  };

  const move = (start: number, end: number): void => {
    const suffixNag = suffixNagOf(p, start, end);
    if (!san.parseSyntax(p, start, end)) return fail(PGN_MALFORMED_MOVE, start, end, line, lineStart);
    const r = san.resolve(P, listN);
    const status = san.sanStatus(r);
    let m = 0;
    const isNull = status === san.SAN_NULL_MOVE;
    if (isNull) {
      if (san.inCheckAt(P)) return fail(PGN_NULL_MOVE_IN_CHECK, start, end, line, lineStart);
    } else if (status === san.SAN_ILLEGAL) {
      return fail(PGN_ILLEGAL_MOVE, start, end, line, lineStart);
    } else if (status === san.SAN_AMBIGUOUS) {
      return fail(PGN_AMBIGUOUS_MOVE, start, end, line, lineStart);
    } else {
      m = san.sanMove(r);
    }
    moves.push(m);
    games[rec + G.moveCount]!++;
    let reset = false;
    if (isNull) {
      san.playNull(P);
    } else {
      const to = (m >> 6) & 63;
      // A pawn move or a capture (an enemy piece on the target: a Chess960 castling move lands on its own rook).
      reset = typeAt(O, m & 63) === 0 || ((BOARD[O + 2 * (BOARD[O + SIDE]! ^ 1) + (to >> 5)]! & (1 << (to & 31))) !== 0);
      play(P, m);
    }
    if (BOARD[O + SIDE] === 1) fullmove = fullmove + 1 > MAX_CLOCK ? MAX_CLOCK : fullmove + 1;
    halfmove = reset ? 0 : halfmove + 1 > MAX_CLOCK ? MAX_CLOCK : halfmove + 1;
    const wantSan = (flags & PGN_WRITE_SAN) !== 0;
    // SAN of the move needs the board before it (ply P) and the check state after it (ply P + 1).
    const childN = san.generateClean(P + 1);
    let text = '';
    if (wantSan && !isNull) text = san.write(P, listN, m, san.inCheckAt(P + 1) ? (childN === 0 ? 2 : 1) : 0);
    for (let k = 0; k < PLY_WORDS; k++) BOARD[O + k] = BOARD[NEXT + k]!;
    MOVES.copyWithin(P * MAX_MOVES, (P + 1) * MAX_MOVES, (P + 1) * MAX_MOVES + childN);
    listN = childN;
    ply++;
    if (withOutcome) remember(reset);
    if (wantSan) sanParts.push(isNull ? '-- ' : `${text} `);
    if (suffixNag) addNag(suffixNag);
    if (wantPosition(ply)) writePosition();
  };

  const braceComment = (record: boolean): boolean => {
    const start = i;
    const atLine = line;
    const ls = lineStart;
    i++;
    while (i < n && p[i] !== 125) {
      if (p[i] === 10) newline();
      i++;
    }
    if (i >= n) {
      fail(PGN_UNTERMINATED_COMMENT, start, start + 1, atLine, ls);
      return false;
    }
    if (record && (flags & PGN_WRITE_COMMENTS) !== 0) {
      comments.push(ply, start + 1, i);
      games[rec + G.commentCount]!++;
    }
    if (record && (flags & PGN_WRITE_ANNOTATIONS) !== 0 && !failed && ply > 0) {
      readAnnotations(p, start + 1, i, rec / GAME_RECORD, ply, annotations);
    }
    i++;
    return true;
  };

  // The movetext of a game read for its boundaries only (PGN_BOUNDARIES: the game counts as failed,
  // so no move, NAG or parenthesis changes anything): where game()'s token loop ends it, found by the
  // bytes that can end it (BOUNDARY), as native/core/pgn.h's skipMovetext does. A line end is
  // counted; a '%' escape line, a brace comment and a ';' comment are passed over as that loop does;
  // a '[' starts the next game; a token holding '*' or '-' (its bounds: the delimiters around it, a
  // '$' before it aside) may be a termination marker. True when the game is complete.
  const skipMovetext = (): boolean => {
    const from = i;
    for (;;) {
      while (i < n && BOUNDARY[p[i]!] === 0) i++;
      if (i >= n) return false;
      const c = p[i]!;
      if (c === 10) { newline(); i++; continue; }
      if (c === 91) return true;
      if (c === 123) {
        if (!braceComment(false)) return false;
        continue;
      }
      if (c === 59) {
        while (i < n && p[i] !== 10) i++;
        continue;
      }
      if (c === 37) {
        if (i === lineStart) skipLine();
        else i++;
        continue;
      }
      let start = i;
      while (start > from && DELIMITER[p[start - 1]!] === 0) start--;
      i++;
      while (i < n && DELIMITER[p[i]!] === 0) i++;
      const result = start > from && p[start - 1] === 36 ? -1 : resultOf(p, start, i);
      if (result >= 0) {
        games[rec + G.result] = result;
        return true;
      }
    }
  };

  const game = (): boolean => {
    rec = games.length;
    for (let k = 0; k < GAME_RECORD; k++) games.push(0);
    games[rec + G.start] = i;
    games[rec + G.line] = line;
    games[rec + G.moveStart] = moves.length;
    games[rec + G.tagStart] = tags.length / 4;
    games[rec + G.commentStart] = comments.length / 3;
    games[rec + G.nagStart] = nags.length / 2;
    games[rec + G.sanStart] = sanBytes;
    games[rec + G.positionStart] = posGame.length;
    games[rec + G.result] = -1;
    games[rec + G.fenTag] = -1;
    failed = false;
    ply = 0;
    gameLineStart = lineStart;

    const firstTag = tags.length / 4;
    while (i < n) {
      while (i < n && (p[i] === 32 || p[i] === 9 || p[i] === 13)) i++;
      if (i >= n) break;
      if (p[i] === 91) { tag(); continue; }
      if (p[i] === 10) {
        newline();
        i++;
        let k = i;
        while (k < n && (p[k] === 32 || p[k] === 9 || p[k] === 13)) k++;
        if (k < n && p[k] === 10 && !tagsGoOn(k, firstTag)) break;
        continue;
      }
      if (p[i] === 37 && i === lineStart) { skipLine(); continue; }
      break;
    }
    // Boundaries only: the movetext is scanned as a bad game's is (its moves skipped, no error).
    if ((flags & PGN_BOUNDARIES) !== 0) failed = true;
    if (!failed) startPosition(firstTag);
    if (!failed) {
      generate();
      if (wantPosition(0)) writePosition();
      if (withOutcome) {
        historyN = 0;
        remember(false);
      }
    }

    let complete = false;
    let depth = 0;
    // Boundaries only: the movetext passed over by the few bytes that can end it (skipMovetext).
    const skipping = (flags & PGN_BOUNDARIES) !== 0;
    if (skipping) complete = skipMovetext();
    while (!skipping && i < n) {
      const c = p[i]!;
      if (c === 10) { newline(); i++; continue; }
      if (isSpace(c)) { i++; continue; }
      if (c === 37 && i === lineStart) { skipLine(); continue; }
      if (c === 91) { complete = true; break; }
      if (c === 123) {
        if (!braceComment(depth === 0)) break;
        continue;
      }
      if (c === 59) {
        const start = i + 1;
        while (i < n && p[i] !== 10) i++;
        if (depth === 0 && (flags & PGN_WRITE_COMMENTS) !== 0) {
          let end = i;
          if (end > start && p[end - 1] === 13) end--;
          comments.push(ply, start, end);
          games[rec + G.commentCount]!++;
        }
        continue;
      }
      if (c === 40) { depth++; i++; continue; }
      if (c === 41) {
        if (depth === 0) fail(PGN_UNBALANCED_PAREN, i, i + 1, line, lineStart);
        else depth--;
        i++;
        continue;
      }
      const start = i;
      if (c === 36) i++;
      while (i < n && DELIMITER[p[i]!] === 0) i++;
      if (i === start) {
        i++;
        if (depth === 0) fail(PGN_MALFORMED_MOVE, start, i, line, lineStart);
        continue;
      }
      const end = i;
      const result = resultOf(p, start, end);
      if (result >= 0) {
        games[rec + G.result] = result;
        complete = true;
        break;
      }
      if (depth > 0 || failed) continue;
      if (c === 36) {
        const nag = nagOf(p, start, end);
        if (nag < 0) fail(PGN_MALFORMED_MOVE, start, end, line, lineStart);
        else addNag(nag);
        continue;
      }
      const k = moveTextStart(p, start, end);
      if (k === end) continue;
      move(k, end);
    }
    games[rec + G.end] = i;
    if (failed) {
      const keep = games[rec + G.positionStart]!;
      pos.n = keep * 20;
      posGame.length = keep;
      posPly.length = keep;
    } else if ((flags & PGN_WRITE_POSITIONS) !== 0 && (flags & PGN_FINAL_ONLY) !== 0) {
      writePosition();
    }
    if (!failed && withOutcome && historyN > 0) games[rec + G.outcome] = gameOutcome(history, historyN, halfmove, P, listN);
    games[rec + G.positionCount] = posGame.length - games[rec + G.positionStart]!;
    sanBytes = sanLength();
    games[rec + G.sanEnd] = sanBytes;
    return complete;
  };

  // SAN bytes so far (ASCII: one byte per character).
  let sanBytes = 0;
  let sanCounted = 0;
  let sanTotal = 0;
  const sanLength = (): number => {
    for (; sanCounted < sanParts.length; sanCounted++) sanTotal += sanParts[sanCounted]!.length;
    return sanTotal;
  };

  const first0 = (flags & PGN_NOT_FIRST) === 0;
  if (first0 && n >= 3 && p[0] === 0xef && p[1] === 0xbb && p[2] === 0xbf) i = lineStart = 3;
  consumed = i;
  consumedLine = line;
  let first = first0;
  for (;;) {
    let found = false;
    while (i < n) {
      skipBlank();
      if (i >= n) break;
      const c = p[i]!;
      if (c === 91 || (first && c !== 37 && c !== 59)) { found = true; break; }
      skipLine();
    }
    if (!found) {
      consumed = n;
      consumedLine = line;
      break;
    }
    first = false;
    const gameLineStart = lineStart;
    const gameLine = line;
    const marks = [moves.length, sanParts.length, tags.length, comments.length, nags.length, pos.n, posGame.length, games.length];
    const annotationMark = annotations.length;
    const complete = game();
    if (!complete && (flags & PGN_LAST_CHUNK) === 0) {
      moves.length = marks[0]!;
      sanParts.length = marks[1]!;
      sanTotal = 0;
      sanCounted = 0;
      sanBytes = sanLength();
      tags.length = marks[2]!;
      comments.length = marks[3]!;
      nags.length = marks[4]!;
      pos.n = marks[5]!;
      posGame.length = marks[6]!;
      posPly.length = marks[6]!;
      games.length = marks[7]!;
      annotations.length = annotationMark;
      consumed = gameLineStart;
      consumedLine = gameLine;
      break;
    }
    consumed = i;
    consumedLine = line;
  }
  const halves = pos.a.slice(0, pos.n);
  return {
    games: Int32Array.from(games),
    moves: Uint16Array.from(moves),
    san: Buffer.from(sanParts.join(''), 'latin1'),
    tags: Int32Array.from(tags),
    comments: Int32Array.from(comments),
    nags: Int32Array.from(nags),
    positions: new BigUint64Array(halves.buffer, 0, pos.n / 2),
    positionGame: Uint32Array.from(posGame),
    positionPly: Uint32Array.from(posPly),
    annotations: Int32Array.from(annotations),
    consumed,
    consumedLine,
  };
}

export { MAX_MOVES, MOVES };

/** The JS reader's rule for `into` (the native reader applies the same one while copying its output). */
function writeInto<T extends BigUint64Array | Uint32Array>(fresh: T, into: T | undefined): T {
  if (into === undefined) return fresh;
  const room = (into.buffer.byteLength - into.byteOffset) / fresh.BYTES_PER_ELEMENT;
  if (room < fresh.length) return fresh;
  const view = fresh instanceof BigUint64Array
    ? new BigUint64Array(into.buffer, into.byteOffset, fresh.length)
    : new Uint32Array(into.buffer, into.byteOffset, fresh.length);
  view.set(fresh as never);
  return view as T;
}

/** The PGN reader of the JS backend (Backend.pgn). */
export const jsPgnBackend: PgnBackend = {
  read(bytes, flags, every, fromPly, firstLine, gameBase = 0, into) {
    const r = readPgnGamesJs(bytes, { flags, every, fromPly, firstLine, gameBase });
    if (into === undefined) return r;
    return { ...r, positions: writeInto(r.positions, into[0]), positionGame: writeInto(r.positionGame, into[1]),
      positionPly: writeInto(r.positionPly, into[2]) };
  },
};
