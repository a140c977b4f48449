/**
 * `bitboard-patterns analyze games.pgn --format parquet [--out FILE]`: the PGN records of
 * lib/cli/pgn-input.ts as an Apache Parquet file ("Apache Parquet file format",
 * https://parquet.apache.org/docs/file-format/), written by hyparquet-writer.
 *
 * The columns are the CSV output's, in its order (csvHeaderPgn), typed:
 * - `game`, `ply`, `plies`: INT32 annotated UINT_32;
 * - square sets and `polyglotKey`: INT64 annotated UINT_64 (per position; per game the sets are
 *   summed as square counts, UINT_32, and polyglotKey is the last selected position's);
 * - small counts (`legalMoveCount`, `kingZoneAttacks`, ...): UINT_8 per position, their sums
 *   UINT_32 per game; flags BOOLEAN per position, counted (UINT_32) per game;
 * - `wdl` INT_8, `dtz` INT_16, `clock` DOUBLE (seconds), `eval_cp` and `eval_mate` INT32, `move_see` INT_16;
 * - `san`, `fen`, `result`, `outcome`, `termination`, the tags and `error`: UTF-8 strings.
 * Every column but `game` is OPTIONAL: null where the CSV cell is empty (a bad game's row has only
 * `game` and `error`).
 *
 * The work is spread and memory stays small: each worker thread encodes the rows of its piece of
 * games as row groups of at most --row-group rows (ROW_GROUP_ROWS by default; encodeRowGroups,
 * compressed there), and the main thread only appends their bytes to the file and keeps each
 * group's footer entry, encoded at once (ParquetFileWriter): a few hundred bytes per group. A row
 * group ends where a thread's piece ends, so groups can be smaller. Pages are compressed with zstd (level 1) when the addon has libzstd
 * (native/addon/zstd.cc), otherwise with Snappy (hyparquet-writer's own; Node 20's zlib has no zstd
 * and hyparquet-writer no zstd encoder of its own).
 */
import type { createApi } from '../api/create-api.js';
import { FEATURES, featureColumns } from '../core/features.js';
import type { BaseFeatureName } from '../core/features.js';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../backends/js/syzygy.js';
import { popcount } from '../board/bits.js';
import type { GamePositions, PgnGame, PositionSelect } from '../games/pgn.js';
import type { SyzygyTablebase } from '../tablebases/syzygy.js';
import type { PgnOutcome } from '../games/outcome.js';
import { openingOf, openingsAtPositions, openingsOfBatch, openingsOfGames, type Opening } from '../games/openings.js';
import type { PgnNode, PgnTree } from '../games/pgn-tree.js';
import { writeAllSync } from './output.js';
import { PACKED_POSITION_WORDS } from '../core/types.js';
import { encodeMove } from '../moves/moves.js';
import { G, GAME_RECORD, type PgnRecords } from '../backends/js/pgn.js';
import { readerRecordsOf } from '../games/pgn.js';
import { BytesColumnBuilder, bytesColumn, encodeTypedGroups, typedColumn, type TypedColumn } from './parquet-pages.js';

/** What the columns depend on: the PGN records' options (FormatOptions of lib/cli/pgn-input.ts). */
export interface ColumnOptions {
  ids: number[];
  per: 'position' | 'game';
  tags: string[];
  offset: number;
  strict: boolean;
  /** The positions the read selected (per game: every ply from the start lets openings come from them). */
  select?: PositionSelect;
  syzygy?: string[];
  annotations?: { clock: boolean; eval: boolean };
  /** Per position: move_see, the SEE of the move that led there. */
  moveSee?: boolean;
  /** Per position: eco and opening, the game's opening so far. */
  opening?: boolean;
  /** Per position: every node of each game's tree (node, parent and main_line columns). */
  variations?: boolean;
}

/** The columns of a position read with variations: its node id, its parent's id (null at the start), on the main line. */
const VARIATION_COLUMNS: readonly ParquetColumn[] = [
  { name: 'node', type: 'INT32', converted: 'UINT_32', required: false }, { name: 'parent', type: 'INT32', converted: 'UINT_32', required: false },
  { name: 'main_line', type: 'BOOLEAN', required: false },
];

/** The rows of a chunk as columns (schema order), and what the chunk held. */
export interface ChunkColumns {
  columns: ColumnValues[];
  rows: number;
  games: number;
  bad: number;
  positions: number;
  /** With strict: the first bad game's error (the rows stop there). */
  stopped?: string;
}

/** Rows per row group by default: the memory the writer holds is about this many rows at once. */
export const ROW_GROUP_ROWS = 1 << 16;

