#!/usr/bin/env node
/**
 * node scripts/gen-registrations.mjs [--check]
 *
 * Writes native/addon/generated/registrations.cc: the addon's Node-API registration of every
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

/** DECLARATIONS, loaded from the TypeScript source with esbuild (a dev dependency). */
async function loadDeclarations() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(root, 'lib/api/declarations.ts')], bundle: true, format: 'esm', platform: 'node',
    packages: 'external', write: false, logLevel: 'error',
  });
  const dir = mkdtempSync(join(tmpdir(), 'bbp-gen-'));
  try {
    const file = join(dir, 'declarations.mjs');
    writeFileSync(file, result.outputFiles[0].text);
    return (await import(pathToFileURL(file).href)).DECLARATIONS;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = registrationsSource(await loadDeclarations(), readNative());
  const file = join(root, OUTPUT);
  if (process.argv.includes('--check')) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
      console.error(`${OUTPUT} is stale: run node scripts/gen-registrations.mjs`);
      process.exit(1);
    }
    console.log(`${OUTPUT} is up to date`);
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`wrote ${OUTPUT}`);
  }
}
