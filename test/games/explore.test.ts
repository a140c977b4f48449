/**
 * The opening explorer (lib/games/explorer.ts, lib/games/explorer-files.ts, `bitboard-patterns
 * explore` through dist/cli.cjs: run `npm run build` first), on both backends.
 *
 * Truth: an independent replay (test/support/explorer-reference.ts): chessops (a dev dependency)
 * reads the generated corpus and replays the SAN of each game's main line; each replayed position's
 * key is the JS backend's polyglotKey of chessops's FEN (test/games/polyglot.test.ts holds that key to
 * the format's published keys); the result comes from the Result tag as chessops reads it. The Parquet file is read back by
 * DuckDB (@duckdb/node-api, a real database); the book by PolyglotBook; merge against the whole.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePgn as opsParsePgn } from 'chessops/pgn';
import { DuckDBInstance } from '@duckdb/node-api';
import { exploreGames, OpeningTree, type ExplorerRow } from '../../lib/games/explorer.js';
import { readTree, treeNdjson, TreeFileError } from '../../lib/games/explorer-files.js';
import { openingOfKey } from '../../lib/games/openings.js';
import { PolyglotBook } from '../../lib/games/polyglot.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';
import { referenceTree, sortedRows, type ReferenceRow } from '../support/explorer-reference.js';
import { rng } from '../patterns/reference.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'explore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAX_PLY = 12;
// Random playouts seldom castle early: a few opening lines with castling on both wings are added.
const CASTLING_GAMES = [
  ['1-0', '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O 6. Re1 d6'],
  ['*', '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 O-O'],
  ['0-1', '1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 6. e3 e6'],
  ['1/2-1/2', '1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O e6'],
].map(([result, moves], i) => `[Event "castling ${i}"]\n[Result "${result}"]\n\n${moves} ${result}\n`).join('\n');
const corpus = `${makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 300, seed: 37, maxPlies: 60 })}\n${CASTLING_GAMES}`;
const corpusFile = join(dir, 'corpus.pgn');
writeFileSync(corpusFile, corpus);

const reference = referenceTree(corpus, MAX_PLY);
const sortedReference = sortedRows(reference);

const BACKENDS = nativeApi ? (['js', 'native'] as const) : (['js'] as const);

function explore(args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'explore', ...args], { maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** Each row's position name as the file wrote it, by key (every row of a key must carry the same). */
const namesSeen = new Map<bigint, string>();

/** The rows of an NDJSON tree, their counts; each row's eco and opening are checked against openingOfKey and kept in namesSeen. */
const ndjsonRows = (text: string): ExplorerRow[] => text.trim().split('\n').filter((l) => l).map((l) => {
  const { eco, opening, ...r } = JSON.parse(l);
  const key = BigInt(r.key);
  const named = openingOfKey(key);
  expect([eco, opening]).toEqual([named?.eco ?? null, named?.name ?? null]);
  namesSeen.set(key, `${eco} ${opening}`);
  return { ...r, key };
});

it('the corpus has what the explorer must count: results of every kind, castling, FEN starts, many shared positions', () => {
  const rows = [...reference.values()];
  expect(rows.some((r) => r.white > 0) && rows.some((r) => r.draws > 0) && rows.some((r) => r.black > 0)).toBe(true);
  expect(rows.some((r) => r.games > r.white + r.draws + r.black)).toBe(true);
  expect(rows.some((r) => r.castling)).toBe(true);
  expect(rows.some((r) => r.games >= 10)).toBe(true);
  expect(corpus.includes('[FEN ')).toBe(true);
});

describe.each(BACKENDS)('exploreGames (%s)', (backend) => {
  it('counts every move of the first plies as the chessops replay does', async () => {
    const { tree, games, bad } = await exploreGames(corpus, { maxPly: MAX_PLY, backend });
    expect(bad).toBe(0);
    expect(games).toBe(opsParsePgn(corpus).length);
    expect(tree.rows()).toEqual(sortedReference);
  });

  it('maxPly 0 counts nothing; maxPly 1 counts only first moves', async () => {
    expect((await exploreGames(corpus, { maxPly: 0, backend })).tree.size).toBe(0);
    expect((await exploreGames(corpus, { maxPly: 1, backend })).tree.rows()).toEqual(
      sortedRows(referenceTree(corpus, 1)));
  });

  it('a bad game counts nothing and the games after it still count', async () => {
    const bad = '[Event "bad"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n\n';
    const seen: number[] = [];
    const r = await exploreGames(bad + corpus, { maxPly: MAX_PLY, backend }, undefined, (g) => seen.push(g.game));
    expect(r.bad).toBe(1);
    expect(seen).toEqual([1]);
    expect(r.tree.rows()).toEqual(sortedReference);
  });

  it('hostile options are TypeError / RangeError', async () => {
    await expect(exploreGames(corpus, { maxPly: -1, backend })).rejects.toThrow(RangeError);
    await expect(exploreGames(corpus, { maxPly: 1.5, backend })).rejects.toThrow(RangeError);
    await expect(exploreGames(corpus, { maxPly: '3' as unknown as number, backend })).rejects.toThrow(TypeError);
    await expect(exploreGames(corpus, null as unknown as object)).rejects.toThrow(TypeError);
    await expect(exploreGames(corpus, { backend: 'wasm' as 'js' })).rejects.toThrow(RangeError);
    await expect(exploreGames(42 as unknown as string, { backend })).rejects.toThrow(TypeError);
    await expect(exploreGames(corpus, { backend }, {} as OpeningTree)).rejects.toThrow(TypeError);
  });
});

