/**
 * Positions: the standard bitboard board definition (`Position` in backend.ts), read from FEN or
 * built from bitboards, validated, frozen, and packed into the 10-word layout both backends read.
 *
 * Validation is the same for `parseFen` and `createPosition`; only the error type differs:
 * `FenError` (with the FEN field and the offending text) for FEN strings, `PositionError` (with the
 * field of the init object) for `createPosition`. Wrong JS types are TypeErrors, as everywhere.
 * The last rule, "the side not to move is not in check", needs attacks, so the caller passes the
 * backend's `checkers` (the facade passes its own backend's).
 */
import { CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, KING, PAWN, PACKED_POSITION_WORDS, ROOK } from './types.js';
import type { Color, Position } from './types.js';
import { popcount } from '../board/bits.js';
import type { SetHalves } from '../board/bitboard.js';
import { squareName } from './squares.js';
import {
  POSITION_OF_SPREAD, PositionRecord, fenOfRecord, holdsPositionRules, packedOf as recordWords, positionOfHalves, writeHalves, setHalvesAt,
} from './position-record.js';
import {
  STANDARD_ROOK_FILES, backRankKingFile, backRankRook, chess960CastlingProblem, chess960StartFen, chess960NumberOfBackRank, readCastlingField,
  rookFieldsOf,
} from './chess960.js';

/** The FEN of the initial position. */
export const STARTING_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Longest FEN string accepted (the longest legal FEN is under 100 characters). */
export const MAX_FEN_LENGTH = 200;
/** Largest halfmove clock and fullmove number accepted. */
export const MAX_CLOCK = 1_000_000;

export type PositionField = 'pieces' | 'sideToMove' | 'castling' | 'enPassant' | 'halfmoveClock' | 'fullmoveNumber';
export type FenField = PositionField | 'fen';

