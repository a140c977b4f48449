/**
 * writePgn. Truths: the PGN standard's export format rules (section 8.1.1 Seven Tag Roster and its
 * order, 8.2.2 move numbers, 8.2.4 NAGs and 8.2.3.8 suffix annotations, lines of at most 80
 * characters) checked on the text; the
 * round trip through both readers (parsePgn(writePgn(g)) gives g back); chessops' PGN parser as a
 * live oracle (every move legal from its own replay, tags and comments read as written); and
 * pgn-extract (Debian package pgn-extract) as a second live oracle when installed. CI sets
 * BITBOARD_PATTERNS_REQUIRE_PGN_EXTRACT=1 so that a missing pgn-extract fails instead of skipping.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { emptyHeaders, parseComment, parsePgn as chessopsParsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeFen } from 'chessops/fen';
import { describe, expect, it } from 'vitest';
import { parsePgn, type PgnGame } from '../../lib/games/pgn.js';
import { writePgn } from '../../lib/games/pgn-write.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';

const pgnBackends: ('js' | 'native')[] = nativeApi ? ['js', 'native'] : ['js'];
const jsSan = createSanApi('js');
const CORPUS = makePgn({ ...jsApi, toSan: jsSan.toSan }, { games: 50, seed: 23, maxPlies: 100 });
const COMMAND = /\[%(?:clk|emt|eval)[ \t\r\n]*[^\][]*\]/g;

/** A game's fields that writing and reading again must keep (comments without the commands the arrays carry). */
function kept(g: PgnGame) {
  return {
    tags: { ...g.tags, Result: g.tags.Result ?? g.result ?? '*' }, startFen: g.startFen, moves: g.moves, sans: g.sans,
    result: g.result ?? '*', nags: g.nags, clocks: g.clocks, emts: g.emts, evals: g.evals,
    comments: g.comments?.map((c) => ({ ply: c.ply, text: c.text.replace(COMMAND, '') })).filter((c) => c.text.trim() !== ''),
  };
}

const pgnExtract = ['/usr/bin/pgn-extract', '/usr/games/pgn-extract'].find((p) => existsSync(p));

