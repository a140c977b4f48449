/**
 * `bitboard-patterns analyze games.pgn --format parquet` (lib/cli/analyze-parquet.ts) and the same for
 * FEN / EPD lines (lib/cli/analyze-fen-parquet.ts) through dist/cli.cjs (run `npm run build` first),
 * on both backends.
 *
 * Truth: the file is read back by DuckDB (@duckdb/node-api, a real database, its own Parquet reader)
 * and must hold the same rows and values as the command's NDJSON output of the same input, with the
 * CSV output's column names; the types are the ones the Parquet format's logical types give in DuckDB
 * (UINT_64 -> UBIGINT, UINT_8 -> UTINYINT, ...: "Parquet Logical Type Definitions",
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { FEATURES } from '../../lib/core/features.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';
import { loadNative } from '../../lib/backends/native.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'analyze-parquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A generated corpus (with [%clk] / [%eval] comments) and two bad games among the good ones.
const generated = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 60, seed: 11, maxPlies: 80 }).split(/\n(?=\[Event )/);
const BAD = ['[Event "bad move"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 Nf6 *\n', '[Event "bad token"]\n[Result "1-0"]\n\n1. d4 d5 2. c4 @@ 1-0\n'];
const corpus = [...generated.slice(0, 20), BAD[0], ...generated.slice(20, 45), BAD[1], ...generated.slice(45)].join('\n');
const pgn = join(dir, 'corpus.pgn');
writeFileSync(pgn, corpus);
const FEATURE_LIST = [...FEATURES.map((f) => f.name), 'clock', 'eval', 'opening'].join(',');

function analyze(args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args, '--no-progress'],
    { maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout, err: r.stderr.toString() };
}

type Row = Record<string, unknown>;

/** An NDJSON record as the flat row of the CSV columns: per-colour pairs split, hex sets as bigints. */
function flatRow(rec: Row, columns: string[]): Row {
  const row: Row = {};
  for (const c of columns) row[c] = null;
  if ('line' in rec && 'error' in rec) return { ...row, game: rec.game, error: rec.error };
  const value = (v: unknown): unknown => (typeof v === 'string' && /^0x[0-9a-f]+$/.test(v) ? BigInt(v) : v);
  for (const [k, v] of Object.entries(rec)) {
    if (k === 'tags') for (const [t, x] of Object.entries(v as Row)) row[t] = x;
    else if (Array.isArray(v)) { row[`${k}_w`] = value(v[0]); row[`${k}_b`] = value(v[1]); }
    else row[k] = value(v);
  }
  return row;
}

/**
 * Column name -> DuckDB type, and the rows in file order, as DuckDB reads the file. Names are the
 * file's own (parquet_schema): DuckDB renames a column whose name repeats another's but for case
 * (the tag Result beside the column result) in its results, not in the file.
 */
