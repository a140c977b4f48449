/**
 * The WebAssembly core (native/wasm/bbp_wasm.cc, built by scripts/build-wasm.mjs) instantiated from
 * its bytes, with typed views of its linear memory. No Node module here: the browser bundle and the
 * Node loader (./load.ts) both instantiate through this file.
 */

import type { DeclaredWasmExports } from './generated/declared.js';

/**
 * The C ABI the module exports (pointers and sizes are i32, bitboards i64 = BigInt): the declared
 * functions' generated exports and the hand-written rest.
 */
export interface WasmExports extends DeclaredWasmExports {
  memory: { readonly buffer: ArrayBuffer };
  _initialize(): void;
  bbp_alloc(bytes: number): number;
  bbp_free(ptr: number): void;
  bbp_simd(): number;
  bbp_peek(ptr: number): number;
  bbp_validate(pos: number): number;
  bbp_first_invalid(words: number, n: number): number;
  bbp_attackers_to(pos: number, sq: number, by: number, occ: bigint): bigint;
  bbp_checkers(pos: number, color: number): bigint;
  bbp_pinned_pieces_xray(pos: number, color: number): bigint;
  bbp_pinned_pieces_opposite_rays(pos: number, color: number): bigint;
  bbp_check_kind(pos: number, from: number, to: number, promotion: number): number;
  bbp_position_batch(kind: number, positions: number, color: number, out: number, n: number): number;
  bbp_check_analysis_batch(positions: number, out: number, n: number): number;
  bbp_legal_moves(pos: number, out: number, capacity: number): number;
  bbp_make_move(pos: number, from: number, to: number, promotion: number, out: number): number;
  bbp_perft(pos: number, depth: number): number;
  bbp_perft_stats(pos: number, depth: number, out: number): void;
  bbp_perft_batch(positions: number, depth: number, out: number, n: number): number;
  bbp_feature_count(): number;
  bbp_plane_bytes(): number;
  bbp_analyze(words: number, valid: number, n: number, features: number, outs: number): number;
  bbp_to_planes(words: number, valid: number, out: number, n: number): number;
  bbp_see(pos: number, from: number, to: number, promotion: number): number;
  bbp_see_ge(pos: number, from: number, to: number, promotion: number, threshold: number): number;
  bbp_see_batch(words: number, valid: number, moves: number, out: number, n: number): number;
  bbp_parse_fen_line(text: number, length: number, epd: number, words: number, chess960: number): number;
  bbp_distant_check_lines(sq: number, taboo: bigint): number;
  bbp_distant_check_lines_branchy(sq: number, taboo: bigint): number;
  bbp_knight_attacks_set_east_west(set: bigint): bigint;
  bbp_kbnk_eval(sk: number, b: number, n: number, wk: number): number;
  bbp_tb_open(): number;
  bbp_tb_close(set: number): void;
  bbp_tb_add(set: number, name: number, nameLength: number, dtz: number, data: number, size: number): number;
  bbp_tb_failure(set: number): number;
  bbp_tb_failure_message(set: number): number;
  bbp_tb_problem_name(status: number): number;
  bbp_tb_probe(set: number, words: number, dtz: number): number;
  bbp_tb_probe_batch(set: number, words: number, valid: number, n: number, dtz: number, out: number): number;
  bbp_tb_probe_root(set: number, words: number, out: number): number;
  bbp_tb_verify(set: number): number;
  bbp_pgn_read(text: number, length: number, flags: number, every: number, fromPly: number, firstLine: number, gameBase: number): number;
}

/** An instantiated core: its exports and views of its memory that follow the memory's growth. */
export class WasmCore {
  readonly x: WasmExports;
  /** True when the module was compiled with SIMD128 (the runtime validated it, so it has SIMD). */
  readonly simd: boolean;
  #buffer: ArrayBuffer | undefined;
  #u8!: Uint8Array;
  #i32!: Int32Array;
  #u64!: BigUint64Array;
  #f64!: Float64Array;
  #u16!: Uint16Array;
  #u32!: Uint32Array;