type Physical = 'INT32' | 'INT64' | 'BYTE_ARRAY' | 'BOOLEAN' | 'DOUBLE';
type Converted = 'UINT_8' | 'UINT_16' | 'UINT_32' | 'UINT_64' | 'INT_8' | 'INT_16' | 'UTF8';

/** One column of the file: its name (the CSV header's), physical type and annotation. */
export interface ParquetColumn {
  name: string;
  type: Physical;
  converted?: Converted;
  required: boolean;
}

/** A column's values for some rows: null where the row has no value. */
export type ColumnValues = (number | bigint | string | Uint8Array | boolean | null)[];

export const u32 = (name: string, required = false): ParquetColumn => ({ name, type: 'INT32', converted: 'UINT_32', required });
export const text = (name: string): ParquetColumn => ({ name, type: 'BYTE_ARRAY', converted: 'UTF8', required: false });

/** No move_see: ply 0, a null move. */
export const NO_SEE = -32768;

/** A chunk read with variations, per position: its tree node (null at a game's start) and its parent's row (-1 there). */
export interface VariationRows {
  nodes: (PgnNode | null)[];
  parentRow: Int32Array;
}

/** The nodes and parent rows of a chunk read with variations (its rows are each game's nodes in preorder, the ids). */
export function variationRows(chunk: GamePositions): VariationRows {
  const n = chunk.game.length;
  const nodes = new Array<PgnNode | null>(n).fill(null);
  const parentRow = new Int32Array(n).fill(-1);
  const byNumber = new Map(chunk.games.map((g) => [g.game, g]));
  let start = 0;
  let order: (PgnNode | null)[] = [];
  for (let k = 0; k < n; k++) {
    if (chunk.node![k] === 0) {
      start = k;
      order = preorder(byNumber.get(chunk.game[k]!)!.tree!);
    }
    nodes[k] = order[chunk.node![k]!] ?? null;
    const parent = chunk.parent![k]!;
    parentRow[k] = parent < 0 ? -1 : start + parent;
  }
  return { nodes, parentRow };
}

/** A tree's nodes in preorder, the start (null) first: the node ids of the tree positions. */
function preorder(tree: PgnTree): (PgnNode | null)[] {
  const out: (PgnNode | null)[] = [null];
  const stack: PgnNode[] = [...tree.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    for (let c = node.children.length - 1; c >= 0; c--) stack.push(node.children[c]!);
  }
  return out;
}

/**
 * The opening of each position of a chunk (the `opening` feature): openingsAtPositions, or read with
 * variations the last named position on the path from the game's start to the node.
 */
export function openingsOfRows(chunk: GamePositions, select: PositionSelect, vr: VariationRows | undefined,
  backend?: 'native' | 'wasm' | 'js'): (Opening | null)[] {
  if (!vr) return openingsAtPositions(chunk, select, backend);
  const named = openingsOfBatch(chunk.batch, { backend });
  const out = new Array<Opening | null>(named.length).fill(null);
  for (let k = 0; k < named.length; k++) {
    const p = vr.parentRow[k]!;
    out[k] = named[k] ?? (p >= 0 ? out[p]! : null);
  }
  return out;
}

/**
 * move_see of each position of a chunk: the static exchange evaluation (seeBatch) of the move that
 * led there, in the position before it: the chunk's previous position when it is that one (every
 * position selected), else the game replayed from its start to there. NO_SEE at ply 0 and after a
 * null move.
 */
export function moveSeeOf(chunk: GamePositions, api: ReturnType<typeof createApi>, vr?: VariationRows): Int16Array {
  const n = chunk.game.length;
  const words = chunk.batch.words;
  const before = new BigUint64Array(n * PACKED_POSITION_WORDS);
  const valid = new Uint8Array(n);
  const moves = new Uint16Array(n);
  const byNumber = new Map(chunk.games.map((g) => [g.game, g]));
  for (let k = 0; k < n && vr; k++) {
    // Read with variations: the position before a node's move is its parent's row.
    const node = vr.nodes[k], p = vr.parentRow[k]!;
    if (!node || p < 0 || node.uci === '0000') continue;
    before.set(words.subarray(p * PACKED_POSITION_WORDS, (p + 1) * PACKED_POSITION_WORDS), k * PACKED_POSITION_WORDS);
    moves[k] = encodeMove(node.uci);
    valid[k] = 1;
  }
  for (let k = 0; k < n && !vr; k++) {
    const ply = chunk.ply[k]!;
    const g = byNumber.get(chunk.game[k]!);
    if (ply === 0 || !g || g.moves[ply - 1] === '0000') continue;
    if (k > 0 && chunk.game[k - 1] === chunk.game[k] && chunk.ply[k - 1] === ply - 1) {
      before.set(words.subarray((k - 1) * PACKED_POSITION_WORDS, k * PACKED_POSITION_WORDS), k * PACKED_POSITION_WORDS);
    } else {
      let pos = api.parseFen(g.startFen, { chess960: /960|fischerandom/i.test(g.tags.Variant ?? '') });
      for (let p = 0; p < ply - 1; p++) pos = api.makeMove(pos, g.moves[p]!);
      before.set(pos.packed, k * PACKED_POSITION_WORDS);
    }
    moves[k] = encodeMove(g.moves[ply - 1]!);
    valid[k] = 1;
  }
  const out = api.seeBatch(api.PositionBatch.fromPacked(before, valid), moves);
  for (let k = 0; k < n; k++) if (!valid[k]) out[k] = NO_SEE;
  return out;
}

