/**
 * The DTZ metric of the tablebase generator (Tablebase.generate(material, { metric: 'dtz' })) against
 * the published Syzygy tables (test/fixtures/syzygy/, Ronald de Man's generator) read by this
 * package's prober (lib/tablebases/syzygy.ts), on every legal position of 3-piece endings and a sample of
 * 4-piece ones (every position of several 4-piece endings with BITBOARD_PATTERNS_SLOW_TESTS=1).
 *
 * Syzygy's DTZ50 (https://syzygy-tables.info/metrics#dtz): plies to the next capture, pawn move or
 * mate. Its files store some values in moves rather than plies, so a probed n may stand for n or
 * n + 1 plies (docs/syzygy.md; python-chess's probe_dtz documents the same): the generated distance
 * must be the probed one or one more, with the same sign and the same WDL. A checkmated position is
 * dtz 0 here and -1 from the prober (python-chess's convention: a zeroing 'move' before the loss).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYZYGY_DTZ_NONE, SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import { Tablebase } from '../../lib/tablebases/tablebase.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { packedSlices } from './tb-slices.js';

const FIXTURES = join(__dirname, '..', 'fixtures', 'syzygy');
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
type BackendName = 'native' | 'js';
const generators: BackendName[] = nativeApi ? ['js', 'native'] : ['js'];

/** Every `step`-th stored position compared with Syzygy: counts by how they agree. */
function compare(tb: Tablebase, step: number) {
  const sz = SyzygyTablebase.open(FIXTURES, { backend: nativeApi ? 'native' : 'js' });
  const counts = { positions: 0, exact: 0, rounded: 0, mated: 0, wins: 0, losses: 0, draws: 0 };
  const bad: string[] = [];
  try {
    for (const [start, all] of packedSlices(tb)) {
      const pick = Array.from({ length: Math.ceil(all.count / step) }, (_, i) => i * step);
      const words = new BigUint64Array(pick.length * 10);
      pick.forEach((i, j) => words.set(all.positions.subarray(i * 10, i * 10 + 10), j * 10));
      const dtz = sz.probeDtzBatch(words);
      const wdl = sz.probeWdlBatch(words);
      pick.forEach((i, j) => {
        const s = dtz[j]!, g = all.dtz![i]!, gw = all.wdl[i]!;
        counts.positions++;
        let ok = s !== SYZYGY_DTZ_NONE && wdl[j] === gw;
        if (ok && g === 0 && gw === -2) { ok = s === -1; counts.mated++; }
        else if (ok && s === g) counts.exact++;
        else if (ok && Math.sign(s) === Math.sign(g) && Math.abs(g) === Math.abs(s) + 1) counts.rounded++;
        else ok = false;
        if (!ok && bad.length < 5) bad.push(`slice ${start} position ${i}: syzygy wdl ${wdl[j]} dtz ${s}, generated wdl ${gw} dtz ${g}`);
        if (gw > 0) counts.wins++; else if (gw < 0) counts.losses++; else counts.draws++;
      });
    }
  } finally {
    sz.close();
  }
  return { counts, bad };
}

let kqkr: Tablebase | undefined;
/** Native tables, KQvKR made once for the file. */
function nativeKqkr(material: string): Tablebase {
  if (material !== 'KQvKR') return Tablebase.generateSync(material, { metric: 'dtz', backend: 'native' });
  return kqkr ??= Tablebase.generateSync('KQvKR', { metric: 'dtz', backend: 'native' });
}

describe.each(generators)('DTZ tables (%s) agree with Syzygy', (backend) => {
  it.each(['KQvK', 'KRvK', 'KPvK'])('%s: every legal position', (material) => {
    const tb = Tablebase.generateSync(material, { metric: 'dtz', backend });
    expect(tb.metric).toBe('dtz');
    const { counts, bad } = compare(tb, 1);
    expect(bad).toEqual([]);
    expect(counts.positions).toBeGreaterThan(50_000);
    expect(counts.wins).toBeGreaterThan(10_000);
    expect(counts.exact).toBeGreaterThan(counts.positions * 0.9);
  });
});

describe.runIf(nativeApi)('4-piece DTZ tables agree with Syzygy', () => {
  // Every 499th position of KQvKR in the quick run; every position of these with
  // BITBOARD_PATTERNS_SLOW_TESTS=1 (run by hand, not in CI: several minutes).
  const slow = !!process.env.BITBOARD_PATTERNS_SLOW_TESTS;
  const materials = slow ? ['KQvKR', 'KRvKN', 'KBNvK', 'KPvKP', 'KRvKP', 'KQvKP', 'KBvKP'] : ['KQvKR'];
  it.each(materials)('%s', (material) => {
    const tb = nativeKqkr(material);
    const { counts, bad } = compare(tb, slow ? 1 : 499);
    expect(bad).toEqual([]);
    expect(counts.positions).toBeGreaterThan(slow ? 1_000_000 : 5_000);
    expect(counts.wins).toBeGreaterThan(0);
  }, 600_000);
});

