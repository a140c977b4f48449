/**
 * Batch analysis on the BigInt backend; twin of `native/core/analysis.h` + `native/addon/batch.cc`
 * (the same functions with the same arguments, so `lib/batch/batch.ts` drives either). Slower, same answers.
 *
 * Sets are walked square by square over int32 halves (the SCRATCH / HALVES buffer), so no loop
 * carries a signed `BigInt.asIntN(64, ...)` value (see king.ts on the V8 crash); the unsigned bigints
 * the public helpers return are safe to accumulate.
 */
import { BISHOP, KING, KNIGHT, PACKED_POSITION_WORDS, PAWN, PLANE_BYTES, QUEEN, ROOK } from '../../core/types.js';
import type { ParseInto } from '../../core/types.js';
import type { BatchBackend } from '../contract.js';
import { FenError } from '../../core/position.js';
import { sharesMemory } from '../../core/validate.js';
import { FEATURE_COUNT, featureWidth, isU64Feature } from '../../core/features.js';
import { FEN_FIELDS, lineAt, lineStarts, parseLine } from '../../core/lines.js';
import { popcount } from '../../board/bitboard.js';
import { checkers as checkersOf, kingLook } from './checks.js';
import { packedProblem } from '../../core/packed-rules.js';
import { arrKingAttacks } from '../../board/leapers.js';
import { caughtableArea, distantCheckLines, pawnShieldIndex } from './king.js';
import {
  forkTargetSquares, knightAttacksSet, noEaEa, noNoEa, noNoWe, noWeWe, soEaEa, soSoEa, soSoWe, soWeWe,
} from './knight.js';
import { generate, loadPacked } from '../../board/movegen.js';
import { loadPackedSets, motifsLoaded, seeBatchWords } from './motifs.js';
import { polyglotKeyOfHalves } from './polyglot.js';
import { HALVES, SCRATCH, bishopAttacks, fromHalves, rookAttacks } from '../../board/sliders.js';

const ALL = 0xffffffffffffffffn;
const NOT_A = 0xfefefefefefefefen;
const NOT_H = 0x7f7f7f7f7f7f7f7fn;

/** FEATURES order (lib/core/features.ts), the native FeatureId. */
export const F_CHECKERS = 0, F_PINNED = 1, F_DISCOVERED = 2, F_ATTACKED = 3, F_KING_ZONE = 4, F_DISTANT = 5,
  F_SHIELD = 6, F_UNCATCHABLE = 7, F_FORKS = 8, F_IN_CHECK = 9, F_LEGAL_MOVES = 10, F_CHECKMATE = 11, F_STALEMATE = 12,
  F_POLYGLOT_KEY = 13, F_HANGING = 14, F_FORK_PIECES = 15, F_RELATIVE_PINS = 16, F_SKEWERS = 17, F_DISCOVERED_ATTACKS = 18;
/** legalMoveCount of a board where the side not to move is in check (no meaningful move list). */
export const ILLEGAL_POSITION = 255;

// ---- Small helpers on unsigned bigints ----

const north = (b: bigint): bigint => (b << 8n) & ALL;
const south = (b: bigint): bigint => b >> 8n;
const east = (b: bigint): bigint => (b << 1n) & NOT_A;
const west = (b: bigint): bigint => (b >> 1n) & NOT_H;
const bit = (sq: number): bigint => 1n << BigInt(sq);

function lowest(set: bigint): number {
  SCRATCH[0] = set;
  const lo = HALVES[0]!;
  if (lo !== 0) return 31 - Math.clz32(lo & -lo);
  const hi = HALVES[1]!;
  return hi !== 0 ? 63 - Math.clz32(hi & -hi) : -1;
}

/** The squares of a set, into `into` (reused); returns the count. */
function squaresInto(set: bigint, into: Int32Array): number {
  SCRATCH[0] = set;
  let lo = HALVES[0]!;
  let hi = HALVES[1]!;
  let n = 0;
  while (lo !== 0) { into[n++] = 31 - Math.clz32(lo & -lo); lo &= lo - 1; }
  while (hi !== 0) { into[n++] = 63 - Math.clz32(hi & -hi); hi &= hi - 1; }
  return n;
}
const sqBuf = new Int32Array(64);

interface Packed { c0: bigint; c1: bigint; p: bigint[]; stm: number }

