/**
 * Diagrams: positions and bitboards drawn as standalone SVG, and as text boards for the terminal.
 *
 * Pure presentation, identical on both backends: it reads a Position through its public fields
 * (`colors`, `pieces`, `sideToMove`), so a Position made by `bitboard-patterns`, `/native` or `/js`
 * all draw the same. The piece set is drawn for this package (simple vector shapes in a 45 x 45
 * box, MIT like the rest of the package); no third-party artwork.
 *
 * SVG geometry (a contract others may rely on): the board is `size` user units wide (default 400),
 * s = size / 8, and square (file f, rank r) occupies x in [f*s, (f+1)*s), y in [(7-r)*s, (8-r)*s)
 * (white at the bottom); with `flipped` it occupies x in [(7-f)*s, (8-f)*s), y in [r*s, (r+1)*s).
 * With `coordinates: false` the board fills the SVG exactly (`viewBox="0 0 size size"`); with
 * coordinates (the default) a frame of width s/2 carrying the file letters and rank digits surrounds
 * it, the viewBox becomes `-s/2 -s/2 size+s size+s` and the squares keep the coordinates above.
 * Layers, bottom to top: square colours, last move, highlights (in the order given, later on top),
 * check mark, pieces (inside their square with a margin of about a tenth of it), coordinates, arrows.
 */
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK } from '../core/types.js';
import type { Position } from '../core/types.js';
import { checkers } from '../backends/js/checks.js';
import { MoveError, isPosition } from '../core/position.js';
import { checkBitboard, checkSquare } from '../core/validate.js';

/** One set of squares to colour: any CSS colour for SVG; for `toText` see `TextHighlight`. */
export interface Highlight {
  /** The squares (a bitboard). */
  readonly squares: bigint;
  /** SVG: a CSS colour (`#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()`/`hsl()`/`hsla()`, or a name). */
  readonly color: string;
  /** A name for the legend `toText` prints under the board (ignored by the SVG renderer). */
  readonly label?: string;
}

/** An arrow from the centre of one square to the centre of another (a ring when from === to). */
export interface Arrow {
  readonly from: number;
  readonly to: number;
  /**
   * A CSS colour, as for highlights (semi-transparent colours work), or a letter of the PGN
   * `[%cal]` / `[%csl]` commands: 'G', 'R', 'Y', 'B' (lichess's green, red, yellow, blue).
   */
  readonly color: string;
}

/** A marked square (a ring), as a PGN `[%csl]` command gives it (a node's `squares`). */
export interface MarkedSquare {
  readonly square: number;
  /** 'G', 'R', 'Y', 'B' or a CSS colour. */
  readonly color: string;
}

/**
 * The colours of the shape letters: the default brushes of lichess's board (chessground): green
 * #15781B, red #882020, yellow #e68f00, blue #003088, drawn at 80% opacity.
 */
export const SHAPE_COLORS: Readonly<Record<'G' | 'R' | 'Y' | 'B', string>> = {
  G: '#15781bcc', R: '#882020cc', Y: '#e68f00cc', B: '#003088cc',
};

export interface SvgOptions {
  /** Sets of squares whose background is filled with a colour; later entries on top. */
  readonly highlight?: readonly Highlight[];
  /** Arrows drawn on top of everything. */
  readonly arrows?: readonly Arrow[];
  /** Squares ringed (under the arrows): a PGN node's `squares`. */
  readonly squares?: readonly MarkedSquare[];
  /** Black at the bottom. Default false. */
  readonly flipped?: boolean;
  /** Board width in px (and user units), 16..10000. Default 400. */
  readonly size?: number;
  /** File letters and rank digits in a frame around the board. Default true. */
  readonly coordinates?: boolean;
  /** A UCI move (`e2e4`, `e7e8q`): its from and to squares are tinted. */
  readonly lastMove?: string;
  /** Mark the king of the side to move with a red glow when it is in check. Default true. */
  readonly check?: boolean;
}

