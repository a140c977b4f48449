#!/usr/bin/env node
/**
 * node scripts/gen-registrations.mjs [--check]
 *
 * Writes everything the bindings take from one declaration or list (all committed, all checked as
 * current by test/core/registrations.test.ts):
 * - native/addon/generated/registrations.cc, the addon's registrations (below);
 * - native/wasm/generated/exports.cc and lib/backends/wasm/generated/declared.ts, the WebAssembly
 *   build's C exports of the same declarations and their TypeScript callers (wasmSources);
 * - native/core/generated/syzygy-values.h, the Syzygy batch outputs' "no answer" values of
 *   lib/core/types.ts for native/core/syzygy.h;
 * - native/core/generated/features.h, the batch feature list of lib/core/features.ts for the C++
 *   analysis and record writer (featuresSource).
 *
 * registrations.cc: the addon's Node-API registration of every
 * declared function over squares, sets and positions (lib/api/declarations.ts) whose glue is not
 * written by hand in native/addon/*.cc. Each line is made from the declaration alone: the C++
 * function named as the declaration (a free function of its topic header, native/core/TOPIC.h, or
 * the member of that name in the kernel table, native/kernels/kernels.h), glue.h's argument kind
 * for each argument kind, and the signature string "name(arg, ...)" with the declaration's
 * argument names (the names the addon's error messages use).
 *
 * The generated file is committed (a clean clone and the npm package build it with node-gyp or
 * cmake-js from native/sources.txt, without this script or TypeScript); test/core/registrations.test.ts
 * fails when it is stale, and `--check` here exits 1 then.
 *
 * Which declarations: the plain ones, whose public function is "check the arguments, call the
 * backend member of the same name" (no `call`, no `member`, not a variant); these are also the
 * Backend members lib/backends/contract.ts derives from the declarations. A plain declaration whose
 * name appears as a string in a hand-written glue file is left to that file (special glue: a C++
 * name or argument names that differ, a batch colour, packed-position batches).
 */
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = 'native/addon/generated/registrations.cc';
/** The WebAssembly build's C exports of the same declarations, and their TypeScript callers. */
export const WASM_OUTPUT = 'native/wasm/generated/exports.cc';
export const WASM_TS_OUTPUT = 'lib/backends/wasm/generated/declared.ts';
/** The batch feature list of lib/core/features.ts, for the C++ analysis and record writers. */
export const FEATURES_OUTPUT = 'native/core/generated/features.h';
export const SYZYGY_VALUES_OUTPUT = 'native/core/generated/syzygy-values.h';

/** glue.h's argument kind for each declared argument kind of a single call. */
const SINGLE_KINDS = {
  square: 'Square', color: 'Color', bitboard: 'Set', squareOrSet: 'Set', path: 'Set', direction: 'Direction',
  depth: 'Depth', position: 'Pos',
};
/** ... and of a batch form (arrays of squares and sets; scalars as in the single call). */
const BATCH_KINDS = { ...SINGLE_KINDS, squares: 'Squares', sets: 'Sets', paths: 'Sets' };
/** The element type of a batch output. */
const OUT_TYPES = { u64: 'U64', u8: 'std::uint8_t', i8: 'std::int8_t', f64: 'double' };

/** A declaration the generator covers: no `call`, no `member`, not a variant (see the header). */
export const isPlain = (name, d) => !name.includes('.') && !d.call && !d.member && !d.variant;

/**
 * What the generator reads from native/: the kernel table's member names, the names registered by
 * hand (name -> glue file), and the topic headers that exist.
 */
export function readNative(dir = root) {
  const kernels = readFileSync(join(dir, 'native/kernels/kernels.h'), 'utf8');
  const kernelMembers = new Set([...kernels.matchAll(/\(\*(\w+)\)\(/g)].map((m) => m[1]));
  const handWritten = new Map();
  for (const file of readdirSync(join(dir, 'native/addon')).filter((f) => f.endsWith('.cc')).sort()) {
    const code = readFileSync(join(dir, 'native/addon', file), 'utf8').replace(/\/\/.*$/gm, '');
    for (const m of code.matchAll(/"(\w+)(?:\([^"]*\))?"/g)) if (!handWritten.has(m[1])) handWritten.set(m[1], file);
  }
  const headers = new Set(readdirSync(join(dir, 'native/core')).filter((f) => f.endsWith('.h')));
  return { kernelMembers, handWritten, headers };
}

