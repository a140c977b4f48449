/**
 * Opening trees (lib/games/explorer.ts) as files: Parquet (the Apache Parquet format, written by
 * hyparquet-writer, read by hyparquet) and NDJSON, one row per (key, move).
 *
 * Columns: `key` (INT64 annotated UINT_64: the Polyglot key), `move` (UTF-8, UCI), `castling`
 * (BOOLEAN: the Polyglot book stores such a move as the king taking its rook), `games`, `white`,
 * `draws`, `black` (INT32 annotated UINT_32), then `eco` and `opening` (UTF-8, null where the position
 * has no name): the name of the row's position in the lichess chess-openings data set
 * (openingOfKey), written for the reader's convenience and not read back (a merge names its rows
 * again). Pages are Snappy-compressed: the writer has no zstd
 * encoder of its own and Node 20 has none either. Parquet files written by other tools with zstd
 * pages read too (decompressed by fzstd).
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync, writeFileSync } from 'node:fs';
import { OpeningTree, type ExplorerColumns, type ExplorerRow } from './explorer.js';
import { errorText } from '../core/position.js';
import { openingOfKey, type Opening } from './openings.js';

const COUNTS = ['games', 'white', 'draws', 'black'] as const;

/** Rows as columns (the shape the writers take). */
function columnsOf(rows: readonly ExplorerRow[] | ExplorerColumns): ExplorerColumns {
  if (!Array.isArray(rows)) return rows as ExplorerColumns;
  const list = rows as readonly ExplorerRow[];
  const n = list.length;
  const out: ExplorerColumns = { length: n, key: new BigUint64Array(n), move: new Array<string>(n), castling: new Array<boolean>(n),
    games: new Float64Array(n), white: new Float64Array(n), draws: new Float64Array(n), black: new Float64Array(n) };
  list.forEach((r, i) => {
    out.key[i] = r.key;
    out.move[i] = r.move;
    out.castling[i] = r.castling;
    for (const c of COUNTS) out[c][i] = r[c];
  });
  return out;
}

/** The eco code and name of each row's position (null where it has none): rows of one key are next to each other. */
function namesOf(c: ExplorerColumns): { eco: (string | null)[]; opening: (string | null)[] } {
  const eco = new Array<string | null>(c.length), opening = new Array<string | null>(c.length);
  let last: bigint | undefined;
  let named: Opening | null = null;
  for (let i = 0; i < c.length; i++) {
    const key = c.key[i]!;
    if (key !== last) {
      named = openingOfKey(key);
      last = key;
    }
    eco[i] = named?.eco ?? null;
    opening[i] = named?.name ?? null;
  }
  return { eco, opening };
}

/** How a tree's Parquet pages are compressed: `zstd` compresses one page (zstd pages), else Snappy. */
export interface TreeParquetOptions { zstd?: (page: Uint8Array) => Uint8Array }

/**
 * The Parquet bytes of rows (or OpeningTree.columns). A count over 2^32-1 is a RangeError (the
 * column is UINT_32). Pages are Snappy, or zstd with `options.zstd` (the command line passes the
 * addon's libzstd when it loads).
 */
export async function treeParquet(rows: readonly ExplorerRow[] | ExplorerColumns, options: TreeParquetOptions = {}): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const cols = columnsOf(rows);
  const counts = COUNTS.map((c) => {
    const v = cols[c];
    for (let i = 0; i < v.length; i++) {
      if (v[i]! > 0xffffffff) throw new RangeError(`explorer: a ${c} count of ${v[i]} does not fit the file's 32-bit column`);
    }
    return Uint32Array.from(v);
  });
  type Schema = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>;
  const schema: Schema = [
    { name: 'root', num_children: 9 },
    { name: 'key', type: 'INT64', converted_type: 'UINT_64', repetition_type: 'REQUIRED' },
    { name: 'move', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'castling', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
    ...COUNTS.map((name) => ({ name, type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' }) as const),
    { name: 'eco', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'opening', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  ];
  const names = namesOf(cols);
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'key', data: cols.key },
      { name: 'move', data: cols.move },
      { name: 'castling', data: cols.castling },
      ...COUNTS.map((name, k) => ({ name, data: counts[k]! })),
      { name: 'eco', data: names.eco },
      { name: 'opening', data: names.opening },
    ],
    schema,
    ...(options.zstd ? { codec: 'ZSTD' as const, compressors: { ZSTD: options.zstd } } : { codec: 'SNAPPY' as const }),
    rowGroupSize: 1 << 20,
  });
  return new Uint8Array(buffer);
}

/** NDJSON lines begin..end-1 of the columns. */
function ndjsonLines(c: ExplorerColumns, names: ReturnType<typeof namesOf>, begin: number, end: number): string {
  const lines = new Array<string>(end - begin);
  for (let i = begin; i < end; i++) {
    lines[i - begin] = `{"key":"0x${c.key[i]!.toString(16).padStart(16, '0')}","move":${JSON.stringify(c.move[i])},"castling":${c.castling[i]},`
      + `"games":${c.games[i]},"white":${c.white[i]},"draws":${c.draws[i]},"black":${c.black[i]},`
      + `"eco":${JSON.stringify(names.eco[i])},"opening":${JSON.stringify(names.opening[i])}}\n`;
  }
  return lines.join('');
}

