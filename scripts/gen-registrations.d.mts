/** Types of scripts/gen-registrations.mjs (the addon's registrations made from the declarations). */
export const OUTPUT: string;
export interface NativeFacts {
  kernelMembers: Set<string>;
  handWritten: Map<string, string>;
  headers: Set<string>;
}
export function isPlain(name: string, declaration: object): boolean;
export function readNative(dir?: string): NativeFacts;
export function registrationsSource(declarations: Record<string, object>, facts: NativeFacts): string;
