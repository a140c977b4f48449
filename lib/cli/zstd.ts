/**
 * Zstandard (RFC 8878) input for the commands that read .zst files: libzstd in the addon
 * (Backend.zstd, native/addon/zstd.cc) when it is there, else fzstd (pure JavaScript). Node-only:
 * the browser build has no files to read.
 *
 * Both paths stop a damaged stream with a ZstdError: a truncated one (the input ends inside a frame)
 * and data the decoder cannot decode. Both check each frame's content checksum (written by the zstd
 * tool by default): libzstd itself, fzstd's output here (lib/cli/xxh64.ts).
 */
import { Decompress } from 'fzstd';
import type { ZstdBackend } from '../backends/contract.js';
import { Xxh64 } from './xxh64.js';

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
  yield* fzstdChunks(source);
}

/**
 * fzstd, one decoder per frame: the stream is cut at frame ends by walking the frame and block
 * headers (RFC 8878 sections 3.1.1 and 3.1.1.2), so that each frame's content can be held to the
 * checksum it carries (fzstd does not check it). Skippable frames (section 3.1.2) are passed over.
 */
async function* fzstdChunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let out: Uint8Array[] = [];
  let decoder: Decompress | undefined;
  let hash: Xxh64 | undefined;
  // The frame's content size from its header (-1: not written), and the bytes decoded of it so far.
  let contentSize = -1;
  let decoded = 0;
  const push = (bytes: Uint8Array, final: boolean): void => {
    if (!decoder) {
      hash = new Xxh64();
      decoded = 0;
      decoder = new Decompress((chunk) => { hash!.update(chunk); decoded += chunk.length; out.push(chunk); });
    }
    try {
      decoder.push(bytes, final);
    } catch (e) {
      const message = (e as Error).message;
      throw new ZstdError(/unexpected EOF/i.test(message) ? TRUNCATED : `zstd: corrupt data (${message})`);
    }
  };
  // The walk: `need` bytes of a header into `head`, or `skip` bytes of a body passed through.
  const head = new Uint8Array(18);
  let have = 0;
  let need = 4;
  let skip = 0;
  let state: 'magic' | 'descriptor' | 'header' | 'block' | 'body' | 'checksum' | 'skippableSize' | 'skippable' = 'magic';
  let checked = false;
  let sizeAt = 0;
  let sizeBytes = 0;
  let last = false;
  let inFrame = false;
  const endFrame = (): void => {
    push(new Uint8Array(0), true);
    // libzstd holds the content to the size the header gives (RFC 8878 3.1.1.1.4); fzstd does not.
    if (contentSize >= 0 && decoded !== contentSize) {
      throw new ZstdError(`zstd: corrupt data (the frame holds ${decoded} bytes, its header says ${contentSize})`);
    }
    if (checked) {
      const want = (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0;
      if (hash!.low32() !== want) throw new ZstdError('zstd: corrupt data (the content checksum does not match)');
    }
    decoder = undefined;
    inFrame = false;
  };
  for await (const piece of source) {
    let i = 0;
    try {
      while (i < piece.length) {
        if (state === 'body' || state === 'skippable') {
          const take = Math.min(skip, piece.length - i);
          if (state === 'body') push(piece.subarray(i, i + take), false);
          i += take;
          skip -= take;
          if (skip > 0) break;
          if (state === 'skippable') { state = 'magic'; need = 4; have = 0; continue; }
          if (last) {
            if (checked) { state = 'checksum'; need = 4; have = 0; } else { endFrame(); state = 'magic'; need = 4; have = 0; }
          } else { state = 'block'; need = 3; have = 0; }
          continue;
        }
        const take = Math.min(need - have, piece.length - i);
        head.set(piece.subarray(i, i + take), have);
        if (state !== 'skippableSize' && (state !== 'magic' || inFrame)) push(piece.subarray(i, i + take), false);
        have += take;
        i += take;
        if (have < need) break;
        if (state === 'magic') {
          const magic = (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0;
          if ((magic & 0xfffffff0) === 0x184d2a50) { state = 'skippableSize'; need = 4; have = 0; continue; }
          inFrame = true;
          push(head.slice(0, 4), false); // the decoder checks the magic number itself (a copy: it may keep what it is given)
          state = 'descriptor'; need = 1; have = 0;
        } else if (state === 'descriptor') {
          const fhd = head[0]!;
          const single = (fhd & 0x20) !== 0;
          const fcs = [single ? 1 : 0, 2, 4, 8][fhd >> 6]!;
          checked = (fhd & 0x04) !== 0;
          sizeAt = (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3]!;
          sizeBytes = fcs;
          contentSize = -1;
          need = sizeAt + fcs;
          have = 0;
          state = need > 0 ? 'header' : 'block';
          if (need === 0) need = 3;
        } else if (state === 'header') {
          // Frame_Content_Size: little-endian; the 2-byte form is offset by 256 (RFC 8878 3.1.1.1.4).
          if (sizeBytes > 0) {
            let v = 0;
            for (let b = sizeBytes - 1; b >= 0; b--) v = v * 256 + head[sizeAt + b]!;
            contentSize = sizeBytes === 2 ? v + 256 : v;
          }
          state = 'block'; need = 3; have = 0;
        } else if (state === 'block') {
          const h = head[0]! | (head[1]! << 8) | (head[2]! << 16);
          last = (h & 1) !== 0;
          const size = h >>> 3;
          skip = ((h >> 1) & 3) === 1 ? 1 : size;
          state = 'body';
          if (skip === 0) {
            if (last) {
              if (checked) { state = 'checksum'; need = 4; have = 0; } else { endFrame(); state = 'magic'; need = 4; have = 0; }
            } else { state = 'block'; need = 3; have = 0; }
          }
        } else if (state === 'checksum') {
          endFrame();
          state = 'magic'; need = 4; have = 0;
        } else if (state === 'skippableSize') {
          skip = (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0;
          state = 'skippable';
          if (skip === 0) { state = 'magic'; need = 4; have = 0; }
        }
      }
    } catch (e) {
      // What was decoded before the damage goes out first.
      yield* out;
      throw e;
    }
    if (out.length) { yield* out; out = []; }
  }
  if (state !== 'magic' || have !== 0) {
    // Ended inside a frame (or inside a magic number): let fzstd word it, as it would have.
    push(new Uint8Array(0), true);
    throw new ZstdError(TRUNCATED);
  }
  yield* out;
}
