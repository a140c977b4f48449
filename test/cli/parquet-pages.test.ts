/**
 * The Parquet pages the analyze command encodes from typed arrays (lib/cli/parquet-pages.ts).
 * Truth: two independent readers, DuckDB and hyparquet, read back every value, null and type, and
 * DuckDB's parquet_metadata the statistics (min, max and null count computed here by brute force),
 * on random columns of every physical type with nulls, values at the ends of their ranges,
 * non-ASCII strings and columns long enough to span several pages and row groups.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { decompress } from 'fzstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParquetFileWriter, encodeTypedRowGroups, loadParquetWriter, type ParquetColumn } from '../../lib/cli/analyze-parquet.js';
import { loadNative } from '../../lib/backends/native.js';
import { PAGE_BYTES, bytesColumn, typedColumn, type TypedColumn } from '../../lib/cli/parquet-pages.js';

const dir = mkdtempSync(join(tmpdir(), 'parquet-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => loadParquetWriter());

const SCHEMA: ParquetColumn[] = [
  { name: 'game', type: 'INT32', converted: 'UINT_32', required: true },
  { name: 'key', type: 'INT64', converted: 'UINT_64', required: false },
  { name: 'signed', type: 'INT64', required: false },
  { name: 'flag', type: 'BOOLEAN', required: false },
  { name: 'clock', type: 'DOUBLE', required: false },
  { name: 'see', type: 'INT32', converted: 'INT_16', required: false },
  { name: 'count', type: 'INT32', converted: 'UINT_8', required: false },
  { name: 'text', type: 'BYTE_ARRAY', converted: 'UTF8', required: false },
];

type Value = number | bigint | boolean | string | null;

/** `n` rows of random values from seed `s`: a null in `nullEvery` of the optional cells, about. */
function rowsOf(s: number, n: number, nullEvery: number, longText: boolean): Value[][] {
  let x = s;
  const r = (k: number): number => { x = (x * 1103515245 + 12345) % 2147483648; return Math.floor((x / 2147483648) * k); };
  const big = (): bigint => (BigInt(r(1 << 30)) << 34n) | (BigInt(r(1 << 30)) << 4n) | BigInt(r(16));
  const nul = (): boolean => nullEvery > 0 && r(nullEvery) === 0;
  const words = ['e4', 'Nf3', 'O-O', 'exd8=Q+', '', 'Ruy López', '王手', 'x'.repeat(300)];
  const cols: Value[][] = SCHEMA.map(() => []);
  for (let i = 0; i < n; i++) {
    cols[0]!.push(i === 0 ? 4294967295 : r(4) === 0 ? 0 : r(1 << 30));
    // Values that share their high 32 bits with the extremes (statistics compare the low half then).
    cols[1]!.push(nul() ? null : i % 97 === 5 ? 18446744073709551615n : i % 89 === 7 ? 0n : i % 13 === 2 ? BigInt(r(1000))
      : i % 17 === 9 ? 18446744073709551615n - BigInt(r(1000)) : big());
    cols[2]!.push(nul() ? null : i % 83 === 3 ? -9223372036854775808n : i % 79 === 1 ? 9223372036854775807n
      : i % 19 === 4 ? BigInt(r(1000)) - 500n : i % 23 === 6 ? BigInt(r(1000)) - 9223372036854775808n : big() - (1n << 63n));
    cols[3]!.push(nul() ? null : r(2) === 0);
    cols[4]!.push(nul() ? null : i % 71 === 0 ? -0 : (r(2000000) - 1000000) / 64);
    cols[5]!.push(nul() ? null : i % 67 === 0 ? -32768 : r(65536) - 32768);
    cols[6]!.push(nul() ? null : r(256));
    cols[7]!.push(nul() ? null : longText ? 'y'.repeat(1000 + r(2000)) : words[r(words.length)]!);
  }
  return cols;
}

/** The file of these columns (row groups of at most `groupRows`), zstd or Snappy pages. */
function write(name: string, columns: TypedColumn[], rows: number, groupRows: number, compress?: (b: Uint8Array) => Uint8Array): string {
  const file = join(dir, name);
  const fd = openSync(file, 'w');
  const w = ParquetFileWriter.open(fd, SCHEMA, compress !== undefined);
  // Two pieces, as two worker threads' groups appended one after the other.
  const half = Math.floor(rows / 2);
  const slice = (c: TypedColumn, a: number, b: number): TypedColumn => {
    const present = c.present?.slice(a, b);
    if (c.kind !== 'bytes') return { ...c, values: c.values.slice(a, b), present } as TypedColumn;
    const starts = c.starts.slice(a, b + 1);
    return { kind: 'bytes', bytes: c.bytes.subarray(starts[0], starts[b - a]), starts: starts.map((v) => v - starts[0]!), present };
  };
  for (const [a, b] of [[0, half], [half, rows]] as const) {
    w.append(encodeTypedRowGroups(SCHEMA, columns.map((c) => slice(c, a, b)), b - a, groupRows, compress));
  }
  w.finish();
  closeSync(fd);
  return file;
}

/** Brute-force statistics of a column's non-null values, as DuckDB prints them. */
function statsOf(values: Value[]): { min: string | null; max: string | null; nulls: number } {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return { min: null, max: null, nulls: values.length };
  const sorted = [...present].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  const show = (v: Value): string => (typeof v === 'boolean' ? String(v) : typeof v === 'number' ? (Object.is(v, -0) ? '0' : String(v)) : String(v));
  return { min: show(sorted[0]!), max: show(sorted[sorted.length - 1]!), nulls: values.length - present.length };
}

