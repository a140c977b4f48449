/**
 * PGN reading on both backends. Truths: the fixtures' text itself (games, lines and columns found
 * here with indexOf, tokens read off the movetext by a regex), the SAN writer of this test written
 * from the PGN standard (section 8.2.3) over the brute-force generator of test/patterns/reference-checks.ts,
 * positions replayed square by square on the reference board, and the other backend (records equal
 * byte for byte on a generated corpus). Standard sections cited per case: 5 (comments), 6 (escape
 * lines), 8.1 (tag pairs, 8.1.1), 8.2.2 (move numbers), 8.2.3.8 (suffix annotations), 8.2.4 (NAGs),
 * 8.2.5 (variations), 8.2.6 (game termination markers).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PgnError, parsePgn, pgnPiecePositions, pgnPositions, readPgn, readPgnPositions, readPgnRecords, splitPgn, type PgnGame } from '../../lib/games/pgn.js';
import { createSanApi } from '../../lib/games/san.js';
import { G, GAME_RECORD, PGN_BOUNDARIES, PGN_LAST_CHUNK, PGN_NOT_FIRST, PGN_OUTCOME } from '../../lib/backends/js/pgn.js';
import { makePgn } from '../../scripts/make-pgn.mjs';
import { jsApi, nativeApi, wasmApi } from '../support/backends.js';
import { expectSameBytes } from '../support/bytes.js';
import { rng } from '../patterns/reference.js';
import {
  KING, PAWN, type Board, type Move, boardFromFen, checkersRef, fenFromBoard, legalMovesRef, playMove, randomBoard,
  randomEpBoard, uci,
} from '../patterns/reference-checks.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pgn/${name}`, import.meta.url));
const QUIRKY = fixture('quirky.pgn');
const MESSY = fixture('messy.pgn');
const jsSan = createSanApi('js');
const CORPUS = makePgn({ ...jsApi, toSan: jsSan.toSan }, { games: 60, seed: 7, maxPlies: 120 });

const pgnBackends: ('js' | 'native' | 'wasm')[] = [...(['js'] as const), ...(nativeApi ? ['native'] as const : []), ...(wasmApi ? ['wasm'] as const : [])];

const FILES = 'abcdefgh';
/** The standard's SAN (section 8.2.3), square by square on the reference board. */
function sanRef(b: Board, m: Move): string {
  const p = b.cells[m.from]!;
  const sq = (s: number) => `${FILES[s & 7]}${(s >> 3) + 1}`;
  let s: string;
  if (p.type === KING && Math.abs(m.to - m.from) === 2) s = m.to > m.from ? 'O-O' : 'O-O-O';
  else if (p.type === PAWN) {
    const capture = b.cells[m.to] !== null || m.to === b.ep;
    s = `${capture ? `${FILES[m.from & 7]}x` : ''}${sq(m.to)}${m.promotion ? `=${'NBRQ'[m.promotion - 1]}` : ''}`;
  } else {
    const others = legalMovesRef(b).filter((o) => o.to === m.to && o.from !== m.from && b.cells[o.from]!.type === p.type);
    let dis = '';
    if (others.length) {
      if (!others.some((o) => (o.from & 7) === (m.from & 7))) dis = FILES[m.from & 7]!;
      else if (!others.some((o) => o.from >> 3 === m.from >> 3)) dis = String((m.from >> 3) + 1);
      else dis = sq(m.from);
    }
    s = `${' NBRQK'[p.type]}${dis}${b.cells[m.to] ? 'x' : ''}${sq(m.to)}`;
  }
  const after = playMove(b, m);
  if (checkersRef(after, after.side) !== 0n) s += legalMovesRef(after).length === 0 ? '#' : '+';
  return s;
}
const moveOf = (text: string): Move => ({
  from: FILES.indexOf(text[0]!) + 8 * (Number(text[1]) - 1), to: FILES.indexOf(text[2]!) + 8 * (Number(text[3]) - 1),
  promotion: text[4] ? ' nbrq'.indexOf(text[4]) : 0,
});
/** Replays a game on the reference board: its SANs must be the reference SANs; returns the boards. */
function replay(g: PgnGame): Board[] {
  let b = boardFromFen(g.startFen);
  const boards = [b];
  g.moves.forEach((m, i) => {
    if (m === '0000') {
      b = { ...b, cells: b.cells.slice(), side: (1 - b.side) as 0 | 1, ep: -1 };
    } else {
      const mv = moveOf(m);
      expect(legalMovesRef(b).map(uci)).toContain(m);
      expect(g.sans[i], `game ${g.game} ply ${i + 1}`).toBe(sanRef(b, mv));
      b = playMove(b, mv);
    }
    boards.push(b);
  });
  return boards;
}