/**
 * The columns of features `ids`, named as the CSV header names them: per position a set or a key
 * UINT_64, a flag BOOLEAN, a small count UINT_8; `summed` (per game) the sets and counts as UINT_32
 * sums, polyglotKey still UINT_64.
 */
export function featureParquetColumns(ids: readonly number[], summed: boolean): ParquetColumn[] {
  const cols: ParquetColumn[] = [];
  const names = featureColumns(ids);
  let at = 0;
  for (const f of ids) {
    const info = FEATURES[f]!;
    for (let c = 0; c < (info.perColor ? 2 : 1); c++) {
      const name = names[at++]!;
      if (info.type === 'u64') cols.push({ name, type: 'INT64', converted: 'UINT_64', required: false });
      else if (summed) cols.push(u32(name));
      else if (info.type === 'bitboard') cols.push({ name, type: 'INT64', converted: 'UINT_64', required: false });
      else if (info.type === 'flag') cols.push({ name, type: 'BOOLEAN', required: false });
      else cols.push({ name, type: 'INT32', converted: 'UINT_8', required: false });
    }
  }
  return cols;
}

/** The Syzygy columns: wdl INT_8, dtz INT_16. */
export const SYZYGY_COLUMNS: readonly ParquetColumn[] = [
  { name: 'wdl', type: 'INT32', converted: 'INT_8', required: false }, { name: 'dtz', type: 'INT32', converted: 'INT_16', required: false },
];

/** The columns of the PGN records for these options, in the CSV header's order. */
export function pgnParquetColumns(o: ColumnOptions): ParquetColumn[] {
  const cols: ParquetColumn[] = o.per === 'game'
    ? [u32('game', true), text('result'), u32('plies'), text('outcome'), text('termination'), text('eco'), text('opening'), ...o.tags.map(text)]
    : [u32('game', true), u32('ply'), ...(o.variations ? VARIATION_COLUMNS : []), text('san'), text('fen')];
  cols.push(...featureParquetColumns(o.ids, o.per === 'game'));
  if (o.syzygy?.length && o.per === 'position') cols.push(...SYZYGY_COLUMNS);
  if (o.annotations?.clock && o.per === 'position') cols.push({ name: 'clock', type: 'DOUBLE', required: false });
  if (o.annotations?.eval && o.per === 'position') {
    cols.push({ name: 'eval_cp', type: 'INT32', required: false }, { name: 'eval_mate', type: 'INT32', required: false });
  }
  if (o.moveSee && o.per === 'position') cols.push({ name: 'move_see', type: 'INT32', converted: 'INT_16', required: false });
  if (o.opening && o.per === 'position') cols.push(text('eco'), text('opening'));
  cols.push(text('error'));
  return cols;
}

/** The result the rules give a game (its outcome's winner, or a draw), null when it goes on. */
function resultOf(outcome: PgnOutcome | null | undefined): string | null {
  if (!outcome) return null;
  return outcome.winner === 'white' ? '1-0' : outcome.winner === 'black' ? '0-1' : '1/2-1/2';
}

/**
 * The rows of one chunk of games (analysed here) per game as columns, in game order, the same rows
 * the NDJSON and CSV writers make of it; with strict, up to the first bad game.
 */
