/**
 * Typed-array comparison by bytes: one Buffer comparison instead of element-wise deep equality
 * (which costs seconds on arrays of millions of elements). On a mismatch the message names the first
 * differing element.
 */
import { expect } from 'vitest';

type View = ArrayBufferView & { length?: number };

function bytesOf(v: ArrayBufferView): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Asserts that two typed arrays have the same type, the same length and the same bytes. */
export function expectSameBytes(actual: unknown, expected: unknown, label = 'typed array'): void {
  if (!ArrayBuffer.isView(actual) || !ArrayBuffer.isView(expected)) {
    throw new TypeError(`${label}: expected two typed arrays, got ${Object.prototype.toString.call(actual)} and ${Object.prototype.toString.call(expected)}`);
  }
  expect(actual.constructor.name, `${label}: type`).toBe(expected.constructor.name);
  expect(actual.byteLength, `${label}: byte length`).toBe(expected.byteLength);
  if (bytesOf(actual).equals(bytesOf(expected))) return;
  const a = actual as View as unknown as ArrayLike<unknown>;
  const b = expected as View as unknown as ArrayLike<unknown>;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  expect(a[i], `${label}: first difference at element ${i} of ${a.length}`).toBe(b[i]);
}
