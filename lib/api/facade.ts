/**
 * The default facade's backend choice, once, at load: the native addon when it loads, else the
 * WebAssembly core, else the JS backend, with a one-time warning naming what was missing (the JS
 * backend answering the lookups declared cheap in lib/api/declarations.ts for native and wasm).
 * `BITBOARD_PATTERNS_BACKEND=native|wasm|js` forces one backend for every function; forcing one
 * that cannot load throws, saying why. In a browser (no addon there) wasm is the expected choice
 * and only a fall to the JS backend is reported, on the console.
 */
import { createApi, describeBackends, type ApiOptions } from './create-api.js';
import type { Backend } from '../backends/contract.js';
import { jsBackend } from '../backends/js/index.js';
import { chooseBackend } from '../backends/choose.js';
import { backendNamed } from '../backends/named.js';

const decision = chooseBackend();
if (decision.fallbackReason) {
  const using = decision.name === 'wasm' ? 'the wasm backend (slower than native)' : 'the JS backend (slower)';
  const message = `bitboard-patterns: using ${using}: ${decision.fallbackReason.message}`;
  const detail = `Set BITBOARD_PATTERNS_BACKEND=${decision.name} to choose it explicitly and silence this warning.`;
  if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') {
    process.emitWarning(message, { code: decision.name === 'wasm' ? 'BITBOARD_PATTERNS_WASM_FALLBACK' : 'BITBOARD_PATTERNS_JS_FALLBACK', detail });
  } else if (decision.name === 'js') {
    console.warn(message);
  }
}
const chosen: Backend = backendNamed(decision.name);
// Forced (either way) or JS only: one backend for everything.
const options: ApiOptions = chosen.name !== 'js' && !decision.forced ? { cheap: jsBackend } : {};

/** The default facade's API. */
export const api = createApi(chosen, options);

/**
 * Which backend answers each public function of the default facade ('native' | 'js'; variants as
 * `variants.name`): with the addon loaded, the cheap lookups of lib/api/declarations.ts are answered
 * in JS and everything else natively; with one backend forced or only JS available, that one.
 */
export const routing: Readonly<Record<string, 'native' | 'wasm' | 'js'>> = describeBackends(chosen, options);
