/**
 * Hostile arguments at the public boundary that the declaration-driven checks of the facade do not
 * cover (classes and helpers that validate their own arguments): each is a TypeError / RangeError
 * whose message names the function and the argument, or (error classes) a value built from
 * whatever it was given; never an engine or Node message (TypeError "Cannot read properties ...",
 * ERR_INVALID_ARG_TYPE, "detached ArrayBuffer"). The batch functions run on both backends; the
 * rest are backend-free exports (the same objects from every entry point, lib/api/public.ts).
 * scripts/fuzz.mjs found each case; its --case reproducers are in the commit message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KbnkFileError, KbnkTablebase, kbnkIndex, kbnkMoves } from '../../lib/tablebases/kbnk.js';
import { FenError, MoveError, PositionError } from '../../lib/core/position.js';
import { PgnError } from '../../lib/games/pgn.js';
import { SanError } from '../../lib/games/san.js';
import { Tablebase, TablebaseFileError, tablebaseMaterial, tablebaseSubMaterials, tablebaseTableSize } from '../../lib/tablebases/tablebase.js';
import { SyzygyError, SyzygyFileError, SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import { backends } from '../support/backends.js';
import { rejected, thrown } from '../support/thrown.js';

/** The checks every case makes: the class, and a message naming the function and the argument. */
function expectNamed(err: Error, cls: new (...a: never[]) => Error, fn: string, arg: string): void {
  expect(err).toBeInstanceOf(cls);
  expect(err.message.startsWith(`${fn}: `), err.message).toBe(true);
  expect(err.message).toContain(arg);
}

const detached = <T extends ArrayBufferView>(a: T): T => {
  structuredClone(a.buffer, { transfer: [a.buffer as ArrayBuffer] });
  return a;
};

describe('KbnkTablebase.load / fromBuffer / fromTable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bbp-hostile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a file that is not a path string is a TypeError (a number is not taken for a file descriptor)', () => {
    for (const bad of [undefined, null, 0, 1, 3, 2 ** 31, -1, 1n, true, {}, [], new Uint8Array(4), Symbol('x'), () => 'x']) {
      expectNamed(thrown(() => KbnkTablebase.load(bad as string)), TypeError, 'KbnkTablebase.load', 'file');
    }
  });

  it('an empty path or one with a NUL character is a RangeError', () => {
    for (const bad of ['', 'a\0b', join(dir, 'x\0.kbnk')]) {
      expectNamed(thrown(() => KbnkTablebase.load(bad)), RangeError, 'KbnkTablebase.load', 'file');
    }
  });

  it('a missing file is still the file system error (ENOENT), not a TypeError', () => {
    const err = thrown(() => KbnkTablebase.load(join(dir, 'missing.kbnk'))) as NodeJS.ErrnoException;
    expect(err.code).toBe('ENOENT');
  });

  it('a detached, lying or non-Uint8Array buffer is a TypeError / RangeError naming the argument', () => {
    expectNamed(thrown(() => KbnkTablebase.fromBuffer(detached(new Uint8Array(24)))), TypeError, 'KbnkTablebase.fromBuffer', 'data');
    expectNamed(thrown(() => KbnkTablebase.fromBuffer(new Proxy(new Uint8Array(24), {}))), TypeError, 'KbnkTablebase.fromBuffer', 'data');
    expectNamed(thrown(() => KbnkTablebase.fromBuffer(new Uint8ClampedArray(24) as unknown as Uint8Array)), TypeError, 'KbnkTablebase.fromBuffer', 'data');
    expectNamed(thrown(() => KbnkTablebase.fromTable(detached(new Uint8Array(8)))), TypeError, 'KbnkTablebase.fromTable', 'table');
    // A subclass claiming the table's size: the real 10 bytes are what counts.
    const Liar = class extends Uint8Array { override get length() { return 1; } };
    const short = thrown(() => KbnkTablebase.fromBuffer(new Liar(10)));
    expect(short).toBeInstanceOf(KbnkFileError);
    expect((short as KbnkFileError).problem).toBe('truncated');
  });
});