/** The packed words of a position -> FEN, square by square. */
function fenOfWords(w: BigUint64Array, i: number): string {
  const at = (k: number) => w[i * 10 + k]!;
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const bit = 1n << BigInt(r * 8 + f);
      const t = [2, 3, 4, 5, 6, 7].findIndex((k) => (at(k) & bit) !== 0n);
      if (t < 0) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      const letter = 'pnbrqk'[t]!;
      row += (at(0) & bit) !== 0n ? letter.toUpperCase() : letter;
    }
    rows.push(row + (empty || ''));
  }
  const state = at(8);
  const castling = ['K', 'Q', 'k', 'q'].filter((_, k) => (state >> BigInt(1 + k)) & 1n).join('') || '-';
  const ep = Number((state >> 8n) & 255n);
  return `${rows.join('/')} ${state & 1n ? 'b' : 'w'} ${castling} ${ep === 64 ? '-' : `${FILES[ep & 7]}${(ep >> 3) + 1}`} ${Number((state >> 16n) & 0xfffffn)} ${at(9)}`;
}
/** The reference board's FEN with the en-passant square only when a legal capture uses it (makeMove's convention). */
function refFen(b: Board): string {
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = b.cells[r * 8 + f];
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p.color === 0 ? 'pnbrqk'[p.type]!.toUpperCase() : 'pnbrqk'[p.type]!;
    }
    rows.push(row + (empty || ''));
  }
  const castling = ['K', 'Q', 'k', 'q'].filter((_, k) => (b.castling >> k) & 1).join('') || '-';
  const epUsed = b.ep >= 0 && legalMovesRef(b).some((m) => m.to === b.ep && b.cells[m.from]!.type === PAWN);
  return `${rows.join('/')} ${b.side ? 'b' : 'w'} ${castling} ${epUsed ? `${FILES[b.ep & 7]}${(b.ep >> 3) + 1}` : '-'} ${b.halfmove} ${b.fullmove}`;
}

/** 1-based line and column of the n-th occurrence of `needle` in the text. */
function where(text: string, needle: string, nth = 0): [number, number] {
  let at = -1;
  for (let k = 0; k <= nth; k++) at = text.indexOf(needle, at + 1);
  const before = text.slice(0, at);
  return [before.split('\n').length, at - before.lastIndexOf('\n')];
}

