#!/usr/bin/env node
/**
 * The layer rule of ARCHITECTURE.md, checked on the import graph of lib/ (madge): a module imports
 * only from its own layer or the layers below it, and `madge --circular` finds no cycle.
 *
 *   board < core < backends < moves, batch < games, tablebases, diagram, engine < api < cli < lib/*.ts (entry points)
 *
 * Topic packages on one level may not import each other. In native/, compiler builtins are called
 * in native/core/bitboard.h only. ALLOWED lists the known exceptions, each
 * with its reason; a new upward import fails `npm test` until it is removed or listed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import madge from 'madge';

const LEVEL = { board: 0, core: 1, backends: 2, moves: 3, batch: 3, games: 4, tablebases: 4, diagram: 4, engine: 4, api: 5, cli: 6, '.': 7 };
// Known exceptions, each with its reason ('from -> to': 'why'); none today.
const ALLOWED = new Map();

const layerOf = (file) => (file.includes('/') ? file.split('/')[0] : '.');
const result = await madge('lib', { fileExtensions: ['ts'], detectiveOptions: { ts: { skipTypeImports: false } } });
const graph = result.obj();
const problems = [];
for (const [from, deps] of Object.entries(graph)) {
  for (const to of deps) {
    // The browser bundle's inlined WebAssembly module: a build product (wasm/), not a layer.
    if (from === 'backends/wasm/load-browser.ts' && to === '../wasm/bitboard_patterns.wasm') continue;
    const a = layerOf(from), b = layerOf(to);
    if (!(a in LEVEL) || !(b in LEVEL)) problems.push(`${from} -> ${to}: a folder the layer rule does not know`);
    else if (a !== b && LEVEL[b] >= LEVEL[a] && !ALLOWED.has(`${from} -> ${to}`)) {
      problems.push(`${from} -> ${to}: ${a} may not import ${b}`);
    }
  }
}
// The native side's rule of the same kind: compiler builtins are called in native/core/bitboard.h
// only (lsb, msb, popcount, ... with a portable branch for other compilers).
for (const dir of ['native/core', 'native/addon', 'native/addon/generated', 'native/kernels', 'native/wasm']) {
  for (const name of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name)) {
    const file = join(dir, name);
    if (file === join('native', 'core', 'bitboard.h')) continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/__builtin_\w+\s*\(/.test(line)) problems.push(`${file}:${i + 1}: a compiler builtin outside native/core/bitboard.h`);
    });
  }
}
const cycles = result.circular();
for (const c of cycles) problems.push(`cycle: ${c.join(' -> ')}`);
if (problems.length) {
  console.error(`layer rule (ARCHITECTURE.md) broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`layers: ${Object.keys(graph).length} modules, no upward import outside ${ALLOWED.size} listed, no cycle`);
