import { ByteSink } from '../core/byte-sink.js';

/**
 * Parquet column chunks encoded straight from typed arrays ("Apache Parquet file format",
 * https://parquet.apache.org/docs/file-format/): the rows of a piece of games become row groups with
 * no JavaScript value per cell.
 *
 * Every column is written PLAIN in DATA_PAGE_V2 pages of about PAGE_BYTES of values: INT32, INT64
 * and DOUBLE as little-endian words, BOOLEAN bit-packed, BYTE_ARRAY as a 4-byte length and the
 * bytes. An OPTIONAL column's definition levels (bit width 1) are RLE runs of the RLE / bit-packed
 * hybrid, uncompressed as DATA_PAGE_V2 keeps them; the values are compressed with the given codec.
 * The page header is the Thrift compact protocol's PageHeader struct.
 *
 * The row groups' metadata are hyparquet's objects (ColumnChunk, ColumnMetaData, statistics as JS
 * values) so that its footer writer (FooterCodec in lib/cli/analyze-parquet.ts) encodes them.
 */

/** A column's values for the rows of a piece: `present[r]` 0 where row r is null (no array: none is). */
export type TypedColumn =
  | { kind: 'int32'; values: Int32Array; present?: Uint8Array }
  | { kind: 'int64'; values: BigUint64Array | BigInt64Array; present?: Uint8Array }
  | { kind: 'bool'; values: Uint8Array; present?: Uint8Array }
  | { kind: 'double'; values: Float64Array; present?: Uint8Array }
  /**
   * Row r's bytes are bytes[starts[r]] up to bytes[starts[r + 1]] (empty when it is null); `plain`:
   * each span is already the value's PLAIN encoding (its length, 4 bytes little-endian, then its bytes).
   */
  | { kind: 'bytes'; bytes: Uint8Array; starts: Uint32Array; present?: Uint8Array; plain?: boolean };

/** What a column is in the file (ParquetColumn of lib/cli/analyze-parquet.ts). */
export interface PageColumn {
  name: string;
  type: 'INT32' | 'INT64' | 'BYTE_ARRAY' | 'BOOLEAN' | 'DOUBLE';
  converted?: string;
  required: boolean;
}

/** The values' bytes per page, about: hyparquet-writer's page size. */
export const PAGE_BYTES = 1 << 20;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A growing byte buffer with the Thrift varint and whole-array appends the pages need. */
class Bytes extends ByteSink {
  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.buf[this.n++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.n++] = v;
  }
  put(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.n);
    this.n += bytes.length;
  }
}

/** Thrift compact protocol: a field header (delta from the last field id, type) and an i32 as a zigzag varint. */
function i32Field(out: Bytes, delta: number, v: number): void {
  out.byte((delta << 4) | 5);
  out.varint(v >= 0 ? 2 * v : -2 * v - 1);
}

/** PageHeader { 1: type DATA_PAGE_V2, 2: uncompressed size, 3: compressed size, 8: DataPageHeaderV2 { num_values, num_nulls, num_rows, encoding PLAIN, definition and repetition levels' byte lengths } }. */
function pageHeader(out: Bytes, uncompressed: number, compressed: number, rows: number, nulls: number, levelBytes: number): void {
  i32Field(out, 1, 3);
  i32Field(out, 1, uncompressed);
  i32Field(out, 1, compressed);
  out.byte((5 << 4) | 12);
  i32Field(out, 1, rows);
  i32Field(out, 1, nulls);
  i32Field(out, 1, rows);
  i32Field(out, 1, 0);
  i32Field(out, 1, levelBytes);
  i32Field(out, 1, 0);
  out.byte(0);
  out.byte(0);
}

/** Definition levels of rows [a, b) (1 present, 0 null) as RLE runs of bit width 1; the null rows counted. */
function levels(out: Bytes, present: Uint8Array, a: number, b: number): number {
  let nulls = 0;
  let r = a;
  while (r < b) {
    const v = present[r] ? 1 : 0;
    let e = r + 1;
    while (e < b && (present[e] ? 1 : 0) === v) e++;
    out.varint((e - r) * 2);
    out.byte(v);
    if (v === 0) nulls += e - r;
    r = e;
  }
  return nulls;
}

/** The width of one value in bytes (BYTE_ARRAY: its length word; its bytes are counted apart). */
function width(c: TypedColumn): number {
  switch (c.kind) {
    case 'int32': return 4;
    case 'int64': case 'double': return 8;
    case 'bool': return 0.125;
    case 'bytes': return 4;
  }
}

