/**
 * `explore merge` of Parquet parts read one row group at a time (readTree in
 * lib/games/explorer-files.ts): parts written here with many small row groups, Snappy or zstd pages
 * (the latter compressed by the addon's libzstd when it has it), must sum to the rows a brute-force
 * Map sums here; damaged or foreign Parquet files are TreeFileErrors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { readTree, TreeFileError } from '../../lib/games/explorer-files.js';
import { OpeningTree } from '../../lib/games/explorer.js';
import { loadNative } from '../../lib/backends/native.js';
import { nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

const dir = mkdtempSync(join(tmpdir(), 'explore-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const zstd = nativeApi ? loadNative().zstd : undefined;

interface Row { key: bigint; move: string; castling: boolean; games: number; white: number; draws: number; black: number }

const MOVES = ['e2e4', 'd2d4', 'g1f3', 'e1g1', 'e7e8q', 'a7a8n'];
function randomRows(n: number, seed: number): Row[] {
  const next = rng(seed);
  const r = { int: (n: number) => Math.floor(next() * n) };
  return Array.from({ length: n }, () => {
    const white = r.int(50), draws = r.int(50), black = r.int(50);
    const move = MOVES[r.int(MOVES.length)]!;
    return { key: BigInt.asUintN(64, (BigInt(r.int(2 ** 30)) << 40n) ^ BigInt(r.int(40))), move, castling: move === 'e1g1',
      games: white + draws + black + r.int(3), white, draws, black };
  });
}

type Codec = 'SNAPPY' | 'ZSTD';
function partBytes(rows: Row[], rowGroupSize: number, codec: Codec, omit?: string): Uint8Array {
  const counts = ['games', 'white', 'draws', 'black'] as const;
  const columns = [
    { name: 'key', data: BigUint64Array.from(rows, (x) => x.key) },
    { name: 'move', data: rows.map((x) => x.move) },
    { name: 'castling', data: rows.map((x) => x.castling) },
    ...counts.map((c) => ({ name: c, data: Uint32Array.from(rows, (x) => x[c]) })),
  ].filter((c) => c.name !== omit);
  type Schema = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>;
  const leaves: Schema = [
    { name: 'key', type: 'INT64', converted_type: 'UINT_64', repetition_type: 'REQUIRED' },
    { name: 'move', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'castling', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
    ...counts.map((name) => ({ name, type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' }) as const),
  ];
  const schema: Schema = [{ name: 'root', num_children: columns.length }, ...leaves.filter((c) => c.name !== omit)];
  return new Uint8Array(parquetWriteBuffer({ columnData: columns, schema, rowGroupSize, codec,
    ...(codec === 'ZSTD' && { compressors: { ZSTD: (b: Uint8Array) => zstd!.compress(b, 3) } }) }));
}

/** The sum of rows by (key, move), sorted as OpeningTree.rows sorts them. */
function summed(rows: Row[]): Row[] {
  const m = new Map<string, Row>();
  for (const x of rows) {
    const id = `${x.key}|${x.move}`;
    const s = m.get(id) ?? { ...x, games: 0, white: 0, draws: 0, black: 0 };
    s.games += x.games; s.white += x.white; s.draws += x.draws; s.black += x.black;
    m.set(id, s);
  }
  return [...m.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.move < b.move ? -1 : a.move > b.move ? 1 : 0));
}

const codecs: Codec[] = zstd ? ['SNAPPY', 'ZSTD'] : ['SNAPPY'];

describe.each(codecs)('merge of Parquet parts with %s pages', (codec) => {
  it('parts of many row groups sum to the brute-force totals', async () => {
    const parts = [randomRows(700, 1), randomRows(333, 2), randomRows(1, 3)];
    let tree = new OpeningTree();
    parts.forEach((rows, i) => writeFileSync(join(dir, `p${i}-${codec}.parquet`), partBytes(rows, [17, 100, 1][i]!, codec)));
    for (let i = 0; i < parts.length; i++) tree = await readTree(join(dir, `p${i}-${codec}.parquet`), tree);
    expect(tree.rows()).toEqual(summed(parts.flat()));
  });
});

describe('damaged or foreign Parquet parts', () => {
  it('a missing column, a cut file, a bad row are TreeFileErrors naming the file', async () => {
    const rows = randomRows(200, 4);
    const noBlack = join(dir, 'noblack.parquet');
    writeFileSync(noBlack, partBytes(rows, 50, 'SNAPPY', 'black'));
    await expect(readTree(noBlack)).rejects.toThrow(/noblack\.parquet: not an explorer tree: no column black/);
    const whole = partBytes(rows, 50, 'SNAPPY');
    // Cut in the middle, with the magic put back at the end: the footer is garbage.
    const cut = join(dir, 'cut.parquet');
    writeFileSync(cut, Buffer.concat([whole.subarray(0, whole.length >> 1), Buffer.from('PAR1')]));
    await expect(readTree(cut)).rejects.toThrow(TreeFileError);
    // A row whose results exceed its games: the row number in the file.
    const bad = rows.map((x, i) => (i === 120 ? { ...x, white: x.games + 1 } : x));
    const badFile = join(dir, 'bad.parquet');
    writeFileSync(badFile, partBytes(bad, 50, 'SNAPPY'));
    await expect(readTree(badFile)).rejects.toThrow(/bad\.parquet: row 121: /);
    expect(readFileSync(badFile).length).toBeGreaterThan(100);
  });
});
