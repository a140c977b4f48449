/**
 * Zstandard (RFC 8878) input for the commands that read .zst files: libzstd in the addon
 * (Backend.zstd, native/addon/zstd.cc) when it is there, else fzstd (pure JavaScript). Node-only:
 * the browser build has no files to read.
 *
 * Both paths stop a damaged stream with a ZstdError: a truncated one (the input ends inside a frame)
 * and data the decoder cannot decode. libzstd also checks each frame's content checksum (written by
 * the zstd tool by default); fzstd does not, so a flipped bit inside compressed literals can pass it
 * unnoticed.
 */
import { Decompress } from 'fzstd';
import type { ZstdBackend } from '../backends/contract.js';

/** A .zst stream that cannot be read to its end: truncated or corrupt. */
export class ZstdError extends Error {
  override readonly name = 'ZstdError';
}

const TRUNCATED = 'zstd: truncated input (it ends inside a frame)';

/** The decompressed bytes of `source` (compressed pieces), piece by piece, by libzstd when `native` is given, else by fzstd. */
export async function* zstdChunks(source: AsyncIterable<Uint8Array>, native?: ZstdBackend): AsyncGenerator<Uint8Array> {
  if (native) {
    const reader = native.readerNew();
    for await (const piece of source) {
      let input = piece;
      for (;;) {
        let result: [number, boolean, ...Uint8Array[]];
        try {
          result = native.push(reader, input);
        } catch (e) {
          throw new ZstdError((e as Error).message);
        }
        for (let k = 2; k < result.length; k++) yield result[k] as Uint8Array;
        input = input.subarray(result[0]);
        if (input.length === 0 && !result[1]) break;
      }
    }
    if (!native.end(reader)) throw new ZstdError(TRUNCATED);
    return;
  }
  let out: Uint8Array[] = [];
  const d = new Decompress((chunk) => { out.push(chunk); });
  const push = (bytes: Uint8Array, final: boolean): void => {
    try {
      d.push(bytes, final);
    } catch (e) {
      const message = (e as Error).message;
      throw new ZstdError(/unexpected EOF/i.test(message) ? TRUNCATED : `zstd: corrupt data (${message})`);
    }
  };
  for await (const piece of source) {
    push(piece, false);
    if (out.length) { yield* out; out = []; }
  }
  push(new Uint8Array(0), true);
  yield* out;
}
