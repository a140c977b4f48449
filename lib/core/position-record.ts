/**
 * The Position object: the eight sets of the standard bitboard board definition kept as int32 halves
 * (lo = a1..h4, hi = a5..h8) in one small typed array, the game state as plain numbers, and the
 * public `colors` / `pieces` bigints and the caller's `packed` copy made when first read. Making a
 * Position is one small allocation and no bigint, so a move or a parsed FEN costs what the
 * generator costs; the JS twin and the FEN writer read the halves, the addon the packed words.
 *
 * The brand is the private field: only this class makes objects that have it, a Proxy or a copy
 * never does, and `Object.freeze` fixes the object's shape while the caches (private fields) fill.
 * A spread copy (`{ ...pos }`) carries the Position under POSITION_OF_SPREAD, so
 * `createPosition({ ...pos, sideToMove: 1 })` reads its sets.
 */
import type { Color, Position } from './types.js';
import type { SetHalves } from '../board/bitboard.js';
import { packedIsValid } from './packed-rules.js';
import { BOARD, attacked, kingSquareAt, loadPacked } from '../board/movegen.js';
import { SQUARE_NAMES } from './squares.js';
import { ROOK_FILES_SHIFT, STATE_CHESS960, castlingFieldOf, rookFilesOf } from './chess960.js';

/** The key under which a Position's spread copy names the Position it came from. */
export const POSITION_OF_SPREAD: unique symbol = Symbol('bitboard-patterns Position');

/** Halves of the packed words of the last position asked for (packedOf / halvesOf): one call's input. */
const SCRATCH_WORDS = new BigUint64Array(10);
const SCRATCH = new Int32Array(SCRATCH_WORDS.buffer);


/** The 16 set halves at `at` of a halves buffer, as a Position keeps them. */
export function setHalvesAt(h: ArrayLike<number>, at: number): SetHalves {
  return [h[at]!, h[at + 1]!, h[at + 2]!, h[at + 3]!, h[at + 4]!, h[at + 5]!, h[at + 6]!, h[at + 7]!,
    h[at + 8]!, h[at + 9]!, h[at + 10]!, h[at + 11]!, h[at + 12]!, h[at + 13]!, h[at + 14]!, h[at + 15]!];
}

/** A set's bigint from its halves. */
const setOf = (h: SetHalves, j: number): bigint => (BigInt(h[j + 1]! >>> 0) << 32n) | BigInt(h[j]! >>> 0);

export class PositionRecord implements Position {
  readonly sideToMove: Color;
  readonly castling: number;
  readonly epSquare: number;
  readonly halfmoveClock: number;
  readonly fullmoveNumber: number;
  readonly [POSITION_OF_SPREAD]: PositionRecord = this;
  /** white, black, pawns, knights, bishops, rooks, queens, kings: lo, hi each (the packed words 0..7). */
  readonly #sets: SetHalves;
  #colors: readonly [bigint, bigint] | undefined;
  #pieces: readonly [bigint, bigint, bigint, bigint, bigint, bigint] | undefined;
  #packed: BigUint64Array | undefined;
  /** The packed rook file fields (lib/core/chess960.ts: 3 bits per right, XOR the standard file). */
  readonly #rookFields: number;
  readonly #chess960: boolean;

  /** Takes `sets` (16 halves) as its own; the caller has validated the position. */
  constructor(sets: SetHalves, sideToMove: Color, castling: number, epSquare: number, halfmoveClock: number, fullmoveNumber: number,
    rookFields = 0, chess960 = false) {
    this.#sets = sets;
    this.#rookFields = rookFields;
    this.#chess960 = chess960;
    this.sideToMove = sideToMove;
    this.castling = castling;
    this.epSquare = epSquare;
    this.halfmoveClock = halfmoveClock;
    this.fullmoveNumber = fullmoveNumber;
    Object.freeze(this);
  }

