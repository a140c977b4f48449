/**
 * Syzygy tablebase prober, pure TypeScript (the twin of native/core/syzygy.h, step for step).
 *
 * Format (Ronald de Man's Syzygy tables, as documented by the generator github.com/syzygy1/tb and
 * described on the Chess Programming Wiki page "Syzygy Bases"): a table file holds, per side to
 * move and (for tables with pawns) per file a-d of the leading pawn, a list of positions enumerated
 * by a piece-placement index and compressed with a static "pairs" grammar (RE-PAIR) whose symbols
 * are Huffman-coded (canonical code) in fixed-size blocks; a sparse index every 2^idxbits entries
 * plus a table of block lengths locates the block of an index. WDL files store 0..4 (WDL + 2), DTZ
 * files store one side to move, a distance (in plies or in moves, per flags) possibly through a
 * value map per WDL class. On top of the raw lookup sits a small search: the tables assume the
 * position was reached by a zeroing move and store no position where a capture (or en passant) is
 * the best move, so captures and en passant are searched before the table value is trusted.
 *
 * Results follow python-chess's convention: WDL -2..2 from the side to move (-1 blessed loss,
 * 1 cursed win); DTZ signed plies to the next zeroing move (capture, pawn move, or mate), with the
 * format's documented rounding (a stored distance in moves can be one ply more than the true one).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE } from '../../core/types.js';
import { CodedError } from '../../core/coded-error.js';
import { errorText } from '../../core/position.js';
import { popcount32 } from '../../board/bits.js';
import { BOARD, C960, CASTLING, EP, IN_CHECK, MAX_MOVES, MOVES, PLY_WORDS, SIDE, enPassantCount, generate, play, typeAt } from '../../board/movegen.js';

// ---------------------------------------------------------------------------- errors

/** Why a table file was refused. */
export type SyzygyFileProblem = 'magic' | 'size' | 'name' | 'material' | 'layout' | 'data' | 'io';

/** A table file that is damaged, truncated, renamed or not a Syzygy table. */
export class SyzygyFileError extends CodedError<SyzygyFileProblem> {
  override readonly name = 'SyzygyFileError';
  readonly file: string;
  declare readonly problem: SyzygyFileProblem;
  constructor(file: string, problem: SyzygyFileProblem, message: string) {
    const f = errorText(file);
    super('problem', problem, `${basename(f)}: ${errorText(message)}`);
    this.file = f;
  }
}

/** Why a position cannot be probed. */
export type SyzygyReason = 'castling' | 'too-many-pieces' | 'missing-table';

/** A position the tables cannot answer (castling rights, too many pieces, a table not loaded). */
export class SyzygyError extends CodedError<SyzygyReason> {
  override readonly name = 'SyzygyError';
  declare readonly reason: SyzygyReason;
  constructor(reason: SyzygyReason, message: string) {
    super('reason', reason, message);
  }
}

// ---------------------------------------------------------------------------- square tables
// The index tables of the format, computed here from their definitions.

const fileOf = (sq: number) => sq & 7;
const rankOf = (sq: number) => sq >> 3;
/** rank - file: 0 on the a1-h8 diagonal, positive above it. */
const offDiag = (sq: number) => rankOf(sq) - fileOf(sq);
const flipDiag = (sq: number) => ((sq >> 3) | (sq << 3)) & 63;

function binomial(n: number, k: number): number {
  if (k < 0 || n < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return Math.round(r);
}

/** The ten classes of the a1-d1-d4 triangle, off-diagonal squares first: b1 c1 d1 c2 d2 d3, then a1 b2 c3 d4. */
const TRIANGLE_ORDER = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];
/** Each square's triangle class under the eight board symmetries. */
export const TRIANGLE = Int8Array.from({ length: 64 }, (_, sq) => {
  let f = fileOf(sq), r = rankOf(sq);
  if (f > 3) f = 7 - f;
  if (r > 3) r = 7 - r;
  if (r > f) [f, r] = [r, f];
  return TRIANGLE_ORDER.indexOf(r * 8 + f);
});
/** Squares below the diagonal numbered 0..27 in square order (above: the transpose), the diagonal 28..35. */
const LOWER = (() => {
  const t = new Int8Array(64);
  let n = 0;
  for (let sq = 0; sq < 64; sq++) if (offDiag(sq) < 0) t[sq] = n++;
  for (let sq = 0; sq < 64; sq++) if (offDiag(sq) > 0) t[sq] = t[flipDiag(sq)]!;
  for (let d = 0; d < 8; d++) t[d * 9] = 28 + d;
  return t;
})();
/** The a1-h8 diagonal 0..7, the h1-a8 diagonal 8..15. */
const DIAG = (() => {
  const t = new Int8Array(64);
  for (let i = 0; i < 8; i++) { t[i * 9] = i; t[7 + i * 7] = 8 + i; }
  return t;
})();
const kingsAdjacent = (a: number, b: number) => Math.max(Math.abs(fileOf(a) - fileOf(b)), Math.abs(rankOf(a) - rankOf(b))) <= 1;
/**
 * The 462 placements of two kings (first king in the triangle): per triangle class, second-king
 * squares not touching the first king in square order, for a first king on the diagonal only those
 * below it; the placements with both kings on the diagonal follow all the others.
 */
const KK_INDEX = (() => {
  const t = Array.from({ length: 10 }, () => new Int16Array(64).fill(-1));
  let n = 0;
  for (let c = 0; c < 10; c++) {
    const k = TRIANGLE_ORDER[c]!;
    for (let sq = 0; sq < 64; sq++) {
      if (kingsAdjacent(k, sq) || (c >= 6 && offDiag(sq) >= 0)) continue;
      t[c]![sq] = n++;
    }
  }
  for (let c = 6; c < 10; c++) {
    const k = TRIANGLE_ORDER[c]!;
    for (let sq = 0; sq < 64; sq++) if (offDiag(sq) === 0 && !kingsAdjacent(k, sq)) t[c]![sq] = n++;
  }
  return t;
})();
/** Leading-pawn squares a2..a7, b2..b7, c2..c7, d2..d7 (and the mirror) numbered 0..23. */
const FLAP = Int8Array.from({ length: 64 }, (_, sq) => {
  const r = rankOf(sq);
  if (r < 1 || r > 6) return 0;
  const f = Math.min(fileOf(sq), 7 - fileOf(sq));
  return f * 6 + r - 1;
});
/** The order of the other leading pawns: centre files and advanced ranks first. */
const PTWIST = Int8Array.from({ length: 64 }, (_, sq) => {
  const r = rankOf(sq), f = fileOf(sq);
  if (r < 1 || r > 6) return 0;
  return 12 * (3 - Math.min(f, 7 - f)) + 2 * (6 - r) + (f < 4 ? 1 : 0);
});
const INVFLAP = Int8Array.from({ length: 24 }, (_, j) => (j % 6 + 1) * 8 + Math.floor(j / 6));
/** PAWN_INDEX[k][flap]: offset of the leading-pawn placements of k+1 pawns; PAWN_FACTOR[k][file]: their count. */
const PAWN_INDEX: number[][] = [];
const PAWN_FACTOR: number[][] = [];
for (let k = 0; k < 5; k++) {
  PAWN_INDEX.push([]);
  PAWN_FACTOR.push([]);
  for (let file = 0; file < 4; file++) {
    let s = 0;
    for (let j = file * 6; j < file * 6 + 6; j++) {
      PAWN_INDEX[k]![j] = s;
      s += k === 0 ? 1 : binomial(PTWIST[INVFLAP[j]!]!, k);
    }
    PAWN_FACTOR[k]![file] = s;
  }
}
/** Placements of the first three unique pieces (encoding 0) and of the two kings (encoding 2). */
const PIVOT_FACTOR = [31332, 0, 462];

