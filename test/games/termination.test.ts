/**
 * Terminating a worker thread while it is inside the addon must not take the process down. During
 * termination no JS can run, so Node-API calls fail mid-function; the addon's error paths must give
 * up quietly (found by the analyze CLI's --strict, which stops its workers mid-chunk: the process
 * aborted now and then with "FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw").
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { addonPath } from '../../lib/backends/native.js';
import { nativeApi } from '../support/backends.js';

const STRESS = `
const { Worker } = require('node:worker_threads');
const addon = process.argv[1];
const src = \`
const { parentPort } = require('node:worker_threads');
const a = require(\${JSON.stringify(addon)});
const packed = new BigUint64Array([0xffffn, 0xffff000000000000n, 0xff00000000ff00n, 0x4200000000000042n,
  0x2400000000000024n, 0x8100000000000081n, 0x800000000000008n, 0x1000000000000010n, 0x1en | (64n << 8n), 1n]);
const moves = new Uint16Array(256);
parentPort.postMessage('ready');
for (;;) {
  try { a.kingAttacks(64); } catch {}
  try { a.rookAttacksBatch(new Uint8Array(4), new BigUint64Array(3), new BigUint64Array(4)); } catch {}
  try { a.checkers(packed.subarray(0, 9), 0); } catch {}
  a.knightAttacksSet(0x1234n);
  a.legalMoves(packed, moves);
  a.perft(packed, 2);
}
\`;
(async () => {
  for (let i = 0; i < 30; i++) {
    const w = new Worker(src, { eval: true });
    await new Promise((r) => w.once('message', r));
    await new Promise((r) => setTimeout(r, Math.random() * 4));
    await w.terminate();
  }
  console.log('survived');
})();
`;

describe.skipIf(!nativeApi)('worker termination inside the addon', () => {
  it('never aborts the process (30 workers terminated mid-call)', () => {
    const r = spawnSync(process.execPath, ['-e', STRESS, addonPath()], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/FATAL ERROR/);
    expect({ status: r.status, signal: r.signal, stdout: r.stdout.trim() }).toEqual({ status: 0, signal: null, stdout: 'survived' });
  });
});