const clip = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}...` : s);

/**
 * Any value as a string, for the error classes below: users may construct them with anything, and
 * a constructor that throws an engine error of its own would hide the error being reported.
 */
export function errorText(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/** A FEN string that is not a valid position: `field` names the FEN field, `text` is the offending text (truncated). */
export class FenError extends Error {
  override readonly name = 'FenError';
  readonly field: FenField;
  readonly text: string;
  constructor(field: FenField, text: string, reason: string) {
    const f = errorText(field) as FenField, t = clip(errorText(text));
    super(`bad FEN ${f}: ${errorText(reason)} (${JSON.stringify(t)})`);
    this.field = f;
    this.text = t;
  }
}

/** A `createPosition` init object that is not a valid position: `field` names the offending part. */
export class PositionError extends Error {
  override readonly name = 'PositionError';
  readonly field: PositionField;
  constructor(field: PositionField, reason: string) {
    const f = errorText(field) as PositionField;
    super(`createPosition: ${f}: ${errorText(reason)}`);
    this.field = f;
  }
}

/** A UCI move string that is malformed, or a move that is not legal in the position (`checkKind`). */
export class MoveError extends Error {
  override readonly name = 'MoveError';
  /** The move as given (truncated). */
  readonly move: string;
  constructor(move: string, reason: string) {
    const m = clip(errorText(move));
    super(`${errorText(reason)}: ${JSON.stringify(m)}`);
    this.move = m;
  }
}

/** A rule violation found by `validate`; turned into a FenError or PositionError by the caller. */
class Invalid {
  constructor(readonly field: PositionField, readonly reason: string, readonly text = '') {}
}

// ---- Construction ----

/**
 * The Positions this package made are PositionRecords (lib/core/position-record.ts), branded by a private
 * field: nobody else can make one, so a look-alike object (or a copy of a Position) is never taken
 * for one, and the sets a backend reads cannot be changed after the fact (`Position.packed` is the
 * caller's copy). The entry points share this module (one chunk in dist/), so the facade,
 * `bitboard-patterns/native` and `bitboard-patterns/js` accept each other's positions.
 */

/** True for the Positions this package made (parseFen / createPosition / makeMove), false for look-alikes. */
export function isPosition(x: unknown): x is Position {
  return PositionRecord.is(x);
}

/**
 * The packed words of a Position this package made (not `pos.packed`, which the caller can write),
 * in a buffer shared by every call: read them before the next call.
 */
export function packedOf(pos: Position): BigUint64Array {
  return recordWords(pos);
}

interface Fields {
  colors: [bigint, bigint];
  pieces: [bigint, bigint, bigint, bigint, bigint, bigint];
  sideToMove: Color;
  castling: number;
  epSquare: number;
  halfmoveClock: number;
  fullmoveNumber: number;
  /** The packed rook file fields (lib/core/chess960.ts). */
  rookFields: number;
  chess960: boolean;
}

/** The eight sets of a position being made, and their halves (one buffer: the engine splits them). */
const SETS = new BigUint64Array(8);
const SET_HALVES = new Int32Array(SETS.buffer);

/** The 16 int32 halves of the eight sets of `f` (white, black, pawns .. kings). */
function halvesOfFields(f: Fields): SetHalves {
  SETS[0] = f.colors[0];
  SETS[1] = f.colors[1];
  for (let t = 0; t < 6; t++) SETS[2 + t] = f.pieces[t]!;
  return setHalvesAt(SET_HALVES, 0);
}

function freeze(f: Fields): Position {
  return new PositionRecord(halvesOfFields(f), f.sideToMove, f.castling, f.epSquare, f.halfmoveClock, f.fullmoveNumber, f.rookFields, f.chess960);
}

/** The BigInt fields of 16 halves and a state, for validate's wording of what is wrong. */
function fieldsOfHalves(h: ArrayLike<number>, rest: Omit<Fields, 'colors' | 'pieces'>): Fields {
  const set = (j: number): bigint => (BigInt(h[j + 1]! >>> 0) << 32n) | BigInt(h[j]! >>> 0);
  return { colors: [set(0), set(2)], pieces: [set(4), set(6), set(8), set(10), set(12), set(14)], ...rest };
}

const has = (set: bigint, sq: number): boolean => ((set >> BigInt(sq)) & 1n) === 1n;
const FILES = 'abcdefgh';
const COLOR_NAMES = ['white', 'black'];
const TYPE_NAMES = ['pawns', 'knights', 'bishops', 'rooks', 'queens', 'king'] as const;
/** createPosition's argument names, made once (not for every call): colors[c], pieces[t], pieces.white.pawns, ... */
const COLORS_ARGS = ['colors[0]', 'colors[1]'];
const PIECES_ARGS = TYPE_NAMES.map((_, t) => `pieces[${t}]`);
const PIECES_BY_COLOR_ARGS = COLOR_NAMES.map((c) => TYPE_NAMES.map((t) => `pieces.${c}.${t}`));

/** Castling rights: bit, king square, rook square, letter. */
const CASTLING_RULES = [
  [CASTLE_WHITE_KING, 4, 7, 'K', 0], [CASTLE_WHITE_QUEEN, 4, 0, 'Q', 0],
  [CASTLE_BLACK_KING, 60, 63, 'k', 1], [CASTLE_BLACK_QUEEN, 60, 56, 'q', 1],
] as const;

/** The board rules shared by FEN and createPosition (all but "side not to move in check"). */
function validate(f: Fields): Invalid | undefined {
  const [white, black] = f.colors;
  if (white & black) return new Invalid('pieces', `a square holds a white and a black piece (${squareName(lowest(white & black))})`);
  let types = 0n;
  for (let t = 0; t < 6; t++) {
    if (types & f.pieces[t]!) return new Invalid('pieces', `two piece types on ${squareName(lowest(types & f.pieces[t]!))}`);
    types |= f.pieces[t]!;
  }
  if (types !== (white | black)) {
    return new Invalid('pieces', `${squareName(lowest(types ^ (white | black)))} has a colour but no piece type, or a type but no colour`);
  }
  for (let c = 0; c < 2; c++) {
    const kings = popcount(f.colors[c]! & f.pieces[KING]);
    if (kings !== 1) return new Invalid('pieces', `${COLOR_NAMES[c]} must have exactly one king, has ${kings}`);
  }
  const backRanks = 0xff000000000000ffn;
  if (f.pieces[PAWN] & backRanks) return new Invalid('pieces', `pawn on the first or last rank (${squareName(lowest(f.pieces[PAWN] & backRanks))})`);
  if (f.chess960) {
    const problem = chess960CastlingProblem(halvesOfFields(f), 0, f.castling, f.rookFields);
    if (problem) return new Invalid('castling', problem);
  } else if (f.rookFields) return new Invalid('castling', 'rook files other than h and a need a Chess960 position');
  for (const [right, kingSq, rookSq, letter, c] of CASTLING_RULES) {
    if (f.chess960 || !(f.castling & right)) continue;
    const own = f.colors[c]!;
    if (!has(own & f.pieces[KING], kingSq)) {
      return new Invalid('castling', `right ${letter} needs the ${COLOR_NAMES[c]} king on ${squareName(kingSq)}`, letter);
    }
    if (!has(own & f.pieces[ROOK], rookSq)) {
      return new Invalid('castling', `right ${letter} needs a ${COLOR_NAMES[c]} rook on ${squareName(rookSq)}`, letter);
    }
  }
  if (f.epSquare >= 0) {
    const ep = f.epSquare;
    const name = squareName(ep);
    const wantRank = f.sideToMove === 0 ? 5 : 2;
    if (ep >> 3 !== wantRank) {
      return new Invalid('enPassant', `must be on rank ${wantRank + 1} with ${COLOR_NAMES[f.sideToMove]} to move`, name);
    }
    const pawnSq = f.sideToMove === 0 ? ep - 8 : ep + 8;
    const originSq = f.sideToMove === 0 ? ep + 8 : ep - 8;
    const enemy = f.colors[f.sideToMove ^ 1]!;
    if (!has(enemy & f.pieces[PAWN], pawnSq)) {
      return new Invalid('enPassant', `no ${COLOR_NAMES[f.sideToMove ^ 1]} pawn on ${squareName(pawnSq)} that could just have moved two squares`, name);
    }
    if (has(white | black, ep) || has(white | black, originSq)) {
      return new Invalid('enPassant', `${name} and ${squareName(originSq)} must be empty`, name);
    }
  }
  return undefined;
}

function lowest(set: bigint): number {
  let sq = 0;
  while (sq < 64 && !has(set, sq)) sq++;
  return sq;
}

export type CheckersFn = (pos: Position, color: number) => bigint;

function inCheckReason(pos: Position, checkers: CheckersFn): string | undefined {
  const other = pos.sideToMove ^ 1;
  const by = checkers(pos, other);
  if (by === 0n) return undefined;
  return `${COLOR_NAMES[pos.sideToMove]} to move, but ${COLOR_NAMES[other]} (not to move) is in check from ${squareName(lowest(by))}`;
}

// ---- FEN ----

const PIECE_LETTERS = 'pnbrqk';
/** ASCII code -> 0..5 white pawn..king, 6..11 black, -1 for no piece letter. */
const PIECE_OF_CODE = Int8Array.from({ length: 128 }, (_, c) => {
  const t = PIECE_LETTERS.indexOf(String.fromCharCode(c).toLowerCase());
  return t < 0 ? -1 : String.fromCharCode(c) === PIECE_LETTERS[t] ? t + 6 : t;
});

/** parseFen's options: `chess960` reads the castling field as X-FEN (or Shredder-FEN) and makes a Chess960 position. */
export interface FenOptions { chess960?: boolean }
/** toFen's options: `shredder` writes the castling field as Shredder-FEN (rook file letters, `HAha`). */
export interface ToFenOptions { shredder?: boolean }

/** A boolean option of an options object (undefined: false), checked; `fn` names the caller in errors. */
function booleanOption(fn: string, options: unknown, key: 'chess960' | 'shredder'): boolean {
  if (options === undefined) return false;
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object like { ${key}: true }, got ${options === null ? 'null' : typeof options}`);
  const v = (options as Record<string, unknown>)[key];
  if (v !== undefined && typeof v !== 'boolean') throw new TypeError(`${fn}: options.${key} must be a boolean, got ${typeof v}`);
  return v === true;
}

