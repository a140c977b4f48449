// Globals the browser bundle injects (scripts/build-browser.mjs): the PGN reader and the batch
// formatter use Node's Buffer (the `buffer` package is the same API), the JS twin yields with
// setImmediate (a zero timeout in a page).
import { Buffer } from 'buffer';

export { Buffer };
export const setImmediate = (f, ...args) => setTimeout(f, 0, ...args);
