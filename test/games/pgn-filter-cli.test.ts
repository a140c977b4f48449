/**
 * `bitboard-patterns pgn filter` through the built CLI (dist/cli.cjs, run `npm run build` first).
 * Truths: a brute-force filter written here over the games' tags; for --dedupe, the final
 * positions replayed move by move with makeMove and written with toFen (first four fields);
 * pgn-extract (Debian package pgn-extract) as the anchor for the tag filters when installed (its
 * tag criteria file: "WhiteElo >= N", "TimeControl ...", -Tr for the result); the output read back
 * with parsePgn. Both readers (--backend).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePgn, type PgnGame } from '../../lib/games/pgn.js';
import { writePgn } from '../../lib/games/pgn-write.js';
import { createSanApi } from '../../lib/games/san.js';
import { openingOf } from '../../lib/games/openings.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'pgn-filter-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pgnExtract = ['/usr/bin/pgn-extract', '/usr/games/pgn-extract'].find((p) => existsSync(p));
const STUDY = join(root, 'test', 'fixtures', 'pgn', 'study.pgn');

// A corpus with the tags users filter on, some games twice (the same moves under other tags).
const jsSan = createSanApi('js');
const random = rng(99);
const base = parsePgn(makePgn({ ...jsApi, toSan: jsSan.toSan }, { games: 80, seed: 5, maxPlies: 60 }), { comments: true, annotations: true })
  .filter((g) => !g.error);
const TCS = ['180+2', '60+0', '600+5', '-'];
const TERMS = ['Normal', 'Time forfeit', 'Abandoned'];
const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];
const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)]!;
const elo = (): string | undefined => (random() < 0.1 ? undefined : random() < 0.05 ? '?' : String(1200 + Math.floor(random() * 1600)));
const corpus: PgnGame[] = [...base, ...base.slice(0, 15)].map((g) => {
  const tags: Record<string, string> = { ...g.tags };
  const result = pick(RESULTS);
  tags.Result = result;
  const w = elo();
  const b = elo();
  if (w !== undefined) tags.WhiteElo = w;
  if (b !== undefined) tags.BlackElo = b;
  tags.TimeControl = pick(TCS);
  tags.Termination = pick(TERMS);
  return { ...g, tags, result: result as PgnGame['result'] };
});
const file = join(dir, 'corpus.pgn');
writeFileSync(file, writePgn(corpus));
writeFileSync(join(dir, 'corpus.pgn.gz'), gzipSync(readFileSync(file)));

function pgnCli(args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'pgn', ...args], { maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

const eloOf = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : null);
const events = (games: readonly PgnGame[]) => games.map((g) => `${g.tags.Event}|${g.tags.TimeControl}|${g.tags.Result}|${g.tags.WhiteElo}|${g.tags.BlackElo}`);

/** The final position's first four FEN fields, replayed move by move. */
function finalKey(g: PgnGame): string {
  let pos = jsApi.parseFen(g.startFen);
  for (const m of g.moves) pos = jsApi.makeMove(pos, m);
  return jsApi.toFen(pos).split(' ').slice(0, 4).join(' ');
}