/** The `chess960` of parseFen-style options (FenOptions), checked; `fn` names the caller in errors. */
export const chess960Option = (fn: string, options: unknown): boolean => booleanOption(fn, options, 'chess960');

/** The `shredder` of toFen-style options (ToFenOptions), checked; `fn` names the caller in errors. */
export const shredderOption = (fn: string, options: unknown): boolean => booleanOption(fn, options, 'shredder');

/** FEN -> Position. Throws TypeError for a non-string, FenError (field, text) for everything else. */
export function parseFen(fen: string, checkers: CheckersFn, options?: FenOptions): Position {
  const chess960 = chess960Option('parseFen', options);
  if (typeof fen !== 'string') throw new TypeError(`parseFen: fen must be a string, got ${fen === null ? 'null' : typeof fen}`);
  if (fen.length > MAX_FEN_LENGTH) throw new FenError('fen', fen, `longer than ${MAX_FEN_LENGTH} characters`);
  const parts = fen.trim().split(/\s+/);
  if (parts.length !== 6 && parts.length !== 4) {
    throw new FenError('fen', fen, `expected 6 space-separated fields (or 4 without the clocks), got ${parts.length}`);
  }
  const [placement, side, castlingText, epText, halfText = '0', fullText = '1'] = parts as [string, string, string, string, string?, string?];

  // The sets as int32 halves (white, black, pawns .. kings; lo = a1..h4, hi = a5..h8).
  const sets = new Int32Array(16);
  const ranks = placement.split('/');
  if (ranks.length !== 8) throw new FenError('pieces', placement, `expected 8 ranks separated by '/', got ${ranks.length}`);
  for (let i = 0; i < 8; i++) {
    const row = ranks[i]!;
    const rank = 7 - i;
    let file = 0;
    let lastWasDigit = false;
    for (let i = 0; i < row.length; i++) {
      const c = row.charCodeAt(i);
      if (c >= 0x31 && c <= 0x38) {
        if (lastWasDigit) throw new FenError('pieces', row, `two digits in a row in rank ${rank + 1}`);
        file += c - 0x30;
        lastWasDigit = true;
      } else if (c === 0x30 || c === 0x39) {
        throw new FenError('pieces', row, `digit ${row[i]} in rank ${rank + 1} (empty-square counts are 1..8)`);
      } else {
        // FEN's piece letters are ASCII: anything else (whatever its case mapping) is no piece.
        const piece = c < 128 ? PIECE_OF_CODE[c]! : -1;
        if (piece < 0) {
          const ch = String.fromCodePoint(row.codePointAt(i)!);
          throw new FenError('pieces', row, `bad piece letter ${JSON.stringify(ch)} in rank ${rank + 1}`);
        }
        if (file < 8) {
          const hi = rank >> 2;
          const b = 1 << ((rank & 3) * 8 + file);
          sets[(piece < 6 ? 0 : 2) + hi] |= b;
          sets[4 + 2 * (piece % 6) + hi] |= b;
        }
        file++;
        lastWasDigit = false;
      }
      if (file > 8) break;
    }
    if (file !== 8) throw new FenError('pieces', row, `rank ${rank + 1} covers ${file > 8 ? 'more than' : file} of 8 squares`);
  }

  if (side !== 'w' && side !== 'b') throw new FenError('sideToMove', side, "must be 'w' or 'b'");
  const sideToMove: Color = side === 'w' ? 0 : 1;

  const read = readCastlingField(castlingText, sets, chess960);
  if (typeof read === 'string') throw new FenError('castling', castlingText, read);
  const { castling, fields: rookFields } = read;

  let epSquare = -1;
  if (epText !== '-') {
    if (!/^[a-h][1-8]$/.test(epText)) throw new FenError('enPassant', epText, "must be '-' or a square name");
    epSquare = (Number(epText[1]) - 1) * 8 + FILES.indexOf(epText[0]!);
  }

  const halfmoveClock = parseClock(halfText, 'halfmoveClock', 0);
  const fullmoveNumber = parseClock(fullText, 'fullmoveNumber', 1);

  if (holdsPositionRules(sets, sideToMove, castling, epSquare, rookFields, read.chess960)) {
    return new PositionRecord(setHalvesAt(sets, 0), sideToMove, castling, epSquare, halfmoveClock, fullmoveNumber, rookFields, read.chess960);
  }
  // Refused: the rules once more, in words.
  const fields = fieldsOfHalves(sets, { sideToMove, castling, epSquare, halfmoveClock, fullmoveNumber, rookFields, chess960: read.chess960 });
  const bad = validate(fields);
  if (bad) throw new FenError(bad.field, bad.field === 'pieces' ? placement : bad.text || fen, bad.reason);
  const pos = freeze(fields);
  const check = inCheckReason(pos, checkers);
  if (check) throw new FenError('sideToMove', side, check);
  throw new Error(`parseFen: position rules disagree on ${JSON.stringify(fen)}`);
}

