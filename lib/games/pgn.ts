/**
 * PGN: games from Portable Game Notation text (the PGN standard's import format, section 8), read
 * natively when the addon loads (native/core/pgn.h) and by the JS twin otherwise (lib/backends/js/pgn.ts),
 * the same records either way.
 *
 * - `parsePgn(text)`: every game of a string or bytes, as an array.
 * - `readPgn(source)`: games one at a time (async iterable) from a string, bytes, a Node Readable,
 *   any async iterable of chunks, or `{ path }` (a file); memory bounded by the largest game.
 * - `readPgnPositions(source, { select })`: the positions of the games as `PositionBatch`es (one per
 *   chunk) with the game number and ply of each position, for `analyzeBatch` / `toPlanes`;
 *   `pgnPositions(text)` the same for text in memory.
 * - `splitPgn(source)`: the source cut at game boundaries into pieces (about 1 MB, numbered), and
 *   `pgnPiecePositions(piece)`: a piece's positions, as the whole-source reader numbers them: the
 *   unit of work for threads or machines.
 *
 * A game: `{ game, line, tags, startFen, moves /* UCI *\/, sans, result, outcome, error?, comments?, nags? }`.
 * `outcome` is how the rules end the game at its last position (lib/games/outcome.ts: checkmate,
 * insufficient material, stalemate, the 75- and 50-move rules, five- and threefold repetition), or
 * null; a bad game's is null. `{ outcome: false }` leaves it out (the reader then keeps no history).
 * `sans` are the canonical SAN of the moves (whatever the file wrote); a null move (`--`, `Z0`) is
 * `'0000'` / `'--'`. A bad game (bad tag, malformed / illegal / ambiguous move, null move in check,
 * unbalanced ')', unterminated comment, bad FEN tag, a Variant other than standard chess) keeps the
 * moves before the error, gets a `PgnError` in `error`, and reading goes on with the next game.
 * Variations are skipped; comments (`{...}` and `;`) and NAGs (`$n`, and `!` `?` `!!` `??` `!?` `?!`
 * as $1..$6) are kept with `{ comments: true }`, each with the ply it follows. With
 * `{ annotations: true }` a game also has `clocks`, `emts` and `evals`, parallel to `moves`: the
 * `[%clk]`, `[%emt]` and `[%eval]` commands of the main-line brace comments after each move
 * (lib/games/pgn-annotations.ts).
 */
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { PositionBatch } from '../batch/batch.js';
import { STARTING_FEN, errorText } from '../core/position.js';
import { checkArray } from '../core/validate.js';
import * as jsPgn from '../backends/js/pgn.js';
import { BOARD, generate, loadPacked, play } from '../board/movegen.js';
import * as jsSan from '../backends/js/san.js';
import { defaultBackendName, uciOf } from './san.js';
import { backendNamed } from '../backends/named.js';
import type { PgnBackend } from '../backends/contract.js';
import { parseFen } from '../core/position.js';
import { jsBackend } from '../backends/js/index.js';
import { annotationsOf, positionAnnotations, type PgnEval, type PositionAnnotations } from './pgn-annotations.js';
import { outcomeOf, type PgnOutcome } from './outcome.js';
import {
  addNag, commentText, eventProblem, hasComment, newNode, newTreePositionRows, readTree, readTreeCommands, startWords, treeFromEvents,
  treePositions, type PgnNode, type PgnTree, type TreeProblem,
} from './pgn-tree.js';

import { PGN_RESULTS as RESULTS, isChess960Variant, unescapeTag, type PgnResult } from './pgn-tags.js';

export type { PgnResult } from './pgn-tags.js';

/** Why a game was refused (PGN_ERRORS[code]). */
export const PGN_ERRORS = [
  '', 'malformed tag pair', 'malformed move', 'illegal move', 'ambiguous move', 'null move while in check',
  'unbalanced parenthesis', 'unterminated comment', 'invalid FEN tag', 'unsupported variant',
] as const;
export type PgnProblem = Exclude<(typeof PGN_ERRORS)[number], ''>;

/** A game that could not be read to its end: where (game number from 1, line, column in bytes from 1) and why. */
export class PgnError extends Error {
  override readonly name = 'PgnError';
  readonly game: number;
  readonly line: number;
  readonly column: number;
  /** The offending text (at most 60 characters). */
  readonly token: string;
  readonly reason: PgnProblem;
  /** Ambiguous moves: the UCI moves the token could mean. */
  readonly candidates: readonly string[];
  constructor(game: number, line: number, column: number, token: string, reason: PgnProblem, detail = '', candidates: readonly string[] = []) {
    const text = errorText(token);
    const t = text.length > 60 ? `${text.slice(0, 60)}...` : text;
    if (!Array.isArray(candidates)) candidates = [];
    reason = errorText(reason) as PgnProblem;
    const d = errorText(detail ?? '');
    super(`game ${errorText(game)}, line ${errorText(line)}, column ${errorText(column)}: ${reason} ${JSON.stringify(t)}${d ? ` (${d})` : ''}`);
    this.game = game;
    this.line = line;
    this.column = column;
    this.token = t;
    this.reason = reason;
    this.candidates = candidates;
  }
}

export interface PgnComment { ply: number; text: string }
export interface PgnNag { ply: number; nag: number }

