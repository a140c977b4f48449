/**
 * Sources without a file system (what a page has): Syzygy tables from bytes by file name, PGN from a
 * Blob and a web ReadableStream. The truths: the same tables opened from their directory, and the
 * same PGN read as one string.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyzygyTablebase, SyzygyFileError } from '../../lib/tablebases/syzygy.js';
import { parsePgn, readPgn } from '../../lib/games/pgn.js';
import { backends, jsApi, wasmApi } from '../support/backends.js';

const SYZYGY = join(__dirname, '..', 'fixtures', 'syzygy');
const QUIRKY = join(__dirname, '..', 'fixtures', 'pgn', 'quirky.pgn');

describe.each(backends)('%s', (_name, api) => {
  it('SyzygyTablebase.fromBytes probes as the directory does', () => {
    const files = Object.fromEntries(readdirSync(SYZYGY).filter((f) => /^K[QRBN]?vK\.rtb[wz]$/.test(f))
      .map((f) => [f, new Uint8Array(readFileSync(join(SYZYGY, f)))]));
    const fromBytes = SyzygyTablebase.fromBytes(files);
    const fromDir = SyzygyTablebase.open(SYZYGY, { backend: 'js' });
    expect(fromBytes.tables).toEqual(['KBvK', 'KNvK', 'KQvK', 'KRvK']);
    for (const fen of ['8/8/8/8/8/2k5/8/KQ6 w - - 0 1', '8/8/8/8/8/2k5/8/KQ6 b - - 0 1', '8/8/3k4/8/8/8/8/KR6 b - - 0 1', '8/8/3k4/8/8/8/8/KN6 w - - 0 1']) {
      const pos = api.parseFen(fen);
      expect([fromBytes.probeWdl(pos), fromBytes.probeDtz(pos)], fen).toEqual([fromDir.probeWdl(pos), fromDir.probeDtz(pos)]);
    }
  });

  it('SyzygyTablebase.fromBytes names a damaged table and refuses what is not bytes', () => {
    const bad = SyzygyTablebase.fromBytes(new Map([['KQvK.rtbw', new Uint8Array(100)]]));
    expect(() => bad.probeWdl(api.parseFen('8/8/8/8/8/2k5/8/KQ6 w - - 0 1'))).toThrow(SyzygyFileError);
    expect(() => SyzygyTablebase.fromBytes({ 'KQvK.rtbw': 'x' as unknown as Uint8Array })).toThrow(TypeError);
  });

  it('readPgn reads a Blob and a web ReadableStream as the string', async () => {
    const text = readFileSync(QUIRKY, 'utf8');
    const want = parsePgn(text).map((g) => g.moves);
    const fromBlob = [];
    for await (const g of readPgn(new Blob([text]))) fromBlob.push(g.moves);
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 97) c.enqueue(bytes.subarray(i, i + 97));  // cuts inside games
        c.close();
      },
    });
    const fromStream = [];
    for await (const g of readPgn(stream)) fromStream.push(g.moves);
    expect(fromBlob).toEqual(want);
    expect(fromStream).toEqual(want);
    expect(want.length).toBeGreaterThan(1);
  });
});

/** Random placements of a table's material (FENs the position rules accept), from a seeded PRNG. */
function randomPositions(api: typeof jsApi, table: string, count: number, seed: number) {
  let s = seed >>> 0;
  const next = (n: number) => { s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0; return s % n; };
  const [white, black] = table.split('v') as [string, string];
  const out = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const board: string[] = Array(64).fill('');
    let ok = true;
    for (const [side, pieces] of [[0, white], [1, black]] as const) {
      for (const p of pieces) {
        let sq = next(64);
        for (let k = 0; board[sq] || (p === 'P' && (sq < 8 || sq >= 56)); k++) { sq = next(64); if (k > 100) ok = false; }
        board[sq] = side === 0 ? p : p.toLowerCase();
      }
    }
    if (!ok) continue;
    const rows = [];
    for (let r = 7; r >= 0; r--) {
      let row = '', empty = 0;
      for (let f = 0; f < 8; f++) {
        const c = board[r * 8 + f]!;
        if (!c) { empty++; continue; }
        if (empty) row += empty;
        row += c;
        empty = 0;
      }
      rows.push(row + (empty ? empty : ''));
    }
    try {
      out.push(api.parseFen(`${rows.join('/')} ${next(2) ? 'w' : 'b'} - - 0 1`));
    } catch {
      // a side not to move in check, or pawns that cannot be: not a position
    }
  }
  return out;
}

describe.skipIf(!wasmApi)('SyzygyTablebase.fromBytes on the WebAssembly prober', () => {
  const names = readdirSync(SYZYGY).filter((f) => /\.rtb[wz]$/.test(f));
  const files = new Map(names.map((f) => [f, new Uint8Array(readFileSync(join(SYZYGY, f)))]));
  const wasmTb = SyzygyTablebase.fromBytes(files, { backend: 'wasm' });
  const jsTb = SyzygyTablebase.open(SYZYGY, { backend: 'js' });

  it('answers as the JS prober over the same files, table by table (WDL, DTZ, root moves)', () => {
    expect(wasmTb.backend).toBe('wasm');
    expect(wasmTb.tables).toEqual(jsTb.tables);
    for (const [t, table] of wasmTb.tables.entries()) {
      const positions = randomPositions(jsApi, table, 60, 1000 + t);
      expect(positions.length, table).toBeGreaterThan(20);
      const words = jsApi.packPositions(positions);
      expect([...wasmTb.probeWdlBatch(words)], table).toEqual([...jsTb.probeWdlBatch(words)]);
      expect([...wasmTb.probeDtzBatch(words)], table).toEqual([...jsTb.probeDtzBatch(words)]);
      for (const pos of positions.slice(0, 4)) {
        expect(wasmTb.getWdl(pos), table).toEqual(jsTb.getWdl(pos));
        expect(wasmTb.getDtz(pos), table).toEqual(jsTb.getDtz(pos));
        expect(JSON.stringify(wasmTb.probeRoot(pos)), table).toBe(JSON.stringify(jsTb.probeRoot(pos)));
      }
    }
  });

  it('names a damaged file as the JS prober does', () => {
    const good = files.get('KQvK.rtbw')!;
    const cut = SyzygyTablebase.fromBytes(new Map([['KQvK.rtbw', good.subarray(0, good.length - 64)]]), { backend: 'wasm' });
    const cutJs = SyzygyTablebase.fromBytes(new Map([['KQvK.rtbw', good.subarray(0, good.length - 64)]]), { backend: 'js' });
    const pos = jsApi.parseFen('8/8/8/8/8/2k5/8/KQ6 w - - 0 1');
    const thrown = (f: () => unknown) => { try { f(); } catch (e) { return e as SyzygyFileError; } return undefined; };
    const a = thrown(() => cut.probeWdl(pos)), b = thrown(() => cutJs.probeWdl(pos));
    expect(a).toBeInstanceOf(SyzygyFileError);
    expect(b).toBeInstanceOf(SyzygyFileError);
    expect([a!.problem, a!.file]).toEqual([b!.problem, b!.file]);
    expect(a!.message).toMatch(/^KQvK\.rtbw: /);
    expect(() => SyzygyTablebase.fromBytes(files, { backend: 'gpu' as 'js' })).toThrow(RangeError);
  });
});
