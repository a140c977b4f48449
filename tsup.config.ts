import { mkdirSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { createApi } from './lib/api.js';
import { jsBackend } from './lib/js/index.js';

// The named exports of the three entry points follow from the declarations (lib/declarations.ts):
// at build time each entry gets a wrapper in generated/ (not committed) that re-exports the entry
// and destructures every member of its API into a named export, so ESM `import { kingAttacks }`
// and CommonJS `require(...).kingAttacks` work without an export list kept by hand.
const names = Object.keys(createApi(jsBackend));
mkdirSync('generated', { recursive: true });
for (const entry of ['index', 'native-entry', 'js-entry']) {
  writeFileSync(`generated/${entry}.ts`, `// Written by tsup.config.ts from lib/declarations.ts at build time: do not edit (not committed).
import { api } from '../lib/${entry}.js';

export * from '../lib/${entry}.js';
export const {
  ${names.join(',\n  ')},
} = api;
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
    'js-entry': 'generated/js-entry.ts',
    cli: 'lib/cli.ts',
    'analyze-worker': 'lib/cli/analyze-worker.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  shims: true,
  clean: true,
  target: 'node20',
  splitting: true,
  sourcemap: false,
});