describe.runIf(nativeApi)('DTZ by hand, KQvKR', () => {
  it('the only move blocks a check and the rook takes the queen: lost in 2 plies to zeroing', () => {
    // White Ka1 in check from Ra6 (Kb1, Kb2 next to Kc2): only Qe1-a5, then ...Rxa5 zeroes into KvKR.
    const tb = nativeKqkr('KQvKR');
    const pos = jsApi.parseFen('8/8/r7/8/8/8/2k5/K3Q3 w - - 0 1');
    expect(tb.probe(pos)).toEqual({ wdl: -2, dtz: -2 });
    expect(tb.bestMove(pos)).toBe('e1a5');
  });
});

describe.each(generators)('DTZ by hand (%s)', (backend) => {
  const fen = (f: string) => jsApi.parseFen(f);
  it('KQvK, KPvK: mate in one, checkmated, stalemate, a promotion that mates, the only king move before it', () => {
    const kq = Tablebase.generateSync('KQvK', { metric: 'dtz', backend });
    expect(kq.probe(fen('k7/8/1K6/8/8/8/7Q/8 w - - 0 1'))).toEqual({ wdl: 2, dtz: 1 }); // Qh8#
    expect(kq.probe(fen('k6Q/8/1K6/8/8/8/8/8 b - - 0 1'))).toEqual({ wdl: -2, dtz: 0 }); // mated
    expect(kq.probe(fen('k7/2Q5/1K6/8/8/8/8/8 b - - 0 1'))).toEqual({ wdl: 0, dtz: 0 }); // stalemate
    const kp = Tablebase.generateSync('KPvK', { metric: 'dtz', backend });
    // e8=Q# zeroes at once: 1 ply.
    expect(kp.probe(fen('k7/4P3/1K6/8/8/8/8/8 w - - 0 1'))).toEqual({ wdl: 2, dtz: 1 });
    // Black to move there: only ...Kb8 (a7, b7 are the king's), then e8=Q# zeroes: lost in 2 plies.
    expect(kp.probe(fen('k7/4P3/1K6/8/8/8/8/8 b - - 0 1'))).toEqual({ wdl: -2, dtz: -2 });
    expect(kp.bestMove(fen('k7/4P3/1K6/8/8/8/8/8 w - - 0 1'))).toMatch(/^e7e8[qr]$/);
  });
});

describe.runIf(nativeApi)('DTZ: native and JS make the same bytes', () => {
  it.each(['KQvK', 'KPvK', 'KNvK'])('%s', (material) => {
    const n = Tablebase.generateSync(material, { metric: 'dtz', backend: 'native' });
    const j = Tablebase.generateSync(material, { metric: 'dtz', backend: 'js' });
    expect(same(n.table, j.table)).toBe(true);
  });
  it.runIf(!!process.env.BITBOARD_PATTERNS_SLOW_TESTS)('KRvKP (4 pieces, pawn levels and captures of the pawn)', async () => {
    const n = await Tablebase.generate('KRvKP', { metric: 'dtz', backend: 'native' });
    const j = await Tablebase.generate('KRvKP', { metric: 'dtz', backend: 'js', known: [...n.subTables().values()] });
    expect(same(n.table, j.table)).toBe(true);
  }, 600_000);
});

describe.each(generators)('DTZ files and options (%s)', (backend) => {
  it('a DTZ table round-trips through its file bytes (metric code 2) and keeps its metric', async () => {
    const tb = await Tablebase.generate('KRvK', { metric: 'dtz', backend });
    const buf = tb.toBuffer();
    expect(buf.readUInt8(12)).toBe(2);
    const back = Tablebase.fromBuffer(buf);
    expect(back.metric).toBe('dtz');
    expect(same(back.table, tb.table)).toBe(true);
    const s = back.stats();
    expect(s.whiteToMove.wins).toBeGreaterThan(0);
    expect(s.whiteToMove.cursedWins).toBe(0);
    // KRvK: the longest win to zeroing is the longest mate (no pawns, nothing to capture): 16 moves (31 plies)
    expect(s.whiteToMove.longestWin).toBe(31);
  });
  it('a bad metric is a RangeError; DTM tables given as known are not reused for DTZ', () => {
    expect(() => Tablebase.generateSync('KQvK', { metric: 'dtx' as never, backend })).toThrow(RangeError);
    const dtm = Tablebase.generateSync('KQvK', { backend });
    const dtz = Tablebase.generateSync('KQvK', { metric: 'dtz', backend, known: [dtm] });
    expect(dtz.metric).toBe('dtz');
    expect(same(dtz.table, dtm.table)).toBe(false);
  });
});
