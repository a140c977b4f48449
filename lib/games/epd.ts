/**
 * EPD, the Extended Position Description of the PGN standard (section 16.2): the first four FEN
 * fields (placement, side to move, castling, en passant), then operations, each an opcode (a letter,
 * then up to 14 letters, digits or underscores), its operands separated by spaces, and a semicolon.
 * An operand is a string in double quotes, or a token without spaces or semicolons.
 *
 * parseEpd reads the operations by the meaning section 16.2.5 gives them:
 * - `bm`, `am` (best / avoid moves): SAN moves of the position, returned as UCI arrays;
 *   `pm`, `sm` (predicted / supplied move): one SAN move, returned as UCI;
 *   `pv` (predicted variation): SAN moves played one after the other, returned as UCI;
 * - `id`, `c0`..`c9` (comments), `v0`..`v9` (variation names), `eco`, `nic`: one string;
 * - `acd`, `acn`, `acs`, `ce`, `dm`, `fmvn`, `hmvc`, `rc`: one integer; `hmvc` and `fmvn` become the
 *   position's halfmove clock and fullmove number (0 and 1 when absent);
 * - any other opcode: its operands as strings (an array, empty for `noop`).
 * A malformed line is an EpdError (`problem`), bad position fields a FenError, as parseFen's.
 */
import type { Position } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { ProblemError } from '../core/coded-error.js';
import { backendNamed } from '../backends/named.js';
import type { BackendName } from '../backends/choose.js';
import { chess960Option, isPosition, parseFen, shredderOption, toFen, type FenOptions, type ToFenOptions } from '../core/position.js';
import { makeMoveCall, parseUci } from '../moves/moves.js';
import { createSanApi, defaultBackendName, SanError } from './san.js';

/** What is wrong with an EPD line. */
export type EpdProblem = 'fields' | 'opcode' | 'operand' | 'unterminated' | 'move' | 'number' | 'duplicate';

/** An EPD line (or toEpd's operations) that cannot be read or written: `problem` says what. */
export class EpdError extends ProblemError<EpdProblem> {
  override readonly name = 'EpdError';
}

/** EPD operations by opcode; the known ones typed, any other opcode's operands as strings. */
export interface EpdOps {
  bm?: string[];
  am?: string[];
  pm?: string;
  sm?: string;
  pv?: string[];
  id?: string;
  acd?: number;
  acn?: number;
  acs?: number;
  ce?: number;
  dm?: number;
  hmvc?: number;
  fmvn?: number;
  rc?: number;
  [opcode: string]: string | number | string[] | undefined;
}

export interface EpdRecord {
  /** The position of the four fields, with hmvc / fmvn as its clocks (else 0 and 1). */
  position: Position;
  ops: EpdOps;
}

const MOVE_LISTS = new Set(['bm', 'am']);
const ONE_MOVE = new Set(['pm', 'sm']);
const STRINGS = new Set(['id', 'eco', 'nic',
  ...Array.from({ length: 10 }, (_, i) => `c${i}`), ...Array.from({ length: 10 }, (_, i) => `v${i}`)]);
const INTEGERS = new Set(['acd', 'acn', 'acs', 'ce', 'dm', 'fmvn', 'hmvc', 'rc']);
const OPCODE = /^[A-Za-z][A-Za-z0-9_]{0,14}$/;
/** The longest EPD line read (a guard against a whole file passed as one line). */
export const MAX_EPD_LENGTH = 4096;

const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** The operations of the text after the four fields: [opcode, operands (quoted strings unquoted)][]. */
function tokenize(rest: string): [string, string[]][] {
  const ops: [string, string[]][] = [];
  let i = 0;
  const n = rest.length;
  const space = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
  for (;;) {
    while (i < n && space(rest[i]!)) i++;
    if (i === n) return ops;
    let j = i;
    while (j < n && !space(rest[j]!) && rest[j] !== ';') j++;
    const opcode = rest.slice(i, j);
    if (!OPCODE.test(opcode)) {
      throw new EpdError('opcode', `parseEpd: ${JSON.stringify(clip(opcode || rest.slice(i)))} is not an opcode (a letter, then up to 14 letters, digits or _)`);
    }
    i = j;
    const operands: string[] = [];
    for (;;) {
      while (i < n && space(rest[i]!)) i++;
      if (i === n) break; // the last operation's semicolon may be missing
      if (rest[i] === ';') { i++; break; }
      if (rest[i] === '"') {
        const close = rest.indexOf('"', i + 1);
        if (close < 0) throw new EpdError('unterminated', `parseEpd: the string operand of ${opcode} has no closing quote`);
        operands.push(rest.slice(i + 1, close));
        i = close + 1;
        if (i < n && !space(rest[i]!) && rest[i] !== ';') {
          throw new EpdError('operand', `parseEpd: the string operand of ${opcode} runs into ${JSON.stringify(clip(rest.slice(i)))}`);
        }
      } else {
        let k = i;
        while (k < n && !space(rest[k]!) && rest[k] !== ';' && rest[k] !== '"') k++;
        if (rest[k] === '"') throw new EpdError('operand', `parseEpd: a quote inside the operand ${JSON.stringify(clip(rest.slice(i, k + 1)))} of ${opcode}`);
        operands.push(rest.slice(i, k));
        i = k;
      }
    }
    ops.push([opcode, operands]);
  }
}

