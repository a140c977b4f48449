import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { createApi } from './lib/api/create-api.js';
import { jsBackend } from './lib/backends/js/index.js';

// The named exports of the three entry points follow from the declarations (lib/api/declarations.ts):
// at build time each entry gets a wrapper in generated/ (not committed) that re-exports the entry
// and exports every member of its API by name, so ESM `import { kingAttacks }`
// and CommonJS `require(...).kingAttacks` work without an export list kept by hand.
const names = Object.keys(createApi(jsBackend));
// Each export carries its declaration's doc comment (for editors and the TypeDoc reference).
const source = readFileSync('lib/api/declarations.ts', 'utf8');
const docs = new Map([...source.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)\s*\n\s*'?([\w.]+)'?: /g)].map((m) => [m[2]!, m[1]!]));
mkdirSync('generated', { recursive: true });
for (const entry of ['index', 'native-entry', 'wasm-entry', 'js-entry']) {
  const exports = names.map((name) => `${docs.get(name)?.replace(/\n {2}/g, '\n') ?? ''}\nexport const ${name} = api.${name};`);
  const module = entry === 'index' ? 'bitboard-patterns' : `bitboard-patterns/${entry.replace('-entry', '')}`;
  writeFileSync(`generated/${entry}.ts`, `// Written by tsup.config.ts from lib/api/declarations.ts at build time: do not edit (not committed).
/**
 * Every public function of ${module}, by name, and everything the root exports.
 *
 * @module ${module}
 */
import { api } from '../lib/${entry}.js';

export * from '../lib/${entry}.js';
${exports.join('\n')}
`);
}

// ESM + CommonJS + types for the facade and both stand-alone backends. `splitting` puts the modules
// the entry points share (positions, batches) into one chunk, so a Position or PositionBatch made
// through one entry point is recognised by the others (their brands are module-private). `shims`
// lets the loader's `import.meta.url` work in the CommonJS build too.
export default defineConfig({
  entry: {
    index: 'generated/index.ts',
    'native-entry': 'generated/native-entry.ts',
    'wasm-entry': 'generated/wasm-entry.ts',
    'js-entry': 'generated/js-entry.ts',
    cli: 'lib/cli.ts',
    'analyze-worker': 'lib/cli/analyze-worker.ts',
    // Subpath exports, one per topic (bitboard-patterns/games, ...).
    games: 'lib/games-entry.ts',
    tablebases: 'lib/tablebases-entry.ts',
    batch: 'lib/batch-entry.ts',
    diagram: 'lib/diagram-entry.ts',
    // Node only (it starts processes): not re-exported by the root, not in the browser build.
    engine: 'lib/engine-entry.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  shims: true,
  clean: true,
  target: 'node20',
  splitting: true,
  sourcemap: false,
});
