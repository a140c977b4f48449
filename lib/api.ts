/**
 * The typed public API over one backend: validates every argument (types, ranges, typed-array
 * types and lengths), allocates batch outputs the caller did not pass, then calls the backend.
 * `lib/index.ts` binds it to the chosen backend; `bitboard-patterns/native` and `/js` bind it to
 * one backend each, so all three entry points check their input the same way.
 */
import type { Backend, SetFunction, SquareFunction } from './backend.js';
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

    /**
     * The seeds' alternative implementations, for comparison and benchmarks: dirSet branchy,
     * branchless and SSE4.1 (native with SSE4.1 only, else undefined), the two multi-knight versions.
     */
    variants: {
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