export function pgnGameColumns(chunk: GamePositions, api: ReturnType<typeof createApi>, o: ColumnOptions): ChunkColumns {
  const { ids, per, tags, offset } = o;
  if (per !== 'game') throw new Error('pgnGameColumns: per game only');
  const names = ids.map((i) => FEATURES[i]!.name);
  const schema = pgnParquetColumns(o);
  const cols: ColumnValues[] = schema.map(() => []);
  const errorCol = cols[cols.length - 1]!;
  const openings = openingsOfGames(chunk, o.select ?? {}, api.backend);
  const res: Record<string, BigUint64Array | Uint8Array> = api.analyzeBatch(chunk.batch, names as BaseFeatureName[]);
  const arrays = names.map((n) => res[n]!);
  let k = 0;
  let games = 0;
  let bad = 0;
  let positions = 0;
  let rows = 0;
  for (const g of chunk.games) {
    games++;
    if (g.error) {
      // A bad game's row: its number and the error, nulls elsewhere.
      bad++;
      cols[0]!.push(g.game + offset);
      for (let c = 1; c < cols.length - 1; c++) cols[c]!.push(null);
      errorCol.push(g.error.message);
      rows++;
      if (o.strict) return { columns: cols, rows, games, bad, positions, stopped: g.error.message };
      continue;
    }
    const width = ids.map((f) => (FEATURES[f]!.perColor ? 2 : 1));
    const sums = ids.map((_, f) => new Array<number>(width[f]!).fill(0));
    const last: (bigint | null)[] = ids.map(() => null);
    for (; k < chunk.game.length && chunk.game[k] === g.game; k++) {
      positions++;
      for (let f = 0; f < ids.length; f++) {
        const a = arrays[f]!;
        if (FEATURES[ids[f]!]!.type === 'u64') { last[f] = (a as BigUint64Array)[k]!; continue; }
        for (let c = 0; c < width[f]!; c++) {
          const v = a[k * width[f]! + c]!;
          sums[f]![c]! += typeof v === 'bigint' ? popcount(v) : v;
        }
      }
    }
    const outcome = resultOf(g.outcome);
    const opening = openings ? (openings.get(g.game) ?? null) : openingOf(g);
    const row: ColumnValues = [g.game + offset, g.result ?? null, g.moves.length, outcome, g.outcome?.termination ?? null,
      opening?.eco ?? null, opening?.name ?? null,
      ...tags.map((t) => (t in g.tags ? g.tags[t]! : null))];
    ids.forEach((f, i) => { if (FEATURES[f]!.type === 'u64') row.push(last[i]!); else row.push(...sums[i]!); });
    row.push(null);
    row.forEach((v, c) => cols[c]!.push(v));
    rows++;
  }
  return { columns: cols, rows, games, bad, positions };
}

/** The rows of one chunk as typed columns (schema order), and what the chunk held. */
export interface TypedChunkColumns extends Omit<ChunkColumns, 'columns'> {
  columns: TypedColumn[];
}

/**
 * The rows of one chunk of games (analysed here) per position as typed columns, in game order, the
 * same rows the NDJSON and CSV writers make of it (a bad game: one row of its number and error);
 * with strict, up to the first bad game. No JavaScript value per cell. `fens` holds every position's
 * FEN, position k's bytes from starts[k] to starts[k + 1] (PLAIN-encoded when `plain`: chunkFens'
 * prefixed form).
 */