export interface PgnGame {
  /** Game number in the source, from 1. */
  game: number;
  /** Line where the game starts. */
  line: number;
  tags: Record<string, string>;
  /** The FEN tag's value, or the standard start position. */
  startFen: string;
  /** Main-line moves, UCI (castling as the king's move, e1g1); '0000' for a null move. */
  moves: string[];
  /** The same moves in canonical SAN ('--' for a null move); empty with { sans: false }. */
  sans: string[];
  /** The game termination marker; null when the game had none. */
  result: PgnResult | null;
  /**
   * How the rules of chess end the game at the end of its main line (FIDE Laws 5.2, 9.2, 9.3, 9.6),
   * or null when they do not, or for a bad game; absent with { outcome: false }.
   */
  outcome?: PgnOutcome | null;
  error?: PgnError;
  comments?: PgnComment[];
  nags?: PgnNag[];
  /** With { annotations: true }: the `[%clk h:mm:ss(.f)]` after each move, in seconds; null where absent. */
  clocks?: (number | null)[];
  /** With { annotations: true }: the `[%emt h:mm:ss(.f)]` (time the move took) after each move, in seconds. */
  emts?: (number | null)[];
  /** With { annotations: true }: the `[%eval]` after each move, `{ cp }` or `{ mate }` from White's view. */
  evals?: (PgnEval | null)[];
  /**
   * With { variations: true }: the moves as a tree (lib/games/pgn-tree.ts), variations and their
   * comments, NAGs, clocks, evals, arrows and squares included; its first children are `moves`.
   */
  tree?: PgnTree;
}

export interface PgnOptions {
  /** Read the variations into each game's `tree` (default false). */
  variations?: boolean;
  /** Keep comments and NAGs (default false). */
  comments?: boolean;
  /** Read `[%clk]`, `[%emt]` and `[%eval]` of the comments into clocks, emts and evals (default false). */
  annotations?: boolean;
  /** Write the SAN of each move (default true). */
  sans?: boolean;
  /**
   * Each game's `outcome` (default true for parsePgn and readPgn; for the positions readers, with
   * { games: true } only). false: no outcome, and no per-move position history kept.
   */
  outcome?: boolean;
  /** 'native' | 'wasm' | 'js' (default: the facade's backend). */
  backend?: 'native' | 'wasm' | 'js';
}

export interface PositionSelect {
  /** 'all' (default): every selected ply; 'final': only each game's last position. */
  mode?: 'all' | 'final';
  /** Every Nth ply (default 1), counted from `fromPly`. */
  every?: number;
  /** From this ply on (default 0: the start position). */
  fromPly?: number;
}

/** The position arrays of an earlier result, to write the next read's positions into. */
type Into = readonly [BigUint64Array, Uint32Array, Uint32Array];

type Reader = PgnBackend['read'];

export function readerFor(which: 'native' | 'wasm' | 'js' | undefined): Reader {
  return backendNamed(which ?? defaultBackendName()).pgn.read;
}

/**
 * The `reuse` option: an earlier result of pgnPositions / pgnPiecePositions whose batch, game and ply
 * arrays the next read overwrites. Each must be on its own plain ArrayBuffer, apart from the text.
 */
function checkReuse(fn: string, reuse: unknown, text: Uint8Array): Into | undefined {
  if (reuse === undefined) return undefined;
  const r = reuse as Partial<GamePositions> | null;
  if (typeof r !== 'object' || r === null || !(r.batch instanceof PositionBatch) || !(r.game instanceof Uint32Array) ||
      !(r.ply instanceof Uint32Array)) {
    throw new TypeError(`${fn}: reuse must be an earlier result of pgnPositions or pgnPiecePositions ({ batch, game, ply })`);
  }
  const arrays = [r.batch.words, r.game, r.ply] as const;
  const buffers = arrays.map((a) => a.buffer);
  if (buffers.some((b) => !(b instanceof ArrayBuffer))) throw new TypeError(`${fn}: reuse's arrays must be on ArrayBuffers (not shared memory)`);
  if (new Set([...buffers, text.buffer]).size !== 4) {
    throw new RangeError(`${fn}: reuse's batch, game and ply must each have their own memory, apart from the text`);
  }
  return arrays;
}

