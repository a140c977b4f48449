/**
 * The typed public API over one backend: validates every argument (types, ranges, typed-array
 * types and lengths), allocates batch outputs the caller did not pass, then calls the backend.
 * `lib/index.ts` binds it to the chosen backend; `bitboard-patterns/native` and `/js` bind it to
 * one backend each, so all three entry points check their input the same way.
 */
import type { Backend, CheckKind, PerftStatsColumn, Position, SetFunction, SquareFunction } from './backend.js';
import {
  CHECK_ANALYSIS_WORDS, CHECK_KINDS, KING, MAX_MOVES, PACKED_POSITION_WORDS, PAWN, PERFT_STATS_COLUMNS, RAY_DIRECTIONS, ROOK,
} from './backend.js';
import {
  MAX_CLOCK, MoveError, createPosition as createPositionWith, isPosition, packPositions as packPositionsOf,
  parseFen as parseFenWith, toFen as toFenOf,
} from './position.js';
import type { PositionInit } from './position.js';
import { kbnkSquaresOf } from './kbnk.js';
import { createBatchApi } from './batch.js';
import type { PerftAsyncOptions, PerftOptions } from './perft.js';
import { perftAsyncWith, perftSignal, perftStatsWith, perftThreads, perftWith } from './perft.js';
import {
  MAX_U64, checkArray, checkBitboard, checkColor, checkSquare, checkSquareOrSet, outArray,
} from './validate.js';

export type { Bitboard, Square, Color, KnightDirection } from './backend.js';
export { WHITE, BLACK, KNIGHT_DIRECTIONS } from './backend.js';
type Bitboard = bigint;
type Square = number;
type Color = number;

/** Every square: the default `path` of the distance functions. */
export const ALL_SQUARES: Bitboard = MAX_U64;

/** A Position made by parseFen / createPosition, else a TypeError. */
function checkPosition(fn: string, what: string, v: unknown): Position {
  if (!isPosition(v)) {
    throw new TypeError(`${fn}: ${what} must be a Position from parseFen or createPosition, got ${v === null ? 'null' : typeof v}`);
  }
  return v;
}

/** A packed positions array: a BigUint64Array of PACKED_POSITION_WORDS words per position; returns the count. */
function checkPositions(fn: string, v: unknown): [BigUint64Array, number] {
  const arr = checkArray(fn, 'positions', v, BigUint64Array);
  if (arr.length % PACKED_POSITION_WORDS !== 0) {
    throw new RangeError(`${fn}: positions must hold ${PACKED_POSITION_WORDS} words per position (see packPositions), got ${arr.length} words`);
  }
  return [arr, arr.length / PACKED_POSITION_WORDS];
}

/** 0 | 1, or 2 = each position's side to move (the batch forms). */
function checkBatchColor(fn: string, v: unknown): number {
  if (typeof v !== 'number') throw new TypeError(`${fn}: color must be a number, got ${typeof v}`);
  if (v !== 0 && v !== 1 && v !== 2) {
    throw new RangeError(`${fn}: color must be 0 (white), 1 (black) or 2 (each position's side to move), got ${v}`);
  }
  return v;
}

/** A direction number 0..7 or its RAY_DIRECTIONS name. */
function checkDirection(fn: string, v: unknown): number {
  if (typeof v === 'string') {
    const d = (RAY_DIRECTIONS as readonly string[]).indexOf(v);
    if (d < 0) throw new RangeError(`${fn}: direction must be one of ${RAY_DIRECTIONS.join(', ')} or 0..7, got ${JSON.stringify(v.slice(0, 20))}`);
    return d;
  }
  if (typeof v !== 'number') throw new TypeError(`${fn}: direction must be a number 0..7 or a direction name, got ${typeof v}`);
  if (!Number.isInteger(v) || v < 0 || v > 7) throw new RangeError(`${fn}: direction must be an integer 0..7, got ${v}`);
  return v;
}

const PROMOTION_LETTERS = ' nbrq';

/** 'e2e4' / 'e7e8q' -> [from, to, promotion 0..4]; MoveError when malformed. */
function parseUci(fn: string, move: unknown): [number, number, number] {
  if (typeof move !== 'string') throw new TypeError(`${fn}: move must be a UCI string like 'e2e4', got ${typeof move}`);
  const m = /^([a-h])([1-8])([a-h])([1-8])([nbrq]?)$/.exec(move);
  if (!m) throw new MoveError(move, `${fn}: not a UCI move (like e2e4, or e7e8q for a promotion)`);
  const square = (file: string, rank: string) => (Number(rank) - 1) * 8 + 'abcdefgh'.indexOf(file);
  return [square(m[1]!, m[2]!), square(m[3]!, m[4]!), m[5] ? PROMOTION_LETTERS.indexOf(m[5]) : 0];
}

const FILES = 'abcdefgh';
const squareText = (sq: number): string => `${FILES[sq & 7]}${(sq >> 3) + 1}`;

/** 'e7e8q' -> its 16-bit code `from | to << 6 | promotion << 12` (promotion 0 none, 1 n, 2 b, 3 r, 4 q). MoveError when malformed. */
export function encodeMove(move: string): number {
  const [from, to, promotion] = parseUci('encodeMove', move);
  return from | (to << 6) | (promotion << 12);
}

/** A 16-bit move code -> its UCI string. RangeError for a number that is no move code. */
export function decodeMove(code: number): string {
  if (typeof code !== 'number') throw new TypeError(`decodeMove: code must be a number, got ${typeof code}`);
  const from = code & 63;
  const to = (code >> 6) & 63;
  const promotion = code >> 12;
  if (!Number.isInteger(code) || code < 0 || promotion > 4 || from === to) {
    throw new RangeError(`decodeMove: not a move code (from | to << 6 | promotion << 12, promotion 0..4, from != to): ${code}`);
  }
  return `${squareText(from)}${squareText(to)}${promotion ? PROMOTION_LETTERS[promotion] : ''}`;
}

