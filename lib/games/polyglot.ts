/**
 * Polyglot opening books ("Polyglot book format", http://hgm.nubati.net/book_format.html): a file of
 * 16-byte entries sorted by key, each big-endian: key (8 bytes, the position's polyglotKey), move
 * (2), weight (2), learn (4). The move packs to-file (bits 0-2), to-row (3-5), from-file (6-8),
 * from-row (9-11) and the promotion piece (12-14: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen);
 * castling is stored as the king taking its own rook (e1h1, e1a1, e8h8, e8a8).
 *
 * The key comes from the backend (native/core/polyglot.h or lib/backends/js/polyglot.ts); a book entry is
 * returned only when its move is legal in the position (an entry of another position with the same
 * key, or a damaged move field, is passed over), so a book never yields a wrong move.
 */
import { readFileSync } from 'node:fs';
import { MAX_MOVES, type Position } from '../core/types.js';
import { type Backend } from '../backends/contract.js';
import { ProblemError } from '../core/coded-error.js';
import { chosenBackend } from '../backends/named.js';
import { isPosition } from '../core/position.js';
import { uciOf } from './san.js';
import { checkArray, checkPath } from '../core/validate.js';

/** What is wrong with a book: its length is not a multiple of 16, its keys are not in order, or it cannot be read. */
export type PolyglotBookProblem = 'length' | 'unsorted' | 'io';

/** A damaged or unreadable Polyglot book: `problem` says what, `offset` where (bytes), when it applies. */
export class PolyglotBookError extends ProblemError<PolyglotBookProblem> {
  override readonly name = 'PolyglotBookError';
  /** The byte offset of the entry at fault ('unsorted'), or the file length ('length'); -1 for 'io'. */
  readonly offset: number;
  constructor(problem: PolyglotBookProblem, message: string, offset = -1) {
    super(problem, message);
    this.offset = offset;
  }
}

/** One book move for a position. */
export interface PolyglotEntry {
  /** The move in UCI, castling as the king's move (e1g1, e1c1, e8g8, e8c8). */
  readonly move: string;
  /** The entry's weight (0..65535): how often the book's author wants it played, relative to the others. */
  readonly weight: number;
  /** The entry's learn field (0..2^32-1), as stored. */
  readonly learn: number;
}

export interface PolyglotBookOptions {
  /** The backend that computes keys and legal moves: 'native' or 'js'; default as the package's backend. */
  backend?: 'native' | 'js';
}

/** The bytes of one entry. */
export const POLYGLOT_ENTRY_BYTES = 16;

const CREATING = Symbol('PolyglotBook');
const books = new WeakSet<object>();

function backendFor(fn: string, choice: unknown): Backend {
  if (choice !== undefined && choice !== 'native' && choice !== 'js') {
    throw new RangeError(`${fn}: backend must be 'native' or 'js', got ${JSON.stringify(choice)}`);
  }
  return chosenBackend(choice as 'native' | 'js' | undefined);
}

/** A Polyglot opening book in memory: look up the moves of a position, or pick one by weight. */
export class PolyglotBook {
  /** The number of entries (file length / 16). */
  readonly size: number;
  /** The backend computing keys and legal moves. */
  readonly backend: 'native' | 'wasm' | 'js';
  readonly #view: DataView;
  readonly #b: Backend;
  readonly #moves = new Uint16Array(MAX_MOVES);

  private constructor(token: symbol, bytes: Uint8Array, b: Backend) {
    if (token !== CREATING) throw new TypeError('PolyglotBook: not constructible; use PolyglotBook.open(path) or PolyglotBook.fromBytes(bytes)');
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.size = bytes.byteLength / POLYGLOT_ENTRY_BYTES;
    this.#b = b;
    this.backend = b.name;
    books.add(this);
    Object.freeze(this);
  }

  /**
   * A book from its bytes (copied: later changes to `bytes` do not reach the book). A length that
   * is not a multiple of 16 is a PolyglotBookError 'length'; keys out of ascending order one
   * 'unsorted' (with the offset of the first entry out of order). An empty book is valid.
   */
  static fromBytes(bytes: Uint8Array, options: PolyglotBookOptions = {}): PolyglotBook {
    // The engine's own accessors: a proxy, a subclass with a lying length or a detached array is refused.
    const checked = checkArray('PolyglotBook.fromBytes', 'bytes', bytes, Uint8Array);
    if (typeof options !== 'object' || options === null) throw new TypeError('PolyglotBook.fromBytes: options must be an object');
    const b = backendFor('PolyglotBook.fromBytes', options.backend);
    const copy = new Uint8Array(checked);
    checkBook(copy);
    return new PolyglotBook(CREATING, copy, b);
  }

