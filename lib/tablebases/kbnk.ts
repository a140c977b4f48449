/**
 * The KBNK tablebase: distance to mate for every king + bishop + knight versus king position.
 *
 * The table is layout v1 of lib/core/types.ts (strong side = white, strong king normalised into the
 * a1-d1-d4 triangle, one byte per position: plies to mate, KBNK_DRAW or KBNK_ILLEGAL); either
 * backend generates it, byte for byte the same. This module adds what users of a tablebase need on
 * top: a checked file format, probing a `Position` of either colour, the best move, statistics.
 *
 * The file format is in lib/tablebases/kbnk-file.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { BISHOP, KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE, KING, KNIGHT, PAWN, QUEEN, ROOK } from '../core/types.js';
import { Tablebase, type TablebaseProgress } from './tablebase.js';
import { isAbortSignal } from '../moves/perft.js';
import { errorText, isPosition } from '../core/position.js';
import { checkArray, checkPath, checkSquare, checkThreads } from '../core/validate.js';

export { KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE } from '../core/types.js';

import { crc32 } from '../core/crc32.js';
import {
  KBNK_TABLES, KbnkFileError, checkKbnkContent as checkContent, kbnkFileImage, readKbnkFile,
} from './kbnk-file.js';
import { squareName } from '../core/squares.js';

export { crc32 };
export {
  KBNK_FILE_HEADER_SIZE, KBNK_FILE_MAGIC, KBNK_FILE_VERSION, KBNK_LAYOUT_VERSION, KBNK_LONGEST_MATE, KbnkFileError,
  type KbnkFileProblem,
} from './kbnk-file.js';

// ---------------------------------------------------------------------------- indexing

const TRIANGLE_INDEX = new Int8Array(64).fill(-1);
KBNK_KING_TRIANGLE.forEach((sq, i) => { TRIANGLE_INDEX[sq] = i; });

/** Square `sq` under symmetry s: bit 2 transpose (first), bit 0 mirror files, bit 1 mirror ranks. */
function symmetric(s: number, sq: number): number {
  if (s & 4) sq = ((sq & 7) << 3) | (sq >> 3);
  if (s & 1) sq ^= 7;
  if (s & 2) sq ^= 56;
  return sq;
}
/** The first symmetry that takes a strong king on `sq` into the triangle. */
const NORMALISING = Uint8Array.from({ length: 64 }, (_, sq) => {
  let s = 0;
  while (TRIANGLE_INDEX[symmetric(s, sq)]! < 0) s++;
  return s;
});

/**
 * The layout-v1 table index of a position with the strong side as white (squares 0..63 as they
 * stand; this function applies the symmetry). `strongToMove`: true when the strong side moves.
 */
export function kbnkIndex(strongToMove: boolean, strongKing: number, bishop: number, knight: number, weakKing: number): number {
  const fn = 'kbnkIndex';
  if (typeof strongToMove !== 'boolean') throw new TypeError(`${fn}: strongToMove must be a boolean, got ${typeof strongToMove}`);
  return indexOf(strongToMove, checkSquare(fn, 'strongKing', strongKing), checkSquare(fn, 'bishop', bishop),
    checkSquare(fn, 'knight', knight), checkSquare(fn, 'weakKing', weakKing));
}

/** kbnkIndex on checked arguments. */
function indexOf(strongToMove: boolean, strongKing: number, bishop: number, knight: number, weakKing: number): number {
  const s = NORMALISING[strongKing]!;
  const t = TRIANGLE_INDEX[symmetric(s, strongKing)]!;
  return ((((strongToMove ? 0 : 1) * 10 + t) * 64 + symmetric(s, bishop)) * 64 + symmetric(s, knight)) * 64 + symmetric(s, weakKing);
}

/** The four squares of a KBNK position, seen with the strong side as white. */
export interface KbnkSquares {
  strongKing: number;
  bishop: number;
  knight: number;
  weakKing: number;
  /** True when the strong side is to move. */
  strongToMove: boolean;
  /** The colour of the strong side in the position as given (0 = white, 1 = black). */
  strongColor: 0 | 1;
}

function single(bb: bigint): number {
  return bb !== 0n && (bb & (bb - 1n)) === 0n ? 63 - clz64(bb) : -1;
}
function clz64(bb: bigint): number {
  const hi = Number(bb >> 32n);
  return hi ? Math.clz32(hi) : 32 + Math.clz32(Number(bb & 0xffffffffn));
}

