/**
 * The Polyglot book format's key on both backends, against the format's published test keys
 * ("Polyglot book format", http://hgm.nubati.net/book_format.html, section "Test data": nine
 * positions and their keys), a key written here square by square from the format's description
 * over the brute-force board of test/patterns/reference-checks.ts, and native == JS on random positions.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { POLYGLOT_RANDOM_HALVES } from '../../lib/backends/js/polyglot-random.js';
import { NUM_RUNS } from '../support/arbitraries.js';
import { backends, comparedApis, comparedRows, jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { PUBLISHED_KEYS } from './polyglot-keys.js';
import { PAWN, type Board, boardFromFen, fenFromBoard, randomBoard, randomEpBoard } from '../patterns/reference-checks.js';


const random = (i: number): bigint =>
  (BigInt(POLYGLOT_RANDOM_HALVES[2 * i + 1]!) << 32n) | BigInt(POLYGLOT_RANDOM_HALVES[2 * i]!);

/**
 * The key from the format's description, square by square: "kind_of_piece" black pawn 0, white pawn
 * 1, black knight 2, ... white king 11, offset 64 * kind + 8 * row + file; castling 768 + (white
 * short 0, white long 1, black short 2, black long 3); en passant 772 + file, only "if the opponent
 * has performed a double pawn push and there is now a pawn next to it belonging to the player to
 * move"; turn 780 when white is to move.
 */
function keyRef(b: Board): bigint {
  let key = 0n;
  b.cells.forEach((p, sq) => {
    if (p) key ^= random(64 * (2 * p.type + (p.color === 0 ? 1 : 0)) + sq);
  });
  for (let right = 0; right < 4; right++) if (b.castling & (1 << right)) key ^= random(768 + right);
  if (b.ep >= 0) {
    const pushed = b.ep + (b.side === 0 ? -8 : 8);
    const file = b.ep & 7;
    const beside = [file - 1, file + 1].filter((f) => f >= 0 && f < 8).map((f) => (pushed & ~7) + f);
    if (beside.some((s) => b.cells[s]?.type === PAWN && b.cells[s]?.color === b.side)) key ^= random(772 + file);
  }
  if (b.side === 0) key ^= random(780);
  return key;
}

const randomFen = fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
  const next = rng(seed);
  return fenFromBoard(seed % 3 === 0 ? randomEpBoard(next) : randomBoard(next, 1 + (seed % 14)));
});

describe.each(backends)('polyglotKey (%s)', (_name, api) => {
  it.each(PUBLISHED_KEYS)('the format\'s test key after "%s"', (moves, fen, key) => {
    expect(api.polyglotKey(api.parseFen(fen))).toBe(key);
    // The same position reached by playing the moves (makeMove keeps an en-passant square only
    // when a capture is legal; the key must not care).
    let pos = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    for (const m of moves.split(' ').filter(Boolean)) pos = api.makeMove(pos, m);
    expect(api.polyglotKey(pos)).toBe(key);
  });

  it('an en-passant square no pawn of the side to move can use is not hashed', () => {
    // After 1. e4 (e3 is the en-passant square, no black pawn on d4 or f4): the published key.
    const withEp = api.parseFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
    const without = api.parseFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(api.polyglotKey(withEp)).toBe(api.polyglotKey(without));
    // A pinned pawn beside it still counts (pseudo-legal, as the format says): the black pawn on
    // d4 is pinned by the rook on a4 against the king on h4, yet the file is hashed.
    const pinned = 'K7/8/8/8/R2pP2k/8/8/8 b - e3 0 1';
    const pinnedNoEp = 'K7/8/8/8/R2pP2k/8/8/8 b - - 0 1';
    expect(api.legalMoves(api.parseFen(pinned))).not.toContain('d4e3');
    expect(api.polyglotKey(api.parseFen(pinned)) ^ api.polyglotKey(api.parseFen(pinnedNoEp))).toBe(random(772 + 4));
  });

  it('matches the key written from the format\'s description on random positions', () => {
    fc.assert(fc.property(randomFen, (fen) => {
      expect(api.polyglotKey(api.parseFen(fen)), fen).toBe(keyRef(boardFromFen(fen)));
    }), { numRuns: NUM_RUNS });
  });

  it('refuses what is not a Position', () => {
    expect(() => api.polyglotKey({} as never)).toThrow(TypeError);
    expect(() => api.polyglotKey(undefined as never)).toThrow(TypeError);
  });
});

describe.skipIf(comparedApis.length === 0).each(comparedRows)('%s and JS agree: polyglotKey', (_label, native) => {
  it('on random positions and on positions along random games', () => {
    fc.assert(fc.property(randomFen, fc.array(fc.nat(), { maxLength: 30 }), (fen, picks) => {
      let j = jsApi.parseFen(fen);
      let n = native.parseFen(fen);
      expect(native.polyglotKey(n)).toBe(jsApi.polyglotKey(j));
      for (const pick of picks) {
        const moves = jsApi.legalMoves(j);
        if (moves.length === 0) break;
        const m = moves[pick % moves.length]!;
        j = jsApi.makeMove(j, m);
        n = native.makeMove(n, m);
        expect(native.polyglotKey(n)).toBe(jsApi.polyglotKey(j));
      }
    }), { numRuns: NUM_RUNS });
  });
});

