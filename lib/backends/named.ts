/**
 * A Backend object by name, and the one the package chooses (lib/backends/choose.ts decides). For
 * modules that may need either backend; the perft command, which must not load the JS twin unless
 * asked, uses choose.ts and loadNative itself.
 */
import type { Backend } from './contract.js';
import { chooseBackend, type BackendChoice, type BackendName } from './choose.js';
import { jsBackend } from './js/index.js';
import { loadNative } from './native.js';
import { loadWasm } from './wasm/load.js';

/** The native or wasm backend (loaded once; throws saying why it cannot load) or the JS twin. */
export function backendNamed(name: BackendName): Backend {
  return name === 'native' ? loadNative() : name === 'wasm' ? loadWasm() : jsBackend;
}

/** The backend for an explicit choice, else the package's choice. */
export function chosenBackend(explicit?: BackendChoice): Backend {
  return backendNamed(chooseBackend(explicit).name);
}
