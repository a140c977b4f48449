/**
 * Writing PGN: the PGN standard's export format (section 8: the Seven Tag Roster first, in its
 * order (8.1.1), then the other tags as the game holds them; a blank line; SAN movetext with move
 * number indications (8.2.2), NAGs as `$n` (8.2.4; `{ suffixes: true }` writes a move's assessment as
 * its suffix, `?!`), comments in braces, lines of at most 80
 * characters; the game termination marker (8.2.6); a blank line after each game). Clocks, move times
 * and evaluations (`clocks`, `emts`, `evals` of a game read with `{ annotations: true }`) are written
 * as the PGN Specification Supplement's `[%clk]`, `[%emt]` and `[%eval]` commands in a comment after
 * their move, so that `parsePgn(writePgn(games), { annotations: true })` reads them back.
 *
 * Pure TypeScript (no backend): the SAN comes from the game's `sans`, or is written from its moves
 * when it has none.
 */
import { makeMoveCall, parseUci } from '../moves/moves.js';
import { STARTING_FEN, parseFen, toFen } from '../core/position.js';
import { jsBackend } from '../backends/js/index.js';
import { createSanApi } from './san.js';
import { ByteSink } from '../core/byte-sink.js';
import type { PgnEval } from './pgn-annotations.js';
import type { PgnNode, PgnTree } from './pgn-tree.js';
import { ROSTER_UNKNOWN, SEVEN_TAG_ROSTER as ROSTER, isChess960Variant, isPgnResult } from './pgn-tags.js';

/** What writePgn needs of a game: a PgnGame from parsePgn / readPgn, or one made by hand. */
export interface WritableGame {
  tags?: Record<string, string>;
  /** The start position (default: the standard one); a FEN tag and SetUp "1" are written when it differs. */
  startFen?: string;
  /** UCI moves ('0000' a null move). */
  moves: readonly string[];
  /** Their SAN (written from the moves when absent or of another length). */
  sans?: readonly string[];
  result?: string | null;
  comments?: readonly { ply: number; text: string }[];
  nags?: readonly { ply: number; nag: number }[];
  clocks?: readonly (number | null)[];
  emts?: readonly (number | null)[];
  evals?: readonly (PgnEval | null)[];
  /**
   * The moves as a tree (a game read with { variations: true }): when present, the movetext is
   * written from it (variations, comments, NAGs, clocks, evals, arrows, squares) and `moves`,
   * `sans`, `comments`, `nags`, `clocks`, `emts` and `evals` are not used for it.
   */
  tree?: PgnTree;
}

export interface WritePgnOptions {
  /** The longest line (default 80); a single longer token (a long comment) gets a line of its own. */
  lineWidth?: number;
  /**
   * A move's first NAG, when it is a move assessment ($1..$6), written as the suffix it stands for
   * right after the move: `!`, `?`, `!!`, `??`, `!?`, `?!` (the PGN standard's import-format suffix
   * annotations, the form lichess writes its analysis marks in). The readers give the same NAG back.
   * Default false: every NAG as `$n`, as the export format has it.
   */
  suffixes?: boolean;
}

/** The suffix annotation of each move assessment NAG (PGN standard 8.2.3.8 and 10: $1..$6). */
const SUFFIX_OF_NAG = ['', '!', '?', '!!', '??', '!?', '?!'];

const COMMAND = /\[%(?:clk|emt|eval)[ \t\r\n]*[^\][]*\]/g;
const TAG_NAME = /^[A-Za-z0-9_]+$/;

let jsSan: ReturnType<typeof createSanApi> | undefined;
/** Move number indications by number ('12. ', '12... '), made once. */
const WHITE_NUMBER: string[] = [];
const BLACK_NUMBER: string[] = [];

