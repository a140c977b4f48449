/**
 * An opening explorer: for every position of the first plies of many games, keyed by its Polyglot
 * key ("Polyglot book format", http://hgm.nubati.net/book_format.html), how often each move was
 * played and how those games ended (the Result tag: white wins, draws, black wins; an unfinished
 * game, `*` or no Result tag, counts in `games` only).
 *
 * - `OpeningTree`: the counts in memory; `add` one game, `addRow` a counted row (a merge of parts
 *   sums them exactly), `rows()` sorted by key then move, `polyglotBook()` the tree as a Polyglot book.
 * - `exploreGames(source, { maxPly })`: the tree of a PGN source, read game by game (readPgnPositions):
 *   memory is bounded by the tree and one chunk of the reader, not by the input.
 *
 * Keys come from the backend (native/core/polyglot.h through the batch analysis, or
 * lib/backends/js/polyglot.ts), the same either way.
 *
 * Chess960 games are kept apart from standard ones, as opening explorers keep variants apart: a tree
 * is of one kind (`new OpeningTree({ chess960: true })` for Chess960 games) and `exploreGames`
 * counts only the games of its tree's kind (the Chess960 bit of the reader's positions), counting
 * the others in `skipped`. A Chess960 tree writes castling as the PGN reader does, the king taking
 * its own rook (the Polyglot format's castling move too), since a castling king may not move or may
 * land where a plain king move lands; a standard tree keeps e1g1.
 */
import { readPgnPositions, type PgnSource, type PgnGame } from './pgn.js';
import { defaultBackendName, uciOf } from './san.js';
import { backendNamed } from '../backends/named.js';
import { withoutWasm } from '../backends/choose.js';
import { FEATURE_COUNT, featureIds } from '../core/features.js';
import { POLYGLOT_ENTRY_BYTES } from './polyglot.js';
import { polyglotMoveField } from './polyglot.js';

/** The rows of a tree as columns, in row order (OpeningTree.columns). */
export interface ExplorerColumns {
  length: number;
  key: BigUint64Array;
  move: string[];
  castling: boolean[];
  games: Float64Array;
  white: Float64Array;
  draws: Float64Array;
  black: Float64Array;
}

/** UCI text by move code, made once per code. */
const UCI_TEXT: (string | undefined)[] = new Array(1 << 15);

/** One row of the tree: a move played in a position. */
export interface ExplorerRow {
  /** The position's Polyglot key. */
  key: bigint;
  /**
   * The move in UCI, castling as the PGN reader writes it: the king's move (e1g1) in a standard
   * tree, the king taking its own rook (g1h1) in a Chess960 tree.
   */
  move: string;
  /** The move is castling (the Polyglot book stores it as the king taking its rook, e1h1). */
  castling: boolean;
  /** Games that played the move there, and of those the ones White won, drawn, Black won. */
  games: number;
  white: number;
  draws: number;
  black: number;
}

export interface ExploreOptions {
  /** Count the moves of plies 0 .. maxPly-1 of each game (default 20). */
  maxPly?: number;
  /**
   * Count the Chess960 games (true) or the standard ones (false); default: the kind of the tree
   * passed, else false. A tree of the other kind is a RangeError.
   */
  chess960?: boolean;
  /** 'native' | 'js' (default: the package's backend). */
  backend?: 'native' | 'js';
}

/** The outcome column a Result tag counts in: 1 white, 2 draws, 3 black, 0 none (unfinished or absent). */
function resultColumn(tag: string | undefined): number {
  if (tag === undefined) return 0;
  const t = tag.trim();
  return t === '1-0' ? 1 : t === '1/2-1/2' ? 2 : t === '0-1' ? 3 : 0;
}

const FILES = 'abcdefgh';
const PROMOTIONS = ' nbrq';
const CASTLING_BIT = 1 << 15;
/** Where the low half of a 64-bit element sits in a Uint32Array view: 0 on little-endian platforms. */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