// ---------------------------------------------------------------------------- file reading

const WDL_MAGIC = 0x5d23e871;
const DTZ_MAGIC = 0xa50c66d7;

/** Material: counts of P N B R Q per colour, 3 bits each (pawns lowest), white in bits 0..14, black in 15..29. */
export type MaterialKey = number;
const TYPE_LETTERS = 'PNBRQK';
function keyFromCounts(white: number[], black: number[]): MaterialKey {
  let k = 0;
  for (let t = 0; t < 5; t++) k += white[t]! * 8 ** t + black[t]! * 8 ** (t + 5);
  return k;
}
export function mirrorKey(k: MaterialKey): MaterialKey {
  const w = k % 32768, b = Math.floor(k / 32768);
  return b + w * 32768;
}
/** Parses "KQvKR" into its material key (white = the part before v); null when it is not a table name. */
export function keyFromName(name: string): MaterialKey | null {
  const m = /^K([QRBNP]*)vK([QRBNP]*)$/.exec(name);
  if (!m) return null;
  const count = (s: string) => [0, 1, 2, 3, 4].map((t) => [...s].filter((c) => c === TYPE_LETTERS[t]).length);
  const w = count(m[1]!), b = count(m[2]!);
  if ([...w, ...b].some((c) => c > 7)) return null;
  return keyFromCounts(w, b);
}
export function nameFromKey(k: MaterialKey): string {
  const side = (v: number) => 'K' + [4, 3, 2, 1, 0].map((t) => TYPE_LETTERS[t]!.repeat(Math.floor(v / 8 ** t) % 8)).join('');
  return `${side(k % 32768)}v${side(Math.floor(k / 32768))}`;
}

/** One compressed list (a side to move, and a file of the leading pawn). */
interface Pairs {
  /** idxbits 0: every entry is `constValue`. */
  constValue: number;
  idxBits: number;
  blockSize: number;
  /** Blocks with data, and those plus the extra entries of the size table. */
  realBlocks: number;
  sizeBlocks: number;
  numIndices: number;
  minLen: number;
  maxLen: number;
  numSyms: number;
  /** File offsets. */
  lowestSym: number;
  symPat: number;
  indexTable: number;
  sizeTable: number;
  data: number;
  symLen: Uint8Array;
  /** base[l - minLen]: the first code of length l, left-aligned in 64 bits, as two 32-bit halves (hi may be 2^32: above every code). */
  baseHi: Float64Array;
  /** The lowest symbol of each code length (from the file). */
  lowest: Int32Array;
}

/** How one side to move (and file) is indexed: the pieces in index order and the factors. */
interface Encoding {
  pieces: Uint8Array;
  norm: Uint8Array;
  factor: Float64Array;
  size: number;
  pairs: Pairs;
}

/** Pairs with nothing read yet. */
function emptyPairs(): Pairs {
  return {
    constValue: 0, idxBits: 0, blockSize: 0, realBlocks: 0, sizeBlocks: 0, numIndices: 0, minLen: 0, maxLen: 0,
    numSyms: 0, lowestSym: 0, symPat: 0, indexTable: 0, sizeTable: 0, data: 0, symLen: new Uint8Array(0),
    baseHi: new Float64Array(0), lowest: new Int32Array(0),
  };
}

