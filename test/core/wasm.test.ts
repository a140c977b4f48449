/**
 * What only the WebAssembly backend has: the module's sandbox (an access outside its linear memory
 * traps, and the trap reaches JS as an Error, never a crash), the runtime's SIMD128, and the module
 * staying usable after a trap. Its behaviour is held to the other backends by every suite through
 * test/support/backends.ts.
 */
import { describe, expect, it } from 'vitest';
import { createApi } from '../../lib/api/create-api.js';
import { loadWasm, loadWasmCore } from '../../lib/backends/wasm/load.js';
import { runtimeHasSimd } from '../../lib/backends/wasm/core.js';
import { jsApi, wasmApi } from '../support/backends.js';

describe.skipIf(!wasmApi)('the WebAssembly core', () => {
  it('turns an out-of-bounds access into a RuntimeError and keeps answering', () => {
    const core = loadWasmCore();
    const pages = core.x.memory.buffer.byteLength;
    let thrown: unknown;
    try {
      core.x.bbp_peek(pages + 16);  // one byte past the end of linear memory
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).constructor.name).toBe('RuntimeError');
    expect((thrown as Error).message).toMatch(/out of bounds/);
    // The Chess Programming Wiki's Perft Results: the initial position, depth 3 = 8,902.
    const api = createApi(loadWasm());
    expect(api.perft(api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), 3)).toBe(8902);
  });

  it('is built with SIMD128, which this runtime validated', () => {
    expect(runtimeHasSimd()).toBe(true);  // Node 20's V8 has had SIMD128 since V8 9.1
    expect(loadWasmCore().simd).toBe(true);
    expect(wasmApi!.cpuPath).toBe('wasm32+simd128');
  });

  it('gives a batch larger than its memory held at start the JS backend\'s answers', () => {
    // 40,000 positions: 3.2 MB of words, so the scratch block (and the memory) grows during the call.
    const api = wasmApi!;
    const kiwipete = api.parseFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
    const start = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    const list = Array.from({ length: 40000 }, (_, i) => (i % 3 ? kiwipete : start));
    const out = api.checkAnalysisBatch(api.packPositions(list));
    for (const i of [0, 1, 2, 39998, 39999]) {
      const p = list[i]!, j = jsApi;
      expect([...out.subarray(6 * i, 6 * i + 6)]).toEqual([
        j.checkers(p, 0), j.pinnedPieces(p, 0), j.discoveredCheckCandidates(p, 0),
        j.checkers(p, 1), j.pinnedPieces(p, 1), j.discoveredCheckCandidates(p, 1)]);
    }
  });
});
