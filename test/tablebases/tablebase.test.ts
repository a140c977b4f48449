/**
 * The general tablebase generator (lib/tablebases/tablebase.ts, native/core/tbgen.h, lib/backends/js/tbgen.ts): published
 * DTM maxima, hand-checked positions, the KBNK table of lib/tablebases/kbnk.ts, a brute-force check of the
 * retrograde invariant with the library's perft-verified legalMoves/makeMove, native vs JS bytes,
 * files, positions, progress and errors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKED_POSITION_WORDS } from '../../lib/core/types.js';
import { KbnkTablebase } from '../../lib/tablebases/kbnk.js';
import { TABLEBASE_ILLEGAL, Tablebase, TablebaseFileError, tablebaseMaterial, tablebaseSubMaterials, type TablebaseProbe } from '../../lib/tablebases/tablebase.js';
import { loadNative } from '../../lib/backends/native.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { fenOfCells } from '../core/fen-writer.js';
import { kbnkReferenceTable } from './reference-kbnk.js';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const fen = (f: string) => jsApi.parseFen(f);
const tmp = mkdtempSync(join(tmpdir(), 'tbgen-'));
afterAll(() => { rmSync(tmp, { recursive: true, force: true }); });

type BackendName = 'native' | 'js';
const generators: BackendName[] = nativeApi ? ['js', 'native'] : ['js'];
const cache = new Map<string, Tablebase>();
/** Tables made once per backend (sub-endings shared through `known`). */
function table(material: string, backend: BackendName): Tablebase {
  const key = `${backend}:${material}`;
  let t = cache.get(key);
  if (!t) {
    const known = [...cache.entries()].filter(([k]) => k.startsWith(`${backend}:`)).map(([, v]) => v);
    t = Tablebase.generateSync(material, { backend, known });
    for (const [name, sub] of t.subTables()) cache.set(`${backend}:${name}`, sub);
    cache.set(key, t);
  }
  return t;
}
/** Native for 4 pieces when the addon loads; JS otherwise only 3-piece endings are made in tests. */
const big: BackendName | undefined = nativeApi ? 'native' : undefined;

/** FEN of a packed position (words as lib/core/position.ts packs them). */
function fenOfPacked(words: BigUint64Array, at: number): string {
  const w = at * PACKED_POSITION_WORDS;
  const cells = Array.from({ length: 64 }, (_, sq) => {
    const b = 1n << BigInt(sq);
    let ch = '';
    for (let t = 0; t < 6; t++) {
      if (words[w + 2 + t]! & b) ch = 'pnbrqk'[t]!;
    }
    return ch && words[w]! & b ? ch.toUpperCase() : ch;
  });
  return fenOfCells(cells, !(words[w + 8]! & 1n));
}

/**
 * The retrograde invariant, by brute force over the library's legal moves: no move = mated (in
 * check, 0) or stalemate (draw); otherwise the value is the best over the moves of the successors'
 * values (found through the table family: captures and promotions probe the sub-endings).
 */
function expectedFromMoves(tb: Tablebase, pos: ReturnType<typeof fen>): TablebaseProbe {
  const moves = jsApi.legalMoves(pos);
  if (moves.length === 0) return jsApi.isInCheck(pos) ? { wdl: -2, dtm: 0 } : { wdl: 0, dtm: 0 };
  let best: TablebaseProbe | undefined, bestScore = -Infinity;
  for (const move of moves) {
    const after = tb.probe(jsApi.makeMove(pos, move));
    // the mover's view: the opponent mated in m moves = we mate in m + 1; the opponent mates in m = we are mated in m
    const mine: TablebaseProbe = after.wdl === 0 ? { wdl: 0, dtm: 0 } : after.wdl < 0 ? { wdl: 2, dtm: -after.dtm! + 1 } : { wdl: -2, dtm: -after.dtm! };
    const score = mine.wdl === 0 ? 0 : mine.wdl > 0 ? 1000 - mine.dtm! : -1000 - mine.dtm!;
    if (score > bestScore) { bestScore = score; best = mine; }
  }
  return best!;
}

