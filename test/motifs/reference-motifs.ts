/**
 * Brute-force references for the tactical motifs and the static exchange evaluation, written from
 * the definitions of lib/api/declarations.ts on the plain 64-cell board of
 * test/patterns/reference-checks.ts. Nothing here calls the library.
 *
 * - Attacks and defences: every piece's move pattern tried against the square (attackersRef).
 * - Lines: every ray of a slider walked square by square to its first piece and the next one.
 * - SEE: the exchange played out capture by capture on a copy of the board, each side choosing
 *   between stopping and going on (a plain recursion, no swap list): pins as they stand before the
 *   move (pinnerOf), x-rays by walking the rays again after every capture, the king rule, en
 *   passant, promotions as pawns, castling 0.
 */
import {
  BISHOP, BISHOP_DIRS, KING, KNIGHT, PAWN, QUEEN, RAY_STEPS, ROOK, ROOK_DIRS, attackersRef, isLegal, occupiedRef,
  pieceAttacks, pinnerOf, pseudoMoves, type Board, type Move, type Piece,
} from '../patterns/reference-checks.js';
import { bit, fileOf, onBoard, rankOf, squareAt } from '../patterns/reference.js';

/** The public functions of this topic (test/patterns/properties.test.ts leaves them to these tests). */
export const MOTIF_TOPIC_FUNCTIONS = ['hanging', 'forks', 'relativePins', 'skewers', 'discoveredAttacks', 'see', 'seeGe', 'seeBatch'] as const;

/** The motif values: pawn 1, knight 3, bishop 3, rook 5, queen 9; the king above everything. */
const VALUE = [1, 3, 3, 5, 9, Infinity];
/** SEE centipawns by type (the king's is never taken). */
const CENTIPAWNS = [100, 300, 300, 500, 900, 0];

const value = (p: Piece): number => VALUE[p.type]!;
const defended = (b: Board, sq: number, color: number): boolean => attackersRef(b, sq, color) !== 0n;

function directionsOf(p: Piece): number[] {
  if (p.type === ROOK) return ROOK_DIRS;
  if (p.type === BISHOP) return BISHOP_DIRS;
  if (p.type === QUEEN) return [...ROOK_DIRS, ...BISHOP_DIRS];
  return [];
}

/** Walking from `from` in direction dir: the squares of the first two pieces met (-1 where none). */
function firstTwo(b: Board, from: number, dir: number): [number, number] {
  const [df, dr] = RAY_STEPS[dir]!;
  const found: number[] = [];
  for (let f = fileOf(from) + df, r = rankOf(from) + dr; onBoard(f, r) && found.length < 2; f += df, r += dr) {
    if (b.cells[squareAt(f, r)]) found.push(squareAt(f, r));
  }
  return [found[0] ?? -1, found[1] ?? -1];
}

/** Every (slider square, first piece, next piece) of `color`'s sliders along the lines they move on. */
function linePairs(b: Board, color: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  b.cells.forEach((p, s) => {
    if (!p || p.color !== color) return;
    for (const d of directionsOf(p)) {
      const [mid, far] = firstTwo(b, s, d);
      if (mid >= 0 && far >= 0) out.push([s, mid, far]);
    }
  });
  return out;
}

export function hangingRef(b: Board, color: number): bigint {
  let set = 0n;
  b.cells.forEach((p, s) => {
    if (p && p.color === color && p.type !== KING && defended(b, s, 1 - color) && !defended(b, s, color)) set |= bit(s);
  });
  return set;
}

export function forksRef(b: Board, color: number): bigint {
  const occ = occupiedRef(b);
  let set = 0n;
  b.cells.forEach((p, s) => {
    if (!p || p.color !== color) return;
    let targets = 0;
    b.cells.forEach((q, t) => {
      if (!q || q.color === color || !pieceAttacks(p, s, t, occ)) return;
      if (q.type === KING || value(q) > value(p) || !defended(b, t, 1 - color)) targets++;
    });
    if (targets >= 2) set |= bit(s);
  });
  return set;
}

export function relativePinsRef(b: Board, color: number): bigint {
  let set = 0n;
  for (const [, mid, far] of linePairs(b, 1 - color)) {
    const m = b.cells[mid]!, f = b.cells[far]!;
    if (m.color === color && f.color === color && m.type !== KING && f.type !== KING && value(f) > value(m)) set |= bit(mid);
  }
  return set;
}