function checkOptions(fn: string, options: unknown): PgnOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object`);
  const o = options as PgnOptions;
  if (o.annotations !== undefined && typeof o.annotations !== 'boolean') throw new TypeError(`${fn}: annotations must be a boolean`);
  if (o.backend !== undefined && o.backend !== 'native' && o.backend !== 'wasm' && o.backend !== 'js') {
    throw new RangeError(`${fn}: backend must be 'native', 'wasm' or 'js', got ${JSON.stringify(o.backend)}`);
  }
  if (o.outcome !== undefined && typeof o.outcome !== 'boolean') throw new TypeError(`${fn}: outcome must be a boolean`);
  if (o.variations !== undefined && typeof o.variations !== 'boolean') throw new TypeError(`${fn}: variations must be a boolean`);
  return o;
}
function checkSelect(fn: string, select: unknown): Required<PositionSelect> {
  const s = (select ?? {}) as PositionSelect;
  if (typeof s !== 'object') throw new TypeError(`${fn}: select must be an object`);
  const mode = s.mode ?? 'all';
  if (mode !== 'all' && mode !== 'final') throw new RangeError(`${fn}: select.mode must be 'all' or 'final'`);
  const every = s.every ?? 1;
  const fromPly = s.fromPly ?? 0;
  if (!Number.isInteger(every) || every < 1 || every > 1e9) throw new RangeError(`${fn}: select.every must be an integer 1..1e9`);
  if (!Number.isInteger(fromPly) || fromPly < 0 || fromPly > 1e9) throw new RangeError(`${fn}: select.fromPly must be an integer 0..1e9`);
  return { mode, every, fromPly };
}

function flagsOf(o: PgnOptions): number {
  // Trees read by the backend read their comments themselves; the others are made from the reader's.
  const treeComments = o.variations === true && treeReaderOf(o) === undefined;
  return (o.sans === false ? 0 : jsPgn.PGN_WRITE_SAN) | (o.comments || treeComments ? jsPgn.PGN_WRITE_COMMENTS : 0) |
    (o.annotations ? jsPgn.PGN_WRITE_ANNOTATIONS : 0) | (o.outcome === false ? 0 : jsPgn.PGN_OUTCOME);
}

/** Where the moves of a game stood when its error happened: the candidates of an ambiguous move. */
function ambiguousCandidates(startFen: string, moves: readonly number[], token: string, chess960: boolean): string[] {
  try {
    const pos = parseFen(startFen, (q, c) => jsBackend.checkers(q, c), { chess960 });
    loadPacked(new Int32Array(pos.packed.buffer, pos.packed.byteOffset, 20), 0, 0);
    for (const m of moves) {
      if (m === 0) jsSan.playNull(0); else play(0, m);
      for (let k = 0; k < 19; k++) BOARD[k] = BOARD[20 + k]!;
    }
    const n = generate(0, false);
    const bytes = Buffer.from(token, 'latin1');
    const e = bytes.length;
    // The reader took off a move number before the move.
    let s = 0;
    while (s < e && bytes[s]! >= 48 && bytes[s]! <= 57) s++;
    if (s < e && bytes[s] === 46) { while (s < e && bytes[s] === 46) s++; } else s = 0;
    if (!jsSan.parseSyntax(bytes, s, e)) return [];
    return jsSan.candidates(0, n).map(uciOf).sort();
  } catch {
    return [];
  }
}

/** UCI text by move code, made once per code: the games share the strings. */
const UCI: (string | undefined)[] = new Array(1 << 16);

/** Where the movetext of a game starts: after its last tag pair's ']'. */
function movetextStart(p: Uint8Array, r: jsPgn.PgnRecords, rec: Int32Array): number {
  const G = jsPgn.G;
  const count = rec[G.tagCount]!;
  if (count === 0) return rec[G.start]!;
  const t = rec[G.tagStart]! + count - 1;
  let k = r.tags[4 * t + 3]! + 1;
  while (k < p.length && p[k] !== 93) k++;
  return k + 1;
}

/** Line and column (bytes, from 1) of byte `at` of a game that starts at `start` on line `line`. */
function lineColumn(p: Uint8Array, start: number, line: number, at: number): [number, number] {
  let lineStart = start;
  while (lineStart > 0 && p[lineStart - 1] !== 10) lineStart--;
  for (let k = start; k < at; k++) if (p[k] === 10) { line++; lineStart = k + 1; }
  return [line, at - lineStart + 1];
}

/** The standard start position's packed words (read only), made once. */
let standardWords: Int32Array | undefined;
let standardWords64: BigUint64Array | undefined;

/** Whether the movetext p[start, end) opens a variation: a '(' outside comments. */
function hasVariation(p: Uint8Array, start: number, end: number): boolean {
  if (p.subarray(start, end).indexOf(40) < 0) return false;
  for (let i = start; i < end; i++) {
    const c = p[i]!;
    if (c === 40) return true;
    if (c === 123) {
      while (i < end && p[i] !== 125) i++;
    } else if (c === 59 || (c === 37 && (i === 0 || p[i - 1] === 10))) {
      while (i < end && p[i] !== 10) i++;
    }
  }
  return false;
}

/**
 * The tree of a game without variations from the reader's records: its moves and SAN, its brace
 * comments (a ';' comment is skipped, as the tree reader skips it) and NAGs by ply; one before the
 * first move is the game's.
 */
function mainLineTree(line: MainLine): PgnTree {
  const tree: PgnTree = { comment: '', children: [] };
  const nodes: PgnNode[] = new Array(line.moves.length);
  let parent: PgnTree | PgnNode = tree;
  for (let i = 0; i < nodes.length; i++) {
    const n = newNode(line.sans[i]!, line.moves[i]!, '');
    parent.children = [n];
    nodes[i] = n;
    parent = n;
  }
  const { comments, nags } = line;
  for (let c = 0; c < comments.length; c += 3) {
    const ply = comments[c]!;
    const text = commentText(line.text, comments[c + 1]!, comments[c + 2]!);
    const node: PgnTree | PgnNode = ply === 0 ? tree : nodes[ply - 1]!;
    node.comment = node.comment === '' ? text : `${node.comment}\n${text}`.trim();
  }
  for (let k = 0; k < nags.length; k += 2) {
    const ply = nags[k]!;
    if (ply > 0) addNag(nodes[ply - 1]!, nags[k + 1]!);
  }
  readTreeCommands(tree);
  return tree;
}

/**
 * What the tree of a game without variations is made of, taken from the reader's records at once
 * (the records and the text may be reused after the read): the moves, the brace comments by ply
 * (ply, start, end, ... in `text`, a copy of the text) and the NAGs (ply, nag, ...).
 */
interface MainLine { moves: string[]; sans: string[]; text: Uint8Array; comments: number[]; nags: number[] }

function mainLineOf(p: Uint8Array, r: jsPgn.PgnRecords, rec: Int32Array, game: PgnGame, store: TreeStore): MainLine {
  const G = jsPgn.G;
  const comments: number[] = [];
  for (let c = rec[G.commentStart]!; c < rec[G.commentStart]! + rec[G.commentCount]!; c++) {
    const s = r.comments[3 * c + 1]!;
    if (p[s - 1] !== 123) continue;
    comments.push(r.comments[3 * c]!, s, r.comments[3 * c + 2]!);
  }
  const nags: number[] = [];
  for (let k = rec[G.nagStart]!; k < rec[G.nagStart]! + rec[G.nagCount]!; k++) nags.push(r.nags[2 * k]!, r.nags[2 * k + 1]!);
  return { moves: game.moves.slice(), sans: game.sans.slice(), text: comments.length > 0 ? textCopy(store, p) : NO_TEXT, comments, nags };
}

/**
 * The store's copy of the text the games were read from, made on first need: the trees still to be
 * made keep it (the caller may change or reuse its own bytes after the read).
 */
function textCopy(store: TreeStore, p: Uint8Array): Uint8Array {
  return store.text ??= store.owned ? p : p.slice();
}

/**
 * game.tree made on its first read (`make`): a game's tree is as many objects as it has moves, and a
 * caller reading with { variations: true } for the side lines of some games pays for the others'
 * only when it looks at them. The property is an ordinary enumerable one to read, copy, serialise,
 * assign or delete.
 */
function defineLazyTree(game: PgnGame, make: () => PgnTree): void {
  let pending: (() => PgnTree) | undefined = make;
  let tree: PgnTree | undefined;
  Object.defineProperty(game, 'tree', {
    enumerable: true,
    configurable: true,
    get(): PgnTree {
      if (pending !== undefined) {
        tree = pending();
        pending = undefined;
      }
      return tree!;
    },
    set(value: PgnTree) {
      pending = undefined;
      tree = value;
    },
  });
}

/** The backend's tree reader (PgnBackend.tree) for a read with these options, if it has one. */
function treeReaderOf(o: PgnOptions): PgnBackend['tree'] {
  return backendNamed(o.backend ?? defaultBackendName()).pgn.tree;
}

const NO_TEXT = new Uint8Array(0);
const scratchTree = { events: new Int32Array(1 << 12), sans: new Uint8Array(1 << 12) };

/**
 * The tree of the movetext p[start, end) read by the backend at once into scratch memory (for a
 * tree made on first read, whose text has no problem the reader did not report).
 */
function treeNow(backendTree: NonNullable<PgnBackend['tree']>, p: Uint8Array, start: number, end: number, words: BigUint64Array): PgnTree {
  const room = 4 * (end - start) + 4;
  if (scratchTree.events.length < room) scratchTree.events = new Int32Array(room);
  if (scratchTree.sans.length < room) scratchTree.sans = new Uint8Array(room);
  const { events, sans } = scratchTree;
  const count = backendTree(p, start, end, words, events, 0, sans, 0);
  if (count < 0) throw new Error('the tree reader found no room for a tree it was given room for');
  const tree = treeFromEvents(events, 0, count, sans, 0, p);
  readTreeCommands(tree);
  return tree;
}

/** The packed words of a game's start position (the standard one shared), or null when they do not read. */
function wordsOf(startFen: string, chess960: boolean): Int32Array | null {
  return !chess960 && startFen === STARTING_FEN ? (standardWords ??= startWords(STARTING_FEN, false)!) : startWords(startFen, chess960);
}
function words64Of(words: Int32Array): BigUint64Array {
  return words === standardWords ? (standardWords64 ??= new BigUint64Array(words.buffer, words.byteOffset, 10))
    : new BigUint64Array(words.buffer, words.byteOffset, 10);
}

/** What the trees made on first read in one gamesOf call keep, one tree after another (each array replaced, not grown, when full). */
interface TreeStore {
  events: Int32Array;
  used: number;
  sans: Uint8Array;
  sanUsed: number;
  /** A copy of the text, once a tree needs it (for its comments). */
  text?: Uint8Array;
  /** The text is the read's own (made from a string): no copy is needed. */
  owned: boolean;
}

/**
 * The game's tree, from the movetext the reader delimited; a problem in a variation (the reader
 * skips them) becomes the game's error, and a problem the reader already reported stays its own.
 */
function treeOf(p: Uint8Array, r: jsPgn.PgnRecords, rec: Int32Array, game: PgnGame, chess960: boolean, backendTree: PgnBackend['tree'],
  store: TreeStore): void {
  const G = jsPgn.G;
  const error = rec[G.error]!;
  if (error === jsPgn.PGN_BAD_FEN || error === jsPgn.PGN_UNSUPPORTED_VARIANT || error === jsPgn.PGN_BAD_TAG) {
    game.tree = { comment: '', children: [] };
    return;
  }
  const start = movetextStart(p, r, rec);
  const end = rec[G.end]!;
  const plainLine = error === 0 && game.sans.length === game.moves.length && !hasVariation(p, start, end);
  if (plainLine && !backendTree) {
    // No variation: the tree is the reader's main line with its comments and NAGs, made when read.
    const line = mainLineOf(p, r, rec, game, store);
    defineLazyTree(game, () => mainLineTree(line));
    return;
  }
  if (plainLine && backendTree) {
    // No variation, and the reader found no problem: the backend reads the tree when it is first read.
    const text = textCopy(store, p);
    const startFen = game.startFen;
    defineLazyTree(game, () => {
      const words = wordsOf(startFen, chess960);
      return words === null ? { comment: '', children: [] } : treeNow(backendTree, text, start, end, words64Of(words));
    });
    return;
  }
  const words = wordsOf(game.startFen, chess960);
  if (words === null) {
    game.tree = { comment: '', children: [] };
    return;
  }
  let problem: TreeProblem | null;
  if (backendTree) {
    // The backend reads the tree now (its problem is the game's error); its nodes are made when read.
    const words64 = words64Of(words);
    const room = 4 * (end - start) + 4;
    if (store.events.length - store.used < room || store.sans.length - store.sanUsed < room) {
      // A fresh store: the trees still to be made keep the memory of theirs.
      store.events = new Int32Array(Math.max(1 << 16, room));
      store.sans = new Uint8Array(Math.max(1 << 16, room));
      store.used = 0;
      store.sanUsed = 0;
    }
    const { events, sans } = store;
    const from = store.used;
    const sanAt = store.sanUsed;
    const count = backendTree(p, start, end, words64, events, from, sans, sanAt);
    if (count < 0) throw new Error('the tree reader found no room for a tree it was given room for');
    const to = from + count;
    store.used = to;
    for (let e = from; e < to; e += 4) if (events[e] === 0) store.sanUsed += events[e + 3]! >>> 8;
    const text = hasComment(events, from, to) ? textCopy(store, p) : NO_TEXT;
    problem = eventProblem(events, from, to);
    defineLazyTree(game, () => {
      const tree = treeFromEvents(events, from, to, sans, sanAt, text);
      readTreeCommands(tree);
      return tree;
    });
  } else {
    const read = readTree(p, start, end, words);
    problem = read.problem;
    game.tree = read.tree;
    readTreeCommands(read.tree);
  }
  if (problem !== null && game.error === undefined) {
    const [line, column] = lineColumn(p, rec[G.start]!, rec[G.line]!, problem.tokenStart);
    const token = Buffer.from(p.buffer, p.byteOffset + problem.tokenStart, problem.tokenEnd - problem.tokenStart).toString('utf8');
    game.error = new PgnError(game.game, line, column, token, problem.reason, 'in a variation');
  }
}

/** Turns the records of one read into game objects (numbered from firstGame). */
export function gamesOf(bytes: Uint8Array, r: jsPgn.PgnRecords, firstGame: number, o: PgnOptions, onlyBad = false, owned = false): PgnGame[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const G = jsPgn.G;
  const F = jsPgn.GAME_RECORD;
  const sanText = Buffer.from(r.san.buffer, r.san.byteOffset, r.san.byteLength);
  const out: PgnGame[] = [];
  const annotated = o.annotations === true && r.annotations !== undefined;
  let cursor = 0;
  const backendTree = o.variations === true ? treeReaderOf(o) : undefined;
  // A plain view for the tree readers: a Buffer's subarray goes through its species constructor.
  const plain = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const store: TreeStore = { events: new Int32Array(0), used: 0, sans: new Uint8Array(0), sanUsed: 0, owned };
  for (let g = 0; g * F < r.games.length; g++) {
    if (onlyBad && r.games[g * F + G.error] === 0) continue;
    const rec = r.games.subarray(g * F, g * F + F);
    const tags: Record<string, string> = {};
    for (let t = rec[G.tagStart]!; t < rec[G.tagStart]! + rec[G.tagCount]!; t++) {
      const name = buf.toString('latin1', r.tags[4 * t]!, r.tags[4 * t + 1]!);
      tags[name] = unescapeTag(buf.toString('utf8', r.tags[4 * t + 2]!, r.tags[4 * t + 3]!));
    }
    const fenTag = rec[G.fenTag]!;
    const startFen = fenTag >= 0 ? (tags.FEN ?? STARTING_FEN).trim() : STARTING_FEN;
    const codes = r.moves.subarray(rec[G.moveStart]!, rec[G.moveStart]! + rec[G.moveCount]!);
    const moves = new Array<string>(codes.length);
    for (let i = 0; i < codes.length; i++) moves[i] = UCI[codes[i]!] ??= uciOf(codes[i]!);
    const sans = rec[G.sanEnd]! > rec[G.sanStart]! ? sanText.toString('latin1', rec[G.sanStart]!, rec[G.sanEnd]! - 1).split(' ') : [];
    const result = rec[G.result]! >= 0 ? RESULTS[rec[G.result]!]! : null;
    const game: PgnGame = { game: firstGame + g, line: rec[G.line]!, tags, startFen, moves, sans, result };
    if (o.outcome !== false) game.outcome = outcomeOf(rec[G.outcome]!);
    const code = rec[G.error]!;
    if (code !== 0) {
      const token = buf.toString('utf8', rec[G.errorTokenStart]!, rec[G.errorTokenEnd]!);
      const reason = PGN_ERRORS[code] as PgnProblem;
      let detail = '';
      let cands: string[] = [];
      if (code === jsPgn.PGN_AMBIGUOUS_MOVE) {
        cands = ambiguousCandidates(startFen, Array.from(codes), token, isChess960Variant(tags.Variant));
        detail = `it matches ${cands.join(', ')}`;
      } else if (code === jsPgn.PGN_ILLEGAL_MOVE) {
        detail = `after ${moves.length} plies`;
      }
      game.error = new PgnError(firstGame + g, rec[G.errorLine]!, rec[G.errorColumn]!, token, reason, detail, cands);
    }
    if (o.comments) {
      const comments: PgnComment[] = [];
      for (let c = rec[G.commentStart]!; c < rec[G.commentStart]! + rec[G.commentCount]!; c++) {
        comments.push({ ply: r.comments[3 * c]!, text: buf.toString('utf8', r.comments[3 * c + 1]!, r.comments[3 * c + 2]!) });
      }
      const nags: PgnNag[] = [];
      for (let k = rec[G.nagStart]!; k < rec[G.nagStart]! + rec[G.nagCount]!; k++) nags.push({ ply: r.nags[2 * k]!, nag: r.nags[2 * k + 1]! });
      game.comments = comments;
      game.nags = nags;
    }
    if (o.variations === true) treeOf(plain, r, rec, game, isChess960Variant(tags.Variant), backendTree, store);
    if (annotated) {
      const a = annotationsOf(r.annotations, cursor, g, moves.length);
      cursor = a.next;
      game.clocks = a.clocks;
      game.emts = a.emts;
      game.evals = a.evals;
    }
    out.push(game);
  }
  return out;
}

export function bytesOf(fn: string, text: unknown): Uint8Array {
  if (typeof text === 'string') return Buffer.from(text, 'utf8');
  if (text instanceof Uint8Array) {
    // Read through the engine's own accessors: a detached view, or a subclass with a lying length,
    // is a TypeError here rather than an engine error later.
    const view = checkArray(fn, 'text', text, Uint8Array);
    return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  }
  throw new TypeError(`${fn}: text must be a string or a Uint8Array / Buffer`);
}

/** Every game of a PGN text (string, or bytes read as UTF-8), in order. */
export function parsePgn(text: string | Uint8Array, options?: PgnOptions): PgnGame[] {
  const o = checkOptions('parsePgn', options);
  const bytes = bytesOf('parsePgn', text);
  const r = readerFor(o.backend)(bytes, flagsOf(o) | jsPgn.PGN_LAST_CHUNK, 1, 0, 1);
  return gamesOf(bytes, r, 1, o, false, typeof text === 'string');
}

/** The raw records of a text (for tests and tools): native/core/pgn.h's Output. */
export function readPgnRecords(text: string | Uint8Array, flags: number, select: PositionSelect = {}, backend?: 'native' | 'wasm' | 'js'): jsPgn.PgnRecords {
  const s = checkSelect('readPgnRecords', select);
  return readerFor(backend)(bytesOf('readPgnRecords', text), flags, s.every, s.fromPly, 1);
}

export type PgnSource = string | Uint8Array | Readable | AsyncIterable<Uint8Array | string> | { path: string }
  | Blob | ReadableStream<Uint8Array | string>;

const CHUNK = 1 << 20;

async function* chunksOf(fn: string, source: PgnSource): AsyncGenerator<Uint8Array> {
  if (typeof source === 'string' || source instanceof Uint8Array) {
    const bytes = bytesOf(fn, source);
    for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
    return;
  }
  if (typeof source === 'object' && source !== null && 'path' in source && typeof (source as { path: unknown }).path === 'string') {
    const file = await open((source as { path: string }).path, 'r');
    try {
      for (;;) {
        const buffer = Buffer.allocUnsafe(CHUNK);
        const { bytesRead } = await file.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await file.close();
    }
    return;
  }
  // A Blob (a File of an <input>, a fetched body's blob()) is read as its stream.
  if (typeof Blob !== 'undefined' && source instanceof Blob) source = source.stream();
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) {
    // Through a reader: not every browser's ReadableStream is async iterable.
    const reader = (source as ReadableStream<Uint8Array | string>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield bytesOf(fn, value);
      }
    } finally {
      reader.releaseLock();
    }
    return;
  }
  if (typeof source === 'object' && source !== null && Symbol.asyncIterator in source) {
    for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
      yield bytesOf(fn, chunk);
    }
    return;
  }
  throw new TypeError(`${fn}: source must be a string, a Uint8Array / Buffer, a Blob, a ReadableStream, a Readable, an async iterable of chunks or { path }`);
}

export interface ChunkRead { bytes: Uint8Array; records: jsPgn.PgnRecords; firstGame: number; firstLine?: number; notFirst?: boolean }

/**
 * Reads a source chunk by chunk, each read ending at a game boundary. `join` (splitPgn's pieces of
 * about a megabyte): a stream's chunks, whatever their size, are copied into one buffer until it
 * holds CHUNK bytes, and each read gets a buffer of its own (the bytes after its last game go to the
 * next buffer before the read is handed on), so its records may keep or move it.
 */
export async function* recordsOf(fn: string, source: PgnSource, flags: number, s: Required<PositionSelect>, backend?: 'native' | 'wasm' | 'js',
  join = false): AsyncGenerator<ChunkRead> {
  const read = readerFor(backend);
  let carry: Uint8Array = new Uint8Array(0);
  let line = 1;
  let game = 1;
  let first = true;
  const run = (bytes: Uint8Array, last: boolean): ChunkRead => {
    const r = read(bytes, flags | (last ? jsPgn.PGN_LAST_CHUNK : 0) | (first ? 0 : jsPgn.PGN_NOT_FIRST), s.every, s.fromPly, line, game);
    const out = { bytes, records: r, firstGame: game, firstLine: line, notFirst: !first };
    game += r.games.length / jsPgn.GAME_RECORD;
    line = r.consumedLine;
    if (r.consumed > 0) first = false;
    return out;
  };
  if (join) {
    let acc = new Uint8Array(2 * CHUNK);
    let n = 0;
    // The size at which to read next: CHUNK, or twice what held no whole game or line (a huge one).
    let readAt = CHUNK;
    for await (const chunk of chunksOf(fn, source)) {
      if (n + chunk.length > acc.length) {
        const grown = new Uint8Array(Math.max(2 * acc.length, n + chunk.length));
        grown.set(acc.subarray(0, n));
        acc = grown;
      }
      acc.set(chunk, n);
      n += chunk.length;
      if (n < readAt) continue;
      const cut = acc.lastIndexOf(10, n - 1) + 1;
      const r = cut === 0 ? undefined : run(acc.subarray(0, cut), false);
      if (!r || r.records.consumed === 0) {
        readAt = 2 * n;
        continue;
      }
      readAt = CHUNK;
      const rest = acc.subarray(r.records.consumed, n);
      acc = new Uint8Array(Math.max(2 * CHUNK, 2 * rest.length));
      acc.set(rest);
      n = rest.length;
      if (r.records.games.length > 0) yield r;
    }
    const r = run(acc.subarray(0, n), true);
    if (r.records.games.length > 0) yield r;
    return;
  }
  for await (const chunk of chunksOf(fn, source)) {
    const joined = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const cut = joined.lastIndexOf(10) + 1;
    if (cut === 0) { carry = joined === chunk ? Uint8Array.from(chunk) : joined; continue; }
    const head = joined.subarray(0, cut);
    const r = run(head, false);
    if (r.records.games.length > 0) yield r;
    carry = Uint8Array.from(joined.subarray(r.records.consumed));
  }
  const r = run(carry, true);
  if (r.records.games.length > 0) yield r;
}

/** Games one at a time from a string, bytes, a Blob, a ReadableStream, a Readable, an async iterable of chunks or { path }. */
export async function* readPgn(source: PgnSource, options?: PgnOptions): AsyncGenerator<PgnGame> {
  const o = checkOptions('readPgn', options);
  for await (const c of recordsOf('readPgn', source, flagsOf(o), { mode: 'all', every: 1, fromPly: 0 }, o.backend)) {
    yield* gamesOf(c.bytes, c.records, c.firstGame, o);
  }
}

export interface PositionsOptions extends PgnOptions {
  select?: PositionSelect;
  /** Also return every game object (default: only the bad games). */
  games?: boolean;
}

/** pgnPositions / pgnPiecePositions options. */
export interface ReusePositionsOptions extends PositionsOptions {
  /**
   * An earlier result whose memory this call writes its positions into (its `batch`, `game` and `ply`
   * are overwritten: do not use them afterwards, nor while an async call still reads the batch). Where
   * an array is too small the call takes new memory with room to spare, and the next call reuses that.
   * For a loop over many texts or pieces: it saves allocating fresh memory for every call, which the
   * system must then fault in page by page. The result is the same as without it.
   */
  reuse?: GamePositions;
}

/** Positions of many games: a batch and, per position, its game number (from 1) and ply (0 = start). */
export interface GamePositions {
  batch: PositionBatch;
  game: Uint32Array;
  ply: Uint32Array;
  /** The games these positions come from (with { games: true }), else only the bad ones. */
  games: PgnGame[];
  /**
   * With { annotations: true }: per position, the [%clk] and [%eval] of the move that led to it
   * (`clock` seconds, `evalCp`, `evalMate`; NaN where absent), without making game objects.
   */
  annotations?: PositionAnnotations;
  /** With { variations: true }: per position, its node's id in its game (0: the start position, then preorder). */
  node?: Uint32Array;
  /** With { variations: true }: the parent node's id (-1 for the start position). */
  parent?: Int32Array;
  /** With { variations: true }: 1 where the node is on the main line. */
  mainLine?: Uint8Array;
}

/**
 * The positions of every node of the games of one read (pgnPositions / readPgnPositions with
 * { variations: true }): the start position and the position after each move of each tree.
 */
function treePositionsOf(c: ChunkRead, allGames: boolean, o: PgnOptions): GamePositions {
  const games = gamesOf(c.bytes, c.records, c.firstGame, { ...o, variations: true, outcome: allGames ? o.outcome : false });
  const rows = newTreePositionRows();
  for (const g of games) {
    if (g.error !== undefined) continue;
    const words = startWords(g.startFen, isChess960Variant(g.tags.Variant));
    if (words !== null) treePositions(g.tree!, words, g.game, rows);
  }
  const halves = rows.halves.slice(0, rows.count * 20);
  return {
    batch: PositionBatch.fromPacked(new BigUint64Array(halves.buffer, 0, rows.count * 10)),
    game: Uint32Array.from(rows.game), ply: Uint32Array.from(rows.ply), node: Uint32Array.from(rows.node),
    parent: Int32Array.from(rows.parent), mainLine: Uint8Array.from(rows.mainLine),
    games: allGames ? games : games.filter((g) => g.error !== undefined),
  };
}

function checkTreeSelect(fn: string, o: PositionsOptions, s: Required<PositionSelect>): void {
  if (o.variations && (s.mode !== 'all' || s.every !== 1 || s.fromPly !== 0)) {
    throw new RangeError(`${fn}: select cannot be used with variations: true (every node's position is given)`);
  }
}

