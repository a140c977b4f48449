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
import { ROUTING_TABLE, routeBackend } from '../lib/routing.js';

export const jsApi: Api = createApi(jsBackend);
export const nativeApi: Api | undefined = requestedBackend() === 'js' ? undefined : createApi(loadNative());

export const backends: [string, Api][] = [['js', jsApi]];
if (nativeApi) backends.push([`native (${nativeApi.cpuPath})`, nativeApi]);

/**
 * The APIs held to the JS backend's answers by the property tests: native, and with native loaded
 * the routed facade's backend (lib/routing-table.ts) and the same with every route flipped (so both
 * routes of every function are exercised mixed with the other backend's members).
 */
export const comparedApis: [string, Api][] = [];
if (nativeApi) {
  const native = loadNative();
  const flipped = Object.fromEntries(Object.entries(ROUTING_TABLE).map(([k, v]) => [k, v === 'js' ? 'native' : 'js'] as const));
  const everyMember = [...Object.keys(native), ...Object.keys(native.variants).map((v) => `variants.${v}`),
    ...Object.keys(native.checkVariants).map((v) => `variants.${v}`)];
  const allJs = Object.fromEntries(everyMember.map((k) => [k, 'js' as const]));
  comparedApis.push([`native (${nativeApi.cpuPath})`, nativeApi],
    ['routed facade (lib/routing-table.ts)', createApi(routeBackend(native, jsBackend))],
    ['routed, every route flipped', createApi(routeBackend(native, jsBackend, flipped))],
    ['routed, every member that JS has from JS', createApi(routeBackend(native, jsBackend, allJs))]);
}

/** comparedApis for describe.each, with a placeholder row when it is empty (the describe is skipped then). */
export const comparedRows: [string, Api][] = comparedApis.length ? comparedApis : [['native not loaded', jsApi]];