const u16 = (d: Uint8Array, p: number) => d[p]! | (d[p + 1]! << 8);
const u32 = (d: Uint8Array, p: number) => (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
const u32be = (d: Uint8Array, p: number) => ((d[p]! << 24) | (d[p + 1]! << 16) | (d[p + 2]! << 8) | d[p + 3]!) >>> 0;

/** A parsed table file (WDL or DTZ), read into memory on first use. */
export class TableFile {
  readonly path: string;
  readonly kind: 'wdl' | 'dtz';
  /** Material of the file name. */
  readonly nameKey: MaterialKey;
  readonly pieceCount: number;
  readonly hasPawns: boolean;
  /** Material as the encoding sees it (white = the first side of the header's piece list). */
  key: MaterialKey = 0;
  symmetric = false;
  /** Leading pawns and the other colour's pawns. */
  pawns: [number, number] = [0, 0];
  encType = 0;
  data: Uint8Array | null = null;
  /** [file][side] for WDL (side 1 absent when not split); [file][0] for DTZ. */
  enc: Encoding[][] = [];
  split = false;
  /** DTZ: per file, the flags byte and the offsets and lengths of the four value maps. */
  dtzFlags: number[] = [];
  mapStart: number[][] = [];
  mapLength: number[][] = [];

  /** The file's bytes when they were given instead of a path (scanBytes). */
  private readonly bytes: Uint8Array | undefined;

  constructor(path: string, kind: 'wdl' | 'dtz', nameKey: MaterialKey, bytes?: Uint8Array) {
    this.path = path;
    this.bytes = bytes;
    this.kind = kind;
    this.nameKey = nameKey;
    const name = nameFromKey(nameKey);
    this.pieceCount = name.length - 1;
    this.hasPawns = name.includes('P');
  }

  private fail(problem: SyzygyFileProblem, message: string): never {
    this.data = null;
    throw new SyzygyFileError(this.path, problem, message);
  }

  /** Reads and parses the file on first use; a SyzygyFileError when it is damaged. */
  load(): Uint8Array {
    if (this.data) return this.data;
    let d: Uint8Array;
    try {
      d = this.bytes ?? readFileSync(this.path);
    } catch (e) {
      return this.fail('io', `cannot read: ${(e as Error).message}`);
    }
    this.parse(d);
    this.data = d;
    return d;
  }

  /** Parses a file image (exposed for the tests' damaged copies). */
  parse(d: Uint8Array): void {
    if (d.length < 16 || d.length % 64 !== 16) this.fail('size', `file size ${d.length} is not 16 more than a multiple of 64 (truncated or not a Syzygy table)`);
    const magic = u32(d, 0);
    if (magic !== (this.kind === 'wdl' ? WDL_MAGIC : DTZ_MAGIC)) {
      this.fail('magic', `wrong magic 0x${magic.toString(16)}: not a Syzygy ${this.kind === 'wdl' ? 'WDL (.rtbw)' : 'DTZ (.rtbz)'} table`);
    }
    const num = this.pieceCount;
    const flagsByte = d[4]!;
    this.split = (flagsByte & 1) !== 0;
    if (((flagsByte & 2) !== 0) !== this.hasPawns) this.fail('name', 'the header says pawns where the file name has none, or the reverse');
    const files = this.hasPawns ? 4 : 1;
    const nameCounts = countsOfKey(this.nameKey);
    if (this.hasPawns) {
      const a = nameCounts[1][0]!, b = nameCounts[0][0]!;
      this.pawns = b > 0 && (a === 0 || b < a) ? [b, a] : [a, b];
    } else {
      let unique = 2;
      for (let t = 0; t < 5; t++) unique += (nameCounts[0][t] === 1 ? 1 : 0) + (nameCounts[1][t] === 1 ? 1 : 0);
      this.encType = unique >= 3 ? 0 : 2;
    }
    const sides = this.kind === 'wdl' && this.split ? 2 : 1;
    const perFile = num + 1 + (this.pawns[1] > 0 ? 1 : 0);
    let p = 5;
    if (p + files * perFile > d.length) this.fail('layout', 'header runs past the end');
    // pieces and orders
    this.enc = [];
    for (let f = 0; f < files; f++) {
      const row: Encoding[] = [];
      for (let s = 0; s < sides; s++) {
        const shift = s === 0 ? 0 : 4;
        const first = this.pawns[1] > 0 ? 2 : 1;
        const pieces = Uint8Array.from({ length: num }, (_, i) => (d[p + first + i]! >> shift) & 15);
        const order = (d[p]! >> shift) & 15;
        const order2 = this.pawns[1] > 0 ? (d[p + 1]! >> shift) & 15 : 15;
        this.checkPieces(pieces);
        const norm = new Uint8Array(num);
        const factor = new Float64Array(num);
        const size = this.hasPawns ? this.pawnFactors(pieces, norm, factor, order, order2, f) : this.pieceFactors(pieces, norm, factor, order);
        row.push({ pieces, norm, factor, size, pairs: emptyPairs() });  // read with the next pass
      }
      this.enc.push(row);
      p += perFile;
    }
    p += p & 1;
    // the encoding's own material, and its agreement with the file name
    const encPieces = this.enc[0]![0]!.pieces;
    const w = [0, 0, 0, 0, 0], b = [0, 0, 0, 0, 0];
    for (const c of encPieces) if ((c & 7) !== 6) (c & 8 ? b : w)[(c & 7) - 1]!++;
    this.key = keyFromCounts(w, b);
    if (this.key !== this.nameKey && this.key !== mirrorKey(this.nameKey)) {
      this.fail('material', `the file holds ${nameFromKey(this.key)}, not the ${nameFromKey(this.nameKey)} its name says (renamed?)`);
    }
    this.symmetric = this.key === mirrorKey(this.key);
    // pairs headers
    for (let f = 0; f < files; f++) {
      for (let s = 0; s < sides; s++) {
        const e = this.enc[f]![s]!;
        const r = this.readPairs(d, p, e.size);
        e.pairs = r.pairs;
        if (this.kind === 'dtz') this.dtzFlags[f] = d[p]!;
        p = r.next;
      }
    }
    // DTZ value maps
    if (this.kind === 'dtz') {
      for (let f = 0; f < files; f++) {
        const flags = this.dtzFlags[f]!;
        const starts: number[] = [], lengths: number[] = [];
        if (flags & 2) {
          const wide = (flags & 16) !== 0;
          if (wide && this.hasPawns) p += p & 1;
          for (let i = 0; i < 4; i++) {
            if (p + 2 > d.length) this.fail('layout', 'value maps run past the end');
            const len = wide ? u16(d, p) : d[p]!;
            starts.push(p + (wide ? 2 : 1));
            lengths.push(len);
            p += wide ? 2 + 2 * len : 1 + len;
          }
        }
        this.mapStart.push(starts);
        this.mapLength.push(lengths);
      }
      p += p & 1;
    }
    for (let f = 0; f < files; f++) for (const e of this.enc[f]!) { e.pairs.indexTable = p; p += e.pairs.idxBits ? 6 * e.pairs.numIndices : 0; }
    for (let f = 0; f < files; f++) for (const e of this.enc[f]!) { e.pairs.sizeTable = p; p += e.pairs.idxBits ? 2 * e.pairs.sizeBlocks : 0; }
    for (let f = 0; f < files; f++) {
      for (const e of this.enc[f]!) {
        if (!e.pairs.idxBits) continue;
        p = (p + 63) & ~63;
        e.pairs.data = p;
        p += e.pairs.realBlocks * 2 ** e.pairs.blockSize;
      }
    }
    if (p > d.length) this.fail('size', `the tables need ${p} bytes, the file has ${d.length} (truncated)`);
  }

  private checkPieces(pieces: Uint8Array): void {
    let kings = 0;
    for (const c of pieces) {
      const t = c & 7;
      if (t < 1 || t > 6 || (c & 8 && c > 14)) this.fail('data', `bad piece code ${c} in the header`);
      if (t === 6) kings++;
    }
    if (kings !== 2) this.fail('data', 'the header does not list two kings');
  }

  private pieceFactors(pieces: Uint8Array, norm: Uint8Array, factor: Float64Array, order: number): number {
    const num = this.pieceCount;
    norm[0] = this.encType === 0 ? 3 : 2;
    for (let i = norm[0]; i < num;) {
      let j = i;
      while (j < num && pieces[j] === pieces[i]) { norm[i]++; j++; }
      i += norm[i]!;
    }
    let n = 64 - norm[0], f = 1;
    for (let i = norm[0], k = 0; i < num || k === order; k++) {
      if (k > num) this.fail('data', 'bad piece order in the header');
      if (k === order) { factor[0] = f; f *= PIVOT_FACTOR[this.encType]!; }
      else { factor[i] = f; f *= binomial(n, norm[i]!); n -= norm[i]!; i += norm[i]!; }
    }
    return f;
  }

  private pawnFactors(pieces: Uint8Array, norm: Uint8Array, factor: Float64Array, order: number, order2: number, file: number): number {
    const num = this.pieceCount;
    const [lead, other] = this.pawns;
    if ((pieces[0]! & 7) !== 1) this.fail('data', 'a pawn table whose first piece is not a pawn');
    for (let i = 0; i < lead; i++) if (pieces[i] !== pieces[0]) this.fail('material', 'leading pawns do not match the file name');
    norm[0] = lead;
    if (other) norm[lead] = other;
    for (let i = lead + other; i < num;) {
      let j = i;
      while (j < num && pieces[j] === pieces[i]) { norm[i]++; j++; }
      i += norm[i]!;
    }
    let i = norm[0]!;
    if (order2 < 15) i += norm[i]!;
    let n = 64 - i, f = 1;
    for (let k = 0; i < num || k === order || k === order2; k++) {
      if (k > num) this.fail('data', 'bad piece order in the header');
      if (k === order) { factor[0] = f; f *= PAWN_FACTOR[norm[0]! - 1]![file]!; }
      else if (k === order2) { factor[norm[0]!] = f; f *= binomial(48 - norm[0]!, norm[norm[0]!]!); }
      else { factor[i] = f; f *= binomial(n, norm[i]!); n -= norm[i]!; i += norm[i]!; }
    }
    return f;
  }

  private readPairs(d: Uint8Array, p: number, size: number): { pairs: Pairs; next: number } {
    const pairs = emptyPairs();
    if (p + 2 > d.length) this.fail('layout', 'pairs header runs past the end');
    if (d[p]! & 0x80) {
      pairs.constValue = this.kind === 'wdl' ? d[p + 1]! : 0;
      if (this.kind === 'wdl' && pairs.constValue > 4) this.fail('data', `constant WDL value ${pairs.constValue}`);
      return { pairs, next: p + 2 };
    }
    if (p + 12 > d.length) this.fail('layout', 'pairs header runs past the end');
    pairs.blockSize = d[p + 1]!;
    pairs.idxBits = d[p + 2]!;
    pairs.realBlocks = u32(d, p + 4);
    pairs.sizeBlocks = pairs.realBlocks + d[p + 3]!;
    pairs.maxLen = d[p + 8]!;
    pairs.minLen = d[p + 9]!;
    if (pairs.blockSize < 1 || pairs.blockSize > 24 || pairs.idxBits < 1 || pairs.idxBits > 40) this.fail('data', 'bad block size or index bits');
    if (pairs.minLen < 1 || pairs.maxLen > 32 || pairs.maxLen < pairs.minLen) this.fail('data', `bad code lengths ${pairs.minLen}..${pairs.maxLen}`);
    const h = pairs.maxLen - pairs.minLen + 1;
    if (p + 12 + 2 * h > d.length) this.fail('layout', 'pairs header runs past the end');
    pairs.numSyms = u16(d, p + 10 + 2 * h);
    pairs.lowestSym = p + 10;
    pairs.symPat = p + 12 + 2 * h;
    const next = pairs.symPat + 3 * pairs.numSyms + (pairs.numSyms & 1);
    if (next > d.length) this.fail('layout', 'symbol table runs past the end');
    pairs.numIndices = Math.ceil(size / 2 ** pairs.idxBits);
    // symbol lengths (values each symbol expands to, minus one), with a check for cycles
    const len = new Uint8Array(pairs.numSyms); // values a symbol stands for, minus one (the format keeps it under 256)
    const state = new Uint8Array(pairs.numSyms);
    const visit = (s: number): void => {
      if (state[s] === 2) return;
      if (state[s] === 1) this.fail('data', 'the symbol grammar has a cycle');
      state[s] = 1;
      const w = pairs.symPat + 3 * s;
      const right = (d[w + 2]! << 4) | (d[w + 1]! >> 4);
      if (right === 0xfff) len[s] = 0;
      else {
        const left = ((d[w + 1]! & 15) << 8) | d[w]!;
        if (left >= pairs.numSyms || right >= pairs.numSyms) this.fail('data', 'a symbol refers past the symbol table');
        visit(left);
        visit(right);
        len[s] = len[left]! + len[right]! + 1;
        if (len[left]! + len[right]! + 1 > 255) this.fail('data', 'a symbol expands to too many values');
      }
      state[s] = 2;
    };
    for (let s = 0; s < pairs.numSyms; s++) visit(s);
    pairs.symLen = len;
    // canonical Huffman: the first code of each length, left-aligned
    const base = new Array<bigint>(h);
    base[h - 1] = 0n;
    for (let i = h - 2; i >= 0; i--) {
      const v = base[i + 1]! + BigInt(u16(d, pairs.lowestSym + 2 * i)) - BigInt(u16(d, pairs.lowestSym + 2 * i + 2));
      if (v < 0n || v % 2n) this.fail('data', 'inconsistent Huffman code table');
      base[i] = v / 2n;
    }
    pairs.baseHi = new Float64Array(h);
    pairs.lowest = new Int32Array(h);
    for (let i = 0; i < h; i++) {
      // the first code of length minLen + i, left-aligned in the top 32 bits
      // a first code beyond the length's range cannot come from the generator (Stockfish's reader wraps it to 0)
      if (base[i]! >= 1n << BigInt(pairs.minLen + i)) this.fail('data', 'inconsistent Huffman code table');
      pairs.baseHi[i] = Number(base[i]! << BigInt(32 - (pairs.minLen + i)));
      pairs.lowest[i] = u16(d, pairs.lowestSym + 2 * i);
    }
    return { pairs, next };
  }

  /** The stored value at `index` (WDL: 0..4; DTZ: 0..4095). */
  decompress(pr: Pairs, index: number): number {
    const d = this.data!;
    if (!pr.idxBits) return pr.constValue;
    const main = Math.floor(index / 2 ** pr.idxBits);
    if (main >= pr.numIndices) this.fail('data', 'index past the end of the table');
    let lit = index - main * 2 ** pr.idxBits - 2 ** (pr.idxBits - 1);
    let block = u32(d, pr.indexTable + 6 * main);
    if (block >= pr.sizeBlocks) this.fail('data', 'the sparse index points past the size table');
    lit += u16(d, pr.indexTable + 6 * main + 4);
    if (lit < 0) {
      while (lit < 0) {
        if (--block < 0 || block >= pr.sizeBlocks) this.fail('data', 'block walk outside the size table');
        lit += u16(d, pr.sizeTable + 2 * block) + 1;
      }
    } else {
      while (lit > u16(d, pr.sizeTable + 2 * block)) {
        lit -= u16(d, pr.sizeTable + 2 * block) + 1;
        if (++block >= pr.sizeBlocks) this.fail('data', 'block walk past the size table');
      }
    }
    if (block < 0 || block >= pr.realBlocks) this.fail('data', 'the sparse index points outside the blocks');
    const blockStart = pr.data + block * 2 ** pr.blockSize;
    const blockEnd = blockStart + 2 ** pr.blockSize;
    // The code window is 64 bits (hi:lo). Codes are at most 32 bits long, so every first code of a
    // length has zero low bits: comparing and decoding need only the high word.
    let ptr = blockStart + 8;
    let hi = ptr <= d.length ? u32be(d, blockStart) : 0;
    let lo = ptr + 4 <= d.length + 4 && blockStart + 8 <= d.length ? u32be(d, blockStart + 4) : 0;
    let bits = 0; // bits shifted out since the last refill
    const { minLen, baseHi, lowest, symLen } = pr;
    const numSyms = pr.numSyms;
    let sym: number;
    for (;;) {
      let l = 0;
      while (hi < baseHi[l]!) l++;
      const len = minLen + l;
      sym = lowest[l]! + ((hi - baseHi[l]!) >>> (32 - len));
      if (sym >= numSyms) this.fail('data', 'a code decodes past the symbol table');
      const sl = symLen[sym]! + 1;
      if (lit < sl) break;
      lit -= sl;
      if (len === 32) { hi = lo; lo = 0; } else { hi = ((hi << len) | (lo >>> (32 - len))) >>> 0; lo = (lo << len) >>> 0; }
      bits += len;
      if (bits >= 32) {
        bits -= 32;
        if (ptr >= blockEnd + 8) this.fail('data', 'a block decodes past its end');
        const v = ptr + 4 <= d.length ? u32be(d, ptr) : 0;
        ptr += 4;
        lo = (lo | (v << bits)) >>> 0;
        if (bits) hi = (hi | (v >>> (32 - bits))) >>> 0;
      }
    }
    while (symLen[sym]!) {
      const w = pr.symPat + 3 * sym;
      const left = ((d[w + 1]! & 15) << 8) | d[w]!;
      if (lit < symLen[left]! + 1) sym = left;
      else { lit -= symLen[left]! + 1; sym = (d[w + 2]! << 4) | (d[w + 1]! >> 4); }
    }
    const w = pr.symPat + 3 * sym;
    return this.kind === 'wdl' ? d[w]! : ((d[w + 1]! & 15) << 8) | d[w]!;
  }
}

function countsOfKey(k: MaterialKey): [number[], number[]] {
  const w = [0, 1, 2, 3, 4].map((t) => Math.floor(k / 8 ** t) % 8);
  const b = [0, 1, 2, 3, 4].map((t) => Math.floor(k / 8 ** (t + 5)) % 8);
  return [w, b];
}

// ---------------------------------------------------------------------------- index encoding

/** Index of a pawnless placement (pos: squares in the encoding's piece order; modified). */
function encodePieces(enc: Encoding, encType: number, pos: number[], n: number): number {
  if (pos[0]! & 4) for (let i = 0; i < n; i++) pos[i] ^= 7;
  if (pos[0]! & 32) for (let i = 0; i < n; i++) pos[i] ^= 56;
  let first = 0;
  while (first < n && offDiag(pos[first]!) === 0) first++;
  if (first < n && first < (encType === 0 ? 3 : 2) && offDiag(pos[first]!) > 0) for (let i = 0; i < n; i++) pos[i] = flipDiag(pos[i]!);
  let idx: number;
  let i: number;
  if (encType === 0) {
    const a = pos[0]!, b = pos[1]!, c = pos[2]!;
    const bi = b > a ? 1 : 0, ci = (c > a ? 1 : 0) + (c > b ? 1 : 0);
    if (offDiag(a)) idx = TRIANGLE[a]! * 63 * 62 + (b - bi) * 62 + (c - ci);
    else if (offDiag(b)) idx = 6 * 63 * 62 + DIAG[a]! * 28 * 62 + LOWER[b]! * 62 + c - ci;
    else if (offDiag(c)) idx = 6 * 63 * 62 + 4 * 28 * 62 + DIAG[a]! * 7 * 28 + (DIAG[b]! - bi) * 28 + LOWER[c]!;
    else idx = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + DIAG[a]! * 7 * 6 + (DIAG[b]! - bi) * 6 + (DIAG[c]! - ci);
    i = 3;
  } else {
    idx = KK_INDEX[TRIANGLE[pos[0]!]!]![pos[1]!]!;
    i = 2;
  }
  idx *= enc.factor[0]!;
  return idx + encodeGroups(enc, pos, i, n, 0);
}

/** The index contribution of the groups of like pieces from `i` on (squares below skipped). */
function encodeGroups(enc: Encoding, pos: number[], i: number, n: number, skip: number): number {
  let idx = 0;
  for (; i < n; i += enc.norm[i]!) {
    const t = enc.norm[i]!;
    sortRange(pos, i, i + t);
    let s = 0;
    for (let m = i; m < i + t; m++) {
      const p = pos[m]!;
      let below = 0;
      for (let l = 0; l < i; l++) if (p > pos[l]!) below++;
      s += binomial(p - below - skip, m - i + 1);
    }
    idx += s * enc.factor[i]!;
  }
  return idx;
}

function sortRange(a: number[], from: number, to: number): void {
  for (let j = from + 1; j < to; j++) {
    const v = a[j]!;
    let k = j - 1;
    while (k >= from && a[k]! > v) { a[k + 1] = a[k]!; k--; }
    a[k + 1] = v;
  }
}

/** Index of a placement with pawns (leading pawns first in pos, already on files a-d). */
function encodePawns(enc: Encoding, pawns: [number, number], pos: number[], n: number): number {
  if (pos[0]! & 4) for (let i = 0; i < n; i++) pos[i] ^= 7;
  const lead = pawns[0];
  // the other leading pawns by PTWIST, descending
  for (let j = 2; j < lead; j++) {
    const v = pos[j]!;
    let k = j - 1;
    while (k >= 1 && PTWIST[pos[k]!]! < PTWIST[v]!) { pos[k + 1] = pos[k]!; k--; }
    pos[k + 1] = v;
  }
  const t = lead - 1;
  let idx = PAWN_INDEX[t]![FLAP[pos[0]!]!]!;
  for (let i = t; i > 0; i--) idx += binomial(PTWIST[pos[i]!]!, t - i + 1);
  idx *= enc.factor[0]!;
  let i = lead;
  if (pawns[1]) {
    const end = lead + pawns[1];
    sortRange(pos, i, end);
    let s = 0;
    for (let m = i; m < end; m++) {
      const p = pos[m]!;
      let below = 0;
      for (let l = 0; l < i; l++) if (p > pos[l]!) below++;
      s += binomial(p - below - 8, m - i + 1);
    }
    idx += s * enc.factor[i]!;
    i = end;
  }
  return idx + encodeGroups(enc, pos, i, n, 0);
}

// ---------------------------------------------------------------------------- positions and moves

/**
 * The probe search runs on the twin's board and move generator (movegen.ts), as every other caller
 * of the generator does: a position is a ply of the BOARD stack, `generate` lists its legal moves
 * (from | to << 6 | promotion << 12, promotion 1 knight .. 4 queen) on the ply's part of MOVES, and
 * `play` makes a child on the next ply. A search starts at SEARCH_PLY, above the plies perft and
 * the one-position calls use, and goes a few plies deeper (the captures of at most 7 pieces, then
 * one non-zeroing move). The material key that names a position's table is computed from the board
 * once and then carried along the search: a capture or a promotion changes it (keyAfter). Table
 * piece codes are colour << 3 | type with type 1..6 = P N B R Q K, one more than movegen's types.
 */
export const SEARCH_PLY = 32;

/** Is sq in the set whose lo half is word `w` of the board at o? */
const inSet = (o: number, w: number, sq: number) => ((BOARD[o + w + (sq >> 5)]! >>> (sq & 31)) & 1) !== 0;

/** The material key's unit for one piece of a colour and a type 0..4 (pawn .. queen). */
const keyUnit = (color: number, type: number) => 8 ** (type + 5 * color);

/** The material key of ply p's board (kings are not counted). */
export function materialKeyAt(p: number): MaterialKey {
  const B = BOARD, o = p * PLY_WORDS;
  let key = 0;
  for (let c = 0; c < 2; c++) {
    for (let t = 0; t < 5; t++) {
      const n = popcount32(B[o + 2 * c]! & B[o + 4 + 2 * t]!) + popcount32(B[o + 2 * c + 1]! & B[o + 5 + 2 * t]!);
      key += n * keyUnit(c, t);
    }
  }
  return key;
}

const isEnPassant = (o: number, m: number) => ((m >> 6) & 63) === BOARD[o + EP] && inSet(o, 4, m & 63);
const isCapture = (o: number, m: number) => inSet(o, 0, (m >> 6) & 63) || inSet(o, 2, (m >> 6) & 63) || isEnPassant(o, m);
const isZeroing = (o: number, m: number) => isCapture(o, m) || inSet(o, 4, m & 63);

/** The key after the legal move m of ply p's board, whose key is `key`. */
function keyAfter(p: number, key: MaterialKey, m: number): MaterialKey {
  const o = p * PLY_WORDS, us = BOARD[o + SIDE]!, them = us ^ 1, to = (m >> 6) & 63, promo = m >> 12;
  if (inSet(o, 2 * them, to)) key -= keyUnit(them, typeAt(o, to));
  else if (isEnPassant(o, m)) key -= keyUnit(them, 0);
  if (promo) key += keyUnit(us, promo) - keyUnit(us, 0);
  return key;
}

/** Is the side to move of ply p's board checkmated? */
export function isCheckmate(p: number): boolean {
  return generate(p, true) === 0 && BOARD[p * PLY_WORDS + IN_CHECK] === 1;
}

/** The order of equal root moves: by from square, then to square, then promotion queen first (native's rootOrder). */
export const rootOrder = (m: number) => ((m & 63) << 9) | (((m >> 6) & 63) << 3) | (7 - (m >> 12));

/** The legal moves of ply p's board in rootOrder (a copy: the search reuses the ply's move list). */
export function rootMoves(p: number): number[] {
  const n = generate(p, false);
  return Array.from(MOVES.subarray(p * MAX_MOVES, p * MAX_MOVES + n)).sort((a, b) => rootOrder(a) - rootOrder(b));
}

// ---------------------------------------------------------------------------- the prober

const WDL_TO_MAP = [1, 3, 0, 2, 0];
const PA_FLAGS = [8, 0, 0, 0, 4];
const WDL_TO_DTZ = [-1, -101, 0, 101, 1];

export interface TableSet {
  wdl: Map<MaterialKey, TableFile>;
  dtz: Map<MaterialKey, TableFile>;
  maxPieces: number;
}

/**
 * Adds the tables among `names` (regular chess: .rtbw / .rtbz, names like KQvKR; other names are
 * ignored) to `set`, each opened by `open`; a table whose material (or its mirror) the set already
 * holds is passed over, so the first one found wins.
 */
function addTables(set: TableSet, names: readonly string[], open: (name: string, kind: 'wdl' | 'dtz', key: MaterialKey) => TableFile): void {
  for (const name of names) {
    const m = /^(K[QRBNP]*vK[QRBNP]*)\.(rtbw|rtbz)$/.exec(name);
    if (!m) continue;
    const key = keyFromName(m[1]!);
    if (key === null) continue;
    const kind = m[2] === 'rtbw' ? 'wdl' : 'dtz';
    const map = set[kind];
    if (map.has(key) || map.has(mirrorKey(key))) continue;
    const file = open(name, kind, key);
    map.set(key, file);
    set.maxPieces = Math.max(set.maxPieces, file.pieceCount);
  }
}

/** Finds the tables in the directories (the first directory wins). */
export function scanDirectories(dirs: readonly string[]): TableSet {
  const set: TableSet = { wdl: new Map(), dtz: new Map(), maxPieces: 0 };
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SyzygyFileError(dir, 'io', 'not a directory');
    addTables(set, readdirSync(dir).sort(), (name, kind, key) => new TableFile(join(dir, name), kind, key));
  }
  return set;
}

