/**
 * Chess960 games in the opening explorer (lib/games/explorer.ts, `bitboard-patterns explore`), on
 * both readers: they are kept apart from standard games. A standard tree passes them over
 * (`skipped`), a Chess960 tree (`{ chess960: true }`) counts only them, with castling as the king
 * taking its own rook, and its Polyglot book stores that move unchanged (the format's castling move:
 * "Polyglot book format", http://hgm.nubati.net/book_format.html).
 *
 * Truth: chessops (a dev dependency, test/support/explorer-reference.ts) replays each game's SAN from
 * its Variant and FEN tags (chessops writes castling as the king taking its rook, in standard chess
 * and Chess960 alike); each position's key is the JS backend's polyglotKey of chessops's FEN
 * (test/games/polyglot-chess960.test.ts holds that key to the format's description on Chess960
 * positions).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSquare } from 'chessops/util';
import { exploreGames, OpeningTree } from '../../lib/games/explorer.js';
import { PolyglotBook } from '../../lib/games/polyglot.js';
import { createSanApi } from '../../lib/games/san.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { referenceTree, sortedRows } from '../support/explorer-reference.js';
import { rng } from '../patterns/reference.js';
import { chess960StartFen } from '../../lib/core/chess960.js';
import type { Position } from '../../lib/core/types.js';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'explore960-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAX_PLY = 10;
const toSan = createSanApi('js').toSan;
const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

/** A game's PGN from `start` (FEN), random moves that castle whenever they can (SAN by our writer). */
function game(next: () => number, start: string, chess960: boolean, event: string): string {
  let pos: Position = jsApi.parseFen(start, { chess960 });
  const sans: string[] = [];
  for (let ply = 0; ply < 16; ply++) {
    const moves = jsApi.legalMoves(pos);
    if (moves.length === 0) break;
    const san = moves.map((m) => toSan(pos, m));
    const castles = san.map((s, i) => (s.startsWith('O-O') ? i : -1)).filter((i) => i >= 0);
    const pick = castles.length && next() < 0.8 ? castles[Math.floor(next() * castles.length)]! : Math.floor(next() * moves.length);
    sans.push(`${ply % 2 === 0 ? `${ply / 2 + 1}. ` : ''}${san[pick]}`);
    pos = jsApi.makeMove(pos, moves[pick]!);
  }
  const result = RESULTS[Math.floor(next() * RESULTS.length)]!;
  const setUp = `[SetUp "1"]\n[FEN "${start}"]\n`;
  const tags = chess960 ? `[Variant "Chess960"]\n${setUp}` : start.startsWith('rnbqkbnr/') ? '' : setUp;
  return `[Event "${event}"]\n${tags}[Result "${result}"]\n\n${sans.join(' ')} ${result}\n`;
}

/** Chess960 start positions without the minor pieces and queens (so the kings castle at once), and whole ones. */
function corpus(seed: number): { chess960: string; standard: string } {
  const next = rng(seed);
  const c960: string[] = [];
  const standard: string[] = [];
  for (let i = 0; i < 60; i++) {
    const n = Math.floor(next() * 960);
    let fen = chess960StartFen(i === 0 ? 518 : n);
    if (i % 2 === 1) {
      const [board, ...rest] = fen.split(' ');
      fen = [board!.replace(/[nbqNBQ]/g, '1').replace(/\d+/g, (d) => String([...d].reduce((s, c) => s + Number(c), 0))), ...rest].join(' ');
    }
    c960.push(game(next, fen, true, `960 ${i}`));
    standard.push(game(next, i % 2 ? 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1' : 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', false, `std ${i}`));
  }
  return { chess960: c960.join('\n'), standard: standard.join('\n') };
}

const { chess960: C960, standard: STANDARD } = corpus(960);
const MIXED = `${C960}\n${STANDARD}`;

const REF_960 = sortedRows(referenceTree(MIXED, MAX_PLY, true));
const REF_STANDARD = sortedRows(referenceTree(MIXED, MAX_PLY));
const BACKENDS = nativeApi ? (['js', 'native'] as const) : (['js'] as const);

it('the corpus castles in Chess960 games with the king moving, not moving, and from e1 with the rook on h1', () => {
  const castles = REF_960.filter((r) => r.castling);
  expect(castles.length).toBeGreaterThan(20);
  expect(castles.some((r) => r.move === 'e1h1' || r.move === 'e8h8')).toBe(true);
  expect(castles.some((r) => !['e1h1', 'e1a1', 'e8h8', 'e8a8'].includes(r.move))).toBe(true);
  expect(REF_STANDARD.some((r) => r.castling)).toBe(true);
});