export interface BitboardSvgOptions extends SvgOptions {
  /** The colour of the set's squares. Default `BITBOARD_COLOR`. */
  readonly color?: string;
}

/** Board colours of the SVG. */
export const BOARD_COLORS = { light: '#f0d9b5', dark: '#b58863' } as const;
/** Last-move tints (opaque) on light and dark squares. */
export const LAST_MOVE_COLORS = { light: '#e3e07a', dark: '#b9aa3c' } as const;
/** The default colour of `bitboardSvg`'s set. */
export const BITBOARD_COLOR = '#5b9bd5';
const FRAME_COLOR = '#3a3a3a';
const FRAME_TEXT_COLOR = '#e8e8e8';
const CHECK_COLOR = '#e8202a';

const FILES = 'abcdefgh';
const DEFAULT_SIZE = 400;

// ---- Argument checks (clear exceptions, like the rest of the package) ----

function checkBoolean(fn: string, what: string, v: unknown, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new TypeError(`${fn}: ${what} must be a boolean, got ${typeof v}`);
  return v;
}

function checkOptions(fn: string, v: unknown): Record<string, unknown> {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new TypeError(`${fn}: options must be an object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
  }
  return v as Record<string, unknown>;
}

function checkPositionOrNull(fn: string, pos: unknown): Position | null {
  if (pos === null) return null;
  if (!isPosition(pos)) {
    throw new TypeError(`${fn}: pos must be a Position from parseFen or createPosition, or null for an empty board, got ${typeof pos}`);
  }
  return pos;
}

// A CSS colour the SVG can carry verbatim: nothing that could close the attribute or open markup.
const CSS_COLOR = /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/a-z-]{1,60}\)|[a-z]{3,30})$/i;

function checkCssColor(fn: string, what: string, v: unknown): string {
  if (typeof v !== 'string') throw new TypeError(`${fn}: ${what} must be a CSS colour string, got ${typeof v}`);
  if (!CSS_COLOR.test(v)) {
    throw new RangeError(`${fn}: ${what} must be a CSS colour (#rgb, #rrggbb, #rrggbbaa, rgb(...), rgba(...), hsl(...) or a name), got ${JSON.stringify(v.slice(0, 40))}`);
  }
  return v;
}

function checkList(fn: string, what: string, v: unknown): readonly unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new TypeError(`${fn}: ${what} must be an array, got ${typeof v}`);
  if (v.length > 1000) throw new RangeError(`${fn}: ${what} has ${v.length} entries; at most 1000`);
  return v;
}

function checkEntry(fn: string, what: string, v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null) throw new TypeError(`${fn}: ${what} must be an object, got ${v === null ? 'null' : typeof v}`);
  return v as Record<string, unknown>;
}

interface CheckedHighlight { squares: bigint; color: string; label: string | undefined }

function checkHighlights(fn: string, v: unknown, color: (fn: string, what: string, v: unknown) => string): CheckedHighlight[] {
  return checkList(fn, 'highlight', v).map((h, i) => {
    const e = checkEntry(fn, `highlight[${i}]`, h);
    const label = e.label;
    if (label !== undefined && typeof label !== 'string') throw new TypeError(`${fn}: highlight[${i}].label must be a string, got ${typeof label}`);
    return {
      squares: checkBitboard(fn, `highlight[${i}].squares`, e.squares),
      color: color(fn, `highlight[${i}].color`, e.color),
      label,
    };
  });
}

function shapeColor(fn: string, what: string, v: unknown): string {
  return typeof v === 'string' && v.length === 1 && v in SHAPE_COLORS ? SHAPE_COLORS[v as 'G']! : checkCssColor(fn, what, v);
}

function checkSquares(fn: string, v: unknown): Arrow[] {
  return checkList(fn, 'squares', v).map((q, i) => {
    const e = checkEntry(fn, `squares[${i}]`, q);
    const square = checkSquare(fn, `squares[${i}].square`, e.square);
    return { from: square, to: square, color: shapeColor(fn, `squares[${i}].color`, e.color) };
  });
}

