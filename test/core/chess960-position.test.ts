/**
 * Chess960 positions on every backend: Shredder-FEN and X-FEN read and written, castling rights as
 * rook files (chessops' FEN reader and writer as the oracle), the 960 start positions in
 * Scharnagl's numbering, bad castling fields, the packed layout (standard words unchanged) and the
 * packed-word validation (native = JS, and the same rules as parseFen).
 */
import { describe, expect, it } from 'vitest';
import { parseFen as opsParseFen, makeFen as opsMakeFen } from 'chessops/fen';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { thrown } from '../support/thrown.js';
import { chess960StartNumber, chess960StartPosition, isPosition } from '../../lib/core/position.js';
import { CPW_CHESS960_POSITIONS as CPW_960 } from '../support/chess960.js';

/** chessops' rook squares of the castling rights, as files per right K, Q, k, q (-1 none). */
function opsFiles(fen: string): number[] {
  const setup = opsParseFen(fen).unwrap();
  const out = [-1, -1, -1, -1];
  for (const sq of setup.castlingRights) {
    const c = sq >= 56 ? 1 : 0;
    const king = [...setup.board.king.intersect(setup.board[c ? 'black' : 'white'])][0]!;
    out[2 * c + ((sq & 7) > (king & 7) ? 0 : 1)] = sq & 7;
  }
  return out;
}

/** A random Chess960 FEN: start position n with a random subset of rights, X-FEN or Shredder spelled. */
function randomStartFen(next: () => number): { fen: string; shredder: string; n: number } {
  const n = Math.floor(next() * 960);
  const pos = jsApi.parseFen(`${chess960Rank(n).toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${chess960Rank(n)} w KQkq - 0 1`, { chess960: true });
  const keep = Math.floor(next() * 16);
  const files = pos.castlingFiles.map((f, r) => ((keep >> r) & 1 ? f : -1));
  const shredder = files.map((f, r) => (f < 0 ? '' : r < 2 ? 'ABCDEFGH'[f] : 'abcdefgh'[f])).join('') || '-';
  return { fen: `${jsApi.toFen(pos).split(' ')[0]} w ${shredder} - 0 1`, shredder, n };
}

/**
 * Scharnagl's numbering written out in the test (Wikipedia, "Fischer random chess numbering
 * scheme"): light bishop by n % 4 on b d f h, dark bishop by (n / 4) % 4 on a c e g, queen on the
 * ((n / 16) % 6)-th empty square, knights by the KRN code of n / 96, then R K R.
 */
function chess960Rank(n: number): string {
  const rank = Array<string>(8).fill('.');
  rank[2 * (n % 4) + 1] = 'B';
  rank[2 * (Math.floor(n / 4) % 4)] = 'B';
  const free = (): number[] => [...rank.keys()].filter((f) => rank[f] === '.');
  rank[free()[Math.floor(n / 16) % 6]!] = 'Q';
  const krn = ['NNRKR', 'NRNKR', 'NRKNR', 'NRKRN', 'RNNKR', 'RNKNR', 'RNKRN', 'RKNNR', 'RKNRN', 'RKRNN'][Math.floor(n / 96)]!;
  free().forEach((f, i) => { rank[f] = krn[i]!; });
  return rank.join('');
}

