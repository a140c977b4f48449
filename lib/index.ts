/**
 * bitboard-patterns: chess bitboard patterns with a native (C++/Node-API) core and a pure-TS twin.
 *
 * The facade picks the backend once, at load (lib/api/facade.ts). Its functions are declared once in
 * lib/api/declarations.ts; the build (tsup.config.ts) adds one named export per declared function to
 * this entry point, so `import { kingAttacks } from 'bitboard-patterns'` and
 * `require('bitboard-patterns').kingAttacks` both work. The same functions are `api.kingAttacks`.
 */
export { api, routing } from './api/facade.js';
export * from './api/public.js';
