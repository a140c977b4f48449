/**
 * The Universal Chess Interface as the pool speaks it (the UCI protocol description by Stefan
 * Meyer-Kahlen, April 2004, and the options later engines added: UCI_Chess960, UCI_ShowWDL): the
 * limits of `go`, the `info` lines of a search, and the messages an engine may print.
 */

/** An engine's score: centipawns, or moves to mate (negative: the side is mated). */
export type EngineScore = { cp: number } | { mate: number };

/** How long one search runs: a node count, a depth, or milliseconds; `multiPv` lines (default 1). */
export type EngineLimit = ({ nodes: number } | { depth: number } | { movetime: number }) & { multiPv?: number };

/** One principal variation of a search. Scores and win/draw/loss figures are from White's view. */
export interface EngineLine {
  /** From White's view, as `[%eval]` in PGN and the PGN reader's `evals`. */
  score: EngineScore;
  /** The line's first move (UCI, the package's form), or null when there is none (mate, stalemate). */
  bestMove: string | null;
  /** The principal variation, UCI moves in the package's form. */
  pv: string[];
  depth: number;
  seldepth: number;
  nodes: number;
  /** Win / draw / loss per mille from White's view, when the engine reports it (UCI_ShowWDL). */
  wdl?: [number, number, number];
}

/** The answer for one position: its best line's fields, and every line in `lines` (MultiPV). */
export interface EngineAnalysis extends EngineLine {
  /** The lines in the engine's order, `lines[0]` the best (as many as `multiPv` asked for, fewer when the position has fewer moves). */
  lines: EngineLine[];
}

/** The messages an engine sends (the protocol's "Engine to GUI" list). Anything else is a fault. */
const UCI_MESSAGES = new Set(['id', 'uciok', 'readyok', 'bestmove', 'copyprotection', 'registration', 'info', 'option']);

/** True for a line an engine may send: a UCI message, or a blank line. */
export function isUciLine(line: string): boolean {
  // Most lines of a search: nothing to trim, the message name known by its prefix.
  if (line.startsWith('info ') || line.startsWith('bestmove ')) return true;
  const t = line.trim();
  if (t === '') return true;
  const sp = t.indexOf(' ');
  return UCI_MESSAGES.has(sp < 0 ? t : t.slice(0, sp));
}

/** A limit checked: the `go` command, the number of PVs, movetime (0 for the others) and the cache's key. */
export interface CheckedLimit { go: string; multiPv: number; movetime: number; key: string }