describe.each(pgnBackends)('writePgn (%s reader)', (backend) => {
  const games = parsePgn(CORPUS, { backend, comments: true, annotations: true }).filter((g) => g.error === undefined);

  it('export format: the Seven Tag Roster first in order, then the other tags, a FEN tag for a set-up start, move numbers', () => {
    const text = writePgn({ tags: { Annotator: 'me', White: 'Tal, "M"', Event: 'E' }, startFen: '4k3/8/8/8/8/8/4P3/4K3 b - - 0 7',
      moves: ['e8d7', 'e2e4'], result: null, nags: [{ ply: 1, nag: 1 }], comments: [{ ply: 1, text: ' ok ' }] });
    expect(text).toBe([
      '[Event "E"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]', '[White "Tal, \\"M\\""]', '[Black "?"]', '[Result "*"]',
      '[SetUp "1"]', '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"]', '[Annotator "me"]', '',
      '7... Kd7 $1 { ok } 8. e4 *', '', ''].join('\n'));
  });

  it('parsePgn(writePgn(games)) gives the games back: the generated corpus with comments, NAGs, clocks and evals', () => {
    expect(games.length).toBeGreaterThan(40);
    const again = parsePgn(writePgn(games), { backend, comments: true, annotations: true });
    expect(again.map(kept)).toEqual(games.map(kept));
  });

  it('random clocks, move times and evaluations survive the round trip', () => {
    const clock = fc.option(fc.integer({ min: 0, max: 99999 * 3600 }).chain((s) => fc.integer({ min: 0, max: 999 }).map((ms) => s + ms / 1000)));
    const ev = fc.option(fc.oneof(fc.integer({ min: -9999999, max: 9999999 }).map((cp) => ({ cp })), fc.integer({ min: -9999, max: 9999 }).map((mate) => ({ mate }))));
    fc.assert(fc.property(fc.nat(games.length - 1), fc.array(fc.tuple(clock, clock, ev), { minLength: 300, maxLength: 300 }), (gi, values) => {
      const g = games[gi]!;
      const n = g.moves.length;
      const game = { ...g, comments: [], clocks: values.slice(0, n).map((v) => v[0]), emts: values.slice(0, n).map((v) => v[1]),
        evals: values.slice(0, n).map((v) => v[2]) };
      const [back] = parsePgn(writePgn(game), { backend, annotations: true });
      expect(back!.clocks).toEqual(game.clocks);
      expect(back!.emts).toEqual(game.emts);
      expect(back!.evals).toEqual(game.evals.map((e) => (e && 'cp' in e ? { cp: e.cp || 0 } : e)));
    }), { numRuns: 100 });
  });

  it('random tags, comments and NAGs (quotes, backslashes, braces, non-ASCII) survive the round trip', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '{', '}', ']', '[', '%', ';', '$', '1', '\n', 'é', '♞', ')', '(') });
    const oneLine = text.map((t) => t.replace(/\n/g, ' '));
    fc.assert(fc.property(fc.nat(games.length - 1), fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/), oneLine, { maxKeys: 5 }),
      fc.array(fc.tuple(fc.nat(300), text)), fc.array(fc.tuple(fc.nat(300), fc.oneof(fc.nat(255), fc.integer({ min: 1, max: 6 })))), fc.boolean(),
      (gi, extra, comments, nags, suffixes) => {
        const g = games[gi]!;
        const n = g.moves.length;
        // A comment holding both '}' and a line end cannot be written; a ';' comment loses a final '\r' (none here).
        const cs = comments.filter(([, t]) => !(t.includes('}') && t.includes('\n'))).map(([p, t]) => ({ ply: p % (n + 1), text: t }))
          .sort((a, b) => a.ply - b.ply);
        const ns = nags.map(([p, v]) => ({ ply: p % (n + 1), nag: v })).sort((a, b) => a.ply - b.ply);
        const tags = { ...g.tags, ...extra };
        delete tags.FEN;
        delete tags.SetUp;
        delete tags.Variant;
        const game = { ...g, tags, comments: cs, nags: ns, clocks: undefined, emts: undefined, evals: undefined };
        const [back] = parsePgn(writePgn(game, { suffixes }), { backend, comments: true });
        expect(back!.error).toBeUndefined();
        expect(back!.tags).toEqual({ ...tags, ...(g.startFen === g.startFen && g.tags.FEN ? { SetUp: '1', FEN: g.startFen } : {}), Result: tags.Result ?? g.result ?? '*' });
        expect(back!.moves).toEqual(g.moves);
        expect(back!.nags).toEqual(ns);
        expect(back!.comments).toEqual(cs);
      }), { numRuns: 150 });
  });

  it('{ suffixes: true }: a move whose first NAG is $1..$6 gets its suffix; other NAGs stay $n; the reader gives them back', () => {
    const game = { moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6'], result: null,
      nags: [{ ply: 0, nag: 3 }, { ply: 1, nag: 2 }, { ply: 1, nag: 14 }, { ply: 2, nag: 14 }, { ply: 2, nag: 6 }, { ply: 3, nag: 4 }, { ply: 4, nag: 5 }] };
    const movetext = (t: string) => t.split('\n\n')[1]!.trim();
    expect(movetext(writePgn(game, { suffixes: true }))).toBe('$3 1. e4? $14 1... e5 $14 $6 2. Nf3?? Nc6!? *');
    expect(movetext(writePgn(game))).toBe('$3 1. e4 $2 $14 1... e5 $14 $6 2. Nf3 $4 2... Nc6 $5 *');
    for (const g of [parsePgn(writePgn(game, { suffixes: true }), { backend, comments: true })[0]!]) {
      expect(g.error).toBeUndefined();
      expect(g.nags).toEqual(game.nags);
    }
    const suffixOf = ['', '!', '?', '!!', '??', '!?', '?!'];
    for (let nag = 1; nag <= 6; nag++) {
      expect(movetext(writePgn({ moves: ['e2e4'], result: null, nags: [{ ply: 1, nag }] }, { suffixes: true }))).toBe(`1. e4${suffixOf[nag]} *`);
    }
    expect(() => writePgn(game, { suffixes: 1 as never })).toThrow(/suffixes must be a boolean/);
  });

  it('{ suffixes: true }: chessops reads the same NAGs on every move of the corpus with random assessments', () => {
    fc.assert(fc.property(fc.nat(games.length - 1), fc.array(fc.tuple(fc.nat(300), fc.integer({ min: 1, max: 6 }), fc.nat(30))), (gi, picks) => {
      const g = games[gi]!;
      const n = g.moves.length;
      if (n === 0) return;
      const nags = picks.flatMap(([p, a, other]) => [{ ply: 1 + (p % n), nag: a }, ...(other > 20 ? [{ ply: 1 + (p % n), nag: other }] : [])])
        .sort((x, y) => x.ply - y.ply);
      const text = writePgn({ ...g, comments: [], nags, clocks: undefined, emts: undefined, evals: undefined }, { suffixes: true });
      const [o] = chessopsParsePgn(text, emptyHeaders);
      const seen: { ply: number; nag: number }[] = [];
      let ply = 0;
      for (const node of o!.moves.mainline()) {
        ply++;
        for (const nag of node.nags ?? []) seen.push({ ply, nag });
      }
      expect(seen).toEqual(nags);
    }), { numRuns: 100 });
  });

  it('lines hold at most 80 characters (or one token longer than that)', () => {
    const text = writePgn(games);
    for (const line of text.split('\n')) if (line.length > 80) expect(line).toMatch(/^[{;][^\s]*$|^\{[^}]*\}$|^\[/);
    expect(text.split('\n').filter((l) => l.length > 80 && !l.startsWith('['))).toEqual([]);
  });

  it('chessops reads the output: the same tags, every move legal and the same SAN, clocks from its parseComment', () => {
    const text = writePgn(games);
    const oracle = chessopsParsePgn(text, emptyHeaders);
    expect(oracle.length).toBe(games.length);
    oracle.forEach((o, i) => {
      const g = games[i]!;
      expect(Object.fromEntries(o.headers)).toEqual({ ...g.tags, Result: g.tags.Result ?? g.result ?? '*' });
      const pos = startingPosition(o.headers).unwrap();
      expect(makeFen(pos.toSetup())).toBe(g.startFen);
      const sans: string[] = [];
      const clocks: (number | null)[] = [];
      for (const node of o.moves.mainline()) {
        const move = parseSan(pos, node.san);
        expect(move, `game ${i + 1}: ${node.san}`).toBeDefined();
        pos.play(move!);
        sans.push(node.san);
        const c = (node.comments ?? []).map(parseComment).find((x) => x.clock !== undefined);
        clocks.push(c?.clock ?? null);
      }
      expect(sans).toEqual(g.sans);
      expect(clocks).toEqual(g.clocks);
    });
  });

  it('bad input: a clear TypeError or RangeError', () => {
    const g = games[0]!;
    expect(() => writePgn(null as never)).toThrow(TypeError);
    expect(() => writePgn([{ moves: 'e2e4' } as never])).toThrow(TypeError);
    expect(() => writePgn({ ...g, result: '2-0' })).toThrow(RangeError);
    expect(() => writePgn({ ...g, tags: { Event: 'a\nb' } })).toThrow(RangeError);
    expect(() => writePgn({ ...g, tags: { 'Bad Name': 'x' } })).toThrow(RangeError);
    expect(() => writePgn({ ...g, clocks: [-1, ...g.clocks!.slice(1)] })).toThrow(RangeError);
    expect(() => writePgn({ ...g, clocks: []  })).toThrow(RangeError);
    expect(() => writePgn({ ...g, clocks: [359999999.9999, ...g.clocks!.slice(1)] })).toThrow(RangeError);
    expect(() => writePgn({ ...g, evals: [{ cp: 0.5 }, ...g.evals!.slice(1)] })).toThrow(RangeError);
    expect(() => writePgn({ ...g, comments: [{ ply: 1, text: '}\n' }] })).toThrow(RangeError);
    expect(() => writePgn({ ...g, sans: undefined, moves: ['e2e5'] })).toThrow();
    expect(() => writePgn(g, { lineWidth: 3 })).toThrow(RangeError);
  });

  it('a game without SAN gets it written from its moves (a null move as --)', () => {
    const [back] = parsePgn(writePgn({ moves: ['e2e4', '0000', 'd2d4'] }), { backend });
    expect(back!.sans).toEqual(['e4', '--', 'd4']);
  });
});