function checkArrows(fn: string, v: unknown): Arrow[] {
  return checkList(fn, 'arrows', v).map((a, i) => {
    const e = checkEntry(fn, `arrows[${i}]`, a);
    return {
      from: checkSquare(fn, `arrows[${i}].from`, e.from),
      to: checkSquare(fn, `arrows[${i}].to`, e.to),
      color: shapeColor(fn, `arrows[${i}].color`, e.color),
    };
  });
}

function checkSize(fn: string, v: unknown): number {
  if (v === undefined) return DEFAULT_SIZE;
  if (typeof v !== 'number') throw new TypeError(`${fn}: size must be a number, got ${typeof v}`);
  if (!Number.isFinite(v) || v < 16 || v > 10000) throw new RangeError(`${fn}: size must be 16..10000 (px), got ${v}`);
  return v;
}

/** The from and to squares of a UCI move string (a MoveError when malformed). */
function uciSquares(fn: string, v: unknown): [number, number] {
  if (typeof v !== 'string') throw new TypeError(`${fn}: lastMove must be a UCI move string such as "e2e4", got ${typeof v}`);
  const m = /^([a-h])([1-8])([a-h])([1-8])[nbrq]?$/.exec(v);
  if (!m) throw new MoveError(v, `${fn}: lastMove is not a UCI move (e2e4, e7e8q)`);
  const sq = (file: string, rank: string): number => (Number(rank) - 1) * 8 + FILES.indexOf(file);
  return [sq(m[1]!, m[2]!), sq(m[3]!, m[4]!)];
}

// ---- Pieces ----

/** What stands on each square: 'P', 'n', ... (FEN letters) or '' for empty. */
function board(pos: Position | null): string[] {
  const cells = new Array<string>(64).fill('');
  if (!pos) return cells;
  const letters = 'pnbrqk';
  for (let t = PAWN; t <= KING; t++) {
    for (let c = 0; c < 2; c++) {
      let set = pos.pieces[t]! & pos.colors[c]!;
      for (let sq = 0; set !== 0n; sq++, set >>= 1n) {
        if (set & 1n) cells[sq] = c === 0 ? letters[t]!.toUpperCase() : letters[t]!;
      }
    }
  }
  return cells;
}

// The piece set of this package, drawn in a 45 x 45 box (every shape, stroke included, stays inside x 6..39, y 4..41,
// and covers the box centre, so a piece always changes the middle of its square). `fill` parts take
// the piece colour, `line` parts are details stroked in the contrasting colour.
const BASE = 'M10.5 36h24a1 1 0 0 1 1 1v2a1 1 0 0 1-1 1h-24a1 1 0 0 1-1-1v-2a1 1 0 0 1 1-1z';
const PIECE_SHAPES: Record<string, { fill: string[]; line: string[] }> = {
  p: {
    fill: [
      'M16 36C16 29 18.5 25 20.5 21.5h4C26.5 25 29 29 29 36z',
      'M17 21.5a5.5 2.2 0 0 1 11 0a5.5 2.2 0 0 1-11 0z',
      'M22.5 8a5 5 0 1 1 0 10a5 5 0 1 1 0-10z',
      BASE,
    ],
    line: [],
  },
  r: {
    fill: [
      'M14 36l1.5-19h14l1.5 19z',
      'M12 17V9h4v3h4.5V9h4v3H29V9h4v8z',
      BASE,
    ],
    line: ['M15.5 17h14', 'M14.5 32h16'],
  },
  b: {
    fill: [
      'M17 27l-2 9h15l-2-9z',
      'M22.5 9.5C16 14 14 20.5 16 27h13C31 20.5 29 14 22.5 9.5z',
      'M22.5 5a2.6 2.6 0 1 1 0 5.2a2.6 2.6 0 1 1 0-5.2z',
      BASE,
    ],
    line: ['M25 13.5l-4.5 6', 'M16 27h13'],
  },
  n: {
    fill: [
      'M14 36h17C32.5 28 31.5 18 27 12.5L26 8l-2.5 3L21 8l-1.5 4C15.5 14 12 19 9.5 24c-.6 1.8.8 3.5 3 3l3.5-2c1.6-.6 3-1.4 4-2.5C19 27 15.5 30.5 14 36z',
      BASE,
    ],
    line: ['M18.5 15.5h.01', 'M12 24.5l1.5-.5'],
  },
  q: {
    fill: [
      'M12 30L9 13l6 11 .5-13 4.5 12.5L22.5 10 25 23.5 29.5 11l.5 13 6-11-3 17z',
      'M12 30l-1 6h23l-1-6z',
      'M9 11a2 2 0 1 1 0 4a2 2 0 1 1 0-4z', 'M15.5 9a2 2 0 1 1 0 4a2 2 0 1 1 0-4z',
      'M22.5 8a2 2 0 1 1 0 4a2 2 0 1 1 0-4z', 'M29.5 9a2 2 0 1 1 0 4a2 2 0 1 1 0-4z',
      'M36 11a2 2 0 1 1 0 4a2 2 0 1 1 0-4z',
      BASE,
    ],
    line: ['M12 30h21'],
  },
  k: {
    fill: [
      'M12 30C8 24 12 17 18 18c2 .5 3.5-1 4.5-3c1 2 2.5 3.5 4.5 3c6-1 10 6 6 12z',
      'M12 30l-1 6h23l-1-6z',
      'M21 5h3v3h3v3h-3v4.5h-3V11h-3V8h3z',
      BASE,
    ],
    line: ['M12 30h21', 'M22.5 16v13'],
  },
};

