/**
 * The analyze command's Parquet footer (ParquetFileWriter in lib/cli/analyze-parquet.ts) keeps each
 * row group's footer entry as bytes from the moment it is appended. Truth: hyparquet-writer's own
 * footer for the same row groups kept as its objects to the end (what the writer did before), byte
 * for byte, for no row group, a few (a one-byte list header) and many (the long list header), with
 * statistics of every physical type; and DuckDB reading the file back.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { ParquetFileWriter, encodeRowGroups, loadParquetWriter, type ColumnValues, type EncodedGroups, type ParquetColumn } from '../../lib/cli/analyze-parquet.js';
import { expectSameBytes } from '../support/bytes.js';

const dir = mkdtempSync(join(tmpdir(), 'parquet-footer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => loadParquetWriter());

const SCHEMA: ParquetColumn[] = [
  { name: 'game', type: 'INT32', converted: 'UINT_32', required: true },
  { name: 'key', type: 'INT64', converted: 'UINT_64', required: false },
  { name: 'check', type: 'BOOLEAN', required: false },
  { name: 'clock', type: 'DOUBLE', required: false },
  { name: 'see', type: 'INT32', converted: 'INT_16', required: false },
  { name: 'san', type: 'BYTE_ARRAY', converted: 'UTF8', required: false },
];

/** `n` rows from seed `s` (nulls in the optional columns now and then). */
function piece(s: number, n: number, first: number): { columns: ColumnValues[]; rows: number } {
  let x = s;
  const r = (k: number) => { x = (x * 1103515245 + 12345) % 2147483648; return x % k; };
  const cols: ColumnValues[] = SCHEMA.map(() => []);
  for (let i = 0; i < n; i++) {
    cols[0]!.push(first + i);
    cols[1]!.push(r(9) === 0 ? null : BigInt(r(1 << 30)) * 4096n + BigInt(r(4096)));
    cols[2]!.push(r(7) === 0 ? null : r(2) === 0);
    cols[3]!.push(r(5) === 0 ? null : r(100000) / 10);
    cols[4]!.push(r(6) === 0 ? null : r(2000) - 1000);
    cols[5]!.push(r(4) === 0 ? null : ['e4', 'Nf3', 'O-O', 'exd8=Q+'][r(4)]!);
  }
  return { columns: cols, rows: n };
}

/** hyparquet's file of the same row groups, its footer from its objects kept to the end. */
function reference(encoded: EncodedGroups[]): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from('PAR1', 'latin1')];
  const groups: object[] = [];
  let offset = 4n;
  let rows = 0n;
  for (const e of encoded) {
    if (e.rows === 0) continue;
    for (const g of structuredClone(e.groups) as { columns: { file_offset: bigint; meta_data: { data_page_offset: bigint; dictionary_page_offset?: bigint } }[] }[]) {
      for (const c of g.columns) {
        c.file_offset += offset;
        c.meta_data.data_page_offset += offset;
        if (c.meta_data.dictionary_page_offset !== undefined) c.meta_data.dictionary_page_offset += offset;
      }
      groups.push(g);
    }
    parts.push(e.bytes);
    offset += BigInt(e.bytes.length);
    rows += BigInt(e.rows);
  }
  const bytes = new ByteWriter();
  const w = new ParquetWriter({ writer: bytes, schema: [{ name: 'root', num_children: SCHEMA.length }, ...SCHEMA.map((c) => ({ name: c.name, type: c.type,
    ...(c.converted && { converted_type: c.converted }), repetition_type: c.required ? 'REQUIRED' as const : 'OPTIONAL' as const }))],
  codec: 'SNAPPY', createdBy: 'bitboard-patterns analyze' }) as unknown as { row_groups: object[]; num_rows: bigint; finish(): void };
  w.row_groups.push(...groups);
  w.num_rows = rows;
  w.finish();
  parts.push(new Uint8Array(bytes.getBytes()).subarray(4));
  return Buffer.concat(parts);
}

describe('the Parquet footer of appended row groups', () => {
  // Piece 2 is empty (no row group); 15 and 16 pieces make 14 and 15 groups, the last with the
  // long list header; 40 pieces cut into groups of at most 20 rows make over a hundred.
  it.each([[0, 0], [1, 1], [3, 2], [15, 14], [16, 15], [40, 231]])('%i pieces, %i row groups: the bytes hyparquet writes', async (pieces, groupCount) => {
    const encoded: EncodedGroups[] = [];
    let first = 1;
    for (let k = 0; k < pieces; k++) {
      const n = k === 2 ? 0 : 30 + ((k * 37) % 170);
      const p = piece(k + 1, n, first);
      first += n;
      encoded.push(encodeRowGroups(SCHEMA, p.columns, p.rows, pieces === 40 ? 20 : 1 << 16));
    }
    const want = reference(encoded);
    const file = join(dir, `f${pieces}.parquet`);
    const fd = openSync(file, 'w');
    const w = ParquetFileWriter.open(fd, SCHEMA, false);
    for (const e of encoded) w.append({ ...e, groups: structuredClone(e.groups) });
    w.finish();
    closeSync(fd);
    expectSameBytes(readFileSync(file), want, 'Parquet file');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const groups = Number((await con.runAndReadAll(`SELECT count(*) AS n FROM parquet_metadata('${file}') WHERE column_id = 0`)).getRowObjectsJson()[0]!.n);
    expect(groups).toBe(encoded.reduce((n, e) => n + (e.rows ? e.groups.length : 0), 0));
    expect(groups).toBe(groupCount);
    const rows = (await con.runAndReadAll(`SELECT count(*) AS n, coalesce(sum(game), 0) AS s FROM read_parquet('${file}')`)).getRowObjectsJson()[0]!;
    expect(Number(rows.n)).toBe(first - 1);
    expect(Number(rows.s)).toBe(((first - 1) * first) / 2);
    con.closeSync();
  });
});
