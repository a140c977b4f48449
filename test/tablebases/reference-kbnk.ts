/**
 * An independent KBNK generator for the tests: the dedicated set-wise retrograde analysis of the KBNK
 * Endgame page's material (one weak-king set per placement of strong king, bishop and knight), written
 * apart from the general generator (lib/backends/js/tbgen.ts, native/core/tbgen.h) that the library uses for
 * every table, KBNvK included. The test compares the library's KBNvK table with this one byte for byte.
 *
 * Table layout v1 (lib/core/types.ts). No BigInt here: every 64-bit set of weak-king squares is a pair of
 * int32 halves (lo = squares 0..31, hi = 32..63) kept in Int32Arrays, one pair per *placement* of strong
 * king (in the a1-d1-d4 triangle), bishop and knight.
 *
 * The retrograde step, per placement p (weak-king sets over squares w):
 * - attacked(p) = king(SK) | knight(N) | bishop(B, occupied = SK | N): the weak king is taken off the
 *   board, so a king stepping away along a bishop ray is still attacked behind itself;
 *   steps(p) = ~(attacked | SK): where the weak king may step, capturing an undefended B or N included.
 * - ply 0 (weak to move): mated = legal & check & ~kingAttacks(steps).
 * - odd ply n (strong to move): won_n = legal & ~won & OR over strong moves p -> p' of lostNew(p'),
 *   a bishop move masking out the weak kings that stand in its way; a king move leaving the triangle
 *   reads the normalised placement and maps its set back by the inverse symmetry (byte tables).
 * - even ply n (weak to move): lost_n = legal & ~lost & kingAttacks(steps) & ~kingAttacks(steps & ~won):
 *   it has a move and every move reaches a won position (a capture never does: B and N squares are
 *   never in `won`, so a capture is always an escape, as KBK and KNK are draws).
 * What is never reached is a draw (stalemates, lost pieces); illegal entries are marked first.
 */
import { KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE } from '../../lib/core/types.js';

// ---------------------------------------------------------------------------- tables

const PLACEMENTS = 10 * 64 * 64;
const TRIANGLE_INDEX = new Int8Array(64).fill(-1);
KBNK_KING_TRIANGLE.forEach((sq, i) => { TRIANGLE_INDEX[sq] = i; });

/** The 8 board symmetries as square maps: bit 0 mirror files, bit 1 mirror ranks, bit 2 transpose (applied first). */
function symmetric(s: number, sq: number): number {
  let f = sq & 7, r = sq >> 3;
  if (s & 4) [f, r] = [r, f];
  if (s & 1) f = 7 - f;
  if (s & 2) r = 7 - r;
  return r * 8 + f;
}

interface Tables {
  /** symSq[s * 64 + sq]. */
  symSq: Uint8Array;
  /** For the strong king on square k: the symmetry that takes it into the triangle (the first that does). */
  normalising: Uint8Array;
  /** Inverse-symmetry byte tables: set halves of the image of byte `v` of rank `r`, [(s * 8 + r) * 256 + v]. */
  invLo: Int32Array;
  invHi: Int32Array;
  kingLo: Int32Array; kingHi: Int32Array;
  knightLo: Int32Array; knightHi: Int32Array;
  /** Bishop ray squares from each square, 4 directions, -1 terminated: [(sq * 4 + d) * 8 + i]. */
  rays: Int8Array;
}

let tables: Tables | undefined;

