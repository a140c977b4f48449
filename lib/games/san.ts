/**
 * Standard Algebraic Notation (PGN standard, section 8.2.3) on both backends.
 *
 * - `toSan(pos, move)`: the canonical SAN of a legal move (UCI string or 16-bit move code): piece
 *   letter, the fewest disambiguation characters (file, else rank, else both: 8.2.3.3), 'x' for
 *   captures (pawn captures start with the file of departure), `O-O` / `O-O-O`, `=Q`, then `+` or `#`.
 * - `parseSan(pos, san, { strict })`: the UCI move a SAN text names. Lenient by default, as real files
 *   need: over-disambiguation (`Ngf3`, `Qd1d2`), missing or wrong `+` / `#`, `!` / `?` suffixes,
 *   `0-0` / `0-0-0`, `exd6 e.p.`, a promotion without `=` (`e8Q`), an explicit `P`, `-` between the
 *   squares; null moves `Z0` / `--` come back as `'0000'`. `strict: true` accepts only the text
 *   `toSan` writes (and no null move).
 * - `sanMoves(pos)`: the SAN of every legal move, in the order of `legalMoves(pos)` (sorted UCI).
 * A text that is no move, an illegal one or an ambiguous one is a `SanError` (`reason`, `candidates`).
 */
import type { Position } from '../core/types.js';
import { MAX_MOVES } from '../board/movegen.js';
import * as jsSan from '../backends/js/san.js';
import { chooseBackend, type BackendName } from '../backends/choose.js';
import { backendNamed } from '../backends/named.js';
import { MoveError, errorText, isPosition } from '../core/position.js';
import { uciOfCode } from '../core/position-record.js';
import { parseUci } from '../moves/moves.js';

/** Why a SAN text was refused. */
export type SanReason = 'malformed' | 'illegal' | 'ambiguous' | 'not canonical' | 'null move';

/** A SAN text that names no single legal move (or, in strict mode, is not the canonical text). */
export class SanError extends Error {
  override readonly name = 'SanError';
  /** The text as given (at most 40 characters). */
  readonly san: string;
  readonly reason: SanReason;
  /** Ambiguous: the UCI moves the text could mean; not canonical: the canonical SAN. */
  readonly candidates: readonly string[];
  constructor(san: string, reason: SanReason, detail: string, candidates: readonly string[] = []) {
    const given = errorText(san);
    const text = given.length > 40 ? `${given.slice(0, 40)}...` : given;
    if (!Array.isArray(candidates)) candidates = [];
    reason = errorText(reason) as SanReason;
    super(`${reason} SAN move ${JSON.stringify(text)}: ${errorText(detail)}`);
    this.san = text;
    this.reason = reason;
    this.candidates = candidates;
  }
}

export interface SanOptions {
  /** Accept only the canonical SAN (exactly what toSan writes); default false. */
  strict?: boolean;
}

/** A 16-bit move code -> UCI ('0000' for the null move). */
export function uciOf(code: number): string {
  return code === 0 ? '0000' : uciOfCode(code);
}
function codeOf(fn: string, move: unknown): number {
  if (typeof move === 'number') {
    if (!Number.isInteger(move) || move < 0 || move > 0xffff) throw new RangeError(`${fn}: a move code must be an integer 0..65535, got ${move}`);
    return move;
  }
  if (typeof move !== 'string') throw new TypeError(`${fn}: move must be a UCI string or a move code, got ${typeof move}`);
  return parseUci(fn, move);
}
function checkPos(fn: string, pos: unknown): Position {
  if (!isPosition(pos)) throw new TypeError(`${fn}: pos must be a Position (parseFen / createPosition / makeMove)`);
  return pos;
}
function sanBytes(fn: string, san: unknown): Uint8Array {
  if (typeof san !== 'string') throw new TypeError(`${fn}: san must be a string, got ${typeof san}`);
  // Non-ASCII text is no SAN; 0xff keeps it from matching anything.
  const bytes = new Uint8Array(Math.min(san.length, 64));
  for (let i = 0; i < bytes.length; i++) { const c = san.charCodeAt(i); bytes[i] = c < 0x80 ? c : 0xff; }
  return san.length > 64 ? new Uint8Array([0xff]) : bytes;
}

/**
 * The SAN API bound to one backend ('native' | 'js'); `parseInJs` reads SAN with the JS backend
 * whatever `which` is (the default facade's choice: there JS is the faster of the two).
 */
export function createSanApi(which: BackendName, { parseInJs = false }: { parseInJs?: boolean } = {}) {
  const sb = backendNamed(which).san;
  const parser = parseInJs ? backendNamed('js').san : sb;
  const out = new Uint16Array(MAX_MOVES);

  function toSan(pos: Position, move: string | number): string {
    const p = checkPos('toSan', pos);
    const code = codeOf('toSan', move);
    const text = sb.write(p, code);
    if (text === '') throw new MoveError(typeof move === 'string' ? move : uciOf(code), 'toSan: not a legal move in this position');
    return text;
  }

  function parseSan(pos: Position, san: string, options: SanOptions = {}): string {
    const p = checkPos('parseSan', pos);
    const bytes = sanBytes('parseSan', san);
    if (typeof options !== 'object' || options === null) throw new TypeError('parseSan: options must be an object');
    const r = parser.parse(p, bytes, out);
    const status = r & 255;
    const count = r >> 8;
    if (status === jsSan.SAN_MALFORMED) throw new SanError(san, 'malformed', 'not a SAN move (like e4, Nf3, exd5, O-O, e8=Q)');
    if (status === jsSan.SAN_ILLEGAL) throw new SanError(san, 'illegal', 'no legal move matches it');
    if (status === jsSan.SAN_AMBIGUOUS) {
      const cands = Array.from(out.subarray(0, count), uciOf).sort();
      throw new SanError(san, 'ambiguous', `it matches ${cands.join(', ')}`, cands);
    }
    if (status === jsSan.SAN_NULL_MOVE) {
      if (options.strict) throw new SanError(san, 'null move', 'null moves are not part of the standard');
      return '0000';
    }
    const move = out[0]!;
    if (options.strict) {
      const canonical = sb.write(p, move);
      if (canonical !== san) throw new SanError(san, 'not canonical', `the standard's form is ${canonical}`, [canonical]);
    }
    return uciOfCode(move);
  }

  function sanMoves(pos: Position): string[] {
    const p = checkPos('sanMoves', pos);
    const [codes, sans] = sb.list(p);
    const pairs = Array.from(codes, (c, i) => [uciOf(c), sans[i]!] as const);
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return pairs.map((x) => x[1]);
  }

  return { toSan, parseSan, sanMoves };
}


/** The backend the facade uses (lib/backends/choose.ts decides). */
export function defaultBackendName(): BackendName {
  return chooseBackend().name;
}

let facade: ReturnType<typeof createSanApi> | undefined;
const api = () => {
  if (facade) return facade;
  const decision = chooseBackend();
  return (facade = createSanApi(decision.name, { parseInJs: !decision.forced }));
};
/** The canonical SAN of a legal move (UCI string or 16-bit code); MoveError when it is not legal. */
export const toSan = (pos: Position, move: string | number): string => api().toSan(pos, move);
/** The UCI move a SAN text names ('0000' for a null move); SanError when none or several. */
export const parseSan = (pos: Position, san: string, options?: SanOptions): string => api().parseSan(pos, san, options);
/** The SAN of every legal move, in the order of legalMoves(pos) (sorted UCI). */
export const sanMoves = (pos: Position): string[] => api().sanMoves(pos);
