/**
 * The backends every behavioural test runs against (describe.each(backends)).
 *
 * - JS always.
 * - Native unless BITBOARD_PATTERNS_BACKEND=js (the run that proves the JS fallback alone passes).
 *   When native is expected but cannot load, importing this file throws: a broken build fails the
 *   suite instead of being skipped.
 */
import { createApi, type Api } from '../../lib/api/create-api.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { loadNative } from '../../lib/backends/native.js';
import { requestedBackend } from '../../lib/backends/choose.js';

export const jsApi: Api = createApi(jsBackend);
export const nativeApi: Api | undefined = requestedBackend() === 'js' ? undefined : createApi(loadNative());

export const backends: [string, Api][] = [['js', jsApi]];
if (nativeApi) backends.push([`native (${nativeApi.cpuPath})`, nativeApi]);

/**
 * The APIs held to the JS backend's answers by the property tests: native, and with native loaded
 * the default facade's shape (cheap lookups from JS, the rest native).
 */
export const comparedApis: [string, Api][] = [];
if (nativeApi) {
  comparedApis.push([`native (${nativeApi.cpuPath})`, nativeApi],
    ['facade (cheap lookups from JS)', createApi(loadNative(), { cheap: jsBackend })]);
}

/** comparedApis for describe.each, with a placeholder row when it is empty (the describe is skipped then). */
export const comparedRows: [string, Api][] = comparedApis.length ? comparedApis : [['native not loaded', jsApi]];