describe.each(pgnBackends)('%s', (backend) => {
  const parse = (text: string | Uint8Array, comments = false) => parsePgn(text, { backend, comments });

  it('quirky.pgn: every game, its tags, moves (reference SAN), results and errors', () => {
    const text = QUIRKY.toString('utf8');
    const games = parse(QUIRKY, true);
    expect(games.map((g) => g.tags.Event)).toEqual(['F/S Return Match', 'clocks, NAGs, variations', 'setup', 'no moves', 'lenient', 'illegal', 'truncated']);
    expect(games.map((g) => g.result)).toEqual(['1/2-1/2', '1-0', '*', null, '*', '*', null]);
    for (const g of games) replay(g);
    // Fischer - Spassky 1992, game 29: 43 white moves and 42 black ones; the SAN tokens of the file.
    const fischer = games[0]!;
    const tokens = text.slice(text.indexOf('1. e4'), text.indexOf('1/2-1/2\n[Event')).replace(/\{[^}]*\}/g, ' ')
      .split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t));
    expect(fischer.sans).toEqual(tokens);
    expect(fischer.moves.length).toBe(85);
    expect(fischer.comments).toEqual([{ ply: 5, text: 'This opening is called the Ruy Lopez.' }]);
    expect(fischer.line).toBe(2); // line 1 is a '%' escape line (section 6)
    // Clocks and evals are comments (section 5); variations are skipped (8.2.5); NAGs (8.2.4) and
    // suffix annotations (8.2.3.8: "!?" = $5, "??" = $4).
    const g2 = games[1]!;
    expect(g2.tags.White).toBe('A "quoted" name');
    expect(g2.sans).toEqual(['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
    expect(g2.comments).toEqual([{ ply: 1, text: ' [%clk 0:03:00] [%eval 0.2] ' }]);
    expect(g2.nags).toEqual([{ ply: 2, nag: 1 }, { ply: 3, nag: 5 }, { ply: 6, nag: 4 }]);
    expect(games[2]!.startFen).toBe('4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
    expect(games[2]!.sans).toEqual(['a8=Q+', 'Kd7', 'Qb7+']);
    expect(games[3]!.moves).toEqual([]);
    expect(games[4]!.sans.slice(0, 7)).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'O-O']);
    expect(games[4]!.moves.slice(18, 20)).toEqual(['0000', '0000']);
    expect(games[4]!.sans.slice(18, 20)).toEqual(['--', '--']);
    expect(games[4]!.sans.at(-1)).toBe('O-O-O');
    for (const g of games.slice(0, 5)) expect(g.error).toBeUndefined();
    const illegal = games[5]!.error!;
    expect(illegal).toBeInstanceOf(PgnError);
    expect([illegal.game, illegal.line, illegal.column, illegal.token, illegal.reason]).toEqual([6, ...where(text, 'Ke3'), 'Ke3', 'illegal move']);
    expect(games[5]!.moves).toEqual(['e2e4', 'e7e5']);
    const truncated = games[6]!.error!;
    expect([truncated.game, truncated.line, truncated.column, truncated.token, truncated.reason]).toEqual([7, ...where(text, 'Nf\n'), 'Nf', 'malformed move']);
  });

  it('messy.pgn: missing blank lines, ; and % lines, braces in tags and comments, tag-only game, each kind of bad game', () => {
    const text = MESSY.toString('utf8');
    const games = parse(MESSY, true);
    expect(games.map((g) => g.tags.Event ?? null)).toEqual([
      'no blank line after the result', 'semicolon comments and escapes', 'tags only', 'unbalanced', 'bad FEN', 'variant',
      'ambiguous', 'null move in check', null, 'unterminated comment']);
    expect(games[0]!.sans).toEqual(['f3', 'e5', 'g4', 'Qh4#']);
    expect(games[0]!.result).toBe('0-1');
    expect(games[1]!.tags.Annotator).toBe('brace } and { inside a tag string');
    expect(games[1]!.sans).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    expect(games[1]!.comments!.map((c) => c.ply)).toEqual([1, 3]);
    expect(games[1]!.comments![0]!.text).toBe(' rest of line is a comment 1. d4 {'); // section 5: no brace meaning after ';'
    expect(games[1]!.result).toBe('1/2-1/2');
    expect(games[2]!.moves).toEqual([]);
    expect(games[2]!.error).toBeUndefined();
    const reasons = games.map((g) => g.error?.reason ?? null);
    expect(reasons).toEqual([null, null, null, 'unbalanced parenthesis', 'invalid FEN tag', 'unsupported variant', 'ambiguous move',
      'null move while in check', 'malformed tag pair', 'unterminated comment']);
    const at = (g: number) => { const e = games[g]!.error!; return [e.line, e.column, e.token]; };
    expect(at(3)).toEqual([...where(text, ') 2.'), ')']);
    expect(at(4)).toEqual([...where(text, '8/8/8/8/8/8/8/8'), '8/8/8/8/8/8/8/8 w - - 0 1']);
    expect(at(6)).toEqual([...where(text, 'Nd2'), 'Nd2']);
    expect(games[6]!.error!.candidates).toEqual(['b1d2', 'f3d2']);
    expect(at(7)).toEqual([...where(text, '--'), '--']);
    expect(at(8)).toEqual([...where(text, '[Event bad tag]'), '[Event bad tag]']);
    expect(at(9)).toEqual([...where(text, '{ this'), '{']);
    expect(games[3]!.moves).toEqual(['e2e4', 'e7e5']);
    expect(games[9]!.moves).toEqual(['e2e4']);
  });

  it('CRLF line ends and a byte-order mark change nothing but the bytes', () => {
    for (const text of [QUIRKY, MESSY]) {
      const lf = parse(text, true);
      const crlf = parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.toString('utf8').replace(/\n/g, '\r\n'))]), true);
      const strip = (gs: PgnGame[]) => gs.map((g) => ({ ...g, comments: g.comments?.map((c) => ({ ...c, text: c.text.replace(/\r/g, '') })),
        error: g.error && [g.error.line, g.error.column, g.error.reason, g.error.token.replace(/\r/g, '')] }));
      expect(strip(crlf)).toEqual(strip(lf));
    }
  });

  it('a generated corpus: no errors, reference SANs, every position equal to the reference replay', () => {
    const games = parse(CORPUS);
    expect(games.length).toBe(60);
    const { batch, game, ply } = pgnPositions(CORPUS, { backend });
    let k = 0;
    for (const g of games.slice(0, 25)) {
      expect(g.error).toBeUndefined();
      const boards = replay(g);
      for (let p = 0; p < boards.length; p++, k++) {
        expect([game[k], ply[k]]).toEqual([g.game, p]);
        expect(fenOfWords(batch.words, k), `game ${g.game} ply ${p}`).toBe(refFen(boards[p]!));
      }
    }
    expect(batch.length).toBe(games.reduce((s, g) => s + g.moves.length + 1, 0));
  });

  it('position selection: final only, every Nth ply from ply K; bad games give none; analyzeBatch runs on the batch', () => {
    const games = parse(QUIRKY);
    const good = games.filter((g) => !g.error);
    const final = pgnPositions(QUIRKY, { backend, select: { mode: 'final' } });
    expect(Array.from(final.game)).toEqual(good.map((g) => g.game));
    expect(Array.from(final.ply)).toEqual(good.map((g) => g.moves.length));
    expect(final.games.map((g) => g.game)).toEqual([6, 7]);
    const sel = pgnPositions(QUIRKY, { backend, select: { every: 3, fromPly: 2 } });
    const want = good.flatMap((g) => Array.from({ length: g.moves.length + 1 }, (_, p) => [g.game, p]).filter(([, p]) => p! >= 2 && (p! - 2) % 3 === 0));
    expect(Array.from(sel.game, (gm, i) => [gm, sel.ply[i]])).toEqual(want);
    // Game 2 ends in mate (Qxf7#): its final position is checkmate for analyzeBatch.
    const results = jsApi.analyzeBatch(final.batch, ['checkmate', 'inCheck']);
    const i2 = Array.from(final.game).indexOf(2);
    expect([results.checkmate[i2], results.inCheck[i2]]).toEqual([1, 1]);
    expect(results.checkmate[Array.from(final.game).indexOf(1)]).toBe(0);
    expect(() => pgnPositions(QUIRKY, { backend, select: { every: 0 } })).toThrow(RangeError);
  });

  it('readPgn streams: the same games from tiny chunks, a Readable, a file path', async () => {
    const whole = parse(Buffer.concat([QUIRKY, MESSY, Buffer.from(CORPUS)]), true);
    const text = Buffer.concat([QUIRKY, MESSY, Buffer.from(CORPUS)]);
    async function* pieces() {
      let seed = 5;
      for (let i = 0; i < text.length;) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const n = 1 + (seed % 300);
        yield text.subarray(i, i + n);
        i += n;
      }
    }
    const collect = async (it: AsyncIterable<PgnGame>) => { const out: PgnGame[] = []; for await (const g of it) out.push(g); return out; };
    const strip = (gs: PgnGame[]) => gs.map((g) => ({ ...g, error: g.error?.message }));
    expect(strip(await collect(readPgn(pieces(), { backend, comments: true })))).toEqual(strip(whole));
    expect(strip(await collect(readPgn(Readable.from([text]), { backend, comments: true })))).toEqual(strip(whole));
    const dir = mkdtempSync(join(tmpdir(), 'pgn-'));
    writeFileSync(join(dir, 'g.pgn'), text);
    try {
      expect(strip(await collect(readPgn({ path: join(dir, 'g.pgn') }, { backend, comments: true })))).toEqual(strip(whole));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Chunk by chunk: the same positions with the same game numbers (counted across the chunks) and plies.
    const all = pgnPositions(text, { backend });
    const games: number[] = [];
    const plies: number[] = [];
    let positions = 0;
    for await (const chunk of readPgnPositions(pieces(), { backend })) {
      positions += chunk.batch.length;
      games.push(...chunk.game);
      plies.push(...chunk.ply);
    }
    expect(positions).toBe(all.batch.length);
    expect(games).toEqual(Array.from(all.game));
    expect(plies).toEqual(Array.from(all.ply));
    // The same from the pieces of splitPgn, each read on its own.
    const pieceGames: number[] = [];
    for await (const piece of splitPgn(pieces(), backend)) pieceGames.push(...pgnPiecePositions(piece, { backend }).game);
    expect(pieceGames).toEqual(Array.from(all.game));
    await expect(collect(readPgn(42 as never))).rejects.toThrow(TypeError);
  });

  it('reuse: a loop writing into an earlier result gives the same positions, in that memory while it has room', () => {
    const texts = [Buffer.concat([QUIRKY, MESSY]), Buffer.from(CORPUS), QUIRKY, Buffer.alloc(0), Buffer.from(CORPUS).subarray(0, 9000)];
    let r: ReturnType<typeof pgnPositions> | undefined;
    for (const select of [{}, { every: 2, fromPly: 1 }, { mode: 'final' as const }]) {
      for (const text of texts) {
        const want = pgnPositions(text, { backend, select });
        const before = r && [r.batch.words.buffer, r.game.buffer, r.ply.buffer];
        const room = r && r.game.buffer.byteLength - r.game.byteOffset >= 4 * want.game.length;
        r = pgnPositions(text, { backend, select, reuse: r });
        expectSameBytes(r.batch.words, want.batch.words, 'positions');
        expectSameBytes(r.game, want.game, 'game');
        expectSameBytes(r.ply, want.ply, 'ply');
        expect(r.games.map((g) => g.error?.message)).toEqual(want.games.map((g) => g.error?.message));
        if (before && room) expect([r.batch.words.buffer, r.game.buffer, r.ply.buffer].map((b, i) => b === before[i])).toEqual([true, true, true]);
        if (before && !room) expect(r.game.buffer).not.toBe(before[1]);
      }
    }
    // pgnPiecePositions the same, piece after piece into one result's memory.
    let p: ReturnType<typeof pgnPiecePositions> | undefined;
    for (const piece of [{ bytes: Buffer.from(CORPUS), firstGame: 5, firstLine: 9, notFirst: true, games: 60 }]) {
      const want = pgnPiecePositions(piece, { backend });
      p = pgnPiecePositions(piece, { backend, reuse: pgnPositions(QUIRKY, { backend }) });
      expectSameBytes(p.game, want.game, 'piece game');
      expectSameBytes(p.batch.words, want.batch.words, 'piece positions');
    }
    // Not an earlier result, arrays sharing memory (with each other or the text), shared memory.
    const text = Buffer.from(CORPUS);
    const ok = pgnPositions(QUIRKY, { backend });
    expect(() => pgnPositions(text, { backend, reuse: {} as never })).toThrow(TypeError);
    expect(() => pgnPositions(text, { backend, reuse: { ...ok, ply: new Int32Array(4) } as never })).toThrow(TypeError);
    expect(() => pgnPositions(text, { backend, reuse: { ...ok, ply: ok.game } })).toThrow(RangeError);
    expect(() => pgnPositions(text, { backend, reuse: { ...ok, ply: new Uint32Array(text.buffer, 0, 1) } })).toThrow(RangeError);
    expect(() => pgnPositions(text, { backend, reuse: { ...ok, ply: new Uint32Array(new SharedArrayBuffer(64)) } })).toThrow(TypeError);
    // A detached earlier result: new memory, the same positions.
    const detached = pgnPositions(QUIRKY, { backend });
    structuredClone(detached.game.buffer, { transfer: [detached.game.buffer as ArrayBuffer] });
    expectSameBytes(pgnPositions(QUIRKY, { backend, reuse: detached }).game, ok.game, 'after detach');
  });

  it('bad arguments: TypeError / RangeError, never a crash', () => {
    expect(() => parsePgn(42 as never, { backend })).toThrow(TypeError);
    expect(() => parsePgn('', { backend: 'gpu' as never })).toThrow(RangeError);
    expect(() => parsePgn('', 'x' as never)).toThrow(TypeError);
    expect(parsePgn('', { backend })).toEqual([]);
    expect(parsePgn('\ufeff', { backend })).toEqual([]);
    expect(() => pgnPositions('', { backend, select: { mode: 'some' as never } })).toThrow(RangeError);
    expect(() => pgnPositions('', { backend, select: { fromPly: -1 } })).toThrow(RangeError);
    // Binary garbage is read as (bad) movetext, not a crash.
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 255));
    const games = parsePgn(noise, { backend });
    expect(games.every((g) => g.error instanceof PgnError || g.moves.length === 0)).toBe(true);
  });
});