/**
 * The tables of files given as bytes by name ('KQvK.rtbw', ...: the names a directory would hold;
 * other names are ignored, as in a directory): for pages and other places without a file system.
 */
export function scanBytes(files: ReadonlyMap<string, Uint8Array>): TableSet {
  const set: TableSet = { wdl: new Map(), dtz: new Map(), maxPieces: 0 };
  addTables(set, [...files.keys()].sort(), (name, kind, key) => new TableFile(name, kind, key, files.get(name)));
  return set;
}

/**
 * How a position meets a table: [colour flip of the piece codes, rank flip of the squares, the side
 * to move's half]. A symmetric table stores white to move only (black to move is mirrored); a
 * table named for the other colour's material is read with colours and ranks swapped.
 */
function sidesOf(t: TableFile, stm: number, key: MaterialKey): [number, number, number] {
  if (t.symmetric) return [stm ? 8 : 0, stm ? 56 : 0, 0];
  if (key !== t.key) return [8, 56, stm === 0 ? 1 : 0];
  return [0, 0, stm];
}

/** The probe search over a set of tables (python-chess's semantics), on plies of movegen.ts's BOARD. */
export class Prober {
  constructor(readonly tables: TableSet) {}

  private find(kind: 'wdl' | 'dtz', key: MaterialKey): TableFile {
    const t = this.tables[kind].get(key) ?? this.tables[kind].get(mirrorKey(key));
    if (!t) throw new SyzygyError('missing-table', `no ${kind === 'wdl' ? 'WDL' : 'DTZ'} table for ${nameFromKey(key)}`);
    t.load();
    return t;
  }

