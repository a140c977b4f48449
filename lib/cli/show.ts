/**
 * `bitboard-patterns show "<fen>" [--highlight pinned,checkers,...] [--svg FILE] [--flip]`: the board
 * in the terminal with analysis features highlighted and a legend, optionally written as SVG too.
 */
import { writeFileSync } from 'node:fs';
import { createApi } from '../api/create-api.js';
import type { Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { FEATURES } from '../batch/batch.js';
import { colorByDefault, toSvg, toText, type Highlight } from '../diagram/diagram.js';
import { jsBackend } from '../backends/js/index.js';
import { loadNative } from '../backends/native.js';
import { chooseBackend } from '../backends/choose.js';
import { FenError } from '../core/position.js';
import type { Subcommand } from './subcommand.js';
import { UsageError, backendOf, valueOf } from './args.js';

/** The analyze features that are sets of squares (bitboards), the ones `--highlight` can draw. */
const SET_FEATURES = FEATURES.filter((f) => f.type === 'bitboard').map((f) => f.name);
type SetFeature = (typeof SET_FEATURES)[number];

/** Short names accepted besides the feature names. */
const ALIASES: Record<string, SetFeature> = {
  forks: 'knightForkSquares', discovered: 'discoveredCheckCandidates', passers: 'uncatchablePassers',
  checks: 'checkers', pins: 'pinned', attacks: 'attacked',
};

/** Highlight colours in --highlight order: light enough for the pieces to stay readable. */
export const SHOW_PALETTE = ['#e5735c', '#6fa8dc', '#93c47d', '#f6b26b', '#b4a7d6', '#e3d26f', '#76c9c4', '#d5a6bd'] as const;

export const summary = 'draw a position in the terminal (and as SVG) with analysis features highlighted';

export const usage = `usage: bitboard-patterns show "<fen>" [options]

Prints the board (white at the bottom), the side to move and whether it is in check, mate or
stalemate, and the highlighted features with a legend naming each colour and listing the squares.

options:
  --highlight a,b,...   features to highlight (later ones on top where they overlap):
                        ${SET_FEATURES.join(', ')}
                        (short names: ${Object.entries(ALIASES).map(([k, v]) => `${k} = ${v}`).join(', ')});
                        a feature alone highlights both colours' sets, name:white or name:black one colour's
  --svg FILE            also write the diagram as SVG to FILE ('-': the SVG to stdout instead of the board)
  --flip                black at the bottom
  --size N              SVG board width in px (default 400)
  --no-coordinates      SVG without the frame of file letters and rank digits
  --unicode             Unicode chess symbols instead of FEN letters
  --color / --no-color  ANSI colours (default: when stdout is a terminal and NO_COLOR is unset)
  --backend native|js   analysis backend (default native when it loads, else js)

Without colour, highlighted squares are bracketed: [x] for the first feature, (x) for the second, ...
Exit codes: 0 ok, 1 bad FEN or unwritable file, 2 bad usage.`;


interface Wanted { feature: SetFeature; color: 'both' | 0 | 1; name: string }
interface Options {
  fen: string; wanted: Wanted[]; svg?: string; flip: boolean; size?: number; coordinates: boolean;
  unicode: boolean; color: boolean; backend?: 'native' | 'js';
}

function parseHighlight(list: string): Wanted[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((item) => {
    const [base, side, extra] = item.split(':');
    const feature = (SET_FEATURES as readonly string[]).includes(base!) ? base as SetFeature : ALIASES[base!];
    if (!feature || extra !== undefined) {
      const other = FEATURES.find((f) => f.name === base);
      throw new UsageError(other
        ? `--highlight: ${base} is not a set of squares (it is a ${other.type} feature); sets: ${SET_FEATURES.join(', ')}`
        : `--highlight: unknown feature ${JSON.stringify(item)}; sets of squares: ${SET_FEATURES.join(', ')}, or ${Object.keys(ALIASES).join(', ')}`);
    }
    let color: Wanted['color'] = 'both';
    if (side === 'white' || side === 'w') color = 0;
    else if (side === 'black' || side === 'b') color = 1;
    else if (side !== undefined) throw new UsageError(`--highlight: ${JSON.stringify(item)}: the colour after ':' must be white or black`);
    return { feature, color, name: item };
  });
}

function parseArgs(args: string[]): Options {
  const o: Options = { fen: '', wanted: [], flip: false, coordinates: true, unicode: false, color: colorByDefault() };
  const fenParts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (a === '--highlight' || a === '-H') o.wanted.push(...parseHighlight(value()));
    else if (a === '--svg') o.svg = value();
    else if (a === '--flip') o.flip = true;
    else if (a === '--size') {
      const v = Number(value());
      if (!Number.isFinite(v) || v < 16 || v > 10000) throw new UsageError(`--size must be a number 16..10000, got ${JSON.stringify(args[i])}`);
      o.size = v;
    } else if (a === '--no-coordinates') o.coordinates = false;
    else if (a === '--unicode') o.unicode = true;
    else if (a === '--color') o.color = true;
    else if (a === '--no-color') o.color = false;
    else if (a === '--backend') {
      o.backend = backendOf(value());
    } else if (a.startsWith('--') || (a.startsWith('-') && a.length === 2)) throw new UsageError(`unknown option ${a}`);
    else fenParts.push(a);
  }
  // An unquoted FEN arrives as up to six arguments: join them back.
  o.fen = fenParts.join(' ');
  if (!o.fen) throw new UsageError('show needs a FEN');
  return o;
}

