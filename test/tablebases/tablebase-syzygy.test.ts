/**
 * Two independent answers to the same question: the tables this package generates by set-wise
 * retrograde analysis (lib/tablebases/tablebase.ts, distance to mate, no 50-move rule) and the published Syzygy
 * tables (test/fixtures/syzygy/, made by Ronald de Man's generator) read by this package's prober.
 * For every legal position of each ending the outcome must agree: Syzygy's win or cursed win (2, 1)
 * is a generated win, its draw a draw, its loss or blessed loss (-2, -1) a generated loss.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYZYGY_WDL_NONE, SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import { Tablebase } from '../../lib/tablebases/tablebase.js';
import { nativeApi } from '../support/backends.js';
import { packedSlices } from './tb-slices.js';

const FIXTURES = join(__dirname, '..', 'fixtures', 'syzygy');

/** Generated positions in slices, probed natively in batches: counts of agreements by outcome. */
function compare(material: string) {
  const tb = Tablebase.generateSync(material, { metric: 'dtm', backend: 'native' });
  const sz = SyzygyTablebase.open(FIXTURES, { backend: 'native' });
  const counts = { positions: 0, wins: 0, draws: 0, losses: 0, cursed: 0, blessed: 0 };
  const disagreements: string[] = [];
  try {
    for (const [start, p] of packedSlices(tb)) {
      const wdl = sz.probeWdlBatch(p.positions);
      for (let i = 0; i < p.count; i++) {
        const s = wdl[i]!;
        const g = p.wdl[i]!;
        counts.positions++;
        if (s === SYZYGY_WDL_NONE || Math.sign(s) !== Math.sign(g)) {
          if (disagreements.length < 5) disagreements.push(`position ${i} of slice ${start}: syzygy ${s}, generated ${g}`);
          continue;
        }
        if (g > 0) counts.wins++; else if (g < 0) counts.losses++; else counts.draws++;
        if (s === 1) counts.cursed++;
        if (s === -1) counts.blessed++;
      }
    }
  } finally {
    sz.close();
  }
  return { counts, disagreements };
}

describe.runIf(nativeApi)('generated tables agree with Syzygy on every legal position', () => {
  it.each(['KQvK', 'KRvK', 'KPvK', 'KBvK', 'KNvK'])('%s', (material) => {
    const { counts, disagreements } = compare(material);
    expect(disagreements).toEqual([]);
    expect(counts.positions).toBeGreaterThan(20_000);
    if (material === 'KBvK' || material === 'KNvK') expect(counts.wins + counts.losses).toBe(0);
    else expect(counts.wins).toBeGreaterThan(0);
  });

  // Pawns on both sides take tens of seconds: run with BITBOARD_PATTERNS_SLOW_TESTS=1 (CI does).
  const slow = process.env.BITBOARD_PATTERNS_SLOW_TESTS ? ['KPvKP', 'KRvKP'] : [];
  it.each(['KQvKR', 'KRvKN', ...slow])('%s', (material) => {
    const { counts, disagreements } = compare(material);
    expect(disagreements).toEqual([]);
    expect(counts.positions).toBeGreaterThan(1_000_000);
    expect(counts.wins).toBeGreaterThan(0);
    expect(counts.draws).toBeGreaterThan(0);
  });
});
