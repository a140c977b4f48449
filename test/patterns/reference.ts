import { expect } from 'vitest';

/**
 * Brute-force references for the king and knight tests: everything is computed square by square
 * from (file, rank) coordinates, never with the library's shifts and masks, so a shared mistake is
 * unlikely. Plus the wiki-diagram reader and a seeded random generator.
 *
 * Coordinates: file 0..7 = a..h, rank 0..7 = rank 1..8, square = rank * 8 + file (a1 = 0, h8 = 63).
 */

// ------------------------------------------------------------------ squares and sets

export const fileOf = (sq: number): number => sq % 8;
export const rankOf = (sq: number): number => Math.floor(sq / 8);
export const onBoard = (file: number, rank: number): boolean => file >= 0 && file < 8 && rank >= 0 && rank < 8;
export const squareAt = (file: number, rank: number): number => rank * 8 + file;

/** 'e4' -> 28, written out here so the tests need no library helper. */
export function sq(name: string): number {
  const file = 'abcdefgh'.indexOf(name[0]!);
  const rank = Number(name[1]) - 1;
  if (name.length !== 2 || file < 0 || !(rank >= 0 && rank < 8)) throw new Error(`bad square name ${name}`);
  return squareAt(file, rank);
}

export const bit = (square: number): bigint => 1n << BigInt(square);
export const has = (set: bigint, square: number): boolean => (set & bit(square)) !== 0n;

export function setOf(squares: Iterable<number>): bigint {
  let set = 0n;
  for (const s of squares) set |= bit(s);
  return set;
}

export function squaresIn(set: bigint): number[] {
  const out: number[] = [];
  for (let s = 0; s < 64; s++) if (has(set, s)) out.push(s);
  return out;
}

export const popcount = (set: bigint): number => squaresIn(set).length;
export const FULL = (1n << 64n) - 1n;
export const ALL_SQUARES_LIST = Array.from({ length: 64 }, (_, i) => i);

/** Squares whose rank (0-based) satisfies `keep`. */
export function ranksWhere(keep: (rank: number) => boolean): bigint {
  return setOf(ALL_SQUARES_LIST.filter((s) => keep(rankOf(s))));
}

export function chebyshev(a: number, b: number): number {
  return Math.max(Math.abs(fileOf(a) - fileOf(b)), Math.abs(rankOf(a) - rankOf(b)));
}

/** Every on-board square at the given (file, rank) offsets from `from`. */
function offsets(from: number, deltas: readonly (readonly [number, number])[]): number[] {
  const out: number[] = [];
  for (const [df, dr] of deltas) {
    const f = fileOf(from) + df;
    const r = rankOf(from) + dr;
    if (onBoard(f, r)) out.push(squareAt(f, r));
  }
  return out;
}

// ------------------------------------------------------------------ diagrams

/**
 * Reads one board of a wiki diagram: 8 rows, rank 8 first, tokens separated by spaces. When the
 * seed puts several boards side by side, `board` picks one (0-based) out of `boards`.
 * Tokens listed in `ones` are set squares ('1' by default); '.' is empty; anything else throws.
 */
export function diagram(text: string, opts: { ones?: string; board?: number; boards?: number } = {}): bigint {
  const ones = opts.ones ?? '1';
  const boards = opts.boards ?? 1;
  const board = opts.board ?? 0;
  const rows = text.split('\n').map((r) => r.trim()).filter((r) => r.length > 0);
  if (rows.length !== 8) throw new Error(`diagram needs 8 rows, got ${rows.length}`);
  let set = 0n;
  rows.forEach((row, i) => {
    const tokens = row.split(/\s+/);
    if (tokens.length !== 8 * boards) throw new Error(`diagram row "${row}" has ${tokens.length} tokens, want ${8 * boards}`);
    const rank = 7 - i;
    tokens.slice(8 * board, 8 * board + 8).forEach((t, file) => {
      if (ones.includes(t)) set |= bit(squareAt(file, rank));
      else if (t !== '.' && !/^[A-Z1]$/.test(t)) throw new Error(`unexpected token ${t} in diagram`);
    });
  });
  return set;
}