export function pgnPositionColumns(chunk: GamePositions, api: ReturnType<typeof createApi>, o: ColumnOptions,
  tables: SyzygyTablebase | undefined, fens: { bytes: Uint8Array; starts: Uint32Array; plain?: boolean }): TypedChunkColumns {
  if (o.per !== 'position') throw new Error('pgnPositionColumns: per position only');
  const { ids, offset } = o;
  const names = ids.map((i) => FEATURES[i]!.name);
  const n = chunk.game.length;
  // The rows: the positions in order, a bad game's one error row where its number falls; with
  // strict, up to the first bad game. chunk.games holds every game, or only the bad ones when the
  // chunk comes from the reader's records (piecePositionsForRecords).
  const raw = readerRecordsOf(chunk);
  const firstGame = raw?.firstGame ?? chunk.games[0]?.game ?? 0;
  const badGames = chunk.games.filter((g) => g.error !== undefined);
  const errorOfRow: PgnGame[] = [];
  const posOfRow = new Int32Array(n + badGames.length);
  const errors: number[] = [];
  let rows = 0, bad = 0;
  let games = raw ? raw.records.games.length / GAME_RECORD : chunk.games.length;
  let stopped: string | undefined;
  let k = 0;
  for (let b = 0; b <= badGames.length && stopped === undefined; b++) {
    const g = badGames[b];
    for (; k < n && (g === undefined || chunk.game[k]! < g.game); k++) posOfRow[rows++] = k;
    if (g === undefined) break;
    bad++;
    errors.push(rows);
    errorOfRow[rows] = g;
    posOfRow[rows++] = -1;
    if (o.strict) {
      stopped = g.error!.message;
      games = g.game - firstGame + 1;
    }
  }
  const byNumber = new Map(chunk.games.map((g) => [g.game, g]));
  const gameOf = (p: number): PgnGame => byNumber.get(chunk.game[p]!)!;
  const positions = rows - errors.length;
  let present: Uint8Array | undefined;
  if (errors.length) {
    present = new Uint8Array(rows).fill(1);
    for (const r of errors) present[r] = 0;
  }
  /** Row r's present flag and value from position pos (position rows only). */
  const mask = (ok: (k: number, r: number) => boolean): Uint8Array | undefined => {
    let m: Uint8Array | undefined = present?.slice();
    for (let r = 0; r < rows; r++) {
      const p = posOfRow[r]!;
      if (p >= 0 && !ok(p, r)) (m ??= new Uint8Array(rows).fill(1))[r] = 0;
    }
    return m;
  };
  const int32 = (get: (k: number, r: number) => number, ok?: (k: number, r: number) => boolean): TypedColumn => {
    const values = new Int32Array(rows);
    const m = ok ? mask(ok) : present;
    for (let r = 0; r < rows; r++) {
      const p = posOfRow[r]!;
      if (p >= 0 && (!m || m[r])) values[r] = get(p, r);
    }
    return { kind: 'int32', values, present: m };
  };
  const texts = (get: (k: number, r: number) => string | null | undefined): TypedColumn => {
    const out = new BytesColumnBuilder(rows);
    for (let r = 0; r < rows; r++) out.add(posOfRow[r]! >= 0 ? get(posOfRow[r]!, r) : null);
    return out.column();
  };
  const vr = chunk.node ? variationRows(chunk) : undefined;
  const cols: TypedColumn[] = [];
  const gameCol = new Int32Array(rows);
  for (let r = 0; r < rows; r++) gameCol[r] = (posOfRow[r]! >= 0 ? chunk.game[posOfRow[r]!]! : errorOfRow[r]!.game) + offset;
  cols.push({ kind: 'int32', values: gameCol });
  cols.push(int32((p) => chunk.ply[p]!));
  if (vr) {
    cols.push(int32((p) => chunk.node![p]!));
    cols.push(int32((p) => chunk.parent![p]!, (p) => chunk.parent![p]! >= 0));
    const main = new Uint8Array(rows);
    for (let r = 0; r < rows; r++) if (posOfRow[r]! >= 0) main[r] = chunk.mainLine![posOfRow[r]!] === 1 ? 1 : 0;
    cols.push({ kind: 'bool', values: main, present });
  }
  if (vr) cols.push(texts((p) => vr.nodes[p]?.san));
  else if (raw) cols.push(recordSans(chunk, posOfRow, rows, raw.records, raw.firstGame));
  else cols.push(texts((p) => (chunk.ply[p]! > 0 ? gameOf(p).sans[chunk.ply[p]! - 1] : null)));
  // The FENs: position rows take their bytes in order, an error row none.
  const fenStarts = new Uint32Array(rows + 1);
  let firstPos = -1;
  for (let r = 0; r < rows && firstPos < 0; r++) firstPos = posOfRow[r]!;
  fenStarts[0] = firstPos >= 0 ? fens.starts[firstPos]! : 0;
  for (let r = 0; r < rows; r++) {
    const p = posOfRow[r]!;
    fenStarts[r + 1] = p >= 0 ? fens.starts[p + 1]! : fenStarts[r]!;
  }
  cols.push({ kind: 'bytes', bytes: fens.bytes, starts: fenStarts, present, plain: fens.plain });
  const res: Record<string, BigUint64Array | Uint8Array> = api.analyzeBatch(chunk.batch, names as BaseFeatureName[]);
  for (let f = 0; f < ids.length; f++) {
    const info = FEATURES[ids[f]!]!;
    const a = res[names[f]!]!;
    const w = info.perColor ? 2 : 1;
    for (let c = 0; c < w; c++) {
      if (a instanceof BigUint64Array) {
        const values = new BigUint64Array(rows);
        for (let r = 0; r < rows; r++) { const p = posOfRow[r]!; if (p >= 0) values[r] = a[w * p + c]!; }
        cols.push({ kind: 'int64', values, present });
      } else if (info.type === 'flag') {
        const values = new Uint8Array(rows);
        for (let r = 0; r < rows; r++) { const p = posOfRow[r]!; if (p >= 0) values[r] = a[w * p + c] === 1 ? 1 : 0; }
        cols.push({ kind: 'bool', values, present });
      } else cols.push(int32((p) => a[w * p + c]!));
    }
  }
  if (o.syzygy?.length && tables) {
    const wdl = tables.probeWdlBatch(chunk.batch, undefined, 1);
    const dtz = tables.probeDtzBatch(chunk.batch, undefined, 1);
    cols.push(int32((p) => wdl[p]!, (p) => wdl[p] !== SYZYGY_WDL_NONE));
    cols.push(int32((p) => dtz[p]!, (p) => dtz[p] !== SYZYGY_DTZ_NONE));
  }
  if (o.annotations?.clock) {
    const clockOf = (p: number, r: number): number | null => {
      const ply = chunk.ply[p]!;
      return vr ? (vr.nodes[p]?.clock ?? null) : ply > 0 ? (gameOf(p).clocks![ply - 1] ?? null) : null;
    };
    const values = new Float64Array(rows);
    const m = mask((p, r) => clockOf(p, r) !== null);
    for (let r = 0; r < rows; r++) if (posOfRow[r]! >= 0 && (!m || m[r])) values[r] = clockOf(posOfRow[r]!, r)!;
    cols.push({ kind: 'double', values, present: m });
  }
  if (o.annotations?.eval) {
    const evalOf = (p: number, r: number) => {
      const ply = chunk.ply[p]!;
      return vr ? (vr.nodes[p]?.eval ?? null) : ply > 0 ? gameOf(p).evals![ply - 1] : null;
    };
    cols.push(int32((p, r) => (evalOf(p, r) as { cp: number }).cp, (p, r) => { const e = evalOf(p, r); return !!e && 'cp' in e; }));
    cols.push(int32((p, r) => (evalOf(p, r) as { mate: number }).mate, (p, r) => { const e = evalOf(p, r); return !!e && 'mate' in e; }));
  }
  if (o.moveSee) {
    const sees = moveSeeOf(chunk, api, vr);
    cols.push(int32((p) => sees[p]!, (p) => sees[p] !== NO_SEE));
  }
  if (o.opening) {
    const named = openingsOfRows(chunk, o.select ?? {}, vr, api.backend);
    cols.push(texts((p) => named[p]?.eco), texts((p) => named[p]?.name));
  }
  const errorText = new Array<string | null>(rows).fill(null);
  for (const r of errors) errorText[r] = errorOfRow[r]!.error!.message;
  cols.push(bytesColumn(errorText));
  return { columns: cols, rows, games, bad, positions, ...(stopped !== undefined && { stopped }) };
}