/**
 * The positions of the games, chunk by chunk: every ply by default, or `select` ({ mode: 'final' },
 * { every: N }, { fromPly: K }). Bad games contribute no positions (their error is in `games`).
 */
export async function* readPgnPositions(source: PgnSource, options?: PositionsOptions): AsyncGenerator<GamePositions> {
  const o = checkOptions('readPgnPositions', options) as PositionsOptions;
  const s = checkSelect('readPgnPositions', o.select);
  const flags = flagsOf({ ...o, sans: o.games ? o.sans : false, outcome: o.games ? o.outcome : false }) | jsPgn.PGN_WRITE_POSITIONS | (s.mode === 'final' ? jsPgn.PGN_FINAL_ONLY : 0);
  checkTreeSelect('readPgnPositions', o, s);
  for await (const c of recordsOf('readPgnPositions', source, o.variations ? flagsOf(o) : flags, s, o.backend)) {
    yield o.variations ? treePositionsOf(c, o.games === true, o) : positionsOf(c, o.games === true, o);
  }
}

/** The positions of a read made with gameBase = c.firstGame: positionGame holds the game numbers. */
function positionsOf(c: ChunkRead, allGames: boolean, o: PgnOptions): GamePositions {
  const r = c.records;
  const games = gamesOf(c.bytes, r, c.firstGame, { ...o, outcome: allGames ? o.outcome : false }, !allGames);
  const out: GamePositions = { batch: PositionBatch.fromPacked(r.positions), game: r.positionGame, ply: r.positionPly, games };
  if (o.annotations) out.annotations = positionAnnotations(r.annotations, r.positionGame, r.positionPly, c.firstGame);
  readerRecords.set(out, { records: r, firstGame: c.firstGame });
  return out;
}