function parseClock(text: string, field: 'halfmoveClock' | 'fullmoveNumber', min: number): number {
  if (!/^\d{1,7}$/.test(text)) throw new FenError(field, text, 'must be a non-negative decimal integer');
  const n = Number(text);
  if (n < min || n > MAX_CLOCK) throw new FenError(field, text, `must be ${min}..${MAX_CLOCK}`);
  return n;
}

/**
 * Position -> FEN (six fields); `parseFen(toFen(p), { chess960: p.chess960 })` gives the same
 * position. A Chess960 position's castling field is X-FEN; `{ shredder: true }` writes Shredder-FEN.
 */
export function toFen(pos: Position, options?: ToFenOptions): string {
  return fenOfRecord(pos as PositionRecord, shredderOption('toFen', options));
}

// ---- Chess960 start positions ----

/**
 * Chess960 start position n (0..959) in Scharnagl's numbering (518 is the standard setup), as a
 * Chess960 Position with all four castling rights.
 */
export function chess960StartPosition(n: number): Position {
  if (typeof n !== 'number') throw new TypeError(`chess960StartPosition: n must be a number, got ${typeof n}`);
  if (!Number.isInteger(n) || n < 0 || n > 959) throw new RangeError(`chess960StartPosition: n must be an integer 0..959, got ${n}`);
  return parseFen(chess960StartFen(n), () => 0n, { chess960: true });
}

