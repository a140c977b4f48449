/**
 * Opening names from the lichess chess-openings data set. Truths: the TSV files themselves
 * (data/openings/, every line replayed), positions compared as EPD by chessops (its FEN writer, en
 * passant written only when a legal capture uses it: the data set's rule), and a brute-force
 * "last named position along the game" over chessops's positions. On every backend: the positions
 * of the PGN readers looked up by openingsOfBatch.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { openingOf, openingOfKey, openingOfPosition, openingsOfBatch, openingsOfGames } from '../../lib/games/openings.js';
import { parsePgn, pgnPositions } from '../../lib/games/pgn.js';
import { jsApi, nativeApi, wasmApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

interface Line { eco: string; name: string; sans: string[] }
const LINES: Line[] = [];
for (const f of ['a', 'b', 'c', 'd', 'e']) {
  const rows = readFileSync(new URL(`../../data/openings/${f}.tsv`, import.meta.url), 'utf8').split('\n').slice(1);
  for (const row of rows) {
    if (row.trim() === '') continue;
    const [eco, name, pgn] = row.split('\t') as [string, string, string];
    LINES.push({ eco, name, sans: pgn.split(/\s+/).filter((t) => !/^\d+\.+$/.test(t)) });
  }
}

const epd = (pos: Chess) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
/** Plays SAN moves with chessops: the positions (start included, as EPD) and the UCI moves (castling as the king's move). */
function replay(sans: readonly string[]): { epds: string[]; ucis: string[] } | null {
  const pos = Chess.default();
  const epds = [epd(pos)];
  const ucis: string[] = [];
  for (const san of sans) {
    const m = parseSan(pos, san);
    if (m === undefined || !('from' in m)) return null;
    const castle = pos.board.get(m.from)?.role === 'king' && pos.board.get(m.to)?.role === 'rook' && pos.board.get(m.to)?.color === pos.turn;
    ucis.push(castle ? makeUci({ from: m.from, to: m.from + (m.to > m.from ? 2 : -2) }) : makeUci(m));
    pos.play(m);
    epds.push(epd(pos));
  }
  return { epds, ucis };
}
/** EPD -> the lines that end there, in the files' order. */
const BY_EPD = new Map<string, Line[]>();
const REPLAYED = LINES.map((l) => {
  const r = replay(l.sans)!;
  const e = r.epds.at(-1)!;
  BY_EPD.set(e, [...(BY_EPD.get(e) ?? []), l]);
  return r;
});
/** The data set's rule by brute force: the last position along the game that some line ends in. */
function lastNamed(epds: readonly string[]): { eco: string; name: string; ply: number } | null {
  for (let ply = epds.length - 1; ply >= 0; ply--) {
    const lines = BY_EPD.get(epds[ply]!);
    if (lines) return { eco: lines[0]!.eco, name: lines[0]!.name, ply };
  }
  return null;
}

