/**
 * PGN variations as a tree (`parsePgn(text, { variations: true })`): every game's movetext read
 * again, with its recursive annotation variations (PGN standard section 8.2.5), comments, NAGs and
 * the embedded commands of the PGN Specification Supplement (`[%clk]`, `[%eval]`) and of lichess and
 * ChessBase (`[%cal]` arrows, `[%csl]` squares).
 *
 * Where comments go is python-chess's rule (its `GameBuilder`): a comment before any move is the
 * game's (the root's); a comment after a move belongs to that move, and so does one after a
 * variation that closes behind it; a comment at the start of a variation, before its first move, is
 * that move's `startingComment`; two comments of one place are joined with a line end. The text of
 * a comment is trimmed (and each of its lines but the last loses its trailing blanks). `;` comments
 * are skipped, as python-chess and chessops skip them, and so are `%` escape lines (section 6).
 * A variation opened before the first move has no move to be an alternative to: an error.
 *
 * One builder for every backend: the backend reads the game (tags, main line, errors); this module
 * reads the movetext the backend delimited, with the JS move generator's ply stack
 * (lib/board/movegen.ts), and its main line is checked against the backend's in the tests.
 */
import { BOARD, MAX_MOVES, MOVES, PLY_WORDS, loadPacked, play, typeAt } from '../board/movegen.js';
import * as jsSan from '../backends/js/san.js';
import { checkers } from '../backends/js/checks.js';
import { moveTextStart, nagOf, suffixNagOf } from '../backends/js/pgn.js';
import { readAnnotations, ANNOTATION_CLOCK, ANNOTATION_CP, ANNOTATION_MATE, ANNOTATION_FIELDS } from '../backends/js/pgn-annotations.js';
import { parseFen } from '../core/position.js';
import { uciOf } from './san.js';
import type { PgnEval } from './pgn-annotations.js';

/** A lichess / ChessBase shape colour: green, red, yellow, blue. */
export type PgnShapeColor = 'G' | 'R' | 'Y' | 'B';
/** An arrow of a `[%cal]` command (squares as the package's indices, 0 = a1). */
export interface PgnArrow { from: number; to: number; color: PgnShapeColor }
/** A square of a `[%csl]` command. */
export interface PgnSquare { square: number; color: PgnShapeColor }

/** One move of the tree, with what was written about it. */
export interface PgnNode {
  /** Canonical SAN ('--' for a null move). */
  san: string;
  /** UCI ('0000' for a null move). */
  uci: string;
  /** NAGs in the order written (suffixes `!` `?` `!!` `??` `!?` `?!` as 1..6). */
  nags: number[];
  /** The comments after the move, joined, without the commands read into the fields below. */
  comment: string;
  /** A comment before the first move of a variation. */
  startingComment: string;
  /** `[%clk]` in seconds, or null. */
  clock: number | null;
  /** `[%eval]` from White's view, or null. */
  eval: PgnEval | null;
  arrows: PgnArrow[];
  squares: PgnSquare[];
  /** The moves that follow: the first continues this line, the others are variations, as written. */
  children: PgnNode[];
}

/** The start of a game: its comment (before any move) and its first moves. */
export interface PgnTree {
  comment: string;
  children: PgnNode[];
}

/** What went wrong while reading a tree: a PgnError's reason and where. */
export interface TreeProblem {
  reason: 'malformed move' | 'illegal move' | 'ambiguous move' | 'null move while in check' | 'unbalanced parenthesis';
  tokenStart: number;
  tokenEnd: number;
}

const DELIMITER = new Uint8Array(256);
for (const c of ' \t\r\n\v\f{}()[];$"') DELIMITER[c.charCodeAt(0)] = 1;
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const SHAPE_COLORS = 'GRYB';
const SHAPE = /^[GRYB][a-h][1-8](?:[a-h][1-8])?$/;
/** The commands read into node fields; the rest of a comment stays text. */
const COMMAND = /[ \t\r\n]*\[%(clk|eval|cal|csl)[ \t\r\n]+([^\][]*)\]/g;

function squareOf(s: string, at: number): number {
  return (s.charCodeAt(at) - 97) + 8 * (s.charCodeAt(at + 1) - 49);
}