/**
 * The inverse of chess960StartPosition: the Scharnagl number (0..959) of a Position whose pieces
 * stand as in a Chess960 start position (any side to move, castling rights and clocks), or -1.
 */
export function chess960StartNumber(pos: Position): number {
  if (!PositionRecord.is(pos)) throw new TypeError('chess960StartNumber: pos must be a Position made by this package');
  const board = fenOfRecord(pos).split(' ')[0]!;
  const rank = board.split('/')[7]!;
  const n = chess960NumberOfBackRank(rank);
  return n >= 0 && chess960StartFen(n).split(' ')[0] === board ? n : -1;
}

// ---- createPosition ----

/** One colour's pieces as bitboards; missing sets are empty. Exactly one king is required. */
export interface SidePieces {
  pawns?: bigint;
  knights?: bigint;
  bishops?: bigint;
  rooks?: bigint;
  queens?: bigint;
  king: bigint;
}

/**
 * What `createPosition` takes. The pieces either by colour (`pieces: { white: {...}, black: {...} }`)
 * or in the Position's own form (`colors: [white, black]` plus `pieces: [pawns, knights, bishops,
 * rooks, queens, kings]`), so `createPosition({ ...pos, sideToMove: 1 })` derives a position.
 * sideToMove: 0 | 1 or 'w' | 'b' (default white); castling: CASTLE_* bits or a FEN castling field
 * (default none); epSquare: a square number, a square name, or -1 (default none); clocks default
 * to 0 and 1.
 */
