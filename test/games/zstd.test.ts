/**
 * .zst input (lib/cli/zstd.ts): libzstd in the addon (native/addon/zstd.cc) and fzstd (pure JS), the
 * same bytes out and the same error class (ZstdError) for damaged input, never a crash.
 *
 * Truth: the zstd command line tool (Debian's zstd, which .ci/run installs) makes the frames,
 * decompresses what the addon compresses, and is the reference for the bytes; damaged streams are cut
 * or altered here at places the format (RFC 8878, "Zstandard Compression and the application/zstd
 * Media Type") says must fail: inside a frame, a frame magic number, a reserved block type.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { zstdChunks, ZstdError } from '../../lib/cli/zstd.js';
import { loadNative } from '../../lib/backends/native.js';
import type { ZstdBackend } from '../../lib/backends/contract.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { Xxh64 } from '../../lib/cli/xxh64.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'zstd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const haveZstdTool = spawnSync('zstd', ['--version']).status === 0;
if (!haveZstdTool) console.warn('zstd.test.ts: the zstd tool is missing (apt-get install zstd): its cases are skipped');
const native: ZstdBackend | undefined = nativeApi ? loadNative().zstd : undefined;
if (nativeApi && !native) console.warn('zstd.test.ts: the addon has no libzstd (built without zstd.h, or libzstd.so.1 missing): native cases skipped');

const text = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 120, seed: 5, maxPlies: 80 });
const plain = Buffer.from(text);

function zstdTool(input: Buffer, args: string[]): Buffer {
  return execFileSync('zstd', ['-q', '-c', ...args], { input, maxBuffer: 1 << 28 });
}

/** Decompresses `bytes` fed in pieces of `piece` bytes. */
async function decode(bytes: Uint8Array, decoder: ZstdBackend | undefined, piece = 4096): Promise<Buffer> {
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
  }
  const out: Uint8Array[] = [];
  for await (const c of zstdChunks(pieces(), decoder)) out.push(c);
  return Buffer.concat(out);
}

async function failure(bytes: Uint8Array, decoder: ZstdBackend | undefined, piece = 4096): Promise<unknown> {
  try {
    await decode(bytes, decoder, piece);
  } catch (e) {
    return e;
  }
  return undefined;
}

const decoders: [string, ZstdBackend | undefined][] = [['fzstd', undefined], ...(native ? [['libzstd', native] as [string, ZstdBackend]] : [])];

describe.skipIf(!haveZstdTool).each(decoders)('zstd input by %s', (_name, decoder) => {
  it('the zstd tool\'s frames decompress to the original bytes: levels, one or many frames, a skippable frame, any piece size', async () => {
    const one = zstdTool(plain, ['-19']);
    for (const piece of [1, 7, 4096, 1 << 20]) expect((await decode(one, decoder, piece)).equals(plain)).toBe(true);
    // Frames one after another (as pzstd and `cat a.zst b.zst` make them) and a skippable frame
    // (magic 0x184D2A50, then a 4-byte little-endian length, RFC 8878 section 3.1.2) between them.
    const half = plain.length >> 1;
    const skippable = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    const many = Buffer.concat([zstdTool(plain.subarray(0, half), ['-1']), skippable, zstdTool(plain.subarray(half), ['--no-check', '-3'])]);
    expect((await decode(many, decoder)).equals(plain)).toBe(true);
    expect((await decode(zstdTool(Buffer.alloc(0), []), decoder)).length).toBe(0);
  });

  it('checks each frame\'s content checksum: a changed byte anywhere in the data is a ZstdError', async () => {
    // The zstd tool writes the checksum by default; a flip that still decodes is caught only by it.
    const z = zstdTool(plain, ['-3']);
    const random = rng(37);
    let caught = 0;
    for (let k = 0; k < 40; k++) {
      const bad = Buffer.from(z);
      const at = 20 + Math.floor(random() * (z.length - 24));
      bad[at] ^= 1 << Math.floor(random() * 8);
      const e = await failure(bad, decoder);
      expect(e, `byte ${at}`).toBeInstanceOf(ZstdError);
      if (e) caught++;
    }
    expect(caught).toBe(40);
    // The checksum of the last of several frames, in pieces of every size.
    const two = Buffer.concat([zstdTool(plain.subarray(0, 1000), ['-1']), zstdTool(plain.subarray(1000), ['-1'])]);
    const bad = Buffer.from(two);
    bad[bad.length - 2] ^= 0x10;
    for (const piece of [1, 3, 4096]) expect(await failure(bad, decoder, piece)).toBeInstanceOf(ZstdError);
  });

  it('a stream cut inside a frame is a ZstdError naming the truncation, wherever it is cut', async () => {
    const z = zstdTool(plain, ['-3']);
    for (const cut of [1, 4, 5, 9, 100, z.length >> 1, z.length - 5, z.length - 1]) {
      const e = await failure(z.subarray(0, cut), decoder);
      expect(e, `cut at ${cut}`).toBeInstanceOf(ZstdError);
      expect((e as Error).message).toMatch(/^zstd: /);
    }
  });

  it('a corrupt frame is a ZstdError: a bad magic number after the first frame, a reserved block type', async () => {
    const z = zstdTool(plain.subarray(0, 5000), ['-3', '--no-check']);
    const badSecond = Buffer.concat([z, Buffer.from([0x28, 0xb5, 0x2f, 0xfe, 0, 0, 0, 0])]);
    expect(await failure(badSecond, decoder)).toBeInstanceOf(ZstdError);
    // The first block header follows the 4-byte magic and the frame header (descriptor byte, then
    // its fields); block type 3 is reserved (RFC 8878 section 3.1.1.2.2).
    const descriptor = z[4]!;
    const fcsSize = descriptor >> 6 === 0 ? (descriptor & 0x20 ? 1 : 0) : 1 << (descriptor >> 6);
    const headerEnd = 5 + (descriptor & 0x20 ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]! + fcsSize;
    const reserved = Buffer.from(z);
    reserved[headerEnd] = (reserved[headerEnd]! & ~0x06) | 0x06;
    expect(await failure(reserved, decoder)).toBeInstanceOf(ZstdError);
  });
});