/** The set as a diagram (rank 8 first), for readable assertion failures. */
export function show(set: bigint): string {
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    const row: string[] = [];
    for (let f = 0; f < 8; f++) row.push(has(set, squareAt(f, r)) ? '1' : '.');
    rows.push(row.join(' '));
  }
  return `\n${rows.join('\n')}\n`;
}

// ------------------------------------------------------------------ king

const KING_DELTAS = [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]] as const;

/** Squares at Chebyshev distance exactly 1, found by scanning the whole board. */
export function kingAttacksRef(from: number): bigint {
  let set = 0n;
  for (const t of ALL_SQUARES_LIST) if (chebyshev(from, t) === 1) set |= bit(t);
  return set;
}

export function kingNeighbours(from: number): number[] {
  return offsets(from, KING_DELTAS);
}

export function kingAttacksSetRef(kings: bigint): bigint {
  let set = 0n;
  for (const s of squaresIn(kings)) set |= kingAttacksRef(s);
  return set;
}

/** Rules of backend.ts: wing kings get their wing's files, d/e kings the king file and neighbours. */
export function shieldFiles(kingFile: number): [number, number, number] {
  if (kingFile <= 2) return [0, 1, 2];
  if (kingFile >= 5) return [5, 6, 7];
  return [kingFile - 1, kingFile, kingFile + 1];
}

/** Ranks (0-based) of the shield, near rank first: white 2 then 3, black 7 then 6. */
export function shieldRanks(color: number): [number, number] {
  return color === 0 ? [1, 2] : [6, 5];
}

export function hasShield(color: number, kingSq: number): boolean {
  const relativeRank = color === 0 ? rankOf(kingSq) : 7 - rankOf(kingSq);
  return relativeRank <= 1;
}

export function pawnShieldMaskRef(color: number, kingSq: number): bigint {
  if (!hasShield(color, kingSq)) return 0n;
  let set = 0n;
  for (const r of shieldRanks(color)) for (const f of shieldFiles(fileOf(kingSq))) set |= bit(squareAt(f, r));
  return set;
}

export function pawnShieldIndexRef(color: number, kingSq: number, pawns: bigint): number {
  if (!hasShield(color, kingSq)) return 0;
  let index = 0;
  shieldRanks(color).forEach((r, rankSlot) => {
    shieldFiles(fileOf(kingSq)).forEach((f, fileSlot) => {
      if (has(pawns, squareAt(f, r))) index |= 1 << (rankSlot * 3 + fileSlot);
    });
  });
  return index;
}

export function kingMoveTargetsRef(kingSq: number, taboo: bigint): bigint {
  return kingAttacksRef(kingSq) & ~taboo & FULL;
}

/** dirSet by coordinates: which line through the king holds the king and all its moves. */
export function distantCheckLinesRef(kingSq: number, taboo: bigint): number {
  const moves = squaresIn(kingMoveTargetsRef(kingSq, taboo));
  if (moves.length === 0) return 15;
  const kf = fileOf(kingSq);
  const kr = rankOf(kingSq);
  const all = (onLine: (s: number) => boolean) => moves.every(onLine);
  if (all((s) => rankOf(s) === kr)) return 1;
  if (all((s) => fileOf(s) === kf)) return 2;
  if (all((s) => fileOf(s) - rankOf(s) === kf - kr)) return 4;
  if (all((s) => fileOf(s) + rankOf(s) === kf + kr)) return 8;
  return 0;
}

/** Moves an enemy pawn on `pawnSq` needs to promote (a double push from its initial rank is one). */
export function pawnMovesToPromote(pawnColor: number, pawnSq: number): number {
  const r = rankOf(pawnSq);
  if (pawnColor === 0) return 7 - r - (r === 1 ? 1 : 0);
  return r - (r === 6 ? 1 : 0);
}

export function promotionSquare(pawnColor: number, pawnSq: number): number {
  return squareAt(fileOf(pawnSq), pawnColor === 0 ? 7 : 0);
}

/** The rule of the square, pawn by pawn, for every pawn square on ranks 2-7. */
export function caughtableAreaRef(kingColor: number, sideToMove: number, kingSq: number): bigint {
  const pawnColor = 1 - kingColor;
  const tempo = sideToMove === kingColor ? 1 : 0;
  let set = 0n;
  for (const p of ALL_SQUARES_LIST) {
    if (rankOf(p) === 0 || rankOf(p) === 7) continue;
    if (chebyshev(kingSq, promotionSquare(pawnColor, p)) <= pawnMovesToPromote(pawnColor, p) + tempo) set |= bit(p);
    if (tempo && chebyshev(kingSq, p) === 1) set |= bit(p); // the king to move takes a pawn next to it

  }
  return set;
}