function attacksAndZone(w: Packed, color: number, occ: bigint, zone: bigint, count: boolean): [bigint, number] {
  const own = color === 0 ? w.c0 : w.c1;
  const pawns = w.p[PAWN]! & own;
  const knights = w.p[KNIGHT]! & own;
  const pawnEast = color === 0 ? north(east(pawns)) : south(east(pawns));
  const pawnWest = color === 0 ? north(west(pawns)) : south(west(pawns));
  const king = arrKingAttacks[lowest(w.p[KING]! & own)]!;
  let attacks = pawnEast | pawnWest | knightAttacksSet(knights) | king;
  let n = 0;
  if (count) {
    n = popcount(pawnEast & zone) + popcount(pawnWest & zone) + popcount(noNoEa(knights) & zone)
      + popcount(noEaEa(knights) & zone) + popcount(soEaEa(knights) & zone) + popcount(soSoEa(knights) & zone)
      + popcount(noNoWe(knights) & zone) + popcount(noWeWe(knights) & zone) + popcount(soWeWe(knights) & zone)
      + popcount(soSoWe(knights) & zone) + popcount(king & zone);
  }
  const diag = squaresInto((w.p[BISHOP]! | w.p[QUEEN]!) & own, sqBuf);
  for (let k = 0; k < diag; k++) {
    const a = bishopAttacks(sqBuf[k]!, occ);
    attacks |= a;
    if (count) n += popcount(a & zone);
  }
  const orth = squaresInto((w.p[ROOK]! | w.p[QUEEN]!) & own, sqBuf);
  for (let k = 0; k < orth; k++) {
    const a = rookAttacks(sqBuf[k]!, occ);
    attacks |= a;
    if (count) n += popcount(a & zone);
  }
  return [attacks, n];
}

function passedPawns(w: Packed, color: number): bigint {
  const own = w.p[PAWN]! & (color === 0 ? w.c0 : w.c1);
  const enemy = w.p[PAWN]! & (color === 0 ? w.c1 : w.c0);
  let span: bigint;
  if (color === 0) {
    span = south(enemy);
    span |= span >> 8n; span |= span >> 16n; span |= span >> 32n;
  } else {
    span = north(enemy);
    span = (span | (span << 8n)) & ALL; span = (span | (span << 16n)) & ALL; span = (span | (span << 32n)) & ALL;
  }
  span |= east(span) | west(span);
  return own & ~span;
}

const MOVE_FEATURES = (1 << F_LEGAL_MOVES) | (1 << F_CHECKMATE) | (1 << F_STALEMATE);

/** The one place the analysis asks the move generator (movegen.ts) for anything. */
function countLegalMoves(w32: Int32Array, i: number): number {
  loadPacked(w32, i * PACKED_POSITION_WORDS * 2, 0);
  return generate(0, true);
}

type Outs = (BigUint64Array | Uint8Array | undefined | null)[];

/** kingLook's results for white's king at [0 .. 7], black's at [8 .. 15]. */
const LOOK = new Int32Array(16);

