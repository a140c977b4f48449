/**
 * `bitboard-patterns analyze` on PGN (dist/cli.cjs, run `npm run build` first): the same records
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
import { parsePgn, pgnPositions } from '../../lib/games/pgn.js';
import type { PgnNode } from '../../lib/games/pgn-tree.js';
import { openingOf } from '../../lib/games/openings.js';
import { positionOfPacked } from '../../lib/core/position.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.cjs');
const QUIRKY = readFileSync(join(root, 'test', 'fixtures', 'pgn', 'quirky.pgn'));
const dir = mkdtempSync(join(tmpdir(), 'pgn-cli-'));
writeFileSync(join(dir, 'q.pgn'), QUIRKY);
writeFileSync(join(dir, 'q.pgn.gz'), gzipSync(QUIRKY));
// A zstd frame of the fixture, written by the zstd command line tool when present.
const zstd = spawnSync('zstd', ['-q', '-f', join(dir, 'q.pgn'), '-o', join(dir, 'q.pgn.zst')]);
const haveZstd = zstd.status === 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Generated games (scripts/make-pgn.mjs), repeated into a file of several pieces, and a bad game.
const MANY = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 300, seed: 5, maxPlies: 90 });
const BAD_GAME = '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n';

function analyze(args: string[], input?: Buffer) {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args], { input, maxBuffer: 1 << 28, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString(), records: r.stdout.toString().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)) };
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
  it('many pieces on two threads (the records\' memory going back to the workers): the bytes of one thread', () => {
    // About 6 MB: six or more pieces, so each worker writes into memory the main thread gave back.
    const copies = Array.from({ length: 14 }, (_, i) => (i % 5 === 2 ? `${MANY}\n${BAD_GAME}` : MANY)).join('\n');
    const file = join(dir, `many-${backend}.pgn`);
    writeFileSync(file, copies);
    for (const format of [[], ['--format', 'csv']]) {
      const one = analyze([file, ...base, ...format, '--threads', '1']);
      expect(one.status).toBe(3);
      const two = analyze([file, ...base, ...format, '--threads', '2']);
      expect(two.status).toBe(3);
      expect(two.out.length).toBeGreaterThan(6e6);
      expect(two.out).toBe(one.out);
    }
  });
  it('--features opening: each position\'s eco and opening are openingOf of its game\'s moves up to it (every ply, --every, CSV)', () => {
    // The data set's own lines (b.tsv, every 7th) as games, with the fixtures' games (FEN starts, Chess960, bad games).
    const lines = readFileSync(join(root, 'data', 'openings', 'b.tsv'), 'utf8').trim().split('\n').slice(1).filter((_, i) => i % 7 === 0);
    const text = `${lines.map((l, i) => `[Event "line ${i}"]\n[Result "*"]\n\n${l.split('\t')[2]} *\n`).join('\n')}\n`
      + `${readFileSync(join(root, 'test', 'fixtures', 'pgn', 'chessbase.pgn'), 'utf8')}\n${QUIRKY.toString('utf8')}`;
    const file = join(dir, 'openings.pgn');
    writeFileSync(file, text);
    const games = new Map(parsePgn(text, { backend: 'js' }).filter((g) => !g.error).map((g) => [g.game, g]));
    const want = (x: { game: number; ply: number }) => {
      const g = games.get(x.game)!;
      const o = openingOf({ startFen: g.startFen, moves: g.moves.slice(0, x.ply), tags: g.tags });
      return { eco: o?.eco ?? null, opening: o?.name ?? null };
    };
    let named = 0;
    for (const select of [[], ['--every', '3', '--from-ply', '2']]) {
      const r = analyze([file, '--backend', backend, '--features', 'inCheck,opening', ...select]);
      expect(r.status).toBe(3);
      const records = r.records.filter((x) => !x.error);
      expect(records.length).toBeGreaterThan(300);
      for (const x of records) expect({ eco: x.eco, opening: x.opening }, `game ${x.game} ply ${x.ply}`).toEqual(want(x));
      named += records.filter((x) => x.eco !== null).length;
      const csv = analyze([file, '--backend', backend, '--features', 'inCheck,opening', '--format', 'csv', ...select]).out.split('\n');
      expect(csv[0]).toBe('game,ply,san,fen,inCheck,eco,opening,error');
      const rows = csv.slice(1).filter(Boolean).map(csvFields).filter((f) => f[f.length - 1] === '');
      expect(rows.map((f) => [f[5], f[6]])).toEqual(records.map((x) => [x.eco ?? '', x.opening ?? '']));
    }
    expect(named).toBeGreaterThan(200);
    const perGame = analyze([file, '--per', 'game', '--features', 'opening']);
    expect(perGame.status).toBe(2);
    expect(perGame.err).toMatch(/feature opening needs --per position/);
  });

  it('--variations: a record per node (node, parent, main_line, its SAN, clock, eval, move_see, opening) as pgnPositions and the tree give them', () => {
    const text = ['study.pgn', 'chessbase.pgn', 'quirky.pgn'].map((f) => readFileSync(join(root, 'test', 'fixtures', 'pgn', f), 'utf8')).join('\n');
    const file = join(dir, 'variations.pgn');
    writeFileSync(file, text);
    const args = [file, '--backend', backend, '--variations', '--features', 'inCheck,clock,eval,move_see,opening'];
    const r = analyze(args);
    expect(r.status).toBe(3);
    const records = r.records.filter((x) => !x.error);
    // The truth: the JS reader's tree positions, each node found by walking its game's tree in preorder.
    const ref = pgnPositions(text, { variations: true, games: true, backend: 'js' });
    expect(records.length).toBe(ref.game.length);
    const games = new Map(ref.games.map((g) => [g.game, g]));
    let start = 0;
    let order: (PgnNode | null)[] = [];
    let path: string[][] = [];
    let sideLines = 0;
    records.forEach((x, k) => {
      const g = games.get(ref.game[k]!)!;
      if (ref.node![k] === 0) {
        start = k;
        order = [null];
        path = [[]];
        const walk = (children: PgnNode[], moves: string[]) => {
          for (const c of children) { order.push(c); path.push([...moves, c.uci]); walk(c.children, [...moves, c.uci]); }
        };
        walk(g.tree!.children, []);
      }
      const id = ref.node![k]!;
      const node = order[id]!;
      const parent = ref.parent![k]!;
      const pos = positionOfPacked(ref.batch.words.subarray(10 * k, 10 * k + 10));
      const before = parent >= 0 ? positionOfPacked(ref.batch.words.subarray(10 * (start + parent), 10 * (start + parent) + 10)) : null;
      const opening = openingOf({ startFen: g.startFen, moves: path[id]!, tags: g.tags });
      expect(x, `game ${x.game} node ${id}`).toEqual({
        game: ref.game[k], ply: ref.ply[k], node: id, parent: parent < 0 ? null : parent, main_line: ref.mainLine![k] === 1,
        san: node?.san ?? null, fen: jsApi.toFen(pos), inCheck: jsApi.isInCheck(pos), clock: node?.clock ?? null,
        eval_cp: node?.eval && 'cp' in node.eval ? node.eval.cp : null, eval_mate: node?.eval && 'mate' in node.eval ? node.eval.mate : null,
        move_see: before && node!.uci !== '0000' ? jsApi.see(before, node!.uci) : null, eco: opening?.eco ?? null, opening: opening?.name ?? null,
      });
      if (ref.mainLine![k] === 0) sideLines++;
    });
    expect(sideLines).toBeGreaterThan(20);
    // CSV: the same columns in the header's order.
    const csv = analyze([...args, '--format', 'csv']).out.split('\n');
    expect(csv[0]).toBe('game,ply,node,parent,main_line,san,fen,inCheck,clock,eval_cp,eval_mate,move_see,eco,opening,error');
    const rows = csv.slice(1).filter(Boolean).map(csvFields).filter((f) => f[f.length - 1] === '');
    expect(rows.map((f) => f.slice(0, 6))).toEqual(records.map((x) => [x.game, x.ply, x.node, x.parent ?? '', x.main_line ? 1 : 0, x.san ?? ''].map(String)));
    // Threads: the same bytes.
    expect(analyze([...args, '--threads', '1']).out).toBe(r.out);
    for (const bad of [['--per', 'game'], ['--every', '2'], ['--select', 'final']]) {
      const u = analyze([file, '--variations', ...bad]);
      expect(u.status).toBe(2);
      expect(u.err).toMatch(/--variations/);
    }
  });

  it('--per game aggregates; --select final; usage errors', () => {
    const r = analyze([join(dir, 'q.pgn.gz'), ...base, '--per', 'game', '--tags', 'White']);
    expect(r.records.map((x) => x.plies ?? x.reason)).toEqual([85, 7, 3, 0, 22, 'illegal move', 'malformed move']);
    expect(r.records[1]).toMatchObject({ game: 2, result: '1-0', tags: { White: 'A "quoted" name' }, checkmate: 1, inCheck: 1 });
    // The rules' outcome: 4. Qxf7# mates (FIDE Laws 5.1.1); the Fischer-Spassky draw of game 1 was
    // agreed, no rule ends it.
    expect(r.records[1]).toMatchObject({ outcome: '1-0', termination: 'checkmate' });
    expect(r.records[0]).toMatchObject({ outcome: null, termination: null });
    expect(analyze([join(dir, 'q.pgn'), ...base, '--per', 'game', '--tags', 'White', '--threads', '3']).out).toBe(r.out);
    const f = analyze([join(dir, 'q.pgn'), ...base, '--select', 'final']);
    expect(f.records.filter((x) => !x.error).map((x) => x.ply)).toEqual([85, 7, 3, 0, 22]);
    expect(analyze([join(dir, 'q.pgn'), '--per', 'move']).status).toBe(2);
    expect(analyze([join(dir, 'q.pgn'), '--strict', ...base]).status).toBe(1);
  });
});

// Endgames from FEN tags (3 and 4 men, in the Syzygy fixtures), a bad game and an opening (no table).
const ENDGAMES = `[Event "KPK"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"]

1. Kd2 Kd5 2. Kd3 Ke5 3. e4 Kf4 4. Kd4 Kf3 5. e5 *

[Event "KRKP"]
[SetUp "1"]
[FEN "8/8/8/8/2k5/8/1p6/1K2R3 b - - 0 40"]

40... Kb3 41. Re3+ Kb4 42. Kxb2 *

[Event "Bad"]

1. e4 e5 2. Ke3 *

[Event "Opening"]

1. e4 e5 2. Nf3 *
`;
writeFileSync(join(dir, 'eg.pgn'), ENDGAMES);
const tables = join(root, 'test', 'fixtures', 'syzygy');

/** Splits a CSV line (quoted fields with "" escapes). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        v += line.slice(i, q);
        i = q + 1;
        if (line[i] === '"') { v += '"'; i++; } else break;
      }
      out.push(v);
      i++;
    } else {
      const c = line.indexOf(',', i);
      const e = c < 0 ? line.length : c;
      out.push(line.slice(i, e));
      i = e + 1;
    }
  }
  return out;
}

describe.each(nativeApi ? ['native', 'js'] : ['js'])('%s: CSV and --syzygy on PGN input against the FEN path', (backend) => {
  const features = 'inCheck,pinned,legalMoveCount,attacked';
  const rows = (out: string) => out.split('\n').filter(Boolean).map(csvFields);

  it('per position: the FEN path on the same FENs gives the same feature, wdl and dtz columns', () => {
    const r = analyze([join(dir, 'eg.pgn'), '--backend', backend, '--features', features, '--format', 'csv', '--syzygy', tables]);
    expect(r.status).toBe(3);
    const [header, ...body] = rows(r.out);
    expect(header).toEqual(['game', 'ply', 'san', 'fen', 'inCheck', 'pinned_w', 'pinned_b', 'legalMoveCount', 'attacked_w', 'attacked_b', 'wdl', 'dtz', 'error']);
    const good = body.filter((f) => f[12] === '');
    const bad = body.filter((f) => f[12] !== '');
    // The bad game: its number and parsePgn's message, every other column empty.
    const games = parsePgn(ENDGAMES, { backend: 'js' });
    expect(bad).toEqual([['3', '', '', '', '', '', '', '', '', '', '', '', games[2]!.error!.message]]);
    expect(good.map((f) => `${f[0]}:${f[1]}:${f[2]}`)).toEqual([
      ...['', 'Kd2', 'Kd5', 'Kd3', 'Ke5', 'e4', 'Kf4', 'Kd4', 'Kf3', 'e5'].map((s, i) => `1:${i}:${s}`),
      ...['', 'Kb3', 'Re3+', 'Kb4', 'Kxb2'].map((s, i) => `2:${i}:${s}`),
      ...['', 'e4', 'e5', 'Nf3'].map((s, i) => `4:${i}:${s}`),
    ]);
    // The FEN path (lib/cli/analyze.ts) on the fen column.
    writeFileSync(join(dir, 'eg.fen'), good.map((f) => f[3]).join('\n'));
    const fen = analyze([join(dir, 'eg.fen'), '--backend', backend, '--features', features, '--format', 'csv', '--syzygy', tables]);
    expect(fen.status).toBe(0);
    const [fenHeader, ...fenBody] = rows(fen.out);
    expect(fenHeader.slice(2)).toEqual(header!.slice(4));
    expect(good.map((f) => f.slice(3))).toEqual(fenBody.map((f) => f.slice(1)));
    // Tables found for the endgames, none for the opening.
    expect(good.filter((f) => f[0] !== '4').every((f) => f[10] !== '' && f[11] !== '')).toBe(true);
    expect(good.filter((f) => f[0] === '4').every((f) => f[10] === '' && f[11] === '')).toBe(true);
  });

  it('NDJSON with --syzygy (one and several threads): wdl and dtz as the FEN path gives them', () => {
    const one = analyze([join(dir, 'eg.pgn'), '--backend', backend, '--features', 'inCheck,wdl,dtz', '--syzygy', tables, '--threads', '1']);
    expect(analyze([join(dir, 'eg.pgn'), '--backend', backend, '--features', 'inCheck,wdl,dtz', '--syzygy', tables, '--threads', '3']).out).toBe(one.out);
    const good = one.records.filter((x) => !x.error);
    writeFileSync(join(dir, 'eg2.fen'), good.map((x) => x.fen).join('\n'));
    const fen = analyze([join(dir, 'eg2.fen'), '--backend', backend, '--features', 'inCheck', '--syzygy', tables]);
    expect(good.map((x) => [x.inCheck, x.wdl, x.dtz])).toEqual(fen.records.map((x) => [x.inCheck, x.wdl, x.dtz]));
    expect(good.some((x) => x.wdl === null) && good.some((x) => x.wdl !== null)).toBe(true);
  });

  it('per game CSV: tags as columns, sums as parsePgn + the API give them; usage errors', () => {
    const r = analyze([join(dir, 'eg.pgn'), '--backend', backend, '--per', 'game', '--format', 'csv', '--features', 'inCheck,legalMoveCount', '--tags', 'Event,White']);
    const [header, ...body] = rows(r.out);
    expect(header).toEqual(['game', 'result', 'plies', 'outcome', 'termination', 'eco', 'opening', 'Event', 'White', 'inCheck', 'legalMoveCount', 'error']);
    const api = backend === 'native' ? nativeApi! : jsApi;
    const want = parsePgn(ENDGAMES, { backend: 'js' }).map((g) => {
      if (g.error) return [String(g.game), '', '', '', '', '', '', '', '', '', '', g.error.message];
      const opening = openingOf(g);
      let pos = api.parseFen(g.startFen);
      let checks = api.isInCheck(pos) ? 1 : 0;
      let moves = api.legalMoves(pos).length;
      for (const m of g.moves) {
        pos = api.makeMove(pos, m);
        checks += api.isInCheck(pos) ? 1 : 0;
        moves += api.legalMoves(pos).length;
      }
      const outcome = !g.outcome ? '' : g.outcome.winner === 'white' ? '1-0' : g.outcome.winner === 'black' ? '0-1' : '1/2-1/2';
      return [String(g.game), g.result ?? '', String(g.moves.length), outcome, g.outcome?.termination ?? '', opening?.eco ?? '', opening?.name ?? '',
        g.tags.Event!, '', String(checks), String(moves), ''];
    });
    expect(body).toEqual(want);
    // The opening game (1. e4 e5 2. Nf3) is named by the data set's line of the same moves.
    expect(body.find((f) => f[0] === '4')!.slice(5, 7)).toEqual(['C40', "King's Knight Opening"]);
    expect(analyze([join(dir, 'eg.pgn'), '--per', 'game', '--syzygy', tables]).status).toBe(2);
    expect(analyze([join(dir, 'eg.pgn'), '--features', 'wdl']).status).toBe(2);
    expect(analyze([join(dir, 'eg.pgn'), '--format', 'xml']).status).toBe(2);
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