function buildTables(): Tables {
  const symSq = new Uint8Array(8 * 64);
  for (let s = 0; s < 8; s++) for (let sq = 0; sq < 64; sq++) symSq[s * 64 + sq] = symmetric(s, sq);
  const normalising = new Uint8Array(64);
  for (let k = 0; k < 64; k++) {
    let s = 0;
    while (TRIANGLE_INDEX[symSq[s * 64 + k]!]! < 0) s++;
    normalising[k] = s;
  }
  const invLo = new Int32Array(8 * 8 * 256), invHi = new Int32Array(8 * 8 * 256);
  for (let s = 0; s < 8; s++) {
    // inverse of symmetry s: the square w whose image is sq
    const inverse = new Uint8Array(64);
    for (let w = 0; w < 64; w++) inverse[symSq[s * 64 + w]!] = w;
    for (let r = 0; r < 8; r++) {
      for (let v = 0; v < 256; v++) {
        let lo = 0, hi = 0;
        for (let j = 0; j < 8; j++) {
          if (!(v & (1 << j))) continue;
          const t = inverse[r * 8 + j]!;
          if (t < 32) lo |= 1 << t; else hi |= 1 << (t - 32);
        }
        invLo[(s * 8 + r) * 256 + v] = lo;
        invHi[(s * 8 + r) * 256 + v] = hi;
      }
    }
  }
  const kingLo = new Int32Array(64), kingHi = new Int32Array(64), knightLo = new Int32Array(64), knightHi = new Int32Array(64);
  const rays = new Int8Array(64 * 4 * 8).fill(-1);
  const bishopDirs = [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const;
  for (let sq = 0; sq < 64; sq++) {
    const f = sq & 7, r = sq >> 3;
    const add = (lo: Int32Array, hi: Int32Array, ff: number, rr: number) => {
      if (ff < 0 || ff > 7 || rr < 0 || rr > 7) return;
      const t = rr * 8 + ff;
      if (t < 32) lo[sq] |= 1 << t; else hi[sq] |= 1 << (t - 32);
    };
    for (let df = -1; df <= 1; df++) for (let dr = -1; dr <= 1; dr++) if (df || dr) add(kingLo, kingHi, f + df, r + dr);
    for (const [df, dr] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]] as const) {
      add(knightLo, knightHi, f + df, r + dr);
    }
    bishopDirs.forEach(([df, dr], d) => {
      for (let i = 1, n = 0; ; i++, n++) {
        const ff = f + df * i, rr = r + dr * i;
        if (ff < 0 || ff > 7 || rr < 0 || rr > 7) break;
        rays[(sq * 4 + d) * 8 + n] = rr * 8 + ff;
      }
    });
  }
  return { symSq, normalising, invLo, invHi, kingLo, kingHi, knightLo, knightHi, rays };
}

// ---------------------------------------------------------------------------- generator

/**
 * The retrograde generator as a resumable loop: `step()` advances one ply and returns false when
 * nothing changed (the table is complete). `kbnkReferenceTable` runs it to the end.
 */
export class KbnkRetrograde {
  /** The ply the next `step()` resolves (0 = mates). */
  ply = 0;
  /** Positions resolved so far (wins and losses, both sides to move, table entries). */
  resolved = 0;
  /** Legal positions in the table (entries that are not KBNK_ILLEGAL). */
  readonly legalEntries: number;
  private readonly t: Tables;
  private readonly table: Uint8Array;
  // per placement, int32 halves of 64-bit weak-king sets
  private readonly legalWLo = new Int32Array(PLACEMENTS); private readonly legalWHi = new Int32Array(PLACEMENTS);
  private readonly legalSLo = new Int32Array(PLACEMENTS); private readonly legalSHi = new Int32Array(PLACEMENTS);
  private readonly stepsLo = new Int32Array(PLACEMENTS); private readonly stepsHi = new Int32Array(PLACEMENTS);
  private readonly wonLo = new Int32Array(PLACEMENTS); private readonly wonHi = new Int32Array(PLACEMENTS);
  private readonly lostLo = new Int32Array(PLACEMENTS); private readonly lostHi = new Int32Array(PLACEMENTS);
  /** The sets resolved by the last ply (lost ones after an even ply, won ones after an odd ply). */
  private newLo = new Int32Array(PLACEMENTS); private newHi = new Int32Array(PLACEMENTS);
  private nextLo = new Int32Array(PLACEMENTS); private nextHi = new Int32Array(PLACEMENTS);
  /** Placements whose last-ply set is not empty. */
  private changed = new Uint8Array(PLACEMENTS);
  private nextChanged = new Uint8Array(PLACEMENTS);
  private done = false;

