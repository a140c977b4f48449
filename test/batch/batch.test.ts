/**
 * Batch analysis: PositionBatch construction (FEN/EPD, Positions, packed words), every feature
 * against the single-position functions and a square-by-square reference, native against JS on
 * every feature, the native FEN parser against parseFen on good, bad and mutated FENs, toPlanes,
 * analyzeBatchAsync (same results, AbortSignal), worker threads.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES, PENDING_FEATURES, PLANE_BYTES, analyzeTextChunk, csvHeader, parseText } from '../../lib/batch/batch.js';
import * as jsFeatureIds from '../../lib/backends/js/batch.js';
import type { ChunkScratch } from '../../lib/batch/batch.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { formatRecordsJs, recordFormatter } from '../../lib/batch/records.js';
import { isU64Feature } from '../../lib/core/features.js';
import { nativeAnalyzeFile } from '../../lib/cli/analyze-native.js';
import { loadNative } from '../../lib/backends/native.js';
import { FenError } from '../../lib/core/position.js';
import { squaresOf } from '../../lib/core/squares.js';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';

const EPD = readFileSync(new URL('../../examples/positions.epd', import.meta.url), 'utf8').trim().split('\n');
const SAMPLE = EPD.slice(0, 2000);
const ALL_NAMES = FEATURES.map((f) => f.name);

const bit = (sq: number): bigint => 1n << BigInt(sq);
/** parseFenText's result without `into`: new arrays. */
const fresh = <T>(r: T | number): T => {
  if (typeof r === 'number') throw new Error('parseFenText returned a count without into');
  return r;
};
const has = (set: bigint, sq: number): boolean => ((set >> BigInt(sq)) & 1n) === 1n;

describe('the feature table', () => {
  it('FEATURES (names, widths: the CSV header of the analyze command) is the documented column list', () => {
    expect(csvHeader(FEATURES.map((_, i) => i))).toBe('line,input,checkers_w,checkers_b,pinned_w,pinned_b,'
      + 'discoveredCheckCandidates_w,discoveredCheckCandidates_b,attacked_w,attacked_b,kingZoneAttacks_w,kingZoneAttacks_b,'
      + 'distantCheckLines_w,distantCheckLines_b,pawnShieldIndex_w,pawnShieldIndex_b,uncatchablePassers_w,uncatchablePassers_b,'
      + 'knightForkSquares_w,knightForkSquares_b,inCheck,legalMoveCount,checkmate,stalemate,polyglotKey,'
      + 'hanging_w,hanging_b,forks_w,forks_b,relativePins_w,relativePins_b,skewers_w,skewers_b,discoveredAttacks_w,discoveredAttacks_b,error\n');
    expect(csvHeader([0, 9], true)).toBe('line,input,checkers_w,checkers_b,inCheck,wdl,dtz,error\n');
  });

  it("the JS twin's feature ids are FEATURES' order", () => {
    const ids: Record<string, number> = {
      checkers: jsFeatureIds.F_CHECKERS, pinned: jsFeatureIds.F_PINNED, discoveredCheckCandidates: jsFeatureIds.F_DISCOVERED,
      attacked: jsFeatureIds.F_ATTACKED, kingZoneAttacks: jsFeatureIds.F_KING_ZONE, distantCheckLines: jsFeatureIds.F_DISTANT,
      pawnShieldIndex: jsFeatureIds.F_SHIELD, uncatchablePassers: jsFeatureIds.F_UNCATCHABLE,
      knightForkSquares: jsFeatureIds.F_FORKS, inCheck: jsFeatureIds.F_IN_CHECK, legalMoveCount: jsFeatureIds.F_LEGAL_MOVES,
      checkmate: jsFeatureIds.F_CHECKMATE, stalemate: jsFeatureIds.F_STALEMATE, polyglotKey: jsFeatureIds.F_POLYGLOT_KEY,
      hanging: jsFeatureIds.F_HANGING, forks: jsFeatureIds.F_FORK_PIECES, relativePins: jsFeatureIds.F_RELATIVE_PINS,
      skewers: jsFeatureIds.F_SKEWERS, discoveredAttacks: jsFeatureIds.F_DISCOVERED_ATTACKS,
    };
    expect(FEATURES.map((f) => ids[f.name])).toEqual(FEATURES.map((_, i) => i));
  });
});

