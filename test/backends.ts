/**
 * The backends every behavioural test runs against (describe.each(backends)).
 *
 * - JS always.
 * - Native unless BITBOARD_PATTERNS_BACKEND=js (the run that proves the JS fallback alone passes).
 *   When native is expected but cannot load, importing this file throws: a broken build fails the
 *   suite instead of being skipped.
 */
import { createApi, type Api } from '../lib/api.js';
import { jsBackend } from '../lib/js/index.js';
import { loadNative, requestedBackend } from '../lib/native.js';

export const jsApi: Api = createApi(jsBackend);
export const nativeApi: Api | undefined = requestedBackend() === 'js' ? undefined : createApi(loadNative());

export const backends: [string, Api][] = [['js', jsApi]];
if (nativeApi) backends.push([`native (${nativeApi.cpuPath})`, nativeApi]);
