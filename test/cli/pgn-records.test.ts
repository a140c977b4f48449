/**
 * The analyze command's per-position PGN records: the addon's writer (BatchBackend.pgnRecords, used by
 * formatChunk on the native backend) against formatChunk's JS writer (the JS backend), byte for byte,
 * on generated games, the quirky and messy fixtures (bad games between good ones: the error records
 * fall between the addon's runs) and random splices of them, for NDJSON and CSV, feature sets and
 * position selections.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatChunk, type FormatOptions } from '../../lib/cli/pgn-input.js';
import { pgnPiecePositions, pgnPositions, piecePositionsForRecords, readerRecordsOf } from '../../lib/games/pgn.js';
import { FEATURES, featureIds } from '../../lib/core/features.js';
import { createSanApi } from '../../lib/games/san.js';
import { loadNative } from '../../lib/backends/native.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pgn/${name}`, import.meta.url));
const CORPUS = Buffer.from(makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 40, seed: 11, maxPlies: 90 }));
const TEXTS = [CORPUS, fixture('messy.pgn'), fixture('quirky.pgn'), fixture('chessbase.pgn')];
const ALL: string[] = FEATURES.map((f) => f.name);

function records(text: Uint8Array, backend: 'native' | 'js', o: Partial<FormatOptions>, features: readonly string[]) {
  const select = { mode: 'all' as const, every: 1, fromPly: 0, ...o.select };
  const chunk = pgnPositions(text, { backend, games: true, outcome: false, select });
  const options: FormatOptions = { ids: featureIds('analyze', features as never), per: 'position', tags: [], offset: 0, strict: false, backend, ...o, select };
  return { chunk, out: formatChunk(chunk, backend === 'native' ? nativeApi! : jsApi, options) };
}

describe.runIf(nativeApi !== undefined)('the addon\'s PGN records equal the JS writer\'s', () => {
  it('the addon writes them (its function exists, the reader\'s records are there)', () => {
    expect(typeof loadNative().batch.pgnRecords).toBe('function');
    expect(readerRecordsOf(pgnPositions(CORPUS, { backend: 'native', games: true }))).toBeDefined();
  });

  const cases: [string, Partial<FormatOptions>, readonly string[]][] = [
    ['NDJSON, inCheck', { format: 'ndjson' }, ['inCheck']],
    ['CSV, inCheck', { format: 'csv' }, ['inCheck']],
    ['NDJSON, every feature', { format: 'ndjson' }, ALL],
    ['CSV, every feature', { format: 'csv' }, ALL],
    ['NDJSON, no feature, every 3rd ply from ply 2, games from 1001', { format: 'ndjson', offset: 1000, select: { mode: 'all', every: 3, fromPly: 2 } }, []],
    ['CSV, final positions, pairs and keys', { format: 'csv', select: { mode: 'final', every: 1, fromPly: 0 } }, ['pinned', 'polyglotKey', 'kingZoneAttacks', 'checkmate']],
  ];
  it.each(cases)('%s', (_name, o, features) => {
    for (const text of TEXTS) {
      const native = records(text, 'native', o, features).out;
      const js = records(text, 'js', o, features).out;
      expectSameBytes(native.text, js.text, 'records');
      expect([native.games, native.bad, native.positions]).toEqual([js.games, js.bad, js.positions]);
    }
  });

  it('random splices of the texts, NDJSON and CSV (fast-check)', () => {
    const all = Buffer.concat(TEXTS);
    const piece = fc.tuple(fc.nat({ max: all.length - 1 }), fc.nat({ max: 3000 })).map(([at, n]) => all.subarray(at, at + n));
    fc.assert(fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.subarray(ALL), (parts, csv, features) => {
      const text = Buffer.concat(parts);
      const o: Partial<FormatOptions> = { format: csv ? 'csv' : 'ndjson' };
      expectSameBytes(records(text, 'native', o, features).out.text, records(text, 'js', o, features).out.text, 'records');
    }), { numRuns: 60 });
  });

  it('a piece read with game objects for its bad games only (what the worker threads read): the same records and counts', () => {
    const text = Buffer.concat([fixture('messy.pgn'), CORPUS, fixture('quirky.pgn')]);
    const piece = { bytes: text, firstGame: 41, firstLine: 7, notFirst: true, games: 0 };
    for (const [strict, format, select] of [[false, 'ndjson', { mode: 'all', every: 1, fromPly: 0 }], [false, 'csv', { mode: 'all', every: 2, fromPly: 1 }],
      [true, 'ndjson', { mode: 'all', every: 1, fromPly: 0 }], [false, 'csv', { mode: 'final', every: 1, fromPly: 0 }]] as const) {
      const o: FormatOptions = { ids: featureIds('analyze', ['checkers', 'inCheck'] as never), per: 'position', tags: [], offset: 3, strict, backend: 'native', format, select };
      const lean = piecePositionsForRecords(piece, 'native', select);
      expect(lean.games.length).toBeLessThan(20); // the bad games only
      const native = formatChunk(lean, nativeApi!, o);
      const js = formatChunk(pgnPiecePositions(piece, { backend: 'js', games: true, outcome: false, select }), jsApi, { ...o, backend: 'js' });
      expectSameBytes(native.text, js.text, `records, strict ${strict}`);
      expect([native.games, native.bad, native.positions, native.stopped]).toEqual([js.games, js.bad, js.positions, js.stopped]);
      expect(native.bad).toBeGreaterThan(0);
    }
  });

  it('--strict stops at the first bad game with the same records', () => {
    const text = Buffer.concat([CORPUS, fixture('messy.pgn'), CORPUS]);
    const native = records(text, 'native', { strict: true }, ['checkers']).out;
    const js = records(text, 'js', { strict: true }, ['checkers']).out;
    expect(native.stopped).toBeDefined();
    expect(native.stopped).toBe(js.stopped);
    expectSameBytes(native.text, js.text, 'records');
  });

  it('bad arguments to the addon\'s writer: TypeError / RangeError, never a crash', () => {
    const write = loadNative().batch.pgnRecords!;
    const { chunk } = records(CORPUS, 'native', {}, ['inCheck']);
    const raw = readerRecordsOf(chunk)!;
    const outs = new Array(FEATURES.length).fill(undefined);
    const into = new Uint8Array(1 << 20);
    const args = (): Parameters<typeof write> => [chunk.batch.words, chunk.game, chunk.ply, 0, chunk.game.length, raw.records.san, raw.records.games,
      raw.firstGame, 0, outs, new Uint8Array(0), 0, into, 0];
    const good = write(...args());
    expect(good).toBeGreaterThan(0);
    const want = into.slice(0, good);
    const bad = (i: number, v: unknown) => { const a = args(); (a as unknown[])[i] = v; return () => write(...a); };
    expect(bad(3, 5)).not.toThrow(); // from past to: RangeError below, equal is an empty range
    expect(bad(3, chunk.game.length + 1)).toThrow(RangeError);
    expect(bad(4, chunk.game.length + 1)).toThrow(RangeError);
    expect(bad(1, new Uint32Array(3))).toThrow(RangeError);
    expect(bad(7, 2)).toThrow(RangeError); // game numbers below the first record
    expect(bad(6, new Int32Array(5))).toThrow(RangeError);
    expect(bad(5, new Uint8Array(0))).toThrow(RangeError); // SAN ranges past the text
    expect(bad(9, [])).toThrow(RangeError);
    expect(bad(9, 'x')).toThrow(TypeError);
    expect(bad(10, Uint8Array.of(200))).toThrow(RangeError);
    expect(bad(13, into.length + 1)).toThrow(RangeError);
    expect(bad(12, 'x')).toThrow(TypeError);
    // The records are written straight into `into` from `at` while they fit: with any room, the
    // same bytes when they fit (nothing before `at` touched), minus their count when they do not.
    for (const [size, at] of [[0, 0], [10, 3], [good - 1, 0], [good + 7, 7], [good + 4096, 1], [good, 0], [2 * good, good]] as const) {
      const buf = new Uint8Array(size).fill(0xa5);
      const a = args();
      a[12] = buf;
      a[13] = at;
      const got = write(...a);
      if (size - at < good) {
        expect(got, `room ${size - at}`).toBe(-good);
        continue;
      }
      expect(got, `room ${size - at}`).toBe(good);
      expectSameBytes(buf.subarray(at, at + good), want, `records at ${at} in ${size} bytes`);
      expect(buf.subarray(0, at).every((b) => b === 0xa5), 'bytes before at').toBe(true);
    }
  });
});