function integerOf(opcode: string, operands: string[]): number {
  if (operands.length !== 1) throw new EpdError('operand', `parseEpd: ${opcode} takes one integer, got ${operands.length} operands`);
  const t = operands[0]!;
  if (!/^[+-]?\d{1,15}$/.test(t)) throw new EpdError('number', `parseEpd: ${opcode} must be an integer, got ${JSON.stringify(clip(t))}`);
  return Number(t);
}

/** parseEpd and toEpd on one backend ('native' | 'js'). */
export function createEpdApi(which: BackendName) {
  const backend: Backend = backendNamed(which);
  // The position calls EPD needs, on this backend (lib/moves and lib/core, as the facade makes them).
  const api = {
    parseFen: (fen: string, chess960: boolean) => parseFen(fen, backend.checkers, { chess960 }),
    toFen,
    makeMove: (pos: Position, uci: string) => makeMoveCall(backend, pos, parseUci('parseEpd', uci)),
  };
  const san = createSanApi(which);

  const sanToUci = (opcode: string, pos: Position, text: string): string => {
    try {
      return san.parseSan(pos, text);
    } catch (e) {
      if (e instanceof SanError) throw new EpdError('move', `parseEpd: ${opcode} ${JSON.stringify(clip(text))}: ${e.message}`);
      throw e;
    }
  };

  /**
   * An EPD line -> its position and operations. `{ chess960: true }` reads the castling field as
   * parseFen does with it (X-FEN or Shredder-FEN; Shredder-FEN is Chess960 without it).
   */
  function parseEpd(line: string, options?: FenOptions): EpdRecord {
    const chess960 = chess960Option('parseEpd', options);
    if (typeof line !== 'string') throw new TypeError(`parseEpd: line must be a string, got ${typeof line}`);
    if (line.length > MAX_EPD_LENGTH) throw new RangeError(`parseEpd: the line is ${line.length} characters long, more than ${MAX_EPD_LENGTH}`);
    const m = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)(?:\s+([^]*))?$/.exec(line);
    if (!m) throw new EpdError('fields', `parseEpd: an EPD line starts with four position fields (placement, side, castling, en passant), got ${JSON.stringify(clip(line.trim()))}`);
    const ops: EpdOps = {};
    for (const [opcode, operands] of tokenize(m[5] ?? '')) {
      if (Object.hasOwn(ops, opcode)) throw new EpdError('duplicate', `parseEpd: the opcode ${opcode} appears twice`);
      if (INTEGERS.has(opcode)) ops[opcode] = integerOf(opcode, operands);
      else if (STRINGS.has(opcode)) {
        if (operands.length !== 1) throw new EpdError('operand', `parseEpd: ${opcode} takes one string, got ${operands.length} operands`);
        ops[opcode] = operands[0]!;
      } else {
        ops[opcode] = operands;
      }
    }
    const { hmvc, fmvn } = ops;
    if (hmvc !== undefined && hmvc < 0) throw new EpdError('number', `parseEpd: hmvc must be 0 or more, got ${hmvc}`);
    if (fmvn !== undefined && fmvn < 1) throw new EpdError('number', `parseEpd: fmvn must be 1 or more, got ${fmvn}`);
    const position = api.parseFen(`${m[1]} ${m[2]} ${m[3]} ${m[4]} ${hmvc ?? 0} ${fmvn ?? 1}`, chess960);
    // Moves last: they need the position.
    for (const opcode of Object.keys(ops)) {
      const operands = ops[opcode] as string[];
      if (MOVE_LISTS.has(opcode)) {
        if (operands.length === 0) throw new EpdError('operand', `parseEpd: ${opcode} needs at least one move`);
        ops[opcode] = operands.map((t) => sanToUci(opcode, position, t));
      } else if (ONE_MOVE.has(opcode)) {
        if (operands.length !== 1) throw new EpdError('operand', `parseEpd: ${opcode} takes one move, got ${operands.length} operands`);
        ops[opcode] = sanToUci(opcode, position, operands[0]!);
      } else if (opcode === 'pv') {
        let at = position;
        ops.pv = operands.map((t) => {
          const uci = sanToUci(opcode, at, t);
          at = api.makeMove(at, uci);
          return uci;
        });
      }
    }
    return { position, ops };
  }

  /**
   * A Position and operations -> an EPD line: the four position fields, then each operation in the
   * order of `ops` (`bm`, `am`, `pm`, `sm`, `pv` given as UCI and written as SAN; strings quoted;
   * integers as they are; other arrays as space-separated tokens). The position's clocks are not
   * written unless `ops` has `hmvc` / `fmvn`. An operation that cannot be written is an EpdError.
   * A Chess960 position's castling field is X-FEN, or Shredder-FEN with `{ shredder: true }`, as toFen's.
   */
  function toEpd(pos: Position, ops: EpdOps = {}, options?: ToFenOptions): string {
    const shredder = shredderOption('toEpd', options);
    if (!isPosition(pos)) throw new TypeError('toEpd: pos must be a Position from parseFen or createPosition');
    if (typeof ops !== 'object' || ops === null || Array.isArray(ops)) throw new TypeError('toEpd: ops must be an object');
    const parts = [api.toFen(pos, { shredder }).split(' ').slice(0, 4).join(' ')];
    const moveSan = (opcode: string, at: Position, uci: unknown): string => {
      if (typeof uci !== 'string') throw new EpdError('move', `toEpd: ${opcode} moves must be UCI strings`);
      try {
        return san.toSan(at, uci);
      } catch (e) {
        throw new EpdError('move', `toEpd: ${opcode} ${JSON.stringify(clip(uci))}: ${(e as Error).message}`);
      }
    };
    const word = (opcode: string, t: unknown): string => {
      if (typeof t !== 'string' || t === '' || /[\s;"]/.test(t)) {
        throw new EpdError('operand', `toEpd: ${opcode}: an operand must be a non-empty string without spaces, ';' or '"'`);
      }
      return t;
    };
    for (const opcode of Object.keys(ops)) {
      const v = ops[opcode];
      if (v === undefined) continue;
      if (!OPCODE.test(opcode)) throw new EpdError('opcode', `toEpd: ${JSON.stringify(clip(opcode))} is not an opcode`);
      let text: string;
      if (MOVE_LISTS.has(opcode) || opcode === 'pv') {
        if (!Array.isArray(v)) throw new EpdError('move', `toEpd: ${opcode} must be an array of UCI moves`);
        let at = pos;
        text = v.map((uci) => {
          const s = moveSan(opcode, at, uci);
          if (opcode === 'pv') at = api.makeMove(at, uci as string);
          return s;
        }).join(' ');
      } else if (ONE_MOVE.has(opcode)) {
        text = moveSan(opcode, pos, v);
      } else if (typeof v === 'number') {
        if (!Number.isSafeInteger(v)) throw new EpdError('number', `toEpd: ${opcode} must be an integer, got ${v}`);
        text = String(v);
      } else if (typeof v === 'string') {
        if (/["\n\r]/.test(v)) throw new EpdError('operand', `toEpd: ${opcode}: a string operand cannot hold '"' or a line break`);
        text = `"${v}"`;
      } else if (Array.isArray(v)) {
        text = v.map((t) => word(opcode, t)).join(' ');
      } else {
        throw new EpdError('operand', `toEpd: ${opcode} must be a string, an integer or an array of strings`);
      }
      if (INTEGERS.has(opcode) && typeof v !== 'number') throw new EpdError('number', `toEpd: ${opcode} must be an integer`);
      if (STRINGS.has(opcode) && typeof v !== 'string') throw new EpdError('operand', `toEpd: ${opcode} must be a string`);
      parts.push(text === '' ? `${opcode};` : `${opcode} ${text};`);
    }
    return parts.join(' ');
  }

  return { parseEpd, toEpd };
}

let facade: ReturnType<typeof createEpdApi> | undefined;
const epdApi = () => (facade ??= createEpdApi(defaultBackendName()));

/**
 * An EPD line (PGN standard, section 16.2) -> `{ position, ops }`; EpdError / FenError when
 * malformed. `{ chess960: true }` reads an X-FEN castling field as parseFen does.
 */
export const parseEpd = (line: string, options?: FenOptions): EpdRecord => epdApi().parseEpd(line, options);
/**
 * A Position and EPD operations -> an EPD line (moves given as UCI, written as SAN); a Chess960
 * position's castling field in X-FEN, or Shredder-FEN with `{ shredder: true }`.
 */
export const toEpd = (pos: Position, ops?: EpdOps, options?: ToFenOptions): string => epdApi().toEpd(pos, ops, options);