/** The limit checked: exactly one of nodes, depth, movetime, a positive integer, and multiPv 1..256. */
export function checkLimit(fn: string, limit: unknown): CheckedLimit {
  if (typeof limit !== 'object' || limit === null) throw new TypeError(`${fn}: limit must be { nodes } | { depth } | { movetime }`);
  const l = limit as Record<string, unknown>;
  const kinds = (['nodes', 'depth', 'movetime'] as const).filter((k) => l[k] !== undefined);
  if (kinds.length !== 1) throw new TypeError(`${fn}: limit must have exactly one of nodes, depth, movetime`);
  const kind = kinds[0]!;
  const value = l[kind];
  if (typeof value !== 'number') throw new TypeError(`${fn}: limit.${kind} must be a number`);
  const max = kind === 'depth' ? 245 : 2 ** 40;
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${fn}: limit.${kind} must be an integer 1..${max}, got ${value}`);
  let multiPv = 1;
  if (l.multiPv !== undefined) {
    if (typeof l.multiPv !== 'number') throw new TypeError(`${fn}: limit.multiPv must be a number`);
    if (!Number.isInteger(l.multiPv) || l.multiPv < 1 || l.multiPv > 256) throw new RangeError(`${fn}: limit.multiPv must be an integer 1..256, got ${l.multiPv}`);
    multiPv = l.multiPv;
  }
  return { go: `go ${kind} ${value}`, multiPv, movetime: kind === 'movetime' ? value : 0, key: `${kind}${value}/${multiPv}` };
}

/** What one `info` line says about a line of the search (null for an info line without a score). */
export interface InfoLine { multiPv: number; score: EngineScore; bound: boolean; pv: string[]; depth: number; seldepth: number; nodes: number; wdl?: [number, number, number] }

/** True for the characters JavaScript counts as whitespace (`\\s`, what trim() removes). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
}

/** The end of the token found by the last tokenAt. */
let tokenEnd = 0;

/**
 * The start of the first token of `line` at or after `from` (tokens: the runs that
 * `line.trim().split(/\s+/)` gives), or -1 when there is none; its end in tokenEnd.
 */
export function tokenAt(line: string, from: number): number {
  const n = line.length;
  let i = from;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  if (i >= n) return -1;
  let j = i + 1;
  while (j < n && !isSpace(line.charCodeAt(j))) j++;
  tokenEnd = j;
  return i;
}

/** The second token of a line (the move of `bestmove MOVE [ponder MOVE]`), or undefined. */
export function secondToken(line: string): string | undefined {
  if (tokenAt(line, 0) < 0) return undefined;
  const s = tokenAt(line, tokenEnd);
  return s < 0 ? undefined : line.slice(s, tokenEnd);
}

/** True when the token line[s, e) is `word`. */
function tokenIs(line: string, s: number, e: number, word: string): boolean {
  return e - s === word.length && line.startsWith(word, s);
}

/** The number of the token line[s, e) (none: s < 0) after the field `k`, or an Error naming the field. */
function infoNumber(line: string, s: number, e: number, k: string): number {
  if (s < 0) throw new Error(`info ${k}: not a number: undefined`);
  let i = s;
  const negative = line.charCodeAt(i) === 45 && e - s > 1; // '-'
  if (negative) i++;
  if (e - i <= 15) {
    let v = 0;
    for (; i < e; i++) {
      const d = line.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === e) return negative ? -v : v;
  }
  const text = line.slice(s, e);
  const v = Number(text);
  if (!Number.isFinite(v)) throw new Error(`info ${k}: not a number: ${text}`);
  return v;
}

/**
 * Reads an `info` line (protocol: "info" with depth, seldepth, nodes, multipv, score, wdl, pv ...).
 * The tokens are read in place: only the moves of the pv become strings.
 */
export function parseInfo(line: string): InfoLine | null {
  let score: EngineScore | undefined;
  let bound = false;
  const out: InfoLine = { multiPv: 1, score: { cp: 0 }, bound: false, pv: [], depth: 0, seldepth: 0, nodes: 0 };
  // The first token is the message name.
  let at = tokenAt(line, 0) < 0 ? line.length : tokenEnd;
  /** The next token's start (-1: none), its end in `end`; past the line's end, none. */
  let end = at;
  const next = (): number => {
    const s = at >= line.length ? -1 : tokenAt(line, at);
    if (s < 0) {
      at = line.length;
      end = -1;
      return -1;
    }
    at = end = tokenEnd;
    return s;
  };
  for (let s = next(); s >= 0; s = next()) {
    const e = end;
    if (tokenIs(line, s, e, 'depth')) { const v = next(); out.depth = infoNumber(line, v, end, 'depth'); }
    else if (tokenIs(line, s, e, 'seldepth')) { const v = next(); out.seldepth = infoNumber(line, v, end, 'seldepth'); }
    else if (tokenIs(line, s, e, 'nodes')) { const v = next(); out.nodes = infoNumber(line, v, end, 'nodes'); }
    else if (tokenIs(line, s, e, 'multipv')) { const v = next(); out.multiPv = infoNumber(line, v, end, 'multipv'); }
    else if (tokenIs(line, s, e, 'score')) {
      const ks = next();
      const ke = end;
      const vs = next();
      const v = infoNumber(line, vs, end, 'score');
      if (ks >= 0 && tokenIs(line, ks, ke, 'cp')) score = { cp: v };
      else if (ks >= 0 && tokenIs(line, ks, ke, 'mate')) score = { mate: v };
      else throw new Error(`info score: unknown kind ${ks < 0 ? undefined : line.slice(ks, ke)}`);
    } else if (tokenIs(line, s, e, 'lowerbound') || tokenIs(line, s, e, 'upperbound')) bound = true; // after the score, or after its wdl
    else if (tokenIs(line, s, e, 'wdl')) {
      const w = infoNumber(line, next(), end, 'wdl');
      const d = infoNumber(line, next(), end, 'wdl');
      out.wdl = [w, d, infoNumber(line, next(), end, 'wdl')];
    } else if (tokenIs(line, s, e, 'pv')) {
      const pv: string[] = [];
      for (let m = next(); m >= 0; m = next()) pv.push(line.slice(m, end));
      out.pv = pv;
      break;
    } else if (tokenIs(line, s, e, 'string')) break;
    else if (tokenIs(line, s, e, 'currmove') || tokenIs(line, s, e, 'refutation') || tokenIs(line, s, e, 'currline')) return null;
    else if (tokenIs(line, s, e, 'time') || tokenIs(line, s, e, 'nps') || tokenIs(line, s, e, 'hashfull') || tokenIs(line, s, e, 'tbhits')
      || tokenIs(line, s, e, 'cpuload') || tokenIs(line, s, e, 'currmovenumber') || tokenIs(line, s, e, 'sbhits')) next(); // a value the pool does not read
  }
  if (!score) return null;
  out.score = score;
  out.bound = bound;
  return out;
}

/** The score of the side to move from White's view (−0 made 0). */
export function whiteScore(s: EngineScore, blackToMove: boolean): EngineScore {
  if (!blackToMove) return 'cp' in s ? { cp: s.cp } : { mate: s.mate };
  return 'cp' in s ? { cp: -s.cp || 0 } : { mate: -s.mate || 0 };
}
