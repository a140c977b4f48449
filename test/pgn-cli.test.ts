/**
 * `bitboard-patterns analyze` on PGN (dist/cli.js, run `npm run build` first): the same records
 * from plain, gzip and zstd files (format found by the bytes) and from stdin with --input pgn; one
 * record per selected position with the SAN that led there and the FEN (checked against
 * parsePgn + makeMove), per-game records, error records in their place, exit codes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePgn } from '../lib/pgn.js';
import { jsApi, nativeApi } from './backends.js';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'cli.js');
const QUIRKY = readFileSync(join(root, 'test', 'fixtures', 'pgn', 'quirky.pgn'));
const dir = mkdtempSync(join(tmpdir(), 'pgn-cli-'));
writeFileSync(join(dir, 'q.pgn'), QUIRKY);
writeFileSync(join(dir, 'q.pgn.gz'), gzipSync(QUIRKY));
// A zstd frame of the fixture, written by the zstd command line tool when present.
const zstd = spawnSync('zstd', ['-q', '-f', join(dir, 'q.pgn'), '-o', join(dir, 'q.pgn.zst')]);
const haveZstd = zstd.status === 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function analyze(args: string[], input?: Buffer) {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args], { input, maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString(), records: r.stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe.each(nativeApi ? ['native', 'js'] : ['js'])('%s', (backend) => {
  const base = ['--backend', backend, '--features', 'inCheck,checkmate,pinned'];
  it('one record per position, SAN and FEN as parsePgn + makeMove give them, bad games in their place', () => {
    const r = analyze([join(dir, 'q.pgn'), ...base]);
    expect(r.status).toBe(3);
    expect(r.err).toContain('2 of 7 games had errors');
    const games = parsePgn(QUIRKY, { backend: 'js' });
    const want: unknown[] = [];
    for (const g of games) {
      if (g.error) { want.push({ game: g.game, error: g.error.message }); continue; }
      let pos = jsApi.parseFen(g.startFen);
      want.push({ game: g.game, ply: 0, san: null, fen: jsApi.toFen(pos), checkmate: false });
      g.moves.forEach((m, i) => {
        pos = m === '0000' ? jsApi.parseFen(nullMove(jsApi.toFen(pos))) : jsApi.makeMove(pos, m);
        want.push({ game: g.game, ply: i + 1, san: g.sans[i], fen: jsApi.toFen(pos), checkmate: jsApi.legalMoves(pos).length === 0 && jsApi.isInCheck(pos) });
      });
    }
    expect(r.records.map((x) => (x.error ? { game: x.game, error: x.error } : { game: x.game, ply: x.ply, san: x.san, fen: x.fen, checkmate: x.checkmate }))).toEqual(want);
  });
  it.runIf(haveZstd)('plain, gzip, zstd and stdin give the same bytes', () => {
    const plain = analyze([join(dir, 'q.pgn'), ...base]).out;
    expect(analyze([join(dir, 'q.pgn.gz'), ...base]).out).toBe(plain);
    expect(analyze([join(dir, 'q.pgn.zst'), ...base]).out).toBe(plain);
    expect(analyze(['-', '--input', 'pgn', ...base], QUIRKY).out).toBe(plain);
  });
  it('worker threads (pieces cut at game boundaries) write the same bytes as one thread', () => {
    const plain = analyze([join(dir, 'q.pgn'), ...base]).out;
    const messy = join(root, 'test', 'fixtures', 'pgn', 'messy.pgn');
    const one = analyze([messy, ...base, '--threads', '1']).out;
    expect(analyze([messy, ...base, '--threads', '3']).out).toBe(one);
    expect(analyze([join(dir, 'q.pgn'), ...base, '--threads', '1']).out).toBe(plain);
    expect(analyze([join(dir, 'q.pgn'), ...base, '--threads', '3']).out).toBe(plain);
  });
  it('--per game aggregates; --select final; usage errors', () => {
    const r = analyze([join(dir, 'q.pgn.gz'), ...base, '--per', 'game', '--tags', 'White']);
    expect(r.records.map((x) => x.plies ?? x.reason)).toEqual([85, 7, 3, 0, 22, 'illegal move', 'malformed move']);
    expect(r.records[1]).toMatchObject({ game: 2, result: '1-0', tags: { White: 'A "quoted" name' }, checkmate: 1, inCheck: 1 });
    const f = analyze([join(dir, 'q.pgn'), ...base, '--select', 'final']);
    expect(f.records.filter((x) => !x.error).map((x) => x.ply)).toEqual([85, 7, 3, 0, 22]);
    expect(analyze([join(dir, 'q.pgn'), '--per', 'move']).status).toBe(2);
    expect(analyze([join(dir, 'q.pgn'), '--strict', ...base]).status).toBe(1);
  });
});

/** The FEN after a null move: the other side to move, no en-passant square. */
function nullMove(fen: string): string {
  const f = fen.split(' ');
  f[1] = f[1] === 'w' ? 'b' : 'w';
  f[3] = '-';
  if (f[1] === 'w') f[5] = String(Number(f[5]) + 1);
  f[4] = String(Number(f[4]) + 1);
  return f.join(' ');
}