/** Deepest perft depth accepted. */
export const MAX_PERFT_DEPTH = 20;

/** perftStats: the chess programming wiki's columns, counted over the leaf moves. */
export type PerftStats = { [K in PerftStatsColumn]: number };

function checkDepth(fn: string, v: unknown, min = 0): number {
  if (typeof v !== 'number') throw new TypeError(`${fn}: depth must be a number, got ${typeof v}`);
  if (!Number.isInteger(v) || v < min || v > MAX_PERFT_DEPTH) {
    throw new RangeError(`${fn}: depth must be an integer ${min}..${MAX_PERFT_DEPTH}, got ${v}`);
  }
  return v;
}

const bitOf = (sq: number): bigint => 1n << BigInt(sq);
/** Castling rights kept when a move starts or ends on a square. */
const RIGHTS_LOST: Record<number, number> = { 4: 3, 7: 1, 0: 2, 60: 12, 63: 4, 56: 8 };

export function createApi(b: Backend) {
  /** One set -> set function and its batch form. */
  function setOp(name: SetFunction) {
    const single = b[name];
    const batch = b[`${name}Batch`];
    return [
      (set: Bitboard): Bitboard => single(checkBitboard(name, 'set', set)),
      (sets: BigUint64Array, out?: BigUint64Array): BigUint64Array => {
        const fn = `${name}Batch`;
        const input = checkArray(fn, 'sets', sets, BigUint64Array);
        const result = outArray(fn, out, BigUint64Array, input.length);
        batch(input, result);
        return result;
      },
    ] as const;
  }

  /** One square -> set lookup and its batch form. */
  function squareOp(name: SquareFunction) {
    const single = b[name];
    const batch = b[`${name}Batch`];
    return [
      (sq: Square): Bitboard => single(checkSquare(name, 'square', sq)),
      (squares: Uint8Array, out?: BigUint64Array): BigUint64Array => {
        const fn = `${name}Batch`;
        const input = checkArray(fn, 'squares', squares, Uint8Array);
        const result = outArray(fn, out, BigUint64Array, input.length);
        batch(input, result);
        return result;
      },
    ] as const;
  }

  /** The distance functions share their argument handling. */
  function distanceOp(name: 'kingDistance' | 'knightDistance') {
    const single = b[name];
    const batch = b[`${name}Batch`];
    return [
      (from: Square, to: Square, path: Bitboard = ALL_SQUARES): number =>
        single(checkSquare(name, 'from', from), checkSquare(name, 'to', to), checkBitboard(name, 'path', path)),
      (from: Uint8Array, to: Uint8Array, path?: BigUint64Array, out?: Int8Array): Int8Array => {
        const fn = `${name}Batch`;
        const f = checkArray(fn, 'from', from, Uint8Array);
        const t = checkArray(fn, 'to', to, Uint8Array, f.length);
        const p = path === undefined ? new BigUint64Array(f.length).fill(ALL_SQUARES)
          : checkArray(fn, 'path', path, BigUint64Array, f.length);
        const result = outArray(fn, out, Int8Array, f.length);
        batch(f, t, p, result);
        return result;
      },
    ] as const;
  }

  function dirSetVariant(name: string, f: (kingSq: number, taboo: bigint) => number) {
    return (kingSq: Square, taboo: Bitboard): number => f(checkSquare(name, 'kingSq', kingSq), checkBitboard(name, 'taboo', taboo));
  }

  /** A slider lookup and its batch form. */
  function sliderOp(name: 'rookAttacks' | 'bishopAttacks' | 'queenAttacks') {
    const single = b[name];
    const batch = b[`${name}Batch`];
    return [
      (sq: Square, occupied: Bitboard): Bitboard => single(checkSquare(name, 'square', sq), checkBitboard(name, 'occupied', occupied)),
      (squares: Uint8Array, occupied: BigUint64Array, out?: BigUint64Array): BigUint64Array => {
        const fn = `${name}Batch`;
        const sqs = checkArray(fn, 'squares', squares, Uint8Array);
        const occ = checkArray(fn, 'occupied', occupied, BigUint64Array, sqs.length);
        const result = outArray(fn, out, BigUint64Array, sqs.length);
        batch(sqs, occ, result);
        return result;
      },
    ] as const;
  }

  function sliderVariant(name: string, f: (sq: number, occupied: bigint) => bigint) {
    return (sq: Square, occupied: Bitboard): Bitboard => f(checkSquare(name, 'square', sq), checkBitboard(name, 'occupied', occupied));
  }

  /** Position + colour -> set functions (pins, candidates, block squares). */
  function positionOp(name: 'pinnedPieces' | 'pinners' | 'discoveredCheckCandidates' | 'checkBlockSquares') {
    const f = b[name];
    return (pos: Position, color: Color): Bitboard => f(checkPosition(name, 'pos', pos), checkColor(name, 'color', color));
  }

  function positionBatchOp(name: 'checkersBatch' | 'pinnedPiecesBatch' | 'discoveredCheckCandidatesBatch') {
    const f = b[name];
    return (positions: BigUint64Array, color: Color, out?: BigUint64Array): BigUint64Array => {
      const [words, n] = checkPositions(name, positions);
      const c = checkBatchColor(name, color);
      const result = outArray(name, out, BigUint64Array, n);
      f(words, c, result);
      return result;
    };
  }

  function pinVariant(name: string, f: (pos: Position, color: number) => bigint) {
    return (pos: Position, color: Color): Bitboard => f(checkPosition(name, 'pos', pos), checkColor(name, 'color', color));
  }

  const checkersOf = (pos: Position, color: number): bigint => b.checkers(pos, color);
  const moveBuffer = new Uint16Array(MAX_MOVES);

  /** The position after a move that legalMoves produced (see makeMove for the conventions). */
  function play(pos: Position, from: number, to: number, promotion: number): Position {
    const us = pos.sideToMove;
    const them = us ^ 1;
    const colors = [pos.colors[0], pos.colors[1]];
    const pieces = [...pos.pieces];
    const fromBit = bitOf(from);
    const toBit = bitOf(to);
    const type = pieces.findIndex((set) => (set & fromBit) !== 0n);
    const capture = (colors[them]! & toBit) !== 0n;
    if (capture) {
      colors[them]! &= ~toBit;
      for (let t = 0; t < 6; t++) pieces[t]! &= ~toBit;
    }
    colors[us] = (colors[us]! & ~fromBit) | toBit;
    pieces[type] = pieces[type]! & ~fromBit;
    pieces[promotion ? promotion : type] = pieces[promotion ? promotion : type]! | toBit;
    let epSquare = -1;
    if (type === PAWN && to === pos.epSquare) {
      const taken = bitOf(us === 0 ? to - 8 : to + 8);
      colors[them]! &= ~taken;
      pieces[PAWN]! &= ~taken;
    } else if (type === PAWN && Math.abs(to - from) === 16) {
      epSquare = (from + to) / 2;
    } else if (type === KING && Math.abs(to - from) === 2) {
      const rookMove = bitOf(to > from ? from + 3 : from - 4) | bitOf(to > from ? from + 1 : from - 1);
      colors[us]! ^= rookMove;
      pieces[ROOK]! ^= rookMove;
    }
    const fields = {
      colors, pieces,
      sideToMove: them as 0 | 1,
      castling: pos.castling & ~(RIGHTS_LOST[from] ?? 0) & ~(RIGHTS_LOST[to] ?? 0),
      halfmoveClock: type === PAWN || capture ? 0 : Math.min(pos.halfmoveClock + 1, MAX_CLOCK),
      fullmoveNumber: Math.min(pos.fullmoveNumber + us, MAX_CLOCK),
    };
    if (epSquare >= 0) {
      // Kept only when an en-passant capture is legal next (so equal positions have equal FENs).
      const withEp = createPositionWith({ ...fields, epSquare }, checkersOf);
      const n = b.legalMoves(withEp, moveBuffer);
      const pawns = withEp.pieces[PAWN] & withEp.colors[them];
      for (let i = 0; i < n; i++) {
        const m = moveBuffer[i]!;
        if (((m >> 6) & 63) === epSquare && (pawns & bitOf(m & 63)) !== 0n) return withEp;
      }
    }
    return createPositionWith({ ...fields, epSquare: -1 }, checkersOf);
  }

  /** The positions after each legal move. */
  function childrenOf(pos: Position): Position[] {
    return Array.from(codesOf(pos), (code) => play(pos, code & 63, (code >> 6) & 63, code >> 12));
  }
  const statsOf = (out: Float64Array) =>
    Object.fromEntries(PERFT_STATS_COLUMNS.map((name, i) => [name, out[i]!])) as PerftStats;

  /** The legal move codes of a position, in a new array. */
  function codesOf(pos: Position): Uint16Array {
    const n = b.legalMoves(pos, moveBuffer);
    return moveBuffer.slice(0, n);
  }
  const cv = b.checkVariants;
  const [rookAttacks, rookAttacksBatch] = sliderOp('rookAttacks');
  const [bishopAttacks, bishopAttacksBatch] = sliderOp('bishopAttacks');
  const [queenAttacks, queenAttacksBatch] = sliderOp('queenAttacks');
  const pinnedPiecesBatch = positionBatchOp('pinnedPiecesBatch');
  const discoveredCheckCandidatesBatch = positionBatchOp('discoveredCheckCandidatesBatch');
  const checkersBatchOf = positionBatchOp('checkersBatch');

  const [kingAttacks, kingAttacksBatch] = squareOp('kingAttacks');
  const [knightAttacks, knightAttacksBatch] = squareOp('knightAttacks');
  const [kingAttacksSet, kingAttacksSetBatch] = setOp('kingAttacksSet');
  const [knightAttacksSet, knightAttacksSetBatch] = setOp('knightAttacksSet');
  const [knightFill, knightFillBatch] = setOp('knightFill');
  const [forkTargetSquares, forkTargetSquaresBatch] = setOp('forkTargetSquares');
  const [noNoEa, noNoEaBatch] = setOp('noNoEa');
  const [noEaEa, noEaEaBatch] = setOp('noEaEa');
  const [soEaEa, soEaEaBatch] = setOp('soEaEa');
  const [soSoEa, soSoEaBatch] = setOp('soSoEa');
  const [noNoWe, noNoWeBatch] = setOp('noNoWe');
  const [noWeWe, noWeWeBatch] = setOp('noWeWe');
  const [soWeWe, soWeWeBatch] = setOp('soWeWe');
  const [soSoWe, soSoWeBatch] = setOp('soSoWe');
  const [kingDistance, kingDistanceBatch] = distanceOp('kingDistance');
  const [knightDistance, knightDistanceBatch] = distanceOp('knightDistance');

  return {
    ...createBatchApi(b),
    /** Which backend this API runs on. */
    backend: b.name,
    /** The code path inside the backend: 'sse4.1+popcnt' or 'portable' (native), 'bigint' (js). */
    cpuPath: b.cpuPath,

    // ---------------------------------------------------------------- King

    /** Squares a king on `sq` attacks (table lookup). `kingAttacks(14) === 0xe0a0e0n` (g2). */
    kingAttacks,
    /** `kingAttacks` for every square of a Uint8Array. */
    kingAttacksBatch,
    /** Union of the attacks of every king in the set, by the seed's shift calculation. */
    kingAttacksSet,
    kingAttacksSetBatch,
    /**
     * The pawn-shield mask of a king: six squares (three files, the two ranks in front of its back
     * rank) for a king on its first two ranks; wing kings (files a-c, f-h) get their wing's three
     * files, central kings (d, e) the king file and its neighbours; 0n for kings further up.
     */
    pawnShieldMask(color: Color, kingSq: Square): Bitboard {
      return b.pawnShieldMask(checkColor('pawnShieldMask', 'color', color), checkSquare('pawnShieldMask', 'kingSq', kingSq));
    },
    pawnShieldMaskBatch(color: Color, kingSqs: Uint8Array, out?: BigUint64Array): BigUint64Array {
      const fn = 'pawnShieldMaskBatch';
      const c = checkColor(fn, 'color', color);
      const sqs = checkArray(fn, 'kingSqs', kingSqs, Uint8Array);
      const result = outArray(fn, out, BigUint64Array, sqs.length);
      b.pawnShieldMaskBatch(c, sqs, result);
      return result;
    },
    /**
     * Dense index 0..63 of the `pawns` inside the king's shield mask, to address a table of
     * shield patterns: bits 0-2 the mask's files west to east on the rank next to the back rank,
     * bits 3-5 the rank after. 0 when the mask is empty.
     */
    pawnShieldIndex(color: Color, kingSq: Square, pawns: Bitboard): number {
      const fn = 'pawnShieldIndex';
      return b.pawnShieldIndex(checkColor(fn, 'color', color), checkSquare(fn, 'kingSq', kingSq), checkBitboard(fn, 'pawns', pawns));
    },
    pawnShieldIndexBatch(color: Color, kingSqs: Uint8Array, pawns: BigUint64Array, out?: Uint8Array): Uint8Array {
      const fn = 'pawnShieldIndexBatch';
      const c = checkColor(fn, 'color', color);
      const sqs = checkArray(fn, 'kingSqs', kingSqs, Uint8Array);
      const p = checkArray(fn, 'pawns', pawns, BigUint64Array, sqs.length);
      const result = outArray(fn, out, Uint8Array, sqs.length);
      b.pawnShieldIndexBatch(c, sqs, p, result);
      return result;
    },
    /** King move targets: `kingAttacks(kingSq) & ~taboo` (taboo = own pieces | enemy attacks). */
    kingMoveTargets(kingSq: Square, taboo: Bitboard): Bitboard {
      return b.kingMoveTargets(checkSquare('kingMoveTargets', 'kingSq', kingSq), checkBitboard('kingMoveTargets', 'taboo', taboo));
    },
    kingMoveTargetsBatch(kingSqs: Uint8Array, taboo: BigUint64Array, out?: BigUint64Array): BigUint64Array {
      const fn = 'kingMoveTargetsBatch';
      const sqs = checkArray(fn, 'kingSqs', kingSqs, Uint8Array);
      const t = checkArray(fn, 'taboo', taboo, BigUint64Array, sqs.length);
      const result = outArray(fn, out, BigUint64Array, sqs.length);
      b.kingMoveTargetsBatch(sqs, t, result);
      return result;
    },
    /**
     * The seed's dirSet: lines along which a king is vulnerable to distant checks. 15 when it has no
     * move; 1 rank, 2 file, 4 diagonal, 8 anti-diagonal when all its moves stay on that line; else 0.
     */
    distantCheckLines(kingSq: Square, taboo: Bitboard): number {
      return b.distantCheckLines(checkSquare('distantCheckLines', 'kingSq', kingSq), checkBitboard('distantCheckLines', 'taboo', taboo));
    },
    distantCheckLinesBatch(kingSqs: Uint8Array, taboo: BigUint64Array, out?: Uint8Array): Uint8Array {
      const fn = 'distantCheckLinesBatch';
      const sqs = checkArray(fn, 'kingSqs', kingSqs, Uint8Array);
      const t = checkArray(fn, 'taboo', taboo, BigUint64Array, sqs.length);
      const result = outArray(fn, out, Uint8Array, sqs.length);
      b.distantCheckLinesBatch(sqs, t, result);
      return result;
    },
    /**
     * Set-wise rule of the square: squares (ranks 2-7) where an enemy passer is caught by a king of
     * `kingColor` on `kingSq`, with `sideToMove` to move. Double pushes from the initial rank count.
     */
    caughtableArea(kingColor: Color, sideToMove: Color, kingSq: Square): Bitboard {
      const fn = 'caughtableArea';
      return b.caughtableArea(checkColor(fn, 'kingColor', kingColor), checkColor(fn, 'sideToMove', sideToMove), checkSquare(fn, 'kingSq', kingSq));
    },
    caughtableAreaBatch(kingColor: Color, sideToMove: Color, kingSqs: Uint8Array, out?: BigUint64Array): BigUint64Array {
      const fn = 'caughtableAreaBatch';
      const kc = checkColor(fn, 'kingColor', kingColor);
      const stm = checkColor(fn, 'sideToMove', sideToMove);
      const sqs = checkArray(fn, 'kingSqs', kingSqs, Uint8Array);
      const result = outArray(fn, out, BigUint64Array, sqs.length);
      b.caughtableAreaBatch(kc, stm, sqs, result);
      return result;
    },
    /** The passers the king cannot catch: `passers & ~caughtableArea(kingColor, sideToMove, kingSq)`. */
    uncatchablePassers(passers: Bitboard, kingColor: Color, sideToMove: Color, kingSq: Square): Bitboard {
      const fn = 'uncatchablePassers';
      return b.uncatchablePassers(checkBitboard(fn, 'passers', passers), checkColor(fn, 'kingColor', kingColor),
        checkColor(fn, 'sideToMove', sideToMove), checkSquare(fn, 'kingSq', kingSq));
    },
    uncatchablePassersBatch(passers: BigUint64Array, kingColor: Color, sideToMove: Color, kingSqs: Uint8Array,
      out?: BigUint64Array): BigUint64Array {
      const fn = 'uncatchablePassersBatch';
      const p = checkArray(fn, 'passers', passers, BigUint64Array);
      const kc = checkColor(fn, 'kingColor', kingColor);
      const stm = checkColor(fn, 'sideToMove', sideToMove);
      const sqs = checkArray(fn, 'kingSqs', kingSqs, Uint8Array, p.length);
      const result = outArray(fn, out, BigUint64Array, p.length);
      b.uncatchablePassersBatch(p, kc, stm, sqs, result);
      return result;
    },
    /**
     * Westcott's flood fill: is there an 8-way connected path of `path` squares from `from` to `to`?
     * `from` and `to` are squares or sets (any bit of one reaching any bit of the other).
     */
    squaresAreConnected(from: Square | Bitboard, to: Square | Bitboard, path: Bitboard): boolean {
      const fn = 'squaresAreConnected';
      return b.squaresAreConnected(checkSquareOrSet(fn, 'from', from), checkSquareOrSet(fn, 'to', to), checkBitboard(fn, 'path', path));
    },
    /** Batch form over sets; `out[i]` is 1 when connected, else 0. */
    squaresAreConnectedBatch(from: BigUint64Array, to: BigUint64Array, path: BigUint64Array, out?: Uint8Array): Uint8Array {
      const fn = 'squaresAreConnectedBatch';
      const f = checkArray(fn, 'from', from, BigUint64Array);
      const t = checkArray(fn, 'to', to, BigUint64Array, f.length);
      const p = checkArray(fn, 'path', path, BigUint64Array, f.length);
      const result = outArray(fn, out, Uint8Array, f.length);
      b.squaresAreConnectedBatch(f, t, p, result);
      return result;
    },
    /** Fewest king steps from `from` to `to` on squares of `path` (default: all), -1 if unreachable. */
    kingDistance,
    /** Batch form; `path` defaults to all squares for every element; out is an Int8Array. */
    kingDistanceBatch,

    // ---------------------------------------------------------------- Knight

    /** Squares a knight on `sq` attacks (table lookup). `knightAttacks(27) === 0x142200221400n` (d4). */
    knightAttacks,
    knightAttacksBatch,
    /** Union of the attacks of every knight in the set (the seed's parallel-prefix calculation). */
    knightAttacksSet,
    knightAttacksSetBatch,
    /** One knight direction step of every bit, the seed's `noNoEa` (+17): wraps masked off. */
    noNoEa, noNoEaBatch,
    /** The seed's `noEaEa` (+10). */
    noEaEa, noEaEaBatch,
    /** The seed's `soEaEa` (-6). */
    soEaEa, soEaEaBatch,
    /** The seed's `soSoEa` (-15). */
    soSoEa, soSoEaBatch,
    /** The seed's `noNoWe` (+15). */
    noNoWe, noNoWeBatch,
    /** The seed's `noWeWe` (+6). */
    noWeWe, noWeWeBatch,
    /** The seed's `soWeWe` (-10). */
    soWeWe, soWeWeBatch,
    /** The seed's `soSoWe` (-17). */
    soSoWe, soSoWeBatch,
    /** One knight fill cycle: `knightAttacksSet(knights) | knights`. */
    knightFill,
    knightFillBatch,
    /** Fewest knight moves from `from` to `to` on squares of `path` (default: all), -1 if unreachable. */
    knightDistance,
    knightDistanceBatch,
    /** Squares from which a knight attacks two or more of `targets` (the seed's branchless fork set). */
    forkTargetSquares,
    forkTargetSquaresBatch,
    /**
     * Fork moves with the seed's forced properties: fork squares of `targets` that our `knights`
     * attack, not occupied by `ownPieces` and not attacked by enemy pawns or knights.
     */
    knightForkMoves(knights: Bitboard, targets: Bitboard, ownPieces: Bitboard, enemyPawnAttacks: Bitboard,
      enemyKnightAttacks: Bitboard): Bitboard {
      const fn = 'knightForkMoves';
      return b.knightForkMoves(checkBitboard(fn, 'knights', knights), checkBitboard(fn, 'targets', targets),
        checkBitboard(fn, 'ownPieces', ownPieces), checkBitboard(fn, 'enemyPawnAttacks', enemyPawnAttacks),
        checkBitboard(fn, 'enemyKnightAttacks', enemyKnightAttacks));
    },
    knightForkMovesBatch(knights: BigUint64Array, targets: BigUint64Array, ownPieces: BigUint64Array,
      enemyPawnAttacks: BigUint64Array, enemyKnightAttacks: BigUint64Array, out?: BigUint64Array): BigUint64Array {
      const fn = 'knightForkMovesBatch';
      const k = checkArray(fn, 'knights', knights, BigUint64Array);
      const n = k.length;
      const t = checkArray(fn, 'targets', targets, BigUint64Array, n);
      const own = checkArray(fn, 'ownPieces', ownPieces, BigUint64Array, n);
      const pa = checkArray(fn, 'enemyPawnAttacks', enemyPawnAttacks, BigUint64Array, n);
      const ka = checkArray(fn, 'enemyKnightAttacks', enemyKnightAttacks, BigUint64Array, n);
      const result = outArray(fn, out, BigUint64Array, n);
      b.knightForkMovesBatch(k, t, own, pa, ka, result);
      return result;
    },

    // ---------------------------------------------------------------- Sliders and lines

    /** Rook attacks from `sq` through `occupied` (the first blocker on each ray included). */
    rookAttacks,
    rookAttacksBatch,
    /** Bishop attacks from `sq` through `occupied`. */
    bishopAttacks,
    bishopAttacksBatch,
    /** Queen attacks: rook | bishop. */
    queenAttacks,
    queenAttacksBatch,
    /**
     * Set-wise occluded attacks of all `sliders` in one direction (0..7 or a RAY_DIRECTIONS name:
     * 'nort', 'noEa', 'east', 'soEa', 'sout', 'soWe', 'west', 'noWe'), by Kogge-Stone fill through
     * `empty`; the first non-empty square of each ray is included.
     */
    rayAttacks(direction: number | (typeof RAY_DIRECTIONS)[number], sliders: Bitboard, empty: Bitboard): Bitboard {
      const fn = 'rayAttacks';
      return b.rayAttacks(checkDirection(fn, direction), checkBitboard(fn, 'sliders', sliders), checkBitboard(fn, 'empty', empty));
    },
    /** Rook x-ray: the squares seen from `sq` through its first blockers that are in `blockers`. */
    xrayRookAttacks(occupied: Bitboard, blockers: Bitboard, sq: Square): Bitboard {
      const fn = 'xrayRookAttacks';
      return b.xrayRookAttacks(checkBitboard(fn, 'occupied', occupied), checkBitboard(fn, 'blockers', blockers), checkSquare(fn, 'square', sq));
    },
    /** Bishop x-ray, likewise. */
    xrayBishopAttacks(occupied: Bitboard, blockers: Bitboard, sq: Square): Bitboard {
      const fn = 'xrayBishopAttacks';
      return b.xrayBishopAttacks(checkBitboard(fn, 'occupied', occupied), checkBitboard(fn, 'blockers', blockers), checkSquare(fn, 'square', sq));
    },
    /** Squares strictly between `a` and `b` on a shared rank, file or diagonal; 0n otherwise (and for a === b). */
    between(a: Square, bSq: Square): Bitboard {
      return b.between(checkSquare('between', 'a', a), checkSquare('between', 'b', bSq));
    },
    /** The whole line (edge to edge) through `a` and `b`; 0n when they share none (or a === b). */
    line(a: Square, bSq: Square): Bitboard {
      return b.line(checkSquare('line', 'a', a), checkSquare('line', 'b', bSq));
    },

    // ---------------------------------------------------------------- Positions

    /**
     * FEN -> Position (six fields, or four with clocks 0 and 1). A FenError names the field and
     * the offending text; the rules are in the README.
     */
    parseFen(fen: string): Position {
      return parseFenWith(fen, checkersOf);
    },
    /** Position -> FEN (six fields). */
    toFen(pos: Position): string {
      return toFenOf(checkPosition('toFen', 'pos', pos));
    },
    /**
     * A Position from bitboards: `{ pieces: { white: { king, pawns, ... }, black: { ... } }, sideToMove,
     * castling, epSquare, halfmoveClock, fullmoveNumber }` or `{ colors, pieces: [6 sets], ... }`;
     * the same rules as FEN, broken ones a PositionError naming the field.
     */
    createPosition(init: PositionInit): Position {
      return createPositionWith(init, checkersOf);
    },
    /** Positions -> one BigUint64Array (PACKED_POSITION_WORDS words each) for the batch forms. */
    packPositions(positions: readonly Position[]): BigUint64Array {
      if (!Array.isArray(positions)) throw new TypeError(`packPositions: positions must be an array of Positions, got ${typeof positions}`);
      positions.forEach((p, i) => checkPosition('packPositions', `positions[${i}]`, p));
      return packPositionsOf(positions);
    },

    // ---------------------------------------------------------------- Checks and pins

    /** Pieces of `byColor` attacking `sq`; sliders see through `occupied` (default: the position's pieces). */
    attackersTo(pos: Position, sq: Square, byColor: Color, occupied?: Bitboard): Bitboard {
      const fn = 'attackersTo';
      const p = checkPosition(fn, 'pos', pos);
      const s = checkSquare(fn, 'square', sq);
      const c = checkColor(fn, 'byColor', byColor);
      const occ = occupied === undefined ? p.colors[0] | p.colors[1] : checkBitboard(fn, 'occupied', occupied);
      return b.attackersTo(p, s, c, occ);
    },
    /** Enemy pieces checking the king of `color` (default: the side to move). */
    checkers(pos: Position, color?: Color): Bitboard {
      const p = checkPosition('checkers', 'pos', pos);
      return b.checkers(p, color === undefined ? p.sideToMove : checkColor('checkers', 'color', color));
    },
    /** Is the king of `color` (default: the side to move) in check? */
    isInCheck(pos: Position, color?: Color): boolean {
      const p = checkPosition('isInCheck', 'pos', pos);
      return b.checkers(p, color === undefined ? p.sideToMove : checkColor('isInCheck', 'color', color)) !== 0n;
    },
    /** Pieces of `color` absolutely pinned to their king by enemy sliders. */
    pinnedPieces: positionOp('pinnedPieces'),
    /** The enemy sliders pinning pieces of `color`. */
    pinners: positionOp('pinners'),
    /** Pieces of `color` that give discovered check by leaving the line between one of its sliders and the enemy king. */
    discoveredCheckCandidates: positionOp('discoveredCheckCandidates'),
    /** Empty squares that block the one distant slider check on the king of `color`; 0n otherwise. */
    checkBlockSquares: positionOp('checkBlockSquares'),
    /** Where the piece on `sq` may move as far as pins allow: the pin line up to the pinner, or every square. */
    pinRay(pos: Position, sq: Square): Bitboard {
      return b.pinRay(checkPosition('pinRay', 'pos', pos), checkSquare('pinRay', 'square', sq));
    },
    /**
     * The check a UCI move ('e2e4', 'e7e8q', castling as the king's move 'e1g1') of the side to move
     * gives: 'none', 'direct', 'discovered' or 'double'. A malformed or illegal move is a MoveError.
     */
    checkKind(pos: Position, move: string): CheckKind {
      const p = checkPosition('checkKind', 'pos', pos);
      const [from, to, promotion] = parseUci('checkKind', move);
      const kind = b.checkKind(p, from, to, promotion);
      if (kind < 0) throw new MoveError(move, 'checkKind: not a legal move in this position');
      return CHECK_KINDS[kind]!;
    },
    /** checkers for each packed position; color 0 | 1, or 2 / omitted for each position's side to move. */
    checkersBatch(positions: BigUint64Array, color?: Color, out?: BigUint64Array): BigUint64Array {
      return checkersBatchOf(positions, color ?? 2, out);
    },
    /** pinnedPieces for each packed position; color 0 | 1, or 2 for each position's side to move. */
    pinnedPiecesBatch,
    /** discoveredCheckCandidates for each packed position; color 0 | 1, or 2 for each side to move. */
    discoveredCheckCandidatesBatch,
    /**
     * The three batch forms above for both colours in one pass: CHECK_ANALYSIS_WORDS (6) words per
     * packed position, [checkers, pinnedPieces, discoveredCheckCandidates] of white, then of black;
     * `out` (6 * n words) is allocated when left out.
     */
    checkAnalysisBatch(positions: BigUint64Array, out?: BigUint64Array): BigUint64Array {
      const fn = 'checkAnalysisBatch';
      const [words, n] = checkPositions(fn, positions);
      let result: BigUint64Array;
      if (out === undefined) {
        result = new BigUint64Array(CHECK_ANALYSIS_WORDS * n);
      } else {
        result = checkArray(fn, 'out', out, BigUint64Array);
        if (result.length !== CHECK_ANALYSIS_WORDS * n) {
          throw new RangeError(`${fn}: out must have ${CHECK_ANALYSIS_WORDS * n} elements (${CHECK_ANALYSIS_WORDS} per position), got ${result.length}`);
        }
      }
      b.checkAnalysisBatch(words, result);
      return result;
    },

    // ---------------------------------------------------------------- Moves and perft

    /** The legal moves of the side to move as UCI strings ('e2e4', 'e7e8q', castling 'e1g1'), sorted. */
    legalMoves(pos: Position): string[] {
      const p = checkPosition('legalMoves', 'pos', pos);
      return Array.from(codesOf(p), decodeMove).sort();
    },
    /**
     * The legal moves as 16-bit codes (`from | to << 6 | promotion << 12`, see encodeMove), in the
     * backend's order: a subarray of `out` (a Uint16Array of at least MAX_MOVES = 256, allocated
     * when omitted) holding exactly the moves.
     */
    legalMovesEncoded(pos: Position, out?: Uint16Array): Uint16Array {
      const fn = 'legalMovesEncoded';
      const p = checkPosition(fn, 'pos', pos);
      const buffer = out === undefined ? new Uint16Array(MAX_MOVES) : checkArray(fn, 'out', out, Uint16Array);
      if (buffer.length < MAX_MOVES) throw new RangeError(`${fn}: out must have at least ${MAX_MOVES} elements, got ${buffer.length}`);
      return buffer.subarray(0, b.legalMoves(p, buffer));
    },
    /**
     * The position after a legal UCI move (castling as the king's move, 'e1g1'): a new validated
     * Position. Castling rights go when the king or a rook leaves its square or a rook is taken
     * there; the en-passant square is set only when an en-passant capture is legal next; the
     * halfmove clock restarts after a pawn move or a capture; the fullmove number grows after
     * Black's move (both clocks stop at 1,000,000). A malformed or illegal move is a MoveError.
     */
    makeMove(pos: Position, move: string): Position {
      const p = checkPosition('makeMove', 'pos', pos);
      const [from, to, promotion] = parseUci('makeMove', move);
      const code = from | (to << 6) | (promotion << 12);
      if (!codesOf(p).includes(code)) throw new MoveError(move, 'makeMove: not a legal move in this position');
      return play(p, from, to, promotion);
    },
    /**
     * Leaf nodes of the legal move tree `depth` plies deep (0..20; depth 0 is 1), bulk-counted at the
     * last ply. `options.threads` (an integer 1..256, default all cores): native threads the tree is
     * split over near the root; the count is the same for every value (the JS backend checks it and
     * counts on the calling thread).
     */
    perft(pos: Position, depth: number, options?: PerftOptions): number {
      const p = checkPosition('perft', 'pos', pos);
      const d = checkDepth('perft', depth);
      return perftWith(b, p, d, perftThreads('perft', options));
    },
    /**
     * perft with the chess programming wiki's columns, counted over the leaf moves: nodes, captures
     * (en passant included), enPassant, castles, promotions (each piece), checks (all kinds),
     * discoveryChecks (discovered only, not double), doubleChecks, checkmates. `options.threads` as
     * for perft.
     */
    perftStats(pos: Position, depth: number, options?: PerftOptions): PerftStats {
      const p = checkPosition('perftStats', 'pos', pos);
      const d = checkDepth('perftStats', depth);
      const out = new Float64Array(PERFT_STATS_COLUMNS.length);
      perftStatsWith(b, p, d, perftThreads('perftStats', options), out);
      return statsOf(out);
    },
    /**
     * perft off the main thread (native: a libuv worker driving `threads` native threads, default all
     * cores; JS: on the main thread, one subtree per event-loop turn). `options.signal` cancels it:
     * the promise rejects with the signal's reason (an AbortError unless abort() was given another).
     * Argument errors throw at once (TypeError, RangeError), as perft's do.
     */
    perftAsync(pos: Position, depth: number, options?: PerftAsyncOptions): Promise<number> {
      const fn = 'perftAsync';
      const p = checkPosition(fn, 'pos', pos);
      const d = checkDepth(fn, depth);
      const threads = perftThreads(fn, options);
      const signal = perftSignal(fn, options);
      return perftAsyncWith(b, p, d, threads, false, signal, childrenOf).then((out) => out[0]!);
    },
    /** perftStats off the main thread, cancellable: as perftAsync. */
    perftStatsAsync(pos: Position, depth: number, options?: PerftAsyncOptions): Promise<PerftStats> {
      const fn = 'perftStatsAsync';
      const p = checkPosition(fn, 'pos', pos);
      const d = checkDepth(fn, depth);
      const threads = perftThreads(fn, options);
      const signal = perftSignal(fn, options);
      return perftAsyncWith(b, p, d, threads, true, signal, childrenOf).then(statsOf);
    },
    /**
     * Per legal move, the perft of the position after it at `depth - 1` (depth 1..20): a Map from UCI
     * move to count, in move order. The counts sum to perft(pos, depth); comparing two generators'
     * divides finds the move where they disagree.
     */
    perftDivide(pos: Position, depth: number): Map<string, number> {
      const p = checkPosition('perftDivide', 'pos', pos);
      const d = checkDepth('perftDivide', depth, 1);
      const result = new Map<string, number>();
      for (const move of Array.from(codesOf(p), decodeMove).sort()) {
        const code = encodeMove(move);
        result.set(move, b.perft(play(p, code & 63, (code >> 6) & 63, code >> 12), d - 1));
      }
      return result;
    },
    /** perft of each packed position (packPositions), into a Float64Array (allocated when omitted). */
    perftBatch(positions: BigUint64Array, depth: number, out?: Float64Array): Float64Array {
      const fn = 'perftBatch';
      const [words, n] = checkPositions(fn, positions);
      const d = checkDepth(fn, depth);
      const result = out === undefined ? new Float64Array(n) : checkArray(fn, 'out', out, Float64Array, n);
      b.perftBatch(words, d, result);
      return result;
    },

    // ---------------------------------------------------------------- KBNK

    /**
     * The seed's bit-twiddled Manhattan distance from `kingSq` to the nearest corner of the colour
     * of `bishopSq` (0..7): 0 in a1/h8 for a dark-squared bishop, in h1/a8 for a light-squared one.
     */
    cornerDistance(bishopSq: Square, kingSq: Square): number {
      return b.cornerDistance(checkSquare('cornerDistance', 'bishopSq', bishopSq), checkSquare('cornerDistance', 'kingSq', kingSq));
    },
    /**
     * The KBNK mop-up score of a KBNK Position (either colour strong), from the strong side's view
     * whoever is to move: 0..154, higher = better for the side with bishop and knight.
     * `(7 - cornerDistance(bishop, weakKing)) * 16 + (7 - chebyshev(kings)) * 4 + (14 - manhattan(kings))`:
     * a step of the lone king towards a corner of the bishop's colour (16) outweighs any change of
     * the king distance (at most 6). Other material is a RangeError.
     */
    kbnkEval(pos: Position): number {
      const sq = kbnkSquaresOf('kbnkEval', pos);
      return b.kbnkEval(sq.strongKing, sq.bishop, sq.knight, sq.weakKing);
    },
    /** kbnkEval from four squares (no legality check): strong king, bishop, knight, weak king. */
    kbnkEvalSquares(strongKing: Square, bishop: Square, knight: Square, weakKing: Square): number {
      const fn = 'kbnkEvalSquares';
      return b.kbnkEval(checkSquare(fn, 'strongKing', strongKing), checkSquare(fn, 'bishop', bishop),
        checkSquare(fn, 'knight', knight), checkSquare(fn, 'weakKing', weakKing));
    },

    /**
     * The seeds' alternative implementations, for comparison and benchmarks: dirSet branchy,
     * branchless and SSE4.1 (native with SSE4.1 only, else undefined), the two multi-knight versions,
     * the two pin finders, magic (native) / the JS method (js) and PEXT (native with BMI2) sliders.
     */
    variants: {
      pinnedPiecesXray: pinVariant('pinnedPiecesXray', cv.pinnedPiecesXray),
      pinnedPiecesOppositeRays: pinVariant('pinnedPiecesOppositeRays', cv.pinnedPiecesOppositeRays),
      rookAttacksMagic: sliderVariant('rookAttacksMagic', cv.rookAttacksMagic),
      bishopAttacksMagic: sliderVariant('bishopAttacksMagic', cv.bishopAttacksMagic),
      rookAttacksPext: cv.rookAttacksPext && sliderVariant('rookAttacksPext', cv.rookAttacksPext),
      bishopAttacksPext: cv.bishopAttacksPext && sliderVariant('bishopAttacksPext', cv.bishopAttacksPext),
      distantCheckLinesBranchy: dirSetVariant('distantCheckLinesBranchy', b.variants.distantCheckLinesBranchy),
      distantCheckLinesBranchless: dirSetVariant('distantCheckLinesBranchless', b.variants.distantCheckLinesBranchless),
      distantCheckLinesSse41: b.variants.distantCheckLinesSse41
        && dirSetVariant('distantCheckLinesSse41', b.variants.distantCheckLinesSse41),
      knightAttacksSetEastWest: (knights: Bitboard): Bitboard =>
        b.variants.knightAttacksSetEastWest(checkBitboard('knightAttacksSetEastWest', 'knights', knights)),
      knightAttacksSetParallel: (knights: Bitboard): Bitboard =>
        b.variants.knightAttacksSetParallel(checkBitboard('knightAttacksSetParallel', 'knights', knights)),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