describe.each(pgnBackends)('boundaries only (%s): the games a full read finds, without reading a move', (backend) => {
  const STUDY = fixture('study.pgn');
  const CHESSBASE = fixture('chessbase.pgn');
  /** What a read says of where games are: each game's start, end, line and tags; where it stopped. */
  const layout = (text: Uint8Array, flags: number) => {
    const r = readPgnRecords(text, flags, {}, backend);
    const games: number[][] = [];
    for (let g = 0; g < r.games.length; g += GAME_RECORD) {
      games.push([G.start, G.end, G.line, G.tagStart, G.tagCount].map((f) => r.games[g + f]!));
    }
    return { games, tags: Array.from(r.tags), consumed: r.consumed, consumedLine: r.consumedLine, moves: r.moves.length, positions: r.positions.length };
  };
  const same = (text: Uint8Array, extra: number) => {
    const full = layout(text, extra);
    const quick = layout(text, extra | PGN_BOUNDARIES);
    expect({ ...quick, moves: 0, positions: 0 }).toEqual({ ...full, moves: 0, positions: 0 });
    expect([quick.moves, quick.positions]).toEqual([0, 0]);
    return full.games.length;
  };
  const texts = [QUIRKY, MESSY, STUDY, CHESSBASE, Buffer.from(CORPUS)];

  it('the fixtures, whole and as chunks of a stream', () => {
    for (const text of texts) {
      for (const extra of [PGN_LAST_CHUNK, 0, PGN_NOT_FIRST | PGN_LAST_CHUNK, PGN_NOT_FIRST]) expect(same(text, extra)).toBeGreaterThan(0);
      // The positions writer's flags change nothing either.
      same(text, PGN_LAST_CHUNK | 4);
    }
  });

  it('random splices of them: cut anywhere, joined, with garbage (fast-check)', () => {
    const all = Buffer.concat(texts);
    const piece = fc.tuple(fc.nat({ max: all.length - 1 }), fc.nat({ max: 600 })).map(([at, n]) => all.subarray(at, at + n));
    // Termination markers glued to a NAG or a move number (tokens that are no marker), escape lines.
    const junk = fc.constantFrom('\n', '\n\n', '[', ']', '{', '}', '(', ')', '1-0', '*', '%', ';', '\r\n', '[Event "x"]\n', '$', '"',
      '0-1', '1/2-1/2', ' 1-0 ', '$1-0', '$*', '1.*', '12.1-0', '1...0-1', 'O-O-O', '-', '\n% x 1-0\n').map((t) => Buffer.from(t));
    fc.assert(fc.property(fc.array(fc.oneof(piece, piece, junk), { maxLength: 12 }), fc.nat({ max: 3 }), (parts, f) => {
      same(Buffer.concat(parts), [PGN_LAST_CHUNK, 0, PGN_NOT_FIRST | PGN_LAST_CHUNK, PGN_NOT_FIRST][f]!);
    }), { numRuns: 400 });
  });

  it('splitPgn cuts where the full read does: each piece read on its own gives the whole read', async () => {
    const text = Buffer.concat([QUIRKY, MESSY, STUDY, CHESSBASE, Buffer.from(CORPUS)]);
    async function* chunks() {
      for (let i = 0; i < text.length; i += 777) yield text.subarray(i, i + 777);
    }
    const whole = pgnPositions(text, { backend, games: true });
    const games: PgnGame[] = [];
    const positions: number[] = [];
    for await (const piece of splitPgn(chunks(), backend)) {
      const r = pgnPiecePositions(piece, { backend, games: true });
      expect(r.games.length).toBe(piece.games);
      games.push(...r.games);
      positions.push(...r.game);
    }
    expectSameBytes(Uint32Array.from(positions), whole.game, 'game of each position');
    expect(games.map((g) => [g.game, g.line, g.error?.message, g.moves.length])).toEqual(whole.games.map((g) => [g.game, g.line, g.error?.message, g.moves.length]));
  });
});

