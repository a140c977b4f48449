/**
 * Clocks, move times and evaluations of PGN comments ({ annotations: true }), both readers. Truths:
 * the PGN Specification Supplement's commands (%clk H:MM:SS, %emt, %eval in pawns or #mate) read by
 * hand in the first cases; chessops' parseComment as a live oracle on well-formed commands; a
 * reference reader written here with regular expressions from the rules of native/core/annotations.h
 * on random games carrying random (and garbled) commands; and the other backend's records, byte for
 * byte. Also the ChessBase export quirk (an empty line inside a tag section), against chessops.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { emptyHeaders, parseComment, parsePgn as chessopsParsePgn } from 'chessops/pgn';
import { describe, expect, it } from 'vitest';
import { PGN_WRITE_ANNOTATIONS, PGN_LAST_CHUNK, PGN_WRITE_COMMENTS } from '../../lib/backends/js/pgn.js';
import { parsePgn, pgnPositions, readPgn, readPgnPositions, readPgnRecords, type PgnGame } from '../../lib/games/pgn.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi, wasmApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';
import { annotatedGame } from './annotations-reference.js';

const pgnBackends: ('js' | 'native' | 'wasm')[] = [...(['js'] as const), ...(nativeApi ? ['native'] as const : []), ...(wasmApi ? ['wasm'] as const : [])];
const jsSan = createSanApi('js');
const CORPUS_GAMES = parsePgn(makePgn({ ...jsApi, toSan: jsSan.toSan }, { games: 40, seed: 11, maxPlies: 80 }), { backend: 'js' })
  .filter((g) => g.error === undefined && g.moves.length > 0 && g.tags.FEN === undefined);

describe.each(pgnBackends)('annotations (%s)', (backend) => {
  it('reads the commands as the Supplement defines them: lichess and ChessBase examples', () => {
    const text = `[Event "lichess"]\n\n1. e4 { [%eval 0.17] [%clk 0:04:53] } 1... e5 { [%clk 0:04:59.8] [%eval -0.51] }
2. Qh5 { [%eval #-3] } 2... Nc6 {[%emt 0:00:07] [%eval 12.345,23]} 3. Bc4 { [%clk 1:02:03] [%eval #4] } 3... Nf6
{ no command here } 4. Qxf7# { [%eval -0.005] } 1-0\n`;
    const [g] = parsePgn(text, { annotations: true, backend });
    // 0:04:53 = 4 * 60 + 53 s; 0.17 pawns = 17 cp; "#-3" = Black mates in 3; 12.345 pawns = 1234.5 cp, rounded away from zero.
    expect(g!.clocks).toEqual([293, 299.8, null, null, 3723, null, null]);
    expect(g!.emts).toEqual([null, null, null, 7, null, null, null]);
    expect(g!.evals).toEqual([{ cp: 17 }, { cp: -51 }, { mate: -3 }, { cp: 1235 }, { mate: 4 }, null, { cp: -1 }]);
    // Without the option the game has no such fields.
    expect(parsePgn(text, { backend })[0]!.clocks).toBeUndefined();
  });

  it('agrees with chessops parseComment on well-formed lichess commands', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: -9999, max: 9999 }), fc.integer({ min: -30, max: 30 }), fc.boolean(),
      (h, m, s, cp, mate, useMate) => {
        const pawns = (cp < 0 ? '-' : '') + `${Math.floor(Math.abs(cp) / 100)}.${String(Math.abs(cp) % 100).padStart(2, '0')}`;
        const comment = ` [%eval ${useMate ? `#${mate}` : pawns}] [%clk ${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}] `;
        const oracle = parseComment(comment);
        const [g] = parsePgn(`1. e4 {${comment}} *`, { annotations: true, backend });
        expect(g!.clocks).toEqual([oracle.clock]);
        const ev = oracle.evaluation!;
        expect(g!.evals).toEqual(['mate' in ev ? [{ mate: ev.mate }] : [{ cp: Math.round(ev.pawns * 100) }]][0]);
      }), { numRuns: 200 });
  });

  it('random games with random and garbled commands read as the reference reader reads them', () => {
    const piece = fc.constantFrom('[%clk ', '[%emt ', '[%eval ', '[%', ']', '[', ' ', '\n', '0', '1', '5', '9', ':', ':00', ':59',
      ':60', '.', '.5', ',', ',20', '#', '#-', '-', '+', '12', '99999', '123456', 'x', '%clk', '0:01:02]', '1234567890');
    const comment = fc.array(piece, { maxLength: 14 }).map((a) => a.join(''));
    fc.assert(fc.property(fc.nat(CORPUS_GAMES.length - 1), fc.array(fc.tuple(fc.nat(200), comment), { maxLength: 12 }), comment,
      (gi, list, before) => {
        const g = CORPUS_GAMES[gi]!;
        const comments = new Map(list.map(([ply, c]) => [1 + (ply % g.sans.length), c] as const));
        const want = annotatedGame(g, comments, before);
        const [read] = parsePgn(want.text, { annotations: true, backend });
        expect(read!.error).toBeUndefined();
        expect(read!.moves).toEqual(g.moves);
        expect(read!.clocks).toEqual(want.clocks);
        expect(read!.emts).toEqual(want.emts);
        expect(read!.evals).toEqual(want.evals);
      }), { numRuns: 150 });
  });

  it('a non-boolean annotations option is a TypeError', () => {
    expect(() => parsePgn('1. e4 *', { annotations: 'yes' as never, backend })).toThrow(TypeError);
  });

  it('commands in variations, before the first move or after an error annotate nothing; the last of a kind counts', () => {
    const text = `{ [%clk 0:01:00] } 1. e4 { [%clk 0:02:00] } ( 1. d4 { [%clk 0:03:00] } ) 1... e5 { [%eval 1] [%eval 2] }
2. Ke3 { [%clk 0:04:00] } *\n`;
    const [g] = parsePgn(text, { annotations: true, backend });
    expect(g!.error?.reason).toBe('illegal move');
    expect(g!.moves).toEqual(['e2e4', 'e7e5']);
    expect(g!.clocks).toEqual([120, null]);
    expect(g!.evals).toEqual([null, { cp: 200 }]);
  });

  it('readPgn in small chunks gives the annotations of parsePgn', async () => {
    const texts = CORPUS_GAMES.slice(0, 10).map((g, i) => annotatedGame(g, new Map([[1, `[%clk 0:0${i}:00]`], [g.sans.length, '[%eval -1.5]']])).text);
    const all = texts.join('\n');
    const chunks = (async function* () { for (let i = 0; i < all.length; i += 97) yield all.slice(i, i + 97); })();
    const streamed: PgnGame[] = [];
    for await (const g of readPgn(chunks, { annotations: true, backend })) streamed.push(g);
    expect(streamed).toEqual(parsePgn(all, { annotations: true, backend }));
    expect(streamed.map((g) => g.clocks![0])).toEqual(texts.map((_, i) => i * 60));
  });

  it('positions carry the clock and eval of the move that led to them (pgnPositions, readPgnPositions; select every / from / final)', async () => {
    const written = CORPUS_GAMES.slice(0, 12).map((g, i) => annotatedGame(g, new Map(g.sans.map((_, p) => [p + 1,
      p % 3 === 0 ? `[%clk 0:0${i % 10}:${String(p % 60).padStart(2, '0')}.5] [%eval ${p % 2 ? '-' : ''}0.${p % 10}1]` : p % 3 === 1 ? '[%eval #-2]' : 'plain'] as const))));
    const text = written.map((w) => w.text).join('\n');
    const want = (game: number, ply: number) => {
      const w = written[game - 1]!;
      const e = ply > 0 ? w.evals[ply - 1] : null;
      return [ply > 0 ? w.clocks[ply - 1] ?? NaN : NaN, e && 'cp' in e ? e.cp : NaN, e && 'mate' in e ? e.mate : NaN];
    };
    for (const select of [{}, { every: 3, fromPly: 2 }, { mode: 'final' as const }]) {
      const r = pgnPositions(text, { backend, annotations: true, select });
      expect(r.annotations!.clock.length).toBe(r.batch.length);
      const got = Array.from(r.game, (g, k) => [r.annotations!.clock[k], r.annotations!.evalCp[k], r.annotations!.evalMate[k]]);
      expect(got).toEqual(Array.from(r.game, (g, k) => want(g, r.ply[k]!)));
      const chunks = (async function* () { for (let i = 0; i < text.length; i += 333) yield text.slice(i, i + 333); })();
      const streamed: number[][] = [];
      for await (const c of readPgnPositions(chunks, { backend, annotations: true, select })) {
        c.game.forEach((g, k) => streamed.push([c.annotations!.clock[k]!, c.annotations!.evalCp[k]!, c.annotations!.evalMate[k]!]));
      }
      expect(streamed).toEqual(got);
    }
  });

  it('ChessBase: empty lines inside a tag section do not split the game (fixture chessbase.pgn, chessops as oracle)', () => {
    const bytes = readFileSync(new URL('../fixtures/pgn/chessbase.pgn', import.meta.url));
    const games = parsePgn(bytes, { backend });
    const oracle = chessopsParsePgn(bytes.toString('utf8'), emptyHeaders);
    expect(games.map((g) => g.tags)).toEqual(oracle.map((o) => Object.fromEntries(o.headers)));
    expect(games.map((g) => g.moves.length)).toEqual(oracle.map((o) => [...o.moves.mainline()].length));
    expect(games.every((g) => g.error === undefined)).toBe(true);
  });
});

describe.runIf(nativeApi)('annotations: native and JS records are the same bytes', () => {
  it('on random games with random, garbled and hostile comment bytes', () => {
    const bytesOf = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a).toString('latin1').replace(/[{}]/g, '['));
    const noise = fc.oneof(bytesOf, fc.stringMatching(/^[[\]%clkevamt0-9:.,#+\- \n]{0,40}$/));
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(CORPUS_GAMES.length - 1), fc.array(fc.tuple(fc.nat(200), noise), { maxLength: 8 })),
      { minLength: 1, maxLength: 4 }), (list) => {
      const text = list.map(([gi, cs]) => {
        const g = CORPUS_GAMES[gi]!;
        return annotatedGame(g, new Map(cs.map(([ply, c]) => [1 + (ply % g.sans.length), c] as const))).text;
      }).join('\n');
      const flags = PGN_WRITE_ANNOTATIONS | PGN_WRITE_COMMENTS | PGN_LAST_CHUNK;
      const a = readPgnRecords(Buffer.from(text, 'latin1'), flags, {}, 'js');
      const b = readPgnRecords(Buffer.from(text, 'latin1'), flags, {}, 'native');
      expectSameBytes(b.annotations, a.annotations, 'annotations');
      expectSameBytes(b.games, a.games, 'games');
      expectSameBytes(b.comments, a.comments, 'comments');
    }), { numRuns: 200 });
  });
});