/**
 * The squares of a KBNK Position (one side: king, bishop, knight; the other: king alone), ranks
 * mirrored when black is the strong side. A non-Position is a TypeError, another material a RangeError.
 */
export function kbnkSquaresOf(fn: string, pos: unknown): KbnkSquares {
  if (!isPosition(pos)) {
    throw new TypeError(`${fn}: pos must be a Position from parseFen or createPosition, got ${pos === null ? 'null' : typeof pos}`);
  }
  const { colors, pieces } = pos;
  const notKbnk = (why: string) => new RangeError(`${fn}: not a KBNK position (king, bishop and knight against a lone king): ${why}`);
  if ((pieces[PAWN] | pieces[ROOK] | pieces[QUEEN]) !== 0n) throw notKbnk('it has pawns, rooks or queens');
  const strong = (colors[0] & (pieces[BISHOP] | pieces[KNIGHT])) !== 0n ? 0 : 1;
  const weak = 1 - strong;
  if ((colors[weak]! & ~pieces[KING]) !== 0n) throw notKbnk('both sides have pieces besides the king');
  const bishop = single(colors[strong]! & pieces[BISHOP]);
  const knight = single(colors[strong]! & pieces[KNIGHT]);
  if (bishop < 0 || knight < 0) throw notKbnk('the strong side needs exactly one bishop and one knight');
  const flip = strong === 1 ? 56 : 0;
  return {
    strongKing: single(colors[strong]! & pieces[KING]) ^ flip,
    bishop: bishop ^ flip,
    knight: knight ^ flip,
    weakKing: single(colors[weak]! & pieces[KING]) ^ flip,
    strongToMove: pos.sideToMove === strong,
    strongColor: strong,
  };
}

// ---------------------------------------------------------------------------- moves