/** The text of registrations.cc for these declarations and native/ facts (readNative). */
export function registrationsSource(declarations, { kernelMembers, handWritten, headers }) {
  const lines = [];
  const topics = new Set();
  const byHand = [];
  const fail = (name, why) => {
    throw new Error(`${name}: ${why}; register it by hand in native/addon/TOPIC.cc (glue.h) or change its declaration`);
  };
  /** The C++ callable of a name: the kernel table's member, else the free function of the topic header. */
  const callable = (name) => (kernelMembers.has(name) ? `&Kernels::${name}` : name);
  for (const [name, d] of Object.entries(declarations)) {
    if (!isPlain(name, d)) continue;
    if (handWritten.has(name)) {
      byHand.push(`${name} (${handWritten.get(name)})`);
      continue;
    }
    const argNames = d.args.map(([a]) => a);
    let fn, kinds;
    if (d.out === undefined) {
      fn = callable(name);
      kinds = d.args.map(([a, k]) => SINGLE_KINDS[k] ?? fail(name, `argument ${a} is of kind ${k}, which the generator has no glue kind for`));
    } else {
      if ((d.outWidth ?? 1) !== 1) fail(name, 'its output has more than one element per item');
      if (!OUT_TYPES[d.out]) fail(name, `its output kind ${d.out} is unknown`);
      // The kernel table's loop of this name, else the single form's core function looped by glue.h.
      if (kernelMembers.has(name)) fn = `&Kernels::${name}`;
      else if (d.batchOf && !kernelMembers.has(d.batchOf) && declarations[d.batchOf]) fn = d.batchOf;
      else fail(name, `no kernel loop Kernels::${name} and no core function ${d.batchOf ?? '(batchOf)'} to loop`);
      kinds = [...d.args.map(([a, k]) => BATCH_KINDS[k] ?? fail(name, `argument ${a} is of kind ${k}, which the generator has no glue kind for`)),
        `Out<${OUT_TYPES[d.out]}>`];
      argNames.push('out');
    }
    const header = `${d.topic}.h`;
    if (!headers.has(header)) fail(name, `its topic header native/core/${header} does not exist`);
    topics.add(d.topic);
    const how = d.out === undefined ? 'exportCall' : 'exportBatch';
    lines.push(`  ${how}<${[fn, ...kinds].join(', ')}>(env, exports, "${name}(${argNames.join(', ')})");`);
  }
  const wrap = (items, width) => {
    const out = [];
    let line = '//';
    for (const item of items) {
      if (line.length + item.length + 2 > width && line !== '//') {
        out.push(line);
        line = '//';
      }
      line += ` ${item},`;
    }
    out.push(line.replace(/,$/, '.'));
    return out;
  };
  return [
    '// Generated by scripts/gen-registrations.mjs from lib/api/declarations.ts: do not edit (run the',
    '// script; test/core/registrations.test.ts fails while this file is stale).',
    '//',
    '// The registration of each plain declared function (no `call`, no `member`, not a variant) with',
    "// glue.h's argument kinds: the C++ function of the declaration's name (the kernel table's member",
    '// of that name, else the free function of native/core/TOPIC.h) and the signature string with the',
    "// declaration's argument names. Registered by hand instead (native/addon/*.cc):",
    ...wrap(byHand, 110),
    ...[...topics].sort().map((t) => `#include "../../core/${t}.h"`),
    '#include "../glue.h"',
    '',
    'namespace bbp::addon {',
    '',
    'void exportDeclared(Napi::Env env, Napi::Object exports) {',
    ...lines,
    '}',
    '',
    '}  // namespace bbp::addon',
    '',
  ].join('\n');
}


/** The C type of a single call's argument of each kind in the WebAssembly ABI (bitboards as i64). */
const WASM_SCALARS = {
  square: 'int', color: 'int', direction: 'int', depth: 'int', bitboard: 'U64', squareOrSet: 'U64', path: 'U64',
  position: 'const U64*',
};
/** ... and of a batch form's arrays. */
const WASM_ARRAYS = { squares: 'const U8*', sets: 'const U64*', paths: 'const U64*' };
const WASM_OUT = { u64: 'U64', u8: 'U8', i8: 'std::int8_t', f64: 'double' };
/** The C result of a single call and how the TypeScript caller reads it. */
const WASM_RESULTS = {
  bitboard: ['U64', (e) => `u64(${e})`], u64: ['U64', (e) => `u64(${e})`], number: ['int', (e) => e],
  boolean: ['int', (e) => `${e} === 1`],
};
const TS_SCALAR = { int: 'number', U64: 'bigint', 'const U64*': 'Position' };
const TS_ARRAY = { 'const U8*': 'Uint8Array', 'const U64*': 'BigUint64Array' };
const TS_OUT = { u64: 'BigUint64Array', u8: 'Uint8Array', i8: 'Int8Array', f64: 'Float64Array' };
/** How a C type crosses the WebAssembly boundary: i64 as a bigint, i32 (numbers, pointers) as a number. */
const abiType = (t) => (t === 'U64' ? 'bigint' : 'number');