  /** Squares of the pieces in the encoding's order (each group of one piece code in square order). */
  private collect(o: number, pieces: Uint8Array, cmirror: number, mirror: number, pos: number[], from: number, n: number): void {
    const B = BOARD;
    for (let i = from; i < n;) {
      const want = pieces[i]! ^ cmirror;
      const c = o + 2 * (want >> 3), t = o + 4 + 2 * ((want & 7) - 1);
      const start = i;
      let lo = B[c]! & B[t]!, hi = B[c + 1]! & B[t + 1]!;
      while (lo && i < n) { pos[i++] = (31 - Math.clz32(lo & -lo)) ^ mirror; lo &= lo - 1; }
      while (hi && i < n) { pos[i++] = (63 - Math.clz32(hi & -hi)) ^ mirror; hi &= hi - 1; }
      if (i === start) throw new SyzygyFileError('(table)', 'material', 'the table does not fit the position');
    }
  }

  /** Raw WDL of ply p's board from the table (no capture search). */
  rawWdl(p: number, key: MaterialKey): number {
    const t = this.find('wdl', key);
    const o = p * PLY_WORDS;
    const [cmirror, mirror, side] = sidesOf(t, BOARD[o + SIDE]!, key);
    const n = t.pieceCount;
    const pos = new Array<number>(n);
    let enc: Encoding;
    if (!t.hasPawns) {
      enc = t.enc[0]![side] ?? t.enc[0]![0]!;
      if (side && !t.split) throw new SyzygyFileError(t.path, 'layout', 'one-sided WDL table probed for the other side');
      this.collect(o, enc.pieces, cmirror, 0, pos, 0, n);
      const v = t.decompress(enc.pairs, encodePieces(enc, t.encType, pos, n));
      return this.checkWdl(t, v);
    }
    const file = this.pawnFile(o, t, cmirror, mirror, pos);
    if (side && !t.split) throw new SyzygyFileError(t.path, 'layout', 'one-sided WDL table probed for the other side');
    enc = t.enc[file]![side]!;
    this.collect(o, enc.pieces, cmirror, mirror, pos, t.pawns[0], n);
    return this.checkWdl(t, t.decompress(enc.pairs, encodePawns(enc, t.pawns, pos, n)));
  }

