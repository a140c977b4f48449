/**
 * `bitboard-patterns analyze ... --engine [CMD] (--engine-nodes N | --engine-depth D | --engine-ms T)`:
 * the records of `analyze` without the engine options (the same command run as a child process, so
 * its records are byte for byte those of a run without --engine), each with four more fields from
 * an EnginePool search of its position: `engine_cp`, `engine_mate` (from White's view; one of them
 * null), `best_move` and `pv` (UCI moves, space-separated). A record with an error, or a position
 * the engine could not analyse, gets nulls (empty CSV cells). NDJSON, CSV and Parquet (through a
 * temporary file: withEngineParquet), FEN / EPD and PGN input.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { jsBackend } from '../backends/js/index.js';
import { FenError, parseFen, positionOfPacked } from '../core/position.js';
import { parseLine } from '../core/lines.js';
import type { Position } from '../core/types.js';
import type { EngineResult } from '../engine/index.js';
import { UsageError } from './args.js';
import { startPool, takeEngineOptions, withAnswers } from './engine-options.js';
import { writeAllSync } from './output.js';
import type { ColumnValues, ParquetColumn } from './analyze-parquet.js';

const checkers = jsBackend.checkers;

/** The first `n` fields of a CSV row (RFC 4180 quoting). */
function csvFields(row: string, n: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (out.length < n && i <= row.length) {
    if (row[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = row.indexOf('"', i);
        if (q < 0) { v += row.slice(i); i = row.length + 1; break; }
        v += row.slice(i, q);
        if (row[q + 1] === '"') { v += '"'; i = q + 2; } else { i = q + 2; break; }
      }
      out.push(v);
    } else {
      const c = row.indexOf(',', i);
      const end = c < 0 ? row.length : c;
      out.push(row.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

/** The position of a record's text: a PGN record's FEN, or a FEN / EPD input line. */
function positionOf(text: string, pgn: boolean, chess960: boolean): Position | undefined {
  try {
    if (pgn) return parseFen(text, checkers, chess960 ? { chess960 } : undefined);
    const r = parseLine(text, true, checkers, chess960);
    return r instanceof FenError ? undefined : positionOfPacked(r);
  } catch {
    return undefined;
  }
}

function fieldsOf(a: EngineResult | undefined): { cp: number | null; mate: number | null; best: string | null; pv: string | null } {
  if (!a || 'error' in a) return { cp: null, mate: null, best: null, pv: null };
  return { cp: 'cp' in a.score ? a.score.cp : null, mate: 'mate' in a.score ? a.score.mate : null, best: a.bestMove, pv: a.pv.join(' ') };
}

export async function runWithEngine(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof takeEngineOptions>;
  try {
    parsed = takeEngineOptions(args, true);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`bitboard-patterns analyze: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const { o, rest } = parsed;
  const chess960 = rest.includes('--chess960');
  const f = rest.indexOf('--format');
  if (f >= 0 && rest[f + 1] === 'parquet') return withEngineParquet(parsed, chess960);
  let pool;
  try {
    pool = await startPool(o);
  } catch (e) {
    process.stderr.write(`bitboard-patterns analyze: --engine: ${(e as Error).message}\n`);
    return 1;
  }
  const child = spawn(process.execPath, [process.argv[1]!, 'analyze', ...rest], { stdio: ['inherit', 'pipe', 'inherit'] });
  const exited = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  const rows = createInterface({ input: child.stdout, crlfDelay: Infinity });
  // CSV: the header names the column of the position (PGN: fen, FEN / EPD lines: input).
  let csv: { column: number; pgn: boolean } | undefined;
  let first = true;
  let failed = 0;
  type Row = { text: string; header: boolean; pos?: Position };
  async function* records(): AsyncGenerator<Row> {
    for await (const text of rows) {
      if (first) {
        first = false;
        if (!text.startsWith('{')) {
          const names = text.split(',');
          const pgn = names.includes('fen');
          csv = { column: names.indexOf(pgn ? 'fen' : 'input'), pgn };
          yield { text, header: true };
          continue;
        }
      }
      let pos: Position | undefined;
      if (csv) {
        pos = positionOf(csvFields(text, csv.column + 1)[csv.column] ?? '', csv.pgn, chess960);
      } else {
        const r = JSON.parse(text) as { fen?: string; input?: string; error?: string };
        if (r.error === undefined) pos = r.fen !== undefined ? positionOf(r.fen, true, chess960) : positionOf(r.input ?? '', false, chess960);
      }
      yield { text, header: false, pos };
    }
  }
  let out: string[] = [];
  let size = 0;
  let flushed = Date.now();
  const flush = (): void => {
    if (size) writeAllSync(1, Buffer.from(out.join('')));
    out = [];
    size = 0;
    flushed = Date.now();
  };
  try {
    for await (const { item, answers } of withAnswers(pool, o.limit!, records(), (r) => (r.pos ? [r.pos] : []))) {
      let line: string;
      if (item.header) line = `${item.text},engine_cp,engine_mate,best_move,pv\n`;
      else {
        const a = answers[0];
        if (a && 'error' in a) {
          failed++;
          process.stderr.write(`bitboard-patterns analyze: --engine: ${a.error.message}\n`);
        }
        const f = fieldsOf(a);
        if (csv) line = `${item.text},${f.cp ?? ''},${f.mate ?? ''},${f.best ?? ''},${f.pv ?? ''}\n`;
        else line = `${item.text.slice(0, -1)},"engine_cp":${f.cp},"engine_mate":${f.mate},"best_move":${JSON.stringify(f.best)},"pv":${JSON.stringify(f.pv)}}\n`;
      }
      out.push(line);
      size += line.length;
      // Records go out in pieces of 64 KB, or after a fifth of a second.
      if (size >= 1 << 16 || Date.now() - flushed > 200) flush();
    }
    flush();
  } catch (e) {
    child.kill();
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') return 141;
    throw e;
  } finally {
    await pool.close();
  }
  const code = await exited;
  if (code !== 0) return code;
  if (failed) {
    process.stderr.write(`bitboard-patterns analyze: --engine: ${failed} positions could not be analysed\n`);
    return 3;
  }
  return 0;
}

/** The Parquet file's own columns (the schema's leaves) as the writer's column descriptions. */
function columnsOf(schema: { name: string; type?: string; converted_type?: string; repetition_type?: string }[]): ParquetColumn[] {
  return schema.slice(1).map((c) => ({
    name: c.name, type: c.type as ParquetColumn['type'], ...(c.converted_type && { converted: c.converted_type as ParquetColumn['converted'] }),
    required: c.repetition_type === 'REQUIRED',
  }));
}

/**
 * --format parquet (PGN or FEN / EPD input): the child writes its Parquet file to a temporary file; its row
 * groups are read one at a time, searched, and written again with the four columns added
 * (`engine_cp`, `engine_mate` INT32, `best_move`, `pv` UTF-8; null where the row has no position or
 * the engine could not analyse it) to --out or stdout.
 */
async function withEngineParquet(parsed: ReturnType<typeof takeEngineOptions>, chess960: boolean): Promise<number> {
  const { o, rest } = parsed;
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead } = await import('hyparquet');
  const { decompress } = await import('fzstd');
  const { encodeRowGroups, openParquetOutput, ROW_GROUP_ROWS } = await import('./analyze-parquet.js');
  const { parquetZstd } = await import('./pgn-input.js');
  const args = [...rest];
  let out: string | undefined;
  const at = args.findIndex((a) => a === '--out' || a === '-o');
  if (at >= 0) { out = args[at + 1]; args.splice(at, 2); }
  const dir = mkdtempSync(join(tmpdir(), 'bbp-engine-'));
  const base = join(dir, 'base.parquet');
  let pool: Awaited<ReturnType<typeof startPool>> | undefined;
  try {
    const child = spawn(process.execPath, [process.argv[1]!, 'analyze', ...args, '--out', base], { stdio: ['inherit', 'inherit', 'inherit'] });
    const code = await new Promise<number>((resolve) => child.on('close', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
    if (code !== 0 && code !== 3) return code;
    try {
      pool = await startPool(o);
    } catch (e) {
      process.stderr.write(`bitboard-patterns analyze: --engine: ${(e as Error).message}\n`);
      return 1;
    }
    const file = await asyncBufferFromFile(base);
    const metadata = await parquetMetadataAsync(file);
    const schema = columnsOf(metadata.schema as never);
    // PGN records hold the position's FEN; FEN / EPD records the input line.
    const fenColumn = schema.findIndex((c) => c.name === 'fen');
    const inputColumn = fenColumn >= 0 ? -1 : schema.findIndex((c) => c.name === 'input');
    const errorColumn = schema.findIndex((c) => c.name === 'error');
    const added: ParquetColumn[] = [
      { name: 'engine_cp', type: 'INT32', required: false }, { name: 'engine_mate', type: 'INT32', required: false },
      { name: 'best_move', type: 'BYTE_ARRAY', converted: 'UTF8', required: false }, { name: 'pv', type: 'BYTE_ARRAY', converted: 'UTF8', required: false },
    ];
    const zstd = parquetZstd();
    const output = await openParquetOutput(out, [...schema, ...added], zstd !== undefined);
    let failed = 0;
    let groupStart = 0;
    for (const group of metadata.row_groups) {
      const rows = Number(group.num_rows);
      const columns: ColumnValues[] = schema.map(() => new Array(rows).fill(null));
      await parquetRead({ file, metadata, rowStart: groupStart, rowEnd: groupStart + rows, compressors: { ZSTD: (b: Uint8Array) => decompress(b) },
        onChunk: ({ columnName, columnData, rowStart }) => {
          const c = schema.findIndex((x) => x.name === columnName);
          for (let i = 0; i < columnData.length; i++) {
            const r = rowStart - groupStart + i;
            if (r >= 0 && r < rows) columns[c]![r] = columnData[i] as ColumnValues[number];
          }
        } });
      groupStart += rows;
      const engine: ColumnValues[] = added.map(() => new Array(rows).fill(null));
      async function* indexes(): AsyncGenerator<number> { for (let r = 0; r < rows; r++) yield r; }
      const positionAt = (r: number): Position[] => {
        if (errorColumn >= 0 && columns[errorColumn]![r] !== null) return [];
        const fen = fenColumn >= 0 ? columns[fenColumn]![r] : null;
        const line = inputColumn >= 0 ? columns[inputColumn]![r] : null;
        const pos = typeof fen === 'string' ? positionOf(fen, true, chess960) : typeof line === 'string' ? positionOf(line, false, chess960) : undefined;
        return pos ? [pos] : [];
      };
      for await (const { item: r, answers } of withAnswers(pool, o.limit!, indexes(), positionAt)) {
        const a = answers[0];
        if (a && 'error' in a) {
          failed++;
          process.stderr.write(`bitboard-patterns analyze: --engine: ${a.error.message}\n`);
        }
        const v = fieldsOf(a);
        engine[0]![r] = v.cp;
        engine[1]![r] = v.mate;
        engine[2]![r] = v.best;
        engine[3]![r] = v.pv;
      }
      if (!output.append(encodeRowGroups([...schema, ...added], [...columns, ...engine], rows, ROW_GROUP_ROWS, zstd))) return 141;
    }
    if (!output.finish()) return 141;
    if (code !== 0) return code;
    if (failed) {
      process.stderr.write(`bitboard-patterns analyze: --engine: ${failed} positions could not be analysed\n`);
      return 3;
    }
    return 0;
  } finally {
    await pool?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
