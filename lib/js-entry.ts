/**
 * The pure-TypeScript BigInt backend on its own: same API, same answers, no binary needed. The
 * build adds one named export per declared function (see lib/index.ts).
 */
import { createApi } from './api/create-api.js';
import { createSanApi } from './games/san.js';
import { jsBackend } from './backends/js/index.js';

export const api = createApi(jsBackend);
export * from './api/public.js';

/** SAN on this backend (the package-wide exports follow the facade's choice). */
export const { toSan, parseSan, sanMoves } = createSanApi('js');
