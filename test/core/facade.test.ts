/**
 * The default facade: cheap lookups (declared in lib/api/declarations.ts) answered in JS, everything
 * else natively when the addon loads; its `routing` export says which; mixing the backends' objects
 * is safe (Positions, packed arrays, PositionBatch); BITBOARD_PATTERNS_BACKEND forces one backend.
 * That the facade answers like both backends for every function is in the property tests
 * (test/properties*.ts run over test/support/backends.ts's comparedApis: native, and the facade's shape).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { describeBackends } from '../../lib/api/create-api.js';
import { DECLARATIONS, type Declaration } from '../../lib/api/declarations.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { loadNative, packageRoot } from '../../lib/backends/native.js';
import { backends, comparedApis, comparedRows, jsApi, nativeApi } from '../support/backends.js';
import { thrown } from '../support/thrown.js';

const declared = Object.entries(DECLARATIONS as Record<string, Declaration>);

describe.skipIf(!nativeApi)('which backend answers', () => {
  const native = loadNative();

  it('with the addon loaded: the cheap lookups JS, everything else native', () => {
    const r = describeBackends(native, { cheap: jsBackend });
    for (const [name, d] of declared) {
      if (d.variant === 'optional' && r[name] === undefined) continue;
      expect(r[name], name).toBe(d.cheap ? 'js' : 'native');
    }
    expect(r.analyzeBatch).toBe('native');
    expect(r.kingAttacks).toBe('js');
    expect(r.kingAttacksBatch).toBe('native');
  });

  it('forced to one backend: that one everywhere', () => {
    expect(new Set(Object.values(describeBackends(native)))).toEqual(new Set(['native']));
    expect(new Set(Object.values(describeBackends(jsBackend)))).toEqual(new Set(['js']));
  });
});

describe.skipIf(comparedApis.length === 0).each(comparedRows)('mixing objects: %s', (_label, api) => {
  const fens = [
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  ];

  it('takes Positions and packed arrays made by the other API', () => {
    for (const fen of fens) {
      const fromJs = jsApi.parseFen(fen);
      const own = api.parseFen(fen);
      for (const color of [0, 1]) {
        expect(api.pinnedPieces(fromJs, color)).toBe(jsApi.pinnedPieces(own, color));
        expect(api.checkers(fromJs, color)).toBe(jsApi.checkers(own, color));
      }
      expect(api.legalMoves(fromJs)).toEqual(jsApi.legalMoves(own));
      expect(api.toFen(api.makeMove(fromJs, jsApi.legalMoves(own)[0]!))).toBe(jsApi.toFen(jsApi.makeMove(own, jsApi.legalMoves(own)[0]!)));
    }
    const packed = jsApi.packPositions(fens.map((f) => jsApi.parseFen(f)));
    expect(Array.from(api.checkAnalysisBatch(packed))).toEqual(Array.from(jsApi.checkAnalysisBatch(packed)));
  });

  it('takes PositionBatch objects made by the other API, both ways', () => {
    const lines = [...fens, 'not a fen'];
    const mine = api.PositionBatch.fromFens(lines);
    const theirs = jsApi.PositionBatch.fromFens(lines);
    expect(Array.from(mine.words)).toEqual(Array.from(theirs.words));
    const plain = (r: Record<string, ArrayLike<unknown>>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.from(v)]));
    expect(plain(api.analyzeBatch(theirs))).toEqual(plain(jsApi.analyzeBatch(mine)));
    expect(Array.from(api.toPlanes(theirs))).toEqual(Array.from(jsApi.toPlanes(mine)));
  });

  it('analyzeBatchAsync agrees with the JS analyzeBatch', async () => {
    const batch = jsApi.PositionBatch.fromFens(fens);
    const plain = (r: Record<string, ArrayLike<unknown>>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.from(v)]));
    expect(plain(await api.analyzeBatchAsync(batch))).toEqual(plain(jsApi.analyzeBatch(batch)));
  });
});

describe('the facade (from dist/, fresh processes)', () => {
  const run = (env: Record<string, string>) => {
    const cleanEnv: Record<string, string | undefined> = { ...process.env };
    delete cleanEnv.BITBOARD_PATTERNS_BACKEND;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e',
      `import * as m from 'bitboard-patterns'; console.log(JSON.stringify({ backend: m.backend, routes: [...new Set(Object.values(m.routing))].sort(), kingAttacks: m.routing.kingAttacks, perft: m.routing.perft, same: m.kingAttacks === m.api.kingAttacks }));`],
    { cwd: packageRoot, env: { ...cleanEnv, ...env }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim());
  };

  it('BITBOARD_PATTERNS_BACKEND=js: JS for every function', () => {
    expect(run({ BITBOARD_PATTERNS_BACKEND: 'js' })).toMatchObject({ backend: 'js', routes: ['js'], same: true });
  });

  it.skipIf(!nativeApi)('BITBOARD_PATTERNS_BACKEND=native: native for every function', () => {
    expect(run({ BITBOARD_PATTERNS_BACKEND: 'native' })).toMatchObject({ backend: 'native', routes: ['native'] });
  });

  it.skipIf(!nativeApi)('unset: cheap lookups in JS, the rest native, backend still says native', () => {
    expect(run({})).toMatchObject({ backend: 'native', routes: ['js', 'native'], kingAttacks: 'js', perft: 'native' });
  });
});

describe.each(backends)('hostile batches and positions: %s', (_name, api) => {
  const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

  it('a PositionBatch cannot be reshaped: frozen, its length follows its words', () => {
    const batch = api.PositionBatch.fromFens([fen, fen]);
    expect(Object.isFrozen(batch)).toBe(true);
    expect(() => { (batch as unknown as { words: BigUint64Array }).words = new BigUint64Array(100); }).toThrow(TypeError);
    expect(() => { (batch as unknown as { valid: unknown }).valid = null; }).toThrow(TypeError);
    expect(batch.length).toBe(2);
  });

  it('a look-alike batch (even with the old registered brand) is a TypeError naming the function', () => {
    const real = api.PositionBatch.fromFens([fen]);
    const forged = { words: real.words, valid: null, errors: [], length: 2000, [Symbol.for('bitboard-patterns.PositionBatch')]: true };
    for (const f of ['analyzeBatch', 'toPlanes'] as const) {
      const err = thrown(() => (api[f] as (b: unknown) => unknown)(forged));
      expect(err).toBeInstanceOf(TypeError);
      expect(err.message).toContain(f);
    }
  });

  it('fromPacked: valid must really be a Uint8Array of one flag per position', () => {
    const words = api.packPositions([api.parseFen(fen), api.parseFen(fen)]);
    const Liar = class extends Uint8Array { override get length() { return 2; } };
    const cases: [string, unknown][] = [['Int8Array', new Int8Array(2)], ['a Proxy', new Proxy(new Uint8Array(2), {})], ['plain array', [1, 1]]];
    for (const [label, valid] of cases) {
      const err = thrown(() => api.PositionBatch.fromPacked(words, valid as Uint8Array));
      expect(err, label).toBeInstanceOf(TypeError);
      expect(err.message).toContain('PositionBatch.fromPacked');
    }
    expect(() => api.PositionBatch.fromPacked(words, new Liar(5))).toThrow(RangeError);
  });

  it('words transferred away after the batch was made: a TypeError naming the function, no engine error', () => {
    const words = api.packPositions([api.parseFen(fen), api.parseFen(fen)]);
    const batch = api.PositionBatch.fromPacked(words);
    structuredClone(words.buffer, { transfer: [words.buffer as ArrayBuffer] });
    expect(batch.length).toBe(0);
    const err = thrown(() => api.analyzeBatch(batch, ['checkers']));
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toContain('analyzeBatch');
  });

  it('valid flags transferred away after the batch was made: a TypeError naming the function', () => {
    const words = api.packPositions([api.parseFen(fen), api.parseFen(fen)]);
    const valid = Uint8Array.of(1, 1);
    const batch = api.PositionBatch.fromPacked(words, valid);
    structuredClone(valid.buffer, { transfer: [valid.buffer as ArrayBuffer] });
    const err = thrown(() => api.analyzeBatch(batch, ['checkers']));
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toContain('analyzeBatch');
  });

  it('a Position is read from the package record, not pos.packed: writing pos.packed changes no answer', () => {
    const pos = api.parseFen(fen);
    const before = [api.pinnedPieces(pos, 0), api.checkers(pos, 1), api.perft(pos, 1)];
    (pos.packed as BigUint64Array).fill(0xffffffffffffffffn);
    expect([api.pinnedPieces(pos, 0), api.checkers(pos, 1), api.perft(pos, 1)]).toEqual(before);
  });
});
