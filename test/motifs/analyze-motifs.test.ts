/**
 * The motif features and move_see through `analyze` (dist/cli.cjs) on the native and JS backends:
 * the `motifs` group's ten columns of FEN lines against the brute-force references, and on PGN input
 * the `move_see` column against the exchange played out by reference-motifs.ts in the position
 * before each move (every position, and --select final, where the games are replayed), in NDJSON,
 * CSV and Parquet; batch features byte-identical to the single calls on every backend.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';
import { rng } from '../patterns/reference.js';
import { boardFromFen, fenFromBoard, randomBoard } from '../patterns/reference-checks.js';
import { MOTIF_REFERENCES, seeRef } from './reference-motifs.js';
import { parsePgn } from '../../lib/games/index.js';
import { encodeMove } from '../../lib/moves/moves.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'bbp-motifs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function analyze(args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args, '--no-progress'],
    { maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

const NAMES = Object.keys(MOTIF_REFERENCES) as (keyof typeof MOTIF_REFERENCES)[];
const FENS = Array.from({ length: 80 }, (_, i) => fenFromBoard(randomBoard(rng(1000 + i), 3 + (i % 12))));
const fenFile = join(dir, 'positions.fen');
writeFileSync(fenFile, `${FENS.join('\n')}\nnot a fen\n`);

const PGN_FILES = ['chessbase.pgn', 'quirky.pgn'].map((f) => join(root, 'test', 'fixtures', 'pgn', f));
const pgnFile = join(dir, 'games.pgn');
writeFileSync(pgnFile, PGN_FILES.map((f) => readFileSync(f, 'utf8')).join('\n'));

/**
 * [game number, ply] -> the reference's SEE of the move that led there (null at ply 0); the games
 * with a null move ('0000', which the reference does not play) are left out, as SKIPPED.
 */
const SKIPPED = new Set<number>();
/** The exit code analyze gives the file: 3 when it holds a bad game (an error record in its place). */
let STATUS = 0;
function expectedMoveSee(): Map<string, number | null> {
  const out = new Map<string, number | null>();
  parsePgn(readFileSync(pgnFile, 'utf8')).forEach((g) => {
    if (g.error) {
      SKIPPED.add(g.game);
      STATUS = 3;
      return;
    }
    if (g.moves.includes('0000')) {
      SKIPPED.add(g.game);
      return;
    }
    let pos = jsApi.parseFen(g.startFen);
    out.set(`${g.game}/0`, null);
    g.moves.forEach((m, i) => {
      const code = encodeMove(m);
      const v = seeRef(boardFromFen(jsApi.toFen(pos)), { from: code & 63, to: (code >> 6) & 63, promotion: code >> 12 });
      out.set(`${g.game}/${i + 1}`, v ?? null);
      pos = jsApi.makeMove(pos, m);
    });
  });
  return out;
}
const MOVE_SEE = expectedMoveSee();

const impls = ['js', ...(nativeApi ? ['native'] : [])];

describe.each(impls)('analyze --backend %s', (backend) => {
  it('writes the motifs group: ten columns per FEN line, the references\' sets', () => {
    const r = analyze([fenFile, '--backend', backend, '--features', 'motifs']);
    const records = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(FENS.length + 1);
    FENS.forEach((fen, i) => {
      const b = boardFromFen(fen);
      for (const n of NAMES) {
        expect(records[i]![n], `${n} of ${fen}`).toEqual([0, 1].map((c) => `0x${MOTIF_REFERENCES[n](b, c).toString(16)}`));
      }
    });
    expect(records[FENS.length]!.error).toBeDefined();
    const csv = analyze([fenFile, '--backend', backend, '--features', 'motifs', '--format', 'csv']);
    expect(csv.out.split('\n')[0]).toBe(`line,input,${NAMES.flatMap((n) => [`${n}_w`, `${n}_b`]).join(',')},error`);
    const forksW = csv.out.trim().split('\n').slice(1, FENS.length + 1).map((l) => l.split(',')[4]);
    expect(forksW).toEqual(FENS.map((f) => `0x${MOTIF_REFERENCES.forks(boardFromFen(f), 0).toString(16)}`));
  });

  it('writes move_see on PGN input: the SEE of the move that led to each position', () => {
    const r = analyze([pgnFile, '--backend', backend, '--features', 'move_see,forks']);
    expect(r.status).toBe(STATUS);
    const records = r.out.trim().split('\n').map((l) => JSON.parse(l) as { game: number; ply: number; move_see: number | null });
    expect(records.filter((x) => !SKIPPED.has(x.game)).length).toBe(MOVE_SEE.size);
    for (const rec of records.filter((x) => !SKIPPED.has(x.game))) expect(rec.move_see, `game ${rec.game} ply ${rec.ply}`).toBe(MOVE_SEE.get(`${rec.game}/${rec.ply}`));
    expect(records.some((x) => x.move_see !== null && x.move_see < 0)).toBe(true);
    // Only the last positions: the games are replayed for the position before.
    const last = analyze([pgnFile, '--backend', backend, '--features', 'move_see', '--select', 'final', '--format', 'csv']);
    const lines = last.out.trim().split('\n');
    const col = lines[0]!.split(',').indexOf('move_see');
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      if (SKIPPED.has(Number(cells[0]))) continue;
      const want = MOVE_SEE.get(`${cells[0]}/${cells[1]}`);
      expect(cells[col], line).toBe(want === null || want === undefined ? '' : String(want));
    }
    expect(analyze([pgnFile, '--backend', backend, '--features', 'move_see', '--per', 'game']).status).toBe(2);
  });

  it('writes move_see to Parquet', async () => {
    const file = join(dir, `see-${backend}.parquet`);
    expect(analyze([pgnFile, '--backend', backend, '--features', 'move_see', '--format', 'parquet', '--out', file]).status).toBe(STATUS);
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const rows = (await con.runAndReadAll(`SELECT game, ply, move_see FROM read_parquet('${file}')`)).getRowObjects();
    const kept = rows.filter((row) => !SKIPPED.has(Number(row.game)));
    expect(kept.length).toBe(MOVE_SEE.size);
    for (const row of kept) expect(row.move_see, `${row.game}/${row.ply}`).toBe(MOVE_SEE.get(`${row.game}/${row.ply}`));
  });
});

describe.each(backends)('%s: the motif batch features', (_label, api) => {
  it('are byte-identical to the single calls, per colour per position; the group name is the five', () => {
    const batch = api.PositionBatch.fromFens(FENS);
    const got = api.analyzeBatch(batch, ['motifs']) as unknown as Record<string, BigUint64Array>;
    expect(Object.keys(got).sort()).toEqual([...NAMES].sort());
    for (const n of NAMES) {
      const singles = BigUint64Array.from(FENS.flatMap((f) => {
        const pos = api.parseFen(f);
        return [0, 1].map((c) => (api as unknown as Record<string, (p: unknown, c: number) => bigint>)[n]!(pos, c));
      }));
      expectSameBytes(got[n], singles, n);
      const alone = api.analyzeBatch(batch, [n as 'forks']) as unknown as Record<string, BigUint64Array>;
      expectSameBytes(alone[n], singles, `${n} alone`);
    }
  });
});