export function skewersRef(b: Board, color: number): bigint {
  let set = 0n;
  for (const [s, t1, t2] of linePairs(b, color)) {
    const p1 = b.cells[t1]!, p2 = b.cells[t2]!;
    if (p1.color === color || p2.color === color) continue;
    if ((p1.type === KING || value(p1) > value(p2)) && (!defended(b, t2, 1 - color) || value(p2) > value(b.cells[s]!))) set |= bit(s);
  }
  return set;
}

export function discoveredAttacksRef(b: Board, color: number): bigint {
  let set = 0n;
  for (const [s, mid, far] of linePairs(b, color)) {
    const m = b.cells[mid]!, f = b.cells[far]!;
    if (m.color !== color || f.color === color) continue;
    if (f.type === KING || value(f) > value(b.cells[s]!) || !defended(b, far, 1 - color)) set |= bit(mid);
  }
  return set;
}

export const MOTIF_REFERENCES = {
  hanging: hangingRef, forks: forksRef, relativePins: relativePinsRef, skewers: skewersRef, discoveredAttacks: discoveredAttacksRef,
} as const;

// ------------------------------------------------------------------ SEE

/** The legal moves of the board (pseudo-legal moves that pass reference-checks' isLegal). */
export function legalMoves(b: Board): Move[] {
  return pseudoMoves(b).filter((m) => isLegal(b, m));
}

/**
 * The static exchange evaluation of a legal move, or undefined when the move is not legal.
 * Played out on a copy of the cells; `origin[s]` is where the piece now on s started, `gone` the
 * starting squares of the pieces taken so far.
 */
export function seeRef(b: Board, m: Move): number | undefined {
  if (!legalMoves(b).some((x) => x.from === m.from && x.to === m.to && x.promotion === m.promotion)) return undefined;
  const mover = b.cells[m.from]!;
  if (mover.type === KING && (Math.abs(fileOf(m.from) - fileOf(m.to)) === 2 || b.cells[m.to]?.color === mover.color)) return 0;
  // Pins before the move: pinned square -> its pinner's square.
  const pinner = new Map<number, number>();
  b.cells.forEach((p, s) => {
    if (!p) return;
    const q = pinnerOf(b, s);
    if (q >= 0) pinner.set(s, q);
  });
  const cells = b.cells.slice();
  const origin: number[] = Array.from({ length: 64 }, (_, s) => s);
  const gone = new Set<number>();
  const to = m.to;
  let captured = 0;
  if (cells[to]) {
    captured = CENTIPAWNS[cells[to]!.type]!;
    gone.add(to);
  } else if (mover.type === PAWN && to === b.ep) {
    const taken = squareAt(fileOf(to), rankOf(m.from));
    captured = CENTIPAWNS[PAWN]!;
    cells[taken] = null;
    gone.add(taken);
  }
  cells[to] = mover; // a promotion stays a pawn: it counts as one
  origin[to] = m.from;
  cells[m.from] = null;
  const board = (): Board => ({ ...b, cells });

  /** The pieces of `side` that may take on `to` now: attackers, not pinned while their pinner stays. */
  const attackers = (side: number): number[] => {
    const occ = occupiedRef(board());
    const list: number[] = [];
    cells.forEach((p, s) => {
      if (!p || p.color !== side || s === to || !pieceAttacks(p, s, to, occ)) return;
      const q = pinner.get(origin[s]!);
      if (q !== undefined && !gone.has(q)) return;
      list.push(s);
    });
    // The least valuable first (type order), of one type the lowest square.
    return list.sort((x, y) => cells[x]!.type - cells[y]!.type || x - y);
  };

  /** What `side` wins at best by taking on `to` now and playing on (0 when it stops). */
  const exchange = (side: number): number => {
    const list = attackers(side);
    if (list.length === 0) return 0;
    const s = list[0]!;
    const piece = cells[s]!;
    const victim = cells[to]!;
    const victimOrigin = origin[to]!;
    if (piece.type === KING) {
      // Only when nothing could take the king back.
      cells[s] = null;
      const answer = attackers(1 - side).length;
      cells[s] = piece;
      if (answer > 0) return 0;
    }
    const hadGone = gone.has(victimOrigin);
    gone.add(victimOrigin);
    cells[to] = piece;
    origin[to] = origin[s]!;
    cells[s] = null;
    const result = Math.max(0, CENTIPAWNS[victim.type]! - exchange(1 - side));
    cells[s] = piece;
    origin[s] = origin[to]!;
    cells[to] = victim;
    origin[to] = victimOrigin;
    if (!hadGone) gone.delete(victimOrigin);
    return result;
  };
  return captured - exchange(1 - b.side);
}

export { bit };