describe.each(BACKENDS)('exploreGames with Chess960 games (%s)', (backend) => {
  it('a standard tree counts the standard games only and reports the Chess960 ones as skipped', async () => {
    const r = await exploreGames(MIXED, { maxPly: MAX_PLY, backend });
    expect(r.bad).toBe(0);
    expect(r.skipped).toBe(60);
    expect(r.games).toBe(120);
    expect(r.tree.chess960).toBe(false);
    expect(r.tree.rows()).toEqual(REF_STANDARD);
  });

  it('a Chess960 tree counts the Chess960 games only, castling as the king taking its own rook', async () => {
    const r = await exploreGames(MIXED, { maxPly: MAX_PLY, backend, chess960: true });
    expect(r.bad).toBe(0);
    expect(r.skipped).toBe(60);
    expect(r.tree.chess960).toBe(true);
    expect(r.tree.rows()).toEqual(REF_960);
  });

  it('the Chess960 tree\'s Polyglot book stores castling as the king taking its own rook, for every row', async () => {
    const { tree } = await exploreGames(C960, { maxPly: MAX_PLY, backend, chess960: true });
    const book = PolyglotBook.fromBytes(tree.polyglotBook(), { backend });
    const bytes = tree.polyglotBook();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const entries = new Set<string>();
    for (let at = 0; at < bytes.length; at += 16) {
      const field = view.getUint16(at + 8);
      entries.add(`${view.getBigUint64(at)}|${makeSquare((field >> 6) & 63)}${makeSquare(field & 63)}`);
    }
    expect(book.size ?? bytes.length / 16).toBe(REF_960.length);
    for (const row of REF_960) expect(entries.has(`${row.key}|${row.move.slice(0, 4)}`), row.move).toBe(true);
  });

  it('a tree of the other kind, or a bad chess960 option, is refused', async () => {
    await expect(exploreGames(C960, { backend, chess960: true }, new OpeningTree())).rejects.toThrow(/the tree is of standard games/);
    await expect(exploreGames(C960, { backend, chess960: false }, new OpeningTree({ chess960: true }))).rejects.toThrow(RangeError);
    await expect(exploreGames(C960, { backend, chess960: 1 as never })).rejects.toThrow(TypeError);
    expect(() => new OpeningTree({ chess960: 'yes' as never })).toThrow(TypeError);
    // The tree's kind is the default: a Chess960 tree counts Chess960 games.
    const r = await exploreGames(MIXED, { maxPly: MAX_PLY, backend }, new OpeningTree({ chess960: true }));
    expect(r.tree.rows()).toEqual(REF_960);
  });
});

describe('bitboard-patterns explore --chess960', () => {
  const file = join(dir, 'mixed.pgn');
  writeFileSync(file, MIXED);
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, 'explore', ...args], { encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    return { status: r.status, err: r.stderr };
  };
  // The rows' counts (their eco and opening columns aside).
  const rows = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => {
    const { eco: _eco, opening: _opening, ...r } = JSON.parse(l);
    return { ...r, key: BigInt(r.key) };
  });

  it('counts the Chess960 games, says how many standard ones it passed over; without it the reverse', () => {
    const tree = join(dir, 't960.ndjson'), book = join(dir, 'b960.bin');
    const r = run(file, '--chess960', '--max-ply', String(MAX_PLY), '--out', tree, '--book', book);
    expect(r.status, r.err).toBe(0);
    expect(r.err).toContain('60 standard games not counted');
    expect(rows(tree)).toEqual(REF_960);
    const std = join(dir, 'tstd.ndjson');
    const s = run(file, '--max-ply', String(MAX_PLY), '--out', std);
    expect(s.status).toBe(0);
    expect(s.err).toContain('60 Chess960 games not counted');
    expect(s.err).toContain('--chess960');
    expect(rows(std)).toEqual(REF_STANDARD);
  });

  it('merge --chess960 sums Chess960 trees and writes the same book', () => {
    const tree = join(dir, 'm960.ndjson'), merged = join(dir, 'merged.ndjson'), book1 = join(dir, 'm1.bin'), book2 = join(dir, 'm2.bin');
    expect(run(file, '--chess960', '--max-ply', String(MAX_PLY), '--out', tree, '--book', book1).status).toBe(0);
    expect(run('merge', tree, '--chess960', '--out', merged, '--book', book2).status).toBe(0);
    expect(rows(merged)).toEqual(REF_960);
    expect(readFileSync(book2)).toEqual(readFileSync(book1));
  });
});

describe.each(BACKENDS)('PolyglotBook on Chess960 positions (%s)', (backend) => {
  it('finds a Chess960 tree\'s castling moves as the position\'s legal moves (the king taking its rook)', async () => {
    // The standard setup played as Chess960 (castling e1h1) and a start position whose king castles without moving (g1h1).
    const pgn = `[Variant "Chess960"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0\n\n`
      + `[Variant "Chess960"]\n[FEN "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"]\n[Result "0-1"]\n\n1. O-O O-O 0-1\n`;
    const { tree } = await exploreGames(pgn, { maxPly: 10, backend, chess960: true });
    const book = PolyglotBook.fromBytes(tree.polyglotBook(), { backend });
    const api = backend === 'native' ? nativeApi! : jsApi;
    let pos = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', { chess960: true });
    for (const m of ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5']) pos = api.makeMove(pos, m);
    expect(api.legalMoves(pos)).toContain('e1h1');
    expect(book.entries(pos).map((e) => e.move)).toEqual(['e1h1']);
    const other = api.parseFen('r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1', { chess960: true });
    expect(book.entries(other).map((e) => e.move)).toEqual(['g1h1']);
    expect(book.entries(api.makeMove(other, 'g1h1')).map((e) => e.move)).toEqual(['g8h8']);
  });
});