describe.runIf(pgnExtract)('writePgn: pgn-extract reads the output', () => {
  it('no errors reported, every game extracted with its moves', () => {
    const games = parsePgn(CORPUS, { comments: true, annotations: true }).filter((g) => g.error === undefined);
    const dir = mkdtempSync(join(tmpdir(), 'bbp-pgnx-'));
    try {
      const file = join(dir, 'in.pgn');
      // Every move assessment written as its suffix: pgn-extract reads those too.
      writeFileSync(file, writePgn(games, { suffixes: true }));
      const log = join(dir, 'log');
      execFileSync(pgnExtract!, ['-s', '-r', `-l${log}`, file], { stdio: 'pipe' });
      expect(readFileSync(log, 'utf8').trim()).toBe('');
      const out = join(dir, 'out.pgn');
      execFileSync(pgnExtract!, ['-s', '-C', '-N', '-V', '--nomovenumbers', '-w1000', `-o${out}`, file], { stdio: 'pipe' });
      const again = parsePgn(readFileSync(out));
      expect(again.map((g) => g.sans)).toEqual(games.map((g) => g.sans));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// CI sets BITBOARD_PATTERNS_REQUIRE_PGN_EXTRACT=1 so that a missing pgn-extract fails instead of skipping.
describe.runIf(!pgnExtract && process.env.BITBOARD_PATTERNS_REQUIRE_PGN_EXTRACT === '1')('pgn-extract required', () => {
  it('pgn-extract is installed (BITBOARD_PATTERNS_REQUIRE_PGN_EXTRACT=1)', () => {
    expect(pgnExtract, 'install the Debian package pgn-extract').toBeDefined();
  });
});
