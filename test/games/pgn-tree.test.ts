/**
 * PGN variations as trees (`parsePgn(text, { variations: true })`) and writing them back, on every
 * backend. Truths: chessops's PGN reader (`chessops/pgn`, an independent implementation: its node
 * tree, its comment commands, its SAN) on the fixtures and on written random trees; the backend's
 * own main-line reading (`moves`, `clocks`, `evals`); random legal trees generated with the package's
 * move generator, which must come back node for node after writePgn.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePgn as opsParsePgn, parseComment as opsParseComment, startingPosition, type PgnNodeData, type Node as OpsNode } from 'chessops/pgn';
import { parseSan as opsParseSan, makeSan as opsMakeSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import type { Position as OpsPosition } from 'chessops/chess';
import { PgnError, parsePgn, pgnPositions, readPgn } from '../../lib/games/pgn.js';
import { PositionBatch } from '../../lib/batch/batch.js';
import { expectSameBytes } from '../support/bytes.js';
import { writePgn } from '../../lib/games/pgn-write.js';
import type { PgnNode, PgnTree, PgnShapeColor } from '../../lib/games/pgn-tree.js';
import { jsApi, nativeApi, wasmApi } from '../support/backends.js';
import { loadNative } from '../../lib/backends/native.js';
import { createSanApi } from '../../lib/games/san.js';
import { makePgn } from '../../scripts/make-pgn.mjs';

const STUDY = readFileSync(new URL('../fixtures/pgn/study.pgn', import.meta.url));
const CORPUS = makePgn({ ...jsApi, toSan: createSanApi('js').toSan }, { games: 60, seed: 11, maxPlies: 100 });
const pgnBackends: ('js' | 'native' | 'wasm')[] = ['js', ...(nativeApi ? ['native'] as const : []), ...(wasmApi ? ['wasm'] as const : [])];

/** python-chess's comment text: every line but the last right-trimmed, the whole trimmed; several joined by line ends. */
function pyJoin(comments: readonly string[] | undefined): string {
  let out = '';
  for (const c of comments ?? []) {
    const lines = c.split('\n');
    const text = lines.map((l, i) => (i < lines.length - 1 ? l.trimEnd() : l)).join('\n').trim();
    out = `${out}\n${text}`.trim();
  }
  return out;
}
const squish = (s: string) => s.replace(/\s+/g, ' ').trim();
const COLOR: Record<string, PgnShapeColor> = { green: 'G', red: 'R', yellow: 'Y', blue: 'B' };

/** Our node fields as chessops reads them (comment text compared with blanks squeezed). */
interface Plain { san: string; uci: string; nags: number[]; comment: string; startingComment: string; clock: number | null;
  eval: unknown; arrows: unknown[]; squares: unknown[]; children: Plain[] }