const fmt = (x: number): string => String(Math.round(x * 1000) / 1000);

function pieceDefs(used: Set<string>): string {
  const out: string[] = [];
  for (const letter of used) {
    const white = letter === letter.toUpperCase();
    const shape = PIECE_SHAPES[letter.toLowerCase()]!;
    const fill = white ? '#ffffff' : '#262626';
    const detail = white ? '#000000' : '#e6e6e6';
    out.push(`<g id="bbp-${white ? 'w' : 'b'}${letter.toLowerCase()}" stroke-linejoin="round" stroke-linecap="round">`
      + shape.fill.map((d) => `<path d="${d}" fill="${fill}" stroke="#000000" stroke-width="1.5"/>`).join('')
      + shape.line.map((d) => `<path d="${d}" fill="none" stroke="${detail}" stroke-width="1.3"/>`).join('')
      + '</g>');
  }
  return out.join('');
}

// ---- SVG ----

/**
 * The board as a standalone SVG document (a string, `<svg xmlns=...>...</svg>`), `pos` null for an
 * empty board. See the header of this module for the geometry. Pieces of the package's own vector
 * set; highlights fill their squares' background with their colour (an opaque colour replaces the
 * square colour, a translucent one tints it); arrows from square centre to square centre.
 * TypeError / RangeError for bad options, MoveError for a malformed `lastMove`.
 */
export function toSvg(pos: Position | null, options?: SvgOptions): string {
  return renderSvg('toSvg', pos, options, []);
}

/**
 * A bare bitboard on an empty board: its squares filled with `options.color` (default
 * `BITBOARD_COLOR`), under any further `options.highlight`. Same geometry and options as `toSvg`.
 */
export function bitboardSvg(bb: bigint, options?: BitboardSvgOptions): string {
  const fn = 'bitboardSvg';
  const squares = checkBitboard(fn, 'bb', bb);
  const o = checkOptions(fn, options);
  const color = o.color === undefined ? BITBOARD_COLOR : checkCssColor(fn, 'color', o.color);
  return renderSvg(fn, null, o, [{ squares, color, label: undefined }]);
}

