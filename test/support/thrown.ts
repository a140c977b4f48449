/**
 * The error a call throws or a promise rejects with, for tests that check its class and message;
 * the test fails when the call returns or the promise resolves.
 */

/** The error `f` throws (an Error naming the miss when it returns); `E` types the fields a test reads. */
export function thrown<E extends Error = Error>(f: () => unknown): E {
  try {
    f();
  } catch (e) {
    return e as E;
  }
  throw new Error('expected a throw, but the call returned');
}

/** The error the promise `p()` rejects with (an Error naming the miss when it resolves). */
export async function rejected(p: () => Promise<unknown>): Promise<Error> {
  try {
    await p();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