export interface PositionInit {
  pieces: { white: SidePieces; black: SidePieces } | readonly bigint[];
  colors?: readonly bigint[];
  sideToMove?: Color | 'w' | 'b';
  castling?: number | string;
  /** The rook file (0..7) of each right K, Q, k, q, -1 for none, with `castling` as CASTLE_* bits (default: see createPosition). */
  castlingFiles?: readonly number[];
  /** A Chess960 position (default false; a Shredder-FEN `castling` string makes one too). */
  chess960?: boolean;
  epSquare?: number | string;
  halfmoveClock?: number;
  fullmoveNumber?: number;
}

const MAX_U64 = 0xffffffffffffffffn;

function bitboardArg(what: string, v: unknown): bigint {
  if (typeof v !== 'bigint') throw new TypeError(`createPosition: ${what} must be a bigint bitboard, got ${typeof v}`);
  if (v < 0n || v > MAX_U64) throw new RangeError(`createPosition: ${what} must be in 0..2^64-1, got ${v}n`);
  return v;
}

function integerArg(what: string, v: unknown, lo: number, hi: number, field: PositionField): number {
  if (typeof v !== 'number') throw new TypeError(`createPosition: ${what} must be a number, got ${typeof v}`);
  if (!Number.isInteger(v) || v < lo || v > hi) throw new PositionError(field, `must be an integer ${lo}..${hi}, got ${v}`);
  return v;
}