describe('kbnkIndex / kbnkMoves', () => {
  it('kbnkIndex: strongToMove must be a boolean, each square an integer 0..63', () => {
    expectNamed(thrown(() => kbnkIndex(1 as unknown as boolean, 0, 1, 2, 3)), TypeError, 'kbnkIndex', 'strongToMove');
    expectNamed(thrown(() => kbnkIndex(true, 64, 1, 2, 3)), RangeError, 'kbnkIndex', 'strongKing');
    expectNamed(thrown(() => kbnkIndex(true, 0, 1n as unknown as number, 2, 3)), TypeError, 'kbnkIndex', 'bishop');
    expectNamed(thrown(() => kbnkIndex(true, 0, 1, 2.5, 3)), RangeError, 'kbnkIndex', 'knight');
    expectNamed(thrown(() => kbnkIndex(false, 0, 1, 2, undefined as unknown as number)), TypeError, 'kbnkIndex', 'weakKing');
    // In range: layout v1 (lib/core/types.ts): ((side * 10 + triangle index) * 64 + b) * 64 + n) * 64 + w,
    // a1 = triangle index 0, no symmetry needed for a king on a1.
    expect(kbnkIndex(false, 0, 1, 2, 3)).toBe(((10 * 64 + 1) * 64 + 2) * 64 + 3);
  });

  it('kbnkMoves: a non-object or a bad field is a TypeError / RangeError naming it', () => {
    for (const bad of [undefined, null, 3, 'e4', 1n]) {
      expectNamed(thrown(() => kbnkMoves(bad as never)), TypeError, 'kbnkMoves', 'argument');
    }
    expectNamed(thrown(() => kbnkMoves({ strongKing: 0, bishop: 1, knight: 2, weakKing: 63 } as never)), TypeError, 'kbnkMoves', 'strongToMove');
    expectNamed(thrown(() => kbnkMoves({ strongKing: 0, bishop: -1, knight: 2, weakKing: 63, strongToMove: true })), RangeError, 'kbnkMoves', 'bishop');
    // White Ka1 Bb1 Nc1, black Kh8, black to move: g8 and g7; h7 is on the bishop's b1-h7 diagonal.
    const moves = kbnkMoves({ strongKing: 0, bishop: 1, knight: 2, weakKing: 63, strongToMove: false });
    expect(moves.map((m) => m.to).sort((a, b) => a - b)).toEqual([54, 62]);
  });
});

describe('error classes accept any arguments (coerced to strings)', () => {
  const odd = [undefined, null, 7, 1n, Symbol('s'), {}, Object.create(null), { toString() { throw new Error('no'); } }];

  it('FenError, PositionError, MoveError, KbnkFileError, SyzygyError, SyzygyFileError, SanError, PgnError', () => {
    for (const v of odd) {
      const made = [
        new FenError(v as never, v as never, v as never), new PositionError(v as never, v as never),
        new MoveError(v as never, v as never), new KbnkFileError(v as never, v as never),
        new SyzygyError(v as never, v as never), new SyzygyFileError(v as never, v as never, v as never),
        new SanError(v as never, v as never, v as never, v as never),
        new PgnError(v as never, v as never, v as never, v as never, v as never, v as never, v as never),
        new TablebaseFileError(v as never, v as never),
      ];
      for (const e of made) {
        expect(e).toBeInstanceOf(Error);
        expect(typeof e.message).toBe('string');
      }
    }
    const e = new FenError('sideToMove', 'x', "must be 'w' or 'b'");
    expect([e.name, e.field, e.text, e.message]).toEqual(['FenError', 'sideToMove', 'x', 'bad FEN sideToMove: must be \'w\' or \'b\' ("x")']);
    expect(new MoveError(12 as never, 'illegal').move).toBe('12');
    expect(new SyzygyFileError('/tables/KQvK.rtbw', 'magic', 'bad magic').message).toBe('KQvK.rtbw: bad magic');
  });
});

describe('Tablebase (generator) and its material helpers', () => {
  it('is not constructible by users; load / fromBuffer / fromKbnk check their arguments', () => {
    const Ctor = Tablebase as unknown as new (...a: unknown[]) => unknown;
    expect(thrown(() => new Ctor())).toBeInstanceOf(TypeError);
    expect(thrown(() => new Ctor(Symbol('Tablebase'), tablebaseMaterial('t', 'KQvK'), new Uint8Array(0), new Map())).message).toContain('Tablebase.generate');
    for (const bad of [undefined, null, 3, 1n, {}, new Uint8Array(4)]) {
      expectNamed(thrown(() => Tablebase.load(bad as string)), TypeError, 'Tablebase.load', 'file');
    }
    expectNamed(thrown(() => Tablebase.load('a\0b')), RangeError, 'Tablebase.load', 'file');
    expectNamed(thrown(() => Tablebase.fromBuffer(detached(new Uint8Array(48)))), TypeError, 'Tablebase.fromBuffer', 'data');
    expectNamed(thrown(() => Tablebase.fromBuffer(new Proxy(new Uint8Array(48), {}))), TypeError, 'Tablebase.fromBuffer', 'data');
    expectNamed(thrown(() => Tablebase.fromBuffer(new Uint8Array(48), 5 as never)), TypeError, 'Tablebase.fromBuffer', 'subs');
  });

  it('tablebaseTableSize / tablebaseSubMaterials: a material that is not from tablebaseMaterial is a TypeError; a look-alike is re-parsed from its name', () => {
    for (const bad of [undefined, null, 255n, 'KQvK', {}, { name: 7 }]) {
      expectNamed(thrown(() => tablebaseTableSize(bad as never)), TypeError, 'tablebaseTableSize', 'material');
      expectNamed(thrown(() => tablebaseSubMaterials(bad as never)), TypeError, 'tablebaseSubMaterials', 'material');
    }
    expectNamed(thrown(() => tablebaseTableSize({ name: 'KXvK' } as never)), RangeError, 'tablebaseTableSize', 'material');
    // KQvK without pawns: 2 sides to move x 10 king-triangle squares x 64^2 (layout 1, lib/tablebases/tablebase.ts).
    expect(tablebaseTableSize({ name: 'KQvK', n: 99, pawns: true } as never)).toBe(2 * 10 * 64 * 64);
    expect(tablebaseMaterial(Symbol('x') as never, 'KQvK').name).toBe('KQvK');
    expectNamed(thrown(() => tablebaseMaterial('tablebaseMaterial', Symbol('x') as never)), TypeError, 'tablebaseMaterial', 'material');
  });
});