/** The text of a comment as python-chess keeps it: lines but the last right-trimmed, the whole trimmed. */
export function commentText(p: Uint8Array, start: number, end: number): string {
  const s = Buffer.from(p.buffer, p.byteOffset + start, end - start).toString('utf8');
  if (!s.includes('\n')) return s.trim();
  const lines = s.split('\n');
  for (let i = 0; i < lines.length - 1; i++) lines[i] = lines[i]!.trimEnd();
  return lines.join('\n').trim();
}

/**
 * The empty lists of a read node's `nags`, `arrows` and `squares`: one frozen array shared by every
 * node that has none (most nodes), so that reading a tree makes one array per node, not four.
 */
export const NONE: never[] = Object.freeze([]) as unknown as never[];

export function newNode(san: string, uci: string, startingComment: string): PgnNode {
  return { san, uci, nags: NONE, comment: '', startingComment, clock: null, eval: null, arrows: NONE, squares: NONE, children: [] };
}

/**
 * Moves the embedded commands of a node's comment into its fields: the last `[%clk]` and `[%eval]`
 * (values as the readers accept them, native/core/annotations.h), every `[%cal]` and `[%csl]`; a
 * command that does not read stays in the text.
 */
export function readCommands(node: PgnNode): void {
  const text = node.comment;
  if (!text.includes('[%')) return;
  node.clock = null;
  node.eval = null;
  node.arrows = NONE;
  node.squares = NONE;
  node.comment = text.replace(COMMAND, (whole: string, name: string, value: string) => {
    if (name === 'cal' || name === 'csl') {
      const parts = value.trim().split(',');
      if (!parts.every((x) => SHAPE.test(x) && (x.length === 5) === (name === 'cal'))) return whole;
      if (name === 'cal' && node.arrows === NONE) node.arrows = [];
      if (name === 'csl' && node.squares === NONE) node.squares = [];
      for (const x of parts) {
        const color = x[0] as PgnShapeColor;
        if (name === 'cal') node.arrows.push({ from: squareOf(x, 1), to: squareOf(x, 3), color });
        else node.squares.push({ square: squareOf(x, 1), color });
      }
      return '';
    }
    const bytes = Buffer.from(whole.trimStart(), 'latin1');
    const out: number[] = [];
    readAnnotations(bytes, 0, bytes.length, 0, 1, out);
    if (out.length !== ANNOTATION_FIELDS) return whole;
    const kind = out[2]!;
    if (kind === ANNOTATION_CLOCK) node.clock = out[3]! + out[4]! / 1000;
    else if (kind === ANNOTATION_CP) node.eval = { cp: out[3]! };
    else if (kind === ANNOTATION_MATE) node.eval = { mate: out[3]! };
    return '';
  }).trim();
}

export function addNag(node: PgnNode, nag: number): void {
  if (node.nags === NONE) node.nags = [nag];
  else node.nags.push(nag);
}

/** One line being read: the node its next move follows, and the board before its last move. */
interface Frame {
  parent: PgnNode | PgnTree;
  last: PgnNode | null;
  /** The board before `last` (the position at `parent`), PLY_WORDS words. */
  before: Int32Array;
  /** The board after `last`, while an inner variation is read. */
  after: Int32Array;
}

const frames: Frame[] = [];
function frameAt(depth: number): Frame {
  let f = frames[depth];
  if (f === undefined) {
    f = { parent: null as unknown as PgnTree, last: null, before: new Int32Array(PLY_WORDS), after: new Int32Array(PLY_WORDS) };
    frames[depth] = f;
  }
  return f;
}
const save = (into: Int32Array): void => { for (let k = 0; k < PLY_WORDS; k++) into[k] = BOARD[k]!; };
const load = (from: Int32Array): void => { for (let k = 0; k < PLY_WORDS; k++) BOARD[k] = from[k]!; };

/** The packed words of a game's start position, or null when they do not read. */
export function startWords(startFen: string, chess960: boolean): Int32Array | null {
  try {
    const pos = parseFen(startFen, checkers, { chess960 });
    return new Int32Array(pos.packed.buffer, pos.packed.byteOffset, 20);
  } catch {
    return null;
  }
}