describe.each(backends)('%s', (_name, api) => {
  const batch = api.PositionBatch.fromFens(SAMPLE, { epd: true });
  const positions = SAMPLE.map((l) => api.parseFen(l.split(' ').slice(0, 4).join(' ')));

  it('fromFens parses EPD lines like parseFen parses their four position fields', () => {
    expect(batch.length).toBe(SAMPLE.length);
    expect(batch.errors).toEqual([]);
    expect(batch.valid).toBeNull();
    expect(Array.from(batch.words)).toEqual(Array.from(api.packPositions(positions)));
  });

  it('checkers, pinned and discovered-check candidates equal the single-position functions, both colours', () => {
    const r = api.analyzeBatch(batch, ['checkers', 'pinned', 'discoveredCheckCandidates', 'inCheck']);
    positions.forEach((p, i) => {
      for (const c of [0, 1] as const) {
        expect(r.checkers[2 * i + c]).toBe(api.checkers(p, c));
        expect(r.pinned[2 * i + c]).toBe(api.pinnedPieces(p, c));
        expect(r.discoveredCheckCandidates[2 * i + c]).toBe(api.discoveredCheckCandidates(p, c));
      }
      expect(r.inCheck[i]).toBe(api.isInCheck(p) ? 1 : 0);
    });
  });

  it('attacked, king zone, dirSet, shield, passers and forks match a square-by-square reference', () => {
    const r = api.analyzeBatch(batch, 'all');
    positions.slice(0, 300).forEach((p, i) => {
      const occ = p.colors[0] | p.colors[1];
      const kingSq = [0, 1].map((c) => squaresOf(p.colors[c]! & p.pieces[5])[0]!);
      for (const c of [0, 1]) {
        const e = c ^ 1;
        // attacked: every square some piece of c attacks (attackersTo with the board's occupancy).
        let attacked = 0n;
        let zone = 0;
        const zoneSet = api.kingAttacks(kingSq[e]!) | bit(kingSq[e]!);
        for (let s = 0; s < 64; s++) {
          const by = api.attackersTo(p, s, c, occ);
          if (by) attacked |= bit(s);
          if (has(zoneSet, s)) zone += squaresOf(by).length;
        }
        expect(r.attacked[2 * i + c]).toBe(attacked);
        expect(r.kingZoneAttacks[2 * i + e]).toBe(zone);
        // dirSet with taboo = own pieces | squares the enemy attacks with the king lifted.
        let taboo = p.colors[c]!;
        for (let s = 0; s < 64; s++) if (api.attackersTo(p, s, e, occ & ~bit(kingSq[c]!))) taboo |= bit(s);
        expect(r.distantCheckLines[2 * i + c]).toBe(api.distantCheckLines(kingSq[c]!, taboo));
        expect(r.pawnShieldIndex[2 * i + c]).toBe(api.pawnShieldIndex(c, kingSq[c]!, p.pieces[0] & p.colors[c]!));
        // Passed pawns by definition: no enemy pawn ahead on the same or a neighbouring file.
        let passers = 0n;
        for (const s of squaresOf(p.pieces[0] & p.colors[c]!)) {
          const blocked = squaresOf(p.pieces[0] & p.colors[e]!).some((t) => Math.abs((t & 7) - (s & 7)) <= 1
            && (c === 0 ? (t >> 3) > (s >> 3) : (t >> 3) < (s >> 3)));
          if (!blocked) passers |= bit(s);
        }
        expect(r.uncatchablePassers[2 * i + c]).toBe(api.uncatchablePassers(passers, e, p.sideToMove, kingSq[e]!));
        const targets = p.colors[e]! & (p.pieces[5] | p.pieces[4] | p.pieces[3]);
        expect(r.knightForkSquares[2 * i + c]).toBe(api.forkTargetSquares(targets) & ~p.colors[c]!);
      }
    });
  });

  it('fromPositions and fromPacked (zero-copy, from bytes too) give the same batch', () => {
    const a = api.PositionBatch.fromPositions(positions.slice(0, 50));
    const b = api.PositionBatch.fromPacked(a.words);
    expect(b.words).toBe(a.words);
    const bytes = new Uint8Array(a.words.buffer);
    const c = api.PositionBatch.fromPacked(bytes);
    expect(c.words.buffer).toBe(a.words.buffer);
    expectSameBytes(api.analyzeBatch(c, ['pinned']).pinned, api.analyzeBatch(a, ['pinned']).pinned, 'pinned');
    expect(() => api.PositionBatch.fromPacked(new BigUint64Array(11))).toThrow(RangeError);
    expect(() => api.PositionBatch.fromPacked(bytes.subarray(4, 84))).toThrow(RangeError);
  });

  it('bad lines are collected per line, not thrown; their slots give zeros', () => {
    const lines = [SAMPLE[0]!, 'not a fen', '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1', SAMPLE[1]!, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n'];
    const b = api.PositionBatch.fromFens(lines);
    expect(b.errors.map((e) => [e.index, e.error.field])).toEqual([[0, 'fen'], [1, 'fen'], [2, 'sideToMove'], [3, 'fen']]);
    expect(b.errors[1]!.error).toBeInstanceOf(FenError);
    expect(Array.from(b.valid!)).toEqual([0, 0, 0, 0, 1]); // EPD lines are not FEN without { epd: true }
    const r = api.analyzeBatch(b, ['attacked']);
    expect(r.attacked[0]).toBe(0n);
    expect(r.attacked[8]).not.toBe(0n);
  });

  it('inconsistent packed words are a RangeError naming the position', () => {
    const words = new BigUint64Array(batch.words.subarray(0, 30));
    words[17] = 0n; // position 1 loses its kings
    expect(() => api.analyzeBatch(api.PositionBatch.fromPacked(words), ['checkers'])).toThrow(/position 1 is not valid/);
    expect(() => api.toPlanes(api.PositionBatch.fromPacked(words))).toThrow(/position 1/);
  });

  it('argument errors name the function', () => {
    expect(() => api.analyzeBatch([] as never)).toThrow(/analyzeBatch: batch must be a PositionBatch/);
    expect(() => api.analyzeBatch(batch, 'checkers' as never)).toThrow(/analyzeBatch: features must be an array/);
    expect(() => api.toPlanes(batch, new Uint8Array(3))).toThrow(/toPlanes: out must have/);
    expect(() => api.toPlanes(batch, [] as never)).toThrow(TypeError);
    expect(() => api.PositionBatch.fromFens('x' as never)).toThrow(/fromFens: fens must be an array/);
    expect(() => api.PositionBatch.fromFens([1 as never])).toThrow(/fens\[0\] must be a string/);
    expect(() => api.PositionBatch.fromPositions([{} as never])).toThrow(/positions\[0\]/);
    expect(() => api.PositionBatch.fromPacked('x' as never)).toThrow(TypeError);
    expect(() => api.PositionBatch.fromPacked(new BigUint64Array(10), new Uint8Array(2))).toThrow(RangeError);
    return Promise.all([
      expect(api.analyzeBatchAsync(batch, ['checkers'], { threads: 0 })).rejects.toThrow(/threads must be/),
      expect(api.analyzeBatchAsync(batch, ['checkers'], { signal: {} as never })).rejects.toThrow(TypeError),
    ]);
  });

  it('options.out: the results land in the given arrays, equal to new ones, over stale contents; bad slots get zeros', () => {
    const lines = [...SAMPLE.slice(0, 300), 'not a fen', ...SAMPLE.slice(300, 600).map((l) => l.split(' ').slice(0, 4).join(' '))];
    const b = api.PositionBatch.fromFens(lines, { epd: true });
    expect(b.valid).not.toBeNull();
    const fresh = api.analyzeBatch(b, 'all');
    const stale = api.analyzeBatch(b, 'all');
    for (const a of Object.values(stale)) new Uint8Array(a.buffer, a.byteOffset, a.byteLength).fill(0xa5);
    const given = { ...stale };
    const again = api.analyzeBatch(b, 'all', { out: given });
    for (const name of ALL_NAMES) {
      const key = name as keyof typeof again;
      expect(again[key], name).toBe(given[key]);
      expectSameBytes(again[key], fresh[key], name);
    }
    // Some outputs given, the rest new; a group name covers its members.
    const forks = new BigUint64Array(2 * b.length).fill(7n);
    const part = api.analyzeBatch(b, ['motifs', 'inCheck'], { out: { forks } });
    expect(part.forks).toBe(forks);
    expectSameBytes(part.forks, fresh.forks, 'forks');
    expectSameBytes(part.hanging, fresh.hanging, 'hanging');
    expectSameBytes(part.inCheck, fresh.inCheck, 'inCheck');
  });

  it('options.out refuses a wrong type or length, a feature not asked for, and memory shared with the batch or another output', () => {
    const n = batch.length;
    const ok = new BigUint64Array(2 * n);
    const call = (out: unknown, features: string[] = ['checkers', 'inCheck']) => () => api.analyzeBatch(batch, features as never, { out: out as never });
    expect(call('x')).toThrow(/analyzeBatch: options\.out must be an object/);
    expect(call(ok)).toThrow(/options\.out must be an object/);
    expect(call({ checkers: new Uint8Array(2 * n) })).toThrow(/analyzeBatch: options\.out\.checkers must be a BigUint64Array/);
    expect(call({ inCheck: new BigUint64Array(n) })).toThrow(TypeError);
    expect(call({ checkers: new BigUint64Array(n) })).toThrow(RangeError);
    expect(call({ checkers: new BigUint64Array(n) })).toThrow(new RegExp(`options\\.out\\.checkers must have ${2 * n} elements`));
    expect(call({ pinned: ok })).toThrow(/options\.out\.pinned is no feature this call asks for/);
    expect(call({ wdl: new Int8Array(n) })).toThrow(TypeError);
    expect(call({ checkers: [] })).toThrow(TypeError);
    const detached = new BigUint64Array(2 * n);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    expect(call({ checkers: detached })).toThrow(/detached/);
    const words = new BigUint64Array(batch.words.length + 2 * n);
    words.set(batch.words);
    const over = api.PositionBatch.fromPacked(words.subarray(0, batch.words.length));
    expect(() => api.analyzeBatch(over, ['checkers'], { out: { checkers: words.subarray(batch.words.length - 1, batch.words.length - 1 + 2 * n) } }))
      .toThrow(/options\.out\.checkers shares memory with the batch's words/);
    // Right after the words, in the same buffer, is fine.
    expect(api.analyzeBatch(over, ['checkers'], { out: { checkers: words.subarray(batch.words.length) } }).checkers[0]).toBe(api.analyzeBatch(batch, ['checkers']).checkers[0]);
    const bytes = new Uint8Array(2 * n);
    expect(call({ inCheck: bytes.subarray(0, n), checkmate: bytes.subarray(n - 1, 2 * n - 1) }, ['inCheck', 'checkmate']))
      .toThrow(/options\.out\.checkmate shares memory with options\.out\.inCheck/);
    expect(call({ inCheck: bytes.subarray(0, n), checkmate: bytes.subarray(n) }, ['inCheck', 'checkmate'])).not.toThrow();
    expect(call(undefined)).not.toThrow();
    expect(call({ checkers: undefined })).not.toThrow();
  });

  it('options.threads: a non-number is a TypeError, a number out of 1..256 or not whole a RangeError', async () => {
    for (const threads of ['2', 2n, null, true, {}]) {
      const call = api.analyzeBatchAsync(batch, ['checkers'], { threads: threads as never });
      await expect(call, String(threads)).rejects.toThrow(TypeError);
      await expect(call, String(threads)).rejects.toThrow(/^analyzeBatchAsync: options\.threads must be a number/);
    }
    for (const threads of [0, 257, 1.5, NaN, -1, Infinity]) {
      await expect(api.analyzeBatchAsync(batch, ['checkers'], { threads }), String(threads)).rejects.toThrow(RangeError);
    }
    const r = await api.analyzeBatchAsync(batch, ['checkers'], { threads: 256 });
    expect(r.checkers.length).toBe(2 * batch.length);
  });

  it('unknown feature names are rejected with a clear error', () => {
    expect(() => api.analyzeBatch(batch, ['nope' as never])).toThrow(/unknown feature "nope"/);
    expect(PENDING_FEATURES).toEqual([]);
    expect(() => api.analyzeBatch({} as never)).toThrow(TypeError);
  });

  it('legalMoveCount, checkmate and stalemate agree with legalMoves', () => {
    const r = api.analyzeBatch(batch, ['legalMoveCount', 'checkmate', 'stalemate', 'inCheck']);
    positions.forEach((p, i) => {
      const n = api.legalMoves(p).length;
      expect(r.legalMoveCount[i]).toBe(n);
      expect(r.checkmate[i]).toBe(n === 0 && api.isInCheck(p) ? 1 : 0);
      expect(r.stalemate[i]).toBe(n === 0 && !api.isInCheck(p) ? 1 : 0);
    });
    const special = api.PositionBatch.fromFens([
      'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', // fool's mate
      '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', // stalemate
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    ]);
    const s = api.analyzeBatch(special, ['legalMoveCount', 'checkmate', 'stalemate']);
    expect([...s.legalMoveCount]).toEqual([0, 0, 20]);
    expect([...s.checkmate]).toEqual([1, 0, 0]);
    expect([...s.stalemate]).toEqual([0, 1, 0]);
    // Side not to move in check (only reachable through raw words): 255, no flags.
    const illegal = api.PositionBatch.fromPacked(api.packPositions([api.parseFen('4k3/8/8/8/8/8/8/4R1K1 b - - 0 1')]));
    const w = new BigUint64Array(illegal.words);
    w[8] &= ~1n; // white to move while black is in check
    const t = api.analyzeBatch(api.PositionBatch.fromPacked(w), ['legalMoveCount', 'checkmate', 'stalemate']);
    expect([t.legalMoveCount[0], t.checkmate[0], t.stalemate[0]]).toEqual([255, 0, 0]);
  });

  it('toPlanes: 12 x 64 piece planes plus state bytes', () => {
    const planes = api.toPlanes(batch);
    expect(planes.length).toBe(batch.length * PLANE_BYTES);
    positions.slice(0, 200).forEach((p, i) => {
      const base = i * PLANE_BYTES;
      for (let c = 0; c < 2; c++) {
        for (let t = 0; t < 6; t++) {
          for (let s = 0; s < 64; s++) {
            if (planes[base + (c * 6 + t) * 64 + s] !== (has(p.colors[c]! & p.pieces[t]!, s) ? 1 : 0)) throw new Error(`plane ${c} ${t} ${s}`);
          }
        }
      }
      expect(Array.from(planes.subarray(base + 768, base + 776))).toEqual([
        p.sideToMove, p.castling & 1, (p.castling >> 1) & 1, (p.castling >> 2) & 1, (p.castling >> 3) & 1,
        p.epSquare < 0 ? 64 : p.epSquare, Math.min(255, p.halfmoveClock), 0]);
    });
  });

  it('analyzeBatchAsync gives exactly the synchronous results, on any thread count', async () => {
    const sync = api.analyzeBatch(batch, 'all');
    for (const threads of [1, 2, 3]) {
      const r = await api.analyzeBatchAsync(batch, 'all', { threads });
      for (const name of ALL_NAMES) expect(r[name], `${name} with ${threads} threads`).toEqual(sync[name]);
    }
  });

  it('analyzeBatchAsync: an AbortSignal cancels it (before and while it runs)', async () => {
    const big = api.PositionBatch.fromPacked(repeatWords(batch.words, api.backend === 'js' ? 20_000 : 2_000_000));
    const before = new AbortController();
    before.abort();
    await expect(api.analyzeBatchAsync(big, 'all', { signal: before.signal })).rejects.toThrow(/abort/i);
    const during = new AbortController();
    const p = api.analyzeBatchAsync(big, 'all', { signal: during.signal });
    setTimeout(() => during.abort(), 5);
    await expect(p).rejects.toThrow(/abort/i);
    const bad = new BigUint64Array(batch.words.subarray(0, 30));
    bad[27] = 0n;
    await expect(api.analyzeBatchAsync(api.PositionBatch.fromPacked(bad), ['checkers'])).rejects.toThrow(/position 2/);
  });
});

function repeatWords(words: BigUint64Array, positions: number): BigUint64Array {
  const out = new BigUint64Array(positions * 10);
  for (let at = 0; at < out.length; at += words.length) out.set(words.subarray(0, Math.min(words.length, out.length - at)), at);
  return out;
}

describe.runIf(nativeApi)('native against JS', () => {
  const native = nativeApi!;

  it('every feature and the planes are equal on the whole sample file', () => {
    const a = native.PositionBatch.fromFens(EPD, { epd: true });
    const b = jsApi.PositionBatch.fromFens(EPD, { epd: true });
    expectSameBytes(a.words, b.words, 'words');
    const ra = native.analyzeBatch(a, 'all');
    const rb = jsApi.analyzeBatch(b, 'all');
    for (const name of ALL_NAMES) expectSameBytes(ra[name], rb[name], name);
    expectSameBytes(native.toPlanes(a), jsApi.toPlanes(b), 'planes');
  });

  it('every feature is equal on random legal-looking positions (property)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: EPD.length - 1 }), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 0, max: 1 }), (picks, flip) => {
        // Real positions, with the side to move flipped when that stays legal.
        const fens = picks.map((i) => {
          const [pl, side, castling, ep] = EPD[i]!.split(' ');
          return flip ? `${pl} ${side === 'w' ? 'b' : 'w'} ${castling} - 0 1` : `${pl} ${side} ${castling} ${ep} 0 1`;
        });
        const a = native.PositionBatch.fromFens(fens);
        const b = jsApi.PositionBatch.fromFens(fens);
        expectSameBytes(a.words, b.words, 'words');
        expect(a.errors.map((e) => e.error.message)).toEqual(b.errors.map((e) => e.error.message));
        const ra = native.analyzeBatch(a, 'all');
        const rb = jsApi.analyzeBatch(b, 'all');
        for (const name of ALL_NAMES) expectSameBytes(ra[name], rb[name], name);
      }), { numRuns: 200 });
  });

  const BAD = [
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 7', '', '      ', `${'8/'.repeat(5000)}8 w - - 0 1`,
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1',
    'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1', 'rnbqkbnr/pppppppp/8/8/8/7p1/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1', '8/8/8/8/8/8/8/4K3 w - - 0 1',
    'P3k3/8/8/8/8/8/8/4K3 w - - 0 1', '4k3/8/8/8/8/8/8/4K2p w - - 0 1', '4k3/8/8/8/8/8/8/4K3 x - - 0 1',
    '4k3/8/8/8/8/8/8/4K3 W - - 0 1', '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1', 'r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1',
    'r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1', 'r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1', 'r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1',
    'r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1', 'R3k2r/8/8/8/8/8/8/4K3 w q - 0 1',
    'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq z9 0 3', 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d5 0 3',
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1', 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 3',
    'rnbqkbnr/1pp1pppp/p2n4/3pP3/8/8/PPPP1PPP/RNBQKB1R w KQkq d6 0 3', '4k3/8/8/8/8/8/8/4K3 w - - x 1',
    '4k3/8/8/8/8/8/8/4K3 w - - -1 1', '4k3/8/8/8/8/8/8/4K3 w - - 1.5 1', '4k3/8/8/8/8/8/8/4K3 w - - 0 0',
    '4k3/8/8/8/8/8/8/4K3 w - - 0 -3', '4k3/8/8/8/8/8/8/4K3 w - - 0 abc', '4k3/8/8/8/8/8/8/4K3 w - - 0 1e3',
    '4k3/8/8/8/8/8/8/4K3 w - - 0 1000001', '4k3/8/8/8/8/8/8/4K3 w - - 12345678 1', '\t4k3/8/8/8/8/8/8/4K3  w - -\r',
    '4k3/8/8/8/8/8/8/4K3\u00a0w - - 0 1', '4k3/8/8/8/8/8/8/4K3 w - - 0 1\u2028', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e4;', `4k3/8/8/8/8/8/8/4K3 w - - ${'c0 "x";'.repeat(40)}`,
  ];

  it.each([false, true])('the native FEN parser accepts and rejects what parseFen does, same field (epd %s)', (epd) => {
    const native = loadNative();
    const text = Buffer.from(`${BAD.join('\n')}\n`);
    const a = parseText(native, text, epd);
    const b = parseText(jsBackend, text, epd);
    expect(Array.from(a.valid)).toEqual(Array.from(b.valid));
    expectSameBytes(a.words, b.words, 'words');
    expect(a.errors.map((e) => [e.index, e.error.message])).toEqual(b.errors.map((e) => [e.index, e.error.message]));
    // And the raw native status names the same field as the FenError.
    const [, status] = fresh(native.batch.parseFenText(text, epd));
    const fields = ['ok', 'fen', 'pieces', 'sideToMove', 'castling', 'enPassant', 'halfmoveClock', 'fullmoveNumber'];
    for (const e of b.errors) {
      if (status[e.index] !== 8) expect(fields[status[e.index]!], BAD[e.index]).toBe(e.error.field);
    }
  });

  it('the native FEN parser agrees with parseFen on randomly mutated FENs (property)', () => {
    const native = loadNative();
    const alphabet = 'pnbrqkPNBRQK12345678 /-wbKQkqa0e3x9\t';
    fc.assert(fc.property(fc.integer({ min: 0, max: EPD.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.nat(alphabet.length), fc.boolean()), { minLength: 1, maxLength: 4 }),
      (pick, edits) => {
        let fen = EPD[pick]!.split(' ').slice(0, 4).join(' ') + ' 0 1';
        for (const [at, ch, insert] of edits) {
          const i = at % (fen.length + 1);
          const c = alphabet[ch % alphabet.length]!;
          fen = insert ? fen.slice(0, i) + c + fen.slice(i) : fen.slice(0, i) + c + fen.slice(i + 1);
        }
        const text = Buffer.from(`${fen}\n`);
        for (const epd of [false, true]) {
          const [words, status] = fresh(native.batch.parseFenText(text, epd));
          const [jw, js] = fresh(jsBackend.batch.parseFenText(text, epd));
          expect(status[0], fen).toBe(js[0]);
          expectSameBytes(words, jw, fen);
        }
      }), { numRuns: 3000 });
  });
});