function fromChessops(node: OpsNode<PgnNodeData>, pos: OpsPosition): Plain[] {
  return node.children.map((child) => {
    const d = child.data;
    const after = pos.clone();
    let san: string;
    let uci: string;
    if (d.san === '--') {
      san = '--';
      uci = '0000';
      after.turn = after.turn === 'white' ? 'black' : 'white';
      after.epSquare = undefined;
    } else {
      const move = opsParseSan(pos, d.san);
      if (move === undefined) throw new Error(`chessops cannot read ${d.san}`);
      san = opsMakeSan(pos, move);
      // chessops writes castling as the king taking its rook; the package's UCI is the king's move.
      const castle = 'from' in move && pos.board.get(move.from)?.role === 'king' && pos.board.get(move.to)?.role === 'rook' &&
        pos.board.get(move.to)?.color === pos.turn;
      uci = castle ? makeUci({ from: move.from, to: move.from + (move.to > move.from ? 2 : -2) }) : makeUci(move);
      after.play(move);
    }
    const c = opsParseComment(pyJoin(d.comments));
    return {
      san, uci, nags: d.nags ?? [], comment: squish(c.text), startingComment: pyJoin(d.startingComments),
      clock: c.clock ?? null,
      eval: c.evaluation === undefined ? null : 'mate' in c.evaluation ? { mate: c.evaluation.mate } : { cp: Math.round(c.evaluation.pawns * 100) },
      arrows: c.shapes.filter((s) => s.from !== s.to).map((s) => ({ from: s.from, to: s.to, color: COLOR[s.color] })),
      squares: c.shapes.filter((s) => s.from === s.to).map((s) => ({ square: s.from, color: COLOR[s.color] })),
      children: fromChessops(child, after),
    };
  });
}
function plain(nodes: readonly PgnNode[]): Plain[] {
  return nodes.map((n) => ({ ...n, comment: squish(n.comment), children: plain(n.children) }));
}
/** chessops's trees of a text; null for a game with a move it cannot play. */
function chessopsTrees(text: string): ({ comment: string; children: Plain[] } | null)[] {
  return opsParsePgn(text).map((g) => {
    try {
      return { comment: pyJoin(g.comments), children: fromChessops(g.moves, startingPosition(g.headers).unwrap()) };
    } catch {
      return null;
    }
  });
}
function mainLine(tree: PgnTree): PgnNode[] {
  const out: PgnNode[] = [];
  for (let n = tree.children[0]; n !== undefined; n = n.children[0]) out.push(n);
  return out;
}
function countNodes(nodes: readonly PgnNode[]): number {
  return nodes.reduce((s, n) => s + 1 + countNodes(n.children), 0);
}