/** One position of words (w32: the same memory as int32 halves). */
function analyzePosition(words: BigUint64Array, w32: Int32Array, i: number, features: number, outs: Outs): void {
  // Motifs alone: the int32 halves only, none of the bigints the other features read.
  if ((features & ~(31 << F_HANGING)) === 0) {
    motifFeatures(w32, i, features, outs);
    return;
  }
  const at = i * PACKED_POSITION_WORDS;
  const w: Packed = {
    c0: words[at]!, c1: words[at + 1]!,
    p: [words[at + 2]!, words[at + 3]!, words[at + 4]!, words[at + 5]!, words[at + 6]!, words[at + 7]!],
    stm: Number(words[at + 8]! & 1n),
  };
  const colors = [w.c0, w.c1];
  const occ = w.c0 | w.c1;
  const kingSq = [lowest(w.p[KING]! & w.c0), lowest(w.p[KING]! & w.c1)];
  const u64 = (f: number) => outs[f] as BigUint64Array | undefined;
  const u8 = (f: number) => outs[f] as Uint8Array | undefined;

  if (features & ((1 << F_CHECKERS) | (1 << F_PINNED) | (1 << F_DISCOVERED) | (1 << F_IN_CHECK) | MOVE_FEATURES)) {
    // One look from each king (checks.ts kingLook): its checkers and its blockers, ours pinned, the
    // enemy's its discovered-check candidates.
    const at32 = i * PACKED_POSITION_WORDS * 2;
    kingLook(w32, at32, 0, LOOK, 0, 4);
    kingLook(w32, at32, 1, LOOK, 8, 12);
    const chk = [fromHalves(LOOK[0]!, LOOK[1]!), fromHalves(LOOK[8]!, LOOK[9]!)];
    const pin = [fromHalves(LOOK[2]!, LOOK[3]!), fromHalves(LOOK[10]!, LOOK[11]!)];
    const disc = [fromHalves(LOOK[12]!, LOOK[13]!), fromHalves(LOOK[4]!, LOOK[5]!)];
    const put2 = (f: number, v: bigint[]) => { const o = u64(f); if (o) { o[2 * i] = v[0]!; o[2 * i + 1] = v[1]!; } };
    put2(F_CHECKERS, chk);
    put2(F_PINNED, pin);
    put2(F_DISCOVERED, disc);
    const ic = u8(F_IN_CHECK);
    if (ic) ic[i] = chk[w.stm] !== 0n ? 1 : 0;
    if (features & MOVE_FEATURES) {
      const illegal = chk[w.stm ^ 1] !== 0n;
      const moves = illegal ? -1 : countLegalMoves(w32, i);
      const lm = u8(F_LEGAL_MOVES);
      if (lm) lm[i] = illegal ? ILLEGAL_POSITION : moves;
      const mate = u8(F_CHECKMATE);
      if (mate) mate[i] = moves === 0 && chk[w.stm] !== 0n ? 1 : 0;
      const stale = u8(F_STALEMATE);
      if (stale) stale[i] = moves === 0 && chk[w.stm] === 0n ? 1 : 0;
    }
  }
  const attacked = u64(F_ATTACKED);
  const zone = u8(F_KING_ZONE);
  if (attacked || zone) {
    for (let c = 0; c < 2; c++) {
      const ek = kingSq[c ^ 1]!;
      const [a, n] = attacksAndZone(w, c, occ, arrKingAttacks[ek]! | bit(ek), zone !== undefined && zone !== null);
      if (attacked) attacked[2 * i + c] = a;
      if (zone) zone[2 * i + (c ^ 1)] = n;
    }
  }
  const distant = u8(F_DISTANT);
  if (distant) {
    for (let c = 0; c < 2; c++) {
      const k = kingSq[c]!;
      const taboo = colors[c]! | attacksAndZone(w, c ^ 1, occ & ~bit(k), 0n, false)[0];
      distant[2 * i + c] = distantCheckLines(k, taboo);
    }
  }
  const shield = u8(F_SHIELD);
  if (shield) for (let c = 0; c < 2; c++) shield[2 * i + c] = pawnShieldIndex(c, kingSq[c]!, w.p[PAWN]! & colors[c]!);
  const passers = u64(F_UNCATCHABLE);
  if (passers) {
    for (let c = 0; c < 2; c++) passers[2 * i + c] = passedPawns(w, c) & ~caughtableArea(c ^ 1, w.stm, kingSq[c ^ 1]!);
  }
  const forks = u64(F_FORKS);
  if (forks) {
    for (let c = 0; c < 2; c++) {
      forks[2 * i + c] = forkTargetSquares(colors[c ^ 1]! & (w.p[KING]! | w.p[QUEEN]! | w.p[ROOK]!)) & ~colors[c]!;
    }
  }
  const key = u64(F_POLYGLOT_KEY);
  if (key) key[i] = polyglotKeyOfHalves(w32, i);
  motifFeatures(w32, i, features, outs);
}

/** The five tactical motifs (motifs.ts), ids F_HANGING .. F_DISCOVERED_ATTACKS in order, both colours each. */
function motifFeatures(w32: Int32Array, i: number, features: number, outs: Outs): void {
  const motifs = (features >>> F_HANGING) & 31;
  if (motifs === 0) return;
  loadPackedSets(w32, i);
  motifsLoaded(MOTIF_SETS, 0, motifs);
  for (let k = 0; k < 5; k++) {
    const o = outs[F_HANGING + k] as BigUint64Array | undefined;
    if (!o) continue;
    // The output's int32 view, made once per array.
    if (MOTIF_OUT[k] !== o) {
      MOTIF_OUT[k] = o;
      MOTIF_VIEW[k] = new Int32Array(o.buffer, o.byteOffset, o.length * 2);
    }
    const v = MOTIF_VIEW[k]!;
    v[4 * i] = MOTIF_SETS[4 * k]!;
    v[4 * i + 1] = MOTIF_SETS[4 * k + 1]!;
    v[4 * i + 2] = MOTIF_SETS[4 * k + 2]!;
    v[4 * i + 3] = MOTIF_SETS[4 * k + 3]!;
  }
}

const MOTIF_OUT: (BigUint64Array | undefined)[] = [undefined, undefined, undefined, undefined, undefined];
const MOTIF_VIEW: (Int32Array | undefined)[] = [undefined, undefined, undefined, undefined, undefined];

/** motifsLoaded's ten sets as int32 halves: hanging, forks, relativePins, skewers, discoveredAttacks, white's then black's. */
const MOTIF_SETS = new Int32Array(20);