  /** A book read from a file (whole, at once); an unreadable file is a PolyglotBookError 'io'. */
  static open(path: string, options: PolyglotBookOptions = {}): PolyglotBook {
    checkPath('PolyglotBook.open', path);
    if (typeof options !== 'object' || options === null) throw new TypeError('PolyglotBook.open: options must be an object');
    const b = backendFor('PolyglotBook.open', options.backend);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      throw new PolyglotBookError('io', `PolyglotBook.open: cannot read ${path}: ${(e as Error).message}`);
    }
    checkBook(bytes, path);
    return new PolyglotBook(CREATING, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), b);
  }

  /** Is `x` a PolyglotBook this package made? */
  static isPolyglotBook(x: unknown): x is PolyglotBook {
    return typeof x === 'object' && x !== null && books.has(x);
  }

  /**
   * The book's moves for `pos`, heaviest first (entries of equal weight in file order); only
   * entries whose move is legal in `pos`. An empty array when the book does not know the position.
   */
  entries(pos: Position): PolyglotEntry[] {
    this.#check('entries', pos);
    const key = this.#b.polyglotKey(pos);
    const view = this.#view;
    const hi = Number(key >> 32n), lo = Number(key & 0xffffffffn);
    // Binary search for the first entry whose key is >= the position's.
    let a = 0, z = this.size;
    while (a < z) {
      const mid = (a + z) >>> 1;
      const h = view.getUint32(16 * mid), l = view.getUint32(16 * mid + 4);
      if (h < hi || (h === hi && l < lo)) a = mid + 1;
      else z = mid;
    }
    const found: PolyglotEntry[] = [];
    if (a === this.size || view.getUint32(16 * a) !== hi || view.getUint32(16 * a + 4) !== lo) return found;
    const n = this.#b.legalMoves(pos, this.#moves);
    const legal = this.#moves.subarray(0, n);
    for (let i = a; i < this.size && view.getUint32(16 * i) === hi && view.getUint32(16 * i + 4) === lo; i++) {
      const code = moveCode(pos, view.getUint16(16 * i + 8));
      if (code < 0 || !legal.includes(code)) continue;
      found.push({ move: uciOf(code), weight: view.getUint16(16 * i + 10), learn: view.getUint32(16 * i + 12) });
    }
    // Array.prototype.sort is stable: equal weights keep the file's order.
    return found.sort((x, y) => y.weight - x.weight);
  }

  /**
   * One of the book's moves for `pos`, chosen with probability weight / (sum of weights); null when
   * the book has no move there or every weight is 0. `random` (default Math.random) returns a
   * number in [0, 1); anything else is a RangeError.
   */
  pick(pos: Position, random: () => number = Math.random): PolyglotEntry | null {
    this.#check('pick', pos);
    if (typeof random !== 'function') throw new TypeError('PolyglotBook.pick: random must be a function returning a number in [0, 1)');
    const all = this.entries(pos);
    const total = all.reduce((s, e) => s + e.weight, 0);
    if (total === 0) return null;
    const r = random();
    if (typeof r !== 'number' || !(r >= 0 && r < 1)) {
      throw new RangeError(`PolyglotBook.pick: random() must return a number in [0, 1), got ${String(r)}`);
    }
    let target = Math.floor(r * total);
    for (const e of all) {
      if (target < e.weight) return e;
      target -= e.weight;
    }
    return all[all.length - 1]!; // not reached: target < total
  }

  #check(fn: string, pos: Position): void {
    if (!books.has(this)) throw new TypeError(`PolyglotBook.${fn}: not a PolyglotBook`);
    if (!isPosition(pos)) throw new TypeError(`PolyglotBook.${fn}: pos must be a Position from parseFen or createPosition`);
  }
}

/** Throws a PolyglotBookError when the bytes are not a whole number of entries in key order. */
function checkBook(bytes: Uint8Array, path?: string): void {
  const where = path === undefined ? 'the book' : path;
  if (bytes.byteLength % POLYGLOT_ENTRY_BYTES !== 0) {
    throw new PolyglotBookError('length', `${where} is ${bytes.byteLength} bytes long, not a whole number of `
      + `${POLYGLOT_ENTRY_BYTES}-byte entries: damaged or not a Polyglot book`, bytes.byteLength);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let ph = 0, pl = 0;
  for (let at = 0; at < bytes.byteLength; at += POLYGLOT_ENTRY_BYTES) {
    const h = view.getUint32(at), l = view.getUint32(at + 4);
    if (h < ph || (h === ph && l < pl)) {
      throw new PolyglotBookError('unsorted', `${where}: the entry at byte ${at} has a smaller key than the one before it; `
        + 'a Polyglot book is sorted by key (damaged or not a Polyglot book)', at);
    }
    ph = h;
    pl = l;
  }
}

/**
 * The Polyglot move field of a move code: to-square (bits 0-5), from-square (6-11), promotion
 * (12-14); castling as the king taking its rook. A standard castling move (the king two files along
 * its rank) goes to the rook's corner; a Chess960 one is already the king taking its rook. The
 * inverse of moveCode below.
 */
export function polyglotMoveField(code: number, castling: boolean): number {
  const from = code & 63, promotion = code >> 12;
  let to = (code >> 6) & 63;
  if (castling && Math.abs(to - from) === 2 && (to >> 3) === (from >> 3)) to = (from & 56) | (to > from ? 7 : 0);
  return to | (from << 6) | (promotion << 12);
}

/**
 * The package's move code (from | to << 6 | promotion << 12) of a Polyglot move field in `pos`, or
 * -1 for a promotion code the format does not have (5..7, or bit 15 set). The king taking its own
 * rook from e1 / e8 is castling: the king's move to g or c (in a standard position; a Chess960
 * position's castling move is the king taking its rook, as the field holds it).
 */
function moveCode(pos: Position, field: number): number {
  const to = field & 63;
  const from = (field >> 6) & 63;
  const promotion = field >> 12;
  if (promotion > 4) return -1;
  const fromBit = 1n << BigInt(from);
  const own = pos.colors[pos.sideToMove];
  if (!pos.chess960 && (from === 4 || from === 60) && (pos.pieces[5] & own & fromBit) !== 0n && promotion === 0) {
    if (to === from + 3) return from | ((from + 2) << 6);
    if (to === from - 4) return from | ((from - 2) << 6);
  }
  return from | (to << 6) | (promotion << 12);
}
