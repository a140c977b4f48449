/**
 * Loads the WebAssembly core in Node: wasm/bitboard_patterns.wasm of the package (built by
 * `npm run build:wasm`, shipped in the npm tarball), or the file `BITBOARD_PATTERNS_WASM` names.
 * Once per process; a failure is kept and thrown again with the same words. The browser bundle
 * replaces this module by ./load-browser.ts (tsup.config.ts), which has the bytes inlined.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Backend } from '../contract.js';
import { packageRoot } from '../native.js';
import { wasmBackendOf } from './backend.js';
import { instantiateCore, type WasmCore } from './core.js';

/** Where the module is read from. */
export function wasmPath(root = packageRoot): string {
  const explicit = process.env.BITBOARD_PATTERNS_WASM;
  return explicit ? resolve(explicit) : join(root, 'wasm', 'bitboard_patterns.wasm');
}

let loaded: { core: WasmCore; backend: Backend } | Error | undefined;

/** The instantiated core (for tests and the bench); throws an Error saying why when it cannot load. */
export function loadWasmCore(): WasmCore {
  if (!loaded) {
    try {
      const file = wasmPath();
      if (!existsSync(file)) {
        throw new Error(`no WebAssembly build of bitboard-patterns found at ${file} (run \`npm run build:wasm\`, `
          + 'which needs clang-16, lld-16, wasi-libc and libc++ for wasm32)');
      }
      const core = instantiateCore(readFileSync(file));
      loaded = { core, backend: wasmBackendOf(core) };
    } catch (e) {
      loaded = e instanceof Error && e.message.startsWith('no WebAssembly build') ? e
        : new Error(`the WebAssembly core failed to load: ${(e as Error).message}`, { cause: e });
    }
  }
  if (loaded instanceof Error) throw loaded;
  return loaded.core;
}

/** The wasm backend (loaded once); throws an Error saying why when the module cannot load. */
export function loadWasm(): Backend {
  loadWasmCore();
  return (loaded as { backend: Backend }).backend;
}
