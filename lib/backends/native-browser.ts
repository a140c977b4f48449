/**
 * The browser bundle's replacement for ./native.ts (scripts/build-browser.mjs swaps them): a page
 * cannot load a Node addon, so the native backend never loads there and the facade takes the wasm
 * backend (lib/backends/choose.ts).
 */
import type { Backend } from './contract.js';

export const packageRoot = '';

export function loadNative(): Backend {
  throw new Error('no native addon in a browser');
}