/** The tree of the movetext p[start, end) from the start position `words`; `problem` when it stopped early. */
export function readTree(p: Uint8Array, start: number, end: number, words: Int32Array): { tree: PgnTree; problem: TreeProblem | null } {
  const tree: PgnTree = { comment: '', children: [] };
  loadPacked(words, 0, 0);
  let listN = jsSan.generateClean(0);
  let depth = 0;
  let f = frameAt(0);
  f.parent = tree;
  f.last = null;
  // python-chess's state: a move was read since the last '('.
  let inVariation = false;
  let starting = '';
  const fail = (reason: TreeProblem['reason'], tokenStart: number, tokenEnd: number) =>
    ({ tree, problem: { reason, tokenStart, tokenEnd } });
  const top = (): PgnNode | PgnTree => f.last ?? f.parent;
  let i = start;
  while (i < end) {
    const c = p[i]!;
    if (isSpace(c)) { i++; continue; }
    if (c === 37 && (i === 0 || p[i - 1] === 10)) {
      while (i < end && p[i] !== 10) i++;
      continue;
    }
    if (c === 59) {
      while (i < end && p[i] !== 10) i++;
      continue;
    }
    if (c === 123) {
      const s = ++i;
      while (i < end && p[i] !== 125) i++;
      const text = commentText(p, s, i);
      i++;
      const node = top();
      if (inVariation || (node === tree && tree.children.length === 0)) {
        const joined = node.comment === '' ? text : `${node.comment}\n${text}`.trim();
        node.comment = joined;
      } else {
        starting = starting === '' ? text : `${starting}\n${text}`.trim();
      }
      continue;
    }
    if (c === 40) {
      if (f.last === null) return fail('unbalanced parenthesis', i, i + 1);
      save(f.after);
      const outer = f;
      f = frameAt(++depth);
      f.parent = outer.parent;
      f.last = null;
      load(outer.before);
      listN = jsSan.generateClean(0);
      inVariation = false;
      i++;
      continue;
    }
    if (c === 41) {
      if (depth === 0) return fail('unbalanced parenthesis', i, i + 1);
      f = frames[--depth]!;
      load(f.after);
      listN = jsSan.generateClean(0);
      i++;
      continue;
    }
    const s = i;
    if (c === 36) i++;
    while (i < end && DELIMITER[p[i]!] === 0) i++;
    if (i === s) return fail('malformed move', s, s + 1);
    const e = i;
    const len = e - s;
    if ((len === 1 && c === 42) || (len === 3 && p[s + 1] === 45 && ((c === 49 && p[s + 2] === 48) || (c === 48 && p[s + 2] === 49))) ||
      (len === 7 && c === 49 && p[s + 1] === 47 && p[s + 2] === 50 && p[s + 3] === 45)) {
      // A termination marker ends the game (the reader checked which one).
      break;
    }
    if (c === 36) {
      const nag = nagOf(p, s, e);
      if (nag < 0) return fail('malformed move', s, e);
      const node = top();
      if (node !== tree) addNag(node as PgnNode, nag);
      continue;
    }
    // A move number indication before the move, or alone.
    const k = moveTextStart(p, s, e);
    if (k === e) continue;
    const suffix = suffixNagOf(p, k, e);
    if (!jsSan.parseSyntax(p, k, e)) return fail('malformed move', k, e);
    const r = jsSan.resolve(0, listN);
    const status = jsSan.sanStatus(r);
    let node: PgnNode;
    save(f.before);
    if (status === jsSan.SAN_NULL_MOVE) {
      if (jsSan.inCheckAt(0)) return fail('null move while in check', k, e);
      jsSan.playNull(0);
      for (let w = 0; w < PLY_WORDS; w++) BOARD[w] = BOARD[PLY_WORDS + w]!;
      listN = jsSan.generateClean(0);
      node = newNode('--', '0000', starting);
    } else if (status === jsSan.SAN_ILLEGAL) {
      return fail('illegal move', k, e);
    } else if (status === jsSan.SAN_AMBIGUOUS) {
      return fail('ambiguous move', k, e);
    } else {
      const m = jsSan.sanMove(r);
      play(0, m);
      const childN = jsSan.generateClean(1);
      const san = jsSan.write(0, listN, m, jsSan.inCheckAt(1) ? (childN === 0 ? 2 : 1) : 0);
      for (let w = 0; w < PLY_WORDS; w++) BOARD[w] = BOARD[PLY_WORDS + w]!;
      MOVES.copyWithin(0, MAX_MOVES, MAX_MOVES + childN);
      listN = childN;
      node = newNode(san, uciOf(m), starting);
    }
    starting = '';
    if (suffix !== 0) node.nags = [suffix];
    adopt(f.last ?? f.parent, node);
    if (f.last !== null) f.parent = f.last;
    f.last = node;
    inVariation = true;
  }
  return { tree, problem: null };
}