/** Positions [begin, end); returns the index of the first inconsistent position, or end. */
export function analyzeRange(words: BigUint64Array, valid: Uint8Array | null, begin: number, end: number,
  features: number, outs: Outs): number {
  const w32 = words.length ? new Int32Array(words.buffer, words.byteOffset, words.length * 2) : new Int32Array(0);
  for (let i = begin; i < end; i++) {
    if (valid && !valid[i]) {
      for (let f = 0; f < FEATURE_COUNT; f++) {
        const o = outs[f];
        if (!o) continue;
        const width = featureWidth(f);
        o.fill(isU64Feature(f) ? 0n as never : 0 as never, width * i, width * i + width);
      }
      continue;
    }
    if (packedProblem(words, i * PACKED_POSITION_WORDS)) return i;
    analyzePosition(words, w32, i, features, outs);
  }
  return end;
}

function invalid(fn: string, words: BigUint64Array, i: number): RangeError {
  return new RangeError(`${fn}: position ${i} is not valid: ${packedProblem(words, i * PACKED_POSITION_WORDS)}`);
}

export const jsBatch: BatchBackend = {
  featureCount: FEATURE_COUNT,
  planeBytes: PLANE_BYTES,
  hardwareThreads: 1,

  parseFenText(text: Uint8Array, epd: boolean, into?: ParseInto, chess960 = false): [BigUint64Array, Uint8Array, Uint32Array] | number {
    const starts = lineStarts(text);
    const n = starts.length - 1;
    const fits = into !== undefined && into.words.length >= n * PACKED_POSITION_WORDS && into.status.length >= n
      && into.starts.length >= n + 1;
    if (fits && [into.words, into.status, into.starts].some((a) => sharesMemory(a, text))) {
      throw new RangeError('into must not share memory with text');
    }
    const words = fits ? into.words : new BigUint64Array(n * PACKED_POSITION_WORDS);
    const status = fits ? into.status : new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const r = parseLine(lineAt(text, starts, i), epd, checkersOf, chess960);
      if (r instanceof FenError) {
        status[i] = 1 + FEN_FIELDS.indexOf(r.field as (typeof FEN_FIELDS)[number]);
        if (fits) words.fill(0n, i * PACKED_POSITION_WORDS, (i + 1) * PACKED_POSITION_WORDS);
      } else {
        status[i] = 0;
        words.set(r, i * PACKED_POSITION_WORDS);
      }
    }
    if (!fits) return [words, status, starts];
    into.starts.set(starts);
    return n;
  },

  analyzeBatch(words, valid, features, outs): void {
    const n = words.length / PACKED_POSITION_WORDS;
    const bad = analyzeRange(words, valid, 0, n, features, outs);
    if (bad !== n) throw invalid('analyzeBatch', words, bad);
  },

  async analyzeBatchAsync(words, valid, features, outs, _threads, cancel): Promise<boolean> {
    // The work continues after this returns: like the native backend it reads its own copy of the
    // inputs, so detaching or changing the caller's arrays meanwhile changes nothing.
    words = words.length ? words.slice() : new BigUint64Array(0);
    valid = valid ? (valid.length ? valid.slice() : new Uint8Array(0)) : null;
    const n = words.length / PACKED_POSITION_WORDS;
    // A cancel seen before the promise settles wins, as on the native backend (an empty batch included).
    for (let begin = 0; ; begin += 1024) {
      await new Promise<void>((resolve) => { setImmediate(resolve); });
      if (cancel[0] !== 0) return false;
      if (begin >= n) return true;
      const end = Math.min(n, begin + 1024);
      const bad = analyzeRange(words, valid, begin, end, features, outs);
      if (bad !== end) throw invalid('analyzeBatchAsync', words, bad);
    }
  },

  seeBatch: seeBatchWords,

  toPlanes(words, valid, out): void {
    const n = words.length / PACKED_POSITION_WORDS;
    if (out.length) out.fill(0);  // an empty out may be over a detached buffer
    for (let i = 0; i < n; i++) {
      if (valid && !valid[i]) continue;
      const at = i * PACKED_POSITION_WORDS;
      if (packedProblem(words, at)) throw invalid('toPlanes', words, i);
      const base = i * PLANE_BYTES;
      for (let c = 0; c < 2; c++) {
        for (let t = 0; t < 6; t++) {
          const count = squaresInto(words[at + c]! & words[at + 2 + t]!, sqBuf);
          for (let k = 0; k < count; k++) out[base + (c * 6 + t) * 64 + sqBuf[k]!] = 1;
        }
      }
      const st = words[at + 8]!;
      const state = base + 768;
      out[state] = Number(st & 1n);
      for (let r = 0; r < 4; r++) out[state + 1 + r] = Number((st >> BigInt(1 + r)) & 1n);
      out[state + 5] = Number((st >> 8n) & 255n);
      const half = st >> 16n;
      out[state + 6] = half > 255n ? 255 : Number(half);
    }
  },
};
