#!/usr/bin/env node
/**
 * The browser bundle: dist/browser/index.js, one ESM file for a page's <script type="module"> (and
 * the package's `browser` export condition), built from the same entry as the Node facade
 * (generated/index.ts, written by tsup.config.ts) with these swaps:
 *  - lib/backends/native.ts -> native-browser.ts (no addon in a page: the facade takes wasm);
 *  - lib/backends/wasm/load.ts -> load-browser.ts, with wasm/bitboard_patterns.wasm inlined;
 *  - every `node:` module -> a stub whose functions throw "not available in a browser" when called
 *    (files, streams, Syzygy directories, worker threads: the Node-only parts); node:path,
 *    node:os and node:util -> the few pure functions the page-safe parts call (PAGE_MODULES);
 *  - the globals Buffer and setImmediate from scripts/browser-globals.mjs.
 * The bundle holds no `node:` import (the browser test checks). Skipped, saying so, when the wasm
 * module is not built (`npm run build:wasm`).
 */
import { existsSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasm = join(root, 'wasm', 'bitboard_patterns.wasm');
if (!existsSync(wasm)) {
  console.log('bitboard-patterns: browser bundle skipped: wasm/bitboard_patterns.wasm is not built (npm run build:wasm)');
  process.exit(0);
}

const requireHere = createRequire(import.meta.url);
const swaps = new Map([
  [join(root, 'lib', 'backends', 'native.ts'), join(root, 'lib', 'backends', 'native-browser.ts')],
  [join(root, 'lib', 'backends', 'wasm', 'load.ts'), join(root, 'lib', 'backends', 'wasm', 'load-browser.ts')],
]);

const PATH_FUNCTIONS = `
const parts = (p) => p.split('/').filter((s) => s && s !== '.');
export const sep = '/';
export function basename(p, ext) { const b = p.split('/').filter(Boolean).pop() ?? ''; return ext && b.endsWith(ext) ? b.slice(0, -ext.length) : b; }
export function dirname(p) { const i = p.replace(/\\/+$/, '').lastIndexOf('/'); return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i); }
export function extname(p) { const b = basename(p); const i = b.lastIndexOf('.'); return i <= 0 ? '' : b.slice(i); }
export function join(...ps) { return ps.filter(Boolean).join('/').replace(/\\/+/g, '/') || '.'; }
export function resolve(...ps) { return '/' + parts(join(...ps)).join('/'); }
export default { sep, basename, dirname, extname, join, resolve };
`;

// The few Node functions the pure parts call, as a page has them.
const PAGE_MODULES = {
  'node:path': PATH_FUNCTIONS,
  'node:os': `export const availableParallelism = () => globalThis.navigator?.hardwareConcurrency ?? 1;
export const EOL = '\\n';
export default { availableParallelism, EOL };`,
  'node:util': `export const types = { isProxy: () => false };
export default { types };`,
};

const browserSwaps = {
  name: 'bitboard-patterns-browser',
  setup(b) {
    // Node's modules, with or without the prefix (tsup strips it before plugins see some imports).
    const builtin = new RegExp(`^(node:)?(${builtinModules.filter((m) => !m.startsWith('_') && m !== 'buffer').map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
    // Buffer is the `buffer` package (the same API) rather than a stub.
    b.onResolve({ filter: /^node:buffer$/ }, () => ({ path: requireHere.resolve('buffer/') }));
    b.onResolve({ filter: builtin }, (args) => ({ path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'node-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'node-stub' }, async (args) => {
      if (PAGE_MODULES[args.path]) return { contents: PAGE_MODULES[args.path], loader: 'js' };
      const names = Object.keys(await import(args.path)).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
      const lines = names.map((n) => `export const ${n} = unavailable(${JSON.stringify(n)});`);
      return {
        contents: `const unavailable = (name) => function () { throw new Error(\`bitboard-patterns: ${args.path} (\${name}) is not available in a browser\`); };
${lines.join('\n')}
export default new Proxy({}, { get: (_t, k) => unavailable(String(k)) });`,
        loader: 'js',
      };
    });
    b.onResolve({ filter: /(native|load)\.js$/ }, (args) => {
      const file = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      const swap = swaps.get(file);
      return swap ? { path: swap } : undefined;
    });
  },
};

await build({
  entryPoints: [join(root, 'generated', 'index.ts')],
  outfile: join(root, 'dist', 'browser', 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  logLevel: 'warning',
  loader: { '.wasm': 'binary' },
  inject: [join(root, 'scripts', 'browser-globals.mjs')],
  plugins: [browserSwaps],
});
console.log('bitboard-patterns: wrote dist/browser/index.js');