describe.each(pgnBackends)('PGN trees (%s)', (backend) => {
  it('reads the study fixture as chessops reads it, node for node', () => {
    const games = parsePgn(STUDY, { variations: true, backend });
    const ops = chessopsTrees(STUDY.toString('utf8'));
    expect(games).toHaveLength(4);
    expect(ops[2]).toBeNull();
    for (const k of [0, 1, 3]) {
      expect(games[k]!.error).toBeUndefined();
      expect(games[k]!.tree!.comment).toBe(ops[k]!.comment);
      expect(plain(games[k]!.tree!.children)).toEqual(ops[k]!.children);
    }
    // Deep nesting was read (variations inside variations inside variations).
    expect(countNodes(games[0]!.tree!.children)).toBeGreaterThan(100);
  });

  it('keeps the main line: the first children are the moves, clocks and evals the backend reads', () => {
    const annotated = parsePgn(STUDY, { variations: true, annotations: true, sans: true, backend });
    for (const g of annotated.filter((x) => x.error === undefined)) {
      const line = mainLine(g.tree!);
      expect(line.map((n) => n.uci)).toEqual(g.moves);
      expect(line.map((n) => n.san)).toEqual(g.sans);
      expect(line.map((n) => n.clock)).toEqual(g.clocks);
      expect(line.map((n) => n.eval)).toEqual(g.evals);
    }
  });

  it('places comments, NAGs, suffixes and null moves as python-chess does', () => {
    const [g] = parsePgn('{game} 1. e4 {a} {b} ( {start} 1. d4?! {c} ) {after} 1... e5!! $14 2. Nf3 -- 3. Bc4 Z0 *', { variations: true, backend });
    const t = g!.tree!;
    expect(t.comment).toBe('game');
    const [e4, d4] = t.children;
    expect(e4!.comment).toBe('a\nb\nafter');
    expect(d4!).toMatchObject({ san: 'd4', nags: [6], startingComment: 'start', comment: 'c' });
    const e5 = e4!.children[0]!;
    expect(e5.nags).toEqual([3, 14]);
    const line = mainLine(t).map((n) => n.san);
    expect(line).toEqual(['e4', 'e5', 'Nf3', '--', 'Bc4', '--']);
    expect(mainLine(t)[3]!.uci).toBe('0000');
  });

  it('reads [%cal] and [%csl] into arrows and squares and takes them out of the text', () => {
    const [g] = parsePgn('1. e4 {look [%cal Ge2e4,Rd8d1] here [%csl Gd4,Bh8] [%cal Yb1c3]} *', { variations: true, backend });
    const n = g!.tree!.children[0]!;
    expect(n.comment).toBe('look here');
    expect(n.arrows).toEqual([{ from: 12, to: 28, color: 'G' }, { from: 59, to: 3, color: 'R' }, { from: 1, to: 18, color: 'Y' }]);
    expect(n.squares).toEqual([{ square: 27, color: 'G' }, { square: 63, color: 'B' }]);
    // A command that does not read stays text.
    const [h] = parsePgn('1. e4 {[%cal Xe2e4]} *', { variations: true, backend });
    expect(h!.tree!.children[0]!.comment).toBe('[%cal Xe2e4]');
  });

  it('makes an illegal move in a variation the game\'s error, and reads on', async () => {
    const games = parsePgn(STUDY, { variations: true, backend });
    expect(games[2]!.error).toBeInstanceOf(PgnError);
    expect(games[2]!.error!.reason).toBe('illegal move');
    expect(games[2]!.error!.token).toBe('Ke3');
    const at = STUDY.toString('latin1').split('\n').findIndex((l) => l.includes('(1... Ke3)'));
    expect(games[2]!.error!.line).toBe(at + 1);
    expect(games[3]!.error).toBeUndefined();
    // The streaming reader too.
    const streamed = [];
    for await (const g of readPgn(STUDY, { variations: true, backend })) streamed.push(g);
    expect(streamed.map((g) => g.error?.reason)).toEqual(games.map((g) => g.error?.reason));
    // A variation before any move has no move to replace.
    const [v] = parsePgn('( 1. d4 ) 1. e4 *', { variations: true, backend });
    expect(v!.error!.reason).toBe('unbalanced parenthesis');
  });

  it('reads games without variations (the reader\'s main line, its comments and NAGs) as chessops reads them', () => {
    const games = parsePgn(CORPUS, { variations: true, backend });
    const ops = chessopsTrees(CORPUS);
    expect(games.length).toBe(ops.length);
    let commented = 0;
    games.forEach((g, i) => {
      if (g.error) return;
      expect(plain(g.tree!.children)).toEqual(ops[i]!.children);
      expect(g.tree!.comment).toBe(ops[i]!.comment);
      commented += mainLine(g.tree!).filter((n) => n.clock !== null || n.comment !== '' || n.nags.length > 0).length;
    });
    expect(commented).toBeGreaterThan(100);
    // A ';' comment and a variation-free game with a '(' in a comment take the tree reader's path: the same answer.
    const [a] = parsePgn('{a (b} 1. e4 ; skipped\n{c} e5 $2 *', { variations: true, backend });
    const [b] = parsePgn('{a b} 1. e4 ; skipped\n{c} e5 $2 *', { variations: true, backend });
    expect(a!.tree!.children).toEqual(b!.tree!.children);
    expect(b!.tree!.children[0]!.comment).toBe('c');
  });

  it('gives every backend\'s trees the same as the JS backend\'s', () => {
    expect(parsePgn(STUDY, { variations: true, backend }).map((g) => g.tree)).toEqual(parsePgn(STUDY, { variations: true, backend: 'js' }).map((g) => g.tree));
  });

  it('a tree made on first read (a game without variations) is an ordinary property, taken from the text as it was read', () => {
    // The corpus's main lines written again: comments, NAGs, clocks and evals, no variation.
    const text = writePgn(parsePgn(CORPUS, { comments: true, annotations: true, backend: 'js' }).filter((g) => !g.error));
    const bytes = Buffer.from(text);
    const games = parsePgn(bytes, { variations: true, backend });
    expect(games.filter((g) => Object.getOwnPropertyDescriptor(g, 'tree')!.get !== undefined).length).toBe(games.length);
    // The input and the game's arrays change after the read: the trees do not.
    bytes.fill(0x20);
    for (const g of games) { g.moves.reverse(); g.sans.fill('??'); }
    const fresh = parsePgn(text, { variations: true, backend });
    const ok = games.map((g, i) => [g, fresh[i]!] as const).filter(([g]) => !g.error);
    expect(ok.length).toBeGreaterThan(50);
    for (const [g, f] of ok) {
      expect(Object.keys(g)).toEqual(Object.keys(f));
      expect(Object.getOwnPropertyDescriptor(g, 'tree')!.enumerable).toBe(true);
      expect(g.tree).toEqual(f.tree);
      expect(g.tree).toBe(g.tree);
    }
    // Serialised, cloned and spread with its tree; assigned and deleted as any property.
    const [g, f] = ok[0]!;
    expect(JSON.parse(JSON.stringify(structuredClone(f))).tree).toEqual(JSON.parse(JSON.stringify(g.tree)));
    expect({ ...f }.tree).toEqual(g.tree);
    const other: PgnTree = { comment: 'mine', children: [] };
    f.tree = other;
    expect(f.tree).toBe(other);
    delete f.tree;
    expect('tree' in f).toBe(false);
    expect(Object.freeze(parsePgn(text, { variations: true, backend })[0]!).tree).toEqual(g.tree);
  });
});