describe.each(nativeApi ? ['native', 'js'] : ['js'])('pgn filter (%s)', (backend) => {
  it('tag filters select what a brute-force filter selects, written as PGN that reads back', () => {
    const r = pgnCli(['filter', file, '--backend', backend, '--min-elo', '1800', '--max-elo', '2600', '--time-control', '180+2,600+5',
      '--result', '1-0', '--result', '1/2-1/2', '--termination', 'normal']);
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const want = corpus.filter((g) => {
      const w = eloOf(g.tags.WhiteElo);
      const b = eloOf(g.tags.BlackElo);
      return w !== null && b !== null && w >= 1800 && b >= 1800 && w <= 2600 && b <= 2600 && ['180+2', '600+5'].includes(g.tags.TimeControl!) &&
        ['1-0', '1/2-1/2'].includes(g.tags.Result!) && g.tags.Termination === 'Normal';
    });
    const got = parsePgn(r.out, { comments: true, annotations: true });
    expect(want.length).toBeGreaterThan(0);
    expect(events(got)).toEqual(events(want));
    expect(got.map((g) => [g.moves, g.clocks, g.evals])).toEqual(want.map((g) => [g.moves, g.clocks, g.evals]));
  });

  it('--dedupe keeps the first game ending in each position (FEN fields 1-4); gzip input and --out files', () => {
    const out = join(dir, `dedupe-${backend}.pgn`);
    const r = pgnCli(['filter', join(dir, 'corpus.pgn.gz'), '--backend', backend, '--dedupe', '--out', out]);
    expect(r.status).toBe(0);
    const seen = new Set<string>();
    const want = corpus.filter((g) => { const k = finalKey(g); if (seen.has(k)) return false; seen.add(k); return true; });
    expect(want.length).toBeLessThan(corpus.length);
    expect(events(parsePgn(readFileSync(out)))).toEqual(events(want));
  });

  it.runIf(spawnSync('zstd', ['--version']).status === 0)('--out FILE.pgn.zst writes zstd that reads back to the same PGN', () => {
    const out = join(dir, `all-${backend}.pgn.zst`);
    expect(pgnCli(['filter', file, '--backend', backend, '--out', out]).status).toBe(0);
    const plain = spawnSync('zstd', ['-d', '-c', out]).stdout.toString();
    expect(plain).toBe(pgnCli(['filter', file, '--backend', backend]).out);
    expect(parsePgn(plain).length).toBe(corpus.length);
  });

  it('by default each game is its own text; --export writes the games again as writePgn does', () => {
    const want = corpus.filter((g) => g.tags.Result === '0-1');
    const copied = pgnCli(['filter', file, '--backend', backend, '--result', '0-1']);
    const own = readFileSync(file, 'utf8').split(/\n\n(?=\[Event )/).map((t) => t.trimEnd());
    expect(copied.out.split(/\n\n(?=\[Event )/).map((t) => t.trimEnd())).toEqual(own.filter((t) => t.includes('[Result "0-1"]')));
    const exported = pgnCli(['filter', file, '--backend', backend, '--result', '0-1', '--export']);
    expect(exported.status).toBe(0);
    // Written from the games' trees: the same moves, clocks and evals, and the same trees as the copies.
    const again = parsePgn(exported.out, { variations: true, annotations: true });
    expect(again.map((g) => [g.moves, g.clocks, g.evals, g.tags])).toEqual(want.map((g) => [g.moves, g.clocks, g.evals, g.tags]));
    expect(again.map((g) => g.tree)).toEqual(parsePgn(copied.out, { variations: true }).map((g) => g.tree));
  });

  it('--export keeps variations, comments, NAGs and shapes (the study fixture read back as trees)', () => {
    const r = pgnCli(['filter', STUDY, '--backend', backend, '--export']);
    expect(r.status).toBe(3);
    const want = parsePgn(readFileSync(STUDY), { variations: true }).filter((g) => !g.error);
    expect(parsePgn(r.out, { variations: true }).map((g) => g.tree)).toEqual(want.map((g) => g.tree));
  });

  it('--eco and --opening select by the opening openingOf names, in both modes', () => {
    const named = corpus.map((g) => openingOf(g));
    expect(named.filter((o) => o !== null).length).toBeGreaterThan(10);
    const byEco = (lo: string, hi: string) => corpus.filter((_, i) => named[i] !== null && named[i]!.eco >= lo && named[i]!.eco <= hi);
    const byName = (p: string) => corpus.filter((_, i) => named[i]?.name.toLowerCase().startsWith(p.toLowerCase()));
    const a = named.find((o) => o !== null)!;
    const family = a.name.split(':')[0]!;
    for (const mode of [[], ['--export']]) {
      expect(events(parsePgn(pgnCli(['filter', file, '--backend', backend, '--eco', 'A00-B99', ...mode]).out))).toEqual(events(byEco('A00', 'B99')));
      expect(events(parsePgn(pgnCli(['filter', file, '--backend', backend, '--eco', a.eco, ...mode]).out))).toEqual(events(byEco(a.eco, a.eco)));
      expect(events(parsePgn(pgnCli(['filter', file, '--backend', backend, '--opening', family.toUpperCase(), ...mode]).out))).toEqual(events(byName(family)));
    }
    expect(pgnCli(['filter', file, '--eco', 'Z12']).status).toBe(2);
    expect(pgnCli(['filter', file, '--eco', 'B99-B90']).status).toBe(2);
  });

  it('bad games are reported and left out (exit code 3); bad usage exits 2; a missing file 1', () => {
    const messy = join(root, 'test', 'fixtures', 'pgn', 'messy.pgn');
    const r = pgnCli(['filter', messy, '--backend', backend]);
    expect(r.status).toBe(3);
    const all = parsePgn(readFileSync(messy));
    expect(r.err).toContain(`${all.filter((g) => g.error).length} games could not be read`);
    for (const g of all.filter((x) => x.error)) expect(r.err).toContain(g.error!.message);
    expect(parsePgn(r.out).map((g) => g.moves)).toEqual(all.filter((g) => !g.error).map((g) => g.moves));
    expect(pgnCli(['filter', file, '--min-elo', 'x']).status).toBe(2);
    expect(pgnCli(['filter', file, '--result', '2-0']).status).toBe(2);
    expect(pgnCli(['filter']).status).toBe(2);
    expect(pgnCli(['sort', file]).status).toBe(2);
    expect(pgnCli(['filter', join(dir, 'missing.pgn')]).status).toBe(1);
  });
});

describe.runIf(pgnExtract)('pgn filter agrees with pgn-extract', () => {
  const extract = (args: string[]) => parsePgn(spawnSync(pgnExtract!, ['-s', ...args, file], { maxBuffer: 1 << 28 }).stdout);
  const ours = (args: string[]) => parsePgn(pgnCli(['filter', file, ...args]).out);
  it('ratings, time control, result and termination', () => {
    const tagFile = (name: string, lines: string[]) => { const p = join(dir, name); writeFileSync(p, `${lines.join('\n')}\n`); return `-t${p}`; };
    expect(events(ours(['--min-elo', '2000']))).toEqual(events(extract([tagFile('a', ['WhiteElo >= "2000"', 'BlackElo >= "2000"'])])));
    expect(events(ours(['--max-elo', '1900']))).toEqual(events(extract([tagFile('b', ['WhiteElo <= "1900"', 'BlackElo <= "1900"'])])));
    expect(events(ours(['--time-control', '180+2']))).toEqual(events(extract([tagFile('c', ['TimeControl "180+2"'])])));
    expect(events(ours(['--termination', 'Time forfeit']))).toEqual(events(extract([tagFile('d', ['Termination "Time forfeit"'])])));
    expect(events(ours(['--result', '0-1']))).toEqual(events(extract(['-Tr0-1'])));
  });
});