  private checkWdl(t: TableFile, v: number): number {
    if (v > 4) throw new SyzygyFileError(t.path, 'data', `stored WDL value ${v}`);
    return v - 2;
  }

  /** Collects the leading pawns into pos[0..] with the most advanced-to-file pawn first; returns its file 0..3. */
  private pawnFile(o: number, t: TableFile, cmirror: number, mirror: number, pos: number[]): number {
    this.collect(o, t.enc[0]![0]!.pieces, cmirror, mirror, pos, 0, t.pawns[0]);
    for (let i = 1; i < t.pawns[0]; i++) if (FLAP[pos[0]!]! > FLAP[pos[i]!]!) [pos[0], pos[i]] = [pos[i]!, pos[0]!];
    const f = fileOf(pos[0]!);
    return Math.min(f, 7 - f);
  }

  /** Raw DTZ from the table for ply p's board of WDL `wdl`; null when the table stores the other side. */
  rawDtz(p: number, key: MaterialKey, wdl: number): number | null {
    const t = this.find('dtz', key);
    const o = p * PLY_WORDS;
    const [cmirror, mirror, side] = sidesOf(t, BOARD[o + SIDE]!, key);
    const n = t.pieceCount;
    const pos = new Array<number>(n);
    let file = 0;
    let v: number;
    if (!t.hasPawns) {
      if ((t.dtzFlags[0]! & 1) !== side && !t.symmetric) return null;
      const enc = t.enc[0]![0]!;
      this.collect(o, enc.pieces, cmirror, 0, pos, 0, n);
      v = t.decompress(enc.pairs, encodePieces(enc, t.encType, pos, n));
    } else {
      file = this.pawnFile(o, t, cmirror, mirror, pos);
      if ((t.dtzFlags[file]! & 1) !== side) return null;
      const enc = t.enc[file]![0]!;
      this.collect(o, enc.pieces, cmirror, mirror, pos, t.pawns[0], n);
      v = t.decompress(enc.pairs, encodePawns(enc, t.pawns, pos, n));
    }
    const flags = t.dtzFlags[file]!;
    if (flags & 2) {
      const m = WDL_TO_MAP[wdl + 2]!;
      if (v >= t.mapLength[file]![m]!) throw new SyzygyFileError(t.path, 'data', 'a DTZ value outside its map');
      const at = t.mapStart[file]![m]!;
      v = flags & 16 ? u16(t.data!, at + 2 * v) : t.data![at + v]!;
    }
    if (!(flags & PA_FLAGS[wdl + 2]!) || (wdl & 1)) v *= 2;
    return v;
  }