  constructor(x: WasmExports) {
    this.x = x;
    x._initialize();
    this.simd = x.bbp_simd() === 1;
  }

  #refresh(): void {
    const buffer = this.x.memory.buffer;
    if (buffer === this.#buffer) return;
    this.#buffer = buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#i32 = new Int32Array(buffer);
    this.#u64 = new BigUint64Array(buffer);
    this.#f64 = new Float64Array(buffer);
    this.#u16 = new Uint16Array(buffer);
    this.#u32 = new Uint32Array(buffer);
  }

  /** Views of the whole memory (new ones after the memory grew: take them after any allocation). */
  get u8(): Uint8Array { this.#refresh(); return this.#u8; }
  get i32(): Int32Array { this.#refresh(); return this.#i32; }
  get u64(): BigUint64Array { this.#refresh(); return this.#u64; }
  get f64(): Float64Array { this.#refresh(); return this.#f64; }
  get u16(): Uint16Array { this.#refresh(); return this.#u16; }
  get u32(): Uint32Array { this.#refresh(); return this.#u32; }

  /** malloc in the module's memory, 8-byte aligned; an Error when the memory cannot grow. */
  alloc(bytes: number): number {
    const ptr = this.x.bbp_alloc(bytes);
    if (ptr === 0) throw new RangeError(`wasm backend: cannot allocate ${bytes} bytes of WebAssembly memory`);
    return ptr;
  }

  /**
   * A block of the module's memory for one caller's call arguments, grown as needed and kept:
   * the function gives its address with room for at least `bytes` (valid until the next call).
   */
  scratchBlock(): (bytes: number) => number {
    let ptr = 0;
    let size = 0;
    return (bytes) => {
      if (bytes > size) {
        if (ptr) this.x.bbp_free(ptr);
        ptr = 0;
        size = 0;
        ptr = this.alloc(bytes);
        size = bytes;
      }
      return ptr;
    };
  }

  /** A NUL-terminated string of the module's memory. */
  string(ptr: number): string {
    const u8 = this.u8;
    let end = ptr;
    while (u8[end] !== 0) end++;
    let s = '';
    for (let i = ptr; i < end; i++) s += String.fromCharCode(u8[i]!);
    return s;
  }
}

/** The part of the WebAssembly JS API used here (the project's TypeScript lib has no DOM types). */
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: { new (bytes: Uint8Array): object; imports(m: object): { module: string; name: string }[] };
  Instance: new (m: object, imports: object) => { exports: object };
}

/** A function returning i8x16.splat(0): valid only where the runtime has SIMD128 (WebAssembly SIMD proposal). */
const SIMD_PROBE = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7b, 3, 2, 1, 0, 0x0a, 8, 1, 6, 0, 0x41, 0,
  0xfd, 0x0f, 0x0b]);

/** True when this runtime's WebAssembly has SIMD128. */
export function runtimeHasSimd(): boolean {
  const wa = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  return !!wa && wa.validate(SIMD_PROBE);
}

/** Compiles and instantiates the core synchronously (under 8 MB, which browsers allow on the main thread). */
export function instantiateCore(bytes: Uint8Array): WasmCore {
  const wa = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (!wa) throw new Error('this JavaScript runtime has no WebAssembly');
  let module: object;
  try {
    module = new wa.Module(bytes);
  } catch (e) {
    // The module is built with SIMD128 (scripts/build-wasm.mjs): say so where the runtime lacks it.
    if (!runtimeHasSimd()) {
      throw new Error('this runtime\'s WebAssembly has no SIMD128, which the module is built with '
        + '(node scripts/build-wasm.mjs --no-simd builds one without)', { cause: e });
    }
    throw e;
  }
  const imports: Record<string, Record<string, () => never>> = {};
  // The module is built to import nothing; should a future libc call need WASI, it fails loudly.
  for (const i of wa.Module.imports(module)) {
    (imports[i.module] ??= {})[i.name] = () => { throw new Error(`wasm backend: the core called the import ${i.module}.${i.name}`); };
  }
  const instance = new wa.Instance(module, imports);
  return new WasmCore(instance.exports as unknown as WasmExports);
}
