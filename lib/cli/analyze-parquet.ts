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
 * The rows of one chunk of games (analysed here) as columns, in game order, the same rows the
 * NDJSON and CSV writers make of it; with strict, up to the first bad game. `tables` answers wdl and
 * dtz when the options ask for them; `fenOf(k)` is the FEN of position k of the chunk (a string, or
 * its UTF-8 bytes).
 */
export function pgnChunkColumns(chunk: GamePositions, api: ReturnType<typeof createApi>, o: ColumnOptions,
  tables: SyzygyTablebase | undefined, fenOf: (k: number) => string | Uint8Array): ChunkColumns {
  const { ids, per, tags, offset } = o;
  const names = ids.map((i) => FEATURES[i]!.name);
  const schema = pgnParquetColumns(o);
  const cols: ColumnValues[] = schema.map(() => []);
  const errorCol = cols[cols.length - 1]!;
  const tb = per === 'position' ? tables : undefined;
  const wdl = tb ? tb.probeWdlBatch(chunk.batch, undefined, 1) : undefined;
  const dtz = tb ? tb.probeDtzBatch(chunk.batch, undefined, 1) : undefined;
  const withClock = o.annotations?.clock === true && per === 'position';
  const withEval = o.annotations?.eval === true && per === 'position';
  const vr = chunk.node && per === 'position' ? variationRows(chunk) : undefined;
  const moveSees = o.moveSee === true && per === 'position' ? moveSeeOf(chunk, api, vr) : undefined;
  const openingsHere = o.opening === true && per === 'position' ? openingsOfRows(chunk, o.select ?? {}, vr, api.backend) : undefined;
  const openings = per === 'game' ? openingsOfGames(chunk, o.select ?? {}, api.backend) : undefined;
  const res: Record<string, BigUint64Array | Uint8Array> = api.analyzeBatch(chunk.batch, names as BaseFeatureName[]);
  const arrays = names.map((n) => res[n]!);
  let k = 0;
  let games = 0;
  let bad = 0;
  let positions = 0;
  let rows = 0;
  /** A bad game's row: its number and the error, nulls elsewhere. */
  const errorRow = (g: PgnGame): void => {
    cols[0]!.push(g.game + offset);
    for (let c = 1; c < cols.length - 1; c++) cols[c]!.push(null);
    errorCol.push(g.error!.message);
    rows++;
  };
  for (const g of chunk.games) {
    games++;
    if (g.error) {
      bad++;
      errorRow(g);
      if (o.strict) return { columns: cols, rows, games, bad, positions, stopped: g.error.message };
      continue;
    }
    if (per === 'game') {
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
      continue;
    }
    const gameNumber = g.game + offset;
    for (; k < chunk.game.length && chunk.game[k] === g.game; k++) {
      positions++;
      rows++;
      const ply = chunk.ply[k]!;
      let c = 0;
      cols[c++]!.push(gameNumber);
      cols[c++]!.push(ply);
      const node = vr?.nodes[k];
      if (vr) {
        cols[c++]!.push(chunk.node![k]!);
        cols[c++]!.push(chunk.parent![k]! < 0 ? null : chunk.parent![k]!);
        cols[c++]!.push(chunk.mainLine![k] === 1);
      }
      cols[c++]!.push(vr ? (node?.san ?? null) : ply > 0 ? g.sans[ply - 1]! : null);
      cols[c++]!.push(fenOf(k));
      for (let f = 0; f < ids.length; f++) {
        const info = FEATURES[ids[f]!]!;
        const a = arrays[f]!;
        const flag = info.type === 'flag';
        if (info.perColor) {
          cols[c++]!.push(a[2 * k]!);
          cols[c++]!.push(a[2 * k + 1]!);
        } else cols[c++]!.push(flag ? a[k] === 1 : a[k]!);
      }
      if (wdl && dtz) {
        cols[c++]!.push(wdl[k] === SYZYGY_WDL_NONE ? null : wdl[k]!);
        cols[c++]!.push(dtz[k] === SYZYGY_DTZ_NONE ? null : dtz[k]!);
      }
      if (withClock) cols[c++]!.push(vr ? (node?.clock ?? null) : ply > 0 ? (g.clocks![ply - 1] ?? null) : null);
      if (withEval) {
        const e = vr ? (node?.eval ?? null) : ply > 0 ? g.evals![ply - 1] : null;
        cols[c++]!.push(e && 'cp' in e ? e.cp : null);
        cols[c++]!.push(e && 'mate' in e ? e.mate : null);
      }
      if (moveSees) cols[c++]!.push(moveSees[k] === NO_SEE ? null : moveSees[k]!);
      if (openingsHere) {
        cols[c++]!.push(openingsHere[k]?.eco ?? null);
        cols[c++]!.push(openingsHere[k]?.name ?? null);
      }
      cols[c]!.push(null);
    }
  }
  return { columns: cols, rows, games, bad, positions };
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
}

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
  const { ByteWriter, ParquetWriter } = writerModule();
  const bytes = new ByteWriter(1 << 16);
  const writer = new ParquetWriter({ writer: bytes, schema: parquetSchema(schema), codec: zstd ? 'ZSTD' : 'SNAPPY',
    ...(zstd && { compressors: { ZSTD: zstd } }) });
  if (rows > 0) {
    // Groups of equal size, each at most groupRows (not full groups and a small rest).
    // No page indexes: they would sit at the end of the file, away from their row group.
    // No min / max statistics for strings (FEN, SAN, tags, errors): they prune nothing and their
    // values would be kept for the footer.
    writer.write({ columnData: columns.map((data, c) => ({ name: schema[c]!.name, data, offsetIndex: false,
      statistics: schema[c]!.type !== 'BYTE_ARRAY' })), rowGroupSize: Math.ceil(rows / Math.ceil(rows / groupRows)) });
  }
  const groups = writer.row_groups as unknown as object[];
  // The writer began with the file's 4-byte magic: offsets from the bytes after it.
  shiftOffsets(groups, -4n);
  return { bytes: bytes.getBytes().slice(4), groups, rows };
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