describe.each(backends)('%s: parseFenText into reused arrays', (name) => {
  const b = name === 'native' ? loadNative() : jsBackend;
  it('writes the same words, status and line starts as into new arrays, over stale contents; bad lines get zero words', () => {
    const text = Buffer.from(`${[...SAMPLE, 'nonsense', '', ...SAMPLE.slice(0, 3), '8/8/8/8/8/8/8/8 w - - 0 1'].join('\n')}\n`);
    const [words, status, starts] = fresh(b.batch.parseFenText(text, true));
    const n = status.length;
    // Larger than needed and full of junk, as after a previous chunk.
    const into = { words: new BigUint64Array(n * 10 + 30).fill(0x0123456789abcdefn), status: new Uint8Array(n + 5).fill(7),
      starts: new Uint32Array(n + 9).fill(99) };
    expect(b.batch.parseFenText(text, true, into)).toBe(n);
    expectSameBytes(into.words.subarray(0, n * 10), words, 'words');
    expectSameBytes(into.status.subarray(0, n), status, 'status');
    expectSameBytes(into.starts.subarray(0, n + 1), starts, 'starts');
    expect([...status].filter((s) => s !== 0).length).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) if (status[i] !== 0) expect([...words.subarray(i * 10, i * 10 + 10)]).toEqual(new Array(10).fill(0n));
    // Too short: new arrays, `into` untouched.
    const short = { words: new BigUint64Array(10), status: new Uint8Array(1), starts: new Uint32Array(2) };
    const again = fresh(b.batch.parseFenText(text, true, short));
    expectSameBytes(again[0], words, 'words');
    expect([...short.status]).toEqual([0]);
  });

  it('refuses arrays that share memory with the text', () => {
    const memory = new ArrayBuffer(1 << 16);
    const text = new Uint8Array(memory, 0, 200);
    text.set(Buffer.from(`${SAMPLE[0]}\n`));
    const into = { words: new BigUint64Array(memory, 64, 100), status: new Uint8Array(1000), starts: new Uint32Array(1000) };
    expect(() => b.batch.parseFenText(text, true, into)).toThrow(RangeError);
  });
});

