/**
 * The one list of what a backend answers with the JS twin instead of its own code, and why. Every
 * other declared function (lib/api/declarations.ts) and every member of the Backend contract
 * (./contract.ts) is the backend's own: test/core/backend-coverage.test.ts walks them and fails when
 * a backend lacks one that is not listed here, or lists one it has.
 *
 * Keys are Backend member paths ('san', 'batch.parseFenText').
 */
export const TWIN_ONLY: Readonly<Record<'native' | 'wasm', Readonly<Record<string, string>>>> = Object.freeze({
  native: Object.freeze({}),
  wasm: Object.freeze({
    san: 'the SAN reader and writer run on the twin\'s make-move; the module\'s PGN reader has its own SAN inside',
    tbgen: 'the tablebase generator needs threads and more memory than a browser page should take',
    syzygy: 'probing a directory of table files needs the file system; the module probes tables given as bytes (SyzygyTablebase.fromBytes)',
    'batch.parseFenText': 'FEN text is split and parsed faster in JS than copied into the module\'s memory and back',
  }),
});
