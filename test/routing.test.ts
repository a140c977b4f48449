/**
 * The routed facade: the routing table covers every function of the API, the facade's `routing`
 * export says what it calls, mixing the backends' objects is safe (Positions, packed arrays,
 * PositionBatch), and BITBOARD_PATTERNS_BACKEND forces one backend with no routing. That the routed
 * APIs answer like both backends for every function is in the property tests (test/properties*.ts
 * run over test/backends.ts's comparedApis: native, routed, routed with every route flipped).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createApi } from '../lib/api.js';
import { jsBackend } from '../lib/js/index.js';
import { loadNative, packageRoot } from '../lib/native.js';
import { BACKEND_MEMBER, MEMBER_DECIDED_BY, ROUTING_TABLE, describeRouting, routeBackend } from '../lib/routing.js';
import { comparedApis, comparedRows, jsApi, nativeApi } from './backends.js';

/** Public function names of an API (variants as variants.x). */
function functionNames(api: object): string[] {
  const variants = (api as { variants: Record<string, unknown> }).variants;
  return [...Object.entries(api).filter(([, v]) => typeof v === 'function').map(([k]) => k),
    ...Object.entries(variants).filter(([, v]) => typeof v === 'function').map(([k]) => `variants.${k}`)];
}

describe.skipIf(!nativeApi)('the routing table', () => {
  const native = loadNative();
  const nativeOnlyVariants = Object.entries({ ...native.variants, ...native.checkVariants })
    .filter(([k, v]) => typeof v === 'function' && typeof ({ ...jsBackend.variants, ...jsBackend.checkVariants } as Record<string, unknown>)[k] !== 'function')
    .map(([k]) => `variants.${k}`);

  it('routes every public function of the API (through its backend member), except variants JS lacks', () => {
    for (const name of functionNames(nativeApi!)) {
      if (nativeOnlyVariants.includes(name)) continue;
      const member = name in BACKEND_MEMBER ? BACKEND_MEMBER[name] : name;
      if (member === null) continue; // no backend work (toFen, packPositions)
      expect(ROUTING_TABLE, `${name} (member ${member})`).toHaveProperty([member]);
    }
  });

  it('names only Backend members (variants as variants.x), each decided by a measured function', () => {
    const members = new Set([...Object.keys(native), ...Object.keys({ ...native.variants, ...native.checkVariants }).map((k) => `variants.${k}`)]);
    for (const key of Object.keys(ROUTING_TABLE)) expect(members.has(key), key).toBe(true);
    for (const [member, fn] of Object.entries(MEMBER_DECIDED_BY)) expect(functionNames(nativeApi!)).toContain(fn), void member;
  });

  it('describeRouting reports the table (shared for functions without backend work)', () => {
    const routed = routeBackend(native, jsBackend);
    const routing = describeRouting(createApi(routed), routed, jsBackend);
    expect(Object.keys(routing).sort()).toEqual(functionNames(nativeApi!).sort());
    expect(routing.kingAttacks).toBe(ROUTING_TABLE.kingAttacks);
    expect(routing.kingAttacksBatch).toBe(ROUTING_TABLE.kingAttacksBatch);
    expect(routing.isInCheck).toBe(ROUTING_TABLE.checkers);
    expect(routing.analyzeBatch).toBe(ROUTING_TABLE.batch);
    expect(routing.toFen).toBe('shared');
    for (const v of nativeOnlyVariants) expect(routing[v]).toBe('native');
    // Forced to one backend: that one everywhere.
    const nativeOnly = describeRouting(nativeApi!, native, null);
    expect(new Set(Object.values(nativeOnly))).toEqual(new Set(['native', 'shared']));
    expect(new Set(Object.values(describeRouting(jsApi, jsBackend, null)))).toEqual(new Set(['js', 'shared']));
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
      `import * as m from 'bitboard-patterns'; console.log(JSON.stringify({ backend: m.backend, routes: [...new Set(Object.values(m.routing))].sort(), kingAttacks: m.routing.kingAttacks, perft: m.routing.perft }));`],
    { cwd: packageRoot, env: { ...cleanEnv, ...env }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim());
  };

  it('BITBOARD_PATTERNS_BACKEND=js: JS for every function', () => {
    expect(run({ BITBOARD_PATTERNS_BACKEND: 'js' })).toMatchObject({ backend: 'js', routes: ['js', 'shared'] });
  });

  it.skipIf(!nativeApi)('BITBOARD_PATTERNS_BACKEND=native: native for every function, no routing', () => {
    expect(run({ BITBOARD_PATTERNS_BACKEND: 'native' })).toMatchObject({ backend: 'native', routes: ['native', 'shared'] });
  });

  it.skipIf(!nativeApi)('unset: routed per the table, backend still says native', () => {
    const r = run({});
    expect(r.backend).toBe('native');
    expect(r.kingAttacks).toBe(ROUTING_TABLE.kingAttacks);
    expect(r.perft).toBe(ROUTING_TABLE.perft);
  });
});