describe.each(pgnBackends)('splitPgn on a stream (%s): pieces of about a megabyte, each owning its bytes', (backend) => {
  it('small chunks, a game larger than a piece and a long line without a line end: the whole read, piece by piece', async () => {
    const corpus = Buffer.from(CORPUS.repeat(Math.ceil(400_000 / CORPUS.length)));
    const huge = `[Event "huge"]\n\n1. e4 {${'x'.repeat(2_500_000)}} e5 2. Nf3 *\n\n`;
    const longLine = `${'y'.repeat(1_500_000)}\n\n`;
    const text = Buffer.concat([corpus, corpus, Buffer.from(huge), corpus, corpus, corpus, Buffer.from(longLine), corpus, corpus]);
    const cuts = [4096, 65536, 777];
    async function* chunks() {
      let k = 0;
      for (let i = 0; i < text.length; i += cuts[k++ % cuts.length]!) yield text.subarray(i, i + cuts[k % cuts.length]!);
    }
    const whole = pgnPositions(text, { backend, games: true });
    const positions: number[] = [];
    const games: [number, number, string | undefined][] = [];
    const sizes: number[] = [];
    for await (const piece of splitPgn(chunks(), backend)) {
      sizes.push(piece.bytes.length);
      const r = pgnPiecePositions(piece, { backend, games: true });
      positions.push(...r.game);
      games.push(...r.games.map((g): [number, number, string | undefined] => [g.game, g.line, g.error?.message]));
      // The piece's memory is its own: moving it away leaves the next pieces whole.
      structuredClone(piece.bytes.buffer, { transfer: [piece.bytes.buffer as ArrayBuffer] });
    }
    expectSameBytes(Uint32Array.from(positions), whole.game, 'game of each position');
    expect(games).toEqual(whole.games.map((g) => [g.game, g.line, g.error?.message]));
    // About a megabyte each (the last one and the one after the huge game aside), not a chunk each.
    expect(sizes.length, sizes.join(' ')).toBeGreaterThanOrEqual(4);
    expect(sizes.slice(0, -1).every((n) => n >= 500_000), sizes.join(' ')).toBe(true);
    expect(sizes.some((n) => n > 2_500_000)).toBe(true);
  });
});

