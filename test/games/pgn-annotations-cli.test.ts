/**
 * `bitboard-patterns analyze` on PGN with the features clock and eval (dist/cli.cjs, run
 * `npm run build` first): per position the [%clk] and [%eval] of the move that led there. Truth: the
 * reference reader of test/games/annotations-reference.ts on games written with known comments; and the
 * same bytes from both backends, one thread and the worker threads, NDJSON and CSV.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePgn } from '../../lib/games/pgn.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { annotatedGame } from './annotations-reference.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { rng } from '../patterns/reference.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'pgn-annot-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const jsSan = createSanApi('js');
const random = rng(3);
const PIECES = ['[%clk 0:03:00]', '[%clk 1:02:03.4]', '[%clk 0:60:00]', '[%eval 0.17]', '[%eval -1.234]', '[%eval #-3]', '[%eval #2,20]',
  '[%emt 0:00:05]', ' text ', '[%eval x]', '[%clk'];
const games = parsePgn(makePgn({ ...jsApi, toSan: jsSan.toSan }, { games: 30, seed: 17, maxPlies: 40 }), { backend: 'js' })
  .filter((g) => !g.error && g.tags.FEN === undefined);
const written = games.map((g) => {
  const comments = new Map<number, string>();
  for (let ply = 1; ply <= g.sans.length; ply++) {
    if (random() < 0.6) comments.set(ply, Array.from({ length: 1 + Math.floor(random() * 3) }, () => PIECES[Math.floor(random() * PIECES.length)]).join(' '));
  }
  return annotatedGame(g, comments);
});
const file = join(dir, 'annotated.pgn');
writeFileSync(file, written.map((w) => w.text).join('\n'));

function analyze(args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'analyze', file, ...args], { maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

describe.each(nativeApi ? ['native', 'js'] : ['js'])('analyze --features clock,eval (%s)', (backend) => {
  it('each position gets the clock and eval of the move that led to it (NDJSON)', () => {
    const r = analyze(['--backend', backend, '--features', 'inCheck,clock,eval', '--threads', '1']);
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    const records = r.out.trim().split('\n').map((l) => JSON.parse(l));
    const want = written.flatMap((w, gi) => [null, ...w.clocks.keys()].map((_, ply) => {
      const e = ply > 0 ? w.evals[ply - 1] : null;
      return { game: gi + 1, ply, clock: ply > 0 ? w.clocks[ply - 1] : null,
        eval_cp: e && 'cp' in e ? e.cp : null, eval_mate: e && 'mate' in e ? e.mate : null };
    }));
    expect(records.map((x) => ({ game: x.game, ply: x.ply, clock: x.clock, eval_cp: x.eval_cp, eval_mate: x.eval_mate }))).toEqual(want);
    expect(want.some((x) => x.clock !== null) && want.some((x) => x.eval_mate !== null)).toBe(true);
  });

  it('CSV columns clock, eval_cp, eval_mate hold the NDJSON values; worker threads write the same bytes', () => {
    const args = ['--backend', backend, '--features', 'clock,eval,checkmate'];
    const ndjson = analyze([...args, '--threads', '1']).out.trim().split('\n').map((l) => JSON.parse(l));
    const csv = analyze([...args, '--threads', '1', '--format', 'csv']).out;
    const [header, ...rows] = csv.trim().split('\n');
    expect(header).toBe('game,ply,san,fen,checkmate,clock,eval_cp,eval_mate,error');
    const cell = (v: string) => (v === '' ? null : Number(v));
    expect(rows.map((row) => { const c = row.split(','); return [cell(c[5]!), cell(c[6]!), cell(c[7]!)]; }))
      .toEqual(ndjson.map((x) => [x.clock, x.eval_cp, x.eval_mate]));
    expect(analyze([...args, '--threads', '2', '--format', 'csv']).out).toBe(csv);
    expect(analyze([...args, '--threads', '2']).out).toBe(analyze([...args, '--threads', '1']).out);
  });

  it('clock and eval with --per game is a usage error', () => {
    expect(analyze(['--backend', backend, '--features', 'clock', '--per', 'game']).status).toBe(2);
  });
});

describe.runIf(nativeApi)('analyze --features clock,eval: both backends write the same bytes', () => {
  it('NDJSON and CSV', () => {
    for (const format of ['ndjson', 'csv']) {
      const args = ['--features', 'clock,eval,pinned', '--format', format, '--threads', '2'];
      expect(analyze(['--backend', 'native', ...args]).out).toBe(analyze(['--backend', 'js', ...args]).out);
    }
  });
});
