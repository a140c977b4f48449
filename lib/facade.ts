/**
 * The default facade's backend choice, once, at load: the native addon when it loads (the JS
 * backend answering the lookups declared cheap in lib/declarations.ts), else the JS backend with
 * a one-time warning. `BITBOARD_PATTERNS_BACKEND=native|js` forces one backend for every
 * function; forcing `native` where the addon cannot load throws, saying why.
 */
import { createApi, describeBackends, type ApiOptions } from './api.js';
import type { Backend } from './backend.js';
import { jsBackend } from './js/index.js';
import { loadNative, requestedBackend } from './native.js';

function chooseBackend(): Backend {
  const wanted = requestedBackend();
  if (wanted === 'js') return jsBackend;
  try {
    return loadNative();
  } catch (e) {
    if (wanted === 'native') {
      throw new Error(`BITBOARD_PATTERNS_BACKEND=native, but ${(e as Error).message}`, { cause: e });
    }
    process.emitWarning(`bitboard-patterns: using the JS backend (slower): ${(e as Error).message}`, {
      code: 'BITBOARD_PATTERNS_JS_FALLBACK',
      detail: 'Set BITBOARD_PATTERNS_BACKEND=js to choose the JS backend explicitly and silence this warning.',
    });
    return jsBackend;
  }
}

const chosen = chooseBackend();
// Forced (either way) or JS only: one backend for everything.
const options: ApiOptions = chosen.name === 'native' && requestedBackend() !== 'native' ? { cheap: jsBackend } : {};

/** The default facade's API. */
export const api = createApi(chosen, options);

/**
 * Which backend answers each public function of the default facade ('native' | 'js'; variants as
 * `variants.name`): with the addon loaded, the cheap lookups of lib/declarations.ts are answered
 * in JS and everything else natively; with one backend forced or only JS available, that one.
 */
export const routing: Readonly<Record<string, 'native' | 'js'>> = describeBackends(chosen, options);