function renderSvg(fn: string, posArg: unknown, options: unknown, first: CheckedHighlight[]): string {
  const pos = checkPositionOrNull(fn, posArg);
  const o = checkOptions(fn, options);
  const highlights = [...first, ...checkHighlights(fn, o.highlight, checkCssColor)];
  const arrows = [...checkSquares(fn, o.squares), ...checkArrows(fn, o.arrows)];
  const flipped = checkBoolean(fn, 'flipped', o.flipped, false);
  const size = checkSize(fn, o.size);
  const coordinates = checkBoolean(fn, 'coordinates', o.coordinates, true);
  const markCheck = checkBoolean(fn, 'check', o.check, true);
  const lastMove = o.lastMove === undefined ? null : uciSquares(fn, o.lastMove);

  const s = size / 8;
  const x0 = (sq: number): number => (flipped ? 7 - (sq & 7) : sq & 7) * s;
  const y0 = (sq: number): number => (flipped ? sq >> 3 : 7 - (sq >> 3)) * s;
  const rect = (sq: number, color: string): string =>
    `<rect x="${fmt(x0(sq))}" y="${fmt(y0(sq))}" width="${fmt(s)}" height="${fmt(s)}" fill="${color}"/>`;
  const isLight = (sq: number): boolean => (((sq & 7) + (sq >> 3)) & 1) === 1;

  const margin = coordinates ? s / 2 : 0;
  const full = size + 2 * margin;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" `
    + `width="${fmt(full)}" height="${fmt(full)}" viewBox="${fmt(-margin)} ${fmt(-margin)} ${fmt(full)} ${fmt(full)}">`);

  const cells = board(pos);
  const used = new Set(cells.filter(Boolean));
  let checkedKing = -1;
  if (pos && markCheck && checkers(pos, pos.sideToMove) !== 0n) {
    const king = pos.pieces[KING] & pos.colors[pos.sideToMove];
    for (let sq = 0; sq < 64; sq++) if ((king >> BigInt(sq)) & 1n) checkedKing = sq;
  }
  const defs: string[] = [pieceDefs(used)];
  if (checkedKing >= 0) {
    defs.push(`<radialGradient id="bbp-check" cx="50%" cy="50%" r="75%"><stop offset="0%" stop-color="${CHECK_COLOR}" stop-opacity="1"/>`
      + `<stop offset="55%" stop-color="${CHECK_COLOR}" stop-opacity="0.9"/><stop offset="100%" stop-color="${CHECK_COLOR}" stop-opacity="0.25"/></radialGradient>`);
  }
  if (defs.join('')) parts.push(`<defs>${defs.join('')}</defs>`);

  if (coordinates) parts.push(`<rect x="${fmt(-margin)}" y="${fmt(-margin)}" width="${fmt(full)}" height="${fmt(full)}" fill="${FRAME_COLOR}"/>`);
  for (let sq = 0; sq < 64; sq++) parts.push(rect(sq, isLight(sq) ? BOARD_COLORS.light : BOARD_COLORS.dark));
  if (lastMove) {
    for (const sq of new Set(lastMove)) parts.push(rect(sq, isLight(sq) ? LAST_MOVE_COLORS.light : LAST_MOVE_COLORS.dark));
  }
  for (const h of highlights) {
    for (let sq = 0, set = h.squares; set !== 0n; sq++, set >>= 1n) if (set & 1n) parts.push(rect(sq, h.color));
  }
  if (checkedKing >= 0) parts.push(rect(checkedKing, 'url(#bbp-check)'));
  const scale = s / 45;
  for (let sq = 0; sq < 64; sq++) {
    const p = cells[sq]!;
    if (!p) continue;
    const id = `bbp-${p === p.toUpperCase() ? 'w' : 'b'}${p.toLowerCase()}`;
    parts.push(`<use href="#${id}" xlink:href="#${id}" transform="translate(${fmt(x0(sq))} ${fmt(y0(sq))}) scale(${fmt(scale)})"/>`);
  }
  if (coordinates) {
    const fontSize = s * 0.3;
    const text = (x: number, y: number, t: string): string =>
      `<text x="${fmt(x)}" y="${fmt(y)}" text-anchor="middle" dominant-baseline="central">${t}</text>`;
    const labels: string[] = [];
    for (let i = 0; i < 8; i++) {
      const file = FILES[flipped ? 7 - i : i]!;
      const rank = String(flipped ? i + 1 : 8 - i);
      const c = (i + 0.5) * s;
      labels.push(text(c, -margin / 2, file), text(c, size + margin / 2, file), text(-margin / 2, c, rank), text(size + margin / 2, c, rank));
    }
    parts.push(`<g font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="${fmt(fontSize)}" fill="${FRAME_TEXT_COLOR}">${labels.join('')}</g>`);
  }
  for (const a of arrows) parts.push(arrowSvg(a, s, x0, y0));
  parts.push('</svg>');
  return parts.join('');
}

