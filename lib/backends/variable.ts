/**
 * BITBOARD_PATTERNS_BACKEND, read here and nowhere else. A leaf module (no imports), so the command
 * line can read the variable before it decides what to load; lib/backends/choose.ts decides.
 */
export type BackendName = 'native' | 'wasm' | 'js';
export type BackendChoice = BackendName | undefined;

/** A BITBOARD_PATTERNS_BACKEND value; an unknown one is an error rather than a silent default. */
export function parseBackendChoice(value: string | undefined): BackendChoice {
  if (value === undefined || value === '') return undefined;
  if (value === 'native' || value === 'wasm' || value === 'js') return value;
  throw new Error(`BITBOARD_PATTERNS_BACKEND must be 'native', 'wasm' or 'js', got ${JSON.stringify(value)}`);
}

/** The backend BITBOARD_PATTERNS_BACKEND asks for, if any. */
export function requestedBackend(): BackendChoice {
  // A browser has no process: nothing is requested there.
  return parseBackendChoice(typeof process === 'undefined' ? undefined : process.env?.BITBOARD_PATTERNS_BACKEND);
}
