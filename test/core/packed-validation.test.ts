/**
 * Packed positions that parseFen refuses are refused alike by every batch entry that takes packed
 * words, on both backends: same error class, same message. The positions are written word by word
 * here (layout: lib/core/types.ts PACKED_POSITION_WORDS: white, black, pawns, knights, bishops, rooks,
 * queens, kings, state = side | castling << 1 | epCode << 8, clocks; square a1 = 0 .. h8 = 63).
 */
import { describe, expect, it } from 'vitest';
import { FenError } from '../../lib/core/position.js';
import { backends, jsApi, nativeApi } from '../support/backends.js';

const bit = (sq: number): bigint => 1n << BigInt(sq);
const E1 = 4, E7 = 52, E8 = 60, A1 = 0, H8 = 63;
const NO_EP = 64n << 8n;

/** Kings and one rook: white Ke1, `rook` (white), black Ke8; `black` to move or not. */
function words(rook: number, blackToMove: boolean): bigint[] {
  return [bit(E1) | bit(rook), bit(E8), 0n, 0n, 0n, bit(rook), 0n, bit(E1) | bit(E8), NO_EP | (blackToMove ? 1n : 0n), 0n];
}

// White Ke1 Re7, black Ke8, white to move: black, not to move, is in check (parseFen refuses it).
const SIDE_NOT_TO_MOVE_IN_CHECK = words(E7, false);
// The same with black to move: black is in check, legal. Perft 1 counted on the board: the king on
// e8 attacked by Re7 (protected? no: e1 is far) may take on e7 (Kxe7) or go to d8/f8 (d7, f7 are
// attacked by the rook on the 7th rank, e7 is the rook): Kxe7, Kd8, Kf8 = 3 moves.
const BLACK_IN_CHECK = words(E7, true);
// A quiet board: white Ke1 Ra1, black Ke8, white to move.
const QUIET = words(A1, false);

describe.each(backends)('%s', (_name, api) => {
  it('perftBatch refuses a position whose side not to move is in check, naming its index', () => {
    for (const at of [0, 1]) {
      const list = at === 0 ? [SIDE_NOT_TO_MOVE_IN_CHECK, QUIET] : [QUIET, SIDE_NOT_TO_MOVE_IN_CHECK];
      const batch = BigUint64Array.from(list.flat());
      for (const depth of [0, 1, 3]) {
        expect(() => api.perftBatch(batch, depth)).toThrow(RangeError);
        expect(() => api.perftBatch(batch, depth)).toThrow(`perftBatch: position ${at}: the side not to move is in check`);
      }
    }
  });

  it('perftBatch still counts the side to move in check, and refuses what parseFen refuses', () => {
    expect([...api.perftBatch(BigUint64Array.from(BLACK_IN_CHECK), 1)]).toEqual([3]);
    expect(() => api.parseFen('4k3/4R3/8/8/8/8/8/4K3 w - - 0 1')).toThrow();
    // The same board from FEN: the first nine words (the tenth holds the clocks).
    expect([...api.parseFen('4k3/4R3/8/8/8/8/8/4K3 b - - 0 1').packed.subarray(0, 9)]).toEqual(BLACK_IN_CHECK.slice(0, 9));
  });

  it('the legalMoveCount feature flags the same position with 255, the others analyse it', () => {
    const batch = api.PositionBatch.fromPacked(BigUint64Array.from([...QUIET, ...SIDE_NOT_TO_MOVE_IN_CHECK]));
    expect([...api.analyzeBatch(batch, ['legalMoveCount']).legalMoveCount]).toEqual([expect.any(Number), 255]);
  });
});

