/**
 * Packaging and backend choice: the loader's search order, BITBOARD_PATTERNS_BACKEND, the fallback
 * warning, and the package's ESM/CommonJS entry points (run from dist/ in child processes, so this
 * file needs `npm run build` first; `npm test` does that).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonPath, loadNative, packageRoot } from '../../lib/backends/native.js';
import { parseBackendChoice } from '../../lib/backends/choose.js';
import { nativeApi, wasmApi } from '../support/backends.js';

const tag = `${process.platform}-${process.arch}`;

describe('parseBackendChoice', () => {
  it('reads native, wasm, js or nothing, and rejects anything else', () => {
    expect(parseBackendChoice(undefined)).toBeUndefined();
    expect(parseBackendChoice('')).toBeUndefined();
    expect(parseBackendChoice('js')).toBe('js');
    expect(parseBackendChoice('native')).toBe('native');
    expect(parseBackendChoice('wasm')).toBe('wasm');
    expect(() => parseBackendChoice('wasm32')).toThrow(/must be 'native', 'wasm' or 'js', got "wasm32"/);
  });
});

describe.skipIf(!nativeApi)('addon search order', () => {
  const built = addonPath();
  const roots: string[] = [];
  // These tests are about the search; an explicit BITBOARD_PATTERNS_ADDON (CI's cmake-js run) skips it.
  const explicit = process.env.BITBOARD_PATTERNS_ADDON;
  beforeAll(() => { delete process.env.BITBOARD_PATTERNS_ADDON; });
  afterAll(() => {
    if (explicit !== undefined) process.env.BITBOARD_PATTERNS_ADDON = explicit;
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  function fakeRoot(opts: { build: boolean; prebuild: boolean }): string {
    const root = mkdtempSync(join(tmpdir(), 'bbp-root-'));
    roots.push(root);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bitboard-patterns' }));
    if (opts.build) {
      mkdirSync(join(root, 'build', 'Release'), { recursive: true });
      copyFileSync(built, join(root, 'build', 'Release', 'bitboard_patterns.node'));
    }
    if (opts.prebuild) {
      mkdirSync(join(root, 'prebuilds', tag), { recursive: true });
      copyFileSync(built, join(root, 'prebuilds', tag, 'bitboard-patterns.napi.node'));
    }
    return root;
  }

  it('prefers a matching prebuild over a local build', () => {
    const root = fakeRoot({ build: true, prebuild: true });
    expect(addonPath(root)).toBe(join(root, 'prebuilds', tag, 'bitboard-patterns.napi.node'));
    expect(loadNative(root).kingAttacks(14)).toBe(0xe0a0e0n);
  });

  it('falls back to build/Release', () => {
    const root = fakeRoot({ build: true, prebuild: false });
    expect(addonPath(root)).toBe(join(root, 'build', 'Release', 'bitboard_patterns.node'));
  });

  it('says what it searched when there is no binary', () => {
    const root = fakeRoot({ build: false, prebuild: false });
    expect(() => loadNative(root)).toThrow(/no native build of bitboard-patterns found.*npm run build:native/s);
  });

  it.skipIf(!existsSync(join(packageRoot, 'prebuilds', tag)))('uses this package\'s own prebuild (after npm run prebuildify)', () => {
    expect(addonPath()).toContain(join('prebuilds', tag));
  });

  it('loads the file BITBOARD_PATTERNS_ADDON names, whatever else is there', () => {
    const root = fakeRoot({ build: true, prebuild: true });
    process.env.BITBOARD_PATTERNS_ADDON = built;
    try {
      expect(addonPath(root)).toBe(built);
    } finally {
      delete process.env.BITBOARD_PATTERNS_ADDON;
    }
  });
});

/** Runs a snippet in a fresh node with the given environment; the package is resolved by self-reference. */
function run(code: string, env: Record<string, string | undefined>, type: 'module' | 'commonjs' = 'module') {
  const cleanEnv: Record<string, string | undefined> = { ...process.env };
  delete cleanEnv.BITBOARD_PATTERNS_BACKEND;
  delete cleanEnv.BITBOARD_PATTERNS_ADDON;
  delete cleanEnv.BITBOARD_PATTERNS_WASM;
  const r = spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd: packageRoot, env: { ...cleanEnv, ...env }, encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

const printBackend = `import * as m from 'bitboard-patterns'; console.log(m.backend, m.kingAttacks(14) === 0xe0a0e0n);`;

describe('choosing the backend (from dist/)', () => {
  it('BITBOARD_PATTERNS_BACKEND=js uses the JS backend, silently', () => {
    const r = run(printBackend, { BITBOARD_PATTERNS_BACKEND: 'js' });
    expect(r.stdout).toBe('js true');
    expect(r.stderr).toBe('');
  });

  it.skipIf(!nativeApi)('uses the native addon when it loads', () => {
    expect(run(printBackend, {}).stdout).toBe('native true');
  });

  it('falls back to JS with one warning naming both when neither the addon nor the wasm module loads', () => {
    const r = run(`${printBackend} await import('bitboard-patterns/js');`,
      { BITBOARD_PATTERNS_ADDON: '/nonexistent/x.node', BITBOARD_PATTERNS_WASM: '/nonexistent/x.wasm' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('js true');
    expect(r.stderr.match(/BITBOARD_PATTERNS_JS_FALLBACK/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/\/nonexistent\/x\.node.*\/nonexistent\/x\.wasm/);
  });

  it.skipIf(!wasmApi)('falls back to wasm with one warning naming the addon when only the addon cannot load', () => {
    const r = run(`${printBackend} await import('bitboard-patterns/wasm');`, { BITBOARD_PATTERNS_ADDON: '/nonexistent/x.node' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('wasm true');
    expect(r.stderr.match(/BITBOARD_PATTERNS_WASM_FALLBACK/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/\/nonexistent\/x\.node/);
  });

  it.skipIf(!wasmApi)('BITBOARD_PATTERNS_BACKEND=wasm uses the wasm backend, silently, even with the addon there', () => {
    const r = run(printBackend, { BITBOARD_PATTERNS_BACKEND: 'wasm' });
    expect(r.stdout).toBe('wasm true');
    expect(r.stderr).toBe('');
  });

  it('forcing wasm where it cannot load is an error that says why', () => {
    const r = run(printBackend, { BITBOARD_PATTERNS_BACKEND: 'wasm', BITBOARD_PATTERNS_WASM: '/nonexistent/x.wasm' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/BITBOARD_PATTERNS_BACKEND=wasm, but no WebAssembly build of bitboard-patterns found at \/nonexistent\/x\.wasm/);
  });

  it('forcing native where it cannot load is an error that says why', () => {
    const r = run(printBackend, { BITBOARD_PATTERNS_BACKEND: 'native', BITBOARD_PATTERNS_ADDON: '/nonexistent/x.node' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/BITBOARD_PATTERNS_BACKEND=native, but .*\/nonexistent\/x\.node, which does not exist/);
  });

  it('an unknown BITBOARD_PATTERNS_BACKEND is an error', () => {
    const r = run(printBackend, { BITBOARD_PATTERNS_BACKEND: 'fast' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/must be 'native', 'wasm' or 'js', got "fast"/);
  });
});

describe('package entry points (from dist/)', () => {
  it('CommonJS require works for the facade and the js sub-path', () => {
    const r = run(`const m = require('bitboard-patterns'); const j = require('bitboard-patterns/js');
      console.log(typeof m.kingAttacks, j.backend, j.knightAttacks(27) === 0x142200221400n, m.WHITE, m.BLACK);`,
    { BITBOARD_PATTERNS_BACKEND: 'js' }, 'commonjs');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('function js true 0 1');
  });

  it.skipIf(!wasmApi)('the wasm sub-path gives the wasm backend, ESM and CommonJS', () => {
    expect(run(`import { backend, perft, parseFen, STARTING_FEN } from 'bitboard-patterns/wasm'; console.log(backend, perft(parseFen(STARTING_FEN), 3));`, {}).stdout)
      .toBe('wasm 8902');
    expect(run(`console.log(require('bitboard-patterns/wasm').backend)`, { BITBOARD_PATTERNS_BACKEND: 'js' }, 'commonjs').stdout)
      .toBe('wasm');
  });

  it('the js sub-path gives the JS backend whatever the facade chose', () => {
    expect(run(`import { backend } from 'bitboard-patterns/js'; console.log(backend);`, {}).stdout).toBe('js');
  });

  it.skipIf(!nativeApi)('the native sub-path gives the native backend, ESM and CommonJS', () => {
    expect(run(`import { backend, kingAttacks } from 'bitboard-patterns/native'; console.log(backend, kingAttacks(0));`, {}).stdout)
      .toBe('native 770n');
    expect(run(`console.log(require('bitboard-patterns/native').backend)`, { BITBOARD_PATTERNS_BACKEND: 'js' }, 'commonjs').stdout)
      .toBe('native');
  });

  it.skipIf(!nativeApi)('a Position from the js sub-path works in the native sub-path and the main entry, and back', () => {
    const kiwipete = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    const code = (load: string) => `${load}
      const p = j.parseFen('${kiwipete}');
      const q = n.parseFen('${kiwipete}');
      const same = (f) => [0, 1].every((c) => n[f](p, c) === j[f](p, c) && m[f](p, c) === j[f](p, c) && j[f](q, c) === n[f](q, c));
      console.log(m.backend, n.isPosition(p), m.isPosition(p), j.isPosition(q),
        ['checkers', 'pinnedPieces', 'discoveredCheckCandidates'].every(same),
        n.toFen(p) === '${kiwipete}', m.checkKind(p, 'e5f7'),
        n.checkAnalysisBatch(n.packPositions([p, q])).join() === j.checkAnalysisBatch(j.packPositions([q, p])).join());`;
    const esm = run(code(`import * as j from 'bitboard-patterns/js'; import * as n from 'bitboard-patterns/native'; import * as m from 'bitboard-patterns';`), {});
    expect(esm.stderr).toBe('');
    expect(esm.stdout).toBe('native true true true true true none true');
    const cjs = run(code(`const j = require('bitboard-patterns/js'), n = require('bitboard-patterns/native'), m = require('bitboard-patterns');`), {}, 'commonjs');
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout).toBe('native true true true true true none true');
  });

  it('the native sub-path throws at import, saying why, when the addon cannot load', () => {
    const r = run(`import 'bitboard-patterns/native';`, { BITBOARD_PATTERNS_ADDON: '/nonexistent/x.node' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/no native build of bitboard-patterns found/);
  });
});