describe.each(pgnBackends)('positions of every node (%s)', (backend) => {
  const api = backend === 'native' ? nativeApi! : backend === 'wasm' ? wasmApi! : jsApi;
  it('gives the start and every node, each as makeMove reaches it along its path; the main line as without variations', () => {
    const games = parsePgn(STUDY, { variations: true, backend });
    const p = pgnPositions(STUDY, { variations: true, backend });
    const nodes = games.filter((g) => !g.error).reduce((n, g) => n + 1 + countNodes(g.tree!.children), 0);
    expect(p.batch.length).toBe(nodes);
    // Each node's moves: its parent's plus its own, in the preorder the ids follow.
    const paths = new Map<string, string[]>();
    const expected: { game: number; node: number; parent: number; ply: number; main: number; path: string[] }[] = [];
    for (const g of games.filter((x) => !x.error)) {
      let id = 0;
      expected.push({ game: g.game, node: 0, parent: -1, ply: 0, main: 1, path: [] });
      const walk = (n: PgnTree | PgnNode, nid: number, path: string[], main: boolean) => {
        n.children.forEach((c, k) => {
          const cid = ++id;
          const cpath = [...path, c.uci];
          expected.push({ game: g.game, node: cid, parent: nid, ply: cpath.length, main: main && k === 0 ? 1 : 0, path: cpath });
          walk(c, cid, cpath, main && k === 0);
        });
      };
      walk(g.tree!, 0, [], true);
      paths.set(String(g.game), []);
    }
    expect(Array.from(p.game)).toEqual(expected.map((e) => e.game));
    expect(Array.from(p.node!)).toEqual(expected.map((e) => e.node));
    expect(Array.from(p.parent!)).toEqual(expected.map((e) => e.parent));
    expect(Array.from(p.ply)).toEqual(expected.map((e) => e.ply));
    expect(Array.from(p.mainLine!)).toEqual(expected.map((e) => e.main));
    const nullMove = (pos: ReturnType<typeof api.parseFen>) => {
      const f = api.toFen(pos).split(' ');
      f[1] = f[1] === 'w' ? 'b' : 'w';
      f[3] = '-';
      if (f[1] === 'w') f[5] = String(Number(f[5]) + 1);
      f[4] = String(Number(f[4]) + 1);
      return api.parseFen(f.join(' '));
    };
    const replayed = expected.map((e) => {
      let pos = api.parseFen(games[e.game - 1]!.startFen);
      for (const m of e.path) pos = m === '0000' ? nullMove(pos) : api.makeMove(pos, m);
      return pos;
    });
    expectSameBytes(p.batch.words, PositionBatch.fromPositions(replayed).words);
    // The main line is what the reader gives without variations (which does not see game 3's
    // illegal move in a variation: its positions are left out here).
    const plain = pgnPositions(STUDY, { backend });
    const main = expected.map((e, i) => (e.main ? i : -1)).filter((i) => i >= 0);
    const good = Array.from(plain.game, (g, i) => (games[g - 1]!.error ? -1 : i)).filter((i) => i >= 0);
    expect(good.length).toBe(plain.batch.length - 4);
    const plainWords = plain.batch.words;
    const kept = new BigUint64Array(good.length * 10);
    good.forEach((i, k) => kept.set(plainWords.subarray(i * 10, i * 10 + 10), k * 10));
    expectSameBytes(PositionBatch.fromPositions(main.map((i) => replayed[i]!)).words, kept);
    expect(() => pgnPositions(STUDY, { variations: true, select: { mode: 'final' } })).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------- writing trees

const jsSan = createSanApi('js');
const COLORS: PgnShapeColor[] = ['G', 'R', 'Y', 'B'];
const WORDS = ['good', 'idea', 'the', 'plan', 'e4!', 'risky', 'with', 'tempo', 'Kasparov', 'é', '(sic)', 'a;b', '%'];

/** A random legal tree from a seed: the package's move generator picks the moves. */
function randomTree(seed: number, size: number): PgnTree {
  let s = seed >>> 0 || 1;
  const rnd = (n: number) => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s % n;
  };
  const text = (): string => {
    const n = rnd(4);
    const w: string[] = [];
    for (let i = 0; i < n; i++) w.push(WORDS[rnd(WORDS.length)]!);
    return w.join(rnd(5) === 0 ? '\n' : ' ');
  };
  let budget = size;
  const grow = (pos: ReturnType<typeof jsApi.parseFen>, depth: number, variationStart: boolean): PgnNode | null => {
    const moves = jsApi.legalMoves(pos);
    if (moves.length === 0 || budget <= 0) return null;
    budget--;
    const uci = moves[rnd(moves.length)]!;
    const node: PgnNode = {
      san: jsSan.toSan(pos, uci), uci, nags: [[], [], [1 + rnd(139)], [1 + rnd(6)], [1 + rnd(6), 1 + rnd(139)], [10 + rnd(130), 1 + rnd(6)]][rnd(6)]!, comment: rnd(3) === 0 ? text() : '',
      startingComment: variationStart && rnd(2) === 0 ? text() : '',
      clock: rnd(3) === 0 ? rnd(10000) + (rnd(2) ? 0.5 : 0) : null,
      eval: rnd(4) === 0 ? (rnd(5) === 0 ? { mate: rnd(20) - 10 || 1 } : { cp: rnd(2001) - 1000 }) : null,
      arrows: rnd(4) === 0 ? [{ from: rnd(64), to: rnd(64), color: COLORS[rnd(4)]! }].filter((a) => a.from !== a.to) : [],
      squares: rnd(5) === 0 ? [{ square: rnd(64), color: COLORS[rnd(4)]! }, { square: rnd(64), color: COLORS[rnd(4)]! }] : [],
      children: [],
    };
    const after = jsApi.makeMove(pos, uci);
    const main = grow(after, depth, false);
    if (main) node.children.push(main);
    // Variations on the next move: alternatives from the same position.
    while (main && depth < 6 && rnd(4) === 0) {
      const alt = grow(after, depth + 1, true);
      if (!alt || node.children.some((c) => c.uci === alt.uci)) break;
      node.children.push(alt);
    }
    return node;
  };
  const start = jsApi.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  const first = grow(start, 0, false);
  const tree: PgnTree = { comment: rnd(2) ? text() : '', children: first ? [first] : [] };
  if (first && rnd(2)) {
    const alt = grow(start, 1, true);
    if (alt && alt.uci !== first.uci) tree.children.push(alt);
  }
  return tree;
}

/** What reading gives for a written comment: python-chess's trimming. */
function normalized(t: PgnTree): PgnTree {
  const fix = (s: string) => s.split('\n').map((l, i, a) => (i < a.length - 1 ? l.trimEnd() : l)).join('\n').trim();
  const walk = (n: PgnNode): PgnNode => ({ ...n, comment: fix(n.comment), startingComment: fix(n.startingComment), children: n.children.map(walk) });
  return { comment: fix(t.comment), children: t.children.map(walk) };
}

describe.each(pgnBackends)('writing PGN trees (%s)', (backend) => {
  it('reads back every random tree node for node, and chessops reads the same tree', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 120 }), fc.boolean(), (seed, size, suffixes) => {
      const tree = normalized(randomTree(seed, size));
      const text = writePgn({ tags: { Event: 'random' }, moves: [], tree }, { suffixes });
      const [g] = parsePgn(text, { variations: true, backend });
      expect(g!.error).toBeUndefined();
      expect(g!.tree).toEqual(tree);
      expect(g!.moves).toEqual(mainLine(tree).map((n) => n.uci));
      const [ops] = chessopsTrees(text);
      expect(ops!.comment).toBe(tree.comment);
      expect(ops!.children).toEqual(plain(tree.children));
    }), { numRuns: 60 });
  });

  it('writes the study fixture back to the same trees', () => {
    const games = parsePgn(STUDY, { variations: true, backend }).filter((g) => g.error === undefined);
    const again = parsePgn(writePgn(games), { variations: true, backend });
    expect(again.map((g) => g.tree)).toEqual(games.map((g) => g.tree));
  });

  it('refuses a tree it cannot write', () => {
    const bad = (tree: unknown) => () => writePgn({ moves: [], tree: tree as PgnTree });
    expect(bad({ comment: '', children: [{ san: 'e4 e5', children: [] }] })).toThrow(RangeError);
    expect(bad({ comment: '', children: [{ san: 'e4', nags: [300], children: [] }] })).toThrow(RangeError);
    expect(bad({ comment: '', children: [{ san: 'e4', arrows: [{ from: 1, to: 99, color: 'G' }], children: [] }] })).toThrow(RangeError);
    expect(bad({ comment: '', children: [{ san: 'e4', arrows: [{ from: 1, to: 9, color: 'green' }], children: [] }] })).toThrow(RangeError);
    expect(bad({ comment: '', children: 3 })).toThrow(TypeError);
  });
});