describe.skipIf(!haveZstdTool).each(decoders)('zstd input by %s: damage after whole frames', (_name, decoder) => {
  /** The bytes decoded before the stream failed, and the failure. */
  async function until(bytes: Uint8Array, piece: number): Promise<{ out: Buffer; error: unknown }> {
    async function* pieces() {
      for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
    }
    const out: Uint8Array[] = [];
    try {
      for await (const c of zstdChunks(pieces(), decoder)) out.push(c);
    } catch (e) {
      return { out: Buffer.concat(out), error: e };
    }
    return { out: Buffer.concat(out), error: undefined };
  }

  it('what the whole frames hold is given before the ZstdError, in pieces of any size', async () => {
    const first = plain.subarray(0, 40_000), second = plain.subarray(40_000, 90_000);
    const frames = Buffer.concat([zstdTool(first, ['-3']), zstdTool(second, ['-5', '--no-check'])]);
    for (const garbage of [Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]), Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff])]) {
      for (const piece of [7, 4096, 1 << 20]) {
        const { out, error } = await until(Buffer.concat([frames, garbage]), piece);
        expect(error, `piece ${piece}`).toBeInstanceOf(ZstdError);
        expect(out.equals(Buffer.concat([first, second])), `piece ${piece}: ${out.length} bytes`).toBe(true);
      }
    }
  });

  it('a frame whose content is not the size its header gives is a ZstdError', async () => {
    // The zstd tool writes the content size of a file (not of stdin); random bytes are stored as a raw
    // block. That block shortened by a byte, with its header's size lowered to match, leaves the
    // frame one byte short of the size its header gives.
    const next = rng(77);
    const file = join(dir, 'random.bin');
    writeFileSync(file, Buffer.from(Array.from({ length: 3000 }, () => Math.floor(next() * 256))));
    const z = execFileSync('zstd', ['-q', '-c', '--no-check', '-1', file]);
    const descriptor = z[4]!;
    expect(descriptor >> 6 !== 0 || (descriptor & 0x20) !== 0).toBe(true); // the content size is written
    const fcsSize = descriptor >> 6 === 0 ? 1 : 1 << (descriptor >> 6);
    const headerEnd = 5 + (descriptor & 0x20 ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]! + fcsSize;
    const h = z[headerEnd]! | (z[headerEnd + 1]! << 8) | (z[headerEnd + 2]! << 16);
    expect((h >> 1) & 3).toBe(0); // a raw block
    const size = h >>> 3;
    const shorter = (((size - 1) << 3) | (h & 7));
    const bad = Buffer.concat([z.subarray(0, headerEnd), Buffer.from([shorter & 0xff, (shorter >> 8) & 0xff, shorter >> 16]),
      z.subarray(headerEnd + 3, headerEnd + 3 + size - 1), z.subarray(headerEnd + 3 + size)]);
    expect(await failure(bad, decoder)).toBeInstanceOf(ZstdError);
  });
});