describe.runIf(nativeApi !== undefined)('native and JS records are equal byte for byte', () => {
  const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  it.each([['corpus', Buffer.from(CORPUS)], ['quirky', QUIRKY], ['messy', MESSY]])('%s', (_name, text) => {
    for (const [flags, select] of [[1 | 2 | 4 | 16, {}], [4 | 8 | 16, {}], [4 | 16, { every: 5, fromPly: 3 }], [1 | 4, {}]] as const) {
      const js = readPgnRecords(text, flags, select, 'js');
      const native = readPgnRecords(text, flags, select, 'native');
      for (const key of ['games', 'moves', 'san', 'tags', 'comments', 'nags', 'positions', 'positionGame', 'positionPly'] as const) {
        expect(bytes(native[key]).equals(bytes(js[key])), `${key} flags ${flags}`).toBe(true);
      }
      expect([native.consumed, native.consumedLine]).toEqual([js.consumed, js.consumedLine]);
    }
  });
});

describe.runIf(nativeApi !== undefined)('native and JS agree on hostile movetext (fast-check)', () => {
  const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const ALPHABET = 'NBRQKabcdefgh12345678x=+#-O0!?';
  /** Games from random positions (pins, en passant, promotions, many pieces of one type), each move
   *  written canonically, in a lenient variant, or as random SAN-like text, with move numbers in
   *  every form the tokenizer distinguishes. */
  function hostile(seed: number): string {
    const next = rng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const games: string[] = [];
    for (let g = 0; g < 4; g++) {
      const fen = fenFromBoard(next() < 0.3 ? randomEpBoard(next) : randomBoard(next, 2 + Math.floor(next() * 10)));
      let pos = jsApi.parseFen(fen);
      const tokens: string[] = [];
      for (let ply = 0; ply < 10; ply++) {
        const moves = jsApi.legalMoves(pos);
        const r = next();
        if (moves.length === 0 || r < 0.1) {
          tokens.push(Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick([...ALPHABET])).join(''));
          break;
        }
        const m = pick(moves);
        const san = jsSan.toSan(pos, m);
        const bare = san.replace(/[+#]$/, '');
        const variant = r < 0.5 ? san : r < 0.6 ? bare : r < 0.7 ? `${bare}+` : r < 0.8 && /^[NBRQK][a-h]?[1-8]?x?[a-h][1-8]/.test(bare) ? `${bare[0]}${m.slice(0, 2)}${bare.slice(1).replace(/^[a-h]?[1-8]?/, '')}`
          : r < 0.85 ? bare.replace('=', '') : r < 0.9 ? `${bare[0]}${bare.slice(-2)}` : san;
        // Move number indications, well-formed or not, alone or glued to the move ("12.e4").
        const q = next();
        if (q < 0.15) {
          tokens.push(`${1 + Math.floor(next() * 120)}${'.'.repeat(Math.floor(next() * 4))}${pick(['', '', 'x', '5', '-0', '/2', '.', 'e'])}`);
        }
        tokens.push(q > 0.9 ? `${1 + Math.floor(next() * 99)}${'.'.repeat(1 + Math.floor(next() * 3))}${variant}` : variant);
        pos = jsApi.makeMove(pos, m);
      }
      games.push(`[FEN "${fen}"]\n\n${tokens.join(' ')} *\n`);
    }
    return games.join('\n');
  }
  it('records equal byte for byte', () => {
    const seen = new Set<number>();
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
      const text = hostile(seed);
      const js = readPgnRecords(text, 1 | 4 | 16 | PGN_OUTCOME, {}, 'js');
      const native = readPgnRecords(text, 1 | 4 | 16 | PGN_OUTCOME, {}, 'native');
      for (const key of ['games', 'moves', 'san', 'positions', 'positionPly'] as const) {
        expect(bytes(native[key]).equals(bytes(js[key])), `${key}\n${text}`).toBe(true);
      }
      for (let g = 0; g < js.games.length; g += GAME_RECORD) seen.add(js.games[g + G.error]!);
    }), { numRuns: 150, seed: 20261123 });
    // The generator reaches the cases that matter: good games, malformed, illegal and ambiguous moves
    // (a fixed fast-check seed: with a random one, 150 runs sometimes draw no ambiguous move).
    expect([0, 2, 3, 4].every((code) => seen.has(code)), `error codes seen: ${[...seen]}`).toBe(true);
  });
});