/**
 * Which plain declarations the WebAssembly glue is generated for, and why the others are not: the
 * argument kinds of packed-position batches (a batch colour, several words per item) have glue of
 * their own in native/wasm/bbp_wasm.cc. Returns [name, declaration, reason or undefined].
 */
export function wasmPlan(declarations) {
  const out = [];
  for (const [name, d] of Object.entries(declarations)) {
    if (!isPlain(name, d)) continue;
    let why;
    if (d.out === undefined) {
      const bad = d.args.find(([, k]) => !WASM_SCALARS[k]);
      if (bad) why = `argument ${bad[0]} is of kind ${bad[1]}`;
      else if (!WASM_RESULTS[d.result]) why = `its result is of kind ${d.result}`;
    } else {
      const bad = d.args.find(([, k]) => !WASM_ARRAYS[k] && !(WASM_SCALARS[k] && k !== 'position'));
      if (bad) why = `argument ${bad[0]} is of kind ${bad[1]}`;
      else if ((d.outWidth ?? 1) !== 1) why = 'its output has more than one element per item';
      else if (!WASM_OUT[d.out]) why = `its output kind ${d.out} is unknown`;
    }
    out.push([name, d, why]);
  }
  return out;
}

/** The exported C name of a declared function. */
export const wasmExportName = (name) => `bbpd_${name}`;

