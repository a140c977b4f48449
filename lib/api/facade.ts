/**
 * The default facade's backend choice, once, at load: the native addon when it loads (the JS
 * backend answering the lookups declared cheap in lib/api/declarations.ts), else the JS backend with
 * a one-time warning. `BITBOARD_PATTERNS_BACKEND=native|js` forces one backend for every
 * function; forcing `native` where the addon cannot load throws, saying why.
 */
import { createApi, describeBackends, type ApiOptions } from './create-api.js';
import type { Backend } from '../backends/contract.js';
import { jsBackend } from '../backends/js/index.js';
import { loadNative } from '../backends/native.js';
import { chooseBackend } from '../backends/choose.js';

const decision = chooseBackend();
if (decision.fallbackReason) {
  process.emitWarning(`bitboard-patterns: using the JS backend (slower): ${decision.fallbackReason.message}`, {
    code: 'BITBOARD_PATTERNS_JS_FALLBACK',
    detail: 'Set BITBOARD_PATTERNS_BACKEND=js to choose the JS backend explicitly and silence this warning.',
  });
}
const chosen: Backend = decision.name === 'native' ? loadNative() : jsBackend;
// Forced (either way) or JS only: one backend for everything.
const options: ApiOptions = chosen.name === 'native' && !decision.forced ? { cheap: jsBackend } : {};

/** The default facade's API. */
export const api = createApi(chosen, options);

/**
 * Which backend answers each public function of the default facade ('native' | 'js'; variants as
 * `variants.name`): with the addon loaded, the cheap lookups of lib/api/declarations.ts are answered
 * in JS and everything else natively; with one backend forced or only JS available, that one.
 */
export const routing: Readonly<Record<string, 'native' | 'js'>> = describeBackends(chosen, options);