describe('SyzygyTablebase', () => {
  it('is not constructible by users: a TypeError pointing to SyzygyTablebase.open', () => {
    const Ctor = SyzygyTablebase as unknown as new (...a: unknown[]) => unknown;
    for (const args of [[], [{}], [Symbol('open'), { maxPieces: 5 }, 'js', null]]) {
      const err = thrown(() => new Ctor(...args));
      expect(err).toBeInstanceOf(TypeError);
      expect(err.message).toContain('SyzygyTablebase.open');
    }
  });
});

describe.each(backends)('batches: %s', (_name, api) => {
  const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

  it('PositionBatch.fromFens: options must be an object and epd a boolean', () => {
    for (const bad of [null, 1n, Symbol('o'), 'epd', 3]) {
      expectNamed(thrown(() => api.PositionBatch.fromFens([fen], bad as never)), TypeError, 'PositionBatch.fromFens', 'options');
    }
    expectNamed(thrown(() => api.PositionBatch.fromFens([fen], { epd: 1 as never })), TypeError, 'PositionBatch.fromFens', 'options.epd');
    expect(api.PositionBatch.fromFens([fen], { epd: false }).length).toBe(1);
  });

  it('analyzeBatchAsync: options must be an object', async () => {
    const batch = api.PositionBatch.fromFens([fen]);
    for (const bad of [null, 1n, 'x']) {
      expectNamed(await rejected(() => api.analyzeBatchAsync(batch, ['checkers'], bad as never)), TypeError, 'analyzeBatchAsync', 'options');
    }
  });

  it('analyzeBatchAsync: an abort right after the call rejects, an empty batch included', async () => {
    for (const fens of [[], [fen]]) {
      const c = new AbortController();
      const p = api.analyzeBatchAsync(api.PositionBatch.fromFens(fens), ['checkers'], { signal: c.signal });
      c.abort(new Error('stop'));
      const err = await rejected(() => p);
      expect(err.message).toBe('stop');
    }
  });

  it('a batch whose words were transferred away is a TypeError naming the function (sync, async, planes)', async () => {
    const words = api.packPositions([api.parseFen(fen), api.parseFen(fen)]);
    const batch = api.PositionBatch.fromPacked(words);
    detached(words);
    expectNamed(thrown(() => api.analyzeBatch(batch, ['checkers'])), TypeError, 'analyzeBatch', 'words');
    expectNamed(await rejected(() => api.analyzeBatchAsync(batch, ['checkers'])), TypeError, 'analyzeBatchAsync', 'words');
    expectNamed(thrown(() => api.toPlanes(batch)), TypeError, 'toPlanes', 'words');
  });

  it('an empty batch whose valid flags were transferred away is a TypeError too', async () => {
    const batch = api.PositionBatch.fromPacked(new BigUint64Array(0), new Uint8Array(0));
    detached(batch.valid!);
    expectNamed(await rejected(() => api.analyzeBatchAsync(batch, ['checkers'])), TypeError, 'analyzeBatchAsync', 'valid');
  });

  it('toPlanes: out must really be a Uint8Array of the right length (no Proxy, no lying length)', () => {
    const batch = api.PositionBatch.fromFens([fen]);
    const proxy = new Proxy(new Uint8Array(776), {});
    expectNamed(thrown(() => api.toPlanes(batch, proxy)), TypeError, 'toPlanes', 'out');
    const Liar = class extends Uint8Array { override get length() { return 776; } };
    expectNamed(thrown(() => api.toPlanes(batch, new Liar(10))), RangeError, 'toPlanes', 'out');
    const out = new Uint8Array(776);
    expect(api.toPlanes(batch, out)).toBe(out);
  });
});