// ------------------------------------------------------------------ paths (BFS)

/** Fewest steps from `from` to `to` over squares of `path` (both ends included), -1 if none. */
export function bfsDistance(from: number, to: number, path: bigint, neighbours: (s: number) => number[]): number {
  if (!has(path, from) || !has(path, to)) return -1;
  const dist = new Array<number>(64).fill(-1);
  dist[from] = 0;
  const queue = [from];
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (s === to) return dist[s]!;
    for (const n of neighbours(s)) {
      if (dist[n] === -1 && has(path, n)) {
        dist[n] = dist[s]! + 1;
        queue.push(n);
      }
    }
  }
  return -1;
}

export const kingDistanceRef = (from: number, to: number, path: bigint): number =>
  bfsDistance(from, to, path, kingNeighbours);

/** Any square of `from` joined to any square of `to` by 8-way steps inside `path`. */
export function squaresAreConnectedRef(from: bigint, to: bigint, path: bigint): boolean {
  const seen = new Set<number>();
  const queue = squaresIn(from & path);
  queue.forEach((s) => seen.add(s));
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (has(to, s)) return true;
    for (const n of kingNeighbours(s)) {
      if (!seen.has(n) && has(path, n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return false;
}

// ------------------------------------------------------------------ knight

/** (file, rank) step of each seed direction: noNoEa = two ranks up, one file east, and so on. */
export const KNIGHT_STEPS = {
  noNoEa: [1, 2],
  noEaEa: [2, 1],
  soEaEa: [2, -1],
  soSoEa: [1, -2],
  noNoWe: [-1, 2],
  noWeWe: [-2, 1],
  soWeWe: [-2, -1],
  soSoWe: [-1, -2],
} as const satisfies Record<string, readonly [number, number]>;

export function knightStepRef(dir: keyof typeof KNIGHT_STEPS, set: bigint): bigint {
  let out = 0n;
  for (const s of squaresIn(set)) for (const t of offsets(s, [KNIGHT_STEPS[dir]])) out |= bit(t);
  return out;
}

/** Squares a knight jump away (|df|, |dr| = 1, 2 or 2, 1), found by scanning the whole board. */
export function knightAttacksRef(from: number): bigint {
  let set = 0n;
  for (const t of ALL_SQUARES_LIST) {
    const df = Math.abs(fileOf(t) - fileOf(from));
    const dr = Math.abs(rankOf(t) - rankOf(from));
    if ((df === 1 && dr === 2) || (df === 2 && dr === 1)) set |= bit(t);
  }
  return set;
}

export function knightNeighbours(from: number): number[] {
  return squaresIn(knightAttacksRef(from));
}

export function knightAttacksSetRef(knights: bigint): bigint {
  let set = 0n;
  for (const s of squaresIn(knights)) set |= knightAttacksRef(s);
  return set;
}

export const knightDistanceRef = (from: number, to: number, path: bigint): number =>
  bfsDistance(from, to, path, knightNeighbours);

export function forkTargetSquaresRef(targets: bigint): bigint {
  let set = 0n;
  for (const s of ALL_SQUARES_LIST) if (popcount(knightAttacksRef(s) & targets) >= 2) set |= bit(s);
  return set;
}

export function knightForkMovesRef(knights: bigint, targets: bigint, own: bigint, pawnAttacks: bigint,
  knightAttacks: bigint): bigint {
  return forkTargetSquaresRef(targets) & knightAttacksSetRef(knights) & ~own & ~pawnAttacks & ~knightAttacks & FULL;
}

// ------------------------------------------------------------------ random inputs

/** mulberry32: a small seeded generator, so every failure is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random set where each square is in with probability `density`. */
export function randomSet(next: () => number, density = 0.5): bigint {
  let set = 0n;
  for (let s = 0; s < 64; s++) if (next() < density) set |= bit(s);
  return set;
}

/** Random sets of mixed densities, plus the empty and the full board. */
export function randomSets(next: () => number, n: number): bigint[] {
  const densities = [0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 0.95];
  const out: bigint[] = [0n, FULL];
  for (let i = 0; i < n; i++) out.push(randomSet(next, densities[i % densities.length]));
  return out;
}

export const randomSquare = (next: () => number): number => Math.floor(next() * 64);

/** `n` random squares, for batch inputs. */
export const randomSquares = (n: number, next: () => number): number[] => Array.from({ length: n }, () => randomSquare(next));

/** `n` random sets, the i-th of density `densities[i % densities.length]`, for batch inputs. */
export const randomSetsOf = (n: number, next: () => number, densities: readonly number[]): bigint[] =>
  Array.from({ length: n }, (_, i) => randomSet(next, densities[i % densities.length]));

// ------------------------------------------------------------------ batch helper

const BATCH_SIZES = [0, 1, 300];

/**
 * Checks a batch form for lengths 0, 1 and 300: `make` builds random inputs and the expected
 * element-wise answers (from the single call); the batch must give them without `out` and with a
 * caller-allocated, garbage-filled `out`, which it must return as the same object.
 */
type BatchOut = BigUint64Array | Uint8Array | Int8Array;

export function checkBatch(
  Out: new (n: number) => BatchOut,
  garbage: number | bigint,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each batch has its own out type
  make: (n: number, next: () => number) => { run: (out?: any) => BatchOut; expected: (number | bigint)[] },
): void {
  const next = rng(99);
  for (const n of BATCH_SIZES) {
    const { run, expected } = make(n, next);
    const fresh = run();
    expect(fresh).toBeInstanceOf(Out);
    expect(Array.from(fresh as ArrayLike<number | bigint>)).toEqual(expected);
    const out = new Out(n);
    (out as { fill(v: unknown): unknown }).fill(garbage);
    const returned = run(out);
    expect(returned).toBe(out);
    expect(Array.from(out as ArrayLike<number | bigint>)).toEqual(expected);
  }
}

// ------------------------------------------------------------------ distance helpers

type Distance = (from: number, to: number, path: bigint) => number;

/**
 * A path distance (kingDistance, knightDistance) against its BFS reference on 400 random paths, the
 * i-th of density `densities[i % densities.length]`, every tenth from a square to itself; both
 * reachable and unreachable pairs must occur more than 50 times.
 */
export function checkDistanceOnRandomPaths(distance: Distance, ref: Distance, seed: number, densities: readonly number[]): void {
  const next = rng(seed);
  const outcomes = { reachable: 0, unreachable: 0 };
  for (let i = 0; i < 400; i++) {
    const path = randomSet(next, densities[i % densities.length]);
    const a = randomSquare(next);
    const b = i % 10 === 0 ? a : randomSquare(next);
    const want = ref(a, b, path);
    if (want >= 0) outcomes.reachable++;
    else outcomes.unreachable++;
    expect(distance(a, b, path), `${a} -> ${b} ${show(path)}`).toBe(want);
  }
  expect(outcomes.reachable).toBeGreaterThan(50);
  expect(outcomes.unreachable).toBeGreaterThan(50);
}

/** A distance batch equals its single call (checkBatch), with random paths of `density` and with the default path. */
export function checkDistanceBatch(
  batch: (from: Uint8Array, to: Uint8Array, path: BigUint64Array | undefined, out?: Int8Array) => Int8Array,
  single: (from: number, to: number, path?: bigint) => number,
  density: number,
): void {
  checkBatch(Int8Array, 99, (n, next) => {
    const f = randomSquares(n, next);
    const t = randomSquares(n, next);
    const p = Array.from({ length: n }, () => randomSet(next, density));
    return { run: (out) => batch(Uint8Array.from(f), Uint8Array.from(t), BigUint64Array.from(p), out), expected: f.map((x, i) => single(x, t[i]!, p[i]!)) };
  });
  checkBatch(Int8Array, 99, (n, next) => {
    const f = randomSquares(n, next);
    const t = randomSquares(n, next);
    return { run: (out) => batch(Uint8Array.from(f), Uint8Array.from(t), undefined, out), expected: f.map((x, i) => single(x, t[i]!)) };
  });
}
