/**
 * The native PGN reader's own path for the usual case (a legal move, no SAN text written: flags
 * without PGN_WRITE_SAN) and its reading of the common SAN forms (pawn push, pawn capture, piece
 * move with or without file / rank of departure and capture, castling; section 8.2.3) straight from
 * the movetext. Truth: the JS twin, records equal byte for byte, on games whose moves are written
 * in those forms and in the forms next to them (suffix annotations, check marks doubled, a
 * promotion, a move glued to the next character), and on the same texts cut at every few bytes (a
 * move at the very end of the input, with no delimiter after it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPgnRecords } from '../../lib/games/pgn.js';
import { createSanApi } from '../../lib/games/san.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

const jsSan = createSanApi('js');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KEYS = ['games', 'moves', 'san', 'tags', 'comments', 'nags', 'positions', 'positionGame', 'positionPly'] as const;
const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** A few games of random legal moves, each written in one of the forms around the common ones. */
function games(seed: number): string {
  const next = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const out: string[] = [];
  for (let g = 0; g < 3; g++) {
    let pos = jsApi.parseFen(START);
    const tokens: string[] = [];
    for (let ply = 0; ply < 60; ply++) {
      const moves = jsApi.legalMoves(pos);
      if (moves.length === 0) break;
      const m = pick(moves);
      const san = jsSan.toSan(pos, m);
      const bare = san.replace(/[+#]$/, '');
      const r = next();
      const written = r < 0.55 ? san
        : r < 0.62 ? bare
          : r < 0.68 ? `${bare}+`
            : r < 0.72 ? `${bare}#+`
              : r < 0.78 ? `${san}${pick(['!', '?', '!!', '??', '!?', '?!'])}`
                : r < 0.82 && /^[NBRQK]/.test(bare) ? `${bare[0]}${m.slice(0, 2)}${bare.slice(1).replace(/^[a-h]?[1-8]?/, '')}`
                  : r < 0.86 ? bare.replace('O-O', '0-0').replace('=', '')
                    : r < 0.9 ? `${san}${pick(['', '{c}', '(', ')', '$3', ';x\n'])}`
                      : r < 0.94 ? `${ply % 2 ? '' : `${(ply >> 1) + 1}.`}${san}`
                        : san;
      if (ply % 2 === 0 && next() < 0.7) tokens.push(`${(ply >> 1) + 1}.`);
      tokens.push(written);
      if (next() < 0.05) tokens.push(pick(['{ [%clk 0:01:02] }', '$1', '(1. e4 e5)', '1...', '\n']));
      pos = jsApi.makeMove(pos, m);
    }
    out.push(`[Event "g${g}"]\n\n${tokens.join(next() < 0.8 ? ' ' : '  ')} *\n`);
  }
  return out.join('\n');
}

function expectSame(text: Uint8Array, flags: number, what: string) {
  const js = readPgnRecords(text, flags, {}, 'js');
  const native = readPgnRecords(text, flags, {}, 'native');
  for (const key of KEYS) expect(bytes(native[key]).equals(bytes(js[key])), `${key} flags ${flags} ${what}`).toBe(true);
  expect([native.consumed, native.consumedLine]).toEqual([js.consumed, js.consumedLine]);
}

describe.runIf(nativeApi !== undefined)('native reader without SAN output: the common SAN forms', () => {
  it('records equal to the JS twin byte for byte (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
      const text = Buffer.from(games(seed));
      for (const flags of [4 | 16, 2 | 4 | 16, 4 | 8 | 16, 16]) expectSame(text, flags, `seed ${seed}`);
    }), { numRuns: 60, seed: 20261124 });
  });

  it('a move at the very end of the input', () => {
    const text = Buffer.from(games(12345));
    for (let end = 1; end < text.length; end += 7) expectSame(text.subarray(0, end), 4 | 16, `cut at ${end}`);
    for (const tail of ['e4', 'Nf3', 'exd5', 'Nbd7', 'N1f3', 'Nxe5', 'O-O', 'O-O-O', 'e4+', 'Nf3#', 'O-O-', 'Nbxd7']) {
      expectSame(Buffer.from(`1. d4 d5 2. ${tail}`), 4 | 16, tail);
      expectSame(Buffer.from(`1. ${tail}`), 4 | 16, tail);
    }
  });
});