  constructor(table: Uint8Array) {
    if (!(table instanceof Uint8Array) || table.length !== KBNK_TABLE_SIZE) {
      throw new RangeError(`kbnkGenerate: table must be a Uint8Array of KBNK_TABLE_SIZE (${KBNK_TABLE_SIZE}) bytes`);
    }
    this.t = tables ??= buildTables();
    this.table = table;
    this.legalEntries = this.setUp();
  }

  /** Per-placement sets; illegal and draw marks in the table. Returns the number of legal entries. */
  private setUp(): number {
    const { kingLo, kingHi, knightLo, knightHi, rays } = this.t;
    const table = this.table;
    let legal = 0;
    for (let p = 0; p < PLACEMENTS; p++) {
      const sk = KBNK_KING_TRIANGLE[p >> 12]!, b = (p >> 6) & 63, n = p & 63;
      const baseW = (PLACEMENTS + p) * 64, baseS = p * 64;
      if (sk === b || sk === n || b === n) {
        table.fill(KBNK_ILLEGAL, baseS, baseS + 64);
        table.fill(KBNK_ILLEGAL, baseW, baseW + 64);
        continue;
      }
      const occLo = bitLo(sk) | bitLo(b) | bitLo(n), occHi = bitHi(sk) | bitHi(b) | bitHi(n);
      // bishop attacks through the weak king (it is the mover or the target), stopped by SK and N
      let bLo = 0, bHi = 0;
      for (let d = 0; d < 4; d++) {
        for (let i = 0; i < 7; i++) {
          const sq = rays[(b * 4 + d) * 8 + i]!;
          if (sq < 0) break;
          if (sq < 32) bLo |= 1 << sq; else bHi |= 1 << (sq - 32);
          if (sq === sk || sq === n) break;
        }
      }
      const checkLo = knightLo[n]! | bLo, checkHi = knightHi[n]! | bHi;
      const lwLo = ~(occLo | kingLo[sk]!), lwHi = ~(occHi | kingHi[sk]!);
      const lsLo = lwLo & ~checkLo, lsHi = lwHi & ~checkHi;
      this.legalWLo[p] = lwLo; this.legalWHi[p] = lwHi;
      this.legalSLo[p] = lsLo; this.legalSHi[p] = lsHi;
      this.stepsLo[p] = ~(kingLo[sk]! | checkLo | bitLo(sk));
      this.stepsHi[p] = ~(kingHi[sk]! | checkHi | bitHi(sk));
      for (let w = 0; w < 64; w++) {
        const inW = w < 32 ? (lwLo >>> w) & 1 : (lwHi >>> (w - 32)) & 1;
        const inS = w < 32 ? (lsLo >>> w) & 1 : (lsHi >>> (w - 32)) & 1;
        table[baseW + w] = inW ? KBNK_DRAW : KBNK_ILLEGAL;
        table[baseS + w] = inS ? KBNK_DRAW : KBNK_ILLEGAL;
        legal += inW + inS;
      }
      // ply 0: checkmates, weak side to move: in check, no step
      const [fLo, fHi] = kingFill(this.stepsLo[p]!, this.stepsHi[p]!);
      const mLo = lwLo & checkLo & ~fLo, mHi = lwHi & checkHi & ~fHi;
      if (mLo | mHi) {
        this.newLo[p] = mLo; this.newHi[p] = mHi;
        this.lostLo[p] = mLo; this.lostHi[p] = mHi;
        this.changed[p] = 1;
        this.resolved += this.record(baseW, mLo, mHi, 0);
      }
    }
    this.ply = 1;
    return legal;
  }

  /** Writes `ply` into the table at base + each set bit; returns the count. */
  private record(base: number, lo: number, hi: number, ply: number): number {
    const table = this.table;
    let count = 0;
    while (lo) { const low = lo & -lo; table[base + 31 - Math.clz32(low)] = ply; lo ^= low; count++; }
    while (hi) { const low = hi & -hi; table[base + 63 - Math.clz32(low)] = ply; hi ^= low; count++; }
    return count;
  }