function pickBackend(wanted: 'native' | 'js' | undefined): Backend {
  return chooseBackend(wanted).name === 'native' ? loadNative() : jsBackend;
}

const FILES = 'abcdefgh';
const names = (set: bigint): string => {
  const out: string[] = [];
  for (let sq = 0; set !== 0n; sq++, set >>= 1n) if (set & 1n) out.push(`${FILES[sq & 7]}${(sq >> 3) + 1}`);
  return out.length ? out.join(' ') : '(none)';
};

export async function run(args: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseArgs(args);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`bitboard-patterns show: ${e.message}\n${usage}\n`);
      return 2;
    }
    throw e;
  }
  const api = createApi(pickBackend(o.backend));
  let pos: Position;
  try {
    pos = api.parseFen(o.fen);
  } catch (e) {
    if (e instanceof FenError) {
      process.stderr.write(`bitboard-patterns show: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  const features: (SetFeature | 'inCheck' | 'checkmate' | 'stalemate')[] = [...new Set(o.wanted.map((w) => w.feature)), 'inCheck', 'checkmate', 'stalemate'];
  const results = api.analyzeBatch(api.PositionBatch.fromPositions([pos]), features);
  const highlight: Highlight[] = o.wanted.map((w, i) => {
    const pair = results[w.feature];
    const squares = w.color === 'both' ? pair[0]! | pair[1]! : pair[w.color]!;
    const side = w.color === 'both' ? '' : w.color === 0 ? ' (white)' : ' (black)';
    return { squares, color: SHOW_PALETTE[i % SHOW_PALETTE.length]!, label: `${w.feature}${side}: ${names(squares)}` };
  });

  if (o.svg !== undefined) {
    const svg = `${toSvg(pos, { highlight, flipped: o.flip, size: o.size, coordinates: o.coordinates })}\n`;
    if (o.svg === '-') {
      process.stdout.write(svg);
      return 0;
    }
    try {
      writeFileSync(o.svg, svg);
    } catch (e) {
      process.stderr.write(`bitboard-patterns show: cannot write ${o.svg}: ${(e as Error).message}\n`);
      return 1;
    }
  }
  const mover = pos.sideToMove === 0 ? 'white' : 'black';
  const state = results.checkmate[0] ? ', checkmated' : results.stalemate[0] ? ', stalemated' : results.inCheck[0] ? ', in check' : '';
  const text = toText(pos, { highlight, flipped: o.flip, unicode: o.unicode, color: o.color });
  const [boardText, legend] = text.split('\n\n');
  const out = [boardText, '', `${mover} to move${state}`];
  if (legend !== undefined) out.push(legend);
  if (o.svg !== undefined) out.push(`SVG written to ${o.svg}`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