/** The texts of the WebAssembly C exports and their TypeScript callers for these declarations. */
export function wasmSources(declarations, { kernelMembers, headers }) {
  const c = [];
  const ts = [];
  const iface = [];
  const topics = new Set();
  const single = (name) => (kernelMembers.has(name) ? `k().${name}` : `bbp::${name}`);
  for (const [name, d, why] of wasmPlan(declarations)) {
    if (why) continue;
    const header = `${d.topic}.h`;
    if (!headers.has(header)) throw new Error(`${name}: its topic header native/core/${header} does not exist`);
    topics.add(d.topic);
    const x = wasmExportName(name);
    const names = d.args.map((_, i) => `a${i}`);
    if (d.out === undefined) {
      const types = d.args.map(([, k]) => WASM_SCALARS[k]);
      const [ret, read] = WASM_RESULTS[d.result];
      const params = types.map((t, i) => `${t} ${names[i]}`).join(', ');
      const body = d.result === 'boolean' ? `${single(name)}(${names.join(', ')}) ? 1 : 0` : `${single(name)}(${names.join(', ')})`;
      c.push(`BBP_EXPORT(${x}) ${ret} ${x}(${params}) { return ${body}; }`);
      const tsParams = types.map((t, i) => `${names[i]}: ${TS_SCALAR[t]}`).join(', ');
      const tsArgs = d.args.map(([, k], i) => (k === 'position' ? `put(${names[i]})` : names[i])).join(', ');
      ts.push(`    ${name}: (${tsParams}) => ${read(`x.${x}(${tsArgs})`)},`);
      iface.push(`  ${x}(${types.map((t, i) => `${names[i]}: ${abiType(t)}`).join(', ')}): ${abiType(ret)};`);
    } else {
      const types = d.args.map(([, k]) => WASM_ARRAYS[k] ?? WASM_SCALARS[k]);
      const outType = WASM_OUT[d.out];
      const params = [...types.map((t, i) => `${t} ${names[i]}`), `${outType}* out`, 'Size n'].join(', ');
      const checks = d.args.map(([, k], i) => (k === 'squares' ? `${names[i]}[i] > 63` : null)).filter(Boolean);
      const lines = [`BBP_EXPORT(${x}) Size ${x}(${params}) {`];
      if (checks.length) lines.push(`  for (Size i = 0; i < n; ++i)`, `    if (${checks.join(' || ')}) return i;`);
      if (kernelMembers.has(name)) {
        lines.push(`  k().${name}(${[...names, 'out', 'n'].join(', ')});`);
      } else if (d.batchOf && !kernelMembers.has(d.batchOf) && declarations[d.batchOf]) {
        const elems = d.args.map(([, k], i) => (WASM_ARRAYS[k] ? `${names[i]}[i]` : names[i]));
        lines.push(`  for (Size i = 0; i < n; ++i) out[i] = static_cast<${outType}>(bbp::${d.batchOf}(${elems.join(', ')}));`);
      } else {
        throw new Error(`${name}: no kernel loop Kernels::${name} and no core function ${d.batchOf ?? '(batchOf)'} to loop`);
      }
      lines.push('  return n;', '}');
      c.push(...lines);
      const tsParams = [...types.map((t, i) => `${names[i]}: ${TS_ARRAY[t] ?? TS_SCALAR[t]}`), `out: ${TS_OUT[d.out]}`].join(', ');
      const arrays = d.args.map(([, k], i) => (WASM_ARRAYS[k] ? names[i] : null)).filter(Boolean);
      let p = 0;
      const callArgs = d.args.map(([, k], i) => (WASM_ARRAYS[k] ? `p[${p++}]!` : names[i]));
      ts.push(`    ${name}: (${tsParams}) => m.batch('${name}', [${[...names, 'out'].join(', ')}], [${arrays.join(', ')}], out,`,
        `      (p, n) => x.${x}(${[...callArgs, `p[${arrays.length}]!`, 'n'].join(', ')})),`);
      iface.push(`  ${x}(${[...types.map((t, i) => `${names[i]}: ${abiType(t)}`), 'out: number', 'n: number'].join(', ')}): number;`);
    }
  }
  const cText = [
    '// Generated by scripts/gen-registrations.mjs from lib/api/declarations.ts: do not edit (run the',
    '// script; test/core/registrations.test.ts fails while this file is stale).',
    '//',
    '// The WebAssembly C export of each plain declared function whose argument kinds have a C form here:',
    "// the kernel table's member of the declaration's name (the portable table), else the free function",
    '// of native/core/TOPIC.h. A batch form returns n when it wrote every element, else the index of the',
    '// first square >= 64 (nothing written); lib/backends/wasm/generated/declared.ts calls them.',
    '#include <cstddef>',
    '#include <cstdint>',
    '',
    ...[...topics].sort().map((t) => `#include "../../core/${t}.h"`),
    '#include "../../kernels/kernels.h"',
    '',
    '#define BBP_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))',
    '',
    'using U64 = std::uint64_t;',
    'using U8 = std::uint8_t;',
    'using Size = std::size_t;',
    '',
    'namespace {',
    'const bbp::Kernels& k() { return bbp::portableKernels(); }',
    '}  // namespace',
    '',
    ...c,
    '',
  ].join('\n');
  const tsText = [
    '// Generated by scripts/gen-registrations.mjs from lib/api/declarations.ts: do not edit (run the',
    '// script; test/core/registrations.test.ts fails while this file is stale).',
    '//',
    '// The WebAssembly backend\'s member for each plain declared function the module exports',
    '// (native/wasm/generated/exports.cc): a single call passes its scalars (a Position as the address',
    '// its words were written to), a batch form copies its arrays in and `out` back (lib/backends/wasm/',
    '// scratch.ts), and the JS twin throws for an element the module refused.',
    "import type { Position } from '../../../core/types.js';",
    "import type { Scratch } from '../scratch.js';",
    '',
    '/** The module\'s exports this file calls. */',
    'export interface DeclaredWasmExports {',
    ...iface,
    '}',
    '',
    'const u64 = (b: bigint): bigint => BigInt.asUintN(64, b);',
    '',
    '/** The members, over the module\'s exports `x`; `put` writes a Position\'s words and gives their address. */',
    'export function declaredWasmMembers(x: DeclaredWasmExports, m: Scratch, put: (pos: Position) => number): Record<string, unknown> {',
    '  return {',
    ...ts,
    '  };',
    '}',
    '',
  ].join('\n');
  return { c: cText, ts: tsText };
}

/** The C++ identifier of a feature: kFeat + its name with a capital first letter. */
export const featureIdName = (name) => `kFeat${name[0].toUpperCase()}${name.slice(1)}`;

/**
 * The text of native/core/generated/features.h: FEATURES of lib/core/features.ts (the one list) as
 * the C++ analysis (native/core/analysis.h) and the record writer (native/addon/records.h) read it.
 */
