/**
 * The WebAssembly backend on its own (throws at import when the module cannot load, saying why):
 * the C++ core compiled to wasm32, for side-by-side comparisons and for runtimes without the addon.
 * The build adds one named export per declared function (see lib/index.ts).
 */
import { createApi } from './api/create-api.js';
import { createSanApi } from './games/san.js';
import { loadWasm } from './backends/wasm/load.js';

export const api = createApi(loadWasm());
export * from './api/public.js';

/** SAN on this backend (the package-wide exports follow the facade's choice). */
export const { toSan, parseSan, sanMoves } = createSanApi('wasm');