/** TreeProblem reasons by native/core/pgn_tree.h's codes. */
const TREE_PROBLEMS: readonly TreeProblem['reason'][] = ['malformed move', 'illegal move', 'ambiguous move', 'null move while in check', 'unbalanced parenthesis'];
const UCI_OF: string[] = [];

/** Whether a backend's tree events (events[from, to)) hold a comment. */
export function hasComment(events: Int32Array, from: number, to: number): boolean {
  for (let e = from; e < to; e += 4) if (events[e] === 1 || events[e] === 2) return true;
  return false;
}

/** The problem that stopped a backend's tree read (events[from, to)), or null: its last event. */
export function eventProblem(events: Int32Array, from: number, to: number): TreeProblem | null {
  const e = to - 4;
  if (e < from || events[e] !== 4) return null;
  return { reason: TREE_PROBLEMS[events[e + 1]!]!, tokenStart: events[e + 2]!, tokenEnd: events[e + 3]! };
}

/** Adds `node` to `parent`'s children (the first in an array of its own size: most nodes have one). */
function adopt(parent: PgnNode | PgnTree, node: PgnNode): void {
  if (parent.children.length === 0) parent.children = [node];
  else parent.children.push(node);
}

/**
 * The tree of a backend's events (events[from, to)), in the order of the text, made into nodes with
 * readTree's rules for joining comments; `sans` holds the nodes' SAN one after the other from
 * `sanAt`, and the comments are in `text` (the text read, or a copy) at their events' places. The
 * nodes' commands are not read yet (readTreeCommands).
 */
export function treeFromEvents(events: Int32Array, from: number, to: number, sans: Uint8Array, sanAt: number, text: Uint8Array): PgnTree {
  const tree: PgnTree = { comment: '', children: [] };
  const nodes: PgnNode[] = [];
  let sanEnd = sanAt;
  for (let e = from; e < to; e += 4) if (events[e] === 0) sanEnd += events[e + 3]! >>> 8;
  const sanText = Buffer.from(sans.buffer, sans.byteOffset + sanAt, sanEnd - sanAt).toString('latin1');
  let at = 0;
  let starting = '';
  for (let e = from; e < to; e += 4) {
    const a = events[e + 1]!;
    const b = events[e + 2]!;
    switch (events[e]) {
      case 0: {
        const c = events[e + 3]!;
        const san = sanText.slice(at, at += c >>> 8);
        const node = newNode(san, b === 0 ? '0000' : (UCI_OF[b] ??= uciOf(b)), starting);
        starting = '';
        if ((c & 255) !== 0) node.nags = [c & 255];
        adopt(a < 0 ? tree : nodes[a]!, node);
        nodes.push(node);
        break;
      }
      case 1: {
        const node = a < 0 ? tree : nodes[a]!;
        const comment = commentText(text, b, events[e + 3]!);
        node.comment = node.comment === '' ? comment : `${node.comment}\n${comment}`.trim();
        break;
      }
      case 2: {
        const comment = commentText(text, b, events[e + 3]!);
        starting = starting === '' ? comment : `${starting}\n${comment}`.trim();
        break;
      }
      case 3:
        addNag(nodes[a]!, b);
        break;
      default:
    }
  }
  return tree;
}

/** Every node's commands read into its fields (after the whole tree is read: comments join first). */
export function readTreeCommands(tree: PgnTree): void {
  const stack: PgnNode[] = [...tree.children];
  while (stack.length > 0) {
    const n = stack.pop()!;
    readCommands(n);
    for (const c of n.children) stack.push(c);
  }
}

export { SHAPE_COLORS };

/** The positions of every node of trees (pgnPositions with { variations: true }). */
export interface TreePositionRows {
  /** Packed words as int32 halves (20 per position). */
  halves: Int32Array;
  count: number;
  game: number[];
  /** Node id in its game: 0 the start position, then the moves in the order written (preorder). */
  node: number[];
  /** The parent's node id, -1 at the start position. */
  parent: number[];
  ply: number[];
  /** 1 on the main line (the start position included). */
  mainLine: number[];
}