/**
 * The SAN column of position rows from the reader's records (no game objects): a game record's SAN
 * range holds the SAN of each ply as a space-ended word, the p-th the move that led to ply p.
 */
function recordSans(chunk: GamePositions, posOfRow: Int32Array, rows: number, records: PgnRecords, firstGame: number): TypedColumn {
  const san = records.san;
  const out = new BytesColumnBuilder(rows);
  let current = -1, word = 0, end = 0, wordPly = 1;
  for (let r = 0; r < rows; r++) {
    const p = posOfRow[r]!;
    const ply = p >= 0 ? chunk.ply[p]! : 0;
    if (ply === 0) { out.add(null); continue; }
    const g = chunk.game[p]!;
    if (g !== current || ply < wordPly) {
      const rec = (g - firstGame) * GAME_RECORD;
      word = records.games[rec + G.sanStart]!;
      end = records.games[rec + G.sanEnd]!;
      wordPly = 1;
      current = g;
    }
    for (; wordPly < ply && word < end; wordPly++) word = san.indexOf(32, word) + 1;
    const space = san.indexOf(32, word);
    if (wordPly !== ply || space < 0 || space >= end) throw new Error(`position ${p} has no SAN in its game record`);
    out.addBytes(san, word, space);
  }
  return out.column();
}

/** A page compressor: the bytes of a page in, its compressed bytes out. */
export type PageCompressor = (bytes: Uint8Array) => Uint8Array;

/** The analyze command's Parquet output: `append` and `finish` answer false when the reader closed the pipe. */
export interface ParquetOutput {
  append(encoded: EncodedGroups): boolean;
  finish(): boolean;
  /** After a failure: closes the file (what was written stays, without a footer). */
  abandon(): void;
}

/**
 * Opens the analyze command's Parquet output: `path`, or stdout (fd 1) when it is undefined or '-'.
 * `zstd`: the row groups appended have zstd pages (else Snappy).
 */
export async function openParquetOutput(path: string | undefined, schema: ParquetColumn[], zstd: boolean): Promise<ParquetOutput> {
  const { openSync, closeSync } = await import('node:fs');
  const toStdout = path === undefined || path === '-';
  let fd: number;
  try {
    fd = toStdout ? 1 : openSync(path, 'w');
  } catch (e) {
    throw new Error(`cannot write ${path}: ${(e as Error).message}`);
  }
  const close = (): void => { if (!toStdout) closeSync(fd); };
  const guarded = (f: () => void): boolean => {
    try {
      f();
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') return false;
      throw new Error(`cannot write ${toStdout ? 'the output' : path}: ${(e as Error).message}`);
    }
  };
  await loadParquetWriter();
  let w: ParquetFileWriter;
  try {
    w = ParquetFileWriter.open(fd, schema, zstd);
  } catch (e) {
    close();
    throw e;
  }
  return {
    append: (encoded) => guarded(() => w.append(encoded)),
    finish: () => {
      try {
        return guarded(() => w.finish());
      } finally {
        close();
      }
    },
    abandon: close,
  };
}

let hyparquetWriter: typeof import('hyparquet-writer') | undefined;