  get colors(): readonly [bigint, bigint] {
    return (this.#colors ??= Object.freeze([setOf(this.#sets, 0), setOf(this.#sets, 2)] as const));
  }

  get pieces(): readonly [bigint, bigint, bigint, bigint, bigint, bigint] {
    const h = this.#sets;
    return (this.#pieces ??= Object.freeze([setOf(h, 4), setOf(h, 6), setOf(h, 8), setOf(h, 10), setOf(h, 12), setOf(h, 14)] as const));
  }

  /** Whether this is a Chess960 position (castling moves are written as the king taking its own rook). */
  get chess960(): boolean {
    return this.#chess960;
  }

  /** The rook file (0 = a .. 7 = h) of each castling right K, Q, k, q; -1 for a right not held. */
  get castlingFiles(): readonly [number, number, number, number] {
    return Object.freeze(rookFilesOf(this.castling, this.#rookFields));
  }

  /** The same position in the packed layout: the caller's copy (the package never reads it). */
  get packed(): BigUint64Array {
    if (!this.#packed) {
      writeHalves(this, SCRATCH, 0);
      this.#packed = SCRATCH_WORDS.slice();
    }
    return this.#packed;
  }

  /** What `console.log` and `util.inspect` show: the sets and the state, as the fields read. */
  [Symbol.for('nodejs.util.inspect.custom')](): object {
    const { colors, pieces, sideToMove, castling, epSquare, halfmoveClock, fullmoveNumber } = this;
    if (!this.#chess960) return { colors, pieces, sideToMove, castling, epSquare, halfmoveClock, fullmoveNumber };
    return { colors, pieces, sideToMove, castling, castlingFiles: this.castlingFiles, epSquare, halfmoveClock, fullmoveNumber, chess960: true };
  }

  /** True for the objects this class made, whatever their prototype says. */
  static is(x: unknown): x is PositionRecord {
    return typeof x === 'object' && x !== null && #sets in x;
  }

  /** The 16 halves of a Position's sets (the package's own: never hand them to a caller). */
  static setsOf(pos: PositionRecord): SetHalves {
    return pos.#sets;
  }

  /** The packed rook file fields of a Position's castling rights (0 for a standard position). */
  static rookFieldsOf(pos: PositionRecord): number {
    return pos.#rookFields;
  }
}

/** The state half of the packed layout (word 8, low 32 bits). */
const stateHalf = (pos: Position): number =>
  pos.sideToMove | (pos.castling << 1) | (pos.chess960 ? STATE_CHESS960 : 0) | ((pos.epSquare < 0 ? 64 : pos.epSquare) << 8) | ((pos.halfmoveClock & 0xffff) << 16);

/** Writes the 16 halves of pos's sets to h at `at` (the packed words 0..7, a board ply's first 16). */
export function writeSets(pos: Position, h: Int32Array, at: number): void {
  writeSetHalves(PositionRecord.setsOf(pos as PositionRecord), h, at);
}

/** Writes 16 set halves to h at `at`. */
export function writeSetHalves(s: SetHalves, h: Int32Array, at: number): void {
  // Written out: V8 runs the straight stores from an array to a typed array several times faster than the loop.
  h[at] = s[0]!; h[at + 1] = s[1]!; h[at + 2] = s[2]!; h[at + 3] = s[3]!; h[at + 4] = s[4]!; h[at + 5] = s[5]!;
  h[at + 6] = s[6]!; h[at + 7] = s[7]!; h[at + 8] = s[8]!; h[at + 9] = s[9]!; h[at + 10] = s[10]!; h[at + 11] = s[11]!;
  h[at + 12] = s[12]!; h[at + 13] = s[13]!; h[at + 14] = s[14]!; h[at + 15] = s[15]!;
}

/** Writes the 20 halves of pos's packed words to h at `at`. */
export function writeHalves(pos: Position, h: Int32Array, at: number): void {
  writeSets(pos, h, at);
  h[at + 16] = stateHalf(pos);
  h[at + 17] = (pos.halfmoveClock >>> 16) | (PositionRecord.rookFieldsOf(pos as PositionRecord) << ROOK_FILES_SHIFT);
  h[at + 18] = pos.fullmoveNumber;
  h[at + 19] = 0;
}

/**
 * The packed words of a Position the package made, in a buffer shared by all calls: valid until the
 * next packedOf / halvesOf (a backend reads them during one synchronous call; the addon copies what
 * its asynchronous work keeps).
 */
export function packedOf(pos: Position): BigUint64Array {
  writeHalves(pos, SCRATCH, 0);
  return SCRATCH_WORDS;
}

/** packedOf's words as 20 int32 halves (the same shared buffer). */
export function halvesOf(pos: Position): Int32Array {
  writeHalves(pos, SCRATCH, 0);
  return SCRATCH;
}

/** The Position of packed words as halves (20 at `at`) that a backend wrote: trusted, not validated. */
export function positionOfHalves(h: Int32Array, at: number): PositionRecord {
  const state = h[at + 16]!;
  const ep = (state >>> 8) & 255;
  return new PositionRecord(setHalvesAt(h, at), (state & 1) as Color, (state >>> 1) & 15, ep === 64 ? -1 : ep,
    (state >>> 16) | ((h[at + 17]! & 0xf) << 16), h[at + 18]!, (h[at + 17]! >>> ROOK_FILES_SHIFT) & 0xfff, (state & STATE_CHESS960) !== 0);
}

/**
 * The board rules of parseFen (consistent sets, one king a side, no pawn on the first or last rank,
 * castling rights at home, a plausible en-passant square) and the side not to move not in check, on
 * 16 halves and the state: true when they hold. A false says nothing of why: the caller words the
 * error with its own rules (lib/core/position.ts validate), which are the same.
 */
export function holdsPositionRules(sets: ArrayLike<number>, sideToMove: number, castling: number, epSquare: number,
  rookFields = 0, chess960 = false): boolean {
  for (let i = 0; i < 16; i++) SCRATCH[i] = sets[i]!;
  SCRATCH[16] = sideToMove | (castling << 1) | (chess960 ? STATE_CHESS960 : 0) | ((epSquare < 0 ? 64 : epSquare) << 8);
  SCRATCH[17] = rookFields << ROOK_FILES_SHIFT;
  if (castling > 15 || !packedIsValid(SCRATCH, 0)) return false;
  loadPacked(SCRATCH, 0, 0);
  return !attacked(0, sideToMove, kingSquareAt(0, sideToMove ^ 1), BOARD[0]! | BOARD[2]!, BOARD[1]! | BOARD[3]!, 0, 0);
}

// ---- FEN from the halves ----

const LETTERS = 'PNBRQKpnbrqk';
/** The FEN castling field of each castling value (CASTLE_* bits: K 1, Q 2, k 4, q 8). */
const CASTLING_TEXT = Array.from({ length: 16 }, (_, c) => ['K', 'Q', 'k', 'q'].filter((_l, i) => c & (1 << i)).join('') || '-');
const MAILBOX = new Int8Array(64);
/** The characters of the FEN being written (board at most 71, the other fields far fewer). */
const FEN_CHARS = new Uint16Array(256);

/**
 * Position -> FEN (six fields), from the halves: a mailbox filled set by set, then rank by rank. A
 * Chess960 position's castling field is X-FEN, or Shredder-FEN with `shredder` (also for standard ones).
 */
export function fenOfRecord(pos: PositionRecord, shredder = false): string {
  const h = PositionRecord.setsOf(pos);
  MAILBOX.fill(-1);
  const whiteLo = h[0]!, whiteHi = h[1]!;
  for (let t = 0; t < 6; t++) {
    for (let half = 0; half < 2; half++) {
      let set = h[4 + 2 * t + half]!;
      const white = half ? whiteHi : whiteLo;
      while (set !== 0) {
        const low = set & -set;
        const sq = 31 - Math.clz32(low);
        MAILBOX[sq + 32 * half] = (white & low) !== 0 ? t : t + 6;
        set ^= low;
      }
    }
  }
  let n = 0;
  for (let rank = 7; rank >= 0; rank--) {
    let gap = 0;
    for (let sq = rank * 8; sq < rank * 8 + 8; sq++) {
      const p = MAILBOX[sq]!;
      if (p < 0) {
        gap++;
        continue;
      }
      if (gap) FEN_CHARS[n++] = 48 + gap; // '1'..'8'
      gap = 0;
      FEN_CHARS[n++] = LETTERS.charCodeAt(p);
    }
    if (gap) FEN_CHARS[n++] = 48 + gap;
    if (rank) FEN_CHARS[n++] = 47; // '/'
  }
  const castling = pos.chess960 || shredder
    ? castlingFieldOf(h, pos.castling, PositionRecord.rookFieldsOf(pos), pos.chess960, shredder) : CASTLING_TEXT[pos.castling]!;
  FEN_CHARS[n++] = 32;
  FEN_CHARS[n++] = pos.sideToMove ? 98 : 119; // 'b' | 'w'
  FEN_CHARS[n++] = 32;
  n = putChars(n, castling);
  FEN_CHARS[n++] = 32;
  n = putChars(n, pos.epSquare < 0 ? '-' : SQUARE_NAMES[pos.epSquare]!);
  FEN_CHARS[n++] = 32;
  n = putChars(n, String(pos.halfmoveClock));
  FEN_CHARS[n++] = 32;
  n = putChars(n, String(pos.fullmoveNumber));
  // One flat string: a FEN added up piece by piece is a tree of dozens of short strings.
  return String.fromCharCode.apply(null, FEN_CHARS.subarray(0, n) as unknown as number[]);
}

/** Copies text's characters into FEN_CHARS from n; the next free index. */
function putChars(n: number, text: string): number {
  for (let i = 0; i < text.length; i++) FEN_CHARS[n++] = text.charCodeAt(i);
  return n;
}

// ---- UCI text of move codes, in sorted order ----

const PROMOTION_LETTERS = ['', 'n', 'b', 'r', 'q'];
/** Where a promotion letter sorts among '' < b < n < q < r. */
const PROMOTION_ORDER = [0, 2, 1, 4, 3];
const UCI_TEXT: (string | undefined)[] = [];

/** A legal move code's UCI text, made once per code. */
export function uciOfCode(code: number): string {
  return (UCI_TEXT[code] ??= `${SQUARE_NAMES[code & 63]}${SQUARE_NAMES[(code >> 6) & 63]}${PROMOTION_LETTERS[code >> 12]}`);
}

const SORT_KEYS = new Uint32Array(256);

/**
 * The UCI texts of n move codes, in the order of a string sort (the square names compare file
 * first, then rank; a promotion's letter after the plain move): sorted as numbers, keyed that way.
 */
export function sortedUci(codes: Uint16Array, n: number): string[] {
  const keys = n <= SORT_KEYS.length ? SORT_KEYS.subarray(0, n) : new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    const from = c & 63, to = (c >> 6) & 63;
    const key = (((((from & 7) << 3) | (from >> 3)) << 6) | (((to & 7) << 3) | (to >> 3))) * 5 + PROMOTION_ORDER[c >> 12]!;
    keys[i] = key * 65536 + c;
  }
  keys.sort();
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = uciOfCode(keys[i]! & 0xffff);
  return out;
}
