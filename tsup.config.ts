import { defineConfig } from 'tsup';

// ESM + CommonJS + types for the facade and both stand-alone backends. `shims` lets the loader's
// `import.meta.url` work in the CommonJS build too.
export default defineConfig({
  entry: {
    index: 'lib/index.ts',
    'native-entry': 'lib/native-entry.ts',
    'js-entry': 'lib/js-entry.ts',
    cli: 'lib/cli.ts',
    'analyze-worker': 'lib/cli/analyze-worker.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  shims: true,
  clean: true,
  target: 'node20',
  splitting: false,
  sourcemap: false,
});
