/**
 * Opening names: the lichess chess-openings data set (CC0 1.0; data/openings/README.md), 3,807
 * named lines read at build time into a table keyed by the Polyglot key of each line's last
 * position (lib/games/openings-table.ts, written by scripts/build-openings.mjs).
 *
 * The data set's rule: a game's opening is that of the last named position along it (play the
 * moves backwards until a named position is found); positions are matched, not move orders, so a
 * transposition into a named position gets its name. A position's en passant square counts only
 * when a legal capture uses it (the data set's EPD rule; makeMove's and the readers' convention).
 */
import { OPENINGS_TABLE } from './openings-table.js';
import { BOARD, C960, CASTLING, EP, MOVES, PLY_WORDS, SIDE, loadPacked, play } from '../board/movegen.js';
import * as jsSan from '../backends/js/san.js';
import { checkers } from '../backends/js/checks.js';
import { polyglotKeyHalves } from '../backends/js/polyglot.js';
import { PACKED_POSITION_WORDS, type Position } from '../core/types.js';
import { STARTING_FEN, isPosition, packedOf, parseFen } from '../core/position.js';
import { parseUci } from '../moves/moves.js';
import { isDetachedArray } from '../core/validate.js';
import { isChess960Variant } from './pgn-tags.js';
import { isPositionBatch, type PositionBatch } from '../batch/batch.js';
import type { PositionSelect } from './pgn.js';
import { backendNamed } from '../backends/named.js';
import { defaultBackendName } from './san.js';

/** A named opening: ECO code (A00..E99) and the data set's name ("Family: Variation, Subvariation"). */
export interface Opening {
  readonly eco: string;
  readonly name: string;
}
/** A game's opening and the ply of the position that names it (0 = the start position). */
export interface GameOpening extends Opening {
  readonly ply: number;
}

/** The table, read on first use: low key half -> row; rows whose low halves collide by full key. */
let rows: Opening[] | undefined;
let highs: Int32Array;
let byLow: Map<number, number>;
let byKey: Map<string, number>;
/**
 * A first test before the key is computed: the occupied squares of every named position, hashed to
 * 16 bits, as a bit set. Most positions of a game are ruled out by it.
 */
const OCCUPANCY = new Uint32Array(1 << 11);
const occupancyHash = (lo: number, hi: number): number => (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 16);
const mayBeNamed = (lo: number, hi: number): boolean => {
  const h = occupancyHash(lo, hi);
  return (OCCUPANCY[h >>> 5]! & (1 << (h & 31))) !== 0;
};

function table(): Opening[] {
  if (rows !== undefined) return rows;
  const lines = OPENINGS_TABLE.split('\n');
  const r: Opening[] = new Array(lines.length);
  highs = new Int32Array(lines.length);
  byLow = new Map();
  byKey = new Map();
  lines.forEach((line, i) => {
    const [key, occupied, eco, name] = line.split('\t') as [string, string, string, string];
    const h = occupancyHash(Number.parseInt(occupied.slice(8), 16) | 0, Number.parseInt(occupied.slice(0, 8), 16) | 0);
    OCCUPANCY[h >>> 5]! |= 1 << (h & 31);
    r[i] = Object.freeze({ eco, name });
    const hi = Number.parseInt(key.slice(0, 8), 16) | 0;
    const lo = Number.parseInt(key.slice(8), 16) | 0;
    highs[i] = hi;
    if (byLow.has(lo)) byKey.set(key, i);
    else byLow.set(lo, i);
  });
  rows = r;
  return r;
}