/** The reader's records behind a result of positionsOf (its SAN text and game records). */
const readerRecords = new WeakMap<GamePositions, { records: jsPgn.PgnRecords; firstGame: number }>();

/**
 * The reader's records a GamePositions was made from, and the number of their first game (for the
 * analyze command's native record writer, which reads the SAN from them); undefined for other results.
 */
export function readerRecordsOf(chunk: GamePositions): { records: jsPgn.PgnRecords; firstGame: number } | undefined {
  return readerRecords.get(chunk);
}

/** readPgnPositions for text in memory, in one piece. */
export function pgnPositions(text: string | Uint8Array, options?: ReusePositionsOptions): GamePositions {
  const o = checkOptions('pgnPositions', options) as ReusePositionsOptions;
  const s = checkSelect('pgnPositions', o.select);
  const bytes = bytesOf('pgnPositions', text);
  const into = checkReuse('pgnPositions', o.reuse, bytes);
  checkTreeSelect('pgnPositions', o, s);
  if (o.variations) {
    const r = readerFor(o.backend)(bytes, flagsOf(o) | jsPgn.PGN_LAST_CHUNK, 1, 0, 1);
    return treePositionsOf({ bytes, records: r, firstGame: 1 }, o.games === true, o);
  }
  const flags = flagsOf({ ...o, sans: o.games ? o.sans : false, outcome: o.games ? o.outcome : false }) | jsPgn.PGN_WRITE_POSITIONS | jsPgn.PGN_LAST_CHUNK |
    (s.mode === 'final' ? jsPgn.PGN_FINAL_ONLY : 0);
  const r = readerFor(o.backend)(bytes, flags, s.every, s.fromPly, 1, 1, into);
  return positionsOf({ bytes, records: r, firstGame: 1 }, o.games === true, o);
}

