#!/usr/bin/env node
/**
 * Builds the WebAssembly core, wasm/bitboard_patterns.wasm, from the addon's own C++: the kernel
 * sources named in native/sources.txt (the portable table and the slider tables; the x86 tables are
 * not listed there) and the C ABI of native/wasm/ (its generated/ exports included). Toolchain: clang with the wasm32-wasi target,
 * wasm-ld, wasi-libc and libc++ for wasm32 (Debian: clang-16 lld-16 wasi-libc libc++-16-dev-wasm32
 * libc++abi-16-dev-wasm32 libclang-rt-16-dev-wasm32), or the same found through WASI_SDK_PATH.
 *   node scripts/build-wasm.mjs             build; fail when the toolchain is missing
 *   node scripts/build-wasm.mjs --optional  build when the toolchain is there, else say so and exit 0
 *   node scripts/build-wasm.mjs --no-simd   without SIMD128 (for runtimes that lack it)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const optional = args.has('--optional');
const output = join(root, 'wasm', 'bitboard_patterns.wasm');

/** The first command of `names` on PATH (or an absolute path that exists). */
function which(names) {
  for (const name of names) {
    if (name.startsWith('/')) {
      if (existsSync(name)) return name;
      continue;
    }
    for (const dir of (process.env.PATH ?? '').split(':')) {
      if (dir && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

function toolchain() {
  const sdk = process.env.WASI_SDK_PATH;
  const clang = which(sdk ? [join(sdk, 'bin', 'clang++')] : ['clang++-19', 'clang++-16', 'clang++']);
  const ld = which(sdk ? [join(sdk, 'bin', 'wasm-ld')] : ['wasm-ld-19', 'wasm-ld-16', 'wasm-ld']);
  const sysroot = sdk ? join(sdk, 'share', 'wasi-sysroot') : '/usr';
  const libDir = sdk ? join(sysroot, 'lib', 'wasm32-wasi') : '/usr/lib/wasm32-wasi';
  const cxxInclude = sdk ? join(sysroot, 'include', 'c++', 'v1') : '/usr/include/wasm32-wasi/c++/v1';
  const missing = [];
  if (!clang) missing.push('clang++ (clang-16)');
  if (!ld) missing.push('wasm-ld (lld-16)');
  if (!existsSync(join(libDir, 'libc.a'))) missing.push(`wasi-libc (${libDir}/libc.a)`);
  if (!existsSync(join(libDir, 'libc++.a'))) missing.push(`libc++ for wasm32 (${libDir}/libc++.a)`);
  if (!existsSync(cxxInclude)) missing.push(`libc++ headers (${cxxInclude})`);
  return { clang, ld, sysroot, libDir, cxxInclude, missing };
}

/** The C++ sources: native/sources.txt's kernel files (the addon's own list) and native/wasm/. */
export function wasmSources() {
  const listed = readFileSync(join(root, 'native', 'sources.txt'), 'utf8').trim().split(/\s+/);
  const kernels = listed.filter((s) => s.startsWith('native/kernels/'));
  const own = readdirSync(join(root, 'native', 'wasm')).filter((f) => f.endsWith('.cc')).sort().map((f) => `native/wasm/${f}`);
  // The exports generated from the declarations (scripts/gen-registrations.mjs).
  const generated = readdirSync(join(root, 'native', 'wasm', 'generated')).filter((f) => f.endsWith('.cc')).sort()
    .map((f) => `native/wasm/generated/${f}`);
  return [...kernels, ...own, ...generated];
}

const tc = toolchain();
if (tc.missing.length > 0) {
  const message = `WebAssembly build skipped: missing ${tc.missing.join(', ')}. On Debian: apt-get install clang-16 lld-16 `
    + 'wasi-libc libc++-16-dev-wasm32 libc++abi-16-dev-wasm32 libclang-rt-16-dev-wasm32 (or set WASI_SDK_PATH).';
  if (optional) {
    console.log(`bitboard-patterns: ${message} The wasm backend will not be available.`);
    process.exit(0);
  }
  console.error(message);
  process.exit(1);
}

const sources = wasmSources();
const newest = Math.max(...[...sources, 'native/sources.txt', 'scripts/build-wasm.mjs'].map((s) => statSync(join(root, s)).mtimeMs),
  ...readdirSync(join(root, 'native', 'core')).map((f) => statSync(join(root, 'native', 'core', f)).mtimeMs),
  ...readdirSync(join(root, 'native', 'kernels')).map((f) => statSync(join(root, 'native', 'kernels', f)).mtimeMs));
if (args.has('--if-stale') && existsSync(output) && statSync(output).mtimeMs > newest) {
  console.log(`bitboard-patterns: ${output} is up to date`);
  process.exit(0);
}

mkdirSync(dirname(output), { recursive: true });
const flags = [
  '--target=wasm32-wasi', `--sysroot=${tc.sysroot}`, '-isystem', tc.cxxInclude,
  '-std=c++17', '-O3', '-fno-exceptions', '-fno-rtti', '-Wall', '-Wextra',
  // fen.h indexes a table by char (values checked < 128 first); analysis.h's `ok & !skip ? ...` is meant.
  '-Wno-char-subscripts', '-Wno-bitwise-conditional-parentheses',
  ...(args.has('--no-simd') ? [] : ['-msimd128']),
  // A reactor: no main, _initialize runs the constructors; the C ABI's functions are its exports.
  '-mexec-model=reactor', `-fuse-ld=${tc.ld}`, `-L${tc.libDir}`,
  '-Wl,--strip-all', '-Wl,-z,stack-size=1048576', '-Wl,--initial-memory=4194304',
];
const temporary = `${output}.tmp`;
const command = [...flags, '-o', temporary, ...sources.map((s) => join(root, s)), '-lc++', '-lc++abi'];
console.log(`bitboard-patterns: building ${output} with ${tc.clang} from ${sources.join(' ')}`);
execFileSync(tc.clang, command, { stdio: 'inherit', cwd: root });
renameSync(temporary, output);
console.log(`bitboard-patterns: wrote ${output} (${statSync(output).size} bytes)`);