describe('openingOf', () => {
  it('names every line of the data set by itself (or by a line that reaches the same position)', () => {
    expect(LINES.length).toBe(3807);
    LINES.forEach((line, i) => {
      const o = openingOf({ moves: REPLAYED[i]!.ucis });
      expect(o).not.toBeNull();
      const same = BY_EPD.get(REPLAYED[i]!.epds.at(-1)!)!;
      expect(same.some((l) => l.eco === o!.eco && l.name === o!.name), `${line.eco} ${line.name}`).toBe(true);
      expect(o!.ply).toBe(line.sans.length);
    });
  });

  it('finds transpositions: lines with two moves of one side swapped land on the same name', () => {
    let checked = 0;
    for (const line of LINES) {
      if (line.sans.length < 5) continue;
      // White's first and second moves swapped.
      const swapped = [line.sans[2]!, line.sans[1]!, line.sans[0]!, ...line.sans.slice(3)];
      const r = replay(swapped);
      if (r === null || r.epds.at(-1) !== REPLAYED[LINES.indexOf(line)]!.epds.at(-1)) continue;
      checked++;
      const o = openingOf({ moves: r.ucis });
      expect(o).toEqual(lastNamed(r.epds));
      expect(o!.ply).toBe(line.sans.length);
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('takes the last named position of games that go on past their opening', () => {
    const next = rng(47);
    for (let g = 0; g < 200; g++) {
      const line = LINES[Math.floor(next() * LINES.length)]!;
      const pos = Chess.default();
      const sans = [...line.sans];
      for (const san of sans) pos.play(parseSan(pos, san)!);
      // A random continuation with chessops's move generator.
      for (let k = 0; k < 20 && !pos.isEnd(); k++) {
        const moves: string[] = [];
        for (const [from, dests] of pos.allDests()) for (const to of dests) moves.push(makeUci({ from, to }));
        const uci = moves[Math.floor(next() * moves.length)]!;
        const m = { from: parseSq(uci.slice(0, 2)), to: parseSq(uci.slice(2, 4)), promotion: /[18]$/.test(uci) && pos.board.get(parseSq(uci.slice(0, 2)))?.role === 'pawn' ? 'queen' as const : undefined };
        sans.push(makeSan(pos, m));
        pos.play(m);
      }
      const r = replay(sans)!;
      expect(openingOf({ moves: r.ucis })).toEqual(lastNamed(r.epds));
    }
  });

  it('reads its table from the data set (lib/games/openings-table.ts is what scripts/build-openings.mjs writes)', async () => {
    const { tableText } = await import('../../scripts/build-openings.mjs');
    expect(readFileSync(new URL('../../lib/games/openings-table.ts', import.meta.url), 'utf8')).toBe(tableText());
  });

  it('names a position by its Polyglot key (an explorer row\'s, a book entry\'s)', () => {
    for (const api of [jsApi, ...(nativeApi ? [nativeApi] : [])]) {
      let pos = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      expect(openingOfKey(api.polyglotKey(pos))).toBeNull();
      const names = [];
      for (const m of ['e2e4', 'c7c5', 'g1f3', 'd7d6']) {
        pos = api.makeMove(pos, m);
        names.push(openingOfKey(api.polyglotKey(pos)));
      }
      // The TSV's own lines for these prefixes.
      const named = (sans: string[]) => LINES.find((l) => l.sans.join(' ') === sans.join(' '));
      expect(names.map((n) => n && n.name)).toEqual([['e4'], ['e4', 'c5'], ['e4', 'c5', 'Nf3'], ['e4', 'c5', 'Nf3', 'd6']].map((x) => named(x)?.name ?? null));
    }
    expect(() => openingOfKey(-1n)).toThrow(RangeError);
    expect(() => openingOfKey(3 as never)).toThrow(TypeError);
  });

  it('refuses an illegal move and bad input', () => {
    expect(() => openingOf({ moves: ['e2e5'] })).toThrow(RangeError);
    expect(() => openingOf(null as never)).toThrow(TypeError);
    expect(openingOf({ moves: [] })).toBeNull();
  });
});

const parseSq = (s: string) => (s.charCodeAt(0) - 97) + 8 * (s.charCodeAt(1) - 49);

const pgnBackends: ('js' | 'native' | 'wasm')[] = ['js', ...(nativeApi ? ['native'] as const : []), ...(wasmApi ? ['wasm'] as const : [])];

describe.each(pgnBackends)('opening names of the reader\'s positions (%s)', (backend) => {
  it('openingsOfBatch names each position as openingOf names its game up to it', () => {
    const pgn = LINES.filter((_, i) => i % 7 === 0).map((l) => `[Event "${l.eco}"]\n\n${l.sans.join(' ')} *\n`).join('\n');
    const { batch, game, ply } = pgnPositions(pgn, { backend });
    const games = parsePgn(pgn, { backend });
    const names = openingsOfBatch(batch, { backend });
    const chosen = LINES.filter((_, i) => i % 7 === 0);
    for (let i = 0; i < batch.length; i++) {
      const l = chosen[game[i]! - 1]!;
      const r = replay(l.sans.slice(0, ply[i]!))!;
      const truth = BY_EPD.get(r.epds.at(-1)!)?.[0];
      expect(names[i] === null ? null : { ...names[i] }).toEqual(truth === undefined ? null : { eco: truth.eco, name: truth.name });
      if (ply[i] === games[game[i]! - 1]!.moves.length) {
        const o = openingOf(games[game[i]! - 1]!);
        expect(o && { eco: o.eco, name: o.name }).toEqual(names[i] && { ...names[i] });
      }
    }
    // One position at a time, with an en passant square no capture uses.
    const sicilian = openingOfPosition(jsApi.parseFen('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2'));
    expect(sicilian).toEqual({ eco: 'B20', name: 'Sicilian Defense' });
  });

  it('openingsOfBatch gives the same names from every backend, on played-out lines, random batches and invalid positions', () => {
    // Data-set lines played on randomly, so that positions leave the book; a random batch of made-up
    // positions (the addon's occupancy filter passes some, its key lookup finds none) with some
    // marked invalid.
    const next = rng(91);
    const pgn = LINES.filter(() => next() < 0.05).map((l) => `[Event "${l.eco}"]\n\n${l.sans.join(' ')} *\n`).join('\n');
    const { batch } = pgnPositions(pgn, { backend });
    const truth = openingsOfBatch(batch, { backend: 'js' });
    expect(truth.filter((o) => o !== null).length).toBeGreaterThan(100);
    expect(openingsOfBatch(batch, { backend })).toEqual(truth);
    const fens = Array.from({ length: 300 }, (_, i) => {
      let pos = jsApi.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      for (let k = 0; k < 1 + (i % 9); k++) {
        const moves = jsApi.legalMoves(pos);
        pos = jsApi.makeMove(pos, moves[Math.floor(next() * moves.length)]!);
      }
      return i % 10 === 0 ? 'not a FEN' : jsApi.toFen(pos);
    });
    const random = jsApi.PositionBatch.fromFens(fens);
    expect(random.valid).not.toBeNull();
    const some = openingsOfBatch(random, { backend: 'js' });
    expect(some.filter((o) => o !== null).length).toBeGreaterThan(0);
    expect(openingsOfBatch(random, { backend })).toEqual(some);
    expect(() => openingsOfBatch(batch, { backend: 'gpu' as never })).toThrow(RangeError);
    expect(() => openingsOfBatch(batch, 3 as never)).toThrow(TypeError);
  });

  it('openingsOfGames gives each game openingOf\'s name, from the positions of every ply; none for other selections', () => {
    // Data-set lines with random continuations, the fixtures' games (FEN starts, Chess960, bad games).
    const next = rng(48);
    const texts = [0, 1, 2].map(() => LINES.filter(() => next() < 0.02).map((l, i) => {
      const pos = Chess.default();
      const sans = [...l.sans];
      for (const san of sans) pos.play(parseSan(pos, san)!);
      for (let k = 0; k < 12 && !pos.isEnd(); k++) {
        const dests = [...pos.allDests()].flatMap(([from, ds]) => [...ds].map((to) => ({ from, to })));
        const m = dests[Math.floor(next() * dests.length)]!;
        const promotion = pos.board.get(m.from)?.role === 'pawn' && (m.to >> 3) % 7 === 0 ? 'queen' as const : undefined;
        sans.push(makeSan(pos, { ...m, promotion }));
        pos.play({ ...m, promotion });
      }
      return `[Event "${i}"]\n\n${sans.join(' ')} *\n`;
    }).join('\n'));
    for (const f of ['chessbase', 'messy', 'quirky', 'study']) texts.push(readFileSync(new URL(`../fixtures/pgn/${f}.pgn`, import.meta.url), 'utf8'));
    let named = 0;
    for (const text of texts) {
      const r = pgnPositions(text, { backend, games: true });
      const byGame = openingsOfGames(r, {})!;
      for (const g of r.games) {
        if (g.error) continue;
        const o = openingOf(g);
        if (o) named++;
        expect(byGame.get(g.game) ?? null, `game ${g.game}`).toEqual(o && { eco: o.eco, name: o.name });
      }
      expect(openingsOfGames(r, { fromPly: 1 })).toBeUndefined();
      expect(openingsOfGames(r, { every: 2 })).toBeUndefined();
      expect(openingsOfGames(r, { mode: 'final' })).toBeUndefined();
    }
    expect(named).toBeGreaterThan(100);
  });
});