/** The row of a key (int32 halves), or -1. */
function rowOf(lo: number, hi: number): number {
  const i = byLow.get(lo);
  if (i === undefined) return -1;
  if (highs[i] === hi) return i;
  if (byKey.size === 0) return -1;
  const key = (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
  return byKey.get(key) ?? -1;
}

const scratch = new Int32Array(2 * PACKED_POSITION_WORDS);
const key = new Int32Array(2);

/** The row of the board at ply 0 of the JS ply stack (moves generated: its en passant square is clean). */
function rowOfBoard(): number {
  if (!mayBeNamed(BOARD[0]! | BOARD[2]!, BOARD[1]! | BOARD[3]!)) return -1;
  for (let k = 0; k < 16; k++) scratch[k] = BOARD[k]!;
  const ep = BOARD[EP]!;
  scratch[16] = BOARD[SIDE]! | (BOARD[CASTLING]! << 1) | (BOARD[C960]! !== 0 ? 0x20 : 0) | ((ep < 0 ? 64 : ep) << 8);
  polyglotKeyHalves(scratch, 0, key);
  return rowOf(key[0]!, key[1]!);
}

/** What openingOf needs of a game: a PgnGame, or its moves from a start position. */
export interface OpeningGame {
  moves: readonly string[];
  startFen?: string;
  tags?: Record<string, string>;
}

/**
 * The opening of a game: `{ eco, name, ply }` of the last named position along its moves (the
 * data set's rule, transpositions included), or null when no position of it is named. A RangeError
 * names a move that is not legal where it stands.
 */
export function openingOf(game: OpeningGame): GameOpening | null {
  return openingsAlong('openingOf', game).at(-1)!;
}

/**
 * openingOf of the game cut after each ply: entry p is the last named position among plies 0..p
 * (null while none is), for p = 0 .. moves.length.
 */
function openingsAlong(fn: string, game: OpeningGame): (GameOpening | null)[] {
  if (typeof game !== 'object' || game === null || !Array.isArray(game.moves)) throw new TypeError(`${fn}: game must be { moves, startFen? }`);
  const startFen = game.startFen ?? STARTING_FEN;
  if (typeof startFen !== 'string') throw new TypeError(`${fn}: startFen must be a string`);
  const start = parseFen(startFen, checkers, { chess960: isChess960Variant(game.tags?.Variant) });
  const r = table();
  const words = packedOf(start);
  loadPacked(new Int32Array(words.buffer, words.byteOffset, 2 * PACKED_POSITION_WORDS), 0, 0);
  let n = jsSan.generateClean(0);
  let found = rowOfBoard();
  let foundPly = found >= 0 ? 0 : -1;
  const along: (GameOpening | null)[] = [];
  let opening: GameOpening | null = null;
  const note = (): void => {
    if (found >= 0 && opening?.ply !== foundPly) opening = { eco: r[found]!.eco, name: r[found]!.name, ply: foundPly };
    along.push(opening);
  };
  note();
  const moves = game.moves;
  for (let ply = 0; ply < moves.length; ply++) {
    const uci = moves[ply];
    if (uci === '0000') {
      jsSan.playNull(0);
    } else {
      const code = parseUci(fn, uci);
      let legal = false;
      for (let k = 0; k < n; k++) if (MOVES[k] === code) { legal = true; break; }
      if (!legal) throw new RangeError(`${fn}: move ${ply + 1} (${uci}) is not legal in its position`);
      play(0, code);
    }
    for (let w = 0; w < PLY_WORDS; w++) BOARD[w] = BOARD[PLY_WORDS + w]!;
    n = jsSan.generateClean(0);
    const row = rowOfBoard();
    if (row >= 0) {
      found = row;
      foundPly = ply + 1;
    }
    note();
  }
  return along;
}

/**
 * The opening at each position of a PGN reader's result (pgnPositions, readPgnPositions with
 * `games: true`): openingOf of its game's moves up to that position, null while no position along
 * them is named. Read from the positions themselves when `select` kept every ply from the start
 * (openingsOfBatch); otherwise each game is replayed once.
 */
export function openingsAtPositions(positions: { batch: PositionBatch; game: Uint32Array; ply: Uint32Array; games: readonly (OpeningGame & { game: number })[] },
  select: PositionSelect, backend?: 'native' | 'wasm' | 'js'): (Opening | null)[] {
  const n = positions.game.length;
  const out = new Array<Opening | null>(n).fill(null);
  if ((select.mode ?? 'all') === 'all' && (select.every ?? 1) === 1 && (select.fromPly ?? 0) === 0) {
    const rows = openingRowsOf('openingsAtPositions', positions.batch, backend);
    const r = table();
    let carry: Opening | null = null;
    for (let k = 0; k < n; k++) {
      if (k === 0 || positions.game[k] !== positions.game[k - 1]) carry = null;
      const row = rows[k]!;
      if (row >= 0) carry = r[row]!;
      out[k] = carry;
    }
    return out;
  }
  const byNumber = new Map(positions.games.map((g) => [g.game, g]));
  let along: (GameOpening | null)[] = [];
  for (let k = 0; k < n; k++) {
    if (k === 0 || positions.game[k] !== positions.game[k - 1]) {
      const g = byNumber.get(positions.game[k]!);
      along = g ? openingsAlong('openingsAtPositions', g) : [];
    }
    const o = along[positions.ply[k]!];
    out[k] = o ? { eco: o.eco, name: o.name } : null;
  }
  return out;
}

/** The name of one position (its en passant square counted only when a legal capture uses it), or null. */
export function openingOfPosition(pos: Position): Opening | null {
  if (!isPosition(pos)) throw new TypeError('openingOfPosition: pos must be a Position (parseFen / createPosition / makeMove)');
  const words = packedOf(pos);
  const r = table();
  loadPacked(new Int32Array(words.buffer, words.byteOffset, 2 * PACKED_POSITION_WORDS), 0, 0);
  jsSan.generateClean(0);
  const row = rowOfBoard();
  return row >= 0 ? r[row]! : null;
}

/** The table for the addon's lookup (BatchBackend.openingRows): keys ascending, each with its row. */
let sorted: { keys: BigUint64Array; rows: Int32Array } | undefined;
function sortedTable(): { keys: BigUint64Array; rows: Int32Array } {
  if (sorted !== undefined) return sorted;
  const lines = OPENINGS_TABLE.split('\n');
  // Ties keep the first row, as rowOf does.
  const pairs = lines.map((line, i) => [BigInt(`0x${line.slice(0, line.indexOf('\t'))}`), i] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  sorted = { keys: BigUint64Array.from(pairs, (p) => p[0]), rows: Int32Array.from(pairs, (p) => p[1]) };
  return sorted;
}
let rowScratch = new Int32Array(0);

/**
 * The name of each position of a batch (null where none), as read from its packed words: for the
 * batches of the PGN readers, whose en passant squares are already clean. `backend` (default: the
 * facade's) chooses who looks the positions up: the addon, or the JS twin (wasm looks up in JS).
 */
export function openingsOfBatch(batch: PositionBatch, options?: { backend?: 'native' | 'wasm' | 'js' }): (Opening | null)[] {
  const fn = 'openingsOfBatch';
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`${fn}: options must be an object`);
  const rows = openingRowsOf(fn, batch, options?.backend);
  const r = table();
  const out = new Array<Opening | null>(rows.length).fill(null);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row >= 0) out[i] = r[row]!;
  }
  return out;
}