describe.skipIf(!haveZstdTool || !native)('the addon\'s libzstd', () => {
  it('checks the content checksum: a changed byte inside the data is a ZstdError', async () => {
    const z = zstdTool(plain, ['-3']); // with its checksum (the tool's default)
    const bad = Buffer.from(z);
    bad[z.length >> 1] ^= 0x40;
    expect(await failure(bad, native)).toBeInstanceOf(ZstdError);
  });

  it('compress makes frames the zstd tool reads back', () => {
    for (const level of [1, 3, 19]) {
      const frame = native!.compress(plain, level);
      expect(frame.length).toBeLessThan(plain.length / 2);
      expect(execFileSync('zstd', ['-q', '-d', '-c'], { input: frame, maxBuffer: 1 << 28 }).equals(plain)).toBe(true);
    }
    expect(execFileSync('zstd', ['-q', '-d', '-c'], { input: native!.compress(new Uint8Array(0), 3) }).length).toBe(0);
  });

  it('hostile arguments are TypeErrors, not crashes', () => {
    const r = native!.readerNew();
    expect(() => native!.push({} as never, new Uint8Array(4))).toThrow(TypeError);
    expect(() => native!.push(r, 'text' as never)).toThrow(TypeError);
    expect(() => native!.push(r, new Uint16Array(4) as never)).toThrow(TypeError);
    expect(() => native!.end(null as never)).toThrow(TypeError);
    expect(() => native!.compress(new Uint8Array(1), -1)).toThrow(RangeError);
    expect(() => native!.compress(new Uint8Array(1), 1.5)).toThrow(RangeError);
    // After a failure the reader stays failed: an error, not a half-reset context.
    expect(() => native!.push(r, Buffer.from('not zstd at all'))).toThrow(/zstd: /);
    expect(() => native!.push(r, new Uint8Array(0))).toThrow(/zstd: /);
    expect(native!.end(r)).toBe(false);
  });
});

describe.skipIf(!haveZstdTool)('analyze of a damaged .pgn.zst', () => {
  const backends = ['js', ...(nativeApi ? ['native'] : [])];
  it.each(backends)('--backend %s: a truncated file stops with exit code 1 and a message, the good file equals the plain one', (backend) => {
    const zst = join(dir, 'games.pgn.zst');
    const z = zstdTool(plain, ['-3']);
    writeFileSync(zst, z);
    const run = (file: string) => spawnSync(process.execPath, [cli, 'analyze', file, '--features', 'inCheck', '--backend', backend, '--no-progress'],
      { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    writeFileSync(join(dir, 'games.pgn'), plain);
    const good = run(zst);
    expect(good.status).toBe(0);
    expect(good.stdout).toBe(run(join(dir, 'games.pgn')).stdout);
    const cut = join(dir, 'cut.pgn.zst');
    writeFileSync(cut, z.subarray(0, z.length - 100));
    const r = run(cut);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/zstd: truncated input/);
    expect(readFileSync(cut).length).toBe(z.length - 100);
  });
});

describe('XXH64, the checksum of a zstd frame', () => {
  // Published values of XXH64 with seed 0 (the xxHash project's and python-xxhash's examples).
  it.each([
    ['', 'ef46db3751d8e999'],
    ['a', 'd24ec4f1a98c6e5b'],
    ['abc', '44bc2cf5ad770999'],
    ['Nobody inspects the spammish repetition', 'fbcea83c8a378bf1'],
  ])('XXH64(%j) = %s, in one piece and byte by byte', (text, want) => {
    const hex = ([h, l]: [number, number]) => h.toString(16).padStart(8, '0') + l.toString(16).padStart(8, '0');
    const whole = new Xxh64();
    whole.update(Buffer.from(text));
    expect(hex(whole.digest())).toBe(want);
    const bytes = new Xxh64();
    for (const b of Buffer.from(text)) bytes.update(Uint8Array.of(b));
    expect(hex(bytes.digest())).toBe(want);
  });
});
