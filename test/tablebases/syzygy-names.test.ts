/**
 * Syzygy table names ("KQvKR": white's pieces, a v, black's) are parsed once per language:
 * `keyFromName` in native/core/syzygy.h (the addon's and the WebAssembly module's) and `keyFromName`
 * in lib/backends/js/syzygy.ts (the JS prober, and the directory scan that picks the files the
 * addon opens). This test holds the two to the same reading: which names are tables, and which
 * names name the same table (the same material, or the same with the colours swapped: a set holds
 * one of the two, the first found, in both languages). The C++ parser is reached through the
 * WebAssembly module's `bbp_tb_add`, which takes a file for a name and refuses a name that is no
 * table or whose table is already in the set: two names are one table for C++ when the second is
 * refused after the first. The names: the real tables of test/fixtures/syzygy, hand-picked edge
 * cases and random strings over the letters of names.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyFromName, mirrorKey, nameFromKey } from '../../lib/backends/js/syzygy.js';
import { loadWasmCore } from '../../lib/backends/wasm/load.js';
import { wasmApi } from '../support/backends.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'syzygy');
const realNames = [...new Set(readdirSync(fixtures).filter((f) => /\.rtb[wz]$/.test(f)).map((f) => f.slice(0, -5)))];

const EDGE_CASES = [
  '', 'K', 'v', 'Kv', 'vK', 'KvK', 'KvKv', 'KKvK', 'KvKK', 'KQvKK', 'KQvQK', 'QKvK', 'KQv', 'KQvK ', ' KQvK', 'KQ vK',
  'kqvk', 'KqvK', 'KQVK', 'KQvKQ', 'KQRvK', 'KRQvK', 'KvKRQ', 'KPPPPPPPvK', 'KPPPPPPPPvK', 'KvKNNNNNNN', 'KvKNNNNNNNN',
  'KQQQQQQQvKQQQQQQQ', 'KQxvK', 'KQvKx', 'KQ\u00e9vK', 'KQvvK', 'KQvK.rtbw', 'KBNvK', 'KNBvK',
];

/** The C++ reading of names through the module: a fresh set per question, freed after it. */
function cppReader() {
  const core = loadWasmCore();
  const x = core.x;
  /** Adds `name` to `set`; true when the set took it (a table name not already there). */
  const add = (set: number, name: string): boolean => {
    const bytes = Buffer.from(name, 'latin1');
    const at = core.alloc(bytes.length + 1);
    core.u8.set(bytes, at);
    const data = core.alloc(1);  // owned by the set when taken, freed by bbp_tb_add otherwise
    const taken = x.bbp_tb_add(set, at, bytes.length, 0, data, 1) >= 0;
    x.bbp_free(at);
    return taken;
  };
  return {
    isTable(name: string): boolean {
      const set = x.bbp_tb_open();
      try { return add(set, name); } finally { x.bbp_tb_close(set); }
    },
    /** Whether `b` names the table `a` names (both table names). */
    sameTable(a: string, b: string): boolean {
      const set = x.bbp_tb_open();
      try {
        if (!add(set, a)) throw new Error(`C++ refused ${JSON.stringify(a)} in a fresh set`);
        return !add(set, b);
      } finally { x.bbp_tb_close(set); }
    },
  };
}

/** The TypeScript reading of "one table": the scan's rule (lib/backends/js/syzygy.ts). */
function oneTable(a: string, b: string): boolean {
  const ka = keyFromName(a), kb = keyFromName(b);
  return ka !== null && kb !== null && (ka === kb || ka === mirrorKey(kb));
}

const name = fc.string({ unit: fc.constantFrom('K', 'Q', 'R', 'B', 'N', 'P', 'v', 'k', 'x'), maxLength: 12 });

describe.skipIf(!wasmApi)('Syzygy table names: one reading in C++ and TypeScript', () => {
  it('the real tables, the edge cases and random strings: the same names are tables', () => {
    const cpp = cppReader();
    const check = (n: string): void => {
      expect(cpp.isTable(n), JSON.stringify(n)).toBe(keyFromName(n) !== null);
    };
    expect(realNames.length).toBeGreaterThan(20);
    for (const n of [...realNames, ...EDGE_CASES]) check(n);
    fc.assert(fc.property(name, (n) => { check(n); }), { numRuns: 2000 });
    // Random strings rarely hold a v between two K's: build those too.
    fc.assert(fc.property(name, name, (w, b) => { check(`K${w}vK${b}`); }), { numRuns: 2000 });
  });

  it('a name, its canonical form (pieces strongest first) and its mirror are one table for both', () => {
    const cpp = cppReader();
    const pieces = fc.string({ unit: fc.constantFrom('Q', 'R', 'B', 'N', 'P'), maxLength: 4 });
    const check = (n: string): void => {
      const key = keyFromName(n);
      if (key === null) return;
      const canonical = nameFromKey(key);
      const mirrored = nameFromKey(mirrorKey(key));
      expect(keyFromName(canonical)).toBe(key);
      expect(oneTable(n, canonical) && oneTable(n, mirrored)).toBe(true);
      expect(cpp.sameTable(canonical, n), `${n} and ${canonical}`).toBe(true);
      expect(cpp.sameTable(n, mirrored), `${n} and its mirror ${mirrored}`).toBe(true);
    };
    for (const n of [...realNames, ...EDGE_CASES]) check(n);
    fc.assert(fc.property(pieces, pieces, (w, b) => { check(`K${w}vK${b}`); }), { numRuns: 1000 });
  });

  it('pairs of names: one table for C++ exactly when one for TypeScript', () => {
    const cpp = cppReader();
    for (const a of realNames) {
      for (const b of realNames) {
        if (a !== b) expect(cpp.sameTable(a, b), `${a} and ${b}`).toBe(oneTable(a, b));
      }
    }
    const pieces = fc.string({ unit: fc.constantFrom('Q', 'R', 'B', 'P'), maxLength: 2 });
    const table = fc.tuple(pieces, pieces).map(([w, b]) => `K${w}vK${b}`);
    fc.assert(fc.property(table, table, (a, b) => {
      expect(cpp.sameTable(a, b), `${a} and ${b}`).toBe(oneTable(a, b));
    }), { numRuns: 2000 });
  });
});