describe('the addon\'s tree reader (native/core/pgn_tree.h) against the TS tree reader', () => {
  const others = pgnBackends.filter((b) => b !== 'js');
  /** What a read says of each game: its tree (made), its error's message. */
  const read = (text: string | Uint8Array, backend: 'js' | 'native' | 'wasm') =>
    parsePgn(text, { variations: true, backend }).map((g) => ({ tree: g.tree, error: g.error?.message }));
  // Tokens spliced into real movetext: variations opened and closed anywhere, comments of every
  // kind and place, NAGs good and bad, null moves, move numbers, stray delimiters and escape lines.
  const TOKENS = ['(', ')', '( ', ' )', '{c}', '{a\n b }', '{[%clk 0:01:02] x [%cal Ge2e4]}', '$1', '$300', '$', '!?', '??', '--', 'Z0',
    '; rest\n', '\n% escape\n', '1.', '12...', '...', 'e4', 'e5', 'Nf3', 'Nc6', 'd4', 'exd5', 'O-O', 'O-O-O', 'Qxf7#', 'Ke2', '}', '"', ']',
    'e9', 'Nbd7', 'a8=Q', '*', '1-0', '1/2-1/2', '(1... e6)', '(2. d4 d5 (2... c6))'];
  const SOURCE = STUDY.toString('latin1') + '\n\n' + CORPUS;

  it.skipIf(others.length === 0)('gives the same trees and errors on the fixtures with random splices', () => {
    fc.assert(fc.property(fc.nat(SOURCE.length), fc.integer({ min: 200, max: 3000 }),
      fc.array(fc.tuple(fc.nat(3000), fc.constantFrom(...TOKENS), fc.boolean()), { maxLength: 12 }), (at, length, edits) => {
        let text = SOURCE.slice(at, at + length);
        for (const [where, token, cut] of edits) {
          const k = where % (text.length + 1);
          text = text.slice(0, k) + ` ${token} ` + text.slice(cut ? Math.min(text.length, k + 1 + (where % 7)) : k);
        }
        const bytes = Buffer.from(text, 'latin1');
        const truth = read(bytes, 'js');
        for (const b of others) expect(read(bytes, b)).toEqual(truth);
      }), { numRuns: 300, seed: 4711 });
  });

  it.skipIf(others.length === 0)('gives the same trees as the TS reader on every fixture and on Chess960 and FEN games', () => {
    const texts = [STUDY, Buffer.from(CORPUS),
      Buffer.from('[Variant "Chess960"]\n[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]\n\n9. g3 (9. O-O d5 (9... O-O 10. Nc3)) 9... O-O 10. O-O *\n'),
      Buffer.from('[FEN "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"]\n\n1. exd6 (1. e6 Kd8 (1... d4 2. e7)) 1... Kd7 *\n'),
      Buffer.from('[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O (1. Rh8+ Kd7 (1... Ke7 -- (2. Rh7+)) 2. Rh7+) 1... -- (1... Kd7 2. --) *\n')];
    for (const dir of ['messy', 'quirky', 'chessbase']) {
      texts.push(readFileSync(new URL(`../fixtures/pgn/${dir}.pgn`, import.meta.url)));
    }
    let nodes = 0;
    for (const t of texts) {
      const truth = read(t, 'js');
      nodes += truth.reduce((n, g) => n + countNodes(g.tree!.children), 0);
      for (const b of others) expect(read(t, b)).toEqual(truth);
    }
    expect(nodes).toBeGreaterThan(3000);
  });

  it.skipIf(!nativeApi)('refuses bad arguments with a TypeError or RangeError', () => {
    const tree = loadNative().pgn.tree!;
    const words = new BigUint64Array(10);
    const ok = jsApi.parseFen(parsePgn('*', { backend: 'js' })[0]!.startFen).packed;
    const text = Buffer.from('1. e4 (1. d4) e5 *');
    const events = new Int32Array(100);
    const sans = new Uint8Array(100);
    expect(tree(text, 0, text.length, ok, events, 0, sans, 0)).toBe(3 * 4);
    expect(Buffer.from(sans.subarray(0, 6)).toString()).toBe('e4d4e5');
    expect(tree(text, 0, text.length, ok, events, 95, sans, 0)).toBe(-1);
    expect(tree(text, 0, text.length, ok, events, 0, sans, 97)).toBe(-1);
    expect(() => tree(text, 3, 2, ok, events, 0, sans, 0)).toThrow(RangeError);
    expect(() => tree(text, 0, text.length + 1, ok, events, 0, sans, 0)).toThrow(RangeError);
    expect(() => tree(text, 0, 1, ok, events, 101, sans, 0)).toThrow(RangeError);
    expect(() => tree(text, 0, 1, words, events, 0, sans, 0)).toThrow(RangeError);
    expect(() => tree(text, 0, 1, ok, new Uint32Array(4) as unknown as Int32Array, 0, sans, 0)).toThrow(TypeError);
    expect(() => tree('x' as unknown as Uint8Array, 0, 1, ok, events, 0, sans, 0)).toThrow(TypeError);
  });
});