/** Loads hyparquet-writer (an ES module) once per thread, before encodeRowGroups or a file writer is used. */
export async function loadParquetWriter(): Promise<void> {
  hyparquetWriter ??= await import('hyparquet-writer');
  snappy ??= (await import('hyparquet-writer/src/snappy.js')).snappyCompress;
}

/** hyparquet-writer's Snappy compressor: the pages' codec without the addon's zstd. */
let snappy: PageCompressor | undefined;

function writerModule(): typeof import('hyparquet-writer') {
  if (!hyparquetWriter) throw new Error('analyze-parquet: loadParquetWriter() first');
  return hyparquetWriter;
}

/** Row groups encoded apart from the file (by a worker thread): their bytes and metadata. */
export interface EncodedGroups {
  /** The column chunks' bytes, as they go into the file one after the other. */
  bytes: Uint8Array;
  /** hyparquet's RowGroup metadata, byte offsets counted from the start of `bytes`. */
  groups: object[];
  rows: number;
}

type ChunkMeta = { file_offset: bigint; meta_data?: { data_page_offset: bigint; dictionary_page_offset?: bigint } };
type GroupMeta = { columns: ChunkMeta[]; num_rows: bigint };

/** Adds `by` to every byte offset of row groups' metadata (the offsets the format keeps in each column chunk). */
function shiftOffsets(groups: object[], by: bigint): void {
  for (const g of groups as GroupMeta[]) {
    for (const c of g.columns) {
      c.file_offset += by;
      if (c.meta_data) {
        c.meta_data.data_page_offset += by;
        if (c.meta_data.dictionary_page_offset !== undefined) c.meta_data.dictionary_page_offset += by;
      }
    }
  }
}

/** hyparquet-writer's schema for these columns. */
function parquetSchema(schema: ParquetColumn[]) {
  return [
    { name: 'root', num_children: schema.length },
    ...schema.map((c) => ({ name: c.name, type: c.type, ...(c.converted && { converted_type: c.converted }),
      repetition_type: c.required ? 'REQUIRED' as const : 'OPTIONAL' as const })),
  ];
}

/**
 * Encodes rows (columns in schema order) as row groups of at most `groupRows` rows, compressed with
 * `zstd` or Snappy, apart from any file: what a worker thread does with the rows of its piece of
 * games, so that the thread writing the file only appends bytes (ParquetFileWriter.append).
 */
export function encodeRowGroups(schema: ParquetColumn[], columns: ColumnValues[], rows: number, groupRows: number,
  zstd?: PageCompressor): EncodedGroups {
  return encodeTypedRowGroups(schema, schema.map((c, i) => typedColumn(c, columns[i]!)), rows, groupRows, zstd);
}

/**
 * encodeRowGroups of typed columns (lib/cli/parquet-pages.ts): groups of equal size, each at most
 * groupRows. No page indexes: they would sit at the end of the file, away from their row group. No
 * min / max statistics for strings (FEN, SAN, tags, errors): they prune nothing and their values
 * would be kept for the footer.
 */
export function encodeTypedRowGroups(schema: ParquetColumn[], columns: TypedColumn[], rows: number, groupRows: number,
  zstd?: PageCompressor): EncodedGroups {
  if (!zstd && !snappy) throw new Error('analyze-parquet: loadParquetWriter() first');
  return encodeTypedGroups(schema, columns, rows, groupRows, zstd ? 'ZSTD' : 'SNAPPY', zstd ?? snappy!);
}

/**
 * A Parquet file made of row groups encoded elsewhere (encodeRowGroups): `append` writes their
 * bytes at the end of the file, and `finish` writes the footer (FileMetaData, "Apache Parquet file
 * format": the metadata, its length and the magic). Writes go to a file descriptor at once (EPIPE
 * and other errors thrown).
 *
 * The footer lists every row group, and a month of games has a hundred thousand of them: kept as
 * hyparquet's objects until the end, their metadata grew to gigabytes. So each group's entry is
 * encoded when it is appended (FooterCodec) and only its bytes are kept; the footer is those
 * entries between the parts hyparquet writes around the list.
 */
export class ParquetFileWriter {
  private offset = 4n;
  private rows = 0n;
  private groups = 0;
  private entries: Uint8Array = new Uint8Array(1 << 12);
  private length = 0;
  private constructor(private readonly fd: number, private readonly codec: FooterCodec) {}

  static open(fd: number, schema: ParquetColumn[], zstd: boolean): ParquetFileWriter {
    writeAllSync(fd, Buffer.from('PAR1', 'latin1'));
    return new ParquetFileWriter(fd, new FooterCodec(schema, zstd));
  }

