/** Types of scripts/gen-registrations.mjs (the addon's registrations and the wasm glue made from the declarations). */
export const OUTPUT: string;
export interface NativeFacts {
  kernelMembers: Set<string>;
  handWritten: Map<string, string>;
  headers: Set<string>;
}
export function isPlain(name: string, declaration: object): boolean;
export function readNative(dir?: string): NativeFacts;
export function registrationsSource(declarations: Record<string, object>, facts: NativeFacts): string;
export const WASM_OUTPUT: string;
export const WASM_TS_OUTPUT: string;
export function wasmPlan(declarations: Record<string, object>): [string, object, string | undefined][];
export function wasmExportName(name: string): string;
export function wasmSources(declarations: Record<string, object>, facts: NativeFacts): { c: string; ts: string };
export const FEATURES_OUTPUT: string;
export function featureIdName(name: string): string;
export function featuresSource(features: readonly object[]): string;
export const SYZYGY_VALUES_OUTPUT: string;
export function syzygyValuesSource(values: { SYZYGY_WDL_NONE: number; SYZYGY_DTZ_NONE: number }): string;
