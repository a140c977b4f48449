/**
 * filterPgn / readFilteredPgn (lib/games/pgn-copy.ts): the kept games' own text. Truths: a
 * brute-force tag filter written here over parsePgn's games; for --dedupe, the final positions
 * replayed with makeMove and written with toFen (first four fields); chessops' PGN parser as a
 * live oracle reading the output (the same headers and main-line SAN as it reads in the input, the
 * variations kept); pgn-extract (Debian package pgn-extract) when installed, reporting no error;
 * the other reader (native and JS give the same bytes). The normalisations (a tagless game, a
 * blank line inside a tag section, a missing termination marker) are checked against the rules of
 * the PGN standard's sections 8.1.1 and 8.2.6, with fixtures written here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyHeaders, parsePgn as chessopsParsePgn } from 'chessops/pgn';
import { describe, expect, it } from 'vitest';
import { filterPgn, readFilteredPgn } from '../../lib/games/pgn-copy.js';
import { PgnError, parsePgn, type PgnGame } from '../../lib/games/pgn.js';
import { writePgn } from '../../lib/games/pgn-write.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

const pgnExtract = ['/usr/bin/pgn-extract', '/usr/games/pgn-extract'].find((p) => existsSync(p));
const readers = nativeApi ? (['native', 'js'] as const) : (['js'] as const);

// A corpus with the tags users filter on; some games twice (the same moves under other tags).
const jsSan = createSanApi('js');
const random = rng(7);
const base = parsePgn(makePgn({ ...jsApi, toSan: jsSan.toSan }, { games: 60, seed: 11, maxPlies: 50 }), { comments: true, annotations: true })
  .filter((g) => !g.error);
const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;
const corpusGames: PgnGame[] = [...base, ...base.slice(0, 10)].map((g) => {
  const result = pick(['1-0', '0-1', '1/2-1/2', '*'] as const);
  const tags: Record<string, string> = { ...g.tags, Result: result, TimeControl: pick(['180+2', '60+0']), Termination: pick(['Normal', 'Time forfeit']) };
  if (random() < 0.9) tags.WhiteElo = String(1200 + Math.floor(random() * 1600));
  if (random() < 0.9) tags.BlackElo = String(1200 + Math.floor(random() * 1600));
  return { ...g, tags, result };
});
const CORPUS = writePgn(corpusGames);

/** The main line's SAN and the headers of each game, as chessops reads a text. */
function oracle(text: string) {
  return chessopsParsePgn(text, emptyHeaders).map((g) => ({ headers: Object.fromEntries(g.headers), sans: [...g.moves.mainline()].map((n) => n.san) }));
}

function finalKey(g: PgnGame): string {
  let pos = jsApi.parseFen(g.startFen);
  for (const m of g.moves) pos = jsApi.makeMove(pos, m);
  return jsApi.toFen(pos).split(' ').slice(0, 4).join(' ');
}

const text = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('utf8');

