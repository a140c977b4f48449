/**
 * Syzygy results as batch-analysis features (`wdl`, `dtz` with `{ syzygy: tb }`) and the analyze
 * command's `--syzygy DIR`. Truths: python-chess's published endgame.epd values (WDL, and DTZ within
 * the format's rounding: a stored n may mean n or n + 1 plies, https://syzygy-tables.info/metrics#dtz),
 * the single probes probeWdl / probeDtz position by position, the other backend byte for byte, and
 * the rules of the format (castling rights or more pieces than the tables hold: no answer).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/backends/native.js';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE, SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import type { Api } from '../../lib/api/create-api.js';
import { FEATURES } from '../../lib/core/features.js';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { fenOfCells } from '../core/fen-writer.js';

const FIXTURES = join(__dirname, '..', 'fixtures', 'syzygy');
const cli = join(packageRoot, 'dist', 'cli.cjs');

/** endgame.epd lines whose tables are all among the fixtures (3-4 pieces): [fen, wdl, dtz]. */
const EPD = readFileSync(join(FIXTURES, 'endgame.epd'), 'utf8').split('\n').filter((l) => l.trim())
  .map((l) => {
    const [board, side, castling, ep] = l.split(' ');
    return { fen: `${board} ${side} ${castling} ${ep} 0 1`, wdl: Number(/wdl (-?\d+)/.exec(l)![1]), dtz: Number(/dtz (-?\d+)/.exec(l)![1]) };
  })
  .filter((e) => e.fen.split(' ')[0]!.replace(/[^a-zA-Z]/g, '').length <= 4)
  // The fixtures hold 21 of the 3-4 piece tables (test/fixtures/syzygy/README.md): the lines they answer.
  .filter((e) => {
    const tb = SyzygyTablebase.open(FIXTURES, { backend: 'js' });
    try {
      return tb.getWdl(jsApi.parseFen(e.fen)) !== null;
    } finally {
      tb.close();
    }
  });

const PIECES = 'QRBNPqrbnp';

/** A random legal 3-4 piece position without castling rights (null when the draw is not legal). */
function randomFen(api: Api, squares: number[], extra: string, whiteToMove: boolean): string | null {
  const board: string[] = new Array(64).fill('');
  const all = ['K', 'k', ...extra];
  for (let i = 0; i < all.length; i++) {
    const sq = squares[i]!;
    if (board[sq]) return null;
    if ((all[i] === 'P' || all[i] === 'p') && (sq < 8 || sq >= 56)) return null;
    board[sq] = all[i]!;
  }
  const fen = fenOfCells(board, whiteToMove);
  try {
    const pos = api.parseFen(fen);
    // Not a position: the side not to move in check.
    const them = whiteToMove ? 1 : 0;
    const king = all.indexOf(them === 0 ? 'K' : 'k');
    return api.attackersTo(pos, squares[king]!, (1 - them) as 0 | 1) !== 0n ? null : fen;
  } catch {
    return null;
  }
}

function randomFens(api: Api, count: number, seed: number): string[] {
  const arb = fc.tuple(fc.array(fc.integer({ min: 0, max: 63 }), { minLength: 4, maxLength: 4 }),
    fc.string({ unit: fc.constantFrom(...PIECES), minLength: 1, maxLength: 2 }), fc.boolean());
  const fens: string[] = [];
  for (const [squares, extra, white] of fc.sample(arb, { numRuns: count * 4, seed })) {
    const fen = randomFen(api, squares, extra, white);
    if (fen) fens.push(fen);
    if (fens.length === count) break;
  }
  return fens;
}

/** One CSV line (RFC 4180 quoting) into its fields. */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') { field += '"'; i += 2; } else if (line[i] === '"') { i++; break; } else field += line[i++];
      }
    } else {
      while (i < line.length && line[i] !== ',') field += line[i++];
    }
    out.push(field);
    if (i >= line.length) return out;
    i++; // the comma
  }
}