const zstd = (() => {
  try {
    const z = loadNative().zstd;
    return z && ((b: Uint8Array) => z.compress(b, 1));
  } catch {
    return undefined;
  }
})();

describe('Parquet pages from typed arrays, read back by DuckDB and hyparquet', () => {
  it.each([
    ['short rows, few nulls, Snappy', 1, 5000, 30, false, 1 << 16, false],
    ['short rows, half null, zstd', 2, 5000, 2, false, 1000, true],
    ['every optional cell null', 3, 300, 1, false, 1 << 16, false],
    ['long strings over several pages', 4, 3000, 10, true, 1 << 16, true],
    ['one row', 5, 1, 0, false, 1 << 16, false],
    ['no nulls at all, groups of 7 rows', 6, 500, 0, false, 7, true],
  ] as const)('%s', async (name, seed, n, nullEvery, longText, groupRows, withZstd) => {
    if (withZstd && !zstd) return;
    const values = rowsOf(seed, n, nullEvery, longText);
    const columns = SCHEMA.map((c, i) => typedColumn(c, values[i]!));
    const file = write(`${seed}.parquet`, columns, n, groupRows, withZstd ? zstd : undefined);
    const expected = Array.from({ length: n }, (_, r) => Object.fromEntries(SCHEMA.map((c, i) => [c.name, values[i]![r]!])));
    // hyparquet.
    const buf = readFileSync(file);
    const file2 = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const read = await parquetReadObjects({ file: file2, utf8: true, compressors: { ZSTD: (input: Uint8Array) => decompress(input) } });
    expect(read.length).toBe(n);
    for (let r = 0; r < n; r++) {
      for (const c of SCHEMA) {
        const want = expected[r]![c.name];
        const got = read[r]![c.name];
        if (!Object.is(got, want) && !(typeof want === 'number' && got === want)) expect(got, `${c.name} row ${r}`).toEqual(want);
      }
    }
    // DuckDB: the values, the types and the statistics.
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = (await con.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjects();
    expect(rows.length).toBe(n);
    for (let r = 0; r < n; r++) {
      for (const c of SCHEMA) {
        const want = expected[r]![c.name];
        const got = rows[r]![c.name];
        if (!(got === want || (typeof want === 'number' && Number(got) === want))) expect(got, `${c.name} row ${r}`).toEqual(want);
      }
    }
    const types = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjects().map((x) => String(x.column_type));
    expect(types).toEqual(['UINTEGER', 'UBIGINT', 'BIGINT', 'BOOLEAN', 'DOUBLE', 'SMALLINT', 'UTINYINT', 'VARCHAR']);
    // Statistics per row group, each group's rows as the file has them.
    const meta = (await con.runAndReadAll(`SELECT row_group_id, row_group_num_rows, column_id, stats_min_value, stats_max_value, stats_null_count, num_values
      FROM parquet_metadata('${file}') ORDER BY row_group_id, column_id`)).getRowObjects();
    let first = 0;
    const groupRowsSeen: number[] = [];
    for (const m of meta) {
      const c = Number(m.column_id);
      const count = Number(m.row_group_num_rows);
      if (c === 0) groupRowsSeen.push(count);
      expect(Number(m.num_values)).toBe(count);
      if (SCHEMA[c]!.type !== 'BYTE_ARRAY') {
        const want = statsOf(values[c]!.slice(first, first + count));
        // DuckDB prints doubles its own way (0.0, 1.5e+20): compared as numbers.
        const shown = (v: unknown): unknown => (SCHEMA[c]!.type === 'DOUBLE' && v !== null ? String(Number(v)) : v);
        expect({ min: shown(m.stats_min_value), max: shown(m.stats_max_value), nulls: m.stats_null_count === null ? null : Number(m.stats_null_count) },
          `row group ${m.row_group_id} column ${SCHEMA[c]!.name}`).toEqual(want);
      }
      if (c === SCHEMA.length - 1) first += count;
    }
    expect(groupRowsSeen.reduce((a, b) => a + b, 0)).toBe(n);
    expect(Math.max(...groupRowsSeen)).toBeLessThanOrEqual(groupRows);
    if (longText) {
      const pagesRead = (await con.runAndReadAll(`SELECT max(total_uncompressed_size) AS u FROM parquet_metadata('${file}') WHERE column_id = 7`)).getRowObjects()[0]!;
      expect(Number(pagesRead.u)).toBeGreaterThan(2 * PAGE_BYTES);
    }
    con.closeSync();
  });

  it('a null in the required column is an error, not a file that lies', () => {
    const columns = SCHEMA.map((c, i) => typedColumn(c, rowsOf(7, 10, 3, false)[i]!));
    columns[0] = { kind: 'int32', values: new Int32Array(10), present: new Uint8Array(10).fill(1).fill(0, 4, 5) };
    expect(() => encodeTypedRowGroups(SCHEMA, columns, 10, 100)).toThrow(/null in the required column game/);
  });

  it('bytesColumn: UTF-8 bytes, nulls as empty spans', () => {
    const c = bytesColumn(['ab', null, 'é', new Uint8Array([1, 2]), '']);
    expect(c.kind).toBe('bytes');
    if (c.kind !== 'bytes') return;
    expect([...c.starts]).toEqual([0, 2, 2, 4, 6, 6]);
    expect([...c.bytes]).toEqual([97, 98, 0xc3, 0xa9, 1, 2]);
    expect([...c.present!]).toEqual([1, 0, 1, 1, 1]);
  });
});