  /** A position of the two kings alone is a draw and has no table. */
  private tableWdl(p: number, key: MaterialKey): number {
    return key === 0 ? 0 : this.rawWdl(p, key);
  }

  /**
   * Alpha-beta over captures on top of the table (which stores nothing useful where a capture is
   * best). Returns [value, how]: how 2 = a capture reaches the value, 1 = the table value stands.
   */
  probeAb(p: number, key: MaterialKey, alpha: number, beta: number): [number, number] {
    const o = p * PLY_WORDS, them = BOARD[o + SIDE]! ^ 1, at = p * MAX_MOVES;
    const n = generate(p, false);
    for (let i = 0; i < n; i++) {
      const m = MOVES[at + i]!;
      if (!inSet(o, 2 * them, (m >> 6) & 63)) continue; // captures only, en passant aside
      const next = keyAfter(p, key, m);
      play(p, m);
      const v = -this.probeAb(p + 1, next, -beta, -alpha)[0];
      if (v > alpha) {
        if (v >= beta) return [v, 2];
        alpha = v;
      }
    }
    const v = this.tableWdl(p, key);
    return alpha >= v ? [alpha, alpha > 0 ? 2 : 1] : [v, 1];
  }

  /** The best en-passant capture's WDL (for the side to move) among ply p's n moves, or -3 when there is none. */
  private epValue(p: number, key: MaterialKey, n: number): number {
    const o = p * PLY_WORDS, at = p * MAX_MOVES;
    let best = -3;
    for (let i = 0; i < n; i++) {
      const m = MOVES[at + i]!;
      if (!isEnPassant(o, m)) continue;
      const next = keyAfter(p, key, m);
      play(p, m);
      const v = -this.probeAb(p + 1, next, -2, 2)[0];
      if (v > best) best = v;
    }
    return best;
  }

  /** Are all of ply p's n moves en-passant captures? */
  private allEp(p: number, n: number): boolean {
    const o = p * PLY_WORDS, at = p * MAX_MOVES;
    for (let i = 0; i < n; i++) if (!isEnPassant(o, MOVES[at + i]!)) return false;
    return true;
  }

  wdl(p: number, key = materialKeyAt(p)): number {
    let v = this.probeAb(p, key, -2, 2)[0] || 0;
    if (BOARD[p * PLY_WORDS + EP]! < 0) return v;
    const n = generate(p, false);
    const ep = this.epValue(p, key, n);
    if (ep > -3) {
      if (ep >= v) v = ep;
      else if (v === 0 && this.allEp(p, n)) v = ep;
    }
    return v || 0; // never -0
  }