export function featuresSource(features) {
  const ids = features.map((f) => featureIdName(f.name));
  const width = Math.max(...ids.map((id) => id.length)) + 1;
  const isU64 = (f) => f.type === 'bitboard' || f.type === 'u64';
  const table = (values) => values.join(', ');
  return [
    '// Generated by scripts/gen-registrations.mjs from lib/core/features.ts: do not edit (run the',
    '// script; test/core/registrations.test.ts fails while this file is stale).',
    '//',
    '// The batch features, in the id order of FEATURES: a "pair" feature writes two values per',
    "// position (white's, then black's), the others one; U64 features fill a BigUint64Array, the",
    '// others a Uint8Array.',
    '#pragma once',
    '',
    'namespace bbp {',
    'inline namespace BBP_ISA {',
    '',
    'enum FeatureId : unsigned {',
    ...features.map((f, i) => `  ${(ids[i] + ',').padEnd(width)} // ${isU64(f) ? 'U64' : 'U8'}${f.perColor ? ' pair' : ''}${f.type === 'flag' ? ' flag' : ''}: ${f.description}`),
    '  kFeatureCount',
    '};',
    '',
    'inline constexpr bool kFeatureIsU64[kFeatureCount] = {',
    `    ${table(features.map((f) => String(isU64(f))))}};`,
    'inline constexpr unsigned kFeatureWidth[kFeatureCount] = {',
    `    ${table(features.map((f) => (f.perColor ? '2' : '1')))}};`,
    'inline constexpr bool kFeatureIsFlag[kFeatureCount] = {',
    `    ${table(features.map((f) => String(f.type === 'flag')))}};`,
    '// The names, as records and CSV headers spell them.',
    'inline constexpr const char* kFeatureNames[kFeatureCount] = {',
    `    ${table(features.map((f) => JSON.stringify(f.name)))}};`,
    '',
    'constexpr bool isU64Feature(unsigned f) { return kFeatureIsU64[f]; }',
    'constexpr unsigned featureWidth(unsigned f) { return kFeatureWidth[f]; }',
    'constexpr bool isFlagFeature(unsigned f) { return kFeatureIsFlag[f]; }',
    '',
    '}  // namespace BBP_ISA',
    '}  // namespace bbp',
    '',
  ].join('\n');
}

/**
 * The text of native/core/generated/syzygy-values.h: the values the Syzygy batch outputs hold where
 * the tables give no answer, SYZYGY_WDL_NONE and SYZYGY_DTZ_NONE of lib/core/types.ts (written once
 * there), for native/core/syzygy.h and through it the addon's and the WebAssembly module's glue.
 */
export function syzygyValuesSource({ SYZYGY_WDL_NONE, SYZYGY_DTZ_NONE }) {
  return [
    '// Generated by scripts/gen-registrations.mjs from lib/core/types.ts: do not edit (run the',
    '// script; test/core/registrations.test.ts fails while this file is stale).',
    '//',
    '// The Syzygy batch outputs\' "no answer" values (an Int8Array of WDL, an Int16Array of DTZ).',
    '#pragma once',
    '',
    'namespace bbp {',
    'namespace syzygy {',
    '',
    `constexpr int kWdlNone = ${SYZYGY_WDL_NONE};`,
    `constexpr int kDtzNone = ${SYZYGY_DTZ_NONE};`,
    '',
    '}  // namespace syzygy',
    '}  // namespace bbp',
    '',
  ].join('\n');
}

/** FEATURES, loaded from the TypeScript source. */
async function loadFeatures() {
  return (await loadModule('lib/core/features.ts')).FEATURES;
}

/** A TypeScript module of the package, loaded with esbuild (a dev dependency). */
async function loadModule(path) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(root, path)], bundle: true, format: 'esm', platform: 'node',
    packages: 'external', write: false, logLevel: 'error',
  });
  const dir = mkdtempSync(join(tmpdir(), 'bbp-gen-'));
  try {
    const file = join(dir, 'module.mjs');
    writeFileSync(file, result.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** DECLARATIONS, loaded from the TypeScript source. */
async function loadDeclarations() {
  return (await loadModule('lib/api/declarations.ts')).DECLARATIONS;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const declarations = await loadDeclarations();
  const facts = readNative();
  const wasm = wasmSources(declarations, facts);
  const outputs = [[OUTPUT, registrationsSource(declarations, facts)], [WASM_OUTPUT, wasm.c], [WASM_TS_OUTPUT, wasm.ts],
    [FEATURES_OUTPUT, featuresSource(await loadFeatures())],
    [SYZYGY_VALUES_OUTPUT, syzygyValuesSource(await loadModule('lib/core/types.ts'))]];
  let stale = false;
  for (const [path, text] of outputs) {
    const file = join(root, path);
    if (process.argv.includes('--check')) {
      if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
        console.error(`${path} is stale: run node scripts/gen-registrations.mjs`);
        stale = true;
      } else console.log(`${path} is up to date`);
    } else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      console.log(`wrote ${path}`);
    }
  }
  if (stale) process.exit(1);
}
