/**
 * Sources without a file system (what a page has): Syzygy tables from bytes by file name, PGN from a
 * Blob and a web ReadableStream. The truths: the same tables opened from their directory, and the
 * same PGN read as one string.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyzygyTablebase, SyzygyFileError } from '../lib/tablebases/syzygy.js';
import { parsePgn, readPgn } from '../lib/games/pgn.js';
import { backends } from './backends.js';

const SYZYGY = join(__dirname, 'fixtures', 'syzygy');
const QUIRKY = join(__dirname, 'fixtures', 'pgn', 'quirky.pgn');

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
