/**
 * The browser bundle's replacement for ./load.ts (tsup.config.ts swaps them): the module's bytes
 * are inlined into the bundle at build time (esbuild's binary loader), so a page needs no second
 * request and the backend is ready when the bundle has loaded.
 */
import bytes from '../../../wasm/bitboard_patterns.wasm';
import type { Backend } from '../contract.js';
import { wasmBackendOf } from './backend.js';
import { instantiateCore, type WasmCore } from './core.js';

let loaded: { core: WasmCore; backend: Backend } | Error | undefined;

export function wasmPath(): string {
  return 'inlined in the bundle';
}

export function loadWasmCore(): WasmCore {
  if (!loaded) {
    try {
      const core = instantiateCore(bytes);
      loaded = { core, backend: wasmBackendOf(core) };
    } catch (e) {
      loaded = new Error(`the WebAssembly core failed to load: ${(e as Error).message}`, { cause: e });
    }
  }
  if (loaded instanceof Error) throw loaded;
  return loaded.core;
}

export function loadWasm(): Backend {
  loadWasmCore();
  return (loaded as { backend: Backend }).backend;
}