/** The move code (from | to << 6 | promotion << 12) of a UCI move, or -1 when it is not one. */
export function uciMoveCode(uci: string): number {
  if (typeof uci !== 'string' || (uci.length !== 4 && uci.length !== 5)) return -1;
  const f1 = FILES.indexOf(uci[0]!), r1 = uci.charCodeAt(1) - 49, f2 = FILES.indexOf(uci[2]!), r2 = uci.charCodeAt(3) - 49;
  if (f1 < 0 || f2 < 0 || r1 < 0 || r1 > 7 || r2 < 0 || r2 > 7) return -1;
  const promotion = uci.length === 5 ? PROMOTIONS.indexOf(uci[4]!) : 0;
  if (promotion <= 0 && uci.length === 5) return -1;
  const from = r1 * 8 + f1, to = r2 * 8 + f2;
  if (from === to) return -1;
  return from | (to << 6) | (promotion << 12);
}

function checkCount(fn: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new RangeError(`${fn}: ${name} must be a non-negative safe integer, got ${String(v)}`);
  }
  return v;
}

/** Move counts per Polyglot key: the opening tree, of standard games or (`{ chess960: true }`) of Chess960 games. */
export class OpeningTree {
  /** A tree of Chess960 games: castling rows are the king taking its own rook, as the book writes them. */
  readonly chess960: boolean;

  constructor(options: { chess960?: boolean } = {}) {
    if (typeof options !== 'object' || options === null) throw new TypeError('OpeningTree: options must be an object like { chess960: true }');
    if (options.chess960 !== undefined && typeof options.chess960 !== 'boolean') {
      throw new TypeError(`OpeningTree: options.chess960 must be a boolean, got ${typeof options.chess960}`);
    }
    this.chess960 = options.chess960 === true;
  }

  // An open-addressing hash table (linear probing) of row numbers over rows kept in typed arrays:
  // key halves, move code (with CASTLING_BIT), and four counts; no object or bigint per row.
  #table = new Int32Array(1 << 12).fill(-1);
  #lo = new Uint32Array(1 << 11);
  #hi = new Uint32Array(1 << 11);
  #moves = new Uint16Array(1 << 11);
  #counts = new Float64Array(4 << 11);
  #size = 0;

  /** The number of (key, move) rows. */
  get size(): number {
    return this.#size;
  }