describe('OpeningTree', () => {
  it('addRow refuses bad rows with TypeError / RangeError', () => {
    const t = new OpeningTree();
    const ok: ExplorerRow = { key: 1n, move: 'e2e4', castling: false, games: 3, white: 1, draws: 1, black: 1 };
    t.addRow(ok);
    expect(() => t.addRow({ ...ok, key: 1 as unknown as bigint })).toThrow(TypeError);
    expect(() => t.addRow({ ...ok, key: -1n })).toThrow(RangeError);
    expect(() => t.addRow({ ...ok, key: 1n << 64n })).toThrow(RangeError);
    for (const move of ['e2e2', 'e2e9', 'i2e4', 'e7e8k', 'e2e4qq', '']) expect(() => t.addRow({ ...ok, move })).toThrow(RangeError);
    expect(() => t.addRow({ ...ok, castling: 1 as unknown as boolean })).toThrow(TypeError);
    for (const games of [-1, 1.5, NaN, 2 ** 53]) expect(() => t.addRow({ ...ok, games })).toThrow(RangeError);
    expect(() => t.addRow({ ...ok, games: 2 })).toThrow(RangeError);
    expect(() => t.addRow(null as unknown as ExplorerRow)).toThrow(TypeError);
    expect(t.rows()).toEqual([ok]);
  });

  it('sums random rows as a Map of the same rows does (keys sharing halves, the top bit set, many rows)', () => {
    const random = rng(37);
    const t = new OpeningTree();
    const want = new Map<string, ExplorerRow>();
    const his = [0n, 1n, 0xffffffffn, 0x80000000n], los = [0n, 1n, 0xffffffffn, 0x12345678n];
    const moves = ['e2e4', 'e1g1', 'a7a8q', 'h2h1n'];
    for (let i = 0; i < 30000; i++) {
      const key = i % 3 === 0 ? (his[Math.floor(random() * 4)]! << 32n) | los[Math.floor(random() * 4)]!
        : (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
      const move = moves[Math.floor(random() * 4)]!;
      const castling = move === 'e1g1';
      const white = Math.floor(random() * 3), draws = Math.floor(random() * 3), black = Math.floor(random() * 3);
      const row = { key, move, castling, games: white + draws + black + Math.floor(random() * 2), white, draws, black };
      t.addRow(row);
      const id = `${key}|${move}`;
      const w = want.get(id);
      want.set(id, w ? { ...w, games: w.games + row.games, white: w.white + white, draws: w.draws + draws, black: w.black + black } : row);
    }
    expect(t.size).toBe(want.size);
    expect(t.rows()).toEqual([...want.values()].sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.move < b.move ? -1 : a.move > b.move ? 1 : 0)));
  });

  it('the book scales weights into 16 bits keeping their order', () => {
    const t = new OpeningTree();
    const counts = [100000, 70000, 70000, 3, 1];
    ['e2e4', 'd2d4', 'c2c4', 'g1f3', 'b1c3'].forEach((move, i) => t.addRow({ key: 5n, move, castling: false, games: counts[i]!, white: 0, draws: 0, black: 0 }));
    const view = new DataView(t.polyglotBook().buffer);
    const weights = Array.from({ length: 5 }, (_, i) => view.getUint16(16 * i + 10));
    expect(weights[0]).toBe(65535);
    for (let i = 1; i < 5; i++) expect(weights[i]).toBeLessThanOrEqual(weights[i - 1]!);
    expect(weights[1]).toBe(weights[2]);
    expect(weights[1]).toBeLessThan(weights[0]!);
    expect(weights[3]).toBeGreaterThan(weights[4]!);
    expect(weights[4]).toBeGreaterThanOrEqual(1);
  });
});