/** The PLAIN values of the present rows of [a, b). */
function plainValues(out: Bytes, c: TypedColumn, a: number, b: number): void {
  const present = c.present;
  if (c.kind === 'bool') {
    let count = 0;
    for (let r = a; r < b; r++) if (!present || present[r]) count++;
    const start = out.n;
    const size = (count + 7) >> 3;
    out.room(size);
    out.buf.fill(0, start, start + size);
    let i = 0;
    for (let r = a; r < b; r++) {
      if (present && !present[r]) continue;
      if (c.values[r]) out.buf[start + (i >> 3)]! |= 1 << (i & 7);
      i++;
    }
    out.n += size;
    return;
  }
  if (c.kind === 'bytes') {
    // A null row's span is empty: the bytes of [a, b) and a length word per present row.
    const src = c.bytes, st = c.starts;
    // Spans already PLAIN: the rows' bytes as they are, a null row's span being empty.
    if (c.plain) { out.put(src.subarray(st[a]!, st[b]!)); return; }
    let count = b - a;
    if (present) for (let r = a; r < b; r++) if (!present[r]) count--;
    out.room(4 * count + st[b]! - st[a]!);
    const buf = out.buf;
    let n = out.n;
    for (let r = a; r < b; r++) {
      if (present && !present[r]) continue;
      let s = st[r]!;
      const e = st[r + 1]!, len = e - s;
      buf[n] = len & 0xff;
      buf[n + 1] = (len >>> 8) & 0xff;
      buf[n + 2] = (len >>> 16) & 0xff;
      buf[n + 3] = len >>> 24;
      n += 4;
      // Short values (SAN, FEN) byte by byte: a view per value would cost more than the copy.
      if (len > 256) { buf.set(src.subarray(s, e), n); n += len; } else while (s < e) buf[n++] = src[s++]!;
    }
    out.n = n;
    return;
  }
  const size = c.kind === 'int32' ? 4 : 8;
  const values = c.values;
  if (LITTLE_ENDIAN && !present) {
    out.put(new Uint8Array(values.buffer, values.byteOffset + a * size, (b - a) * size));
    return;
  }
  out.room((b - a) * size);
  const view = new DataView(out.buf.buffer, out.buf.byteOffset);
  for (let r = a; r < b; r++) {
    if (present && !present[r]) continue;
    if (c.kind === 'int32') view.setInt32(out.n, c.values[r]!, true);
    else if (c.kind === 'double') view.setFloat64(out.n, c.values[r]!, true);
    else view.setBigUint64(out.n, BigInt.asUintN(64, c.values[r]!), true);
    out.n += size;
  }
}

/** hyparquet's statistics of a column's rows [a, b): min and max as JS values, null_count (and nan_count for DOUBLE). */
function statistics(c: TypedColumn, col: PageColumn, a: number, b: number): object {
  const present = c.present;
  let nulls = 0;
  if (c.kind === 'int64') {
    // Compared as 32-bit halves (unsigned for UINT_64, the high half signed otherwise); one bigint each at the end.
    const halves = new Uint32Array(c.values.buffer, c.values.byteOffset + 8 * a, 2 * (b - a));
    const signed = !(c.values instanceof BigUint64Array);
    const hiOf = (i: number): number => (signed ? halves[2 * i + 1]! | 0 : halves[2 * i + 1]!);
    let min = -1, max = -1;
    for (let i = 0; i < b - a; i++) {
      if (present && !present[a + i]) { nulls++; continue; }
      if (min < 0) { min = max = i; continue; }
      const hi = hiOf(i), lo = halves[2 * i]!;
      const mh = hiOf(min), xh = hiOf(max);
      if (hi < mh || (hi === mh && lo < halves[2 * min]!)) min = i;
      if (hi > xh || (hi === xh && lo > halves[2 * max]!)) max = i;
    }
    return { min_value: min < 0 ? undefined : c.values[a + min], max_value: max < 0 ? undefined : c.values[a + max], null_count: BigInt(nulls), nan_count: undefined };
  }
  if (c.kind === 'bytes') throw new Error('parquet-pages: no statistics for byte arrays');
  const unsigned = c.kind === 'int32' && col.converted?.startsWith('UINT') === true;
  let min: number | undefined, max: number | undefined;
  let nans = 0;
  for (let r = a; r < b; r++) {
    if (present && !present[r]) { nulls++; continue; }
    const v = unsigned ? c.values[r]! >>> 0 : c.values[r]!;
    if (v !== v) { nans++; continue; }
    if (min === undefined || v < min) min = v;
    if (max === undefined || v > max) max = v;
  }
  if (c.kind === 'bool') {
    return { min_value: min === undefined ? undefined : min === 1, max_value: max === undefined ? undefined : max === 1, null_count: BigInt(nulls), nan_count: undefined };
  }
  if (min === 0) min = -0;
  if (max === 0) max = 0;
  return { min_value: min, max_value: max, null_count: BigInt(nulls), nan_count: c.kind === 'double' ? BigInt(nans) : undefined };
}

