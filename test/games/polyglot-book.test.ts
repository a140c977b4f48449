/**
 * PolyglotBook on both backends, with books written here by a brute-force writer from the format's
 * description ("Polyglot book format", http://hgm.nubati.net/book_format.html: 16-byte big-endian
 * entries key, move, weight, learn, sorted by key; castling stored as the king taking its rook),
 * chess.js as the oracle of move legality, damaged and unsorted files, and the weighted pick.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PolyglotBook, PolyglotBookError } from '../../lib/games/polyglot.js';
import type { Api } from '../../lib/api/create-api.js';
import { backends } from '../support/backends.js';
import { PUBLISHED_KEYS } from './polyglot-keys.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const FILES = 'abcdefgh';
const square = (s: string): number => FILES.indexOf(s[0]!) + 8 * (Number(s[1]) - 1);

interface Written { key: bigint; move: string; weight: number; learn: number }

/**
 * The format's move field of a UCI move: to-file bits 0-2, to-row 3-5, from-file 6-8, from-row 9-11,
 * promotion 12-14 (n 1, b 2, r 3, q 4). `kingOnFrom`: the moving piece is a king, so e1g1 / e1c1 /
 * e8g8 / e8c8 are castling, stored as the king taking its rook (e1h1, e1a1, e8h8, e8a8).
 */
function moveField(uci: string, kingOnFrom: boolean): number {
  let from = square(uci.slice(0, 2));
  let to = square(uci.slice(2, 4));
  if (kingOnFrom && (from === 4 || from === 60) && Math.abs(to - from) === 2) to = to > from ? from + 3 : from - 4;
  const promotion = uci.length > 4 ? ' nbrq'.indexOf(uci[4]!) : 0;
  from = from & 63;
  return to | (from << 6) | (promotion << 12);
}