function arrowSvg(a: Arrow, s: number, x0: (sq: number) => number, y0: (sq: number) => number): string {
  const fx = x0(a.from) + s / 2, fy = y0(a.from) + s / 2;
  const tx = x0(a.to) + s / 2, ty = y0(a.to) + s / 2;
  const width = s * 0.16;
  if (a.from === a.to) {
    return `<circle cx="${fmt(fx)}" cy="${fmt(fy)}" r="${fmt(s * 0.42)}" fill="none" stroke="${a.color}" stroke-width="${fmt(width * 0.6)}"/>`;
  }
  const len = Math.hypot(tx - fx, ty - fy);
  const ux = (tx - fx) / len, uy = (ty - fy) / len;
  const head = s * 0.42, half = s * 0.22;
  // The shaft ends where the head begins, so a translucent colour does not darken their overlap.
  const bx = tx - ux * head, by = ty - uy * head;
  const shaft = `<line x1="${fmt(fx)}" y1="${fmt(fy)}" x2="${fmt(bx)}" y2="${fmt(by)}" stroke="${a.color}" stroke-width="${fmt(width)}" stroke-linecap="butt"/>`;
  const tip = `<polygon points="${fmt(tx)},${fmt(ty)} ${fmt(bx - uy * half)},${fmt(by + ux * half)} ${fmt(bx + uy * half)},${fmt(by - ux * half)}" fill="${a.color}"/>`;
  return `<g>${shaft}${tip}</g>`;
}

// ---- Text ----

/** A highlight for `toText`: `color` is `#rgb`, `#rrggbb`, `rgb(r, g, b)` (24-bit ANSI) or an ANSI name. */
export type TextHighlight = Highlight;

export interface TextOptions {
  /** Squares to mark; later entries win where they overlap. With `label`s a legend follows the board. */
  readonly highlight?: readonly TextHighlight[];
  /** ANSI colours. Default: when stdout is a terminal and NO_COLOR is unset or empty. */
  readonly color?: boolean;
  /** Unicode chess symbols instead of FEN letters. Default false. */
  readonly unicode?: boolean;
  /** Black at the bottom. Default false. */
  readonly flipped?: boolean;
  /** Rank digits on the left, file letters underneath. Default true. */
  readonly coordinates?: boolean;
}

/** The 16 ANSI colour names `toText` accepts, with their background codes. */
export const ANSI_COLORS: Readonly<Record<string, number>> = Object.freeze({
  black: 40, red: 41, green: 42, yellow: 43, blue: 44, magenta: 45, cyan: 46, white: 47,
  gray: 100, grey: 100, brightred: 101, brightgreen: 102, brightyellow: 103, brightblue: 104, brightmagenta: 105,
  brightcyan: 106, brightwhite: 107,
});

/**
 * Without colour, highlighted squares are bracketed: the first highlight `[x]`, the second `(x)`,
 * then `{x}`, `<x>`, `|x|`, `:x:` (repeating).
 */
export const TEXT_MARKS: readonly (readonly [string, string])[] = [['[', ']'], ['(', ')'], ['{', '}'], ['<', '>'], ['|', '|'], [':', ':']];