describe.each(BACKENDS)('bitboard-patterns explore (%s)', (backend) => {
  const out = (name: string) => join(dir, `${backend}-${name}`);
  let ndjson: ExplorerRow[];
  beforeAll(() => {
    const r = explore([corpusFile, '--max-ply', String(MAX_PLY), '--backend', backend, '--out', out('tree.ndjson'), '--format', 'ndjson']);
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    ndjson = ndjsonRows(readFileSync(out('tree.ndjson'), 'utf8'));
  });

  it('NDJSON rows are the replay\'s counts', () => {
    expect(ndjson).toEqual(sortedReference);
  });

  it('Parquet read by DuckDB: typed columns, the same rows and values as NDJSON', async () => {
    const r = explore([corpusFile, '--max-ply', String(MAX_PLY), '--backend', backend, '--out', out('tree.parquet')]);
    expect(r.status).toBe(0);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const file = out('tree.parquet').replaceAll("'", "''");
    const types = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjects()
      .map((x) => `${x.column_name}:${x.column_type}`);
    expect(types).toEqual(['key:UBIGINT', 'move:VARCHAR', 'castling:BOOLEAN', 'games:UINTEGER', 'white:UINTEGER', 'draws:UINTEGER', 'black:UINTEGER',
      'eco:VARCHAR', 'opening:VARCHAR']);
    const all = (await con.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjects();
    const rows = all.map((x) => ({ key: x.key, move: x.move, castling: x.castling, games: Number(x.games), white: Number(x.white), draws: Number(x.draws), black: Number(x.black) }));
    expect(rows).toEqual(ndjson);
    expect(all.map((x) => `${x.eco} ${x.opening}`)).toEqual(ndjson.map((x) => namesSeen.get(x.key as bigint)));
    // zstd pages where the addon (libzstd) loads, whatever backend read the games; Snappy without it.
    const codecs = (await con.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${file}')`)).getRowObjects().map((x) => x.compression);
    expect(codecs).toEqual([nativeApi ? 'ZSTD' : 'SNAPPY']);
    con.closeSync();
  });

  it('rows carry the lichess data set\'s name of their position: the published Polyglot keys of 1. e4 and the start', () => {
    // Polyglot's published test keys: the start position 463b96181691fc9c, after 1. e4 823c9b50fd114196
    // (test/games/polyglot.test.ts); chess-openings b.tsv: "B00 King's Pawn Game 1. e4", c.tsv: "C50
    // Italian Game: Giuoco Piano 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"; the data set names no start position.
    expect(namesSeen.get(0x463b96181691fc9cn)).toBe('null null');
    expect(namesSeen.get(0x823c9b50fd114196n)).toBe("B00 King's Pawn Game");
    expect([...namesSeen.values()]).toContain('C50 Italian Game: Giuoco Piano');
    expect([...namesSeen.values()].filter((v) => v !== 'null null').length).toBeGreaterThan(5);
  });

  it('--min-games K keeps the rows played at least K times', () => {
    const r = explore([corpusFile, '--max-ply', String(MAX_PLY), '--backend', backend, '--min-games', '3', '--out', out('min3.ndjson')]);
    expect(r.status).toBe(0);
    const rows = ndjsonRows(readFileSync(out('min3.ndjson'), 'utf8'));
    expect(rows).toEqual(sortedReference.filter((x) => x.games >= 3));
    expect(rows.length).toBeLessThan(sortedReference.length);
  });

  it('merge of parts (Parquet and NDJSON) equals the whole', () => {
    // Parts cut at game boundaries: every game starts with its [Event tag.
    const starts = [...corpus.matchAll(/^\[Event /gm)].map((m) => m.index!);
    const cuts = [0, starts[100]!, starts[201]!, corpus.length];
    const parts = cuts.slice(1).map((end, i) => {
      const pgn = out(`part${i}.pgn`);
      writeFileSync(pgn, corpus.slice(cuts[i], end));
      const tree = out(`part${i}.${i === 1 ? 'ndjson' : 'parquet'}`);
      expect(explore([pgn, '--max-ply', String(MAX_PLY), '--backend', backend, '--out', tree]).status).toBe(0);
      return tree;
    });
    const r = explore(['merge', ...parts, '--out', out('merged.ndjson')]);
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(out('merged.ndjson'), 'utf8')).toBe(readFileSync(out('tree.ndjson'), 'utf8'));
    // Merging a tree with itself doubles every count.
    expect(explore(['merge', out('tree.parquet'), out('tree.parquet'), '--out', out('twice.ndjson')]).status).toBe(0);
    expect(ndjsonRows(readFileSync(out('twice.ndjson'), 'utf8'))).toEqual(sortedReference.map((x) =>
      ({ ...x, games: 2 * x.games, white: 2 * x.white, draws: 2 * x.draws, black: 2 * x.black })));
  });

  it('the book read back by PolyglotBook gives every position\'s moves, heaviest first, castling stored as e1h1', () => {
    const book = out('book.bin');
    const r = explore([corpusFile, '--max-ply', String(MAX_PLY), '--backend', backend, '--book', book]);
    expect(r.status).toBe(0);
    const b = PolyglotBook.open(book, { backend });
    expect(b.size).toBe(sortedReference.length);
    const byFen = new Map<string, ReferenceRow[]>();
    for (const row of reference.values()) byFen.set(row.fen, [...(byFen.get(row.fen) ?? []), row]);
    for (const [fen, rows] of byFen) {
      const want = rows.sort((x, y) => y.games - x.games || (x.move < y.move ? -1 : 1)).map((x) => ({ move: x.move, weight: x.games, learn: 0 }));
      // Positions reached by different move orders share a key: the book merges them, and so does want.
      const merged = [...reference.values()].filter((x) => x.key === rows[0]!.key);
      if (merged.length !== rows.length) continue;
      expect(b.entries(jsApi.parseFen(fen))).toEqual(want);
    }
    // The raw move field of castling: to-square on the rook's corner.
    const bytes = readFileSync(book);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const stored = new Map<bigint, string[]>();
    for (let i = 0; i < b.size; i++) {
      const key = view.getBigUint64(16 * i);
      const field = view.getUint16(16 * i + 8);
      const uci = `${'abcdefgh'[(field >> 6) & 7]}${((field >> 9) & 7) + 1}${'abcdefgh'[field & 7]}${((field >> 3) & 7) + 1}`;
      stored.set(key, [...(stored.get(key) ?? []), uci]);
    }
    const CORNER: Record<string, string> = { e1g1: 'e1h1', e1c1: 'e1a1', e8g8: 'e8h8', e8c8: 'e8a8' };
    const castles = [...reference.values()].filter((x) => x.castling);
    expect(castles.length).toBeGreaterThan(0);
    for (const c of castles) {
      expect(stored.get(c.key)).toContain(CORNER[c.move]);
      expect(stored.get(c.key)).not.toContain(c.move);
    }
  });

  it('bad usage is exit code 2; a damaged tree to merge exit code 1; a bad game exit code 3 and the rest counted', () => {
    expect(explore([corpusFile]).status).toBe(2);
    expect(explore([corpusFile, '--max-ply', 'x', '--out', out('x')]).status).toBe(2);
    expect(explore([corpusFile, '--format', 'csv', '--out', out('x')]).status).toBe(2);
    expect(explore(['merge', '--out', out('x')]).status).toBe(2);
    writeFileSync(out('junk.parquet'), 'PAR1 not a parquet file PAR1');
    const junk = explore(['merge', out('junk.parquet'), '--out', out('x')]);
    expect(junk.status).toBe(1);
    expect(junk.err).toMatch(/junk\.parquet/);
    writeFileSync(out('junk.ndjson'), '{"key":"0x1","move":"e2e4","castling":false,"games":1,"white":2,"draws":0,"black":0}\n');
    expect(explore(['merge', out('junk.ndjson'), '--out', out('x')]).status).toBe(1);
    const badPgn = out('bad.pgn');
    writeFileSync(badPgn, `[Event "bad"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n\n${corpus}`);
    const r = explore([badPgn, '--max-ply', String(MAX_PLY), '--backend', backend, '--out', out('bad.ndjson')]);
    expect(r.status).toBe(3);
    expect(r.err).toMatch(/illegal move/);
    expect(ndjsonRows(readFileSync(out('bad.ndjson'), 'utf8'))).toEqual(sortedReference);
  });
});

it('readTree refuses a file that is neither Parquet nor an NDJSON tree with a TreeFileError', async () => {
  const file = join(dir, 'not-a-tree.txt');
  writeFileSync(file, 'hello\n');
  await expect(readTree(file)).rejects.toThrow(TreeFileError);
  writeFileSync(file, treeNdjson([{ key: 7n, move: 'e2e4', castling: false, games: 2, white: 1, draws: 0, black: 1 }]));
  expect((await readTree(file)).rows()).toEqual([{ key: 7n, move: 'e2e4', castling: false, games: 2, white: 1, draws: 0, black: 1 }]);
});