/** A book file: the entries sorted by key (stable: entries of one key keep the given order). */
function writeBook(entries: { key: bigint; field: number; weight: number; learn: number }[]): Uint8Array {
  const sorted = entries.map((e, i) => ({ ...e, i })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
  const bytes = new Uint8Array(16 * sorted.length);
  const view = new DataView(bytes.buffer);
  sorted.forEach((e, i) => {
    view.setBigUint64(16 * i, e.key);
    view.setUint16(16 * i + 8, e.field);
    view.setUint16(16 * i + 10, e.weight);
    view.setUint32(16 * i + 12, e.learn);
  });
  return bytes;
}

/** Entries of UCI moves of the position `fen`, keyed by the backend's polyglotKey (checked against the published keys elsewhere). */
function entriesOf(api: Api, fen: string, moves: [string, number, number][]) {
  const pos = api.parseFen(fen);
  const key = api.polyglotKey(pos);
  const chess = new Chess(fen);
  return moves.map(([uci, weight, learn]) => ({
    key, weight, learn, field: moveField(uci, chess.get(uci.slice(0, 2) as never)?.type === 'k'),
  }));
}

/** chess.js's legal moves in UCI. */
const legalUci = (fen: string): string[] => new Chess(fen).moves({ verbose: true }).map((m) => m.lan);

const dir = mkdtempSync(join(tmpdir(), 'bbp-book-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(backends)('PolyglotBook (%s)', (name, api) => {
  const backend = name === 'js' ? 'js' : 'native';
  const open = (bytes: Uint8Array) => PolyglotBook.fromBytes(bytes, { backend });

  it('entries: the moves of the position, heaviest first, with weight and learn', () => {
    const bytes = writeBook([
      ...entriesOf(api, START, [['d2d4', 30, 7], ['e2e4', 50, 0], ['g1f3', 0, 0xffffffff], ['c2c4', 30, 1]]),
      ...entriesOf(api, PUBLISHED_KEYS[1]![1], [['e7e5', 10, 0], ['c7c5', 20, 0]]),
    ]);
    const book = open(bytes);
    expect(book.size).toBe(6);
    expect(book.backend).toBe(backend);
    expect(book.entries(api.parseFen(START))).toEqual([
      { move: 'e2e4', weight: 50, learn: 0 }, { move: 'd2d4', weight: 30, learn: 7 }, { move: 'c2c4', weight: 30, learn: 1 },
      { move: 'g1f3', weight: 0, learn: 0xffffffff },
    ]);
    expect(book.entries(api.makeMove(api.parseFen(START), 'e2e4')).map((e) => e.move)).toEqual(['c7c5', 'e7e5']);
    // A position the book does not hold.
    expect(book.entries(api.parseFen(PUBLISHED_KEYS[2]![1]))).toEqual([]);
    expect(open(new Uint8Array(0)).entries(api.parseFen(START))).toEqual([]);
  });

  it('castling is stored as the king taking its rook and comes back as e1g1 / e1c1 / e8g8 / e8c8', () => {
    const white = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
    const black = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1';
    const whiteEntries = entriesOf(api, white, [['e1g1', 5, 0], ['e1c1', 4, 0], ['a1b1', 1, 0]]);
    expect(whiteEntries.map((e) => e.field & 0xfff)).toEqual([
      7 | (4 << 6), 0 | (4 << 6), 1 | (0 << 6), // h1 from e1, a1 from e1 (the format's rule), b1 from a1
    ]);
    const book = open(writeBook([...whiteEntries, ...entriesOf(api, black, [['e8g8', 2, 0], ['e8c8', 3, 0]])]));
    const w = book.entries(api.parseFen(white)).map((e) => e.move);
    const b = book.entries(api.parseFen(black)).map((e) => e.move);
    expect(w).toEqual(['e1g1', 'e1c1', 'a1b1']);
    expect(b).toEqual(['e8c8', 'e8g8']);
    for (const m of w) expect(legalUci(white)).toContain(m);
    for (const m of b) expect(legalUci(black)).toContain(m);
  });

  it('promotions carry their piece', () => {
    const fen = '8/4P1k1/8/8/8/8/8/K7 w - - 0 1';
    const book = open(writeBook(entriesOf(api, fen, [['e7e8q', 9, 0], ['e7e8n', 3, 0], ['e7e8r', 1, 0]])));
    expect(book.entries(api.parseFen(fen)).map((e) => e.move)).toEqual(['e7e8q', 'e7e8n', 'e7e8r']);
  });

  it('an entry whose move is not legal in the position (another position with the key, a damaged field) is passed over', () => {
    const key = api.polyglotKey(api.parseFen(START));
    const book = open(writeBook([
      { key, field: moveField('e2e5', false), weight: 100, learn: 0 }, // no such move
      { key, field: moveField('e2e4', false) | (5 << 12), weight: 90, learn: 0 }, // promotion code 5: not in the format
      { key, field: moveField('e1g1', true), weight: 80, learn: 0 }, // castling through pieces
      { key, field: moveField('g1f3', false), weight: 1, learn: 0 },
    ]));
    expect(book.entries(api.parseFen(START))).toEqual([{ move: 'g1f3', weight: 1, learn: 0 }]);
  });

  it('a damaged file (length not a multiple of 16) or an unsorted one is a PolyglotBookError, never an entry', () => {
    const good = writeBook(entriesOf(api, START, [['e2e4', 1, 0], ['d2d4', 1, 0]]));
    for (const cut of [1, 15, 17, 31]) {
      const bytes = new Uint8Array(cut);
      bytes.set(good.subarray(0, Math.min(cut, good.length)));
      const err = (() => { try { open(bytes); } catch (e) { return e; } return undefined; })();
      expect(err).toBeInstanceOf(PolyglotBookError);
      expect((err as PolyglotBookError).problem).toBe('length');
      expect((err as PolyglotBookError).offset).toBe(cut);
    }
    // Two entries with the larger key first.
    const other = writeBook(entriesOf(api, PUBLISHED_KEYS[1]![1], [['e7e5', 1, 0]]));
    const [low, high] = api.polyglotKey(api.parseFen(START)) < api.polyglotKey(api.parseFen(PUBLISHED_KEYS[1]![1]))
      ? [good.subarray(0, 16), other] : [other, good.subarray(0, 16)];
    const unsorted = new Uint8Array(48);
    unsorted.set(low, 0);
    unsorted.set(high, 16);
    unsorted.set(low, 32);
    const err = (() => { try { open(unsorted); } catch (e) { return e; } return undefined; })();
    expect(err).toBeInstanceOf(PolyglotBookError);
    expect((err as PolyglotBookError).problem).toBe('unsorted');
    expect((err as PolyglotBookError).offset).toBe(32);
    // Keys that differ only in the low 32 bits are ordered too.
    const twin = new Uint8Array(32);
    twin.set(good.subarray(0, 16), 0);
    twin.set(good.subarray(0, 16), 16);
    new DataView(twin.buffer).setUint32(4, new DataView(twin.buffer).getUint32(20) + 1);
    expect(() => open(twin)).toThrow(PolyglotBookError);
  });

  it('open(path) reads the file; a missing file is a PolyglotBookError io; wrong arguments are TypeErrors', () => {
    const bytes = writeBook(entriesOf(api, START, [['e2e4', 2, 0], ['d2d4', 1, 0]]));
    const path = join(dir, `${backend}.bin`);
    writeFileSync(path, bytes);
    const book = PolyglotBook.open(path, { backend });
    expect(book.entries(api.parseFen(START))).toEqual(open(bytes).entries(api.parseFen(START)));
    expect(() => PolyglotBook.open(join(dir, 'missing.bin'), { backend })).toThrow(PolyglotBookError);
    writeFileSync(join(dir, 'odd.bin'), bytes.subarray(0, 20));
    expect(() => PolyglotBook.open(join(dir, 'odd.bin'), { backend })).toThrow(/not a whole number of 16-byte entries/);
    expect(() => PolyglotBook.open(42 as never)).toThrow(TypeError);
    expect(() => PolyglotBook.fromBytes([1, 2] as never)).toThrow(TypeError);
    expect(() => PolyglotBook.fromBytes(new Uint16Array(8) as never)).toThrow(TypeError);
    expect(() => PolyglotBook.fromBytes(new Proxy(bytes, {}))).toThrow(TypeError);
    const detached = new Uint8Array(16);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    expect(() => PolyglotBook.fromBytes(detached)).toThrow(TypeError);
    class Lying extends Uint8Array { override get length() { return 16; } }
    expect(() => PolyglotBook.fromBytes(new Lying(17))).toThrow(PolyglotBookError); // its real length, 17
    expect(() => PolyglotBook.open('')).toThrow(RangeError);
    expect(() => PolyglotBook.fromBytes(bytes, { backend: 'wasm' as never })).toThrow(RangeError);
    expect(() => book.entries({} as never)).toThrow(TypeError);
    expect(() => new (PolyglotBook as unknown as new () => unknown)()).toThrow(TypeError);
    // The book holds a copy: changing the caller's bytes changes nothing.
    const copy = open(bytes);
    bytes.fill(0);
    expect(copy.entries(api.parseFen(START)).map((e) => e.move)).toEqual(['e2e4', 'd2d4']);
  });

  it('pick: each move as often as its weight over an even sweep of random(), null when nothing has weight', () => {
    const weights: [string, number, number][] = [['e2e4', 5, 0], ['d2d4', 3, 0], ['c2c4', 0, 0], ['g1f3', 2, 0]];
    const book = open(writeBook(entriesOf(api, START, weights)));
    const pos = api.parseFen(START);
    const counts = new Map<string, number>();
    for (let k = 0; k < 10; k++) {
      const e = book.pick(pos, () => (k + 0.5) / 10)!;
      counts.set(e.move, (counts.get(e.move) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({ e2e4: 5, d2d4: 3, g1f3: 2 });
    expect(weights.map(([m]) => m)).toContain(book.pick(pos)!.move);
    expect(open(writeBook(entriesOf(api, START, [['e2e4', 0, 0]]))).pick(pos)).toBeNull();
    expect(book.pick(api.parseFen(PUBLISHED_KEYS[3]![1]))).toBeNull();
    for (const bad of [1, -0.1, NaN, '0.5']) expect(() => book.pick(pos, () => bad as number)).toThrow(RangeError);
    expect(() => book.pick(pos, 0.5 as never)).toThrow(TypeError);
  });

  it('random books over random games: every stored legal move comes back, by weight, legal for chess.js', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 40 }),
      (path, picks) => {
        // Positions along a random game from the start (chess.js plays it), each with some of its legal moves.
        const chess = new Chess();
        const stored: { fen: string; moves: [string, number, number][] }[] = [];
        let p = 0;
        for (const step of path) {
          const fen = chess.fen();
          const legal = legalUci(fen);
          if (legal.length === 0) break;
          const moves: [string, number, number][] = [];
          for (let k = 0; k < 1 + (step % 4); k++) {
            const m = legal[(picks[p++ % Math.max(1, picks.length)] ?? step + k) % legal.length]!;
            if (!moves.some(([x]) => x === m)) moves.push([m, (step * 7 + k * 13) % 5, k]);
          }
          stored.push({ fen, moves });
          chess.move(legal[step % legal.length]!);
        }
        const book = open(writeBook(stored.flatMap(({ fen, moves }) => entriesOf(api, fen, moves))));
        for (const { fen, moves } of stored) {
          // One position may repeat along the game: all its entries, in file order, then by weight.
          const all = stored.filter((s) => s.fen.split(' ').slice(0, 4).join(' ') === fen.split(' ').slice(0, 4).join(' '))
            .flatMap((s) => s.moves);
          const expected = all.map(([move, weight, learn]) => ({ move, weight, learn })).sort((a, b) => b.weight - a.weight);
          const got = book.entries(api.parseFen(fen));
          expect(got).toEqual(expected);
          for (const e of got) expect(legalUci(fen)).toContain(e.move);
          expect(moves.length).toBeGreaterThan(0);
        }
      }), { numRuns: 60 });
  });
});