/** H:MM:SS with up to three fraction digits (the %clk / %emt value) of a number of seconds. */
export function clockText(fn: string, what: string, seconds: number): string {
  if (typeof seconds !== 'number') throw new TypeError(`${fn}: ${what} must be a number or null`);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds >= 100000 * 3600) {
    throw new RangeError(`${fn}: ${what} must be 0 <= seconds < 360000000, got ${seconds}`);
  }
  const ms = Math.round(seconds * 1000);
  if (ms >= 100000 * 3600 * 1000) throw new RangeError(`${fn}: ${what} must be 0 <= seconds < 360000000, got ${seconds}`);
  const whole = Math.floor(ms / 1000);
  const frac = ms % 1000;
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  const s = whole % 60;
  const f = frac === 0 ? '' : `.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${f}`;
}

/** The %eval value of an evaluation: pawns with two decimals, or #mate. */
export function evalText(fn: string, what: string, e: PgnEval): string {
  if (typeof e !== 'object' || e === null) throw new TypeError(`${fn}: ${what} must be { cp } or { mate } or null`);
  if ('mate' in e) {
    const m = e.mate;
    if (typeof m !== 'number') throw new TypeError(`${fn}: ${what}.mate must be a number`);
    if (!Number.isInteger(m) || Math.abs(m) > 9999) throw new RangeError(`${fn}: ${what}.mate must be an integer -9999..9999`);
    return `#${m}`;
  }
  const cp = (e as { cp: unknown }).cp;
  if (typeof cp !== 'number') throw new TypeError(`${fn}: ${what} must be { cp } or { mate } or null`);
  if (!Number.isInteger(cp) || Math.abs(cp) > 9999999) throw new RangeError(`${fn}: ${what}.cp must be an integer -9999999..9999999`);
  const a = Math.abs(cp);
  return `${cp < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

function tagValue(fn: string, name: string, value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`${fn}: tag ${name} must be a string`);
  if (/[\n\r]/.test(value)) throw new RangeError(`${fn}: tag ${name} holds a line end (a tag pair is one line)`);
  return value.replace(/[\\"]/g, (c) => `\\${c}`);
}

/** Whether a start FEN is a Chess960 position by itself (Shredder-FEN castling letters). */
function shredderStart(startFen: string): boolean {
  try {
    return parseFen(startFen, (q, c) => jsBackend.checkers(q, c)).chess960;
  } catch {
    return false;
  }
}

/** The SAN of each move, replayed from the start position when the game has none. */
function sansOf(fn: string, g: WritableGame, startFen: string, chess960: boolean): readonly string[] {
  if (Array.isArray(g.sans) && g.sans.length === g.moves.length) {
    for (const s of g.sans) if (typeof s !== 'string' || !/^[A-Za-z0-9=+#\-]+$/.test(s)) throw new RangeError(`${fn}: bad SAN ${JSON.stringify(s)}`);
    return g.sans;
  }
  jsSan ??= createSanApi('js');
  let pos = parseFen(startFen, (q, c) => jsBackend.checkers(q, c), { chess960 });
  const out: string[] = [];
  for (const m of g.moves) {
    if (m === '0000') {
      out.push('--');
      pos = parseFen(nullMoveFen(pos), (q, c) => jsBackend.checkers(q, c), { chess960 });
      continue;
    }
    out.push(jsSan.toSan(pos, m));
    pos = makeMoveCall(jsBackend, pos, parseUci(fn, m));
  }
  return out;
}

/** The FEN after a null move: the other side to move, no en passant square. */
function nullMoveFen(pos: ReturnType<typeof parseFen>): string {
  const f = toFen(pos).split(' ');
  f[1] = f[1] === 'w' ? 'b' : 'w';
  f[3] = '-';
  return f.join(' ');
}

/** A comment as text: braces, or a ';' comment to the end of the line when the text holds a '}'. */
function commentToken(fn: string, text: string): string {
  if (!text.includes('}')) return `{${text}}`;
  if (!/[\n\r]/.test(text)) return `;${text}\n`;
  throw new RangeError(`${fn}: a comment with both '}' and a line end cannot be written`);
}

/** The output: UTF-8 bytes in one growing buffer (no string per game for the collector). */
class Bytes extends ByteSink {
  text(s: string): void {
    this.room(s.length * 3);
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.n = n;
        this.n += buf.write(s.slice(i), n, 'utf8');
        return;
      }
      buf[n++] = c;
    }
    this.n = n;
  }
}

/** One game in export format (ending with a blank line), appended to w. */
function writeGame(fn: string, g: WritableGame, width: number, suffixes: boolean, w: Bytes): void {
  if (typeof g !== 'object' || g === null) throw new TypeError(`${fn}: each game must be an object`);
  if (!Array.isArray(g.moves) || g.moves.some((m) => typeof m !== 'string')) throw new TypeError(`${fn}: game.moves must be an array of UCI strings`);
  const tags = g.tags ?? {};
  if (typeof tags !== 'object' || tags === null) throw new TypeError(`${fn}: game.tags must be an object`);
  const result = g.result ?? tags.Result ?? '*';
  if (!isPgnResult(result)) throw new RangeError(`${fn}: result must be 1-0, 0-1, 1/2-1/2 or *, got ${JSON.stringify(result)}`);
  const startFen = (g.startFen ?? tags.FEN ?? STARTING_FEN).trim();
  const lines: string[] = [];
  for (const name of ROSTER) {
    const v = name === 'Result' ? (tags.Result ?? result) : (tags[name] ?? ROSTER_UNKNOWN[name]!);
    lines.push(`[${name} "${tagValue(fn, name, v)}"]`);
  }
  const extra = Object.keys(tags).filter((k) => !(ROSTER as readonly string[]).includes(k));
  // Chess960: named by the Variant tag, or by a Shredder-FEN start position; written with its Variant tag.
  const chess960 = isChess960Variant(tags.Variant) || shredderStart(startFen);
  if (chess960 && tags.Variant === undefined) lines.push('[Variant "Chess960"]');
  if (startFen !== STARTING_FEN && tags.FEN === undefined) {
    if (tags.SetUp === undefined) lines.push('[SetUp "1"]');
    lines.push(`[FEN "${tagValue(fn, 'FEN', startFen)}"]`);
  }
  for (const name of extra) {
    if (!TAG_NAME.test(name)) throw new RangeError(`${fn}: tag name ${JSON.stringify(name)} is not letters, digits and underscores`);
    lines.push(`[${name} "${tagValue(fn, name, tags[name])}"]`);
  }
  for (const line of lines) {
    w.text(line);
    w.byte(10);
  }
  w.byte(10);

  const sans = g.tree !== undefined ? [] : sansOf(fn, g, startFen, chess960);
  const fields = startFen === STARTING_FEN ? undefined : startFen.split(/\s+/);
  const blackFirst = fields !== undefined && fields[1] === 'b';
  const fullmove0 = fields === undefined ? 1 : Number.parseInt(fields[5] ?? '1', 10) || 1;
  const annotated = g.clocks !== undefined || g.emts !== undefined || g.evals !== undefined;
  for (const [key, arr] of [['clocks', g.clocks], ['emts', g.emts], ['evals', g.evals]] as const) {
    if (arr !== undefined && (!Array.isArray(arr) || arr.length !== g.moves.length)) {
      throw new RangeError(`${fn}: game.${key} must be an array parallel to moves (${g.moves.length} entries)`);
    }
  }
  // Per ply: NAGs and comments after the move of that ply (0: before the first move).
  const after: (string[] | undefined)[] = new Array(g.moves.length + 1);
  const put = (ply: number, token: string): void => { (after[ply] ??= []).push(token); };
  // With suffixes: the suffix of each move whose first NAG is a move assessment.
  const suffix: (string | undefined)[] = [];
  for (const n of g.nags ?? []) {
    if (!Number.isInteger(n.ply) || n.ply < 0 || n.ply > g.moves.length) throw new RangeError(`${fn}: nag ply ${n.ply} out of range`);
    if (!Number.isInteger(n.nag) || n.nag < 0 || n.nag > 255) throw new RangeError(`${fn}: nag ${n.nag} out of range 0..255`);
    if (suffixes && n.ply > 0 && after[n.ply] === undefined && suffix[n.ply] === undefined && n.nag >= 1 && n.nag <= 6) {
      suffix[n.ply] = SUFFIX_OF_NAG[n.nag];
      continue;
    }
    put(n.ply, `$${n.nag}`);
  }
  for (let ply = 1; ply <= g.moves.length && annotated; ply++) {
    let parts = '';
    const ev = g.evals?.[ply - 1];
    if (ev !== null && ev !== undefined) parts += ` [%eval ${evalText(fn, 'evals[' + (ply - 1) + ']', ev)}]`;
    const clk = g.clocks?.[ply - 1];
    if (clk !== null && clk !== undefined) parts += ` [%clk ${clockText(fn, 'clocks[' + (ply - 1) + ']', clk)}]`;
    const emt = g.emts?.[ply - 1];
    if (emt !== null && emt !== undefined) parts += ` [%emt ${clockText(fn, 'emts[' + (ply - 1) + ']', emt)}]`;
    if (parts !== '') put(ply, `{${parts} }`);
  }
  for (const c of g.comments ?? []) {
    if (!Number.isInteger(c.ply) || c.ply < 0 || c.ply > g.moves.length) throw new RangeError(`${fn}: comment ply ${c.ply} out of range`);
    if (typeof c.text !== 'string') throw new TypeError(`${fn}: comment text must be a string`);
    // The commands the arrays carry are written from the arrays.
    const text = annotated && c.text.includes('[%') ? c.text.replace(COMMAND, '') : c.text;
    if (annotated && text !== c.text && text.trim() === '') continue;
    put(c.ply, commentToken(fn, text));
  }

  // Tokens separated by one space, a new line before a token that would pass the width.
  let column = 0;
  // The separator before a token whose first line is `length` characters long.
  const separate = (length: number): void => {
    if (column > 0 && column + 1 + length > width) {
      w.byte(10);
      column = 0;
    }
    if (column > 0) {
      w.byte(32);
      column++;
    }
  };
  const emit = (t: string): void => {
    const nl0 = t.indexOf('\n');
    separate(nl0 < 0 ? t.length : nl0);
    w.text(t);
    column = nl0 < 0 ? column + t.length : t.length - t.lastIndexOf('\n') - 1;
  };
  // A move with its move number indication, if any (SAN holds no line end).
  const emitMove = (prefix: string, san: string): void => {
    const length = prefix.length + san.length;
    separate(length);
    if (prefix !== '') w.text(prefix);
    w.text(san);
    column += length;
  };
  if (g.tree !== undefined) {
    writeTree(fn, g.tree, blackFirst, fullmove0, suffixes, emit, emitMove);
    emit(result);
    if (w.buf[w.n - 1] !== 10) w.byte(10);
    w.byte(10);
    return;
  }
  for (const t of after[0] ?? []) emit(t);
  let needNumber = true;
  for (let i = 0; i < sans.length; i++) {
    const whiteMoves = blackFirst ? i % 2 === 1 : i % 2 === 0;
    const number = fullmove0 + ((i + (blackFirst ? 1 : 0)) >> 1);
    const san = suffix[i + 1] === undefined ? sans[i]! : sans[i]! + suffix[i + 1]!;
    if (whiteMoves) emitMove(WHITE_NUMBER[number] ??= `${number}. `, san);
    else emitMove(needNumber ? (BLACK_NUMBER[number] ??= `${number}... `) : '', san);
    const a = after[i + 1];
    needNumber = a !== undefined;
    if (a) for (const t of a) emit(t);
  }
  emit(result);
  if (w.buf[w.n - 1] !== 10) w.byte(10);
  w.byte(10);
}

const SHAPE_SQUARE = (fn: string, what: string, sq: unknown): string => {
  if (typeof sq !== 'number') throw new TypeError(`${fn}: ${what} must be a square number`);
  if (!Number.isInteger(sq) || sq < 0 || sq > 63) throw new RangeError(`${fn}: ${what} must be an integer 0..63, got ${sq}`);
  return `${'abcdefgh'[sq & 7]}${(sq >> 3) + 1}`;
};
const shapeColor = (fn: string, what: string, c: unknown): string => {
  if (c !== 'G' && c !== 'R' && c !== 'Y' && c !== 'B') throw new RangeError(`${fn}: ${what} must be 'G', 'R', 'Y' or 'B', got ${JSON.stringify(c)}`);
  return c;
};

/** A node's comment with its fields as commands, as one brace comment ('' when there is nothing). */
function nodeComment(fn: string, n: PgnNode, what: string): string {
  let parts = typeof n.comment === 'string' ? n.comment.replace(/\}/g, '') : '';
  if (n.comment !== undefined && typeof n.comment !== 'string') throw new TypeError(`${fn}: ${what}.comment must be a string`);
  const add = (t: string): void => { parts = parts === '' ? t : `${parts} ${t}`; };
  if (n.eval !== null && n.eval !== undefined) add(`[%eval ${evalText(fn, `${what}.eval`, n.eval)}]`);
  if (n.clock !== null && n.clock !== undefined) add(`[%clk ${clockText(fn, `${what}.clock`, n.clock)}]`);
  if (n.arrows !== undefined && n.arrows.length > 0) {
    if (!Array.isArray(n.arrows)) throw new TypeError(`${fn}: ${what}.arrows must be an array`);
    add(`[%cal ${n.arrows.map((a, i) => shapeColor(fn, `${what}.arrows[${i}].color`, a?.color) +
      SHAPE_SQUARE(fn, `${what}.arrows[${i}].from`, a.from) + SHAPE_SQUARE(fn, `${what}.arrows[${i}].to`, a.to)).join(',')}]`);
  }
  if (n.squares !== undefined && n.squares.length > 0) {
    if (!Array.isArray(n.squares)) throw new TypeError(`${fn}: ${what}.squares must be an array`);
    add(`[%csl ${n.squares.map((q, i) => shapeColor(fn, `${what}.squares[${i}].color`, q?.color) +
      SHAPE_SQUARE(fn, `${what}.squares[${i}].square`, q.square)).join(',')}]`);
  }
  return parts === '' ? '' : `{${parts}}`;
}

/**
 * The movetext of a tree, as python-chess's exporter orders it: a move, its NAGs and comment, then
 * the variations on it (each in parentheses, its starting comment first), then the line goes on; a
 * move number after anything but a move. A '}' in a comment is dropped (a brace comment cannot hold it).
 */
function writeTree(fn: string, tree: PgnTree, blackFirst: boolean, fullmove0: number, suffixes: boolean,
  emit: (t: string) => void, emitMove: (prefix: string, san: string) => void): void {
  if (typeof tree !== 'object' || tree === null || !Array.isArray(tree.children)) throw new TypeError(`${fn}: game.tree must be { comment, children }`);
  if (typeof tree.comment === 'string' && tree.comment !== '') emit(`{${tree.comment.replace(/\}/g, '')}}`);
  let needNumber = true;
  const move = (n: PgnNode, ply: number, what: string): void => {
    if (typeof n !== 'object' || n === null) throw new TypeError(`${fn}: ${what} must be a node`);
    if (typeof n.san !== 'string' || !/^(?:[A-Za-z0-9=+#\-]+)$/.test(n.san)) throw new RangeError(`${fn}: ${what}.san is no SAN: ${JSON.stringify(n.san)}`);
    const whiteMoves = blackFirst ? ply % 2 === 1 : ply % 2 === 0;
    const number = fullmove0 + ((ply + (blackFirst ? 1 : 0)) >> 1);
    const nags = n.nags ?? [];
    if (!Array.isArray(nags)) throw new TypeError(`${fn}: ${what}.nags must be an array`);
    for (const nag of nags) {
      if (!Number.isInteger(nag) || nag < 0 || nag > 255) throw new RangeError(`${fn}: ${what}.nags: ${nag} is not 0..255`);
    }
    const first = suffixes && nags.length > 0 && nags[0]! >= 1 && nags[0]! <= 6 ? 1 : 0;
    const san = first ? n.san + SUFFIX_OF_NAG[nags[0]!]! : n.san;
    if (whiteMoves) emitMove(WHITE_NUMBER[number] ??= `${number}. `, san);
    else emitMove(needNumber ? (BLACK_NUMBER[number] ??= `${number}... `) : '', san);
    needNumber = false;
    for (let k = first; k < nags.length; k++) emit(`$${nags[k]}`);
    const c = nodeComment(fn, n, what);
    if (c !== '') {
      emit(c);
      needNumber = true;
    }
  };
  const line = (parent: PgnNode | PgnTree, ply: number, what: string, depth: number): void => {
    if (depth > 1000) throw new RangeError(`${fn}: game.tree nests variations more than 1000 deep`);
    for (;;) {
      const kids = parent.children;
      if (!Array.isArray(kids)) throw new TypeError(`${fn}: ${what}.children must be an array`);
      if (kids.length === 0) return;
      move(kids[0]!, ply, `game.tree: the node at ply ${ply + 1}`);
      for (let v = 1; v < kids.length; v++) {
        const n = kids[v]!;
        emit('(');
        needNumber = true;
        if (typeof n?.startingComment === 'string' && n.startingComment !== '') emit(`{${n.startingComment.replace(/\}/g, '')}}`);
        move(n, ply, `game.tree: a variation at ply ${ply + 1}`);
        line(n, ply + 1, what, depth + 1);
        emit(')');
        needNumber = true;
      }
      parent = kids[0]!;
      ply++;
    }
  };
  line(tree, 0, 'game.tree', 0);
}

/**
 * Games in the PGN standard's export format (see the module comment), one after another, each
 * followed by a blank line. `games`: one game, an array or any iterable of games.
 */
export function writePgn(games: WritableGame | Iterable<WritableGame>, options?: WritePgnOptions): string {
  return writePgnBytes('writePgn', games, options).toString('utf8');
}

/** writePgn's text as UTF-8 bytes (the pgn command writes these). */
export function writePgnBytes(fn: string, games: WritableGame | Iterable<WritableGame>, options?: WritePgnOptions): Buffer {
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`${fn}: options must be an object`);
  const width = options?.lineWidth ?? 80;
  if (typeof width !== 'number') throw new TypeError(`${fn}: lineWidth must be a number`);
  if (!Number.isInteger(width) || width < 20 || width > 100000) throw new RangeError(`${fn}: lineWidth must be an integer 20..100000`);
  const suffixes = options?.suffixes ?? false;
  if (typeof suffixes !== 'boolean') throw new TypeError(`${fn}: suffixes must be a boolean`);
  if (typeof games !== 'object' || games === null || ArrayBuffer.isView(games)) throw new TypeError(`${fn}: games must be a game or an iterable of games`);
  const list: Iterable<WritableGame> = Symbol.iterator in games && !Array.isArray((games as { moves?: unknown }).moves)
    ? (games as Iterable<WritableGame>) : [games as WritableGame];
  const w = new Bytes();
  for (const g of list) writeGame(fn, g, width, suffixes, w);
  return w.buf.subarray(0, w.n);
}