const FILE = (sq: number) => sq & 7;
const RANK = (sq: number) => sq >> 3;
const near = (a: number, b: number) => Math.max(Math.abs(FILE(a) - FILE(b)), Math.abs(RANK(a) - RANK(b))) <= 1;
const KNIGHT_STEPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]] as const;
const DIAGONALS = [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const;
const KING_STEPS = [[1, 1], [1, 0], [1, -1], [0, 1], [0, -1], [-1, 1], [-1, 0], [-1, -1]] as const;

function offset(sq: number, df: number, dr: number): number {
  const f = FILE(sq) + df, r = RANK(sq) + dr;
  return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}
function knightAttacks(n: number, target: number): boolean {
  const df = Math.abs(FILE(n) - FILE(target)), dr = Math.abs(RANK(n) - RANK(target));
  return (df === 1 && dr === 2) || (df === 2 && dr === 1);
}
/** Does a bishop on `b` see `target`, with `blockers` (squares, -1 = none) in the way? */
function bishopSees(b: number, target: number, blockers: readonly number[]): boolean {
  const df = FILE(target) - FILE(b), dr = RANK(target) - RANK(b);
  if (df === 0 || Math.abs(df) !== Math.abs(dr)) return false;
  const sf = Math.sign(df), sr = Math.sign(dr);
  for (let sq = offset(b, sf, sr); sq !== target; sq = offset(sq, sf, sr)) if (blockers.includes(sq)) return false;
  return true;
}

/** A legal move of a KBNK position (strong side = white view) and what it leads to. */
export interface KbnkMove {
  from: number;
  to: number;
  /** The position after the move, or null when the weak king captured a piece (a dead draw). */
  next: { strongKing: number; bishop: number; knight: number; weakKing: number; strongToMove: boolean } | null;
}

/** Every legal move of the side to move (the strong side never has pins; the weak king never captures a defended piece). */
export function kbnkMoves(p: Omit<KbnkSquares, 'strongColor'>): KbnkMove[] {
  const fn = 'kbnkMoves';
  if (typeof p !== 'object' || p === null) {
    throw new TypeError(`${fn}: the argument must be an object { strongKing, bishop, knight, weakKing, strongToMove }, got ${p === null ? 'null' : typeof p}`);
  }
  const { strongKing, bishop, knight, weakKing, strongToMove } = p;
  if (typeof strongToMove !== 'boolean') throw new TypeError(`${fn}: strongToMove must be a boolean, got ${typeof strongToMove}`);
  return movesOf({
    strongKing: checkSquare(fn, 'strongKing', strongKing), bishop: checkSquare(fn, 'bishop', bishop),
    knight: checkSquare(fn, 'knight', knight), weakKing: checkSquare(fn, 'weakKing', weakKing), strongToMove,
  });
}

/** kbnkMoves on checked squares. */
function movesOf(p: Omit<KbnkSquares, 'strongColor'>): KbnkMove[] {
  const { strongKing: k, bishop: b, knight: n, weakKing: w } = p;
  const moves: KbnkMove[] = [];
  if (p.strongToMove) {
    for (const [df, dr] of KING_STEPS) {
      const to = offset(k, df, dr);
      if (to >= 0 && to !== b && to !== n && !near(to, w)) moves.push({ from: k, to, next: { strongKing: to, bishop: b, knight: n, weakKing: w, strongToMove: false } });
    }
    for (const [df, dr] of DIAGONALS) {
      for (let to = offset(b, df, dr); to >= 0 && to !== k && to !== n && to !== w; to = offset(to, df, dr)) {
        moves.push({ from: b, to, next: { strongKing: k, bishop: to, knight: n, weakKing: w, strongToMove: false } });
      }
    }
    for (const [df, dr] of KNIGHT_STEPS) {
      const to = offset(n, df, dr);
      if (to >= 0 && to !== k && to !== b && to !== w) moves.push({ from: n, to, next: { strongKing: k, bishop: b, knight: to, weakKing: w, strongToMove: false } });
    }
    return moves;
  }
  for (const [df, dr] of KING_STEPS) {
    const to = offset(w, df, dr);
    if (to < 0 || to === k || near(to, k)) continue;
    if (to === n) { // capture the knight: only the bishop (and the king, checked above) can defend it
      if (!bishopSees(b, to, [k])) moves.push({ from: w, to, next: null });
    } else if (to === b) {
      if (!knightAttacks(n, to)) moves.push({ from: w, to, next: null });
    } else if (!knightAttacks(n, to) && !bishopSees(b, to, [k, n])) {
      moves.push({ from: w, to, next: { strongKing: k, bishop: b, knight: n, weakKing: to, strongToMove: true } });
    }
  }
  return moves;
}


// ---------------------------------------------------------------------------- the tablebase

/** What `probe` says about a position, from the side to move's point of view. */
export interface KbnkProbe {
  /** 'win' (the side to move mates), 'loss' (it is mated) or 'draw'. */
  result: 'win' | 'loss' | 'draw';
  /** Moves of the winner until mate with best play (0 = checkmated now); null for a draw. */
  dtm: number | null;
  /** Plies until mate (the table value); null for a draw. */
  plies: number | null;
}

/** Statistics over one side to move: every legal position with the strong side as white, symmetric ones counted apart. */
export interface KbnkSideStats {
  /** Legal positions. */
  legal: number;
  /** Positions the side to move wins (only with the strong side to move). */
  wins: number;
  /** Positions the side to move loses (only with the weak side to move). */
  losses: number;
  draws: number;
  /** byPlies[n]: positions with mate in n plies. */
  byPlies: number[];
  /** byMoves[m]: positions with mate in m moves of the winner (the DTM). */
  byMoves: number[];
  /** The longest mate in plies. */
  longestPlies: number;
}

export interface KbnkStats {
  strongToMove: KbnkSideStats;
  weakToMove: KbnkSideStats;
}

export interface KbnkProgress {
  /**
   * Plies of the KBNvK table finished (the setup counts too), increasing; reported once per pass of
   * the generator, and one pass decides a win ply and the next loss ply, so it mostly grows by two.
   */
  done: number;
  /** Steps in all: an estimate until the end; the last call has done === total. */
  total: number;
}

export interface KbnkGenerateOptions {
  /** Called between the generator's passes on the main thread; the last call has done === total. */
  onProgress?: (progress: KbnkProgress) => void;
  /**
   * 'native' or 'js'; default: BITBOARD_PATTERNS_BACKEND if set, else native when the addon loads,
   * else js. A Backend object (as lib/backends/native.ts or lib/js make them) is accepted too.
   */
  backend?: 'native' | 'js' | Backend;
  /** Native only: worker threads (default: all cores, os.availableParallelism()). */
  threads?: number;
  /** Aborts the generation (native: cancels the worker; js: stops between plies); rejects with an AbortError. */
  signal?: AbortSignal;
}

/**
 * A complete KBNK distance-to-mate table (layout v1, lib/core/types.ts) with probing, best moves,
 * statistics and a checked file format. Immutable once made.
 */
export class KbnkTablebase {
  /** The raw table, KBNK_TABLE_SIZE bytes (layout v1). Do not modify. */
  readonly table: Uint8Array;

  private constructor(table: Uint8Array) {
    this.table = table;
    KBNK_TABLES.add(this);
  }

  /**
   * Generates the table: the KBNvK case of the general set-wise retrograde generator
   * (`Tablebase.generate('KBNvK')`, lib/tablebases/tablebase.ts), whose KBNvK layout is layout v1 byte for
   * byte. Native: on worker threads off the main thread (all cores unless `threads` says
   * otherwise). JS: on the main thread, yielding to the event loop between plies so `onProgress`
   * fires and timers run. Progress counts the KBNvK table's plies (its sub-endings, KBvK and KNvK,
   * are all draws and take a moment).
   */
  static async generate(options: KbnkGenerateOptions = {}): Promise<KbnkTablebase> {
    if (typeof options !== 'object' || options === null) throw new TypeError('KbnkTablebase.generate: options must be an object');
    const { onProgress, threads, signal } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw new TypeError('KbnkTablebase.generate: onProgress must be a function');
    }
    if (threads !== undefined) checkThreads('KbnkTablebase.generate', 'options.threads', threads, 1024);
    if (signal !== undefined && !isAbortSignal(signal)) {
      throw new TypeError(`KbnkTablebase.generate: options.signal must be an AbortSignal, got ${signal === null ? 'null' : typeof signal}`);
    }
    const backend = options.backend;
    if (backend !== undefined && backend !== 'native' && backend !== 'js' && (typeof backend !== 'object' || backend === null)) {
      throw new RangeError(`KbnkTablebase.generate: backend must be 'native' or 'js', got ${JSON.stringify(backend)}`);
    }
    const report = onProgress && ((p: TablebaseProgress) => { if (p.material === 'KBNvK') onProgress({ done: p.done, total: p.total }); });
    const tb = await Tablebase.generate('KBNvK', { metric: 'dtm', backend, threads, signal, onProgress: report });
    return new KbnkTablebase(tb.table);
  }

  /** A tablebase over a table already in memory (KBNK_TABLE_SIZE bytes, layout v1; copied). */
  static fromTable(table: Uint8Array): KbnkTablebase {
    table = checkArray('KbnkTablebase.fromTable', 'table', table, Uint8Array);
    if (table.length !== KBNK_TABLE_SIZE) {
      throw new KbnkFileError('length', `KBNK table must have ${KBNK_TABLE_SIZE} bytes, got ${table.length}`);
    }
    checkContent(table);
    return new KbnkTablebase(Uint8Array.from(table));
  }

  /** The file image (header + table), see the format in lib/tablebases/kbnk-file.ts. */
  toBuffer(): Buffer {
    return kbnkFileImage(this.table);
  }

  /** Reads a file image; a KbnkFileError says what is wrong with a damaged or foreign one. */
  static fromBuffer(data: Uint8Array): KbnkTablebase {
    data = checkArray('KbnkTablebase.fromBuffer', 'data', data, Uint8Array);
    return new KbnkTablebase(readKbnkFile(data));
  }

  /** Writes the file (header + table). Synchronous. */
  save(file: string): void {
    checkPath('KbnkTablebase.prototype.save', file);
    writeFileSync(file, this.toBuffer());
  }

  /** Reads a file written by `save`; a KbnkFileError when it is damaged or not a table. Synchronous. */
  static load(file: string): KbnkTablebase {
    checkPath('KbnkTablebase.load', file);
    return KbnkTablebase.fromBuffer(readFileSync(file));
  }

  /** The raw table value (plies, KBNK_DRAW or KBNK_ILLEGAL) for squares with the strong side as white. */
  value(strongToMove: boolean, strongKing: number, bishop: number, knight: number, weakKing: number): number {
    return this.table[indexOf(strongToMove, strongKing, bishop, knight, weakKing)]!;
  }

  /**
   * Distance to mate of a KBNK Position, either colour strong, from the side to move's view. A
   * Position with other material is a RangeError, a non-Position a TypeError.
   */
  probe(pos: Position): KbnkProbe {
    const sq = kbnkSquaresOf('probe', pos);
    return this.interpret('probe', sq.strongToMove, this.value(sq.strongToMove, sq.strongKing, sq.bishop, sq.knight, sq.weakKing));
  }

  private interpret(fn: string, strongToMove: boolean, v: number): KbnkProbe {
    if (v === KBNK_DRAW) return { result: 'draw', dtm: null, plies: null };
    if (v === KBNK_ILLEGAL) throw new RangeError(`${fn}: the table has no such position (illegal)`);
    return { result: strongToMove ? 'win' : 'loss', dtm: (v + 1) >> 1, plies: v };
  }

  /**
   * The best move in UCI (e.g. 'b1d2'), or null when the side to move has none (mate or
   * stalemate). Winner: a move to a position lost in one ply less (the fastest mate). Loser: the
   * slowest mate. Draw: a move that keeps the draw (the weak side prefers taking a piece).
   */
  bestMove(pos: Position): string | null {
    const sq = kbnkSquaresOf('bestMove', pos);
    const move = this.bestKbnkMove(sq);
    if (!move) return null;
    const flip = sq.strongColor === 1 ? 56 : 0;
    return squareName(move.from ^ flip) + squareName(move.to ^ flip);
  }

  /** bestMove on squares with the strong side as white. */
  bestKbnkMove(sq: Omit<KbnkSquares, 'strongColor'>): KbnkMove | null {
    let best: KbnkMove | null = null;
    let bestScore = -Infinity;
    for (const m of movesOf(sq)) {
      // score from the mover's view: mate soon > long mate > draw > being mated late > soon
      const v = m.next ? this.value(m.next.strongToMove, m.next.strongKing, m.next.bishop, m.next.knight, m.next.weakKing) : KBNK_DRAW;
      let score: number;
      if (v === KBNK_DRAW) score = m.next === null ? 1 : 0; // the weak side prefers a capture: a dead draw
      else if (sq.strongToMove) score = 1000 - v; // the opponent is lost in v plies
      else score = -1000 + v; // we are lost: the longer the better
      if (score > bestScore) { bestScore = score; best = m; }
    }
    return best;
  }

  private statsCache: KbnkStats | undefined;

  /** Legal positions, wins, losses and draws per side to move, and counts per distance (computed once). */
  stats(): KbnkStats {
    this.statsCache ??= this.countPositions();
    return structuredClone(this.statsCache);
  }

  private countPositions(): KbnkStats {
    const side = (stm: number): KbnkSideStats => {
      const byPlies: number[] = [];
      let legal = 0, draws = 0;
      for (let t = 0; t < 10; t++) {
        // a king on the a1-d4 diagonal has two entries per orbit of 8 positions, off it one
        const weight = (KBNK_KING_TRIANGLE[t]! % 9 === 0) ? 4 : 8;
        const counts = new Float64Array(256);
        const base = (stm * 10 + t) * 64 * 64 * 64;
        for (let i = base; i < base + 64 * 64 * 64; i++) counts[this.table[i]!]++;
        for (let v = 0; v < KBNK_DRAW; v++) if (counts[v]) byPlies[v] = (byPlies[v] ?? 0) + weight * counts[v]!;
        legal += weight * (64 * 64 * 64 - counts[KBNK_ILLEGAL]!);
        draws += weight * counts[KBNK_DRAW]!;
      }
      const plies = Array.from(byPlies, (x) => x ?? 0);
      const byMoves: number[] = [];
      plies.forEach((c, v) => { if (c) byMoves[(v + 1) >> 1] = (byMoves[(v + 1) >> 1] ?? 0) + c; });
      const decisive = plies.reduce((a, c) => a + c, 0);
      return {
        legal,
        wins: stm === 0 ? decisive : 0,
        losses: stm === 1 ? decisive : 0,
        draws,
        byPlies: plies,
        byMoves: Array.from(byMoves, (x) => x ?? 0),
        longestPlies: plies.length - 1,
      };
    };
    return { strongToMove: side(0), weakToMove: side(1) };
  }
}

/** kbnkEval of the facade: the `kbnkPosition` argument check has found the squares. */
export function kbnkEvalCall(b: Backend, sq: KbnkSquares): number {
  return b.kbnkEval(sq.strongKing, sq.bishop, sq.knight, sq.weakKing);
}
