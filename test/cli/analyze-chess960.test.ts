/**
 * `bitboard-patterns analyze --chess960` (dist/cli.cjs) on X-FEN lines: every line read as
 * parseFen(line, { chess960: true }) reads it. The records equal those of the same positions written
 * in Shredder-FEN (Chess960 by themselves, read without the option), their legal move counts and
 * Polyglot keys equal the single-position functions, bad lines get parseFen's FenError, and every
 * pipeline (the addon's threads on a file, the worker threads, stdin, the JS backend) writes the same
 * bytes. Without the option X-FEN lines keep their standard reading.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { chess960Playout } from '../support/chess960.js';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'bbp-analyze960-'));

function analyze(args: string[], input?: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args],
    { input, maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '', ...env } });
  return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** Random Chess960 playouts, in X-FEN and in Shredder-FEN. */
function positions(count: number, seed: number): { xfen: string; shredder: string }[] {
  const next = rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const pos = chess960Playout(next, 30);
    out.push({ xfen: jsApi.toFen(pos), shredder: jsApi.toFen(pos, { shredder: true }) });
  }
  return out;
}

const SAMPLES = positions(200, 960036);
// A bad line (no rook for K), a non-ASCII line (the native parser hands it to JS) and an EPD line.
const BAD = 'rk6/8/8/8/8/8/8/RK6 w K - 0 1';
const EXTRA = [BAD, `${SAMPLES[0]!.xfen}\u00a0`, `${SAMPLES[1]!.xfen.split(' ').slice(0, 4).join(' ')} bm a1a2;`];
const xfenText = `${[...SAMPLES.map((s) => s.xfen), ...EXTRA].join('\n')}\n`;
const shredderText = `${SAMPLES.map((s) => s.shredder).join('\n')}\n`;
const xfenFile = join(dir, 'xfen.fen');
const shredderFile = join(dir, 'shredder.fen');
writeFileSync(xfenFile, xfenText);
writeFileSync(shredderFile, shredderText);

const records = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const withoutInput = (r: Record<string, unknown>) => { const { input: _, ...rest } = r; return rest; };

describe('bitboard-patterns analyze --chess960', () => {
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });
  const main = analyze([xfenFile, '--chess960', '--threads', '2']);

  it('reads X-FEN lines as parseFen(line, { chess960: true }): the records of the Shredder-FEN lines', () => {
    expect(main.code, main.err).toBe(3);
    expect(main.err).toContain('1 of 203 lines had errors');
    const got = records(main.out);
    const want = records(analyze([shredderFile, '--threads', '2']).out);
    expect(got.slice(0, SAMPLES.length).map(withoutInput)).toEqual(want.map(withoutInput));
    SAMPLES.forEach((s, i) => {
      const pos = jsApi.parseFen(s.xfen, { chess960: true });
      expect(got[i]!.legalMoveCount, s.xfen).toBe(jsApi.legalMoves(pos).length);
      expect(got[i]!.polyglotKey).toBe(`0x${jsApi.polyglotKey(pos).toString(16)}`);
    });
  });

  it('bad lines get parseFen\'s FenError with the option; non-ASCII and EPD lines are read with it too', () => {
    const got = records(main.out).slice(SAMPLES.length);
    let error: { field: string; message: string } | undefined;
    try { jsApi.parseFen(BAD, { chess960: true }); } catch (e) { error = e as { field: string; message: string }; }
    expect(got[0]).toEqual({ line: SAMPLES.length + 1, input: BAD, error: error!.message, field: error!.field });
    expect(error!.field).toBe('castling');
    const pos0 = jsApi.parseFen(SAMPLES[0]!.xfen, { chess960: true });
    expect(got[1]!.legalMoveCount).toBe(jsApi.legalMoves(pos0).length);
    const pos1 = jsApi.parseFen(`${SAMPLES[1]!.xfen.split(' ').slice(0, 4).join(' ')} 0 1`, { chess960: true });
    expect(got[2]!.polyglotKey).toBe(`0x${jsApi.polyglotKey(pos1).toString(16)}`);
  });

  it('every pipeline writes the same bytes: worker threads, stdin, the JS backend, CSV alike', () => {
    const workers = analyze([xfenFile, '--chess960', '--threads', '2'], undefined, { BITBOARD_PATTERNS_ANALYZE_PIPELINE: 'workers' });
    expect(workers.out).toBe(main.out);
    expect(analyze(['-', '--chess960', '--threads', '2'], xfenText).out).toBe(main.out);
    expect(analyze([xfenFile, '--chess960', '--backend', 'js', '--threads', '1']).out).toBe(main.out);
    const csv = analyze([xfenFile, '--chess960', '--format', 'csv']);
    const csvJs = analyze([xfenFile, '--chess960', '--format', 'csv', '--backend', 'js', '--threads', '1']);
    expect(csv.code).toBe(3);
    expect(csvJs.out).toBe(csv.out);
  });

  it('without the option X-FEN lines keep their standard reading (parseFen(line))', () => {
    const plain = analyze([xfenFile, '--threads', '2']);
    const got = records(plain.out);
    SAMPLES.forEach((s, i) => {
      let pos;
      try { pos = jsApi.parseFen(s.xfen); } catch (e) {
        expect(got[i]!.error, s.xfen).toBe((e as Error).message);
        return;
      }
      expect(got[i]!.legalMoveCount, s.xfen).toBe(jsApi.legalMoves(pos).length);
    });
    expect(got.filter((r) => r.error !== undefined).length).toBeGreaterThan(100);
    if (nativeApi) expect(analyze([xfenFile, '--backend', 'js', '--threads', '1']).out).toBe(plain.out);
  });

  it('PGN input refuses --chess960 (its games take the Variant tag)', () => {
    const pgn = join(dir, 'g.pgn');
    writeFileSync(pgn, '[Event "x"]\n[Variant "Chess960"]\n\n*\n');
    const r = analyze([pgn, '--chess960']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--chess960 is for FEN \/ EPD lines/);
  });
});
