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

/** The `info` fields followed by one value the pool does not read. */
const ONE_VALUE = new Set(['time', 'nps', 'hashfull', 'tbhits', 'cpuload', 'currmovenumber', 'sbhits']);

/** The number after the field `k` at t[i], or an Error naming the field. */
function infoNumber(t: string[], i: number, k: string): number {
  const v = Number(t[i]);
  if (!Number.isFinite(v)) throw new Error(`info ${k}: not a number: ${t[i]}`);
  return v;
}

/** Reads an `info` line (protocol: "info" with depth, seldepth, nodes, multipv, score, wdl, pv ...). */
export function parseInfo(line: string): InfoLine | null {
  const t = line.trim().split(/\s+/);
  let score: EngineScore | undefined;
  let bound = false;
  const out: InfoLine = { multiPv: 1, score: { cp: 0 }, bound: false, pv: [], depth: 0, seldepth: 0, nodes: 0 };
  for (let i = 1; i < t.length; i++) {
    const k = t[i]!;
    switch (k) {
      case 'depth': out.depth = infoNumber(t, ++i, k); break;
      case 'seldepth': out.seldepth = infoNumber(t, ++i, k); break;
      case 'nodes': out.nodes = infoNumber(t, ++i, k); break;
      case 'multipv': out.multiPv = infoNumber(t, ++i, k); break;
      case 'score': {
        const kind = t[++i];
        const v = infoNumber(t, ++i, k);
        if (kind === 'cp') score = { cp: v };
        else if (kind === 'mate') score = { mate: v };
        else throw new Error(`info score: unknown kind ${kind}`);
        break;
      }
      case 'lowerbound': case 'upperbound': bound = true; break; // after the score, or after its wdl
      case 'wdl': {
        const w = infoNumber(t, ++i, k);
        const d = infoNumber(t, ++i, k);
        out.wdl = [w, d, infoNumber(t, ++i, k)];
        break;
      }
      case 'pv': out.pv = t.slice(i + 1); i = t.length; break;
      case 'string': i = t.length; break;
      case 'currmove': case 'refutation': case 'currline': return null;
      default: if (ONE_VALUE.has(k)) i++;
    }
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
