/**
 * The Syzygy prober of the WebAssembly backend (native/wasm/bbp_wasm_syzygy.cc over
 * native/core/syzygy.h) for tables given as bytes: the same SyzygyBackend calls as the addon's,
 * where syzygyOpen takes the file names of the bytes it was made with (a page has no paths). Each
 * file is copied into the module's memory once, when the set is opened; a damaged table is an Error
 * with code BBP_SYZYGY_FILE and the fields `problem` and `path` (the file name), as from the addon.
 */
import type { SyzygyBackend } from '../contract.js';
import { PACKED_POSITION_WORDS } from '../../core/types.js';
import type { WasmCore } from './core.js';

interface Handle { set: number; names: string[]; closed: boolean }

const ROOT_WORDS = 3 + 4 * 256;

/** A SyzygyBackend over `files` (bytes by file name, e.g. 'KQvK.rtbw'). */
export function wasmSyzygyBackend(core: WasmCore, files: ReadonlyMap<string, Uint8Array>): SyzygyBackend {
  const x = core.x;
  const room = core.scratchBlock();
  // Handles are empty objects; what they stand for (the set's address in the module) stays here.
  const handles = new WeakMap<object, Handle>();
  // A tablebase dropped without close() gives its memory (the copied files) back when collected.
  const collected = new FinalizationRegistry<number>((set) => { x.bbp_tb_close(set); });
  const handleOf = (h: unknown): Handle => {
    const handle = typeof h === 'object' && h !== null ? handles.get(h) : undefined;
    if (!handle) throw new TypeError('syzygy: handle must come from syzygyOpen');
    if (handle.closed) throw new Error('syzygy: the tablebase is closed');
    return handle;
  };
  /** Throws the recorded failure of the last call, if any. */
  const check = (h: Handle): void => {
    const at = x.bbp_tb_failure(h.set) >> 2;
    const i32 = core.i32;
    const index = i32[at]!;
    if (index < 0) return;
    const message = core.string(x.bbp_tb_failure_message(h.set));
    const problem = core.string(x.bbp_tb_problem_name(i32[at + 1]!));
    throw Object.assign(new Error(message), { code: 'BBP_SYZYGY_FILE', problem, path: h.names[index] ?? '?' });
  };
  const putPacked = (packed: BigUint64Array): number => {
    const p = room(PACKED_POSITION_WORDS * 8);
    core.u64.set(packed.subarray(0, PACKED_POSITION_WORDS), p >> 3);
    return p;
  };
  const api: SyzygyBackend = {
    syzygyOpen(paths: string[]): unknown {
      const set = x.bbp_tb_open();
      const names: string[] = [];
      for (const path of paths) {
        const m = /^(.*)\.(rtbw|rtbz)$/.exec(path);
        const bytes = files.get(path);
        if (!m || !bytes) continue;
        const data = core.alloc(bytes.length || 1);
        core.u8.set(bytes, data);
        const name = m[1]!;
        const at = room(name.length);
        for (let i = 0; i < name.length; i++) core.u8[at + i] = name.charCodeAt(i) & 0xff;
        const index = x.bbp_tb_add(set, at, name.length, m[2] === 'rtbz' ? 1 : 0, data, bytes.length);
        if (index >= 0) names[index] = path;
      }
      const handle = Object.freeze({});
      handles.set(handle, { set, names, closed: false });
      collected.register(handle, set, handle);
      return handle;
    },
    syzygyProbe(handle: unknown, packed: BigUint64Array, dtz: boolean): number {
      const h = handleOf(handle);
      const v = x.bbp_tb_probe(h.set, putPacked(packed), dtz ? 1 : 0);
      check(h);
      return v;
    },
    syzygyProbeRoot(handle: unknown, packed: BigUint64Array): Int32Array | null {
      const h = handleOf(handle);
      const p = room(PACKED_POSITION_WORDS * 8 + ROOT_WORDS * 4);
      core.u64.set(packed.subarray(0, PACKED_POSITION_WORDS), p >> 3);
      const out = p + PACKED_POSITION_WORDS * 8;
      const ok = x.bbp_tb_probe_root(h.set, p, out);
      check(h);
      if (!ok) return null;
      const n = core.i32[(out >> 2) + 2]!;
      return core.i32.slice(out >> 2, (out >> 2) + 3 + 4 * n);
    },
    syzygyProbeBatch(handle: unknown, packed: BigUint64Array, dtz: boolean, out: Int8Array | Int16Array, valid: Uint8Array | null): void {
      const h = handleOf(handle);
      const n = out.length;
      const wordsBytes = n * PACKED_POSITION_WORDS * 8;
      const validAt = wordsBytes;
      const outAt = validAt + ((n + 7) & ~7);
      const p = room(outAt + out.byteLength);
      if (n > 0) core.u8.set(new Uint8Array(packed.buffer, packed.byteOffset, wordsBytes), p);
      if (valid && n > 0) core.u8.set(valid.subarray(0, n), p + validAt);
      const ok = x.bbp_tb_probe_batch(h.set, p, valid ? p + validAt : 0, n, dtz ? 1 : 0, p + outAt);
      check(h);
      if (ok && n > 0) new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(core.u8.subarray(p + outAt, p + outAt + out.byteLength));
    },
    async syzygyProbeBatchAsync(handle: unknown, packed: BigUint64Array, dtz: boolean, valid: Uint8Array | null): Promise<Int8Array | Int16Array> {
      handleOf(handle);
      const words = packed.slice();
      const flags = valid ? valid.slice() : null;
      await new Promise<void>((resolve) => { setTimeout(resolve, 0); });
      const n = words.length / PACKED_POSITION_WORDS;
      const out = dtz ? new Int16Array(n) : new Int8Array(n);
      api.syzygyProbeBatch(handle, words, dtz, out, flags, 1);
      return out;
    },
    syzygyClose(handle: unknown): void {
      const h = typeof handle === 'object' && handle !== null ? handles.get(handle) : undefined;
      if (h && !h.closed) {
        h.closed = true;
        collected.unregister(handle as object);
        x.bbp_tb_close(h.set);
      }
    },
    syzygyVerify(handle: unknown): void {
      const h = handleOf(handle);
      x.bbp_tb_verify(h.set);
      check(h);
    },
  };
  return api;
}