/** A run of complete games cut from a source at game boundaries (see splitPgn). */
export interface PgnPiece {
  bytes: Uint8Array;
  /** Number of its first game in the whole source, and the line it starts on. */
  firstGame: number;
  firstLine: number;
  /** It does not start the source (no byte-order mark, no tagless first game). */
  notFirst: boolean;
  games: number;
}

/**
 * A source cut at game boundaries into pieces of about a megabyte (a pass of the reader that finds
 * the games by their tokens alone, reading no move, puts the boundaries where a full read would),
 * for reading the pieces on several threads or machines:
 * `pgnPiecePositions(piece)` on each gives what `readPgnPositions` gives for the whole source.
 */
export async function* splitPgn(source: PgnSource, backend?: 'native' | 'wasm' | 'js'): AsyncGenerator<PgnPiece> {
  // Each read's bytes are its own (recordsOf's join): a piece is a view of them, not a copy.
  for await (const c of recordsOf('splitPgn', source, jsPgn.PGN_BOUNDARIES, { mode: 'all', every: 1, fromPly: 0 }, backend, true)) {
    yield { bytes: c.bytes.subarray(0, c.records.consumed), firstGame: c.firstGame, firstLine: c.firstLine!,
      notFirst: c.notFirst!, games: c.records.games.length / jsPgn.GAME_RECORD };
  }
}