  /** Resolves one more ply; false when there was nothing left to resolve (then the table is complete). */
  step(): boolean {
    if (this.done) return false;
    const found = this.ply & 1 ? this.strongPly() : this.weakPly();
    [this.newLo, this.nextLo] = [this.nextLo, this.newLo];
    [this.newHi, this.nextHi] = [this.nextHi, this.newHi];
    [this.changed, this.nextChanged] = [this.nextChanged, this.changed];
    this.resolved += found;
    this.ply++;
    if (found === 0) this.done = true;
    return !this.done;
  }

  /** Odd ply: strong side to move wins if one move reaches a position lost in the previous ply. */
  private strongPly(): number {
    const { symSq, normalising, invLo, invHi, kingLo, kingHi, knightLo, knightHi, rays } = this.t;
    const { legalSLo, legalSHi, wonLo, wonHi, newLo, newHi, changed, nextLo, nextHi, nextChanged } = this;
    const ply = this.ply;
    let found = 0;
    for (let p = 0; p < PLACEMENTS; p++) {
      const openLo = legalSLo[p]! & ~wonLo[p]!, openHi = legalSHi[p]! & ~wonHi[p]!;
      nextLo[p] = 0; nextHi[p] = 0; nextChanged[p] = 0;
      if ((openLo | openHi) === 0) continue;
      const tri = p >> 12, sk = KBNK_KING_TRIANGLE[tri]!, b = (p >> 6) & 63, n = p & 63;
      const triBase = p & ~4095;
      let accLo = 0, accHi = 0;
      // knight moves: N -> m, same triangle square and bishop
      let mLo = knightLo[n]!, mHi = knightHi[n]!;
      while (mLo) {
        const low = mLo & -mLo; mLo ^= low;
        const q = triBase | (b << 6) | (31 - Math.clz32(low));
        if (changed[q]) { accLo |= newLo[q]!; accHi |= newHi[q]!; }
      }
      while (mHi) {
        const low = mHi & -mHi; mHi ^= low;
        const q = triBase | (b << 6) | (63 - Math.clz32(low));
        if (changed[q]) { accLo |= newLo[q]!; accHi |= newHi[q]!; }
      }
      // bishop moves: along each ray up to SK or N; weak kings on the squares passed block the move
      for (let d = 0; d < 4; d++) {
        let passLo = 0, passHi = 0;
        for (let i = 0; i < 7; i++) {
          const sq = rays[(b * 4 + d) * 8 + i]!;
          if (sq < 0 || sq === sk || sq === n) break;
          const q = triBase | (sq << 6) | n;
          if (changed[q]) { accLo |= newLo[q]! & ~passLo; accHi |= newHi[q]! & ~passHi; }
          if (sq < 32) passLo |= 1 << sq; else passHi |= 1 << (sq - 32);
        }
      }
      // king moves: normalise the new king square into the triangle, map the set back
      let kLo = kingLo[sk]!, kHi = kingHi[sk]!;
      while (kLo | kHi) {
        let to: number;
        if (kLo) { const low = kLo & -kLo; kLo ^= low; to = 31 - Math.clz32(low); }
        else { const low = kHi & -kHi; kHi ^= low; to = 63 - Math.clz32(low); }
        if (to === b || to === n) continue;
        const s = normalising[to]!, sb = s * 64;
        const q = (TRIANGLE_INDEX[symSq[sb + to]!]! << 12) | (symSq[sb + b]! << 6) | symSq[sb + n]!;
        if (!changed[q]) continue;
        const sLo = newLo[q]!, sHi = newHi[q]!;
        if (s === 0) { accLo |= sLo; accHi |= sHi; continue; }
        const tb = s << 11; // (s * 8 + r) * 256
        accLo |= invLo[tb | (sLo & 255)]! | invLo[tb | 256 | ((sLo >>> 8) & 255)]! | invLo[tb | 512 | ((sLo >>> 16) & 255)]!
          | invLo[tb | 768 | (sLo >>> 24)]! | invLo[tb | 1024 | (sHi & 255)]! | invLo[tb | 1280 | ((sHi >>> 8) & 255)]!
          | invLo[tb | 1536 | ((sHi >>> 16) & 255)]! | invLo[tb | 1792 | (sHi >>> 24)]!;
        accHi |= invHi[tb | (sLo & 255)]! | invHi[tb | 256 | ((sLo >>> 8) & 255)]! | invHi[tb | 512 | ((sLo >>> 16) & 255)]!
          | invHi[tb | 768 | (sLo >>> 24)]! | invHi[tb | 1024 | (sHi & 255)]! | invHi[tb | 1280 | ((sHi >>> 8) & 255)]!
          | invHi[tb | 1536 | ((sHi >>> 16) & 255)]! | invHi[tb | 1792 | (sHi >>> 24)]!;
      }
      const winLo = accLo & openLo, winHi = accHi & openHi;
      if ((winLo | winHi) === 0) continue;
      wonLo[p] = wonLo[p]! | winLo; wonHi[p] = wonHi[p]! | winHi;
      nextLo[p] = winLo; nextHi[p] = winHi; nextChanged[p] = 1;
      found += this.record(p * 64, winLo, winHi, ply);
    }
    return found;
  }

