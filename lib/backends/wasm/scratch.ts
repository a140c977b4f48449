/**
 * How the WebAssembly backend (./backend.ts) lends its scratch memory to the glue of its topics
 * (./patterns.ts, the generated ./generated/declared.ts): regions by byte size, bulk copies in and
 * out, the JS twin's error for a call the module refused, and a batch form's one shape.
 */
export interface Scratch {
  regions(...sizes: number[]): number[];
  copyIn(ptr: number, a: ArrayBufferView): void;
  copyOut(a: ArrayBufferView, ptr: number): void;
  refused(name: string, fn: (...a: never[]) => unknown, args: unknown[]): never;
  /**
   * A batch form: `inputs` (arrays as long as `out`) copied in, `out` copied back; `call` gets their
   * addresses (inputs in order, then out) and n, and returns n when done, else the index of the
   * element it refused (the twin then throws for it).
   */
  batch(name: string, args: unknown[], inputs: ArrayBufferView[], out: ArrayBufferView & { length: number },
    call: (p: number[], n: number) => number): void;
}