const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe.each(backends)('wdl / dtz batch features (%s)', (name, api) => {
  const mode = name === 'js' ? 'js' : 'native';
  const tb = SyzygyTablebase.open(FIXTURES, { backend: mode });
  afterAll(() => tb.close());

  /** The single probes as the batch writes them: NONE where the tables cannot answer. */
  const single = (fens: string[]) => {
    const wdl = new Int8Array(fens.length), dtz = new Int16Array(fens.length);
    fens.forEach((f, i) => {
      const pos = api.parseFen(f);
      wdl[i] = tb.getWdl(pos) ?? SYZYGY_WDL_NONE;
      dtz[i] = tb.getDtz(pos) ?? SYZYGY_DTZ_NONE;
    });
    return { wdl, dtz };
  };

  it('endgame.epd: the published WDL, DTZ within the rounding, and the single probes', async () => {
    expect(EPD.length).toBeGreaterThan(20);
    const fens = EPD.map((e) => e.fen);
    const batch = api.PositionBatch.fromFens(fens);
    const r = api.analyzeBatch(batch, ['inCheck', 'wdl', 'dtz'], { syzygy: tb });
    expect(r.wdl).toBeInstanceOf(Int8Array);
    expect(r.dtz).toBeInstanceOf(Int16Array);
    expect(Object.keys(r).sort()).toEqual(['dtz', 'inCheck', 'wdl']);
    EPD.forEach((e, i) => {
      expect(r.wdl[i], e.fen).toBe(e.wdl);
      const d = r.dtz[i]!;
      expect(d === e.dtz || d === e.dtz + Math.sign(e.dtz) || d === e.dtz - Math.sign(e.dtz), `${e.fen}: ${d} vs ${e.dtz}`).toBe(true);
    });
    const s = single(fens);
    expect(bytes(r.wdl).equals(bytes(s.wdl))).toBe(true);
    expect(bytes(r.dtz).equals(bytes(s.dtz))).toBe(true);
    const a = await api.analyzeBatchAsync(batch, ['wdl', 'dtz', 'checkmate'], { syzygy: tb, threads: 2 });
    expect(bytes(a.wdl).equals(bytes(s.wdl))).toBe(true);
    expect(bytes(a.dtz).equals(bytes(s.dtz))).toBe(true);
    expect(bytes(a.checkmate).equals(bytes(api.analyzeBatch(batch, ['checkmate']).checkmate))).toBe(true);
  });

  it('random legal 3-4 piece positions: batch equals the single probes (sync and async)', async () => {
    const fens = randomFens(api, 300, 7);
    expect(fens.length).toBe(300);
    const batch = api.PositionBatch.fromFens(fens);
    expect(batch.errors).toEqual([]);
    const s = single(fens);
    // Most of them are answered (the fixtures hold 21 of the 35 3-4 piece tables); the rest are NONE in both.
    expect(s.wdl.filter((v) => v !== SYZYGY_WDL_NONE).length).toBeGreaterThan(200);
    const r = api.analyzeBatch(batch, ['wdl', 'dtz'], { syzygy: tb });
    expect(bytes(r.wdl).equals(bytes(s.wdl))).toBe(true);
    expect(bytes(r.dtz).equals(bytes(s.dtz))).toBe(true);
    const a = await api.analyzeBatchAsync(batch, ['dtz'], { syzygy: tb });
    expect(Object.keys(a)).toEqual(['dtz']);
    expect(bytes(a.dtz).equals(bytes(s.dtz))).toBe(true);
  });

  it('options.out: wdl and dtz land in the given arrays, over stale contents', () => {
    const fens = randomFens(api, 100, 11);
    const batch = api.PositionBatch.fromFens([...fens, 'not a fen']);
    const fresh = api.analyzeBatch(batch, ['wdl', 'dtz', 'inCheck'], { syzygy: tb });
    const wdl = new Int8Array(batch.length).fill(99), dtz = new Int16Array(batch.length).fill(-7);
    const r = api.analyzeBatch(batch, ['wdl', 'dtz', 'inCheck'], { syzygy: tb, out: { wdl, dtz } });
    expect(r.wdl).toBe(wdl);
    expect(r.dtz).toBe(dtz);
    expect(bytes(r.wdl).equals(bytes(fresh.wdl))).toBe(true);
    expect(bytes(r.dtz).equals(bytes(fresh.dtz))).toBe(true);
    expect(r.wdl[100]).toBe(SYZYGY_WDL_NONE);
    expect(() => api.analyzeBatch(batch, ['wdl', 'dtz'], { syzygy: tb, out: { wdl: new Int16Array(batch.length) as never } })).toThrow(TypeError);
    expect(() => api.analyzeBatch(batch, ['wdl'], { syzygy: tb, out: { dtz } })).toThrow(/options\.out\.dtz is no feature this call asks for/);
  });

  it('castling rights, too many pieces and unparsed slots give the NONE values', () => {
    const fens = [
      'r3k3/8/8/8/8/8/8/4K3 b q - 0 1', // 3 pieces, castling rights
      '4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1', // 5 pieces
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      'not a fen',
      '8/8/8/8/8/2k5/8/K6Q w - - 0 1', // KQvK, answered
    ];
    const batch = api.PositionBatch.fromFens(fens);
    const r = api.analyzeBatch(batch, ['wdl', 'dtz'], { syzygy: tb });
    expect([...r.wdl.subarray(0, 4)]).toEqual([SYZYGY_WDL_NONE, SYZYGY_WDL_NONE, SYZYGY_WDL_NONE, SYZYGY_WDL_NONE]);
    expect([...r.dtz.subarray(0, 4)]).toEqual([SYZYGY_DTZ_NONE, SYZYGY_DTZ_NONE, SYZYGY_DTZ_NONE, SYZYGY_DTZ_NONE]);
    expect(r.wdl[4]).toBe(2);
    expect(r.dtz[4]).toBeGreaterThan(0);
  });

  it('threads: a non-number is a TypeError, a number out of range a RangeError (sync and async)', async () => {
    const words = api.PositionBatch.fromFens(['8/8/8/8/8/2k5/8/K6Q w - - 0 1']);
    expect(() => tb.probeWdlBatch(words, undefined, '2' as never)).toThrow(/^probeWdlBatch: threads must be a number/);
    expect(() => tb.probeDtzBatch(words, undefined, 0)).toThrow(RangeError);
    await expect(tb.probeWdlBatchAsync(words, null as never)).rejects.toThrow(TypeError);
    await expect(tb.probeDtzBatchAsync(words, 1.5)).rejects.toThrow(RangeError);
  });

  it("'all' means the features that need no tablebase; wdl / dtz without one is a TypeError naming the option", async () => {
    const batch = api.PositionBatch.fromFens(['8/8/8/8/8/2k5/8/K6Q w - - 0 1']);
    const all = api.analyzeBatch(batch, 'all', { syzygy: tb });
    expect(Object.keys(all)).not.toContain('wdl');
    expect(Object.keys(all)).not.toContain('dtz');
    expect(Object.keys(all).length).toBe(FEATURES.length);
    expect(() => api.analyzeBatch(batch, ['wdl'])).toThrow(TypeError);
    expect(() => api.analyzeBatch(batch, ['dtz'], {})).toThrow(/options\.syzygy/);
    expect(() => api.analyzeBatch(batch, ['wdl'], { syzygy: {} as SyzygyTablebase })).toThrow(TypeError);
    await expect(api.analyzeBatchAsync(batch, ['inCheck', 'wdl'])).rejects.toThrow(/options\.syzygy/);
    await expect(api.analyzeBatchAsync(batch, ['inCheck', 'wdl'])).rejects.toBeInstanceOf(TypeError);
  });
});