async function readParquet(con: DuckDBConnection, file: string): Promise<{ types: Record<string, string>; rows: Row[]; groups: number[]; codecs: string[] }> {
  const f = file.replaceAll("'", "''");
  const names = (await con.runAndReadAll(`SELECT name FROM parquet_schema('${f}')`)).getRowObjects().slice(1).map((x) => String(x.name));
  const described = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${f}')`)).getRowObjects().map((x) => String(x.column_type));
  const types = Object.fromEntries(names.map((n, i) => [n, described[i]!]));
  const rows = (await con.runAndReadAll(`SELECT * EXCLUDE (file_row_number) FROM read_parquet('${f}', file_row_number = true) ORDER BY file_row_number`))
    .getRows().map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]])));
  const meta = (await con.runAndReadAll(`SELECT list(DISTINCT compression) AS codecs FROM parquet_metadata('${f}')`)).getRowObjects()[0]!;
  const groups = (await con.runAndReadAll(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${f}') ORDER BY row_group_id`))
    .getRowObjects().map((x) => Number(x.row_group_num_rows));
  return { types, rows, groups, codecs: (meta.codecs as { items: string[] }).items };
}

const backends = ['js', ...(nativeApi ? ['native'] : [])];
const zstdInAddon = (() => { try { return loadNative().zstd !== undefined; } catch { return false; } })();

describe.each(backends)('analyze --format parquet (--backend %s)', (backend) => {
  it('per position: the CSV columns, typed; the NDJSON rows and values; row groups as asked; to a file and to stdout', async () => {
    const base = [pgn, '--backend', backend, '--features', FEATURE_LIST];
    const ndjson = analyze([...base]);
    expect(ndjson.status).toBe(3); // the two bad games
    const csv = analyze([...base, '--format', 'csv']);
    const columns = csv.out.toString().split('\n')[0]!.split(',');
    const expected = ndjson.out.toString().trim().split('\n').map((l) => flatRow(JSON.parse(l) as Row, columns));
    expect(expected.filter((r) => r.error !== null)).toHaveLength(2);

    const file = join(dir, `positions-${backend}.parquet`);
    const toFile = analyze([...base, '--format', 'parquet', '--out', file, '--row-group', '500', '--threads', '2']);
    expect(toFile.err).toContain('2 of 62 games had errors');
    expect(toFile.status).toBe(3);
    expect(toFile.out.length).toBe(0);
    const stdoutFile = join(dir, `positions-${backend}-stdout.parquet`);
    const toStdout = analyze([...base, '--format', 'parquet', '--threads', '1']);
    expect(toStdout.status).toBe(3);
    writeFileSync(stdoutFile, toStdout.out);

    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    for (const [f, groupRows] of [[file, 500], [stdoutFile, 65536]] as const) {
      const { types, rows, groups, codecs } = await readParquet(con, f);
      // zstd pages where the addon has libzstd (whatever backend analyses), else Snappy.
      expect(codecs).toEqual([zstdInAddon ? 'ZSTD' : 'SNAPPY']);
      expect(Object.keys(types)).toEqual(columns);
      for (const c of columns) {
        const info = FEATURES.find((x) => c === x.name || c === `${x.name}_w` || c === `${x.name}_b`);
        const want = c === 'game' || c === 'ply' ? 'UINTEGER' : c === 'clock' ? 'DOUBLE' : c.startsWith('eval_') ? 'INTEGER'
          : !info ? 'VARCHAR' : info.type === 'flag' ? 'BOOLEAN' : info.type === 'u8' ? 'UTINYINT' : 'UBIGINT';
        expect(types[c], c).toBe(want);
      }
      expect(rows).toEqual(expected);
      // Row groups of at most --row-group rows (each thread's piece of games cut into such groups).
      expect(groups.reduce((a, b) => a + b, 0)).toBe(expected.length);
      expect(Math.max(...groups)).toBeLessThanOrEqual(groupRows);
      expect(groups.length).toBeGreaterThanOrEqual(Math.ceil(expected.length / groupRows));
    }
    // --strict: the rows up to the first bad game's error row.
    const strict = join(dir, `positions-strict-${backend}.parquet`);
    expect(analyze([...base, '--format', 'parquet', '--out', strict, '--strict', '--threads', '1']).status).toBe(1);
    const firstBad = expected.findIndex((r) => r.error !== null);
    expect(firstBad).toBeGreaterThan(0);
    expect((await readParquet(con, strict)).rows).toEqual(expected.slice(0, firstBad + 1));
    expect(expected.length).toBeGreaterThan(1000);
    // Values the corpus must exercise for the comparison to mean something.
    expect(expected.some((r) => typeof r.clock === 'number')).toBe(true);
    expect(expected.some((r) => typeof r.eval_cp === 'number')).toBe(true);
    expect(expected.some((r) => r.inCheck === true)).toBe(true);
    expect(expected.some((r) => typeof r.opening === 'string')).toBe(true);
    expect(expected.some((r) => typeof r.checkers_w === 'bigint' && r.checkers_w !== 0n)).toBe(true);
    con.closeSync();
  });

  it('per position with the board features only (rows from the reader\'s records, no game objects): the NDJSON rows; --strict; --every', async () => {
    const plain = FEATURES.map((f) => f.name).join(',');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const columns = analyze([pgn, '--backend', backend, '--features', plain, '--format', 'csv']).out.toString().split('\n')[0]!.split(',');
    for (const extra of [[], ['--strict'], ['--every', '3', '--from-ply', '2'], ['--select', 'final', '--first-game', '7']]) {
      const base = [pgn, '--backend', backend, '--features', plain, ...extra];
      const ndjson = analyze([...base, '--threads', '1']);
      const expected = ndjson.out.toString().trim().split('\n').map((l) => flatRow(JSON.parse(l) as Row, columns));
      expect(expected.some((r) => r.error !== null), extra.join(' ')).toBe(true);
      expect(expected.some((r) => typeof r.san === 'string'), extra.join(' ')).toBe(true);
      // One thread (the pieces read in process) for the plain read; two worker threads for all.
      for (const threads of extra.length ? ['2'] : ['1', '2']) {
        const file = join(dir, `records-${backend}-${threads}-${extra.join('')}.parquet`);
        const r = analyze([...base, '--format', 'parquet', '--out', file, '--threads', threads, '--row-group', '300']);
        expect(r.status, r.err).toBe(ndjson.status);
        expect(r.err.split('\n').filter((l) => /games had errors|stopped/.test(l))).toEqual(ndjson.err.split('\n').filter((l) => /games had errors|stopped/.test(l)));
        expect((await readParquet(con, file)).rows, `${extra.join(' ')} --threads ${threads}`).toEqual(expected);
      }
    }
    con.closeSync();
  });

  it('--variations: node, parent and main_line columns; the rows of every node as NDJSON has them', async () => {
    const study = join(root, 'test', 'fixtures', 'pgn', 'study.pgn');
    const base = [study, '--backend', backend, '--variations', '--features', 'inCheck,clock,eval,move_see,opening'];
    const columns = analyze([...base, '--format', 'csv']).out.toString().split('\n')[0]!.split(',');
    const ndjson = analyze(base);
    const expected = ndjson.out.toString().trim().split('\n').map((l) => flatRow(JSON.parse(l) as Row, columns));
    const file = join(dir, `variations-${backend}.parquet`);
    expect(analyze([...base, '--format', 'parquet', '--out', file]).status).toBe(ndjson.status);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const { types, rows } = await readParquet(con, file);
    expect(Object.keys(types)).toEqual(columns);
    expect(types).toMatchObject({ node: 'UINTEGER', parent: 'UINTEGER', main_line: 'BOOLEAN', eco: 'VARCHAR', move_see: 'SMALLINT' });
    expect(rows).toEqual(expected);
    expect(rows.some((x) => x.main_line === false)).toBe(true);
    con.closeSync();
  });

  it('per game: tags, outcome and summed features; --first-game numbering; --strict stops at the first bad game', async () => {
    const base = [pgn, '--backend', backend, '--per', 'game', '--tags', 'Event,White,Result', '--features', 'inCheck,attacked,legalMoveCount,polyglotKey', '--first-game', '101'];
    const ndjson = analyze(base);
    const csv = analyze([...base, '--format', 'csv']);
    const columns = csv.out.toString().split('\n')[0]!.split(',');
    const expected = ndjson.out.toString().trim().split('\n').map((l) => flatRow(JSON.parse(l) as Row, columns));
    const file = join(dir, `games-${backend}.parquet`);
    expect(analyze([...base, '--format', 'parquet', '--out', file]).status).toBe(3);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const { types, rows } = await readParquet(con, file);
    expect(Object.keys(types)).toEqual(columns);
    expect(types).toMatchObject({ game: 'UINTEGER', plies: 'UINTEGER', result: 'VARCHAR', Event: 'VARCHAR', inCheck: 'UINTEGER',
      attacked_w: 'UINTEGER', legalMoveCount: 'UINTEGER', polyglotKey: 'UBIGINT' });
    expect(rows).toEqual(expected);
    expect(rows).toHaveLength(62);
    expect(rows[0]!.game).toBe(101);

    const strict = join(dir, `strict-${backend}.parquet`);
    const r = analyze([...base, '--format', 'parquet', '--out', strict, '--strict', '--threads', '1']);
    expect(r.status).toBe(1);
    expect((await readParquet(con, strict)).rows).toEqual(expected.slice(0, 21));
    con.closeSync();
  });
});

/** A FEN / EPD record as the flat row of the CSV columns (an error record: line, input and error). */
function flatFenRow(rec: Row, columns: string[]): Row {
  const row: Row = {};
  for (const c of columns) row[c] = null;
  if ('error' in rec) return { ...row, line: rec.line, input: rec.input, error: rec.error };
  return flatRow(rec, columns);
}

// FEN and EPD lines with what a dump holds besides: blank and comment lines, CRLF, bad lines, a
// line longer than the reader takes (1 MiB), a Chess960 position in Shredder-FEN, a position whose
// side not to move is in check.
const EPD_LINES = readFileSync(join(root, 'examples', 'positions.epd'), 'utf8').trim().split('\n').slice(0, 4000);
const fenText = [
  ...EPD_LINES.slice(0, 1500), '', '# a comment', 'not a fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r',
  ...EPD_LINES.slice(1500, 2500), `${'x'.repeat((1 << 20) + 100)}`, 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1', ...EPD_LINES.slice(2500),
].join('\n');
const fenFile = join(dir, 'positions.epd');
writeFileSync(fenFile, fenText);

describe.each(backends)('analyze FEN / EPD lines --format parquet (--backend %s)', (backend) => {
  it('the CSV columns, typed; the NDJSON rows and values (bad lines: line, input, error); gzip input, stdout, row groups', async () => {
    const base = ['--backend', backend];
    const ndjson = analyze([fenFile, ...base]);
    expect(ndjson.status).toBe(3);
    const csv = analyze([fenFile, ...base, '--format', 'csv']);
    const columns = csv.out.toString().split('\n')[0]!.split(',');
    const expected = ndjson.out.toString().trim().split('\n').map((l) => flatFenRow(JSON.parse(l) as Row, columns));
    expect(expected.length).toBe(4000 + 5);
    expect(expected.filter((r) => r.error !== null).length).toBe(3);

    const file = join(dir, `fen-${backend}.parquet`);
    const toFile = analyze([fenFile, ...base, '--format', 'parquet', '--out', file, '--row-group', '700']);
    expect(toFile.err).toContain('3 of 4005 lines had errors');
    expect(toFile.status).toBe(3);
    expect(toFile.out.length).toBe(0);
    const gz = join(dir, 'positions.epd.gz');
    writeFileSync(gz, gzipSync(fenText));
    const fromGzip = analyze([gz, ...base, '--format', 'parquet']);
    expect(fromGzip.status).toBe(3);
    const gzFile = join(dir, `fen-${backend}-gz.parquet`);
    writeFileSync(gzFile, fromGzip.out);

    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    for (const [f, groupRows] of [[file, 700], [gzFile, 65536]] as const) {
      const { types, rows, groups, codecs } = await readParquet(con, f);
      expect(codecs).toEqual([zstdInAddon ? 'ZSTD' : 'SNAPPY']);
      expect(Object.keys(types)).toEqual(columns);
      for (const c of columns) {
        const info = FEATURES.find((x) => c === x.name || c === `${x.name}_w` || c === `${x.name}_b`);
        const want = c === 'line' ? 'UINTEGER' : !info ? 'VARCHAR' : info.type === 'flag' ? 'BOOLEAN' : info.type === 'u8' ? 'UTINYINT' : 'UBIGINT';
        expect(types[c], c).toBe(want);
      }
      expect(rows).toEqual(expected);
      expect(groups.reduce((a, b) => a + b, 0)).toBe(expected.length);
      expect(Math.max(...groups)).toBeLessThanOrEqual(groupRows);
    }
    expect(expected.some((r) => r.checkmate === true)).toBe(true);
    expect(expected.some((r) => typeof r.forks_w === 'bigint' && r.forks_w !== 0n)).toBe(true);

    // --strict: the rows up to the first bad line's, exit code 1.
    const strict = join(dir, `fen-strict-${backend}.parquet`);
    const r = analyze([fenFile, ...base, '--format', 'parquet', '--out', strict, '--strict']);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/line 1503: .*--strict: stopping/);
    expect((await readParquet(con, strict)).rows).toEqual(expected.slice(0, 1501));
    con.closeSync();
  });

  it('--syzygy: wdl INT_8 and dtz INT_16 as the NDJSON records have them (null where the tables cannot answer)', async () => {
    const tables = join(root, 'test', 'fixtures', 'syzygy');
    const lines = ['8/8/8/8/8/2k5/8/K6Q w - - 0 1', '8/8/8/8/8/2k5/8/K6Q b - - 0 1', '4k3/8/8/8/8/8/8/4K2R w K - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'bad', '8/8/8/8/3k4/8/8/KBN5 b - - 0 1'];
    const f = join(dir, 'endgames.fen');
    writeFileSync(f, `${lines.join('\n')}\n`);
    const base = [f, '--backend', backend, '--features', 'inCheck', '--syzygy', tables];
    const columns = analyze([...base, '--format', 'csv']).out.toString().split('\n')[0]!.split(',');
    expect(columns).toEqual(['line', 'input', 'inCheck', 'wdl', 'dtz', 'error']);
    const expected = analyze(base).out.toString().trim().split('\n').map((l) => flatFenRow(JSON.parse(l) as Row, columns));
    const out = join(dir, `syzygy-${backend}.parquet`);
    expect(analyze([...base, '--format', 'parquet', '--out', out]).status).toBe(3);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const { types, rows } = await readParquet(con, out);
    expect(types).toMatchObject({ wdl: 'TINYINT', dtz: 'SMALLINT' });
    expect(rows).toEqual(expected);
    expect(rows.filter((x) => typeof x.wdl === 'number').length).toBe(3);
    con.closeSync();
  });
});

describe('analyze --format parquet: bad usage and unwritable output', () => {
  it('--out without --format parquet, a bad --row-group, an unwritable file: exit codes 2, 2, 1 with a message', () => {
    const usage = analyze([pgn, '--out', join(dir, 'x.ndjson')]);
    expect(usage.status).toBe(2);
    expect(usage.err).toMatch(/--out FILE is for --format parquet/);
    expect(analyze([pgn, '--format', 'parquet', '--row-group', '0']).status).toBe(2);
    const r = analyze([pgn, '--format', 'parquet', '--out', join(dir, 'no', 'such', 'dir.parquet')]);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/cannot write .*dir\.parquet/);
    const epd = join(dir, 'one.epd');
    writeFileSync(epd, '8/8/8/8/8/8/8/K6k w - - 0 1\n');
    expect(analyze([epd, '--out', join(dir, 'x.csv'), '--format', 'csv']).status).toBe(2);
    const rowGroup = analyze([epd, '--format', 'parquet', '--row-group', '-3']);
    expect(rowGroup.status).toBe(2);
    expect(rowGroup.err).toMatch(/--row-group must be an integer/);
    const unwritable = analyze([epd, '--format', 'parquet', '--out', join(dir, 'no', 'such', 'fen.parquet')]);
    expect(unwritable.status).toBe(1);
    expect(unwritable.err).toMatch(/cannot write .*fen\.parquet/);
  });

  it.skipIf(spawnSync('zstd', ['--version']).status !== 0)('a truncated .pgn.zst: exit code 1, and a whole file of the games before the damage', async () => {
    // Enough games that the reader hands over whole chunks (about 1 MB) before the damage.
    const big = join(dir, 'more.pgn');
    writeFileSync(big, makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 1200, seed: 12, maxPlies: 80 }));
    const z = execFileSync('zstd', ['-q', '-c', '-3'], { input: readFileSync(big), maxBuffer: 1 << 28 });
    const cut = join(dir, 'cut.pgn.zst');
    writeFileSync(cut, z.subarray(0, Math.floor(z.length * 0.6)));
    const file = join(dir, 'cut.parquet');
    const r = analyze([cut, '--format', 'parquet', '--out', file, '--features', 'inCheck', '--threads', '1']);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/zstd: truncated input/);
    const whole = analyze([big, '--features', 'inCheck']).out.toString().trim().split('\n');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const { rows } = await readParquet(con, file);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThan(whole.length);
    const columns = ['game', 'ply', 'san', 'fen', 'inCheck', 'error'];
    expect(rows).toEqual(whole.slice(0, rows.length).map((l) => flatRow(JSON.parse(l) as Row, columns)));
    con.closeSync();
  });
});
