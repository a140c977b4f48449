/**
 * `analyze --engine` end to end (dist/cli.cjs): the records without the four engine fields are
 * byte for byte those of the same command without --engine; the fields are Stockfish's answer
 * driven by hand in deterministic mode (--fresh, a node limit), from White's view. NDJSON and CSV,
 * EPD lines and PGN input. The positions are read on every backend.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { haveStockfish, searchByHand } from '../support/stockfish.js';

const cli = resolve('dist/cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'analyze-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const EPD = join(dir, 'p.epd');
writeFileSync(EPD, [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; id "start";',
  '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1',
  'not a fen',
  '3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1',
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
].join('\n') + '\n');
const PGN = join(dir, 'g.pgn');
writeFileSync(PGN, '[Event "x"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n');
const NODES = 1000;
const hand = new Map<string, Awaited<ReturnType<typeof byHand>>>();

const runs = new Map<string, { status: number | null; stdout: string }>();
/** The command's output (each distinct command run once for every backend's checks). */
function run(args: string[]): { status: number | null; stdout: string } {
  const key = args.join('\0');
  if (!runs.has(key)) runs.set(key, runOnce(args));
  return runs.get(key)!;
}
function runOnce(args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

const byHand = (fens: string[]) => searchByHand(fens, NODES);
/** The FEN of a FEN or EPD line of EPD (all theirs have the clocks 0 and 1). */
const jsToFen = (line: string): string => `${line.split(' ').slice(0, 4).join(' ')} 0 1`;

describe.runIf(haveStockfish)('analyze --engine', () => {
  const engine = ['--threads', '1', '--engine', '--engine-nodes', String(NODES), '--fresh', '--engines', '2'];

  describe.each(backends)('%s', (_name, api) => {
    it('EPD lines, NDJSON and CSV: the records unchanged, the engine fields as Stockfish by hand', async () => {
      for (const format of ['ndjson', 'csv']) {
        const base = run([EPD, '--format', format, '--features', 'inCheck,legalMoveCount']);
        const got = run([EPD, '--format', format, '--features', 'inCheck,legalMoveCount', ...engine]);
        expect(got.status).toBe(base.status);
        const baseLines = base.stdout.trimEnd().split('\n');
        const lines = got.stdout.trimEnd().split('\n');
        expect(lines).toHaveLength(baseLines.length);
        const good = [0, 1, 3, 4];
        const fens = good.map((i) => api.toFen(api.parseFen([
          'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', '',
          '3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'][i]!)));
        const want = hand.get(fens.join()) ?? await byHand(fens);
        hand.set(fens.join(), want);
        const engineOf = new Map(good.map((i, k) => [i, want[k]!]));
        if (format === 'ndjson') {
          lines.forEach((l, i) => {
            const r = JSON.parse(l) as Record<string, unknown>;
            const e = engineOf.get(i) ?? { cp: null, mate: null, best: null, pv: null };
            expect([r.engine_cp, r.engine_mate, r.best_move, r.pv]).toEqual([e.cp, e.mate, e.best, e.pv]);
            expect(l.replace(/,"engine_cp":.*\}$/, '}')).toBe(baseLines[i]);
          });
        } else {
          expect(lines[0]).toBe(`${baseLines[0]},engine_cp,engine_mate,best_move,pv`);
          lines.slice(1).forEach((l, i) => {
            const e = engineOf.get(i) ?? { cp: null, mate: null, best: null, pv: null };
            expect(l).toBe(`${baseLines[i + 1]},${e.cp ?? ''},${e.mate ?? ''},${e.best ?? ''},${e.pv ?? ''}`);
          });
        }
        expect(got.status).toBe(3); // the bad line, as without --engine
      }
    });
  });

  it('PGN input: every position of the game, the records unchanged', async () => {
    const base = run([PGN, '--features', 'inCheck']);
    const got = run([PGN, '--features', 'inCheck', ...engine]);
    expect(got.status).toBe(0);
    const rows = got.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { fen: string; engine_cp: number | null; best_move: string });
    expect(got.stdout.replace(/,"engine_cp":[^\n]*\}\n/g, '}\n')).toBe(base.stdout);
    const want = await byHand(rows.map((r) => r.fen));
    expect(rows.map((r) => [r.engine_cp, r.best_move])).toEqual(want.map((w) => [w.cp, w.best]));
  });

  it('PGN input to Parquet: the columns of the run without --engine, and the four engine columns', async () => {
    const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
    const { decompress } = await import('fzstd');
    const read = async (file: string) => parquetReadObjects({ file: await asyncBufferFromFile(file), compressors: { ZSTD: (b: Uint8Array) => decompress(b) } });
    expect(run([PGN, '--features', 'inCheck,polyglotKey', '--format', 'parquet', '--out', join(dir, 'base.parquet')]).status).toBe(0);
    expect(run([PGN, '--features', 'inCheck,polyglotKey', '--format', 'parquet', '--out', join(dir, 'engine.parquet'), ...engine]).status).toBe(0);
    const base = await read(join(dir, 'base.parquet'));
    const rows = await read(join(dir, 'engine.parquet'));
    expect(rows.map(({ engine_cp: _c, engine_mate: _m, best_move: _b, pv: _p, ...rest }) => rest)).toEqual(base);
    const want = await byHand(rows.map((r) => r.fen as string));
    expect(rows.map((r) => [r.engine_cp, r.engine_mate, r.best_move, r.pv])).toEqual(want.map((w) => [w.cp, w.mate, w.best, w.pv]));
  });

  it('EPD lines to Parquet: the columns of the run without --engine; a bad line gets nulls', async () => {
    const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
    const { decompress } = await import('fzstd');
    const read = async (file: string) => parquetReadObjects({ file: await asyncBufferFromFile(file), compressors: { ZSTD: (b: Uint8Array) => decompress(b) } });
    expect(run([EPD, '--features', 'inCheck', '--format', 'parquet', '--out', join(dir, 'epd-base.parquet')]).status).toBe(3);
    expect(run([EPD, '--features', 'inCheck', '--format', 'parquet', '--out', join(dir, 'epd-engine.parquet'), ...engine]).status).toBe(3);
    const base = await read(join(dir, 'epd-base.parquet'));
    const rows = await read(join(dir, 'epd-engine.parquet'));
    expect(rows.map(({ engine_cp: _c, engine_mate: _m, best_move: _b, pv: _p, ...rest }) => rest)).toEqual(base);
    expect(rows.map((r) => r.error !== null)).toEqual([false, false, true, false, false]);
    const good = rows.filter((r) => r.error === null);
    const want = await byHand(good.map((r) => jsToFen(String(r.input))));
    expect(good.map((r) => [r.engine_cp, r.engine_mate, r.best_move, r.pv])).toEqual(want.map((w) => [w.cp, w.mate, w.best, w.pv]));
    expect(rows[2]).toMatchObject({ engine_cp: null, engine_mate: null, best_move: null, pv: null });
  });

  it('usage: engine options need --engine, and one limit', () => {
    expect(run([EPD, '--engine-nodes', '10']).status).toBe(2);
    expect(run([EPD, '--engine']).status).toBe(2);
  });
});