// parseFen's board rules beyond the sets' consistency, each broken once: the words by hand, the
// FEN of the same board (which parseFen refuses) and what the batch forms say.
const D4 = 27, E4 = 28, D5 = 35, E5 = 36, D6 = 43, A8 = 56, H1 = 7;
const K = 1n << 1n, Q = 2n << 1n, k = 4n << 1n;
const epState = (sq: number, blackToMove: boolean) => (BigInt(sq) << 8n) | (blackToMove ? 1n : 0n);
const FEN_RULES: [string, string, bigint[]][] = [
  ['white pawn on the first rank', '4k3/8/8/8/8/8/8/R2PK3 w - - 0 1',
    [bit(E1) | bit(A1) | bit(3), bit(E8), bit(3), 0n, 0n, bit(A1), 0n, bit(E1) | bit(E8), NO_EP, 1n]],
  ['black pawn on the first rank', '4k3/8/8/8/8/8/8/R2pK3 w - - 0 1',
    [bit(E1) | bit(A1), bit(E8) | bit(3), bit(3), 0n, 0n, bit(A1), 0n, bit(E1) | bit(E8), NO_EP, 1n]],
  ['pawn on the eighth rank', 'P3k3/8/8/8/8/8/8/R3K3 w - - 0 1',
    [bit(E1) | bit(A1) | bit(A8), bit(E8), bit(A8), 0n, 0n, bit(A1), 0n, bit(E1) | bit(E8), NO_EP, 1n]],
  ['castling K without a rook on h1', '4k3/8/8/8/8/8/8/R3K3 w K - 0 1',
    [bit(E1) | bit(A1), bit(E8), 0n, 0n, 0n, bit(A1), 0n, bit(E1) | bit(E8), NO_EP | K, 1n]],
  ['castling Q with the king off e1', '4k3/8/8/8/8/8/8/R2K4 w Q - 0 1',
    [bit(3) | bit(A1), bit(E8), 0n, 0n, 0n, bit(A1), 0n, bit(3) | bit(E8), NO_EP | Q, 1n]],
  ['castling k with the black king off e8', '3k4/8/8/8/8/8/8/R3K3 w k - 0 1',
    [bit(E1) | bit(A1), bit(59), 0n, 0n, 0n, bit(A1), 0n, bit(E1) | bit(59), NO_EP | k, 1n]],
  ['castling K with a black rook on h1', '4k3/8/8/8/8/8/8/R3K2r w K - 0 1',
    [bit(E1) | bit(A1), bit(E8) | bit(H1), 0n, 0n, 0n, bit(A1) | bit(H1), 0n, bit(E1) | bit(E8), NO_EP | K, 1n]],
  ['en passant without the pawn that moved', '4k3/8/8/4P3/8/8/8/R3K3 w - d6 0 1',
    [bit(E1) | bit(A1) | bit(E5), bit(E8), bit(E5), 0n, 0n, bit(A1), 0n, bit(E1) | bit(E8), epState(D6, false), 1n]],
  ['en passant with its square occupied', '4k3/8/3n4/3pP3/8/8/8/R3K3 w - d6 0 1',
    [bit(E1) | bit(A1) | bit(E5), bit(E8) | bit(D5) | bit(D6), bit(E5) | bit(D5), bit(D6), 0n, bit(A1), 0n, bit(E1) | bit(E8), epState(D6, false), 1n]],
  ['en passant with the square behind it occupied', '3nk3/3n4/8/3pP3/8/8/8/R3K3 w - d6 0 1',
    [bit(E1) | bit(A1) | bit(E5), bit(E8) | bit(D5) | bit(51) | bit(59), bit(E5) | bit(D5), bit(51) | bit(59), 0n, bit(A1), 0n, bit(E1) | bit(E8), epState(D6, false), 1n]],
  ['en passant (black to move) with a black pawn in front', '4k3/8/8/8/3pp3/8/8/R3K3 b - e3 0 1',
    [bit(E1) | bit(A1), bit(E8) | bit(E4) | bit(D4), bit(E4) | bit(D4), 0n, 0n, bit(A1), 0n, bit(E1) | bit(E8), epState(20, true), 1n]],
];
// Good words of the same kinds, which parseFen takes: the rules must not refuse them.
const FEN_GOOD: [string, string][] = [
  ['en passant after e2e4', '4k3/8/8/8/3pP3/8/8/R3K3 b Q e3 0 1'],
  ['all four castling rights', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'],
];

describe.each(backends)('%s: parseFen\'s rules on packed words', (_name, api) => {
  for (const [what, fen, w] of FEN_RULES) {
    it(`refuses ${what}, as parseFen does`, () => {
      expect(() => api.parseFen(fen)).toThrow(FenError);
      const batch = BigUint64Array.from([...QUIET, ...w]);
      expect(() => api.perftBatch(batch, 2)).toThrow(RangeError);
      expect(() => api.perftBatch(batch, 2)).toThrow(/^perftBatch: position 1: /);
      expect(() => api.checkersBatch(batch, 0)).toThrow(RangeError);
      expect(() => api.checkAnalysisBatch(batch)).toThrow(RangeError);
      expect(() => api.analyzeBatch(api.PositionBatch.fromPacked(batch), 'all')).toThrow(RangeError);
    });
  }
  for (const [what, fen] of FEN_GOOD) {
    it(`takes ${what}, as parseFen does, with the same perft`, () => {
      const pos = api.parseFen(fen);
      const batch = BigUint64Array.from([...QUIET, ...pos.packed]);
      expect(api.perftBatch(batch, 2)[1]).toBe(api.perft(pos, 2));
    });
  }
});

describe('both backends alike', () => {
  // Each of validatePacked's rules broken once, at index 1 of a batch of three.
  const broken: [string, bigint[]][] = [
    ['colours overlap', (() => { const w = words(A1, false); w[1] |= bit(A1); return w; })()],
    ['types overlap', (() => { const w = words(A1, false); w[2] = bit(A1); return w; })()],
    ['types and colours differ', (() => { const w = words(A1, false); w[0] |= bit(H8); return w; })()],
    ['two white kings', (() => { const w = words(A1, false); w[5] = 0n; w[7] |= bit(A1); return w; })()],
    ['no black king', (() => { const w = words(A1, false); w[1] = 0n; w[7] = bit(E1); return w; })()],
    ['state bits', (() => { const w = words(A1, false); w[8] |= 0x40n; return w; })()],
    ['rook files in a standard position', (() => { const w = words(A1, false); w[8] |= 1n << 40n; return w; })()],
    ['en-passant code', (() => { const w = words(A1, false); w[8] = 65n << 8n; return w; })()],
    ['en-passant rank', (() => { const w = words(A1, false); w[8] = 20n << 8n; return w; })()],
    ['side not to move in check', SIDE_NOT_TO_MOVE_IN_CHECK],
    ...FEN_RULES.map(([what, , w]) => [what, w] as [string, bigint[]]),
  ];
  const calls: [string, (api: (typeof backends)[number][1], w: BigUint64Array) => unknown][] = [
    ['perftBatch', (api, w) => api.perftBatch(w, 1)],
    ['checkersBatch', (api, w) => api.checkersBatch(w, 0)],
    ['pinnedPiecesBatch', (api, w) => api.pinnedPiecesBatch(w, 0)],
    ['discoveredCheckCandidatesBatch', (api, w) => api.discoveredCheckCandidatesBatch(w, 0)],
    ['checkAnalysisBatch', (api, w) => api.checkAnalysisBatch(w)],
    ['analyzeBatch', (api, w) => api.analyzeBatch(api.PositionBatch.fromPacked(w), 'all')],
    ['toPlanes', (api, w) => api.toPlanes(api.PositionBatch.fromPacked(w))],
  ];
  const outcome = (f: () => unknown): string => {
    try {
      const r = f();
      return `ok ${JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : v))}`;
    } catch (e) {
      return `${(e as Error).constructor.name}: ${(e as Error).message}`;
    }
  };
  for (const [what, w] of broken) {
    for (const [fn, call] of calls) {
      it.runIf(nativeApi)(`${fn}: ${what}`, () => {
        const batch = () => BigUint64Array.from([...QUIET, ...w, ...QUIET]);
        const js = outcome(() => call(jsApi, batch()));
        const native = outcome(() => call(nativeApi!, batch()));
        expect(native).toBe(js);
      });
    }
  }
});
