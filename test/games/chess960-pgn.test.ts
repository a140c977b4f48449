/**
 * Chess960 games in PGN on both readers: the Variant tag in its common spellings, the FEN tag as
 * X-FEN or Shredder-FEN, castling in SAN. The text is written here with chessops' SAN (an
 * independent writer) from random playouts; the readers must give back the moves played, and the
 * native and JS records must be equal byte for byte. writePgn writes the games back with their
 * Variant tag; another variant is an error for its game alone.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Chess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { PgnError, parsePgn, readPgn, readPgnRecords } from '../../lib/games/pgn.js';
import { writePgn } from '../../lib/games/pgn-write.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';
import { chess960StartPosition } from '../../lib/core/position.js';

const SPELLINGS = ['Chess960', 'Chess 960', 'Fischerandom', 'fischer random', 'FRC', 'chess960'];

interface Played { pgn: string; moves: string[]; startFen: string }

/** A random Chess960 game: start position, playout, its PGN written with chessops' SAN. */
function game(next: () => number, i: number): Played {
  const api = nativeApi ?? jsApi;
  let pos = chess960StartPosition(Math.floor(next() * 960));
  if (i % 3 === 1) pos = api.makeMove(pos, api.legalMoves(pos)[0]!); // a start FEN after a move
  const shredder = i % 2 === 0;
  const startFen = api.toFen(pos, { shredder });
  const moves: string[] = [];
  const sans: string[] = [];
  const plies = 20 + Math.floor(next() * 60);
  for (let p = 0; p < plies; p++) {
    const legal = api.legalMoves(pos);
    if (legal.length === 0) break;
    // Castling whenever it is there, so most games have some.
    const castles = legal.filter((m) => (pos.colors[pos.sideToMove]! >> BigInt((m.charCodeAt(3) - 49) * 8 + m.charCodeAt(2) - 97)) & 1n);
    const m = castles.length && next() < 0.7 ? castles[0]! : legal[Math.floor(next() * legal.length)]!;
    const chess = Chess.fromSetup(opsParseFen(api.toFen(pos, { shredder: true })).unwrap()).unwrap();
    sans.push(makeSan(chess, parseUci(m)!));
    moves.push(m);
    pos = api.makeMove(pos, m);
  }
  const movetext = sans.map((s, k) => (k % 2 === 0 ? `${Math.floor(k / 2) + 1}. ${s}` : s)).join(' ');
  const variant = SPELLINGS[i % SPELLINGS.length];
  // Black to move at the start: the movetext starts with "1..." (the move numbers are not checked).
  const pgn = `[Event "g${i}"]\n[Variant "${variant}"]\n[SetUp "1"]\n[FEN "${startFen}"]\n\n${movetext} *\n\n`;
  return { pgn, moves, startFen };
}

const next = rng(9609);
const GAMES = Array.from({ length: 60 }, (_, i) => game(next, i));
const TEXT = GAMES.map((g) => g.pgn).join('');
const ATOMIC = '[Event "atomic"]\n[Variant "Atomic"]\n\n1. e4 e5 *\n\n';

describe.each([['js'], ...(nativeApi ? [['native']] : [])] as ['js' | 'native'][])('Chess960 PGN (%s reader)', (backend) => {
  it('reads every game: the moves played, castling in SAN', () => {
    const games = parsePgn(TEXT, { backend });
    expect(games.length).toBe(GAMES.length);
    let castles = 0;
    games.forEach((g, i) => {
      expect(g.error, GAMES[i]!.pgn).toBeUndefined();
      expect(g.moves).toEqual(GAMES[i]!.moves);
      castles += g.sans.filter((s) => s.startsWith('O-O')).length;
    });
    expect(castles).toBeGreaterThan(20);
  });

  it('another variant is an error for its game alone; the stream goes on', async () => {
    const text = GAMES[0]!.pgn + ATOMIC + GAMES[1]!.pgn;
    const games = parsePgn(text, { backend });
    expect(games.length).toBe(3);
    expect(games[1]!.error).toBeInstanceOf(PgnError);
    expect(games[1]!.error!.message).toMatch(/unsupported variant/);
    expect(games[2]!.moves).toEqual(GAMES[1]!.moves);
    const streamed: string[][] = [];
    for await (const g of readPgn(Readable.from([Buffer.from(text)]), { backend })) streamed.push(g.moves);
    expect(streamed[2]).toEqual(GAMES[1]!.moves);
  });

  it('a Chess960 FEN tag read as standard chess fails (the Variant tag is what makes X-FEN)', () => {
    const standardFails = (fen: string): boolean => { try { jsApi.parseFen(fen); return false; } catch { return true; } };
    const xfen = GAMES.find((g, i) => i % 2 === 1 && standardFails(g.startFen))!;
    const games = parsePgn(xfen.pgn.replace(/\[Variant "[^"]*"\]\n/, ''), { backend });
    expect(games[0]!.error?.message ?? '').toMatch(/FEN/);
  });

  it('writePgn writes the games back with their Variant tag; they read the same', () => {
    const games = parsePgn(TEXT, { backend });
    const written = writePgn(games);
    expect((written.match(/\[Variant "/g) ?? []).length).toBe(GAMES.length);
    const again = parsePgn(written, { backend });
    again.forEach((g, i) => expect(g.moves).toEqual(GAMES[i]!.moves));
    // A game given as a Shredder-FEN start and moves alone gets a Variant tag.
    const bare = writePgn([{ startFen: GAMES[0]!.startFen, moves: GAMES[0]!.moves }]);
    expect(bare).toMatch(/\[Variant "Chess960"\]/);
    expect(parsePgn(bare, { backend })[0]!.moves).toEqual(GAMES[0]!.moves);
  });
});

describe.runIf(nativeApi)('Chess960 PGN: native and JS records equal byte for byte', () => {
  it('every record kind, with positions and SAN', () => {
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const text = Buffer.from(TEXT + ATOMIC + TEXT);
    for (const flags of [1 | 2 | 4 | 16, 4 | 8 | 16, 1 | 4]) {
      const js = readPgnRecords(text, flags, {}, 'js');
      const native = readPgnRecords(text, flags, {}, 'native');
      for (const key of ['games', 'moves', 'san', 'tags', 'comments', 'nags', 'positions', 'positionGame', 'positionPly'] as const) {
        expect(bytes(native[key]).equals(bytes(js[key])), `${key} flags ${flags}`).toBe(true);
      }
    }
  });

  it('the positions the reader writes are the positions makeMove makes', () => {
    const r = readPgnRecords(Buffer.from(GAMES[2]!.pgn), 4 | 16, {}, 'native');
    let pos = jsApi.parseFen(GAMES[2]!.startFen, { chess960: true });
    const words = r.positions as unknown as BigUint64Array;
    const n = words.length / 10;
    expect(n).toBe(GAMES[2]!.moves.length + 1);
    for (let k = 0; k < n; k++) {
      expect(Array.from(words.subarray(10 * k, 10 * k + 10)), `ply ${k}`).toEqual(Array.from(pos.packed));
      if (k < GAMES[2]!.moves.length) pos = jsApi.makeMove(pos, GAMES[2]!.moves[k]!);
    }
  });
});