/** A column chunk of rows [a, b): its pages appended to `out`; hyparquet's ColumnChunk object, offsets from `out`'s start. */
function columnChunk(out: Bytes, c: TypedColumn, col: PageColumn, a: number, b: number, codec: 'ZSTD' | 'SNAPPY',
  compress: (bytes: Uint8Array) => Uint8Array, scratch: { values: Bytes; levels: Bytes; header: Bytes }): object {
  if (col.required && c.present) {
    for (let r = a; r < b; r++) if (!c.present[r]) throw new Error(`parquet-pages: a null in the required column ${col.name}`);
  }
  const start = out.n;
  let uncompressedTotal = 0;
  let pages = 0;
  const w = width(c);
  let r = a;
  do {
    // A page ends after about PAGE_BYTES of values.
    let e = r;
    let bytes = 0;
    if (c.kind === 'bytes') {
      const word = c.plain ? 0 : 4;
      while (e < b && (e === r || bytes < PAGE_BYTES)) { bytes += word + c.starts[e + 1]! - c.starts[e]!; e++; }
    } else e = Math.min(b, r + Math.max(1, Math.floor(PAGE_BYTES / w)));
    const lv = scratch.levels, vs = scratch.values;
    lv.n = 0;
    vs.n = 0;
    // A required column's mask was checked above: no nulls.
    let nulls = 0;
    if (!col.required) {
      if (c.present) nulls = levels(lv, c.present, r, e);
      else if (e > r) { lv.varint((e - r) * 2); lv.byte(1); }
    }
    plainValues(vs, c, r, e);
    const values = vs.buf.subarray(0, vs.n);
    const packed = compress(values);
    const header = scratch.header;
    header.n = 0;
    pageHeader(header, lv.n + vs.n, lv.n + packed.length, e - r, nulls, lv.n);
    out.put(header.buf.subarray(0, header.n));
    out.put(lv.buf.subarray(0, lv.n));
    out.put(packed);
    uncompressedTotal += header.n + lv.n + vs.n;
    pages++;
    r = e;
  } while (r < b);
  const stats = col.type !== 'BYTE_ARRAY';
  return {
    meta_data: {
      type: col.type,
      encodings: ['PLAIN'],
      path_in_schema: [col.name],
      codec,
      num_values: BigInt(b - a),
      total_compressed_size: BigInt(out.n - start),
      total_uncompressed_size: BigInt(uncompressedTotal),
      data_page_offset: BigInt(start),
      dictionary_page_offset: undefined,
      statistics: stats ? statistics(c, col, a, b) : undefined,
      encoding_stats: stats ? [{ page_type: 'DATA_PAGE_V2', encoding: 'PLAIN', count: pages }] : undefined,
      geospatial_statistics: undefined,
    },
    file_offset: BigInt(start),
  };
}

/**
 * Rows [0, rows) of `columns` (schema order) as row groups of at most `groupRows` rows (groups of
 * equal size), pages compressed with `compress` under `codec`: the column chunks' bytes one after
 * the other, and hyparquet's RowGroup objects with byte offsets counted from the start of `bytes`.
 */
export function encodeTypedGroups(schema: readonly PageColumn[], columns: readonly TypedColumn[], rows: number, groupRows: number,
  codec: 'ZSTD' | 'SNAPPY', compress: (bytes: Uint8Array) => Uint8Array): { bytes: Uint8Array; groups: object[]; rows: number } {
  if (columns.length !== schema.length) throw new Error('parquet-pages: one column per schema entry');
  const out = new Bytes(1 << 16);
  const groups: object[] = [];
  const scratch = { values: new Bytes(1 << 16), levels: new Bytes(1 << 10), header: new Bytes(64) };
  if (rows > 0) {
    const size = Math.ceil(rows / Math.ceil(rows / groupRows));
    for (let a = 0; a < rows; a += size) {
      const b = Math.min(rows, a + size);
      const groupStart = out.n;
      const chunks = schema.map((col, i) => columnChunk(out, columns[i]!, col, a, b, codec, compress, scratch));
      let total = 0n;
      for (const ch of chunks as { meta_data: { total_uncompressed_size: bigint } }[]) total += ch.meta_data.total_uncompressed_size;
      groups.push({ columns: chunks, total_byte_size: total, num_rows: BigInt(b - a), total_compressed_size: BigInt(out.n - groupStart) });
    }
  }
  return { bytes: new Uint8Array(out.bytes()), groups, rows };
}