const UNICODE_PIECES: Record<string, string> = {
  K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
  k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f',
};

/** The SGR parameters of a background colour (with black text), or a RangeError. */
function ansiBackground(fn: string, what: string, v: unknown): string {
  if (typeof v !== 'string') throw new TypeError(`${fn}: ${what} must be a colour string, got ${typeof v}`);
  const named = ANSI_COLORS[v.toLowerCase()];
  if (named !== undefined) return `30;${named}`;
  let m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(v);
  if (m) return `30;48;2;${[m[1]!, m[2]!, m[3]!].map((h) => parseInt(h + h, 16)).join(';')}`;
  m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(v);
  if (m) return `30;48;2;${[m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16)).join(';')}`;
  m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(v);
  if (m && [m[1]!, m[2]!, m[3]!].every((c) => Number(c) <= 255)) return `30;48;2;${Number(m[1])};${Number(m[2])};${Number(m[3])}`;
  throw new RangeError(`${fn}: ${what} must be #rgb, #rrggbb, rgb(r, g, b) or an ANSI colour name (${Object.keys(ANSI_COLORS).join(', ')}), got ${JSON.stringify(v.slice(0, 40))}`);
}

/** Colour on by default: stdout is a terminal and NO_COLOR (https://no-color.org) is unset or empty. */
export function colorByDefault(): boolean {
  const noColor = process.env.NO_COLOR;
  return process.stdout.isTTY === true && (noColor === undefined || noColor === '');
}

/**
 * The board as text, one line per rank (8 first, 1 first when flipped), each square three
 * characters wide: FEN letters (or Unicode symbols), '.' for empty. Highlighted squares get their
 * colour as an ANSI background when colour is on, else the brackets of `TEXT_MARKS`. When any
 * highlight has a `label`, a legend line per labelled highlight follows the board. Lines end
 * without trailing spaces and without a final newline.
 */
export function toText(pos: Position | null, options?: TextOptions): string {
  const fn = 'toText';
  const p = checkPositionOrNull(fn, pos);
  const o = checkOptions(fn, options);
  const color = checkBoolean(fn, 'color', o.color, colorByDefault());
  const highlights = checkHighlights(fn, o.highlight, ansiBackground);
  const unicode = checkBoolean(fn, 'unicode', o.unicode, false);
  const flipped = checkBoolean(fn, 'flipped', o.flipped, false);
  const coordinates = checkBoolean(fn, 'coordinates', o.coordinates, true);

  const cells = board(p);
  const top = new Array<number>(64).fill(-1);
  highlights.forEach((h, i) => {
    for (let sq = 0, set = h.squares; set !== 0n; sq++, set >>= 1n) if (set & 1n) top[sq] = i;
  });
  const paint = (i: number, text: string): string => {
    if (color) return `\x1b[${highlights[i]!.color}m${text}\x1b[0m`;
    const [l, r] = TEXT_MARKS[i % TEXT_MARKS.length]!;
    return `${l}${text.slice(1, -1)}${r}`;
  };
  const lines: string[] = [];
  for (let row = 0; row < 8; row++) {
    const rank = flipped ? row : 7 - row;
    let line = coordinates ? `${rank + 1} ` : '';
    for (let col = 0; col < 8; col++) {
      const sq = rank * 8 + (flipped ? 7 - col : col);
      const piece = cells[sq]!;
      const cell = ` ${piece ? (unicode ? UNICODE_PIECES[piece]! : piece) : '.'} `;
      line += top[sq]! >= 0 ? paint(top[sq]!, cell) : cell;
    }
    lines.push(line.trimEnd());
  }
  if (coordinates) lines.push(`  ${[...(flipped ? 'hgfedcba' : FILES)].map((f) => ` ${f} `).join('')}`.trimEnd());
  const legend = highlights.flatMap((h, i) => (h.label === undefined ? [] : [`${paint(i, '   ')} ${h.label}`]));
  if (legend.length) lines.push('', ...legend);
  return lines.join('\n');
}