/** FEN of table entry i, decoded square by square from the layout documented in lib/tablebases/tablebase.ts. */
function fenOfEntry(tb: Tablebase, i: number): string {
  const m = tb.material, k = m.n - 2;
  const half = tb.table.length / 2;
  const stm = i >= half ? 1 : 0;
  let j = i - stm * half;
  const squares: number[] = new Array(m.n);
  squares[m.n - 1] = j % 64; j = Math.floor(j / 64);
  for (let s = k; s >= 1; s--) { squares[s] = j % 64; j = Math.floor(j / 64); }
  squares[0] = m.pawns ? (j >> 2) * 8 + (j & 3) : [0, 1, 2, 3, 9, 10, 11, 18, 19, 27][j]!;
  const board: string[] = new Array(64).fill('');
  squares.forEach((sq, s) => { const ch = 'pnbrqk'[m.types[s]!]!; board[sq] = m.colors[s] ? ch : ch.toUpperCase(); });
  return fenOfCells(board, !stm);
}

/** A deterministic sample of the table's legal entries, as FENs. */
function sample(tb: Tablebase, count: number, seed: number): string[] {
  let x = seed;
  const out: string[] = [];
  while (out.length < count) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const i = Math.floor((x / 2 ** 32) * tb.table.length);
    if (tb.table[i] !== TABLEBASE_ILLEGAL) out.push(fenOfEntry(tb, i));
  }
  return out;
}

describe('materials', () => {
  it('parses names into slot order and lists the sub-endings', () => {
    expect(tablebaseMaterial('t', 'KRQvKN').name).toBe('KQRvKN');
    expect(tablebaseMaterial('t', 'KvKP')).toMatchObject({ n: 3, colors: [0, 1, 1], types: [5, 0, 5], pawns: true });
    // captures of either side, promotions, and promotions with capture
    expect(tablebaseSubMaterials(tablebaseMaterial('t', 'KPvKR'))).toEqual(
      ['KBvK', 'KBvKR', 'KNvK', 'KNvKR', 'KPvK', 'KQvK', 'KQvKR', 'KRvK', 'KRvKR', 'KvKR'].sort());
  });
  it('refuses malformed materials with a RangeError', () => {
    for (const bad of ['KQK', 'KQvKQvK', 'QvK', 'KQvQ', 'KKvK', 'KQRBvKN', 'KXvK', '']) {
      expect(() => tablebaseMaterial('t', bad), bad).toThrow(RangeError);
    }
  });
});