// ------------------------------------------------------------------------------ the CLI

describe('bitboard-patterns analyze --syzygy (dist/)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bp-sz-batch-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const modes: ('js' | 'native')[] = nativeApi ? ['js', 'native'] : ['js'];
  const api = backends[0]![1];
  const fens = [...EPD.map((e) => e.fen), ...randomFens(api, 60, 11), 'r3k3/8/8/8/8/8/8/4K3 b q - 0 1',
    '4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1'];
  const file = join(dir, 'in.epd');
  writeFileSync(file, `${fens.slice(0, 5).join('\n')}\nthis is no fen\n${fens.slice(5).join('\n')}\n`);

  const run = (...args: string[]) => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
    const r = spawnSync(process.execPath, [cli, 'analyze', ...args], { encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('records carry the single probes (null where unanswerable); native and JS byte-identical', () => {
    const tb = SyzygyTablebase.open(FIXTURES, { backend: 'js' });
    const outs: Record<string, string> = {};
    for (const backend of modes) {
      const r = run(file, '--syzygy', FIXTURES, '--features', 'inCheck', '--backend', backend, '--threads', '2');
      expect(r.status).toBe(3); // the bad line
      outs[backend] = r.stdout;
      const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(records.length).toBe(fens.length + 1);
      const good = records.filter((x) => !('error' in x));
      expect(good.length).toBe(fens.length);
      good.forEach((rec, i) => {
        const pos = api.parseFen(fens[i]!);
        expect(rec.wdl, fens[i]).toBe(tb.getWdl(pos));
        expect(rec.dtz, fens[i]).toBe(tb.getDtz(pos));
        expect(typeof rec.inCheck).toBe('boolean');
      });
      expect(good.at(-1).wdl).toBeNull();
      expect(good.at(-2).dtz).toBeNull();
    }
    if (outs.native !== undefined) expect(outs.native).toBe(outs.js);
    tb.close();
  });

  it('CSV: wdl and dtz columns before error, empty where unanswerable; error records keep the width', () => {
    const outs: Record<string, string> = {};
    for (const backend of modes) {
      const r = run(file, '--syzygy', FIXTURES, '--features', 'inCheck,legalMoveCount', '--format', 'csv', '--backend', backend);
      outs[backend] = r.stdout;
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe('line,input,inCheck,legalMoveCount,wdl,dtz,error');
      const rows = lines.slice(1).map(csvFields);
      for (const row of rows) expect(row.length).toBe(7);
      const bad = rows.find((row) => row[6] !== '')!;
      expect(bad[1]).toBe('this is no fen');
      const castling = rows.find((row) => row[1] === 'r3k3/8/8/8/8/8/8/4K3 b q - 0 1')!;
      expect(castling.slice(4, 6)).toEqual(['', '']);
      expect(rows[0]!.slice(4, 6)).toEqual([String(EPD[0]!.wdl), rows[0]![5]]);
      expect(rows[0]![5]).not.toBe('');
    }
    if (outs.native !== undefined) expect(outs.native).toBe(outs.js);
  });

  it('usage errors: wdl without --syzygy, a directory with no tables, --syzygy with PGN input per game', () => {
    const a = run(file, '--features', 'wdl');
    expect(a.status).toBe(2);
    expect(a.stderr).toMatch(/--syzygy/);
    const b = run(file, '--syzygy', dir);
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(/no Syzygy tables/);
    const c = run(file, '--syzygy', join(dir, 'missing'));
    expect(c.status).toBe(2);
    const pgn = join(dir, 'g.pgn');
    writeFileSync(pgn, '[Event "x"]\n\n1. e4 e5 *\n');
    const d = run(pgn, '--syzygy', FIXTURES, '--per', 'game');
    expect(d.status).toBe(2);
    expect(d.stderr).toMatch(/--syzygy/);
  });
});
