#!/usr/bin/env node
/**
 * A stamp of the sources dist/ was built from, so that npm's `prepare` skips a build that would
 * give the same files: `npx bitboard-patterns` in a fresh cache links this directory and runs
 * `prepare` again, which otherwise rebuilds dist/ for tens of seconds before the first command runs.
 *   node scripts/build-stamp.mjs write   after a build: record the sources' hash in dist/
 *   node scripts/build-stamp.mjs check   exit 0 when dist/ holds a build of the current sources
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.sources-sha256');

/** Every input of the build: lib/ (tsup.config.ts also writes generated/ from it), the configs, the locked tools, the wasm module. */
function inputs() {
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsup.config.ts', 'scripts/build-browser.mjs', 'scripts/browser-globals.mjs'].map((f) => join(root, f));
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(join(root, 'lib'));
  // The browser bundle inlines the WebAssembly module.
  if (existsSync(join(root, 'wasm', 'bitboard_patterns.wasm'))) files.push(join(root, 'wasm', 'bitboard_patterns.wasm'));
  return files.sort();
}

function hash() {
  const h = createHash('sha256');
  for (const f of inputs()) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

const mode = process.argv[2];
if (mode === 'write') {
  writeFileSync(stamp, `${hash()}\n`);
} else if (mode === 'check') {
  const fresh = existsSync(stamp) && existsSync(join(root, 'dist', 'cli.cjs')) && existsSync(join(root, 'dist', 'index.cjs'))
    && readFileSync(stamp, 'utf8').trim() === hash();
  if (fresh) console.log('dist/ is built from the current sources');
  process.exit(fresh ? 0 : 1);
} else {
  console.error('usage: node scripts/build-stamp.mjs write|check');
  process.exit(2);
}
