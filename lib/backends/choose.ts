/**
 * The one place that decides which backend runs: an explicit choice (an option or a command-line
 * flag) over `BITBOARD_PATTERNS_BACKEND` over "native when the addon loads, else wasm when the
 * WebAssembly core loads, else the JS twin".
 * Every module that needs a backend asks here; none reads the variable itself.
 *
 * It returns a name, not an object, so that a caller which may never need the JS twin (the perft
 * command) does not load it: `loadNative()` gives the native backend, `lib/backends/js/index.ts`
 * the JS one, `loadWasm()` the WebAssembly one.
 */
import { loadNative } from './native.js';
import { loadWasm } from './wasm/load.js';

import { requestedBackend, type BackendChoice, type BackendName } from './variable.js';

export { parseBackendChoice, requestedBackend, type BackendChoice, type BackendName } from './variable.js';

/** What `chooseBackend` decided. */
export interface BackendDecision {
  name: BackendName;
  /** True when the choice was explicit or set by the variable (no fallback happened or may happen). */
  forced: boolean;
  /** Why the native backend (and, for the JS twin, the wasm one) was passed over when it was the default and did not load. */
  fallbackReason?: Error;
}

/**
 * The backend to use. Forcing `native` (by `explicit` or the variable) where the addon cannot load
 * throws: the load error as it is for an explicit choice, prefixed with the variable's setting
 * when the variable forced it.
 */
export function chooseBackend(explicit?: BackendChoice): BackendDecision {
  const byVariable = explicit === undefined ? requestedBackend() : undefined;
  const wanted = explicit ?? byVariable;
  if (wanted === 'js') return { name: 'js', forced: true };
  if (wanted === 'wasm') {
    try {
      loadWasm();
      return { name: 'wasm', forced: true };
    } catch (e) {
      if (explicit === 'wasm') throw e;
      throw new Error(`BITBOARD_PATTERNS_BACKEND=wasm, but ${(e as Error).message}`, { cause: e });
    }
  }
  try {
    loadNative();
    return { name: 'native', forced: wanted === 'native' };
  } catch (e) {
    if (explicit === 'native') throw e;
    if (byVariable === 'native') {
      throw new Error(`BITBOARD_PATTERNS_BACKEND=native, but ${(e as Error).message}`, { cause: e });
    }
    try {
      loadWasm();
      return { name: 'wasm', forced: false, fallbackReason: e as Error };
    } catch (w) {
      return { name: 'js', forced: false, fallbackReason: new Error(`${(e as Error).message}; ${(w as Error).message}`, { cause: e }) };
    }
  }
}

/**
 * The backend of a topic whose primitives have no WebAssembly build (the PGN reader, the Syzygy
 * prober, the tablebase generator): the JS twin answers there for the wasm backend.
 */
export function withoutWasm(name: BackendName): 'native' | 'js' {
  return name === 'wasm' ? 'js' : name;
}