  /** Even ply: weak side to move loses if it has a move and every move reaches a won position. */
  private weakPly(): number {
    const { legalWLo, legalWHi, stepsLo, stepsHi, wonLo, wonHi, lostLo, lostHi, changed, nextLo, nextHi, nextChanged } = this;
    const ply = this.ply;
    let found = 0;
    for (let p = 0; p < PLACEMENTS; p++) {
      nextLo[p] = 0; nextHi[p] = 0; nextChanged[p] = 0;
      if (!changed[p]) continue; // only the wins of the last ply can complete a loss here
      const eLo = stepsLo[p]!, eHi = stepsHi[p]!;
      const [movesLo, movesHi] = kingFill(eLo, eHi);
      const [escLo, escHi] = kingFill(eLo & ~wonLo[p]!, eHi & ~wonHi[p]!);
      const lLo = legalWLo[p]! & ~lostLo[p]! & movesLo & ~escLo;
      const lHi = legalWHi[p]! & ~lostHi[p]! & movesHi & ~escHi;
      if ((lLo | lHi) === 0) continue;
      lostLo[p] = lostLo[p]! | lLo; lostHi[p] = lostHi[p]! | lHi;
      nextLo[p] = lLo; nextHi[p] = lHi; nextChanged[p] = 1;
      found += this.record((PLACEMENTS + p) * 64, lLo, lHi, ply);
    }
    return found;
  }
}

const bitLo = (sq: number): number => (sq < 32 ? 1 << sq : 0);
const bitHi = (sq: number): number => (sq < 32 ? 0 : 1 << (sq - 32));

/** The KBNK Endgame page's kingAttacks of a set, on int32 halves: every square next to a square of the set. */
const fill: [number, number] = [0, 0];
function kingFill(lo: number, hi: number): [number, number] {
  // east / west within each half (the masks drop the wrap between h and a files)
  const eLo = (lo << 1) & 0xfefefefe, eHi = (hi << 1) & 0xfefefefe;
  const wLo = (lo >>> 1) & 0x7f7f7f7f, wHi = (hi >>> 1) & 0x7f7f7f7f;
  const rowLo = lo | eLo | wLo, rowHi = hi | eHi | wHi;
  // north: << 8 across the halves; south: >>> 8 across the halves
  fill[0] = (eLo | wLo | (rowLo << 8) | (rowLo >>> 8) | (rowHi << 24)) | 0;
  fill[1] = (eHi | wHi | (rowHi << 8) | (rowLo >>> 24) | (rowHi >>> 8)) | 0;
  return fill;
}

/** The distance-to-mate table (KBNK_TABLE_SIZE bytes, layout v1). */
export function kbnkReferenceTable(): Uint8Array {
  const table = new Uint8Array(KBNK_TABLE_SIZE);
  const gen = new KbnkRetrograde(table);
  while (gen.step()) { /* one ply per step */ }
  return table;
}