describe.each(generators)('%s generation', (backend) => {
  // Published maxima of DTM with white to move: KQK 10, KRK 16, KPK 28 moves (Thompson's and
  // Nalimov's tables, as listed by Wikipedia "Endgame tablebase" and the Chess Programming Wiki).
  it.each([['KQvK', 10], ['KRvK', 16], ['KPvK', 28]])('%s: the longest win is %i moves', (m, moves) => {
    const s = table(m, backend).stats();
    expect(s.whiteToMove.longestWin).toBe(moves);
    expect(s.blackToMove.losses).toBeGreaterThan(0);
  });

  it('KQvK and KRvK: every legal position with white to move is a win; KBvK, KNvK, KvK all draws', () => {
    for (const m of ['KQvK', 'KRvK']) {
      const s = table(m, backend).stats().whiteToMove;
      expect(s.wins).toBe(s.legal);
    }
    for (const m of ['KBvK', 'KNvK', 'KvK']) {
      const s = table(m, backend).stats();
      expect(s.whiteToMove.draws).toBe(s.whiteToMove.legal);
      expect(s.blackToMove.draws).toBe(s.blackToMove.legal);
    }
  });

  it('KRvK: 399,112 legal positions in all (175,168 with white to move), the KRK total of Thompson\'s and Nalimov\'s statistics', () => {
    const s = table('KRvK', backend).stats();
    expect(s.whiteToMove.legal + s.blackToMove.legal).toBe(399112);
  });

  it('KQvK: 23,048 drawn positions (stalemates and the queen en prise), all with black to move', () => {
    // Wikipedia, "Queen and king versus king endgame": "There are a total of 23,048 drawn positions in the KQK endgame."
    const s = table('KQvK', backend).stats();
    expect(s.blackToMove.draws + s.whiteToMove.draws).toBe(23048);
    expect(s.whiteToMove.draws).toBe(0);
  });

  it('KvK: 3612 legal positions each side to move (placements of two kings not next to each other)', () => {
    let pairs = 0;
    for (let a = 0; a < 64; a++) {
      for (let b = 0; b < 64; b++) if (Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3))) > 1) pairs++;
    }
    expect(table('KvK', backend).stats().whiteToMove.legal).toBe(pairs);
    expect(pairs).toBe(3612);
  });

  it('hand-checked KQvK: mate in 1 (Qh8#), checkmated, stalemate', () => {
    const t = table('KQvK', backend);
    expect(t.probe(fen('k7/8/1K6/8/8/8/7Q/8 w - - 0 1'))).toEqual({ wdl: 2, dtm: 1 });
    const mate = fen('k7/8/1K6/8/8/8/7Q/8 w - - 0 1');
    expect(t.bestMove(mate)).toBe('h2h8'); // Qh8# is the only mate in 1
    expect(t.probe(jsApi.makeMove(mate, t.bestMove(mate)!))).toEqual({ wdl: -2, dtm: 0 });
    expect(t.probe(fen('k7/1Q6/1K6/8/8/8/8/8 b - - 0 1'))).toEqual({ wdl: -2, dtm: 0 });
    expect(t.bestMove(fen('k7/1Q6/1K6/8/8/8/8/8 b - - 0 1'))).toBeNull();
    expect(t.probe(fen('k7/8/1QK5/8/8/8/8/8 b - - 0 1'))).toEqual({ wdl: 0, dtm: 0 });
    // black to move takes the undefended queen: a draw; with the queen defended, mated later
    expect(t.probe(fen('8/8/8/8/8/8/1q6/K5k1 w - - 0 1'))).toEqual({ wdl: 0, dtm: 0 }); // colours swapped: probed mirrored
    expect(t.probe(fen('k7/1Q6/8/8/8/8/8/6K1 b - - 0 1'))).toEqual({ wdl: 0, dtm: 0 });
    expect(t.probe(fen('k7/1Q6/2K5/8/8/8/8/8 b - - 0 1'))).toEqual({ wdl: -2, dtm: 0 });
  });

  it('hand-checked KPvK: a rook pawn against the king in the corner draws; outside the square wins', () => {
    const t = table('KPvK', backend);
    expect(t.probe(fen('k7/8/8/P7/8/8/8/K7 w - - 0 1')).wdl).toBe(0);
    // the black king on h1 is outside the square of the a2 pawn (a3-f3-f8-a8): it promotes
    expect(t.probe(fen('8/8/8/8/8/8/P7/K6k w - - 0 1')).wdl).toBe(2);
    // king on the sixth rank in front of its pawn wins with either side to move
    expect(t.probe(fen('4k3/8/4K3/4P3/8/8/8/8 w - - 0 1')).wdl).toBe(2);
    expect(t.probe(fen('4k3/8/4K3/4P3/8/8/8/8 b - - 0 1')).wdl).toBe(-2);
    // a pawn on the seventh, the black king far away: it promotes
    expect(t.probe(fen('8/4P3/4K3/8/8/8/8/k7 w - - 0 1')).wdl).toBe(2);
  });

  it('satisfies the retrograde invariant on every sampled position (3-piece endings)', () => {
    for (const m of ['KQvK', 'KRvK', 'KPvK', 'KvKP']) {
      const t = table(m, backend);
      for (const f of sample(t, 150, m.length * 7919)) expect(t.probe(fen(f)), `${m} ${f}`).toEqual(expectedFromMoves(t, fen(f)));
    }
  });

  it('packedPositions: one packed position per stored legal entry, with the probe\'s values', () => {
    const t = table('KRvK', backend);
    const all = t.packedPositions();
    let legal = 0;
    for (const v of t.table) if (v !== TABLEBASE_ILLEGAL) legal++;
    expect(all.count).toBe(legal);
    expect(all.positions.length).toBe(legal * PACKED_POSITION_WORDS);
    for (let i = 0; i < all.count; i += 997) {
      const p = fen(fenOfPacked(all.positions, i));
      expect(t.probe(p)).toEqual({ wdl: all.wdl[i], dtm: all.dtm![i] });
    }
    // slices add up to the whole, in order
    const cut = 40_017;
    const a = t.packedPositions({ end: cut }), b = t.packedPositions({ start: cut });
    expect(a.count + b.count).toBe(all.count);
    expect(Buffer.from(b.positions.buffer).equals(Buffer.from(all.positions.buffer, a.positions.byteLength))).toBe(true);
    expect(() => t.packedPositions({ start: 5, end: 4 })).toThrow(RangeError);
  });

  it('packedPositions: KBBvK lists each position once although the table stores both bishop orders', () => {
    if (backend === 'js') return; // 4 pieces: native only
    const t = table('KBBvK', 'native');
    const { count, positions } = t.packedPositions({ end: 64 * 64 * 64 * 3 });
    const seen = new Set<string>();
    for (let i = 0; i < count; i++) seen.add(Buffer.from(positions.buffer, i * 80, 80).toString('hex'));
    expect(seen.size).toBe(count);
    expect(count).toBeGreaterThan(1000);
  });

  it('reports progress, the last call with done === total', async () => {
    const calls: { material: string; done: number; total: number }[] = [];
    const t = await Tablebase.generate('KRvK', { backend, onProgress: (p) => calls.push(p) });
    expect(calls.length).toBeGreaterThan(0); // native progress is coalesced
    const last = calls.filter((c) => c.material === 'KRvK').at(-1)!;
    expect(last.done).toBe(last.total);
    expect(same(t.table, table('KRvK', backend).table)).toBe(true);
  });

  it('stops midway when the signal aborts during the generation', async () => {
    const controller = new AbortController();
    const run = Tablebase.generate('KRvK', { backend, known: [table('KvK', backend)], signal: controller.signal,
      onProgress: (p) => { if (p.done >= 3) controller.abort(); } });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reuses the tables given as known instead of making them again', async () => {
    const kvk = table('KvK', backend);
    const seen: string[] = [];
    const t = await Tablebase.generate('KQvK', { backend, known: [kvk], onProgress: (p) => seen.push(p.material) });
    expect(t.subTables().get('KvK')).toBe(kvk);
    expect(new Set(seen)).toEqual(new Set(['KQvK']));
  });

  it('stops on an aborted signal with an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(Tablebase.generate('KQvK', { backend, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe.skipIf(!big)('native, 4 pieces', () => {
  // Published DTM maxima with white to move (Wikipedia "Endgame tablebase"; Thompson's KQKR 1986):
  // KBBK 19, KBNK 33, KQKR 35 moves; KRKN 40 moves (Thompson's and Nalimov's tables).
  it.each([['KBBvK', 19], ['KBNvK', 33], ['KQvKR', 35], ['KRvKN', 40]])('%s: the longest win is %i moves', (m, moves) => {
    expect(table(m, big!).stats().whiteToMove.longestWin).toBe(moves);
  });

  it('hand-checked KBBvK: Be5# (mate in 1), and the mate on the board', () => {
    const t = table('KBBvK', big!);
    // Kf7 covers g8 and g7, Bg6 covers h7, the bishop from b8 checks on the long diagonal
    const pos = fen('1B5k/5K2/6B1/8/8/8/8/8 w - - 0 1');
    expect(t.probe(pos)).toEqual({ wdl: 2, dtm: 1 });
    expect(t.bestMove(pos)).toBe('b8e5');
    expect(t.probe(fen('7k/5K2/6B1/4B3/8/8/8/8 b - - 0 1'))).toEqual({ wdl: -2, dtm: 0 });
    // a lone bishop pair cannot mate a king that takes one of them
    expect(t.probe(fen('7k/6B1/6B1/8/8/8/8/K7 b - - 0 1'))).toEqual({ wdl: 0, dtm: 0 });
  });

  it('hand-checked KQvKR: Qh8# (the rook cannot interpose), and the rook takes an unguarded queen', () => {
    const t = table('KQvKR', big!);
    expect(t.probe(fen('3k4/8/3K4/8/8/8/8/r6Q w - - 0 1'))).toEqual({ wdl: 2, dtm: 1 });
    expect(t.bestMove(fen('3k4/8/3K4/8/8/8/8/r6Q w - - 0 1'))).toBe('h1h8');
    // black to move: Rxa4 leaves KvKR, a win for black (the KRK table: mate in at most 16)
    const p = t.probe(fen('8/8/8/8/Q6r/8/8/K6k b - - 0 1'));
    expect(p.wdl).toBe(2);
    expect(t.bestMove(fen('8/8/8/8/Q6r/8/8/K6k b - - 0 1'))).toBe('h4a4');
  });

  it('KBNvK counts: the statistics the KBNK table matches (10,875,504 legal with white to move, 53,320 draws; 13,660,584 / 2,472,416)', () => {
    const s = table('KBNvK', big!).stats();
    expect([s.whiteToMove.legal, s.whiteToMove.wins, s.whiteToMove.draws]).toEqual([10875504, 10822184, 53320]);
    expect([s.blackToMove.legal, s.blackToMove.losses, s.blackToMove.draws]).toEqual([13660584, 11188168, 2472416]);
  });

  it('KBNvK is byte for byte the table of the dedicated KBNK generator written for the test (test/tablebases/reference-kbnk.ts)', () => {
    expect(same(table('KBNvK', big!).table, kbnkReferenceTable())).toBe(true);
  });

  it('loads a KBNK file of lib/tablebases/kbnk.ts as the KBNvK table and probes like KbnkTablebase', async () => {
    const kbnk = await KbnkTablebase.generate({ backend: 'native' });
    const file = join(tmp, 'kbnk.bin');
    kbnk.save(file);
    const tb = Tablebase.load(file);
    expect(tb.name).toBe('KBNvK');
    expect(same(tb.table, table('KBNvK', big!).table)).toBe(true);
    for (const f of ['8/8/8/8/8/8/2k5/KNB5 w - - 0 1', 'k7/8/1K6/3N4/8/8/8/7B w - - 0 1', '8/8/8/3k4/8/8/8/KNB5 b - - 0 1']) {
      const p = kbnk.probe(fen(f));
      expect(tb.probe(fen(f)), f).toEqual(p.result === 'draw' ? { wdl: 0, dtm: 0 } : { wdl: p.result === 'win' ? 2 : -2, dtm: p.result === 'win' ? p.dtm! : -p.dtm! || 0 });
    }
    expect(tb.probe(fen('8/8/8/8/8/8/2k5/KNB5 w - - 0 1'))).toEqual({ wdl: 2, dtm: 33 }); // OEIS A225556: mate in 33
    const damaged = readFileSync(file);
    damaged[30] ^= 1;
    expect(() => Tablebase.fromBuffer(damaged)).toThrow(/KBNK|checksum/);
  });

  it('KQvKR: the retrograde invariant on a sample, captures into KQvK and KvKR included', () => {
    const t = table('KQvKR', big!);
    for (const f of sample(t, 250, 12345)) expect(t.probe(fen(f)), f).toEqual(expectedFromMoves(t, fen(f)));
  });

  it('KPvKN: the retrograde invariant on a sample (promotions, captures by both sides)', () => {
    const t = table('KPvKN', big!);
    for (const f of sample(t, 250, 777)) expect(t.probe(fen(f)), f).toEqual(expectedFromMoves(t, fen(f)));
  });

  it('cancels a native generation midway through an AbortSignal', async () => {
    const controller = new AbortController();
    const known = [...table('KQvKR', big!).subTables().values()];
    const run = Tablebase.generate('KQvKR', { backend: 'native', known, signal: controller.signal, onProgress: (p) => { if (p.done >= 3) controller.abort(); } });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('the same bytes on 1 thread and on 2', () => {
    const one = Tablebase.generateSync('KQvKR', { backend: 'native', threads: 1, known: [...table('KQvKR', big!).subTables().values()] });
    expect(same(one.table, table('KQvKR', big!).table)).toBe(true);
  });

  it('plays KQvKR out: every best move keeps the result and shortens the mate by one ply', () => {
    const t = table('KQvKR', big!);
    const start = sample(t, 50, 99).map(fen).filter((q) => t.probe(q).wdl === 2 && t.probe(q).dtm! > 10)[0]!;
    let pos = start;
    let p = t.probe(pos);
    expect(expectedFromMoves(t, pos)).toEqual(p);
    for (let ply = 0; ply < 200 && jsApi.legalMoves(pos).length; ply++) {
      const next = jsApi.makeMove(pos, t.bestMove(pos)!);
      const q = t.probe(next);
      if (p.wdl > 0) expect(q).toEqual({ wdl: -2, dtm: p.dtm! === 1 ? 0 : -(p.dtm! - 1) });
      else expect(q).toEqual({ wdl: 2, dtm: -p.dtm! });
      pos = next;
      p = q;
    }
    expect(p).toEqual({ wdl: -2, dtm: 0 });
    expect(jsApi.isInCheck(pos)).toBe(true);
  });
});

describe.skipIf(!nativeApi)('native vs JS', () => {
  it('byte-identical tables for every 3-piece ending', () => {
    for (const m of ['KQvK', 'KRvK', 'KBvK', 'KNvK', 'KPvK', 'KvKQ', 'KvKR', 'KvKP', 'KvK']) {
      expect(same(table(m, 'native').table, table(m, 'js').table), m).toBe(true);
    }
  });
});

describe('files', () => {
  const t = table('KRvK', 'js');
  it('round-trips through save and load', () => {
    const file = join(tmp, 'KRvK.bbptb');
    t.save(file);
    const back = Tablebase.load(file);
    expect(back.name).toBe('KRvK');
    expect(same(back.table, t.table)).toBe(true);
    expect(back.probe(fen('k7/8/1K6/8/8/8/8/7R w - - 0 1'))).toEqual({ wdl: 2, dtm: 1 });
  });
  it('refuses damaged files with a TablebaseFileError naming the problem', () => {
    const good = t.toBuffer();
    const cases: [string, Buffer, string][] = [];
    cases.push(['truncated header', good.subarray(0, 20), 'truncated']);
    const magic = Buffer.from(good); magic[0] = 0x41; cases.push(['magic', magic, 'magic']);
    const version = Buffer.from(good); version.writeUInt16LE(3, 8); cases.push(['version', version, 'version']);
    const metric = Buffer.from(good); metric[12] = 9; cases.push(['metric', metric, 'metric']);
    const sym = Buffer.from(good); sym[13] = 2; cases.push(['symmetry', sym, 'symmetry']);
    const mat = Buffer.from(good); mat.write('KQvK', 16, 'latin1'); cases.push(['material of the same size (the checksum covers the header)', mat, 'checksum']);
    const junk = Buffer.from(good); junk.write('KXvK', 16, 'latin1'); cases.push(['material', junk, 'material']);
    const body = Buffer.from(good); body[100] ^= 1; cases.push(['checksum', body, 'checksum']);
    cases.push(['truncated body', good.subarray(0, good.length - 1), 'truncated']);
    cases.push(['trailing bytes', Buffer.concat([good, Buffer.alloc(1)]), 'length']);
    for (const [what, buf, problem] of cases) {
      let err: unknown;
      try { Tablebase.fromBuffer(buf); } catch (e) { err = e; }
      expect(err, what).toBeInstanceOf(TablebaseFileError);
      expect((err as TablebaseFileError).problem, what).toBe(problem);
    }
    const file = join(tmp, 'bad.bbptb');
    writeFileSync(file, body);
    expect(() => Tablebase.load(file)).toThrow(TablebaseFileError);
    expect(readFileSync(file).length).toBe(good.length);
  });
});

describe('bad input', () => {
  it('generate: TypeError / RangeError, never a crash', async () => {
    await expect(Tablebase.generate(42 as unknown as string)).rejects.toThrow(TypeError);
    await expect(Tablebase.generate('KQK')).rejects.toThrow(RangeError);
    await expect(Tablebase.generate('KQvK', { metric: 'dtx' as 'dtm' })).rejects.toThrow(RangeError);
    await expect(Tablebase.generate('KQvK', { threads: 0 })).rejects.toThrow(RangeError);
    await expect(Tablebase.generate('KQvK', { threads: '2' as never })).rejects.toThrow(TypeError);
    await expect(Tablebase.generate('KQvK', { threads: null as never })).rejects.toThrow(TypeError);
    await expect(Tablebase.generate('KQvK', { signal: { aborted: false } as never })).rejects.toThrow(TypeError);
    await expect(Tablebase.generate('KQvK', { backend: 'gpu' as 'js' })).rejects.toThrow(RangeError);
    await expect(Tablebase.generate('KQRvKR', { backend: 'js' })).rejects.toThrow(RangeError);
  });
  it('tables carry the package\'s brand and cannot be reshaped; look-alikes are refused', () => {
    const t = table('KQvK', 'js');
    expect(Tablebase.isTablebase(t)).toBe(true);
    expect(Tablebase.isTablebase({ ...t })).toBe(false);
    expect(() => { (t as unknown as { table: unknown }).table = new Uint8Array(1); }).toThrow(TypeError);
    expect(() => { (t.material as { name: string }).name = 'KRvK'; }).toThrow(TypeError);
    expect(() => Tablebase.generateSync('KQvK', { known: [{ ...t } as Tablebase] })).toThrow(TypeError);
  });

  it('probe and bestMove: a TypeError for a non-Position, a RangeError for other material or an illegal position', () => {
    const t = table('KQvK', 'js');
    expect(() => t.probe({} as never)).toThrow(TypeError);
    expect(() => t.bestMove(null as never)).toThrow(TypeError);
    expect(() => t.probe(fen('k7/8/1K6/8/8/8/8/7R w - - 0 1'))).toThrow(RangeError);
    expect(() => table('KRvK', 'js').probe(fen('k7/8/8/8/8/8/8/4K2R w K - 0 1'))).toThrow(/castling/);
  });
  it.skipIf(!nativeApi)('the native entry checks its arguments', () => {
    const native = nativeAddon();
    expect(() => native.tbGenerate('KQvK', '', [], new Uint8Array(5))).toThrow(RangeError);
    expect(() => native.tbGenerate('KQK', '', [], new Uint8Array(5))).toThrow(RangeError);
    expect(() => native.tbGenerate('KQvK', 'KvK', [], new Uint8Array(5))).toThrow(RangeError);
    expect(() => native.tbGenerate(1 as unknown as string, '', [], new Uint8Array(5))).toThrow(TypeError);
    // a missing sub-table is reported, not read
    const size = 2 * 10 * 64 ** 2;
    expect(() => native.tbGenerate('KQvK', '', [], new Uint8Array(size))).toThrow(/sub-ending/);
  });
});

function nativeAddon() {
  return loadNative() as unknown as { tbGenerate(m: string, n: string, s: Uint8Array[], t: Uint8Array, threads?: number): void };
}

describe.each(generators)('DTZ long values (%s): distances beyond a byte, file format v2', (backend) => {
  it('a hand-made v2 file with long values reads back those values; bad ones are refused', () => {
    const t = Tablebase.generateSync('KQvK', { backend, metric: 'dtz' });
    expect(t.longValues.length).toBe(0); // 3-4 piece endings stay within a byte
    const table = Uint8Array.from(t.table);
    const loss = table.findIndex((v, i) => i >= table.length / 2 && v >= 2 && v <= 100); // black to move, lost
    const win = table.findIndex((v) => v > 127 && v < 200); // white to move, won
    table[loss] = 126; table[win] = 253;
    const longs = Buffer.alloc(16);
    longs.writeUInt32LE(Math.min(loss, win), 0); longs.writeUInt32LE(loss < win ? 300 : 1000, 4);
    longs.writeUInt32LE(Math.max(loss, win), 8); longs.writeUInt32LE(loss < win ? 1000 : 300, 12);
    const header = Buffer.alloc(48);
    header.write('BBP-TBGN', 0, 'latin1'); header.writeUInt16LE(2, 8); header.writeUInt16LE(1, 10);
    header[12] = 2; header[13] = 8; header.write('KQvK', 16, 'latin1'); header.writeBigUInt64LE(BigInt(table.length), 32);
    header.writeUInt32LE(crc32(Buffer.concat([header.subarray(0, 40), table, longs])), 40); header.writeUInt32LE(2, 44);
    const file = Buffer.concat([header, table, longs]);
    const back = Tablebase.fromBuffer(file);
    const at = (i: number) => back.packedPositions({ start: i, end: i + 1 });
    expect([at(loss).wdl[0], at(loss).dtz![0]]).toEqual([-1, -300]);
    expect([at(win).wdl[0], at(win).dtz![0]]).toEqual([1, 1000]);
    expect(back.stats().whiteToMove.longestWin).toBe(1000);
    expect(back.toBuffer().equals(file)).toBe(true);
    const unsorted = Buffer.from(file); unsorted.writeUInt32LE(Math.max(loss, win), 48 + table.length);
    unsorted.writeUInt32LE(crc32(Buffer.concat([unsorted.subarray(0, 40), unsorted.subarray(48)])), 40);
    expect(() => Tablebase.fromBuffer(unsorted)).toThrow(expect.objectContaining({ problem: 'longValues' }));
  });
});

describe('the tablebase families share one prefix vocabulary', () => {
  it('the root and the tablebases subpath export Kbnk…, Tablebase… and Syzygy… names, and the old tb… names still work', async () => {
    const root = await import('../../lib/index.js') as unknown as Record<string, unknown>;
    const sub = await import('../../lib/tablebases-entry.js') as unknown as Record<string, unknown>;
    for (const family of [root, sub]) {
      for (const name of ['KbnkTablebase', 'Tablebase', 'SyzygyTablebase', 'KbnkFileError', 'TablebaseFileError', 'SyzygyFileError']) {
        expect(typeof family[name], name).toBe('function');
      }
      const aliases: [string, string][] = [['tbParse', 'tablebaseMaterial'], ['tbTableSize', 'tablebaseTableSize'],
        ['tbSubMaterials', 'tablebaseSubMaterials'], ['TB_DRAW', 'TABLEBASE_DRAW'], ['TB_ILLEGAL', 'TABLEBASE_ILLEGAL'],
        ['TB_FILE_MAGIC', 'TABLEBASE_FILE_MAGIC'], ['TB_FILE_VERSION', 'TABLEBASE_FILE_VERSION'],
        ['TB_LAYOUT_VERSION', 'TABLEBASE_LAYOUT_VERSION'], ['TB_FILE_HEADER_SIZE', 'TABLEBASE_FILE_HEADER_SIZE']];
      for (const [old, now] of aliases) {
        expect(family[now], now).toBeDefined();
        expect(family[old], old).toBe(family[now]);
      }
    }
    // The values the file format and the table bytes define (see lib/tablebases/tablebase.ts).
    expect([root.TABLEBASE_DRAW, root.TABLEBASE_ILLEGAL, root.TABLEBASE_FILE_MAGIC]).toEqual([254, 255, 'BBP-TBGN']);
    expect((root.tablebaseMaterial as (fn: string, t: string) => { name: string })('x', 'KQvKR').name).toBe('KQvKR');
  });
});