/** A bytes column written value by value: `add` a row's string or bytes (null or undefined: a null row), then `column()`. */
export class BytesColumnBuilder {
  private readonly out: ByteSink;
  private rows = 0;
  private readonly starts: Uint32Array;
  private present: Uint8Array | undefined;

  constructor(private readonly total: number, bytesGuess = 8 * total) {
    this.out = new ByteSink(Math.max(64, bytesGuess));
    this.starts = new Uint32Array(total + 1);
  }

  add(v: string | Uint8Array | null | undefined): void {
    const r = this.rows++;
    const out = this.out;
    if (v === null || v === undefined) (this.present ??= new Uint8Array(this.total).fill(1))[r] = 0;
    else if (typeof v === 'string') {
      out.room(3 * v.length);
      out.n += asciiOrUtf8(out.buf, out.n, v);
    } else {
      out.room(v.length);
      out.buf.set(v, out.n);
      out.n += v.length;
    }
    this.starts[r + 1] = out.n;
  }

  /** A row's bytes src[s, e), copied. */
  addBytes(src: Uint8Array, s: number, e: number): void {
    const r = this.rows++;
    this.out.room(e - s);
    const buf = this.out.buf;
    let n = this.out.n;
    while (s < e) buf[n++] = src[s++]!;
    this.out.n = n;
    this.starts[r + 1] = n;
  }

  column(): TypedColumn {
    if (this.rows !== this.total) throw new Error(`BytesColumnBuilder: ${this.rows} rows added of ${this.total}`);
    return { kind: 'bytes', bytes: this.out.bytes(), starts: this.starts, present: this.present };
  }
}

/** UTF-8 bytes of strings (null: a null row) as a bytes column. */
export function bytesColumn(values: readonly (string | Uint8Array | null | undefined)[]): TypedColumn {
  const out = new BytesColumnBuilder(values.length);
  for (const v of values) out.add(v);
  return out.column();
}

/** Writes `s` at `at` (ASCII byte by byte, else Buffer's UTF-8 encoder); the bytes written. */
export function asciiOrUtf8(buf: Buffer, at: number, s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const ch = s.charCodeAt(i);
    if (ch >= 0x80) return buf.write(s, at, 'utf8');
    buf[at + i] = ch;
  }
  return n;
}

/** A column of JS values (null: a null row) typed as `col` says. */
export function typedColumn(col: PageColumn, values: readonly unknown[]): TypedColumn {
  const n = values.length;
  if (col.type === 'BYTE_ARRAY') return bytesColumn(values as (string | Uint8Array | null)[]);
  let present: Uint8Array | undefined;
  const isNull = (r: number): boolean => {
    const v = values[r];
    if (v !== null && v !== undefined) return false;
    (present ??= new Uint8Array(n).fill(1))[r] = 0;
    return true;
  };
  switch (col.type) {
    case 'INT32': {
      const out = new Int32Array(n);
      for (let r = 0; r < n; r++) if (!isNull(r)) out[r] = Number(values[r]);
      return { kind: 'int32', values: out, present };
    }
    case 'INT64': {
      const out = col.converted === 'UINT_64' ? new BigUint64Array(n) : new BigInt64Array(n);
      for (let r = 0; r < n; r++) if (!isNull(r)) out[r] = BigInt(values[r] as bigint | number);
      return { kind: 'int64', values: out, present };
    }
    case 'DOUBLE': {
      const out = new Float64Array(n);
      for (let r = 0; r < n; r++) if (!isNull(r)) out[r] = Number(values[r]);
      return { kind: 'double', values: out, present };
    }
    case 'BOOLEAN': {
      const out = new Uint8Array(n);
      for (let r = 0; r < n; r++) if (!isNull(r)) out[r] = values[r] ? 1 : 0;
      return { kind: 'bool', values: out, present };
    }
  }
}
