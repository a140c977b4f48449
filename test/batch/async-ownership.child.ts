/**
 * Child process of test/batch/async-ownership.test.ts (bundled with esbuild, run with `node --expose-gc`):
 * starts async work, then takes the caller's buffers away while it runs (transferred with
 * structuredClone or postMessage, or every reference dropped), collects and churns memory (new
 * buffers filled with 0xff land where the old ones were), and checks that every promise still settles
 * with exactly the result of an undisturbed run. Prints one JSON line: { ok, runs, failures }.
 * A crash (SIGSEGV, abort) shows as the child's exit signal.
 */
import { MessageChannel } from 'node:worker_threads';
import { createApi } from '../../lib/api/create-api.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { loadNative } from '../../lib/backends/native.js';
import { SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import { Tablebase, tablebaseMaterial, tablebaseSubMaterials } from '../../lib/tablebases/tablebase.js';
import { KIWIPETE, POSITION_3, POSITION_4, POSITION_5, START } from '../moves/cpw-perft.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const rounds = Number(process.argv[2] ?? '8');
const native = loadNative();
const apis = [['native', createApi(native)], ['js', createApi(jsBackend)]] as const;
const failures: string[] = [];
let runs = 0;

const FENS = [
  START, KIWIPETE, POSITION_3, POSITION_4, POSITION_5,
  '4k3/8/8/8/8/8/8/4K2R b K - 0 1',
  '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1',
];

function bytesOf(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Fresh words and valid flags for `n` positions (every seventh slot skipped). */
function makeInput(api: (typeof apis)[number][1], n: number): { words: BigUint64Array; valid: Uint8Array } {
  const packed = FENS.map((f) => api.parseFen(f).packed);
  const words = new BigUint64Array(n * 10);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    words.set(packed[(i * 5) % packed.length]!, i * 10);
    valid[i] = i % 7 === 3 ? 0 : 1;
  }
  return { words, valid };
}

/** Memory churn: buffers of the freed ones' sizes, filled with 0xff, then dropped and collected. */
function churn(bytes: number): void {
  const hold: Uint8Array[] = [];
  for (let i = 0; i < 6; i++) hold.push(new Uint8Array(bytes).fill(0xff));
  gc!();
  hold.length = 0;
  gc!();
}

type Disturb = (buffers: ArrayBuffer[]) => void;
const port = new MessageChannel();
const disturbances: [string, Disturb][] = [
  ['structuredClone transfer', (b) => { structuredClone(b, { transfer: b }); }],
  ['postMessage transfer', (b) => { port.port1.postMessage(b, b); }],
  ['references dropped', () => {}],
];

function same(name: string, got: Record<string, ArrayBufferView>, want: Record<string, ArrayBufferView>): void {
  for (const key of Object.keys(want)) {
    if (!got[key] || !bytesOf(got[key]!).equals(bytesOf(want[key]!))) failures.push(`${name}: ${key} differs`);
  }
}

async function analyzeRounds(): Promise<void> {
  for (const [backend, api] of apis) {
    // Native: long enough (tens of milliseconds on one thread) that the collection below frees the
    // caller's memory while the work still runs; JS runs in chunks on this thread.
    const n = backend === 'native' ? 120_000 : 6_000;
    const reference = (() => {
      const { words, valid } = makeInput(api, n);
      return api.analyzeBatch(api.PositionBatch.fromPacked(words, valid), 'all') as Record<string, ArrayBufferView>;
    })();
    for (let r = 0; r < rounds; r++) {
      for (const [how, disturb] of disturbances) {
        const name = `${backend} analyzeBatchAsync, ${how}, round ${r}`;
        let input: ReturnType<typeof makeInput> | undefined = makeInput(api, n);
        const p = api.analyzeBatchAsync(api.PositionBatch.fromPacked(input.words, input.valid), 'all',
          { threads: 1 + (r % 2) });
        disturb([input.words.buffer as ArrayBuffer, input.valid.buffer as ArrayBuffer]);
        if (how !== 'references dropped' && input.words.length !== 0) failures.push(`${name}: the buffer was not detached`);
        input = undefined;
        churn(n * 80);
        runs++;
        try {
          same(name, await p as Record<string, ArrayBufferView>, reference);
        } catch (e) {
          failures.push(`${name}: rejected: ${String(e)}`);
        }
      }
      // Cancelled after its input was taken away: still rejects with the abort reason.
      const input = makeInput(api, n);
      const abort = new AbortController();
      const p = api.analyzeBatchAsync(api.PositionBatch.fromPacked(input.words, input.valid), 'all', { signal: abort.signal });
      structuredClone([input.words.buffer], { transfer: [input.words.buffer as ArrayBuffer] });
      abort.abort(new Error('stop'));
      churn(n * 80);
      runs++;
      await p.then(() => failures.push(`${backend} analyzeBatchAsync aborted: resolved`),
        (e: unknown) => { if (!(e instanceof Error) || e.message !== 'stop') failures.push(`${backend} aborted: ${String(e)}`); });
    }
  }
}

/**
 * perftAsync (the backend member): its cancel flag transferred or dropped and collected while the
 * threads count changes nothing; the result is the undisturbed synchronous count.
 */
async function perftRounds(): Promise<void> {
  const pos = apis[0][1].parseFen(FENS[1]!);
  const nodes = native.perft(pos, 4);
  const stats = new Float64Array(9);
  native.perftStats(pos, 4, stats);
  for (let r = 0; r < Math.max(2, rounds >> 2); r++) {
    for (const [how, disturb] of disturbances) {
      const withStats = r % 2 === 1;
      const name = `perftAsync${withStats ? ' (stats)' : ''}, ${how}, round ${r}`;
      let cancel: Int32Array | undefined = new Int32Array(1);
      const p = native.perftAsync!(pos, 4, 1 + (r % 2), withStats, cancel);
      disturb([cancel.buffer as ArrayBuffer]);
      cancel = undefined;
      churn(4);
      runs++;
      try {
        const got = await p;
        const want = withStats ? stats : Float64Array.of(nodes);
        if (!(got instanceof Float64Array) || !bytesOf(got).equals(bytesOf(want))) failures.push(`${name}: ${String(got)}`);
      } catch (e) {
        failures.push(`${name}: rejected: ${String(e)}`);
      }
    }
  }
}

/**
 * SyzygyTablebase.probeWdlBatchAsync / probeDtzBatchAsync (native): the positions transferred or
 * dropped and collected mid-call; the truth is the synchronous batch on an untouched copy. Then a
 * batch during which the tablebase is closed: close() unmaps only after it, so it still resolves
 * with the same values.
 */
async function syzygyRounds(): Promise<void> {
  const dir = process.env.BBP_SYZYGY_FIXTURES;
  if (!dir) throw new Error('BBP_SYZYGY_FIXTURES is not set');
  const api = apis[0][1];
  const packed = ['8/8/8/4k3/8/8/3Q4/4K3 w - - 0 1', '8/8/8/4k3/8/8/3Q4/4K3 b - - 0 1', '8/4p3/8/4k3/8/8/4P3/4K3 w - - 0 1',
    '8/8/8/2k5/8/3P4/8/4K3 b - - 0 1', '8/8/8/8/2k5/8/3p4/K7 w - - 0 1'].map((f) => api.parseFen(f).packed);
  const n = 20_000;
  const makeWords = (): BigUint64Array => {
    const words = new BigUint64Array(n * 10);
    for (let i = 0; i < n; i++) words.set(packed[(i * 3) % packed.length]!, i * 10);
    return words;
  };
  const tb = SyzygyTablebase.open(dir, { backend: 'native' });
  const want = { wdl: tb.probeWdlBatch(makeWords()), dtz: tb.probeDtzBatch(makeWords()) };
  for (let r = 0; r < Math.max(2, rounds >> 2); r++) {
    for (const [how, disturb] of disturbances) {
      for (const kind of ['wdl', 'dtz'] as const) {
        const name = `Syzygy ${kind} batch async, ${how}, round ${r}`;
        let words: BigUint64Array | undefined = makeWords();
        const p: Promise<ArrayBufferView> = kind === 'wdl' ? tb.probeWdlBatchAsync(words, 1 + (r % 2)) : tb.probeDtzBatchAsync(words, 1 + (r % 2));
        disturb([words.buffer as ArrayBuffer]);
        if (how !== 'references dropped' && words.length !== 0) failures.push(`${name}: the buffer was not detached`);
        words = undefined;
        churn(n * 80);
        runs++;
        try {
          same(name, { out: await p }, { out: want[kind] });
        } catch (e) {
          failures.push(`${name}: rejected: ${String(e)}`);
        }
      }
    }
  }
  const words = makeWords();
  const p = tb.probeDtzBatchAsync(words, 2);
  structuredClone([words.buffer], { transfer: [words.buffer as ArrayBuffer] });
  tb.close();
  churn(n * 80);
  runs++;
  try {
    same('Syzygy dtz batch async, closed meanwhile', { out: await p }, { out: want.dtz });
  } catch (e) {
    failures.push(`Syzygy dtz batch async, closed meanwhile: rejected: ${String(e)}`);
  }
}

/**
 * Tablebase.generate (native): the known sub-tables transferred or dropped and collected once the
 * generation runs (at its first progress step); the truth is generateSync from untouched sub-tables.
 */
async function tablebaseRounds(): Promise<void> {
  const material = 'KQvKR';
  const subNames = tablebaseSubMaterials(tablebaseMaterial('test', material));
  const want = Tablebase.generateSync(material, { backend: 'native' }).table;
  for (let r = 0; r < Math.max(2, rounds >> 2); r++) {
    for (const [how, disturb] of disturbances) {
      const name = `Tablebase.generate, ${how}, round ${r}`;
      let known: Tablebase[] | undefined = subNames.map((s) => Tablebase.generateSync(s, { backend: 'native' }));
      let taken = false;
      const p = Tablebase.generate(material, {
        backend: 'native', known, threads: 1 + (r % 2), onProgress: (step) => {
          if (taken || step.material !== material || !known) return;
          taken = true;
          disturb(known.map((t) => t.table.buffer as ArrayBuffer));
          if (how !== 'references dropped' && known.some((t) => t.table.length !== 0)) failures.push(`${name}: a buffer was not detached`);
          known = undefined;
          churn(want.length);
        },
      });
      runs++;
      try {
        const got = await p;
        if (!taken) failures.push(`${name}: no progress step came`);
        if (!bytesOf(got.table).equals(bytesOf(want))) failures.push(`${name}: the table differs`);
      } catch (e) {
        failures.push(`${name}: rejected: ${String(e)}`);
      }
    }
  }
}

/** The reproducer of the use-after-free: 300,000 start positions, the buffer transferred at once. */
async function reproducer(): Promise<void> {
  const api = apis[0][1];
  const words = new BigUint64Array(300000 * 10);
  const start = api.parseFen(FENS[0]!).packed;
  for (let i = 0; i < 300000; i++) words.set(start, i * 10);
  const p = api.analyzeBatchAsync(api.PositionBatch.fromPacked(words), ['legalMoveCount']);
  structuredClone(words.buffer, { transfer: [words.buffer as ArrayBuffer] });
  const r = await p;
  runs++;
  if (r.legalMoveCount.length !== 300000 || r.legalMoveCount.some((c) => c !== 20)) failures.push('reproducer: wrong counts');
}

if (process.argv[3] === 'reproducer') await reproducer();
else {
  if (process.argv[3] === undefined || process.argv[3] === 'analyze') await analyzeRounds();
  if (process.argv[3] === undefined) await perftRounds();
  if (process.argv[3] === undefined || process.argv[3] === 'syzygy') await syzygyRounds();
  if (process.argv[3] === undefined || process.argv[3] === 'tablebase') await tablebaseRounds();
}
port.port1.close();
port.port2.close();
process.stdout.write(`${JSON.stringify({ ok: failures.length === 0, runs, failures: failures.slice(0, 20) })}\n`);