/** Validated Position from bitboards (see PositionInit). Errors: TypeError / RangeError for JS types, PositionError for chess rules. */
export function createPosition(init: PositionInit, checkers: CheckersFn): Position {
  if (typeof init !== 'object' || init === null) throw new TypeError('createPosition: expected an object like { pieces: { white: { king: ... }, black: { ... } } }');
  const colors: [bigint, bigint] = [0n, 0n];
  const pieces: Fields['pieces'] = [0n, 0n, 0n, 0n, 0n, 0n];
  const given = init.pieces as unknown;
  const source = (init as { [POSITION_OF_SPREAD]?: unknown })[POSITION_OF_SPREAD];
  if (given === undefined && init.colors === undefined && PositionRecord.is(source)) {
    // A spread copy of a Position ({ ...pos, sideToMove: 1 }): its sets.
    const from = source.colors, types = source.pieces;
    colors[0] = from[0];
    colors[1] = from[1];
    for (let t = 0; t < 6; t++) pieces[t] = types[t]!;
  } else if (Array.isArray(given)) {
    if (given.length !== 6) throw new RangeError(`createPosition: pieces as an array must have 6 sets (pawns..kings), got ${given.length}`);
    if (!Array.isArray(init.colors) || init.colors.length !== 2) {
      throw new TypeError('createPosition: pieces as an array needs colors: [white, black]');
    }
    for (let c = 0; c < 2; c++) colors[c] = bitboardArg(COLORS_ARGS[c]!, init.colors[c]);
    for (let t = 0; t < 6; t++) pieces[t] = bitboardArg(PIECES_ARGS[t]!, given[t]);
  } else if (typeof given === 'object' && given !== null) {
    if (init.colors !== undefined) throw new TypeError('createPosition: colors goes with pieces as an array, not with pieces by colour');
    const byColor = given as Record<string, unknown>;
    for (const key of Object.keys(byColor)) {
      if (key !== 'white' && key !== 'black') throw new TypeError(`createPosition: pieces has an unknown key ${JSON.stringify(key)} (expected white, black)`);
    }
    for (let c = 0; c < 2; c++) {
      const side = byColor[COLOR_NAMES[c]!];
      if (typeof side !== 'object' || side === null) throw new TypeError(`createPosition: pieces.${COLOR_NAMES[c]} must be an object like { king: 0x10n }`);
      const sets = side as Record<string, unknown>;
      for (const key of Object.keys(sets)) {
        if (!(TYPE_NAMES as readonly string[]).includes(key)) {
          throw new TypeError(`createPosition: pieces.${COLOR_NAMES[c]} has an unknown key ${JSON.stringify(key)} (expected ${TYPE_NAMES.join(', ')})`);
        }
      }
      for (let t = 0; t < 6; t++) {
        const v = sets[TYPE_NAMES[t]!];
        if (v === undefined) continue;
        const set = bitboardArg(PIECES_BY_COLOR_ARGS[c]![t]!, v);
        if (set & (colors[0] | colors[1])) {
          throw new PositionError('pieces', `pieces.${COLOR_NAMES[c]}.${TYPE_NAMES[t]} overlaps another set on ${squareName(lowest(set & (colors[0] | colors[1])))}`);
        }
        colors[c] |= set;
        pieces[t] |= set;
      }
    }
  } else {
    throw new TypeError('createPosition: pieces must be { white: {...}, black: {...} } or an array of 6 bitboards with colors');
  }

  let sideToMove: Color;
  const stm = init.sideToMove ?? 0;
  if (stm === 0 || stm === 'w') sideToMove = 0;
  else if (stm === 1 || stm === 'b') sideToMove = 1;
  else if (typeof stm === 'number' || typeof stm === 'string') throw new PositionError('sideToMove', `must be 0, 1, 'w' or 'b', got ${JSON.stringify(stm)}`);
  else throw new TypeError(`createPosition: sideToMove must be 0 | 1 | 'w' | 'b', got ${typeof stm}`);

  const spread = init.colors === undefined && given === undefined && PositionRecord.is(source) ? source : undefined;
  const wants960 = init.chess960 ?? spread?.chess960 ?? false;
  if (typeof wants960 !== 'boolean') throw new TypeError(`createPosition: chess960 must be a boolean, got ${typeof wants960}`);
  let castling = 0, rookFields = 0, chess960 = wants960;
  const c = init.castling ?? 0;
  if (typeof c === 'string') {
    const read = readCastlingField(c, halvesOfFields({ colors, pieces } as Fields), wants960);
    if (typeof read === 'string') throw new PositionError('castling', `${read}, got ${JSON.stringify(clip(c))}`);
    ({ castling, fields: rookFields, chess960 } = read);
  } else {
    castling = integerArg('castling', c, 0, 15, 'castling');
    rookFields = castlingFilesArg(init.castlingFiles, castling, wants960, halvesOfFields({ colors, pieces } as Fields), spread);
  }

  let epSquare = -1;
  const ep = init.epSquare ?? -1;
  if (typeof ep === 'string') {
    if (ep !== '-') {
      if (!/^[a-h][1-8]$/.test(ep)) throw new PositionError('enPassant', `must be a square name or '-', got ${JSON.stringify(clip(ep))}`);
      epSquare = (Number(ep[1]) - 1) * 8 + FILES.indexOf(ep[0]!);
    }
  } else {
    epSquare = integerArg('epSquare', ep, -1, 63, 'enPassant');
  }
  const halfmoveClock = integerArg('halfmoveClock', init.halfmoveClock ?? 0, 0, MAX_CLOCK, 'halfmoveClock');
  const fullmoveNumber = integerArg('fullmoveNumber', init.fullmoveNumber ?? 1, 1, MAX_CLOCK, 'fullmoveNumber');

  const fields: Fields = { colors, pieces, sideToMove, castling, epSquare, halfmoveClock, fullmoveNumber, rookFields, chess960 };
  const sets = halvesOfFields(fields);
  if (holdsPositionRules(sets, sideToMove, castling, epSquare, rookFields, chess960)) {
    return new PositionRecord(sets, sideToMove, castling, epSquare, halfmoveClock, fullmoveNumber, rookFields, chess960);
  }
  const bad = validate(fields);
  if (bad) throw new PositionError(bad.field, bad.reason);
  const pos = freeze(fields);
  const check = inCheckReason(pos, checkers);
  if (check) throw new PositionError('sideToMove', check);
  throw new Error('createPosition: position rules disagree');
}

