/**
 * The Syzygy values both languages need are written once: the batch outputs' "no answer" values in
 * lib/core/types.ts, from which scripts/gen-registrations.mjs writes native/core/generated/
 * syzygy-values.h (test/core/registrations.test.ts holds it fresh). This test checks that the C++
 * takes them from there: native/core/syzygy.h includes the generated header and neither it nor the
 * addon's and WebAssembly glue defines values of its own.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../../lib/core/types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

describe('Syzygy "no answer" values', () => {
  it('native/core/syzygy.h takes them from the header generated from lib/core/types.ts', () => {
    const header = read('native/core/syzygy.h');
    expect(header).toContain('#include "generated/syzygy-values.h"');
    expect(header).not.toMatch(/constexpr int kWdlNone|constexpr int kDtzNone/);
    const generated = read('native/core/generated/syzygy-values.h');
    expect(generated).toContain(`constexpr int kWdlNone = ${SYZYGY_WDL_NONE};`);
    expect(generated).toContain(`constexpr int kDtzNone = ${SYZYGY_DTZ_NONE};`);
  });

  it('the addon and wasm glue take them from the header', () => {
    for (const file of ['native/addon/syzygy.cc', 'native/wasm/bbp_wasm_syzygy.cc']) {
      const text = read(file);
      expect(text, file).not.toMatch(new RegExp(`${SYZYGY_WDL_NONE}|${SYZYGY_DTZ_NONE}`));
      expect(text, file).toContain('sz::kWdlNone');
    }
  });
});
