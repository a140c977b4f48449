/**
 * The engine topic is the `bitboard-patterns/engine` subpath only (Node: it starts processes): ESM
 * and CommonJS resolve it through the package's exports, the root export leaves it out, and the
 * browser bundle holds none of it. Needs dist/ (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const node = (code: string, type: 'module' | 'commonjs') =>
  spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: root, encoding: 'utf8' });

describe('bitboard-patterns/engine', () => {
  it('ESM and CommonJS load it by its subpath', () => {
    const esm = node(`import { EnginePool, EngineError, judgeMove } from 'bitboard-patterns/engine'; console.log(typeof EnginePool.start, new EngineError('missing', 'm').problem, judgeMove({ cp: 0 }, { cp: -300 }, 0));`, 'module');
    expect(esm.stdout.trim(), esm.stderr).toBe('function missing blunder');
    const cjs = node(`const e = require('bitboard-patterns/engine'); console.log(typeof e.EnginePool.start);`, 'commonjs');
    expect(cjs.stdout.trim(), cjs.stderr).toBe('function');
  });

  it('the root export and the browser bundle leave it out', () => {
    const r = node(`const m = await import('bitboard-patterns'); console.log('EnginePool' in m, 'judgeMove' in m);`, 'module');
    expect(r.stdout.trim(), r.stderr).toBe('false false');
    const browser = readFileSync(join(root, 'dist', 'browser', 'index.js'), 'utf8');
    expect(browser).not.toContain('ucinewgame');
    expect(browser).not.toContain('EnginePool');
  });
});
