/**
 * The addon's generated registrations (native/addon/generated/registrations.cc) are those the
 * declarations give today: the committed file is what scripts/gen-registrations.mjs writes, and
 * the addon as built exports every plain declaration under the signature the declaration names.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DECLARATIONS, type Declaration } from '../../lib/api/declarations.js';
import { FEATURES } from '../../lib/core/features.js';
import * as types from '../../lib/core/types.js';
import { addonPath } from '../../lib/backends/native.js';
import {
  FEATURES_OUTPUT, OUTPUT, SYZYGY_VALUES_OUTPUT, WASM_OUTPUT, WASM_TS_OUTPUT, featuresSource, syzygyValuesSource, isPlain, readNative, registrationsSource, wasmExportName, wasmPlan, wasmSources,
} from '../../scripts/gen-registrations.mjs';
import { nativeApi } from '../support/backends.js';

describe('generated addon registrations', () => {
  it(`${OUTPUT} is fresh (else run node scripts/gen-registrations.mjs)`, () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(registrationsSource(DECLARATIONS, readNative()));
  });

  it(`${WASM_OUTPUT} and ${WASM_TS_OUTPUT} are fresh (else run node scripts/gen-registrations.mjs)`, () => {
    const { c, ts } = wasmSources(DECLARATIONS, readNative());
    expect(readFileSync(WASM_OUTPUT, 'utf8')).toBe(c);
    expect(readFileSync(WASM_TS_OUTPUT, 'utf8')).toBe(ts);
  });

  it('the WebAssembly glue is generated for every plain declaration but the packed-position batches', () => {
    const notGenerated = wasmPlan(DECLARATIONS).filter(([, , why]) => why).map(([name]) => name);
    expect(notGenerated.sort()).toEqual(['checkAnalysisBatch', 'checkersBatch', 'discoveredCheckCandidatesBatch',
      'perftBatch', 'pinnedPiecesBatch']);
    const c = readFileSync(WASM_OUTPUT, 'utf8');
    for (const [name, , why] of wasmPlan(DECLARATIONS)) if (!why) expect(c, name).toContain(`BBP_EXPORT(${wasmExportName(name)})`);
  });

  it(`${FEATURES_OUTPUT} is fresh: the C++ feature list is lib/core/features.ts's`, () => {
    expect(readFileSync(FEATURES_OUTPUT, 'utf8')).toBe(featuresSource(FEATURES));
  });

  it(`${SYZYGY_VALUES_OUTPUT} is fresh: the Syzygy "no answer" values are lib/core/types.ts's`, () => {
    expect(readFileSync(SYZYGY_VALUES_OUTPUT, 'utf8')).toBe(syzygyValuesSource(types));
  });

  it('is compiled: native/sources.txt lists it', () => {
    expect(readFileSync('native/sources.txt', 'utf8').split(/\s+/)).toContain(OUTPUT);
  });

  it('registers each plain declaration once, by hand or generated', () => {
    const generated = [...readFileSync(OUTPUT, 'utf8').matchAll(/exports, "(\w+)\(/g)].map((m) => m[1]);
    const { handWritten } = readNative();
    for (const [name, d] of Object.entries(DECLARATIONS as Record<string, Declaration>)) {
      if (!isPlain(name, d)) continue;
      expect(Number(generated.includes(name)) + Number(handWritten.has(name)), name).toBe(1);
    }
    expect(new Set(generated).size).toBe(generated.length);
  });

  it.skipIf(!nativeApi)('the addon exports every generated function, with the argument names of its declaration', () => {
    const raw = createRequire(import.meta.url)(addonPath()) as Record<string, unknown>;
    const generated = [...readFileSync(OUTPUT, 'utf8').matchAll(/exports, "(\w+)\(([^)]*)\)"/g)];
    expect(generated.length).toBeGreaterThan(0);
    for (const [, name, args] of generated) {
      const d = (DECLARATIONS as Record<string, Declaration>)[name!]!;
      expect(args!.split(', '), name).toEqual([...d.args.map(([a]) => a), ...(d.out ? ['out'] : [])]);
      expect(typeof raw[name!], name).toBe('function');
    }
  });

  it('refuses a declaration it has no glue kind for, naming it', () => {
    const facts = { ...readNative(), handWritten: new Map<string, string>() };
    const odd = { oddFunction: { topic: 'king', args: [['fen', 'fen']], result: 'number' } };
    expect(() => registrationsSource(odd, facts)).toThrow(/oddFunction: argument fen is of kind fen/);
  });
});