/**
 * The packed rook file fields of createPosition's numeric castling rights: `castlingFiles` when
 * given (4 entries, -1 exactly for the rights not held); else the spread Position's file of each
 * right it holds, the standard file (h / a) in a standard position, the outermost rook on that
 * side of the king (X-FEN's KQkq) in a Chess960 one.
 */
function castlingFilesArg(files: unknown, castling: number, chess960: boolean, h: ArrayLike<number>, spread: PositionRecord | undefined): number {
  const out = [-1, -1, -1, -1];
  if (files !== undefined) {
    if (!Array.isArray(files) || files.length !== 4) throw new TypeError('createPosition: castlingFiles must be an array of 4 numbers (K, Q, k, q)');
    for (let r = 0; r < 4; r++) {
      const f = integerArg(`castlingFiles[${r}]`, files[r], -1, 7, 'castling');
      if ((f >= 0) !== ((castling & (1 << r)) !== 0)) throw new PositionError('castling', `castlingFiles[${r}] must be -1 exactly when right ${'KQkq'[r]} is not held`);
      out[r] = f;
    }
    return rookFieldsOf(out);
  }
  const from = spread?.castlingFiles;
  for (let r = 0; r < 4; r++) {
    if (!(castling & (1 << r))) continue;
    if (from && from[r]! >= 0) out[r] = from[r]!;
    else if (!chess960) out[r] = STANDARD_ROOK_FILES[r]!;
    else {
      const c = r >> 1, kf = backRankKingFile(h, c);
      let f = -1;
      if (kf >= 0) {
        if ((r & 1) === 0) { for (let x = 7; x > kf && f < 0; x--) if (backRankRook(h, c, x)) f = x; }
        else for (let x = 0; x < kf && f < 0; x++) if (backRankRook(h, c, x)) f = x;
      }
      if (f < 0) throw new PositionError('castling', `Chess960 castling right ${'KQkq'[r]} needs a rook on that side of the king on its first rank`);
      out[r] = f;
    }
  }
  return rookFieldsOf(out);
}

/**
 * The Position of packed words a backend wrote (its makeMove): trusted, not validated again. The
 * Position keeps its own copy of the words.
 */
export function positionOfPacked(words: BigUint64Array): Position {
  return positionOfHalves(new Int32Array(words.buffer, words.byteOffset, PACKED_POSITION_WORDS * 2), 0);
}

/**
 * The packed words of many positions, concatenated (PACKED_POSITION_WORDS each), written from the
 * frozen fields (a Position's own `packed` array cannot be frozen). The caller checks the list.
 */
export function packPositions(positions: readonly Position[]): BigUint64Array {
  const out = new BigUint64Array(positions.length * PACKED_POSITION_WORDS);
  if (positions.length === 0) return out;
  const h = new Int32Array(out.buffer);
  for (let i = 0; i < positions.length; i++) writeHalves(positions[i]!, h, i * PACKED_POSITION_WORDS * 2);
  return out;
}

// ---- The facade's calls (lib/api/declarations.ts): the backend's checkers decides the in-check rule ----

/** The one backend function position validation needs (every Backend has it). */
export interface CheckersSource { checkers(pos: Position, color: number): bigint }

export function parseFenCall(b: CheckersSource, fen: string, options?: FenOptions): Position {
  return parseFen(fen, b.checkers, options);
}
export function toFenCall(_b: unknown, pos: Position, options?: ToFenOptions): string {
  return toFen(pos, options);
}
export function createPositionCall(b: CheckersSource, init: PositionInit): Position {
  return createPosition(init, b.checkers);
}
export function packPositionsCall(_b: unknown, positions: readonly Position[]): BigUint64Array {
  return packPositions(positions);
}