describe.each(backends)('the polyglotKey batch feature (%s)', (_name, api) => {
  it('analyzeBatch gives polyglotKey(pos) per position, 0 for skipped slots', () => {
    const fens = [...PUBLISHED_KEYS.map(([, fen]) => fen), 'not a fen'];
    for (let seed = 1; seed <= 200; seed++) fens.push(fenFromBoard((seed % 3 ? randomBoard : randomEpBoard)(rng(seed), 8)));
    const batch = api.PositionBatch.fromFens(fens);
    const r = api.analyzeBatch(batch, ['polyglotKey']);
    expect(r.polyglotKey).toBeInstanceOf(BigUint64Array);
    expect(r.polyglotKey.length).toBe(fens.length);
    PUBLISHED_KEYS.forEach(([, , key], i) => expect(r.polyglotKey[i]).toBe(key));
    fens.forEach((fen, i) => {
      if (fen === 'not a fen') expect(r.polyglotKey[i]).toBe(0n);
      else expect(r.polyglotKey[i], fen).toBe(api.polyglotKey(api.parseFen(fen)));
    });
  });

  it('analyzeBatchAsync and all features together give the same keys', async () => {
    const fens = PUBLISHED_KEYS.map(([, fen]) => fen);
    const batch = api.PositionBatch.fromFens(fens);
    const all = api.analyzeBatch(batch, 'all');
    const later = await api.analyzeBatchAsync(batch, ['inCheck', 'polyglotKey']);
    expect(Array.from(all.polyglotKey)).toEqual(PUBLISHED_KEYS.map(([, , key]) => key));
    expect(Array.from(later.polyglotKey)).toEqual(PUBLISHED_KEYS.map(([, , key]) => key));
  });
});

describe('analyze --features polyglotKey (the CLI)', () => {
  const root = new URL('../..', import.meta.url).pathname;
  const cli = join(root, 'dist', 'cli.cjs');
  const dir = mkdtempSync(join(tmpdir(), 'bbp-polyglot-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [cli, 'analyze', ...args],
      { maxBuffer: 1 << 26, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '', ...env } });
    return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
  };
  const fenFile = join(dir, 'keys.fen');
  writeFileSync(fenFile, `${PUBLISHED_KEYS.map(([, fen]) => fen).join('\n')}\nnot a fen\n`);
  // The format's first seven test positions are one game: 1. e4 d5 2. e5 f5 3. Ke2 Kf7.
  const pgnFile = join(dir, 'keys.pgn');
  writeFileSync(pgnFile, '[Event "test"]\n[Result "*"]\n\n1. e4 d5 2. e5 f5 3. Ke2 Kf7 *\n');
  const hex = (key: bigint) => `0x${key.toString(16)}`;
  const pipelines: [string, string[], Record<string, string>][] = [['js', ['--backend', 'js'], {}]];
  if (nativeApi) {
    pipelines.push(['native', ['--backend', 'native'], {}],
      ['native, worker threads', ['--backend', 'native'], { BITBOARD_PATTERNS_ANALYZE_PIPELINE: 'workers' }]);
  }

  it.each(pipelines)('FEN lines, NDJSON and CSV (%s): the published keys as 0x hex, an error record for the bad line', (_l, flags, env) => {
    const nd = run([fenFile, '--features', 'polyglotKey', ...flags], env);
    expect(nd.code).toBe(3);
    const recs = nd.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.slice(0, PUBLISHED_KEYS.length).map((r) => r.polyglotKey)).toEqual(PUBLISHED_KEYS.map(([, , k]) => hex(k)));
    expect(recs[PUBLISHED_KEYS.length].error).toBeTruthy();
    const csv = run([fenFile, '--features', 'polyglotKey', '--format', 'csv', ...flags], env);
    const rows = csv.out.trim().split('\n');
    expect(rows[0]).toBe('line,input,polyglotKey,error');
    expect(rows.slice(1, 1 + PUBLISHED_KEYS.length).map((r) => r.split(',')[2])).toEqual(PUBLISHED_KEYS.map(([, , k]) => hex(k)));
  });

  it.each(pipelines)('PGN input (%s): one key per position of the game', (_l, flags, env) => {
    const r = run([pgnFile, '--features', 'polyglotKey', ...flags], env);
    expect(r.code, r.err).toBe(0);
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => x.polyglotKey)).toEqual(PUBLISHED_KEYS.slice(0, 7).map(([, , k]) => hex(k)));
  });

  it.each(pipelines)('PGN input --per game (%s): the key of the game\'s last position, NDJSON and CSV', (_l, flags, env) => {
    const r = run([pgnFile, '--features', 'polyglotKey,inCheck', '--per', 'game', ...flags], env);
    expect(r.code, r.err).toBe(0);
    const [rec] = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(rec.polyglotKey).toBe(hex(PUBLISHED_KEYS[6]![2]));
    expect(rec.inCheck).toBe(0);
    const csv = run([pgnFile, '--features', 'polyglotKey', '--per', 'game', '--format', 'csv', ...flags], env);
    const [header, row] = csv.out.trim().split('\n');
    expect(row!.split(',')[header!.split(',').indexOf('polyglotKey')]).toBe(hex(PUBLISHED_KEYS[6]![2]));
  });
});