describe.each(readers)('filterPgn (%s reader)', (backend) => {
  it('keeps what a brute-force tag filter keeps, each game as its own text', () => {
    const r = filterPgn(CORPUS, { backend, minElo: 1400, timeControls: ['180+2'], results: ['1-0', '1/2-1/2'], terminations: ['normal'] });
    const want = corpusGames.filter((g) => {
      const w = Number(g.tags.WhiteElo ?? NaN);
      const b = Number(g.tags.BlackElo ?? NaN);
      return w >= 1400 && b >= 1400 && g.tags.TimeControl === '180+2' && ['1-0', '1/2-1/2'].includes(g.tags.Result!) && g.tags.Termination === 'Normal';
    });
    expect(want.length).toBeGreaterThan(1);
    expect(r.kept).toBe(want.length);
    expect(r.errors).toEqual([]);
    // Each kept game's text is its text in the source (the source's games end with a blank line).
    const sourceTexts = CORPUS.split(/\n\n(?=\[Event )/).map((t) => t.trimEnd());
    const byEvent = new Map(sourceTexts.map((t) => [t, t]));
    const outTexts = text(r.pgn).split(/\n\n(?=\[Event )/).map((t) => t.trimEnd());
    for (const t of outTexts) expect(byEvent.has(t)).toBe(true);
    const back = parsePgn(r.pgn, { comments: true, annotations: true });
    expect(back.map((g) => [g.tags, g.moves, g.comments, g.clocks, g.evals])).toEqual(want.map((g) => [g.tags, g.moves, g.comments, g.clocks, g.evals]));
    expect(oracle(text(r.pgn))).toEqual(oracle(writePgn(want)));
  });

  it('dedupe keeps the first game ending in each position (FEN fields 1-4)', () => {
    const seen = new Set<string>();
    const want = corpusGames.filter((g) => { const k = finalKey(g); if (seen.has(k)) return false; seen.add(k); return true; });
    expect(want.length).toBeLessThan(corpusGames.length);
    const r = filterPgn(Buffer.from(CORPUS), { backend, dedupe: true });
    expect(parsePgn(r.pgn).map((g) => g.tags.Event)).toEqual(want.map((g) => g.tags.Event));
  });

  it('a stream in small chunks gives the same bytes as the text in one piece; the other reader too', async () => {
    const whole = filterPgn(CORPUS, { backend, dedupe: true, maxElo: 2500 });
    const chunks: Uint8Array[] = [];
    async function* pieces() { for (let i = 0; i < CORPUS.length; i += 997) yield CORPUS.slice(i, i + 997); }
    for await (const c of readFilteredPgn(pieces(), { backend, dedupe: true, maxElo: 2500 })) chunks.push(c.pgn);
    expect(Buffer.concat(chunks).equals(Buffer.from(whole.pgn))).toBe(true);
    const other = filterPgn(CORPUS, { backend: backend === 'js' ? 'native' : 'js', dedupe: true, maxElo: 2500 });
    if (nativeApi) expect(Buffer.from(other.pgn).equals(Buffer.from(whole.pgn))).toBe(true);
  });

  it('variations, comments, NAGs and the file\'s own notation are kept; chessops reads the variation', () => {
    const src = '[Event "v"]\n[Result "1-0"]\n\n1. e4 (1. d4 d5 {the other}) 1... e5!? $14 2. Ngf3 1-0\n';
    const r = filterPgn(src, { backend });
    expect(text(r.pgn)).toBe(`${src.trimEnd()}\n\n`);
    const [g] = chessopsParsePgn(text(r.pgn), emptyHeaders);
    expect([...g!.moves.children].map((n) => n.data.san)).toEqual(['e4', 'd4']);
  });

  it('normalises only what a reader could misread: tagless game, blank line in the tags, missing marker', () => {
    // PGN standard 8.1.1: the Seven Tag Roster; 8.2.6: every game ends with a termination marker.
    const roster = '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n';
    const src = '1. e4 e5\n\n[Event "cb"]\n[White "a"]\n\n[Black "b"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n\n' +
      '[Event "no marker"]\n[Result "1-0"]\n\n1. c4 ; a comment to the line end\n\n[Event "tags only"]\n[Result "1/2-1/2"]\n';
    const r = filterPgn(src, { backend });
    expect(text(r.pgn)).toBe(`${roster}[Result "*"]\n\n1. e4 e5\n*\n\n` +
      '[Event "cb"]\n[White "a"]\n[Black "b"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n\n' +
      '[Event "no marker"]\n[Result "1-0"]\n\n1. c4 ; a comment to the line end\n1-0\n\n' +
      '[Event "tags only"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n\n');
    // The same games as the source, for our reader and for chessops.
    const mine = (t: string | Uint8Array) => parsePgn(t, { backend, comments: true }).map((g) => [g.moves, g.comments, g.tags.White ?? '?', g.result]);
    expect(mine(r.pgn)).toEqual(mine(src).map(([m, c, w], i) => [m, c, w, ['*', '0-1', '1-0', '1/2-1/2'][i]]));
    expect(oracle(text(r.pgn)).map((g) => g.sans)).toEqual([['e4', 'e5'], ['d4', 'd5'], ['c4'], []]);
  });

  it('bad games are left out and reported as PgnErrors, as parsePgn reports them; bad options throw', () => {
    const messy = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'pgn', 'messy.pgn'));
    const all = parsePgn(messy, { backend });
    const r = filterPgn(messy, { backend });
    expect(r.errors.map((e) => e.message)).toEqual(all.filter((g) => g.error).map((g) => g.error!.message));
    for (const e of r.errors) expect(e).toBeInstanceOf(PgnError);
    expect(parsePgn(r.pgn).map((g) => g.moves)).toEqual(all.filter((g) => !g.error).map((g) => g.moves));
    expect(() => filterPgn(42 as never)).toThrow(TypeError);
    expect(() => filterPgn('', null as never)).toThrow(TypeError);
    expect(() => filterPgn('', { backend: 'wasm' as never })).toThrow(RangeError);
    expect(() => filterPgn('', { dedupe: 'yes' as never })).toThrow(TypeError);
    expect(() => filterPgn('', { minElo: -1 })).toThrow(RangeError);
    expect(() => filterPgn('', { results: ['2-0'] })).toThrow(RangeError);
  });
});

describe.runIf(pgnExtract)('filterPgn: pgn-extract reads the output', () => {
  it('no errors reported, every game extracted with its moves', () => {
    const r = filterPgn(CORPUS, { dedupe: true });
    const dir = mkdtempSync(join(tmpdir(), 'bbp-pgncopy-'));
    try {
      const file = join(dir, 'in.pgn');
      writeFileSync(file, r.pgn);
      const log = join(dir, 'log');
      execFileSync(pgnExtract!, ['-s', '-r', `-l${log}`, file], { stdio: 'pipe' });
      expect(readFileSync(log, 'utf8').trim()).toBe('');
      const out = join(dir, 'out.pgn');
      execFileSync(pgnExtract!, ['-s', '-C', '-N', '-V', '--nomovenumbers', '-w1000', `-o${out}`, file], { stdio: 'pipe' });
      expect(parsePgn(readFileSync(out)).map((g) => g.moves)).toEqual(parsePgn(r.pgn).map((g) => g.moves));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