/**
 * The table row of each position of a batch (-1 where none is named), in memory reused by the next
 * call: the addon's lookup (BatchBackend.openingRows) where the backend has it, else the JS twin.
 */
function openingRowsOf(fn: string, batch: PositionBatch, which: 'native' | 'wasm' | 'js' | undefined): Int32Array {
  if (!isPositionBatch(batch)) throw new TypeError(`${fn}: batch must be a PositionBatch`);
  if (which !== undefined && which !== 'native' && which !== 'wasm' && which !== 'js') {
    throw new RangeError(`${fn}: backend must be 'native', 'wasm' or 'js', got ${JSON.stringify(which)}`);
  }
  const w = batch.words;
  const count = w.length / PACKED_POSITION_WORDS;
  if (isDetachedArray(w)) throw new TypeError(`${fn}: the batch's words were detached (their ArrayBuffer was transferred)`);
  const valid = batch.valid;
  if (valid && (valid.length !== count || isDetachedArray(valid))) throw new TypeError(`${fn}: the batch's valid flags were detached (their ArrayBuffer was transferred)`);
  table();
  if (rowScratch.length < count) rowScratch = new Int32Array(Math.max(count, 2 * rowScratch.length));
  const found = rowScratch.subarray(0, count);
  const native = backendNamed(which ?? defaultBackendName()).batch.openingRows;
  if (native) {
    // The addon filters and hashes every position.
    const t = sortedTable();
    native(w, valid ?? null, OCCUPANCY, t.keys, t.rows, found);
    return found;
  }
  found.fill(-1);
  const w32 = new Int32Array(w.buffer, w.byteOffset, w.length * 2);
  for (let i = 0; i < count; i++) {
    if (valid && valid[i] === 0) continue;
    const at = 2 * PACKED_POSITION_WORDS * i;
    if (!mayBeNamed(w32[at]! | w32[at + 2]!, w32[at + 1]! | w32[at + 3]!)) continue;
    polyglotKeyHalves(w32, at, key);
    found[i] = rowOf(key[0]!, key[1]!);
  }
  return found;
}

/**
 * openingOf's answer for each game of a PGN reader's result, read from its positions rather than by
 * replaying the moves: the last named position of each game (openingsOfBatch), by game number; a
 * game none of whose positions is named is not in the map. Undefined when `select` (the read's
 * selection) leaves plies out: only every ply of each game from its start answers as openingOf does.
 */
export function openingsOfGames(positions: { batch: PositionBatch; game: Uint32Array },
  select: PositionSelect, backend?: 'native' | 'wasm' | 'js'): Map<number, Opening> | undefined {
  if ((select.mode ?? 'all') !== 'all' || (select.every ?? 1) !== 1 || (select.fromPly ?? 0) !== 0) return undefined;
  const rows = openingRowsOf('openingsOfGames', positions.batch, backend);
  const r = table();
  const byGame = new Map<number, Opening>();
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    if (row >= 0) byGame.set(positions.game[k]!, r[row]!);
  }
  return byGame;
}

/**
 * The name of the position whose Polyglot key is `key` (an opening explorer's row key, a book
 * entry's), or null. Keys of positions whose en passant square no legal capture uses differ from
 * the table's only where a pawn beside it is pinned.
 */
export function openingOfKey(key: bigint): Opening | null {
  if (typeof key !== 'bigint') throw new TypeError(`openingOfKey: key must be a bigint, got ${typeof key}`);
  if (key < 0n || key >= 1n << 64n) throw new RangeError('openingOfKey: key must be 0..2^64-1');
  const r = table();
  const row = rowOf(Number(key & 0xffffffffn) | 0, Number(key >> 32n) | 0);
  return row >= 0 ? r[row]! : null;
}