describe.runIf(nativeApi)('worker threads', () => {
  it('the addon loads and analyses in several worker threads at once, with the main thread\'s answers', async () => {
    const main = nativeApi!.analyzeBatch(nativeApi!.PositionBatch.fromFens(SAMPLE, { epd: true }), 'all');
    const expected = ALL_NAMES.map((n) => Array.from(main[n] as ArrayLike<number | bigint>, String).join(',').length);
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData.entry).then(async (m) => {
        const b = m.PositionBatch.fromFens(workerData.lines, { epd: true });
        const r = m.analyzeBatch(b, 'all');
        const a = await m.analyzeBatchAsync(b, 'all', { threads: 2 });
        const lens = workerData.names.map((n) => Array.from(r[n], String).join(',').length);
        const same = workerData.names.every((n) => r[n].every((v, i) => v === a[n][i]));
        parentPort.postMessage({ backend: m.backend, lens, same, planes: m.toPlanes(b).length });
      }).catch((e) => parentPort.postMessage({ error: String(e.stack) }));`;
    const entry = new URL('../../dist/native-entry.js', import.meta.url).href;
    const runs = Array.from({ length: 4 }, () => new Promise<Record<string, unknown>>((resolve, reject) => {
      const w = new Worker(source, { eval: true, workerData: { entry, lines: SAMPLE, names: ALL_NAMES } });
      w.once('message', (m) => { void w.terminate(); resolve(m); });
      w.once('error', reject);
    }));
    for (const r of await Promise.all(runs)) {
      expect(r.error).toBeUndefined();
      expect(r).toEqual({ backend: 'native', lens: expected, same: true, planes: SAMPLE.length * PLANE_BYTES });
    }
  });
});

// The outputs are allocated without zeroing (lib/batch/batch.ts allocate), so each backend must write every
// element of every requested output itself, skipped slots included, on every feature combination
// (the check-only features take a loop of their own in the native core).
const BACKEND_OBJECTS: [string, typeof jsBackend][] = [['js', jsBackend]];
if (nativeApi) BACKEND_OBJECTS.push(['native', loadNative()]);

describe.each(BACKEND_OBJECTS)('%s backend: outputs need not be zeroed', (_name, b) => {
  const lines = [...SAMPLE.slice(0, 300), 'not a fen', ...SAMPLE.slice(300, 400)];
  const parsed = jsApi.PositionBatch.fromFens(lines, { epd: true });
  const valid = parsed.valid!;
  const n = valid.length;
  const run = (features: number[], fill: number) => {
    const outs: (BigUint64Array | Uint8Array | undefined)[] = new Array(FEATURES.length).fill(undefined);
    for (const f of features) {
      const width = FEATURES[f]!.perColor ? 2 : 1;
      outs[f] = isU64Feature(f)
        ? new BigUint64Array(width * n).fill(fill ? 0xdeadbeefdeadbeefn : 0n)
        : new Uint8Array(width * n).fill(fill);
    }
    b.batch.analyzeBatch(parsed.words, valid, features.reduce((m, f) => m | (1 << f), 0), outs);
    return outs;
  };
  const ids = (...names: string[]) => names.map((s) => ALL_NAMES.indexOf(s as never));
  for (const names of [
    ['checkers'], ['pinned'], ['discoveredCheckCandidates'], ['inCheck'], ['checkers', 'inCheck'],
    ['checkers', 'pinned', 'discoveredCheckCandidates'], ['checkers', 'pinned', 'discoveredCheckCandidates', 'inCheck'],
    ['pinned', 'legalMoveCount'], ['attacked', 'kingZoneAttacks'], ALL_NAMES,
  ]) it(names.join(' + '), () => {
    const f = ids(...names);
    const garbage = run(f, 0xa5);
    const zeroed = run(f, 0);
    for (const id of f) {
      expect(garbage[id], ALL_NAMES[id]).toEqual(zeroed[id]);
      const width = FEATURES[id]!.perColor ? 2 : 1;
      for (let k = 0; k < width; k++) expect(Number(zeroed[id]![300 * width + k]), 'skipped slot').toBe(0);
    }
  });

  it('the first inconsistent position is reported, not a skipped one before it, on the check-only path', () => {
    const words = new BigUint64Array(parsed.words);
    const v = new Uint8Array(valid);
    words[5 * 10 + 7] = 0n; // position 5: no kings, but skipped
    v[5] = 0;
    words[42 * 10] |= words[42 * 10 + 1]; // position 42: colours overlap
    words[77 * 10 + 8] |= 0x40n; // position 77: a reserved state bit (bit 5 is Chess960)
    for (const features of [ids('checkers'), ids('checkers', 'pinned', 'discoveredCheckCandidates'), ids('inCheck'), ids('attacked')]) {
      const outs: (BigUint64Array | Uint8Array | undefined)[] = new Array(FEATURES.length).fill(undefined);
      for (const f of features) outs[f] = isU64Feature(f) ? new BigUint64Array(2 * n) : new Uint8Array(n);
      expect(() => b.batch.analyzeBatch(words, v, features.reduce((m, f) => m | (1 << f), 0), outs))
        .toThrow(/position 42 is not valid: white and black pieces overlap/);
    }
  });
});

describe.runIf(nativeApi)('formatRecords: native bytes equal JS bytes', () => {
  const native = loadNative();
  it('escapes, quotes, every value width, both formats', () => {
    const lines = [
      '  4k3/8/8/8/8/8/8/4K3 w - - 0 1\t', 'a "quoted" \\ line', 'ctrl \u0001\u001f\b\f\r x', 'caf\u00e9 \u00ff',
      '""', '', 'x',
    ];
    const text = Buffer.from(`${lines.join('\n')}\n`);
    const starts = new Uint32Array(lines.length + 1);
    for (let i = 0, at = 0; i < lines.length; i++) { starts[i] = at; at += Buffer.byteLength(lines[i]!) + 1; starts[i + 1] = at; }
    const n = lines.length;
    const valid = new Uint8Array(n).fill(1);
    valid[5] = 0;
    const big = [0n, 1n, 0xfn, 0x10n, 0xffffffffffffffffn, 0x8000000000000000n, 0x123456789abcdefn];
    const small = [0, 1, 9, 10, 99, 100, 255, 200, 101];
    const outs: (BigUint64Array | Uint8Array | undefined)[] = FEATURES.map((f) => {
      const width = f.perColor ? 2 : 1;
      if (f.type === 'bitboard' || f.type === 'u64') return BigUint64Array.from({ length: width * n }, (_, i) => big[i % big.length]!);
      if (f.type === 'flag') return Uint8Array.from({ length: width * n }, (_, i) => i % 2);
      return Uint8Array.from({ length: width * n }, (_, i) => small[i % small.length]!);
    });
    const orders = [FEATURES.map((_, i) => i), [12, 0, 4, 9], []];
    for (const order of orders) {
      for (const format of [0, 1]) {
        for (const firstLine of [1, 123456789, 2 ** 40]) {
          const [a, sa] = recordFormatter(native)(text, starts, valid, Uint8Array.from(order), outs, format, firstLine);
          const [b, sb] = formatRecordsJs(text, starts, valid, Uint8Array.from(order), outs, format, firstLine);
          expect(Buffer.from(a).toString('latin1')).toBe(Buffer.from(b).toString('latin1'));
          expect(sa).toEqual(sb);
        }
      }
    }
    // Many records at once (the scratch memory grows, and is reused by the next call).
    const many = 5000;
    const bigText = Buffer.from(`${Array.from({ length: many }, (_, i) => lines[i % 4]).join('\n')}\n`);
    const [, , bigStarts] = fresh(native.batch.parseFenText(bigText, true));
    const bigValid = new Uint8Array(many).fill(1);
    const bigOuts = FEATURES.map((f) => {
      const width = f.perColor ? 2 : 1;
      return f.type === 'bitboard' || f.type === 'u64' ? BigUint64Array.from({ length: width * many }, (_, i) => big[i % big.length]!)
        : Uint8Array.from({ length: width * many }, (_, i) => (f.type === 'flag' ? i % 2 : small[i % small.length]!));
    });
    for (const format of [0, 1]) {
      const [a] = recordFormatter(native)(bigText, bigStarts, bigValid, Uint8Array.from(orders[0]!), bigOuts, format, 7);
      const [b] = formatRecordsJs(bigText, bigStarts, bigValid, Uint8Array.from(orders[0]!), bigOuts, format, 7);
      expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
    }
    // `into`: bytes that fit are a view of its start; bytes that do not are a fresh copy, `into` untouched.
    const [whole] = formatRecordsJs(bigText, bigStarts, bigValid, Uint8Array.from(orders[0]!), bigOuts, 0, 7);
    const roomy = new Uint8Array(whole.length + 100).fill(0xaa);
    const [c] = recordFormatter(native)(bigText, bigStarts, bigValid, Uint8Array.from(orders[0]!), bigOuts, 0, 7, roomy);
    expect(c.buffer).toBe(roomy.buffer);
    expect(c.byteOffset).toBe(0);
    expect(Buffer.compare(Buffer.from(c), Buffer.from(whole))).toBe(0);
    expect(roomy[whole.length]).toBe(0xaa);
    const tight = new Uint8Array(whole.length - 1).fill(0xaa);
    const [d] = recordFormatter(native)(bigText, bigStarts, bigValid, Uint8Array.from(orders[0]!), bigOuts, 0, 7, tight);
    expect(d.buffer).not.toBe(tight.buffer);
    expect(Buffer.compare(Buffer.from(d), Buffer.from(whole))).toBe(0);
    expect(tight.every((v) => v === 0xaa)).toBe(true);
    expect(() => recordFormatter(native)(bigText, bigStarts, bigValid, Uint8Array.from(orders[0]!), bigOuts, 0, 7, [] as never))
      .toThrow(TypeError);
  });
});

describe.each(BACKEND_OBJECTS)('%s backend: analyzeTextChunk with a reused scratch', (_name, b) => {
  it('gives the same records as fresh memory, growing the scratch when a chunk needs more', () => {
    const ids = FEATURES.map((_, i) => i).filter((i) => !PENDING_FEATURES.includes(FEATURES[i]!.name as never));
    const chunk = (from: number, to: number) => Buffer.from(`${[...SAMPLE.slice(from, to), 'not a fen', ''].join('\n')}\n`);
    const scratch: ChunkScratch = { records: new Uint8Array(16), planes: [] };
    let grownTo = scratch.records.length;
    for (const [from, to, format] of [[0, 50, 'ndjson'], [50, 400, 'ndjson'], [400, 420, 'csv'], [0, 400, 'csv']] as const) {
      const text = chunk(from, to);
      const fresh = analyzeTextChunk(b, text, 7, ids, format, true);
      const reused = analyzeTextChunk(b, text, 7, ids, format, true, undefined, scratch);
      expectSameBytes(reused.out, fresh.out);
      expect([reused.lines, reused.errors, reused.firstError]).toEqual([fresh.lines, fresh.errors, fresh.firstError]);
      // The records buffer always ends at least as large as the records it was last asked to hold.
      expect(scratch.records.length).toBeGreaterThanOrEqual(grownTo);
      grownTo = scratch.records.length;
    }
    expect(scratch.records.length).toBeGreaterThan(16);
    expect(scratch.planes.filter(Boolean).length).toBe(ids.length);
  });
});

describe.runIf(nativeApi)('analyzeFile (the analyze command\'s native pipeline): bad arguments and failures', () => {
  // Made when the tests run (a skipped describe's body still runs, its hooks do not).
  let analyzeFile: NonNullable<ReturnType<typeof nativeAnalyzeFile>>;
  let dir: string, file: string;
  beforeAll(() => {
    analyzeFile = nativeAnalyzeFile(loadNative())!;
    dir = mkdtempSync(join(tmpdir(), 'bbp-analyze-file-'));
    file = join(dir, 'bad.epd');
    writeFileSync(file, 'nonsense\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bounds = Float64Array.of(0, 9);
  // An answer for one line that did not parse, with an empty error record.
  const answer = () => ({ words: new BigUint64Array(10), ok: new Uint8Array(1), records: new Uint8Array(0), ends: new Uint32Array(1) });
  type Call = Parameters<typeof analyzeFile>;
  const call = (...args: unknown[]) => (analyzeFile as unknown as (...a: unknown[]) => unknown)(...args);

  it('every argument is checked: a TypeError or RangeError, never a crash', () => {
    const good: Call = [file, Uint8Array.of(9), 0, false, 1, bounds, 1 << 20, answer];
    const bad: [number, unknown, typeof TypeError | typeof RangeError][] = [
      [0, 42, TypeError], [1, [9], TypeError], [1, Uint8Array.of(FEATURES.length), RangeError], [2, 2, RangeError], [3, 1, TypeError],
      [4, 0, RangeError], [4, 257, RangeError], [5, new Float64Array(1), RangeError], [5, Float64Array.of(0, 5, 5), RangeError],
      [5, Float64Array.of(0, -1), RangeError], [5, Float64Array.of(0, 2 ** 24 + 1), RangeError], [5, Float64Array.of(1, 9), RangeError],
      [5, Float64Array.of(0, 0.5), RangeError], [5, Float64Array.of(0, NaN), RangeError], [5, [0, 9], TypeError],
      [6, 10, RangeError], [6, 2 ** 24 + 1, RangeError], [7, 'f', TypeError], [8, 'f', TypeError],
    ];
    for (const [i, value, cls] of bad) {
      const args = [...good] as unknown[];
      args[i] = value;
      expect(() => call(...args), `argument ${i}: ${String(value)}`).toThrow(cls);
    }
    expect(() => call(...good.slice(0, 7))).toThrow(TypeError);
  });

  it('rejects with what onLines threw, a malformed answer, or why the file cannot be read; writes nothing then', async () => {
    const run = (onLines: unknown, path = file) => analyzeFile(path, Uint8Array.of(9), 0, false, 2, bounds, 1 << 20, onLines as Call[7]);
    await expect(run(() => { throw new Error('from onLines'); })).rejects.toThrow(/from onLines/);
    for (const wrong of [{}, { ...answer(), words: new BigUint64Array(9) }, { ...answer(), ok: [0] }, { ...answer(), ends: Uint32Array.of(5) },
      { ...answer(), records: 'x' }, 42]) {
      await expect(run(() => wrong), JSON.stringify(wrong, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).rejects.toThrow(/onLines/);
    }
    await expect(run(answer, join(dir, 'missing.epd'))).rejects.toThrow(/cannot read .*missing\.epd: No such file/);
  });

  it('hands the lines it cannot finish to onLines, with their line numbers and text', async () => {
    const seen: [string, number[], number[], string | undefined][] = [];
    const [stop, , lines, errors] = await analyzeFile(file, Uint8Array.of(9), 0, false, 1, bounds, 1 << 20, (text, starts, numbers, tooLong) => {
      seen.push([Buffer.from(text).toString(), [...starts], [...numbers], tooLong]);
      return answer();
    });
    expect(seen).toEqual([['nonsense\n', [0, 9], [1], undefined]]);
    expect([stop, lines, errors]).toEqual([0, 1, 1]);
  });
});