/**
 * The positions of one piece of splitPgn with the reader's SAN text kept (readerRecordsOf) and game
 * objects for its bad games only: what the analyze command's native record writer reads (not part
 * of the package's API; the piece is splitPgn's own). `reuse` as pgnPiecePositions takes it.
 */
export function piecePositionsForRecords(piece: PgnPiece, backend: 'native' | 'wasm' | 'js', select: Required<PositionSelect>,
  reuse?: GamePositions): GamePositions {
  const fn = 'piecePositionsForRecords';
  const bytes = bytesOf(fn, piece.bytes);
  const flags = jsPgn.PGN_WRITE_SAN | jsPgn.PGN_WRITE_POSITIONS | jsPgn.PGN_LAST_CHUNK | (piece.notFirst ? jsPgn.PGN_NOT_FIRST : 0) |
    (select.mode === 'final' ? jsPgn.PGN_FINAL_ONLY : 0);
  const r = readerFor(backend)(bytes, flags, select.every, select.fromPly, piece.firstLine, piece.firstGame, checkReuse(fn, reuse, bytes));
  return positionsOf({ bytes: piece.bytes, records: r, firstGame: piece.firstGame }, false, { backend, outcome: false });
}

/** The positions (and games) of one piece of splitPgn, numbered as in the whole source. */
export function pgnPiecePositions(piece: PgnPiece, options?: ReusePositionsOptions): GamePositions {
  const fn = 'pgnPiecePositions';
  if (typeof piece !== 'object' || piece === null) throw new TypeError(`${fn}: piece must be an object from splitPgn`);
  const bytes = bytesOf(fn, piece.bytes);
  for (const key of ['firstGame', 'firstLine'] as const) {
    const v = piece[key];
    if (typeof v !== 'number') throw new TypeError(`${fn}: piece.${key} must be a number`);
    if (!Number.isInteger(v) || v < 1 || v > 2e9) throw new RangeError(`${fn}: piece.${key} must be an integer 1..2e9`);
  }
  if (typeof piece.notFirst !== 'boolean') throw new TypeError(`${fn}: piece.notFirst must be a boolean`);
  const o = checkOptions(fn, options) as ReusePositionsOptions;
  const s = checkSelect(fn, o.select);
  const into = checkReuse(fn, o.reuse, bytes);
  checkTreeSelect(fn, o, s);
  if (o.variations) {
    const r = readerFor(o.backend)(bytes, flagsOf(o) | jsPgn.PGN_LAST_CHUNK | (piece.notFirst ? jsPgn.PGN_NOT_FIRST : 0), 1, 0, piece.firstLine, piece.firstGame);
    return treePositionsOf({ bytes: piece.bytes, records: r, firstGame: piece.firstGame }, o.games === true, o);
  }
  const flags = flagsOf({ ...o, sans: o.games ? o.sans : false, outcome: o.games ? o.outcome : false }) | jsPgn.PGN_WRITE_POSITIONS | jsPgn.PGN_LAST_CHUNK |
    (piece.notFirst ? jsPgn.PGN_NOT_FIRST : 0) | (s.mode === 'final' ? jsPgn.PGN_FINAL_ONLY : 0);
  const r = readerFor(o.backend)(bytes, flags, s.every, s.fromPly, piece.firstLine, piece.firstGame, into);
  return positionsOf({ bytes: piece.bytes, records: r, firstGame: piece.firstGame }, o.games === true, o);
}
