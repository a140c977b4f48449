/**
 * `bitboard-patterns analyze positions.epd --format parquet [--out FILE]`: the records of FEN / EPD
 * lines as an Apache Parquet file, with the CSV output's columns in its order, typed:
 * - `line`: INT32 annotated UINT_32, the input line number (REQUIRED);
 * - `input`: the line as read (UTF-8, surrounding blanks trimmed);
 * - the features as the PGN input's per-position columns (featureParquetColumns): square sets and
 *   `polyglotKey` UINT_64, flags BOOLEAN, small counts UINT_8;
 * - `wdl` INT_8 and `dtz` INT_16 with --syzygy (null where the tables cannot answer);
 * - `error`: a line that does not parse has its line, its input and the FenError's message here,
 *   nulls elsewhere (a line longer than MAX_LINE_BYTES: its first 64 bytes and "..."). Blank lines and `#` comment lines have no row (the rows keep the input's line
 *   numbers), as in the other formats.
 *
 * The lines are read in pieces (the stdin and gzip reader of the text formats), analysed on this
 * thread by the backend chosen, and written as row groups of --row-group rows (ROW_GROUP_ROWS by
 * default) with zstd pages where the addon has libzstd, else Snappy (lib/cli/analyze-parquet.ts).
 */
import type { Backend } from '../backends/contract.js';
import { analyzeParsed, isSkippedLine, parseText, type EndgameProber } from '../batch/batch.js';
import { FEATURES } from '../core/features.js';
import { FenError } from '../core/position.js';
import { lineAt, trimAscii } from '../core/lines.js';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../core/types.js';
import { MAX_LINE_BYTES } from './analyze-control.js';
import {
  SYZYGY_COLUMNS, encodeRowGroups, featureParquetColumns, text, u32, type ColumnValues, type EncodedGroups, type PageCompressor,
  type ParquetColumn,
} from './analyze-parquet.js';

/** The columns of FEN / EPD records: line, input, the features, wdl and dtz with tables, error. */
export function fenParquetColumns(ids: readonly number[], syzygy: boolean): ParquetColumn[] {
  return [u32('line', true), text('input'), ...featureParquetColumns(ids, false), ...(syzygy ? SYZYGY_COLUMNS : []), text('error')];
}

/** Rows gathered from piece to piece, encoded as a row group once there are enough of them. */
export class FenParquetRows {
  private columns: ColumnValues[];
  rows = 0;
  /** Lines with a row that are errors, and every line with a row. */
  errors = 0;
  lines = 0;
  /** "line N: message" of the first error. */
  firstError: string | undefined;

  constructor(private readonly b: Backend, private readonly ids: readonly number[], private readonly schema: ParquetColumn[],
    private readonly tb: EndgameProber | undefined, private readonly chess960: boolean) {
    this.columns = schema.map(() => []);
  }

  /**
   * Adds the rows of `bytes` (whole lines; its first line is number `firstLine`); returns how many
   * lines the bytes hold, blank and comment lines included. With `strict`, the rows stop after the
   * first error's (then `firstError` is set).
   */
  add(bytes: Uint8Array, firstLine: number, strict: boolean): number {
    const parsed = parseText(this.b, bytes, true, undefined, this.chess960);
    const n = parsed.valid.length;
    const { outs, wdl, dtz } = analyzeParsed(this.b, parsed, this.ids, this.tb);
    const errorAt = new Map(parsed.errors.map((e) => [e.index, e.error]));
    const cols = this.columns;
    const last = cols.length - 1;
    for (let i = 0; i < n; i++) {
      const error = errorAt.get(i);
      if (error && isSkippedLine(bytes, parsed.lineStarts, i)) continue;
      const line = firstLine + i;
      if (error) {
        const start = parsed.lineStarts[i]!;
        if (parsed.lineStarts[i + 1]! - 1 - start > MAX_LINE_BYTES) this.tooLong(line, Buffer.from(bytes.subarray(start, start + 64)).toString('latin1'));
        else this.error(line, lineAt(bytes, parsed.lineStarts, i), error);
        if (strict) return n;
        continue;
      }
      this.rows++;
      this.lines++;
      let c = 0;
      cols[c++]!.push(line);
      cols[c++]!.push(trimAscii(lineAt(bytes, parsed.lineStarts, i)));
      for (const f of this.ids) {
        const info = FEATURES[f]!;
        const a = outs[f]!;
        if (info.perColor) {
          cols[c++]!.push(a[2 * i]!);
          cols[c++]!.push(a[2 * i + 1]!);
        } else cols[c++]!.push(info.type === 'flag' ? a[i] === 1 : a[i]!);
      }
      if (wdl && dtz) {
        cols[c++]!.push(wdl[i] === SYZYGY_WDL_NONE ? null : wdl[i]!);
        cols[c++]!.push(dtz[i] === SYZYGY_DTZ_NONE ? null : dtz[i]!);
      }
      cols[last]!.push(null);
    }
    return n;
  }

  /** The row of a line longer than MAX_LINE_BYTES, as the other formats write it: `head` is its first 64 bytes. */
  tooLong(line: number, head: string): void {
    this.error(line, `${head}...`, new FenError('fen', head, `line longer than ${MAX_LINE_BYTES} bytes`));
  }

  /** The row of a line that did not parse: its number, its input and the error; nulls elsewhere. */
  error(line: number, input: string, error: FenError): void {
    const cols = this.columns;
    cols[0]!.push(line);
    cols[1]!.push(trimAscii(input));
    for (let c = 2; c < cols.length - 1; c++) cols[c]!.push(null);
    cols[cols.length - 1]!.push(error.message);
    this.rows++;
    this.lines++;
    this.errors++;
    this.firstError ??= `line ${line}: ${error.message}`;
  }

  /** The rows gathered so far as row groups of at most `groupRows` rows; the rows start anew. */
  take(groupRows: number, zstd: PageCompressor | undefined): EncodedGroups {
    const encoded = encodeRowGroups(this.schema, this.columns, this.rows, groupRows, zstd);
    this.columns = this.schema.map(() => []);
    this.rows = 0;
    return encoded;
  }
}
