/**
 * What the WebAssembly backend (./backend.ts) lends the generated members (./generated/declared.ts)
 * for a batch form: its scratch memory, one bulk copy per array, and the JS twin's error for a call
 * the module refused.
 */
export interface Scratch {
  /**
   * A batch form: `inputs` (arrays as long as `out`) copied in, `out` copied back; `call` gets their
   * addresses (inputs in order, then out) and n, and returns n when done, else the index of the
   * element it refused (the twin then throws for it).
   */
  batch(name: string, args: unknown[], inputs: ArrayBufferView[], out: ArrayBufferView & { length: number },
    call: (p: number[], n: number) => number): void;
}