  private dtzNoEp(p: number, key: MaterialKey): number {
    const [wdl, how] = this.probeAb(p, key, -2, 2);
    if (wdl === 0) return 0;
    const beforeZeroing = wdl > 0 ? (wdl === 2 ? 1 : 101) : (wdl === -2 ? -1 : -101);
    if (how === 2) return beforeZeroing;
    const o = p * PLY_WORDS, at = p * MAX_MOVES;
    const n = generate(p, false);
    if (wdl > 0) {
      // a pawn move that keeps the win zeroes at once
      for (let i = 0; i < n; i++) {
        const m = MOVES[at + i]!;
        if (!inSet(o, 4, m & 63) || isCapture(o, m)) continue;
        const next = keyAfter(p, key, m);
        play(p, m);
        if (-this.wdl(p + 1, next) === wdl) return wdl === 2 ? 1 : 101;
      }
    }
    const stored = this.rawDtz(p, key, wdl);
    if (stored !== null) return beforeZeroing + (wdl > 0 ? stored : -stored);
    if (wdl > 0) {
      let best = 0xffff;
      for (let i = 0; i < n; i++) {
        const m = MOVES[at + i]!;
        if (isZeroing(o, m)) continue;
        play(p, m);
        const v = -this.dtz(p + 1, key);
        if (v === 1 && isCheckmate(p + 1)) best = 1;
        else if (v > 0 && v + 1 < best) best = v + 1;
      }
      return best;
    }
    let best = -1;
    for (let i = 0; i < n; i++) {
      const m = MOVES[at + i]!;
      const zeroing = isZeroing(o, m);
      const next = keyAfter(p, key, m);
      play(p, m);
      let v: number;
      if (zeroing) {
        if (wdl === -2) v = -1;
        else v = this.probeAb(p + 1, next, 1, 2)[0] === 2 ? 0 : -101;
      } else {
        v = -this.dtz(p + 1, next) - 1;
      }
      if (v < best) best = v;
    }
    return best;
  }

  dtz(p: number, key = materialKeyAt(p)): number {
    let v = this.dtzNoEp(p, key) || 0;
    if (BOARD[p * PLY_WORDS + EP]! < 0) return v;
    const n = generate(p, false);
    let ep = this.epValue(p, key, n);
    if (ep <= -3) return v;
    ep = WDL_TO_DTZ[ep + 2]!;
    if (v < -100) { if (ep >= 0) v = ep; }
    else if (v < 0) { if (ep >= 0 || ep < -100) v = ep; }
    else if (v > 100) { if (ep > 0) v = ep; }
    else if (v > 0) { if (ep === 1) v = ep; }
    else if (ep >= 0) v = ep;
    else if (this.allEp(p, n)) v = ep;
    return v;
  }
}

// ---------------------------------------------------------------------------- positions in, results out

const KING_PAIR = (w: bigint) => w !== 0n && (w & (w - 1n)) === 0n;

/**
 * Loads the packed layout (lib/core/types.ts) at word `at` onto ply p of movegen.ts's BOARD, with
 * its castling rights, piece count and whether the words form a position the tables can be asked
 * about (sets disjoint and consistent, one king per colour, no pawn on the first or last rank, the
 * side not to move not in check, a sane en-passant code; native's boardFromPacked). An en-passant
 * square without the pawn that just moved two squares or that no legal capture uses is dropped.
 */
export function boardFromPacked(words: BigUint64Array, at: number, p = SEARCH_PLY): { castling: number; count: number; valid: boolean } {
  const white = words[at]!, black = words[at + 1]!;
  let valid = (white & black) === 0n;
  let union = 0n;
  for (let t = 0; t < 6; t++) {
    const set = words[at + 2 + t]!;
    if (union & set) valid = false;
    union |= set;
  }
  if (union !== (white | black)) valid = false;
  if (words[at + 2]! & 0xff000000000000ffn) valid = false;
  const kings = words[at + 7]!;
  if (!KING_PAIR(white & kings) || !KING_PAIR(black & kings)) valid = false;
  const state = Number(words[at + 8]! & 0xffffn);
  const stm = state & 1;
  const epCode = (state >> 8) & 255;
  if (state & 0xc0 || epCode > 64 || (epCode < 64 && rankOf(epCode) !== (stm ? 2 : 5))) valid = false;
  const count = popcount32(Number(union & 0xffffffffn)) + popcount32(Number(union >> 32n));
  const o = p * PLY_WORDS, B = BOARD;
  for (let i = 0; i < 8; i++) {
    const w = words[at + i]!;
    B[o + 2 * i] = Number(w & 0xffffffffn) | 0;
    B[o + 2 * i + 1] = Number(w >> 32n) | 0;
  }
  B[o + SIDE] = stm;
  B[o + CASTLING] = 0;
  B[o + C960] = 0;
  B[o + EP] = -1;
  if (valid) {
    // the side not to move in check: the side to move would have a king capture
    B[o + SIDE] = stm ^ 1;
    generate(p, true);
    if (B[o + IN_CHECK] === 1) valid = false;
    B[o + SIDE] = stm;
  }
  if (valid && epCode < 64) {
    const up = stm === 0 ? 8 : -8, ep = epCode;
    B[o + EP] = ep;
    const behind = ep - up, origin = ep + up;
    const pawnBehind = inSet(o, 2 * (stm ^ 1), behind) && inSet(o, 4, behind);
    const occupied = (sq: number) => inSet(o, 0, sq) || inSet(o, 2, sq);
    if (!pawnBehind || occupied(ep) || occupied(origin) || enPassantCount(p) === 0) B[o + EP] = -1;
  }
  return { castling: (state >> 1) & 15, count, valid };
}

// No result in a batch output (castling rights, too many pieces or a missing table): SYZYGY_WDL_NONE
// and SYZYGY_DTZ_NONE of lib/core/types.ts.
export { SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE };

/** Batch probe over packed positions; unanswerable or invalid positions get the NONE value, damaged files throw. */
export function probeBatch(prober: Prober, positions: BigUint64Array, kind: 'wdl' | 'dtz', out: Int8Array | Int16Array, valid?: Uint8Array | null): void {
  const n = out.length;
  const none = kind === 'wdl' ? SYZYGY_WDL_NONE : SYZYGY_DTZ_NONE;
  for (let i = 0; i < n; i++) {
    if (valid && !valid[i]) { out[i] = none; continue; }
    const r = boardFromPacked(positions, i * 10);
    if (!r.valid || r.castling || r.count > prober.tables.maxPieces) { out[i] = none; continue; }
    try {
      out[i] = kind === 'wdl' ? prober.wdl(SEARCH_PLY) : prober.dtz(SEARCH_PLY);
    } catch (e) {
      if (e instanceof SyzygyError) out[i] = none;
      else throw e;
    }
  }
}
