/**
 * The Syzygy values both languages need are written once per language: the batch outputs' "no
 * answer" values live in lib/core/types.ts (TypeScript) and native/core/syzygy.h (C++, used by the
 * addon and the WebAssembly glue). This test reads the C++ header and checks the two agree, and that
 * the glue defines none of its own.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../../lib/core/types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const header = readFileSync(join(root, 'native', 'core', 'syzygy.h'), 'utf8');

function cppConstant(name: string): number {
  const m = new RegExp(`constexpr int ${name} = (-?\\d+);`).exec(header);
  if (!m) throw new Error(`${name} is not defined in native/core/syzygy.h`);
  return Number(m[1]);
}

describe('Syzygy "no answer" values', () => {
  it('native/core/syzygy.h holds the values of lib/core/types.ts', () => {
    expect(cppConstant('kWdlNone')).toBe(SYZYGY_WDL_NONE);
    expect(cppConstant('kDtzNone')).toBe(SYZYGY_DTZ_NONE);
  });

  it('the addon and wasm glue take them from the header', () => {
    for (const file of ['native/addon/syzygy.cc', 'native/wasm/bbp_wasm_syzygy.cc']) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text, file).not.toMatch(/-128|-32768/);
      expect(text, file).toContain('sz::kWdlNone');
    }
  });
});