/**
 * The NDJSON of rows (or OpeningTree.columns):
 * `{"key":"0x…","move":…,"castling":…,"games":…,"white":…,"draws":…,"black":…,"eco":…,"opening":…}` a line.
 */
export function treeNdjson(rows: readonly ExplorerRow[] | ExplorerColumns): string {
  const c = columnsOf(rows);
  return ndjsonLines(c, namesOf(c), 0, c.length);
}

/** Writes rows (or OpeningTree.columns) to `path` as Parquet or NDJSON (written in pieces: no string of the whole file). */
export async function writeTree(path: string, rows: readonly ExplorerRow[] | ExplorerColumns, format: 'parquet' | 'ndjson',
  options: TreeParquetOptions = {}): Promise<void> {
  if (format === 'parquet') {
    writeFileSync(path, await treeParquet(rows, options));
    return;
  }
  const c = columnsOf(rows);
  const names = namesOf(c);
  const fd = openSync(path, 'w');
  try {
    for (let i = 0; i < c.length || i === 0; i += 1 << 16) writeSync(fd, ndjsonLines(c, names, i, Math.min(c.length, i + (1 << 16))));
  } finally {
    closeSync(fd);
  }
}

/** A damaged or foreign tree file. */
export class TreeFileError extends Error {
  override readonly name = 'TreeFileError';
  constructor(message: string) {
    super(errorText(message));
  }
}

/** Whether the file at `path` starts and ends with the Parquet magic (PAR1), read without reading it whole. */
function isParquetFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < 12) return false;
    const head = Buffer.alloc(4), tail = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    readSync(fd, tail, 0, 4, size - 4);
    return head.toString('latin1') === 'PAR1' && tail.toString('latin1') === 'PAR1';
  } finally {
    closeSync(fd);
  }
}

/**
 * Adds the rows of a Parquet tree file into `tree`, one row group at a time: the file is read in
 * byte ranges (hyparquet's asyncBufferFromFile), each row group's seven columns are decoded as
 * arrays and their rows are added through one reused row object. Memory holds one row group, not the
 * file or an object per row.
 */
async function readParquetTree(path: string, tree: OpeningTree): Promise<OpeningTree> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead } = await import('hyparquet');
  const { decompress } = await import('fzstd');
  const compressors = { ZSTD: (input: Uint8Array) => decompress(input) };
  const names = ['key', 'move', 'castling', ...COUNTS] as const;
  const foreign = (e: unknown) => new TreeFileError(`${path}: not an explorer tree: ${(e as Error).message}`);
  let file: Awaited<ReturnType<typeof asyncBufferFromFile>>;
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    file = await asyncBufferFromFile(path);
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw foreign(e);
  }
  const present = new Set(metadata.schema.slice(1).map((c) => c.name));
  const missing = names.filter((n) => !present.has(n));
  if (missing.length) throw new TreeFileError(`${path}: not an explorer tree: no column ${missing.join(', ')}`);
  const row: RowRead = {};
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    const columns = new Map<string, unknown[]>(names.map((n) => [n, new Array<unknown>(rows)]));
    try {
      await parquetRead({ file, metadata, columns: [...names], rowStart: groupStart, rowEnd: groupStart + rows, compressors,
        onChunk: ({ columnName, columnData, rowStart }) => {
          const into = columns.get(columnName);
          if (!into) return;
          for (let i = 0; i < columnData.length; i++) {
            const at = rowStart - groupStart + i;
            if (at >= 0 && at < rows) into[at] = columnData[i];
          }
        } });
    } catch (e) {
      throw foreign(e);
    }
    const [key, move, castling, games, white, draws, black] = names.map((n) => columns.get(n)!);
    for (let i = 0; i < rows; i++) {
      const k = key![i];
      row.key = typeof k === 'bigint' ? BigInt.asUintN(64, k) : k;
      row.move = move![i];
      row.castling = castling![i];
      row.games = Number(games![i]);
      row.white = Number(white![i]);
      row.draws = Number(draws![i]);
      row.black = Number(black![i]);
      addChecked(tree, path, groupStart + i + 1, row);
    }
    groupStart += rows;
  }
  return tree;
}

/** Adds the rows of a tree file (Parquet, or NDJSON as treeNdjson writes) into `tree`. */
export async function readTree(path: string, tree: OpeningTree = new OpeningTree()): Promise<OpeningTree> {
  if (isParquetFile(path)) return readParquetTree(path, tree);
  const bytes = readFileSync(path);
  const lines = bytes.toString('utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new TreeFileError(`${path}: line ${i + 1}: neither Parquet nor an NDJSON tree row`);
    }
    const key = typeof r.key === 'string' && /^0x[0-9a-f]{1,16}$/i.test(r.key) ? BigInt(r.key) : r.key;
    addChecked(tree, path, i + 1, { ...r, key });
  });
  return tree;
}

/** A row read from a file, any field possibly missing or of the wrong type: addRow checks each. */
type RowRead = { [K in keyof ExplorerRow]?: unknown };

function addChecked(tree: OpeningTree, path: string, row: number, r: RowRead): void {
  try {
    tree.addRow(r as ExplorerRow);
  } catch (e) {
    throw new TreeFileError(`${path}: row ${row}: ${(e as Error).message}`);
  }
}
