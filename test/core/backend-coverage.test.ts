/**
 * Every backend has every function, or says why not in one list (lib/backends/twin-only.ts): for
 * each declared function (lib/api/declarations.ts: the plain ones by name, the others by the member
 * their declaration names; the bodies of `call` declarations use the contract's members, walked
 * below) and each member the Backend contract lists by hand, the native and wasm backends hold
 * their own implementation, not the JS twin's, unless the list names it; and what the list names is
 * the twin's.
 */
import { describe, expect, it } from 'vitest';
import { DECLARATIONS, type Declaration } from '../../lib/api/declarations.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { loadNative } from '../../lib/backends/native.js';
import { loadWasm } from '../../lib/backends/wasm/load.js';
import { TWIN_ONLY } from '../../lib/backends/twin-only.js';
import { nativeApi, wasmApi } from '../support/backends.js';

/** The Backend members no plain declaration gives (lib/backends/contract.ts lists them by hand). */
const CONTRACT_MEMBERS = [
  'attackersTo', 'checkers', 'checkKind', 'legalMoves', 'makeMove', 'perft', 'perftStats', 'kbnkEval',
  'batch.parseFenText', 'batch.analyzeBatch', 'batch.analyzeBatchAsync', 'batch.toPlanes', 'pgn', 'san', 'tbgen', 'syzygy',
];

const declared = Object.entries(DECLARATIONS as Record<string, Declaration>)
  .filter(([, d]) => !d.call)
  .map(([name, d]) => ({ path: d.member ?? name, optional: d.variant === 'optional' }));
const paths = [...declared, ...CONTRACT_MEMBERS.map((path) => ({ path, optional: false }))];

const at = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, part) => (v as Record<string, unknown> | null | undefined)?.[part], o);

const rows: [string, 'native' | 'wasm', unknown][] = [];
if (nativeApi) rows.push(['native', 'native', loadNative()]);
if (wasmApi) rows.push(['wasm', 'wasm', loadWasm()]);

describe.skipIf(rows.length === 0).each(rows.length ? rows : [['none', 'native', undefined]] as typeof rows)(
  'the %s backend has every function', (_label, name, backend) => {
    const listed = TWIN_ONLY[name];
    it('every declared function and contract member is its own, or listed with a reason', () => {
      const missing: string[] = [];
      for (const { path, optional } of paths) {
        if (path in listed) continue;
        const own = at(backend, path);
        if (own === undefined && optional) continue;
        if (own === undefined || own === null || own === at(jsBackend, path)) missing.push(path);
      }
      expect(missing, `answered by the JS twin but not listed in lib/backends/twin-only.ts`).toEqual([]);
    });
    it('what the list names is the twin\'s, with a reason', () => {
      for (const [path, why] of Object.entries(listed)) {
        expect(paths.map((p) => p.path), path).toContain(path);
        expect(at(backend, path), path).toBe(at(jsBackend, path));
        expect(why.length, path).toBeGreaterThan(20);
      }
    });
  });