export function newTreePositionRows(): TreePositionRows {
  return { halves: new Int32Array(20 * 256), count: 0, game: [], node: [], parent: [], ply: [], mainLine: [] };
}

/**
 * Appends the position at the start and after every node of `tree` (the game's start position
 * `words`) to `rows`, as the reader writes positions: the board, side, castling, en passant (clean),
 * the halfmove clock and the fullmove number.
 */
export function treePositions(tree: PgnTree, words: Int32Array, gameNumber: number, rows: TreePositionRows): void {
  loadPacked(words, 0, 0);
  let n = jsSan.generateClean(0);
  const halfmove0 = ((words[16]! >>> 16) | (words[17]! << 16)) & 0xfffff;
  const fullmove0 = words[18]!;
  let id = 0;
  const write = (node: number, parent: number, ply: number, main: boolean, halfmove: number, fullmove: number): void => {
    if ((rows.count + 1) * 20 > rows.halves.length) {
      const b = new Int32Array(rows.halves.length * 2);
      b.set(rows.halves);
      rows.halves = b;
    }
    const a = rows.halves;
    let w = rows.count * 20;
    for (let k = 0; k < 16; k++) a[w++] = BOARD[k]!;
    const ep = BOARD[18]!;
    const c960 = BOARD[20]!;
    a[w++] = BOARD[16]! | (BOARD[17]! << 1) | (c960 !== 0 ? 0x20 : 0) | ((ep < 0 ? 64 : ep) << 8) | ((halfmove & 0xffff) << 16);
    a[w++] = (halfmove >>> 16) | ((c960 & 0xfff) << 8);
    a[w++] = fullmove;
    a[w++] = 0;
    rows.count++;
    rows.game.push(gameNumber);
    rows.node.push(node);
    rows.parent.push(parent);
    rows.ply.push(ply);
    rows.mainLine.push(main ? 1 : 0);
  };
  write(0, -1, 0, true, halfmove0, fullmove0);
  // Depth first, each child from its parent's board (saved per depth of the walk).
  const boards: Int32Array[] = [];
  const walk = (parentNode: PgnNode | PgnTree, parentId: number, ply: number, main: boolean, halfmove: number, fullmove: number): void => {
    const saved = boards[ply] ??= new Int32Array(PLY_WORDS);
    for (let k = 0; k < PLY_WORDS; k++) saved[k] = BOARD[k]!;
    const kids = parentNode.children;
    for (let c = 0; c < kids.length; c++) {
      const child = kids[c]!;
      if (c > 0) {
        for (let k = 0; k < PLY_WORDS; k++) BOARD[k] = saved[k]!;
        n = jsSan.generateClean(0);
      }
      let reset = false;
      if (child.uci === '0000') {
        jsSan.playNull(0);
      } else {
        const code = codeOf(child.uci, n);
        const to = (code >> 6) & 63;
        const from = code & 63;
        const us = BOARD[16]!;
        reset = typeAt(0, from) === 0 || (BOARD[2 * (us ^ 1) + (to >> 5)]! & (1 << (to & 31))) !== 0;
        play(0, code);
      }
      for (let k = 0; k < PLY_WORDS; k++) BOARD[k] = BOARD[PLY_WORDS + k]!;
      n = jsSan.generateClean(0);
      const hm = reset ? 0 : Math.min(halfmove + 1, 1_000_000);
      const fm = BOARD[16] === 0 ? Math.min(fullmove + 1, 1_000_000) : fullmove;
      const myId = ++id;
      const onMain = main && c === 0;
      write(myId, parentId, ply + 1, onMain, hm, fm);
      walk(child, myId, ply + 1, onMain, hm, fm);
    }
  };
  walk(tree, 0, 0, true, halfmove0, fullmove0);
}

/** The move code of a UCI move among the n moves generated at ply 0 (the tree's moves are legal). */
function codeOf(uci: string, n: number): number {
  const from = (uci.charCodeAt(0) - 97) + 8 * (uci.charCodeAt(1) - 49);
  const to = (uci.charCodeAt(2) - 97) + 8 * (uci.charCodeAt(3) - 49);
  const promo = uci.length > 4 ? ' nbrq'.indexOf(uci[4]!) : 0;
  const code = from | (to << 6) | (promo << 12);
  for (let k = 0; k < n; k++) if (MOVES[k] === code) return code;
  throw new RangeError(`the move ${uci} is not legal in its position`);
}