describe.each(backends)('Chess960 positions (%s)', (_name, api) => {
  it('reads the wiki page\'s Shredder-FENs as Chess960 positions and writes them back', () => {
    for (const fen of CPW_960) {
      const pos = api.parseFen(fen);
      expect(pos.chess960).toBe(true);
      expect([...pos.castlingFiles]).toEqual(opsFiles(fen));
      expect(api.toFen(pos, { shredder: true })).toBe(fen);
      // X-FEN: chessops' writer is the oracle; reading it back with { chess960 } gives the same position.
      const xfen = api.toFen(pos);
      expect(xfen).toBe(opsMakeFen(opsParseFen(fen).unwrap()));
      const again = api.parseFen(xfen, { chess960: true });
      expect(Array.from(again.packed)).toEqual(Array.from(pos.packed));
    }
  });

  it('X-FEN: KQkq name the outermost rook, a file letter an inner one', () => {
    // Two white rooks on the king's h side (f1, h1): K is h1, F is the inner f1 rook.
    const inner = api.parseFen('rk2r3/8/8/8/8/8/8/1K3R1R w Fa - 0 1', { chess960: true });
    expect([...inner.castlingFiles]).toEqual([5, -1, -1, 0]);
    expect(api.toFen(inner)).toBe('rk2r3/8/8/8/8/8/8/1K3R1R w Fq - 0 1');
    const outer = api.parseFen('rk2r3/8/8/8/8/8/8/1K3R1R w Kq - 0 1', { chess960: true });
    expect([...outer.castlingFiles]).toEqual([7, -1, -1, 0]);
    expect(api.toFen(outer, { shredder: true })).toBe('rk2r3/8/8/8/8/8/8/1K3R1R w Ha - 0 1');
  });

  it('standard FEN behaves as before; the standard setup as Chess960 keeps KQkq in X-FEN', () => {
    const std = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(std.chess960).toBe(false);
    expect([...std.castlingFiles]).toEqual([7, 0, 7, 0]);
    expect(api.toFen(std, { shredder: true })).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1');
    const c960 = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', { chess960: true });
    expect(c960.chess960).toBe(true);
    expect(api.toFen(c960)).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    // Packed: the standard position's words as the layout always had them; the Chess960 one has bit 5.
    expect(std.packed[8]).toBe(1n * 0n | (15n << 1n) | (64n << 8n));
    expect(c960.packed[8]).toBe(std.packed[8]! | 0x20n);
    // A Shredder-FEN of the standard setup is a Chess960 position by itself.
    expect(api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1').chess960).toBe(true);
  });

  it('every start position, random rights, both spellings: files as chessops reads them, round trips', () => {
    const next = rng(960);
    for (let i = 0; i < 300; i++) {
      const { fen } = randomStartFen(next);
      const pos = api.parseFen(fen, { chess960: true });
      expect(pos.chess960).toBe(true);
      expect([...pos.castlingFiles]).toEqual(opsFiles(fen));
      expect(api.toFen(pos, { shredder: true })).toBe(fen);
      expect(api.toFen(pos)).toBe(opsMakeFen(opsParseFen(fen).unwrap()));
      expect(Array.from(api.parseFen(api.toFen(pos), { chess960: true }).packed)).toEqual(Array.from(pos.packed));
      const made = api.createPosition({ ...pos });
      expect(made.chess960).toBe(true);
      expect(Array.from(made.packed)).toEqual(Array.from(pos.packed));
      expect(Array.from(api.createPosition({ colors: [...pos.colors], pieces: [...pos.pieces], castling: pos.castling,
        castlingFiles: [...pos.castlingFiles], chess960: true }).packed)).toEqual(Array.from(pos.packed));
    }
  });

  it('bad castling fields are FenErrors naming the castling field', () => {
    const bad = [
      ['rk2r3/8/8/8/8/8/8/1K3R1R w G - 0 1', { chess960: true }], // no rook on g1
      ['rk2r3/8/8/8/8/8/8/1K3R1R w B - 0 1', { chess960: true }], // the king's file
      ['rk2r3/8/8/8/8/8/8/1K3R1R w Q - 0 1', { chess960: true }], // no rook on the a side
      ['rk2r3/8/8/8/8/8/8/1K3R1R w KF - 0 1', { chess960: true }], // two h-side rights
      ['rk2r3/8/8/8/8/8/8/1K3R1R w KHF - 0 1', { chess960: true }],
      ['rk2r3/8/8/8/8/8/8/1K3R1R w Fx - 0 1', { chess960: true }],
      ['rk2r3/8/8/8/8/8/8/1K3R1R w Fq - 0 1', undefined], // X-FEN mix without the option
      ['rk2r3/8/8/8/8/8/8/1K3R1R w KQ - 0 1', undefined], // standard KQ: king not on e1
      ['rk2r3/8/8/8/8/8/8/1K3R1R w FHa - 0 1', undefined],
      ['rk2r3/8/8/8/8/8/8/1K3R1R w FFa - 0 1', { chess960: true }],
      ['rk2r3/8/8/8/8/8/8/1K3R1R w FHhaa - 0 1', { chess960: true }],
      ['rk2r3/8/8/8/8/8/K7/5R1R w F - 0 1', { chess960: true }], // king off its first rank
    ] as const;
    for (const [fen, options] of bad) {
      const e = thrown(() => api.parseFen(fen, options)) as Error & { field?: string };
      expect(e?.name, fen).toBe('FenError');
      expect(e.field, fen).toBe('castling');
    }
  });

  it('createPosition: castling strings, files, and PositionErrors for bad files', () => {
    const base = api.parseFen('rk2r3/8/8/8/8/8/8/1K3R1R w - - 0 1');
    const sets = { colors: [...base.colors], pieces: [...base.pieces] };
    expect([...api.createPosition({ ...sets, castling: 'Fa' }).castlingFiles]).toEqual([5, -1, -1, 0]);
    expect([...api.createPosition({ ...sets, castling: 1 | 8, chess960: true }).castlingFiles]).toEqual([7, -1, -1, 0]);
    for (const init of [
      { ...sets, castling: 1, castlingFiles: [6, -1, -1, -1], chess960: true }, // no rook on g1
      { ...sets, castling: 1, castlingFiles: [-1, -1, -1, -1], chess960: true },
      { ...sets, castling: 1, castlingFiles: [7, -1, -1, -1] }, // not Chess960: king not on e1
      { ...sets, castling: 'Q', chess960: true },
    ]) {
      expect(thrown(() => api.createPosition(init))?.name).toBe('PositionError');
    }
  });
});

describe('Chess960 start positions (Scharnagl numbering)', () => {
  it('518 is the standard setup; 0 and 959 as published; all 960 distinct, legal, and inverted', () => {
    expect(jsApi.toFen(chess960StartPosition(518), { shredder: true })).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1');
    expect(jsApi.toFen(chess960StartPosition(0)).split('/')[7]).toBe('BBQNNRKR w KQkq - 0 1');
    expect(jsApi.toFen(chess960StartPosition(959)).split('/')[7]).toBe('RKRNNQBB w KQkq - 0 1');
    const seen = new Set<string>();
    for (let n = 0; n < 960; n++) {
      const pos = chess960StartPosition(n);
      expect(isPosition(pos) && pos.chess960).toBe(true);
      const rank = jsApi.toFen(pos).split('/')[7]!.split(' ')[0]!;
      expect(rank).toBe(chess960Rank(n));
      // The rules of a start rank: bishops on squares of both colours, the king between the rooks.
      const b = [...rank].flatMap((p, f) => (p === 'B' ? [f] : []));
      expect((b[0]! + b[1]!) % 2).toBe(1);
      expect(rank.replace(/[^RK]/g, '')).toBe('RKR');
      seen.add(rank);
      expect(chess960StartNumber(pos)).toBe(n);
    }
    expect(seen.size).toBe(960);
    expect(chess960StartNumber(jsApi.parseFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'))).toBe(-1);
    expect(thrown(() => chess960StartPosition(960))?.name).toBe('RangeError');
    expect(thrown(() => chess960StartPosition(1.5))?.name).toBe('RangeError');
    expect(thrown(() => chess960StartPosition('1' as unknown as number))?.name).toBe('TypeError');
  });
});

describe.runIf(nativeApi)('Chess960 packed words: native = JS = parseFen', () => {
  it('random corruptions of the castling state are refused or accepted alike', () => {
    const next = rng(9600);
    for (let i = 0; i < 2000; i++) {
      const { fen } = randomStartFen(next);
      const words = BigUint64Array.from(jsApi.parseFen(fen, { chess960: true }).packed);
      // Flip bits among the castling rights, the Chess960 bit and the rook file fields.
      const bits = [1, 2, 3, 4, 5, ...Array.from({ length: 12 }, (_, k) => 40 + k)];
      const flips = 1 + Math.floor(next() * 3);
      for (let k = 0; k < flips; k++) words[8] ^= 1n << BigInt(bits[Math.floor(next() * bits.length)]!);
      const js = errorOf(() => jsApi.checkersBatch(words)), native = errorOf(() => nativeApi!.checkersBatch(words));
      expect(native?.name, `${fen} ${words[8]!.toString(16)}`).toBe(js?.name);
      if (js) continue;
      // Accepted: then it is a position parseFen accepts, whose words are these.
      const pos = positionOf(words);
      const back = jsApi.parseFen(jsApi.toFen(pos), { chess960: pos.chess960 });
      expect(Array.from(back.packed).slice(0, 9)).toEqual(Array.from(words).slice(0, 9));
    }
  });
});

describe.runIf(nativeApi)('Chess960 FEN lines: the native line parser = parseFen', () => {
  it('Shredder-FEN lines, good and mangled, give the same status and words', async () => {
    const { jsBackend } = await import('../../lib/backends/js/index.js');
    const { loadNative } = await import('../../lib/backends/native.js');
    const next = rng(961);
    const lines: string[] = [...CPW_960];
    const letters = 'KQkqABCDEFGHabcdefgh-x';
    for (let i = 0; i < 3000; i++) {
      const { fen } = randomStartFen(next);
      const parts = fen.split(' ');
      if (next() < 0.5) parts[2] = Array.from({ length: 1 + Math.floor(next() * 5) }, () => letters[Math.floor(next() * letters.length)]).join('');
      lines.push(parts.join(' '));
    }
    const text = new TextEncoder().encode(lines.join('\n'));
    const [jw, js] = jsBackend.batch.parseFenText(text, false) as [BigUint64Array, Uint8Array, Uint32Array];
    const [nw, ns] = loadNative().batch.parseFenText(text, false) as [BigUint64Array, Uint8Array, Uint32Array];
    expect(Array.from(ns)).toEqual(Array.from(js));
    expect(Array.from(nw)).toEqual(Array.from(jw));
    expect(js.filter((x) => x === 0).length).toBeGreaterThan(1500);
    expect(js.filter((x) => x === 4).length).toBeGreaterThan(300); // the castling field blamed
  });
});

function positionOf(words: BigUint64Array) {
  const pos = jsApi.createPosition({ colors: [words[0]!, words[1]!], pieces: Array.from(words.slice(2, 8)),
    sideToMove: Number(words[8]! & 1n) as 0 | 1, castling: Number((words[8]! >> 1n) & 15n),
    castlingFiles: [0, 1, 2, 3].map((r) => ((words[8]! >> 1n >> BigInt(r)) & 1n ? Number((words[8]! >> BigInt(40 + 3 * r)) & 7n) ^ [7, 0, 7, 0][r]! : -1)),
    chess960: (words[8]! & 0x20n) !== 0n });
  return pos;
}

function errorOf(f: () => unknown): Error | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return e as Error;
  }
}
