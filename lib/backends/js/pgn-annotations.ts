/**
 * Embedded commands of PGN comments, [%clk], [%emt] and [%eval] (the PGN Specification Supplement,
 * Alan Cowderoy, 2001, as lichess and ChessBase write them); twin of `native/core/annotations.h`
 * (read its header for the accepted values), the same records for the same bytes.
 */

export const ANNOTATION_CLOCK = 1;
export const ANNOTATION_EMT = 2;
export const ANNOTATION_CP = 3;
export const ANNOTATION_MATE = 4;
/** One record: game index in the read, ply, kind, value, milliseconds (native/core/annotations.h). */
export const ANNOTATION_FIELDS = 5;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isWhite = (c: number): boolean => c === 32 || c === 9 || c === 13 || c === 10;

/** H:MM:SS(.f) in p[s..e): [seconds, milliseconds], or null. */
function clock(p: Uint8Array, s: number, e: number): [number, number] | null {
  let k = s;
  const digits = (max: number): number => {
    const start = k;
    let v = 0;
    while (k < e && isDigit(p[k]!)) {
      if (k - start === max) return -1;
      v = v * 10 + (p[k]! - 48);
      k++;
    }
    return k > start ? v : -1;
  };
  const h = digits(5);
  if (h < 0 || k >= e || p[k] !== 58) return null;
  k++;
  const m0 = k;
  const m = digits(2);
  if (m < 0 || k - m0 !== 2 || m >= 60 || k >= e || p[k] !== 58) return null;
  k++;
  const s0 = k;
  const sec = digits(2);
  if (sec < 0 || k - s0 !== 2 || sec >= 60) return null;
  let millis = 0;
  if (k < e && p[k] === 46) {
    k++;
    const f0 = k;
    let f = digits(3);
    if (f < 0) return null;
    for (let d = k - f0; d < 3; d++) f *= 10;
    millis = f;
  }
  if (k !== e) return null;
  return [h * 3600 + m * 60 + sec, millis];
}

/** The eval value in p[s..e): [kind, value], or null. */
function evalOf(p: Uint8Array, s: number, n: number): [number, number] | null {
  let end = s;
  while (end < n && p[end] !== 44) end++;
  if (end < n) {
    let k = end + 1;
    const d0 = k;
    while (k < n && isDigit(p[k]!)) {
      if (k - d0 === 4) return null;
      k++;
    }
    if (k === d0 || k !== n) return null;
  }
  let k = s;
  const mate = k < end && p[k] === 35;
  if (mate) k++;
  let negative = false;
  if (k < end && (p[k] === 43 || p[k] === 45)) negative = p[k++] === 45;
  const w0 = k;
  let whole = 0;
  const max = mate ? 4 : 5;
  while (k < end && isDigit(p[k]!)) {
    if (k - w0 === max) return null;
    whole = whole * 10 + (p[k]! - 48);
    k++;
  }
  if (k === w0) return null;
  if (mate) {
    if (k !== end) return null;
    return [ANNOTATION_MATE, negative ? -whole : whole];
  }
  let cp = whole * 100;
  if (k < end && p[k] === 46) {
    k++;
    let place = 0;
    let tenths = 0;
    let hundredths = 0;
    let third = 0;
    while (k < end && isDigit(p[k]!)) {
      if (place === 9) return null;
      const d = p[k]! - 48;
      if (place === 0) tenths = d;
      else if (place === 1) hundredths = d;
      else if (place === 2) third = d;
      place++;
      k++;
    }
    cp += tenths * 10 + hundredths + (third >= 5 ? 1 : 0);
  }
  if (k !== end) return null;
  return [ANNOTATION_CP, negative ? -cp : cp];
}

/**
 * Appends a record (ANNOTATION_FIELDS numbers) to `out` for each well-formed [%clk], [%emt] and
 * [%eval] command of the comment text p[start..end) of game `game`, after `ply` moves.
 */
export function readAnnotations(p: Uint8Array, start: number, n: number, game: number, ply: number, out: number[]): void {
  for (let k = start; k + 1 < n; k++) {
    if (p[k] !== 91 || p[k + 1] !== 37) continue;
    let i = k + 2;
    const name = i;
    while (i < n && p[i]! >= 97 && p[i]! <= 122) i++;
    const nameLen = i - name;
    while (i < n && isWhite(p[i]!)) i++;
    let close = i;
    while (close < n && p[close] !== 93 && p[close] !== 91) close++;
    if (close >= n) return;
    if (p[close] === 91) {
      k = close - 1;
      continue;
    }
    let valueEnd = close;
    while (valueEnd > i && isWhite(p[valueEnd - 1]!)) valueEnd--;
    const is = (text: string): boolean => {
      if (nameLen !== text.length) return false;
      for (let j = 0; j < nameLen; j++) if (p[name + j] !== text.charCodeAt(j)) return false;
      return true;
    };
    if (is('clk') || is('emt')) {
      const c = clock(p, i, valueEnd);
      if (c !== null) out.push(game, ply, is('clk') ? ANNOTATION_CLOCK : ANNOTATION_EMT, c[0], c[1]);
    } else if (is('eval')) {
      const v = evalOf(p, i, valueEnd);
      if (v !== null) out.push(game, ply, v[0], v[1], 0);
    }
    k = close;
  }
}