  append(e: EncodedGroups): void {
    if (e.rows === 0) return;
    writeAllSync(this.fd, e.bytes);
    shiftOffsets(e.groups, this.offset);
    for (const g of e.groups) {
      const entry = this.codec.groupEntry(g);
      if (this.length + entry.length > this.entries.length) {
        const grown = new Uint8Array(Math.max(2 * this.entries.length, this.length + entry.length));
        grown.set(this.entries.subarray(0, this.length));
        this.entries = grown;
      }
      this.entries.set(entry, this.length);
      this.length += entry.length;
      this.groups++;
    }
    this.rows += BigInt(e.rows);
    this.offset += BigInt(e.bytes.length);
  }

  finish(): void {
    writeAllSync(this.fd, this.codec.footer(this.rows, this.groups, this.entries.subarray(0, this.length)));
  }
}

/**
 * The footer's bytes as hyparquet-writer encodes them, with the row groups' entries encoded one at
 * a time. FileMetaData is a Thrift struct in the compact protocol, and its row groups (field 4) a
 * list of RowGroup structs; a struct's field ids count from its own start, so an entry's bytes do
 * not depend on where it stands. hyparquet's footer of no row group and of one row group differ
 * from the list's header on: the list header is one byte for fewer than 15 elements ((n << 4) |
 * type; STRUCT is 12), and what follows the list (fields 5 to 7) is the same. So one row group's
 * entry is hyparquet's footer of that group alone without the parts the footer of none has, and
 * the footer of n groups is those parts around a header for n and the n entries.
 */
export class FooterCodec {
  private readonly schema: ParquetColumn[];
  private readonly zstd: boolean;
  /** Where the row group list's header stands in a footer of num_rows 0, and what follows the list. */
  private at = -1;
  private tail: Uint8Array | undefined;

  constructor(schema: ParquetColumn[], zstd: boolean) {
    this.schema = schema;
    this.zstd = zstd;
  }

  /** hyparquet-writer's FileMetaData bytes for these row groups (without the length and the magic). */
  private metadata(groups: object[], rows: bigint): Uint8Array {
    const { ByteWriter, ParquetWriter } = writerModule();
    const bytes = new ByteWriter(1 << 12);
    const writer = new ParquetWriter({ writer: bytes, schema: parquetSchema(this.schema), codec: this.zstd ? 'ZSTD' : 'SNAPPY',
      ...(this.zstd && { compressors: { ZSTD: (b: Uint8Array) => b } }), createdBy: 'bitboard-patterns analyze' }) as unknown as
      { row_groups: object[]; num_rows: bigint; finish(): void };
    writer.row_groups.push(...groups);
    writer.num_rows = rows;
    writer.finish();
    // The magic the writer began with, then the metadata, its 4-byte length and the magic.
    return new Uint8Array(bytes.buffer, 4, bytes.index - 12).slice();
  }

  /** The footer entry (RowGroup struct bytes) of one row group, offsets already where it lands. */
  groupEntry(group: object): Uint8Array {
    const one = this.metadata([group], 0n);
    if (this.tail === undefined) {
      const none = this.metadata([], 0n);
      let at = 0;
      while (at < none.length && none[at] === one[at]) at++;
      const tail = none.subarray(at + 1);
      if (at >= none.length || (none[at]! & 0xf0) !== 0 || one[at] !== 0x1c || !Buffer.from(one.subarray(one.length - tail.length)).equals(tail)) {
        throw new Error('analyze-parquet: the Parquet writer\'s footer is not laid out as expected');
      }
      this.at = at;
      this.tail = tail;
    }
    return one.subarray(this.at + 1, one.length - this.tail.length);
  }

  /** The footer (metadata, its length, the magic) of `groups` row groups whose entries are `entries`. */
  footer(rows: bigint, groups: number, entries: Uint8Array): Uint8Array {
    const none = this.metadata([], rows);
    const tail = this.tail;
    if (groups === 0 || tail === undefined) return withLength(none);
    const head = none.subarray(0, none.length - tail.length - 1);
    const header: number[] = [];
    if (groups < 15) header.push((groups << 4) | 12);
    else {
      header.push(0xfc);
      for (let n = groups; ; n = Math.floor(n / 128)) {
        if (n < 128) { header.push(n); break; }
        header.push((n % 128) | 128);
      }
    }
    return withLength(Buffer.concat([head, Uint8Array.from(header), entries, tail]));
  }
}

/** The metadata followed by its length (4 bytes, little-endian) and the magic. */
function withLength(metadata: Uint8Array): Uint8Array {
  const out = new Uint8Array(metadata.length + 8);
  out.set(metadata, 0);
  new DataView(out.buffer).setUint32(metadata.length, metadata.length, true);
  out.set(Buffer.from('PAR1', 'latin1'), metadata.length + 4);
  return out;
}
