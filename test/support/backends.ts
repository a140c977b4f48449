/**
 * The backends every behavioural test runs against (describe.each(backends)).
 *
 * - JS, except with BITBOARD_PATTERNS_TEST_JS=0 and native loaded (CI's runs of other native builds,
 *   such as the sanitizer build: their JS rows would repeat npm test's). jsApi stays the reference
 *   the property tests compare against.
 * - Native unless BITBOARD_PATTERNS_BACKEND=js (the run that proves the JS fallback alone passes).
 *   When native is expected but cannot load, importing this file throws: a broken build fails the
 *   suite instead of being skipped.
 * - WebAssembly (wasm/bitboard_patterns.wasm, `npm run build:wasm`) unless BITBOARD_PATTERNS_BACKEND
 *   is js or native or BITBOARD_PATTERNS_TEST_WASM=0; when it is not built it is skipped with a
 *   message, and with BITBOARD_PATTERNS_REQUIRE_WASM=1 (CI) importing this file throws instead.
 */
import { createApi, type Api } from '../../lib/api/create-api.js';
import { jsBackend } from '../../lib/backends/js/index.js';
import { loadNative } from '../../lib/backends/native.js';
import { requestedBackend } from '../../lib/backends/choose.js';
import { loadWasm } from '../../lib/backends/wasm/load.js';

export const jsApi: Api = createApi(jsBackend);
export const nativeApi: Api | undefined = requestedBackend() === 'js' ? undefined : createApi(loadNative());

export const backends: [string, Api][] = nativeApi && process.env.BITBOARD_PATTERNS_TEST_JS === '0' ? [] : [['js', jsApi]];
if (nativeApi) backends.push([`native (${nativeApi.cpuPath})`, nativeApi]);

function wasmOrSkip(): Api | undefined {
  if (requestedBackend() === 'js' || requestedBackend() === 'native') return undefined;
  if (process.env.BITBOARD_PATTERNS_TEST_WASM === '0') return undefined;  // CI's runs of other builds
  try {
    return createApi(loadWasm());
  } catch (e) {
    if (process.env.BITBOARD_PATTERNS_REQUIRE_WASM === '1') throw e;
    console.warn(`test/support/backends.ts: the wasm backend is skipped: ${(e as Error).message}`);
    return undefined;
  }
}
export const wasmApi: Api | undefined = wasmOrSkip();
if (wasmApi) backends.push([`wasm (${wasmApi.cpuPath})`, wasmApi]);

/**
 * The APIs held to the JS backend's answers by the property tests: native, and with native loaded
 * the default facade's shape (cheap lookups from JS, the rest native).
 */
export const comparedApis: [string, Api][] = [];
if (nativeApi) {
  comparedApis.push([`native (${nativeApi.cpuPath})`, nativeApi],
    ['facade (cheap lookups from JS)', createApi(loadNative(), { cheap: jsBackend })]);
}
if (wasmApi) comparedApis.push([`wasm (${wasmApi.cpuPath})`, wasmApi]);

/** comparedApis for describe.each, with a placeholder row when it is empty (the describe is skipped then). */
export const comparedRows: [string, Api][] = comparedApis.length ? comparedApis : [['native not loaded', jsApi]];
