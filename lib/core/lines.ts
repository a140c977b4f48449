/**
 * FEN / EPD text, one position per line, as both backends read it: where the lines start, one line
 * as a string, what part of an EPD line is the position, the JS parse of a line (the lines the native
 * parser leaves to JS, and the error message of a bad one), and the CLI's echo and CSV quoting of a
 * line. No analysis code: the analyze command's native worker threads load this and not the JS
 * backend.
 */
import type { CheckersFn } from './position.js';
import { FenError, parseFen } from './position.js';

/** parseFenText's status codes 1.. (0 is ok): the FenError field of a bad line, in this order. */
export const FEN_FIELDS = ['fen', 'pieces', 'sideToMove', 'castling', 'enPassant', 'halfmoveClock', 'fullmoveNumber'] as const;

const WS = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;
/** The CLI's echo of a line: ASCII white space trimmed at both ends. */
export const trimAscii = (s: string): string => s.replace(WS, '');

/** A CSV field, always quoted, quotes doubled. */
export const csvQuote = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/**
 * What parseFen reads from one input line. EPD mode: a line whose 5th field is not all digits, or
 * that has more than six fields, is EPD: its first four fields are the position, the rest are
 * operations (ignored). Every other line is given to parseFen whole.
 */
export function positionText(line: string, epd: boolean): string {
  if (!epd) return line;
  const parts = line.trim().split(/\s+/);
  if (parts.length > 6 || (parts.length >= 5 && !/^\d+$/.test(parts[4]!))) return parts.slice(0, 4).join(' ');
  return line;
}

/** Byte offsets of the lines of `text` (see the native parseFenText). */
export function lineStarts(text: Uint8Array): Uint32Array {
  const starts: number[] = [];
  let at = 0;
  while (at < text.length) {
    starts.push(at);
    const nl = text.indexOf(10, at);
    at = nl < 0 ? text.length + 1 : nl + 1;
  }
  starts.push(text.length === 0 ? 0 : at);
  return Uint32Array.from(starts);
}

const decoder = new TextDecoder();

/** One line of `text` as a string. */
export function lineAt(text: Uint8Array, starts: Uint32Array, i: number): string {
  return decoder.decode(text.subarray(starts[i]!, starts[i + 1]! - 1));
}

/**
 * The FenError of a line, or the packed words of its position (`checkers`: the backend's;
 * `chess960`: the castling field read as X-FEN, parseFen's `{ chess960: true }`).
 */
export function parseLine(line: string, epd: boolean, checkers: CheckersFn, chess960 = false): FenError | BigUint64Array {
  try {
    return parseFen(positionText(line, epd), checkers, chess960 ? { chess960 } : undefined).packed;
  } catch (e) {
    if (e instanceof FenError) return e;
    throw e;
  }
}
