/**
 * The native backend on its own (throws at import when the addon cannot load, saying why). The
 * build adds one named export per declared function (see lib/index.ts).
 */
import { createApi } from './api/create-api.js';
import { createSanApi } from './games/san.js';
import { loadNative } from './backends/native.js';

export const api = createApi(loadNative());
export * from './api/public.js';

/** SAN on this backend (the package-wide exports follow the facade's choice). */
export const { toSan, parseSan, sanMoves } = createSanApi('native');