  static #slot(lo: number, hi: number, code: number, mask: number): number {
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1) ^ Math.imul(code, 0x85ebca6b), 0xcc9e2d51);
    h ^= h >>> 15;
    return h & mask;
  }

  #grow(): void {
    const n = this.#lo.length * 2;
    const lo = new Uint32Array(n); lo.set(this.#lo); this.#lo = lo;
    const hi = new Uint32Array(n); hi.set(this.#hi); this.#hi = hi;
    const moves = new Uint16Array(n); moves.set(this.#moves); this.#moves = moves;
    const counts = new Float64Array(4 * n); counts.set(this.#counts); this.#counts = counts;
    const table = new Int32Array(2 * n).fill(-1);
    const mask = table.length - 1;
    for (let r = 0; r < this.#size; r++) {
      let i = OpeningTree.#slot(lo[r]!, hi[r]!, moves[r]!, mask);
      while (table[i] !== -1) i = (i + 1) & mask;
      table[i] = r;
    }
    this.#table = table;
  }

  /** The row of (key halves, code), made when new. */
  #row(lo: number, hi: number, code: number): number {
    const mask = this.#table.length - 1;
    let i = OpeningTree.#slot(lo, hi, code, mask);
    for (;;) {
      const r = this.#table[i]!;
      if (r === -1) break;
      if (this.#lo[r] === lo && this.#hi[r] === hi && this.#moves[r] === code) return r;
      i = (i + 1) & mask;
    }
    const r = this.#size++;
    this.#table[i] = r;
    this.#lo[r] = lo;
    this.#hi[r] = hi;
    this.#moves[r] = code;
    if (this.#size === this.#lo.length) this.#grow();
    return r;
  }

  #count(lo: number, hi: number, code: number, games: number, white: number, draws: number, black: number): void {
    const r = this.#row(lo, hi, code);
    const c = this.#counts;
    c[4 * r] += games;
    c[4 * r + 1] += white;
    c[4 * r + 2] += draws;
    c[4 * r + 3] += black;
  }

  /** One game played `code` from the key (as unsigned 32-bit halves); `result` 1 white won, 2 draw, 3 black won, 0 unfinished. */
  countHalves(lo: number, hi: number, code: number, castling: boolean, result: number): void {
    this.#count(lo >>> 0, hi >>> 0, (code & 0x7fff) | (castling ? CASTLING_BIT : 0), 1, result === 1 ? 1 : 0, result === 2 ? 1 : 0, result === 3 ? 1 : 0);
  }

  /** Adds one game played from `key`: `result` 1 white won, 2 draw, 3 black won, 0 unfinished. */
  countMove(key: bigint, code: number, castling: boolean, result: number): void {
    this.countHalves(Number(key & 0xffffffffn), Number(key >> 32n), code, castling, result);
  }

  /** Adds a counted row (from a part of the tree: merging parts sums them). Bad values are a TypeError / RangeError. */
  addRow(row: ExplorerRow): void {
    const fn = 'OpeningTree.addRow';
    if (typeof row !== 'object' || row === null) throw new TypeError(`${fn}: row must be an object`);
    if (typeof row.key !== 'bigint') throw new TypeError(`${fn}: key must be a bigint`);
    if (row.key < 0n || row.key > 0xffffffffffffffffn) throw new RangeError(`${fn}: key must be 0..2^64-1`);
    const code = uciMoveCode(row.move);
    if (code < 0) throw new RangeError(`${fn}: move must be a UCI move, got ${JSON.stringify(row.move)}`);
    if (typeof row.castling !== 'boolean') throw new TypeError(`${fn}: castling must be a boolean`);
    const games = checkCount(fn, 'games', row.games);
    const white = checkCount(fn, 'white', row.white);
    const draws = checkCount(fn, 'draws', row.draws);
    const black = checkCount(fn, 'black', row.black);
    if (white + draws + black > games) throw new RangeError(`${fn}: white + draws + black (${white + draws + black}) exceeds games (${games})`);
    this.#count(Number(row.key & 0xffffffffn), Number(row.key >> 32n), code | (row.castling ? CASTLING_BIT : 0), games, white, draws, black);
  }

  /** The row numbers played at least `minGames` times, sorted by key then move text. */
  #order(fn: string, minGames: number): { order: Int32Array; uci: (r: number) => string } {
    checkCount(fn, 'minGames', minGames);
    const order: number[] = [];
    for (let r = 0; r < this.#size; r++) if (this.#counts[4 * r]! >= minGames) order.push(r);
    const moves = this.#moves;
    const uci = (r: number): string => (UCI_TEXT[moves[r]! & ~CASTLING_BIT] ??= uciOf(moves[r]! & ~CASTLING_BIT));
    const hi = this.#hi, lo = this.#lo;
    order.sort((a, b) => {
      if (hi[a] !== hi[b]) return hi[a]! - hi[b]!;
      if (lo[a] !== lo[b]) return lo[a]! - lo[b]!;
      const ua = uci(a), ub = uci(b);
      return ua < ub ? -1 : ua > ub ? 1 : (moves[a]! - moves[b]!);
    });
    return { order: Int32Array.from(order), uci };
  }

  /** The rows played at least `minGames` times, sorted by key then move text. */
  rows(minGames = 0): ExplorerRow[] {
    const { order, uci } = this.#order('OpeningTree.rows', minGames);
    const c = this.#counts, hi = this.#hi, lo = this.#lo;
    return Array.from(order, (r) => ({ key: (BigInt(hi[r]!) << 32n) | BigInt(lo[r]!), move: uci(r), castling: (this.#moves[r]! & CASTLING_BIT) !== 0,
      games: c[4 * r]!, white: c[4 * r + 1]!, draws: c[4 * r + 2]!, black: c[4 * r + 3]! }));
  }

  /** rows(minGames) as columns (one typed array or array per field): no object per row, for large trees. */
  columns(minGames = 0): ExplorerColumns {
    const { order, uci } = this.#order('OpeningTree.columns', minGames);
    const n = order.length;
    const out: ExplorerColumns = { length: n, key: new BigUint64Array(n), move: new Array<string>(n), castling: new Array<boolean>(n),
      games: new Float64Array(n), white: new Float64Array(n), draws: new Float64Array(n), black: new Float64Array(n) };
    const halves = new Uint32Array(out.key.buffer);
    const c = this.#counts;
    for (let i = 0; i < n; i++) {
      const r = order[i]!;
      halves[2 * i + LOW] = this.#lo[r]!;
      halves[2 * i + 1 - LOW] = this.#hi[r]!;
      out.move[i] = uci(r);
      out.castling[i] = (this.#moves[r]! & CASTLING_BIT) !== 0;
      out.games[i] = c[4 * r]!;
      out.white[i] = c[4 * r + 1]!;
      out.draws[i] = c[4 * r + 2]!;
      out.black[i] = c[4 * r + 3]!;
    }
    return out;
  }

  /**
   * The tree as a Polyglot book: one 16-byte big-endian entry per row (key, move, weight, learn 0),
   * sorted by key, heaviest first within a key. The weight is the games count; when some count
   * exceeds 65,535 every weight is scaled by 65,535 / the largest count, rounded up, so the order
   * is kept (equal counts stay equal, a played move keeps a weight of at least 1). Castling is
   * written as the format stores it, the king taking its own rook (e1h1; a Chess960 tree's rows are
   * already in that form); a move the format cannot hold (none in standard chess) is left out.
   */
  polyglotBook(minGames = 0): Uint8Array {
    const cols = this.columns(minGames);
    let largest = 0;
    for (let i = 0; i < cols.length; i++) if (cols.games[i]! > largest) largest = cols.games[i]!;
    const scale = largest > 0xffff ? 0xffff / largest : 1;
    const entries = [];
    for (let i = 0; i < cols.length; i++) {
      const field = polyglotMoveField(uciMoveCode(cols.move[i]!), cols.castling[i]! && !this.chess960);
      if (field >= 0) entries.push({ key: cols.key[i]!, field, weight: Math.min(0xffff, Math.ceil(cols.games[i]! * scale)) });
    }
    // columns() are sorted by key; within a key, heaviest first (a stable sort keeps the move order).
    entries.sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : b.weight - a.weight));
    const out = new Uint8Array(entries.length * POLYGLOT_ENTRY_BYTES);
    const view = new DataView(out.buffer);
    entries.forEach((e, i) => {
      view.setBigUint64(16 * i, e.key);
      view.setUint16(16 * i + 8, e.field);
      view.setUint16(16 * i + 10, e.weight);
      view.setUint32(16 * i + 12, 0);
    });
    return out;
  }
}


/** What exploreGames read. */
export interface ExploreStats {
  /** Games read, and of those the ones refused by the reader (not counted: see PgnGame.error). */
  games: number;
  bad: number;
  /** Games of the other kind than the tree's (Chess960 games in a standard tree, or standard ones in a Chess960 tree): not counted. */
  skipped: number;
}

function checkExploreOptions(fn: string, options: unknown): Required<Pick<ExploreOptions, 'maxPly'>> & ExploreOptions {
  if (options === undefined) return { maxPly: 20 };
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object`);
  const o = options as ExploreOptions;
  const maxPly = o.maxPly ?? 20;
  if (typeof maxPly !== 'number') throw new TypeError(`${fn}: maxPly must be a number`);
  if (!Number.isInteger(maxPly) || maxPly < 0 || maxPly > 10000) throw new RangeError(`${fn}: maxPly must be an integer 0..10000`);
  if (o.backend !== undefined && o.backend !== 'native' && o.backend !== 'js') {
    throw new RangeError(`${fn}: backend must be 'native' or 'js', got ${JSON.stringify(o.backend)}`);
  }
  if (o.chess960 !== undefined && typeof o.chess960 !== 'boolean') throw new TypeError(`${fn}: chess960 must be a boolean`);
  return { ...o, maxPly };
}

/**
 * Counts the first `maxPly` moves of every game of `source` into `tree` (a new one by default).
 * A game the reader refuses (a PgnError) counts nothing and is reported through `onBadGame`; reading
 * goes on. A null move ends the game's counting (the positions after it are not standard play).
 * Only the games of the tree's kind count (`options.chess960`, or the tree's): the others are
 * `skipped`.
 */
export async function exploreGames(source: PgnSource, options?: ExploreOptions,
  tree?: OpeningTree, onBadGame?: (game: PgnGame) => void): Promise<{ tree: OpeningTree } & ExploreStats> {
  const o = checkExploreOptions('exploreGames', options);
  if (tree === undefined) tree = new OpeningTree({ chess960: o.chess960 === true });
  if (!(tree instanceof OpeningTree)) throw new TypeError('exploreGames: tree must be an OpeningTree');
  if (o.chess960 !== undefined && o.chess960 !== tree.chess960) {
    throw new RangeError(`exploreGames: options.chess960 is ${o.chess960} but the tree is of ${tree.chess960 ? 'Chess960' : 'standard'} games`);
  }
  if (onBadGame !== undefined && typeof onBadGame !== 'function') throw new TypeError('exploreGames: onBadGame must be a function');
  const backend = backendNamed(o.backend ?? defaultBackendName());
  const keyFeature = featureIds('exploreGames', ['polyglotKey'])[0]!;
  const stats: ExploreStats = { games: 0, bad: 0, skipped: 0 };
  let words = new BigUint64Array(0);
  let keys = new BigUint64Array(0);
  for await (const chunk of readPgnPositions(source, { backend: withoutWasm(backend.name), games: true, outcome: false })) {
    // The positions of plies 0 .. maxPly-1 of each good game, copied into one batch for the keys.
    const all = chunk.batch.words;
    const n = chunk.game.length;
    const stride = n === 0 ? 0 : all.length / n;
    let m = 0;
    for (let i = 0; i < n; i++) if (chunk.ply[i]! < o.maxPly) m++;
    if (words.length < m * stride) words = new BigUint64Array(2 * m * stride);
    if (keys.length < m) keys = new BigUint64Array(2 * m);
    const gameOf = new Int32Array(m), plyOf = new Int32Array(m);
    m = 0;
    for (let i = 0; i < n; i++) {
      if (chunk.ply[i]! >= o.maxPly) continue;
      words.set(all.subarray(i * stride, i * stride + stride), m * stride);
      gameOf[m] = chunk.game[i]!;
      plyOf[m++] = chunk.ply[i]!;
    }
    // One entry per feature (the backends refuse another length); only the key is asked for.
    const outs: (BigUint64Array | undefined)[] = new Array(FEATURE_COUNT).fill(undefined);
    outs[keyFeature] = keys.subarray(0, m);
    if (m > 0) backend.batch.analyzeBatch(words.subarray(0, m * stride), null, 1 << keyFeature, outs);
    // The 32-bit halves of each key, without a bigint per position.
    const halves = new Uint32Array(keys.buffer, keys.byteOffset, 2 * m);
    const firstGame = chunk.games.length > 0 ? chunk.games[0]!.game : 0;
    const ended = new Uint8Array(chunk.games.length);
    // A game of the other kind (the Chess960 bit of its positions' state word) counts nothing.
    const otherKind = new Uint8Array(chunk.games.length);
    for (let i = 0; i < n; i++) {
      if (((all[i * stride + 8]! & 0x20n) !== 0n) !== tree.chess960) otherKind[chunk.game[i]! - firstGame] = 1;
    }
    chunk.games.forEach((g, j) => {
      stats.games++;
      if (g.error) { stats.bad++; onBadGame?.(g); } else if (otherKind[j]) stats.skipped++;
    });
    for (let k = 0; k < m; k++) {
      const g = chunk.games[gameOf[k]! - firstGame]!;
      const ply = plyOf[k]!;
      if (g.error || otherKind[gameOf[k]! - firstGame] || ended[gameOf[k]! - firstGame] || ply >= g.moves.length) continue;
      const move = g.moves[ply]!;
      if (move === '0000') { ended[gameOf[k]! - firstGame] = 1; continue; }
      const san = g.sans[ply]!;
      tree.countHalves(halves[2 * k + LOW]!, halves[2 * k + 1 - LOW]!, uciMoveCode(move), san.startsWith('O-O'), resultColumn(g.tags.Result));
    }
  }
  return { tree, ...stats };
}
