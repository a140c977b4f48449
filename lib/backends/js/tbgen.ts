/**
 * The general tablebase generator in plain JS numbers; twin of `native/core/tbgen.h` (same layout,
 * byte for byte the same tables), for up to 4 pieces. Set-wise retrograde analysis (Chess
 * Programming Wiki: Retrograde Analysis): every 64-bit set of black-king squares is a pair of int32
 * halves (lo = squares 0..31, hi = 32..63) in Int32Arrays, one pair per placement of the other
 * pieces and side to move. See tbgen.h for the algorithm: odd plies union the lost sets of the
 * successors (wins), even plies intersect the escapes (losses); captures and promotions are probed
 * once in the sub-endings' tables. When black has only its king, a win ply and the next loss ply
 * share one pass (black's losses at a placement need only white's wins there), as the KBNK
 * generator (kbnk.ts) pairs its plies.
 */
import { KING_TARGETS, KNIGHT_TARGETS, RAYS } from '../../board/bitboard.js';
import { popcount32 } from '../../board/bits.js';

export const JS_MAX_PIECES = 4;
const MAX_PIECES = 5;
const MAX_PLIES = 253;
const DRAW = 254, ILLEGAL = 255;
/**
 * DTZ tables (tbgen.h): a loss in d plies is d (d <= DTZ_MAX_LOSS), a win in d plies DTZ_WIN_BASE + d;
 * DTZ_LONG_LOSS is a loss in 126 plies or more, DTZ_LONG_WIN a win in 127 or more, the exact distance
 * of those beyond in the table's long values.
 */
export const DTZ_MAX_LOSS = 126, DTZ_WIN_BASE = 126, DTZ_LONG_LOSS = 126, DTZ_LONG_WIN = 253;
const DTZ_MAX_PLIES = 65535;

/** Syzygy's WDL class of a DTZ table byte (2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss). */
export function dtzClass(v: number): number {
  if (v === DRAW || v === ILLEGAL) return 0;
  if (v <= DTZ_MAX_LOSS) return v <= 100 ? -2 : -1;
  return v - DTZ_WIN_BASE <= 100 ? 2 : 1;
}
/** Score of a zeroing move for the mover from the class of the position after it (tbgen.h's seedScore). */
export function dtzSeedScore(oc: number): number {
  return SEED_SCORES[oc + 2]!;
}
/** By class + 2: a win in 1 ply, in 101 (cursed), a draw, a loss in 101 (blessed), in 1. */
const SEED_SCORES = [1000 - 1, 1000 - 101, 0, -1000 + 101, -1000 + 1];
const PAWN = 0, KNIGHT = 1, BISHOP = 2, ROOK = 3, QUEEN = 4, KING = 5;

export interface TbMaterial {
  /** 'KQvKR' form (canonical: pieces in Q R B N P order). */
  name: string;
  n: number;
  colors: number[];
  types: number[];
  pawns: boolean;
}

/** Sort key of the slot order: white king, white pieces (queen first), black pieces, black king. */
export function tbSlotKey(color: number, type: number): number {
  return type === KING ? (color ? 20 : 0) : (color ? 10 : 1) + (5 - type);
}

/** Parses a material name ('KQvKR', any order of the letters after each K); RangeError when malformed. */
export function tbParse(fn: string, text: string): TbMaterial {
  const bad = (why: string) => new RangeError(`${fn}: bad material ${JSON.stringify(String(text).slice(0, 40))}: ${why}`);
  if (typeof text !== 'string') throw new TypeError(`${fn}: material must be a string such as "KQvKR"`);
  const sides = text.split('v');
  if (sides.length !== 2) throw bad("write white's pieces, 'v', black's (e.g. KQvKR)");
  const pieces: [number, number][] = [];
  sides.forEach((side, c) => {
    for (const ch of side) {
      const t = 'PNBRQK'.indexOf(ch);
      if (t < 0) throw bad(`unknown piece letter ${JSON.stringify(ch)}`);
      pieces.push([c, t]);
    }
  });
  for (const c of [0, 1]) if (pieces.filter(([pc, t]) => pc === c && t === KING).length !== 1) throw bad('each side needs exactly one king');
  if (pieces.length > MAX_PIECES) throw bad(`at most ${MAX_PIECES} pieces`);
  pieces.sort((a, b) => tbSlotKey(a[0], a[1]) - tbSlotKey(b[0], b[1]));
  const colors = pieces.map((p) => p[0]), types = pieces.map((p) => p[1]);
  const letters = (c: number) => 'K' + pieces.filter(([pc, t]) => pc === c && t !== KING).map(([, t]) => 'PNBRQK'[t]).join('');
  return { name: `${letters(0)}v${letters(1)}`, n: pieces.length, colors, types, pawns: types.includes(PAWN) };
}

export function tbTableSize(m: TbMaterial): number {
  return 2 * (m.pawns ? 32 : 10) * 64 ** (m.n - 1);
}

/** The materials captures and promotions of m lead to (each table needs them first), sorted. */
export function tbSubMaterials(m: TbMaterial): string[] {
  const out = new Set<string>();
  const name = (pieces: [number, number][]) => {
    const letters = (c: number) => 'K' + pieces.filter(([pc, t]) => pc === c && t !== KING)
      .sort((a, b) => b[1] - a[1]).map(([, t]) => 'PNBRQK'[t]).join('');
    return `${letters(0)}v${letters(1)}`;
  };
  const base: [number, number][] = m.colors.map((c, i) => [c, m.types[i]!]);
  const promotions = (pieces: [number, number][], color: number, add: (p: [number, number][]) => void) => {
    pieces.forEach(([c, t], i) => {
      if (c !== color || t !== PAWN) return;
      for (const pr of [QUEEN, ROOK, BISHOP, KNIGHT]) add(pieces.map((p, j) => (j === i ? [c, pr] : p)));
    });
  };
  for (const mover of [0, 1]) {
    base.forEach(([c, t], i) => {
      if (c === mover || t === KING) return;
      const captured = base.filter((_, j) => j !== i);
      out.add(name(captured));
      promotions(captured, mover, (p) => out.add(name(p)));
    });
    promotions(base, mover, (p) => out.add(name(p)));
  }
  return [...out].sort();
}

// ---------------------------------------------------------------------------- squares and sets

const TRIANGLE = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];
const TRIANGLE_INDEX = new Int8Array(64).fill(-1);
TRIANGLE.forEach((sq, i) => { TRIANGLE_INDEX[sq] = i; });
/** tbgen.h's mapSquare: bit 0 mirror files, bit 1 mirror ranks, then bit 2 transpose. */
function mapSquare(s: number, sq: number): number {
  let f = sq & 7, r = sq >> 3;
  if (s & 1) f = 7 - f;
  if (s & 2) r = 7 - r;
  return s & 4 ? 8 * f + r : 8 * r + f;
}
const MAP = Array.from({ length: 8 }, (_, s) => Uint8Array.from({ length: 64 }, (_, sq) => mapSquare(s, sq)));
const INVERSE = Uint8Array.from({ length: 8 }, (_, s) => {
  for (let u = 0; u < 8; u++) if (MAP[s]!.every((m, sq) => mapSquare(u, m) === sq)) return u;
  return 0;
});
const TO_TRIANGLE = Uint8Array.from({ length: 64 }, (_, sq) => {
  let s = ((sq & 7) > 3 ? 1 : 0) | ((sq >> 3) > 3 ? 2 : 0);
  const m = mapSquare(s, sq);
  if ((m >> 3) > (m & 7)) s |= 4;
  return s;
});
function symmetryOf(pawns: boolean, wk: number): number {
  return pawns ? ((wk & 7) > 3 ? 1 : 0) : TO_TRIANGLE[wk]!;
}
function regionIndex(pawns: boolean, wk: number): number {
  return pawns ? (wk >> 3) * 4 + (wk & 7) : TRIANGLE_INDEX[wk]!;
}
function regionSquare(pawns: boolean, r: number): number {
  return pawns ? (r >> 2) * 8 + (r & 3) : TRIANGLE[r]!;
}

/** The table index of a position: sq[slot] per slot of m (the symmetry is applied here), stm 0 = white. */
export function tbIndex(m: TbMaterial, stm: number, sq: readonly number[]): number {
  const map = MAP[symmetryOf(m.pawns, sq[0]!)]!;
  let p = regionIndex(m.pawns, map[sq[0]!]!);
  for (let i = 1; i < m.n - 1; i++) p = p * 64 + map[sq[i]!]!;
  const placements = (m.pawns ? 32 : 10) * 64 ** (m.n - 2);
  return (stm * placements + p) * 64 + map[sq[m.n - 1]!]!;
}

function offset(sq: number, df: number, dr: number): number {
  const f = (sq & 7) + df, r = (sq >> 3) + dr;
  return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}

// A 64-bit set is (lo, hi); the helpers that make one write it to out[0], out[1].
const has = (lo: number, hi: number, sq: number) => (sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1) === 1;
const bitLo = (sq: number) => (sq < 32 ? 1 << sq : 0);
const bitHi = (sq: number) => (sq < 32 ? 0 : 1 << (sq - 32));
const NOT_A = 0xfefefefe | 0, NOT_H = 0x7f7f7f7f;
/** Squares next to any square of the set. */
function kingFill(lo: number, hi: number, out: Int32Array): void {
  const elo = (lo << 1) & NOT_A, ehi = (hi << 1) & NOT_A;
  const wlo = (lo >>> 1) & NOT_H, whi = (hi >>> 1) & NOT_H;
  const xlo = lo | elo | wlo, xhi = hi | ehi | whi;
  const nlo = xlo << 8, nhi = (xhi << 8) | (xlo >>> 24);
  const slo = (xlo >>> 8) | (xhi << 24), shi = xhi >>> 8;
  out[0] = elo | wlo | nlo | slo;
  out[1] = ehi | whi | nhi | shi;
}
/** Per square: its bit, the king's and the knight's targets, as set halves. */
const SQ_LO = new Int32Array(64), SQ_HI = new Int32Array(64);
const KING_LO = new Int32Array(64), KING_HI = new Int32Array(64);
const KNIGHT_LO = new Int32Array(64), KNIGHT_HI = new Int32Array(64);
/** PAWN_LO/HI[color * 64 + sq]: the squares a pawn attacks. */
const PAWN_LO = new Int32Array(128), PAWN_HI = new Int32Array(128);
/** BETWEEN_LO/HI[a * 64 + b]: the squares strictly between a and b on one line (none when not on one). */
const BETWEEN_LO = new Int32Array(64 * 64), BETWEEN_HI = new Int32Array(64 * 64);
for (let sq = 0; sq < 64; sq++) {
  SQ_LO[sq] = bitLo(sq); SQ_HI[sq] = bitHi(sq);
  for (const t of KING_TARGETS[sq]!) { KING_LO[sq] |= bitLo(t); KING_HI[sq] |= bitHi(t); }
  for (const t of KNIGHT_TARGETS[sq]!) { KNIGHT_LO[sq] |= bitLo(t); KNIGHT_HI[sq] |= bitHi(t); }
  for (let color = 0; color < 2; color++) {
    for (const df of [-1, 1]) {
      const t = offset(sq, df, color === 0 ? 1 : -1);
      if (t >= 0) { PAWN_LO[color * 64 + sq] |= bitLo(t); PAWN_HI[color * 64 + sq] |= bitHi(t); }
    }
  }
  for (let dir = 0; dir < 8; dir++) {
    let bl = 0, bh = 0;
    for (const t of RAYS[dir]![sq]!) {
      BETWEEN_LO[sq * 64 + t] = bl; BETWEEN_HI[sq * 64 + t] = bh;
      bl |= bitLo(t); bh |= bitHi(t);
    }
  }
}
/** MAP_LO/HI[(s * 8 + r) * 256 + v]: the image by MAP[s] of the squares of rank r whose files are the bits of v. */
const MAP_LO = new Int32Array(8 * 8 * 256), MAP_HI = new Int32Array(8 * 8 * 256);
for (let s = 0; s < 8; s++) {
  for (let r = 0; r < 8; r++) {
    for (let v = 0; v < 256; v++) {
      let lo = 0, hi = 0;
      for (let f = 0; f < 8; f++) if (v & (1 << f)) { const t = MAP[s]![r * 8 + f]!; lo |= bitLo(t); hi |= bitHi(t); }
      MAP_LO[(s * 8 + r) * 256 + v] = lo; MAP_HI[(s * 8 + r) * 256 + v] = hi;
    }
  }
}
/** ROW_WORDS[v]: the 4 initial row bytes of 4 black-king squares, DRAW where the bit of v is 1, ILLEGAL where 0 (in memory order). */
const ROW_WORDS = new Uint32Array(16);
{
  const bytes = new Uint8Array(ROW_WORDS.buffer);
  for (let v = 0; v < 16; v++) for (let j = 0; j < 4; j++) bytes[4 * v + j] = v & (1 << j) ? DRAW : ILLEGAL;
}
/** The set mapped by MAP[s], a byte (rank) at a time. */
function mapSet(s: number, lo: number, hi: number, out: Int32Array): void {
  const t = s << 11;
  const b0 = t | (lo & 255), b1 = t | 256 | ((lo >>> 8) & 255), b2 = t | 512 | ((lo >>> 16) & 255), b3 = t | 768 | (lo >>> 24);
  const b4 = t | 1024 | (hi & 255), b5 = t | 1280 | ((hi >>> 8) & 255), b6 = t | 1536 | ((hi >>> 16) & 255), b7 = t | 1792 | (hi >>> 24);
  out[0] = MAP_LO[b0]! | MAP_LO[b1]! | MAP_LO[b2]! | MAP_LO[b3]! | MAP_LO[b4]! | MAP_LO[b5]! | MAP_LO[b6]! | MAP_LO[b7]!;
  out[1] = MAP_HI[b0]! | MAP_HI[b1]! | MAP_HI[b2]! | MAP_HI[b3]! | MAP_HI[b4]! | MAP_HI[b5]! | MAP_HI[b6]! | MAP_HI[b7]!;
}
const isSlider = (type: number) => type === BISHOP || type === ROOK || type === QUEEN;

export interface TbSubTableJs { material: TbMaterial; data: Uint8Array }

const MOVED = -1;
const UNITS = [1, 64, 4096, 262144];
const NO_CAPTURE = -100000;
/** A conversion score that depends on the black king's square (seeds). */
const VARIES = NO_CAPTURE - 1;
const PROMOTIONS = [QUEEN, ROOK, BISHOP, KNIGHT];
const NO_PUSHES: { slot: number; to: number; mid: number; caps: number[] }[] = [];
const shapeKey = (mover: number, captured: number, promo: number) => (mover * (MAX_PIECES + 1) + captured + 1) * 6 + promo + 1;
/** tbIndex of squares in an Int32Array. */
function tbIndexOf(m: TbMaterial, stm: number, sq: Int32Array): number {
  const map = MAP[symmetryOf(m.pawns, sq[0]!)]!, k = m.n - 2;
  let p = regionIndex(m.pawns, map[sq[0]!]!);
  for (let i = 1; i <= k; i++) p = p * 64 + map[sq[i]!]!;
  return (stm * ((m.pawns ? 32 : 10) * 64 ** k) + p) * 64 + map[sq[k + 1]!]!;
}

class Generator {
  private readonly P: number;
  private readonly k: number;
  /** Per side to move: the legal positions not decided yet (tbgen.h's undecided_). */
  private readonly undecided: Int32Array[];
  /** Per side to move: the legal positions that side does not win (legal minus won). */
  private readonly notWon: Int32Array[];
  /** DTM with pawns: per side to move, the lost positions (read by the en-passant probes). */
  private readonly lost: Int32Array[];
  private fresh: Int32Array[];
  private readonly esc: Int32Array[];
  private readonly check: Int32Array[];
  private readonly next: Uint8Array[];
  /** Per slot of a slider: its targets (empty squares) per placement, from the setup. */
  private readonly moves: Int32Array[] = [];
  private readonly colors: Int8Array;
  private readonly types: Int8Array;
  /** Per region: the white king's square. */
  private readonly regionSq: Uint8Array;
  /** Per white-king square: the symmetry into its region (symmetryOf) and the inverse of that symmetry. */
  private readonly kingSym = new Uint8Array(64);
  private readonly kingInv = new Uint8Array(64);
  /** Per white-king square: its region index after that symmetry, shifted to its place in a placement. */
  private readonly kingRegion = new Int32Array(64);
  private maxConv = 0;
  /** DTZ distances the bytes do not hold: [table index, plies]. */
  readonly longs: [number, number][] = [];
  /** Both sides have pawns: en passant can happen. */
  private readonly epPossible: boolean;
  /** Per side to move: the opponent has more than its king (a bare king never mates: tbgen.h's canLose_). */
  private readonly canLose: [boolean, boolean];
  /** Per side: a piece in the placement (a slot before the black king's set; tbgen.h's movers_). */
  private readonly movers: [boolean, boolean];
  /**
   * DTM, black has only its king (tbgen.h's fused): black's losses at a placement depend on white's
   * wins at that placement alone, so a win ply and the next loss ply share one pass.
   */
  private readonly fused: boolean;
  /** Fused passes: the second buffer of black's losses. */
  private freshBlack: Int32Array = new Int32Array(0);
  private n = 0;
  private previous = 1;
  done = false;
  /** The table as 32-bit words when it is aligned to them (the setup's rows), else null. */
  private readonly words: Uint32Array | null;

  constructor(private readonly m: TbMaterial, private readonly table: Uint8Array, private readonly subs: readonly TbSubTableJs[], private readonly dtz = false) {
    this.k = m.n - 2;
    this.words = table.byteOffset % 4 === 0 ? new Uint32Array(table.buffer, table.byteOffset, table.length >> 2) : null;
    this.colors = Int8Array.from(m.colors); this.types = Int8Array.from(m.types);
    this.epPossible = m.types.some((t, i) => t === PAWN && m.colors[i] === 0) && m.types.some((t, i) => t === PAWN && m.colors[i] === 1);
    this.canLose = [m.types.some((t, i) => t !== KING && m.colors[i] === 1), m.types.some((t, i) => t !== KING && m.colors[i] === 0)];
    this.movers = [true, m.colors.some((c, i) => c === 1 && i < m.n - 1)];
    this.fused = !dtz && !this.canLose[0];
    const regions = m.pawns ? 32 : 10;
    this.P = regions * 64 ** this.k;
    this.regionSq = Uint8Array.from({ length: regions }, (_, r) => regionSquare(m.pawns, r));
    for (let sq = 0; sq < 64; sq++) {
      const s = symmetryOf(m.pawns, sq);
      this.kingSym[sq] = s; this.kingInv[sq] = INVERSE[s]!;
      this.kingRegion[sq] = regionIndex(m.pawns, MAP[s]![sq]!) << (6 * this.k);
    }
    const pairs = () => [new Int32Array(2 * this.P), new Int32Array(2 * this.P)];
    this.undecided = pairs(); this.notWon = pairs(); this.fresh = pairs(); this.esc = pairs(); this.check = pairs();
    this.lost = m.pawns && !dtz ? pairs() : [];
    if (this.fused) this.freshBlack = new Int32Array(2 * this.P);
    for (let i = 0; i <= this.k; i++) this.moves.push(i > 0 && isSlider(m.types[i]!) ? new Int32Array(2 * this.P) : new Int32Array(0));
    this.next = [new Uint8Array(this.P).fill(255), new Uint8Array(this.P).fill(255)];
    this.makeShapes();
    for (let p = 0; p < this.P; p++) this.setup(p);
    if (dtz) {
      this.freshPrev = pairs();
      if (!this.canLose[0]) this.wonAt = new Uint8Array(this.P);
      this.prepareLevels();
      return;
    }
    for (let p = 0; p < this.P; p++) this.seeds(p);
  }

  private sq = new Int32Array(MAX_PIECES);
  /** A set (lo, hi) that union, kingFill and mapSet write. */
  private readonly set = new Int32Array(2);
  private occLo = 0; private occHi = 0;
  private readonly ownLo = new Int32Array(2); private readonly ownHi = new Int32Array(2);

  private decode(p: number): boolean {
    const m = this.m, k = this.k, sq = this.sq;
    sq[0] = regionSquare(m.pawns, p >>> (6 * k)); // p < 2 ** 31: the shifts are exact
    for (let i = 1; i <= k; i++) sq[i] = (p >>> (6 * (k - i))) & 63;
    let valid = true;
    this.occLo = this.occHi = 0;
    this.ownLo[0] = this.ownLo[1] = this.ownHi[0] = this.ownHi[1] = 0;
    for (let i = 0; i <= k; i++) {
      const s = sq[i]!;
      if (has(this.occLo, this.occHi, s)) valid = false;
      if (m.types[i] === PAWN && ((s >> 3) === 0 || (s >> 3) === 7)) valid = false;
      this.occLo |= bitLo(s); this.occHi |= bitHi(s);
      this.ownLo[m.colors[i]!]! |= bitLo(s); this.ownHi[m.colors[i]!]! |= bitHi(s);
    }
    return valid;
  }

  private occupied(s: number): boolean { return has(this.occLo, this.occHi, s); }

  private row(stm: number, p: number): number { return (stm * this.P + p) * 64; }

  private write(stm: number, p: number, lo: number, hi: number, value: number): void {
    const r = this.row(stm, p);
    for (let x = lo; x !== 0; x &= x - 1) this.table[r + 31 - Math.clz32(x & -x)] = value;
    for (let x = hi; x !== 0; x &= x - 1) this.table[r + 63 - Math.clz32(x & -x)] = value;
  }

  /** Legality, checks, the sliders' targets, and the table rows: legal positions DRAW (until decided), others ILLEGAL. */
  private setup(p: number): void {
    const m = this.m, sq = this.sq, set = this.set;
    let l0 = 0, h0 = 0, l1 = 0, h1 = 0;
    if (this.decode(p)) {
      const wk = sq[0]!, occLo = this.occLo, occHi = this.occHi;
      let attLo = 0, attHi = 0, chkLo = 0, chkHi = 0; // squares white attacks; black-king squares with the white king in check
      for (let i = 0; i < m.n - 1; i++) {
        const color = m.colors[i]!, type = m.types[i]!;
        this.attacks(type, color, sq[i]!, set);
        const al = set[0]!, ah = set[1]!;
        const moves = this.moves[i]!;
        if (moves.length) { moves[2 * p] = al & ~occLo; moves[2 * p + 1] = ah & ~occHi; }
        if (color === 0) { attLo |= al; attHi |= ah; } else if (has(al, ah, wk)) {
          if (isSlider(type)) { chkLo |= ~BETWEEN_LO[sq[i]! * 64 + wk]!; chkHi |= ~BETWEEN_HI[sq[i]! * 64 + wk]!; } else { chkLo = chkHi = -1; }
        }
      }
      l0 = ~occLo & ~attLo; h0 = ~occHi & ~attHi;
      l1 = ~occLo & ~KING_LO[wk]! & ~chkLo; h1 = ~occHi & ~KING_HI[wk]! & ~chkHi;
      this.check[0]![2 * p] = l0 & chkLo; this.check[0]![2 * p + 1] = h0 & chkHi;
      this.check[1]![2 * p] = l1 & attLo; this.check[1]![2 * p + 1] = h1 & attHi;
    }
    this.undecided[0]![2 * p] = this.notWon[0]![2 * p] = l0; this.undecided[0]![2 * p + 1] = this.notWon[0]![2 * p + 1] = h0;
    this.undecided[1]![2 * p] = this.notWon[1]![2 * p] = l1; this.undecided[1]![2 * p + 1] = this.notWon[1]![2 * p + 1] = h1;
    const words = this.words;
    for (let stm = 0; stm < 2; stm++) {
      const r = this.row(stm, p), lo = stm ? l1 : l0, hi = stm ? h1 : h0;
      if (words) { // 4 black-king squares a word
        const w = r >> 2;
        for (let j = 0; j < 8; j++) { words[w + j] = ROW_WORDS[(lo >>> (4 * j)) & 15]!; words[w + 8 + j] = ROW_WORDS[(hi >>> (4 * j)) & 15]!; }
      } else {
        for (let b = 0; b < 64; b++) this.table[r + b] = has(lo, hi, b) ? DRAW : ILLEGAL;
      }
    }
  }

  /**
   * tbgen.h's moveUnion: the union over the non-converting moves of the side to move's pieces (other
   * than the black king) of the set a[q], q the placement each move leads to, as black-king squares
   * of this placement (a black-king square that blocks the move does not count for it), or-ed into
   * acc; the walk stops once the union covers need. Result in out. The placement is decoded into
   * locals (at most two pieces besides the kings); the other pieces are walked first and the white
   * king last (its targets may take the placement through a symmetry). With white to move, a black
   * king between a white slider and its target would stand in check (outside need): only black
   * sliders' moves are masked.
   */
  private union(p: number, stm: number, needLo: number, needHi: number, accLo: number, accHi: number, a: Int32Array, out: Int32Array): void {
    const k = this.k, colors = this.colors, types = this.types;
    const wk = this.regionSq[p >>> (6 * k)]!;
    const s1 = k >= 1 ? (p >>> (6 * k - 6)) & 63 : 0, s2 = k === 2 ? p & 63 : 0;
    let occLo = SQ_LO[wk]!, occHi = SQ_HI[wk]!;
    if (k >= 1) { occLo |= SQ_LO[s1]!; occHi |= SQ_HI[s1]!; }
    if (k === 2) { occLo |= SQ_LO[s2]!; occHi |= SQ_HI[s2]!; }
    for (let i = 1; i <= k; i++) {
      if (colors[i] !== stm) continue;
      if ((needLo & ~accLo) === 0 && (needHi & ~accHi) === 0) { out[0] = accLo; out[1] = accHi; return; }
      const from = i === 1 ? s1 : s2, type = types[i]!, shift = 6 * (k - i);
      const base = p & ~(63 << shift);
      if (type === PAWN) {
        if (this.dtz) continue; // a pawn move zeroes: a seed (seeds)
        const dir = stm === 0 ? 8 : -8, to = from + dir;
        if (has(occLo, occHi, to) || (to >> 3) === (stm === 0 ? 7 : 0)) continue;
        let q = 2 * (base | (to << shift));
        accLo |= a[q]!; accHi |= a[q + 1]!;
        const to2 = to + dir;
        if ((from >> 3) === (stm === 0 ? 1 : 6) && !has(occLo, occHi, to2) && !this.epThreat(stm, i, to2, s1, s2)) {
          q = 2 * (base | (to2 << shift));
          accLo |= a[q]! & ~SQ_LO[to]!; accHi |= a[q + 1]! & ~SQ_HI[to]!;
        }
        continue;
      }
      let tl: number, th: number;
      if (type === KNIGHT) { tl = KNIGHT_LO[from]! & ~occLo; th = KNIGHT_HI[from]! & ~occHi; } else { const mv = this.moves[i]!; tl = mv[2 * p]!; th = mv[2 * p + 1]!; }
      if (stm === 1 && type !== KNIGHT) {
        const row = from * 64;
        for (; tl !== 0; tl &= tl - 1) {
          const to = 31 - Math.clz32(tl & -tl), q = 2 * (base | (to << shift));
          accLo |= a[q]! & ~BETWEEN_LO[row + to]!; accHi |= a[q + 1]! & ~BETWEEN_HI[row + to]!;
        }
        for (; th !== 0; th &= th - 1) {
          const to = 63 - Math.clz32(th & -th), q = 2 * (base | (to << shift));
          accLo |= a[q]! & ~BETWEEN_LO[row + to]!; accHi |= a[q + 1]! & ~BETWEEN_HI[row + to]!;
        }
      } else {
        for (; tl !== 0; tl &= tl - 1) { const q = 2 * (base | ((31 - Math.clz32(tl & -tl)) << shift)); accLo |= a[q]!; accHi |= a[q + 1]!; }
        for (; th !== 0; th &= th - 1) { const q = 2 * (base | ((63 - Math.clz32(th & -th)) << shift)); accLo |= a[q]!; accHi |= a[q + 1]!; }
      }
    }
    if (stm === 0 && ((needLo & ~accLo) !== 0 || (needHi & ~accHi) !== 0)) {
      const others = p & ((1 << (6 * k)) - 1), kingSym = this.kingSym, kingRegion = this.kingRegion;
      let tl = KING_LO[wk]! & ~occLo, th = KING_HI[wk]! & ~occHi;
      while ((tl | th) !== 0) {
        let to: number;
        if (tl !== 0) { const low = tl & -tl; tl ^= low; to = 31 - Math.clz32(low); } else { const low = th & -th; th ^= low; to = 63 - Math.clz32(low); }
        const s = kingSym[to]!;
        if (s === 0) { const q = 2 * (kingRegion[to]! | others); accLo |= a[q]!; accHi |= a[q + 1]!; continue; }
        const map = MAP[s]!; // the king leaves its region: the placement through symmetry s
        let q = kingRegion[to]!;
        if (k === 1) q |= map[s1]!;
        else if (k === 2) q |= (map[s1]! << 6) | map[s2]!;
        const lo = a[2 * q]!, hi = a[2 * q + 1]!;
        if ((lo | hi) === 0) continue;
        mapSet(this.kingInv[to]!, lo, hi, out);
        accLo |= out[0]!; accHi |= out[1]!;
      }
    }
    out[0] = accLo; out[1] = accHi;
  }

  /** Whether an enemy pawn stands beside `to` (slot i's double push there can be taken en passant); s1, s2: the slots' squares. */
  private epThreat(stm: number, i: number, to: number, s1: number, s2: number): boolean {
    if (!this.epPossible) return false;
    for (let j = 1; j <= this.k; j++) {
      const s = j === 1 ? s1 : s2;
      if (j !== i && this.colors[j] !== stm && this.types[j] === PAWN && (s >> 3) === (to >> 3) && Math.abs((s & 7) - (to & 7)) === 1) return true;
    }
    return false;
  }

  /** Whether a pawn of side stm stands on its second rank at placement p (a double push may be possible). */
  private onStartRank(p: number, stm: number): boolean {
    const k = this.k, rank = stm === 0 ? 1 : 6;
    for (let i = 1; i <= k; i++) {
      if (this.colors[i] === stm && this.types[i] === PAWN && ((p >>> (6 * (k - i) + 3)) & 7) === rank) return true;
    }
    return false;
  }

  /** Slots of the enemy pawns beside `to` (a double push there can be taken en passant). */
  private epCapturers(stm: number, to: number): number[] {
    const out: number[] = [];
    for (let j = 1; j < this.m.n - 1; j++) {
      const s = this.sq[j]!;
      if (this.m.colors[j] !== stm && this.m.types[j] === PAWN && (s >> 3) === (to >> 3) && Math.abs((s & 7) - (to & 7)) === 1) out.push(j);
    }
    return out;
  }

  /** Double pushes an enemy pawn can take en passant (see tbgen.h). */
  private epPushes(stm: number): { slot: number; to: number; mid: number; caps: number[] }[] {
    const out: { slot: number; to: number; mid: number; caps: number[] }[] = [];
    if (!this.epPossible) return out;
    for (let i = 1; i < this.m.n - 1; i++) {
      if (this.m.colors[i] !== stm || this.m.types[i] !== PAWN || (this.sq[i]! >> 3) !== (stm === 0 ? 1 : 6)) continue;
      const dir = stm === 0 ? 8 : -8, mid = this.sq[i]! + dir, to = mid + dir;
      if (this.occupied(mid) || this.occupied(to)) continue;
      const caps = this.epCapturers(stm, to);
      if (caps.length) out.push({ slot: i, to, mid, caps });
    }
    return out;
  }

  /** The best en-passant capture's score for the capturing side (moveScore), or NO_CAPTURE. */
  private epScore(stm: number, slot: number, mid: number, caps: number[], b: number): number {
    let best = NO_CAPTURE;
    for (const j of caps) {
      const s = this.conversionScore(stm, this.shape(j, slot, -1), mid, b); // the pusher to move after it
      if (s > best) best = s;
    }
    return best;
  }

  private findSub(colors: number[], types: number[]): TbSubTableJs | undefined {
    return this.subs.find((s) => s.material.n === colors.length && s.material.colors.every((c, i) => c === colors[i] && s.material.types[i] === types[i]));
  }

  // Conversions (captures, promotions): the sub-table and where each of its slots comes from depend
  // only on (mover, captured slot, promotion), not on the squares: found once per generation.
  /** Per shape (shapeKey): the sub-table (undefined: not given). */
  private readonly shapeSub: (TbSubTableJs | undefined)[] = [];
  /** Per shape: the parent slot of each sub-table slot (MOVED: the mover), MAX_PIECES apiece. */
  private readonly shapeSrc = new Int8Array(MAX_PIECES * (MAX_PIECES + 1) * 6 * MAX_PIECES);
  /** Per shape: the black king keeps its square (the position after it does not depend on the set). */
  private readonly shapeFixed = new Uint8Array(MAX_PIECES * (MAX_PIECES + 1) * 6);

  private makeShapes(): void {
    const m = this.m;
    for (let mover = 0; mover < m.n; mover++) {
      for (let captured = -1; captured < m.n; captured++) {
        for (let promo = -1; promo <= QUEEN; promo++) {
          if (captured === mover || (captured >= 0 && m.colors[captured] === m.colors[mover]) || (promo >= 0 && m.types[mover] !== PAWN)) continue;
          const pieces: { color: number; type: number; from: number }[] = [];
          for (let i = 0; i < m.n; i++) {
            if (i === captured) continue;
            pieces.push({ color: m.colors[i]!, type: i === mover && promo >= 0 ? promo : m.types[i]!, from: i === mover ? MOVED : i });
          }
          pieces.sort((a, b) => tbSlotKey(a.color, a.type) - tbSlotKey(b.color, b.type));
          const key = shapeKey(mover, captured, promo);
          this.shapeSub[key] = this.findSub(pieces.map((x) => x.color), pieces.map((x) => x.type));
          pieces.forEach((x, j) => { this.shapeSrc[key * MAX_PIECES + j] = x.from; });
          this.shapeFixed[key] = pieces.every((x) => x.from !== m.n - 1) ? 1 : 0;
        }
      }
    }
  }

  /** The shape key of a conversion; RangeError when its sub-table was not given. */
  private shape(mover: number, captured: number, promo: number): number {
    const key = shapeKey(mover, captured, promo);
    if (!this.shapeSub[key]) throw new RangeError(`tbGenerate: the table of a sub-ending of ${this.m.name} is missing`);
    return key;
  }

  private readonly subSq = new Int32Array(MAX_PIECES);

  /**
   * The score (moveScore) of conversion `key` (the mover going to `to`) of the decoded placement
   * with the black king on b, `stm` to move after it; NO_CAPTURE when that position is illegal.
   */
  private conversionScore(stm: number, key: number, to: number, b: number): number {
    const sub = this.shapeSub[key]!, mat = sub.material, src = this.shapeSrc, o = key * MAX_PIECES;
    const sq = this.sq, subSq = this.subSq, last = this.m.n - 1;
    for (let j = 0; j < mat.n; j++) {
      const s = src[o + j]!;
      subSq[j] = s === MOVED ? to : s === last ? b : sq[s]!;
    }
    const v = sub.data[tbIndexOf(mat, stm, subSq)]!;
    return v === ILLEGAL ? NO_CAPTURE : this.moveScore(v);
  }

  /** The conversion list of one side at the decoded placement (conversionList): shape, target, black-king squares allowing it, fixed score. */
  private readonly cvShape = new Int32Array(64);
  private readonly cvTo = new Int32Array(64);
  private readonly cvMaskLo = new Int32Array(64);
  private readonly cvMaskHi = new Int32Array(64);
  private readonly cvScore = new Int32Array(64);

  private addConversion(count: number, mover: number, to: number, captured: number, promo: number, maskLo: number, maskHi: number): number {
    this.cvShape[count] = this.shape(mover, captured, promo);
    this.cvTo[count] = to; this.cvMaskLo[count] = maskLo; this.cvMaskHi[count] = maskHi;
    return count + 1;
  }

  /** Every conversion of the side to move at the decoded placement (black-king captures included); returns how many. */
  private conversionList(stm: number): number {
    const m = this.m, sq = this.sq, set = this.set;
    const last = stm === 0 ? 7 : 0;
    const tLo = this.ownLo[stm ^ 1]! & ~SQ_LO[sq[0]!]!, tHi = this.ownHi[stm ^ 1]! & ~SQ_HI[sq[0]!]!; // the white king is never taken
    let count = 0;
    for (let i = 0; i < m.n - 1; i++) {
      if (m.colors[i] !== stm) continue;
      const from = sq[i]!, type = m.types[i]!;
      if ((tLo | tHi) === 0) set[0] = set[1] = 0; // nothing to take
      else this.attacks(type, stm, from, set);
      for (let x = set[0]! & tLo, y = set[1]! & tHi; (x | y) !== 0;) {
        let to: number;
        if (x !== 0) { to = 31 - Math.clz32(x & -x); x &= x - 1; } else { to = 63 - Math.clz32(y & -y); y &= y - 1; }
        const captured = this.slotAt(to);
        if (type === PAWN && (to >> 3) === last) for (const pr of PROMOTIONS) count = this.addConversion(count, i, to, captured, pr, -1, -1);
        else if (isSlider(type)) count = this.addConversion(count, i, to, captured, -1, ~BETWEEN_LO[from * 64 + to]!, ~BETWEEN_HI[from * 64 + to]!);
        else count = this.addConversion(count, i, to, captured, -1, -1, -1);
      }
      if (type === PAWN) {
        const to = from + (stm === 0 ? 8 : -8);
        if ((to >> 3) === last && !this.occupied(to)) for (const pr of PROMOTIONS) count = this.addConversion(count, i, to, -1, pr, ~SQ_LO[to]!, ~SQ_HI[to]!);
      }
    }
    if (stm === 1) { // the black king takes a white piece next to it
      for (let j = 1; j < m.n - 1; j++) if (m.colors[j] === 0) count = this.addConversion(count, m.n - 1, sq[j]!, j, -1, KING_LO[sq[j]!]!, KING_HI[sq[j]!]!);
    }
    return count;
  }

  private slotAt(s: number): number {
    for (let j = 0; j < this.m.n - 1; j++) if (this.sq[j] === s) return j;
    return -1;
  }

  /** The squares a piece attacks at the decoded placement (sliders stop at the first piece), into out. */
  private attacks(type: number, color: number, from: number, out: Int32Array): void {
    if (type === PAWN) { out[0] = PAWN_LO[color * 64 + from]!; out[1] = PAWN_HI[color * 64 + from]!; return; }
    if (type === KNIGHT) { out[0] = KNIGHT_LO[from]!; out[1] = KNIGHT_HI[from]!; return; }
    if (type === KING) { out[0] = KING_LO[from]!; out[1] = KING_HI[from]!; return; }
    const d0 = type === BISHOP ? 4 : 0, d1 = type === ROOK ? 4 : 8; // RAYS: rook-wise, then bishop-wise
    let lo = 0, hi = 0;
    for (let dir = d0; dir < d1; dir++) {
      const ray = RAYS[dir]![from]!;
      for (let j = 0; j < ray.length; j++) {
        const t = ray[j]!;
        lo |= SQ_LO[t]!; hi |= SQ_HI[t]!;
        if (this.occupied(t)) break;
      }
    }
    out[0] = lo; out[1] = hi;
  }

  /** Score, for the side that moves, of a conversion into a position of code v (tbgen.h's moveScore). */
  private moveScore(v: number): number {
    if (this.dtz) return dtzSeedScore(dtzClass(v));
    return v === DRAW ? 0 : v & 1 ? -1000 + (v + 1) : 1000 - (v + 1);
  }

  /** DTZ: the pawn pushes of the side to move that stay in this material. */
  private zeroingPushes(stm: number): { slot: number; to: number; mid: number; caps: number[] }[] {
    const m = this.m, sq = this.sq;
    const pushes: { slot: number; to: number; mid: number; caps: number[] }[] = [];
    for (let i = 1; i < m.n - 1; i++) {
      if (m.colors[i] !== stm || m.types[i] !== PAWN) continue;
      const dir = stm === 0 ? 8 : -8, to = sq[i]! + dir;
      if (this.occupied(to) || (to >> 3) === (stm === 0 ? 7 : 0)) continue;
      pushes.push({ slot: i, to, mid: -1, caps: [] });
      const to2 = to + dir;
      if ((sq[i]! >> 3) === (stm === 0 ? 1 : 6) && !this.occupied(to2)) pushes.push({ slot: i, to: to2, mid: to, caps: this.epCapturers(stm, to2) });
    }
    return pushes;
  }

  /** The distance in plies of a conversion's score (not 0); RangeError beyond MAX_PLIES. */
  private static seedPlies(best: number): number {
    const plies = best > 0 ? 1000 - best : best + 1000;
    if (plies > MAX_PLIES) throw new RangeError('tbGenerate: a distance exceeds 253 plies');
    return plies;
  }

  /**
   * The conversions (DTZ: zeroing moves) of every legal position of placement p, probed once
   * (tbgen.h's seeds): the row byte of a position holds its best one's code, esc the positions such
   * a move keeps from losing, next the first ply with a pending one. A conversion that moves the
   * black king (a capture by it) has one score for every black-king square: probed once; when all
   * are such, each square takes the best one it allows, set-wise.
   */
  private seeds(p: number): void {
    if (!this.decode(p)) return;
    const dtz = this.dtz, cvScore = this.cvScore, cvMaskLo = this.cvMaskLo, cvMaskHi = this.cvMaskHi;
    for (let stm = 0; stm < 2; stm++) {
      const lo = this.undecided[stm]![2 * p]!, hi = this.undecided[stm]![2 * p + 1]!; // all legal positions: no pass has run here yet
      if (!lo && !hi) continue;
      const count = this.conversionList(stm);
      const pushes = dtz ? this.zeroingPushes(stm) : NO_PUSHES;
      if (!count && !pushes.length) continue;
      let el = 0, eh = 0, next = 255, highest = 0, allFixed = pushes.length === 0;
      for (let c = 0; c < count; c++) {
        const key = this.cvShape[c]!;
        if (this.shapeFixed[key]) cvScore[c] = this.conversionScore(stm ^ 1, key, this.cvTo[c]!, -1);
        else { cvScore[c] = VARIES; allFixed = false; }
      }
      if (allFixed) {
        let ll = lo, lh = hi;
        for (;;) {
          let pick = -1;
          for (let c = 0; c < count; c++) {
            if (cvScore[c] !== NO_CAPTURE && ((ll & cvMaskLo[c]!) | (lh & cvMaskHi[c]!)) !== 0 && (pick < 0 || cvScore[c]! > cvScore[pick]!)) pick = c;
          }
          if (pick < 0) break;
          const sl = ll & cvMaskLo[pick]!, sh = lh & cvMaskHi[pick]!, best = cvScore[pick]!;
          ll &= ~sl; lh &= ~sh;
          el |= sl; eh |= sh;
          if (best === 0) continue;
          const plies = Generator.seedPlies(best);
          this.write(stm, p, sl, sh, dtz && best > 0 ? DTZ_WIN_BASE + plies : plies);
          if (plies < next) next = plies;
          if (plies > highest) highest = plies;
        }
      } else {
        const r = this.row(stm, p);
        for (let b = 0; b < 64; b++) {
          if (!has(lo, hi, b)) continue;
          let best = NO_CAPTURE;
          for (let c = 0; c < count; c++) {
            if (!has(cvMaskLo[c]!, cvMaskHi[c]!, b)) continue;
            const s = cvScore[c] !== VARIES ? cvScore[c]! : this.conversionScore(stm ^ 1, this.cvShape[c]!, this.cvTo[c]!, b);
            if (s > best) best = s;
          }
          for (const push of pushes) {
            if (b === push.mid) continue;
            const q = p + (push.to - this.sq[push.slot]!) * UNITS[this.k - push.slot]!;
            const v = this.table[this.row(stm ^ 1, q) + b]!;
            if (v === ILLEGAL) continue;
            let s = this.moveScore(v);
            if (push.mid >= 0 && push.caps.length) {
              const e = this.epScore(stm, push.slot, push.mid, push.caps, b);
              if (e !== NO_CAPTURE) s = Math.min(s, -e);
            }
            best = Math.max(best, s);
          }
          if (best === NO_CAPTURE) continue;
          el |= bitLo(b); eh |= bitHi(b);
          if (best === 0) continue;
          const plies = Generator.seedPlies(best);
          this.table[r + b] = dtz && best > 0 ? DTZ_WIN_BASE + plies : plies;
          if (plies < next) next = plies;
          if (plies > highest) highest = plies;
        }
      }
      this.esc[stm]![2 * p] = el; this.esc[stm]![2 * p + 1] = eh;
      this.next[stm]![p] = next;
      this.maxConv = Math.max(this.maxConv, highest);
    }
  }

  /** Writes the undecided positions of placement p as draws. */
  private finish(p: number): void {
    const i = 2 * p;
    for (let stm = 0; stm < 2; stm++) this.write(stm, p, this.undecided[stm]![i]!, this.undecided[stm]![i + 1]!, DRAW);
  }

  /** A DTZ distance the byte does not hold: `code`, and a long value beyond `held` plies (tbgen.h's writeLong). */
  private writeLong(stm: number, p: number, lo: number, hi: number, code: number, plies: number, held: number): void {
    this.write(stm, p, lo, hi, code);
    if (plies <= held) return;
    const r = this.row(stm, p);
    for (let b = 0; b < 64; b++) if (has(lo, hi, b)) this.longs.push([r + b, plies]);
  }

  /** One ply; false when the table is complete. */
  /** One ply (with fused passes, a win ply and the next loss ply); false when the table is complete. */
  step(): boolean {
    if (this.done) return false;
    if (this.dtz) return this.stepDtz();
    const n = this.n;
    if (n > MAX_PLIES) throw new RangeError('tbGenerate: a distance exceeds 253 plies');
    if (this.fused && (n & 1) && n < MAX_PLIES) {
      let wins = 0, losses = 0;
      for (let p = 0; p < this.P; p++) {
        const w = this.winSide(p, 0, n, this.fresh);
        if (w === 0 && this.next[1]![p] !== n + 1) { this.freshBlack[2 * p] = 0; this.freshBlack[2 * p + 1] = 0; continue; }
        wins += w;
        losses += this.lossSide(p, 1, n + 1, this.freshBlack);
      }
      const t = this.fresh[1]!; this.fresh[1] = this.freshBlack; this.freshBlack = t;
      if (wins === 0 && this.previous === 0 && n > this.maxConv) return this.complete(); // as the unfused loop after ply n
      if (losses === 0 && wins === 0 && n + 1 > this.maxConv) return this.complete(); // after ply n + 1
      this.previous = losses;
      this.n = n + 2;
      return true;
    }
    let decided = 0;
    if (n & 1) for (let p = 0; p < this.P; p++) decided += this.winSide(p, 0, n, this.fresh) + this.winSide(p, 1, n, this.fresh);
    else for (let p = 0; p < this.P; p++) decided += this.lossSide(p, 0, n, this.fresh[0]!) + this.lossSide(p, 1, n, this.fresh[1]!);
    if (n >= 1 && decided === 0 && this.previous === 0 && n > this.maxConv) return this.complete();
    this.previous = decided;
    this.n++;
    return true;
  }

  private complete(): boolean {
    for (let p = 0; p < this.P; p++) this.finish(p);
    this.done = true;
    return false;
  }

  // ---------------------------------------------------------------- distance to zeroing (tbgen.h)

  private freshPrev: Int32Array[] = [];
  /** DTZ, black has only its king: per placement, whether white won there at the last win ply. */
  private wonAt = new Uint8Array(0);
  private order = new Int32Array(0);
  private levelStart: number[] = [];
  private level = -1;
  private levelsUsed = 0;
  private levelIndex = 0;

  private prepareLevels(): void {
    const LEVELS = 7 * MAX_PIECES + 1;
    const levelOf = new Uint8Array(this.P).fill(255);
    const counts = new Array<number>(LEVELS + 1).fill(0);
    for (let p = 0; p < this.P; p++) {
      if (!this.decode(p)) continue;
      let l = 0;
      for (let i = 1; i < this.m.n - 1; i++) {
        if (this.m.types[i] === PAWN) l += this.m.colors[i] === 0 ? this.sq[i]! >> 3 : 7 - (this.sq[i]! >> 3);
      }
      levelOf[p] = LEVELS - 1 - l;
      counts[levelOf[p]! + 1]++;
    }
    for (let l = 0; l < LEVELS; l++) counts[l + 1]! += counts[l]!;
    this.order = new Int32Array(counts[LEVELS]!);
    const at = counts.slice(0, LEVELS);
    for (let p = 0; p < this.P; p++) if (levelOf[p] !== 255) this.order[at[levelOf[p]!]!++] = p;
    this.levelStart = counts;
    for (let l = 0; l < LEVELS; l++) if (counts[l + 1]! > counts[l]!) this.levelsUsed++;
    this.startLevel();
  }

  /** Moves to the next non-empty level and seeds it; false when none is left. */
  private startLevel(): boolean {
    const LEVELS = this.levelStart.length - 1;
    for (this.level++; this.level < LEVELS && this.levelStart[this.level + 1] === this.levelStart[this.level]; this.level++);
    if (this.level >= LEVELS) return false;
    this.maxConv = 0;
    this.n = 0;
    for (let i = this.levelStart[this.level]!; i < this.levelStart[this.level + 1]!; i++) this.seeds(this.order[i]!);
    return true;
  }

  private stepDtz(): boolean {
    const n = this.n;
    if (n > DTZ_MAX_PLIES) throw new RangeError(`tbGenerate: a distance exceeds ${DTZ_MAX_PLIES} plies`);
    const from = this.levelStart[this.level]!, to = this.levelStart[this.level + 1]!;
    let decided = 0;
    if (!this.canLose[0]) {
      // Black has only its king: its losses at a placement change only where white won there at the
      // last ply or one of its conversions loses now (as the fused DTM passes); white cannot lose.
      const wonAt = this.wonAt, fresh = this.fresh[1]!, next = this.next[1]!;
      for (let i = from; i < to; i++) {
        const p = this.order[i]!;
        if (n > 0 && wonAt[p] === 0 && next[p] !== n) { fresh[2 * p] = 0; fresh[2 * p + 1] = 0; continue; }
        decided += this.lossSide(p, 1, n, fresh);
      }
      if (n) for (let i = from; i < to; i++) { const p = this.order[i]!, w = this.winSide(p, 0, n, this.freshPrev); wonAt[p] = w > 0 ? 1 : 0; decided += w; }
    } else {
      for (let i = from; i < to; i++) { const p = this.order[i]!; decided += this.lossSide(p, 0, n, this.fresh[0]!) + this.lossSide(p, 1, n, this.fresh[1]!); }
      if (n) for (let i = from; i < to; i++) { const p = this.order[i]!; decided += this.winSide(p, 0, n, this.freshPrev) + this.winSide(p, 1, n, this.freshPrev); }
    }
    const t = this.fresh; this.fresh = this.freshPrev; this.freshPrev = t;
    if (n >= 1 && decided === 0 && n > this.maxConv) {
      for (let i = from; i < to; i++) this.finish(this.order[i]!);
      this.levelIndex++;
      if (!this.startLevel()) { this.done = true; return false; }
      return true;
    }
    this.n++;
    return true;
  }

  /**
   * The conversions recorded for the undecided positions (ul, uh) of placement p: those whose code is
   * `code` go to this.set; returns the nearest distance beyond ply n among the others, the ply at
   * which the passes must look again (255: none). The scan that opens both of tbgen.h's passes.
   */
  private conversions(stm: number, p: number, ul: number, uh: number, n: number, code: number): number {
    const r = this.row(stm, p);
    const low = this.conversionsOfHalf(0, r + 31, ul, n, code), high = this.conversionsOfHalf(1, r + 63, uh, n, code);
    return low < high ? low : high;
  }

  /**
   * `conversions` over one half of a placement's row: the positions of the bits of x (bit b at
   * table[top - 31 + b]); the hits go to this.set[half], the nearest distance is returned.
   */
  private conversionsOfHalf(half: number, top: number, x: number, n: number, code: number): number {
    const dtz = this.dtz, table = this.table;
    let next = 255, hits = 0;
    for (; x !== 0; x &= x - 1) {
      const low = x & -x, c = table[top - Math.clz32(low)]!;
      if (c === code) hits |= low;
      else if (c < DRAW) {
        const d = dtz && c > DTZ_WIN_BASE ? c - DTZ_WIN_BASE : c;
        if (d > n && d < next) next = d;
      }
    }
    this.set[half] = hits;
    return next;
  }

  /**
   * Ply n, losses of side stm at placement p (tbgen.h's lossSide): an undecided position whose every
   * move reaches a position the opponent wins within n - 1 plies and whose conversions lose within n
   * plies is lost in n plies (n = 0: mated, or stalemate). The losses go into fresh.
   */
  private lossSide(p: number, stm: number, n: number, fresh: Int32Array): number {
    if (!this.canLose[stm]) return 0; // (a stalemate of a side that cannot lose stays a draw)
    const i = 2 * p, dtz = this.dtz, und = this.undecided[stm]!;
    fresh[i] = 0; fresh[i + 1] = 0;
    const ul = und[i]!, uh = und[i + 1]!;
    if ((ul | uh) === 0) return 0;
    const opp = stm ^ 1, set = this.set, esc = this.esc[stm]!;
    if (this.next[stm]![p] === n) { // conversions that lose in n plies stop escaping
      const next = this.conversions(stm, p, ul, uh, n, n);
      esc[i] &= ~set[0]!; esc[i + 1] &= ~set[1]!;
      if (!dtz) this.next[stm]![p] = next; // DTZ: the win pass of this ply rescans
    }
    let el = esc[i]!, eh = esc[i + 1]!;
    const notWon = this.notWon[opp]!;
    if (this.movers[stm]) { this.union(p, stm, ul, uh, el, eh, notWon, set); el = set[0]!; eh = set[1]!; }
    if (stm === 1) { const own = this.notWon[0]!; kingFill(own[i]!, own[i + 1]!, set); el |= set[0]!; eh |= set[1]!; }
    if (!dtz && this.epPossible && this.onStartRank(p, stm)) {
      this.decode(p);
      for (const ep of this.epPushes(stm)) {
        const q = p + (ep.to - this.sq[ep.slot]!) * UNITS[this.k - ep.slot]!;
        for (let b = 0; b < 64; b++) {
          if (b === ep.mid || !has(ul & ~el, uh & ~eh, b)) continue;
          if (!has(notWon[2 * q]!, notWon[2 * q + 1]!, b)) continue;
          const e = this.epScore(stm, ep.slot, ep.mid, ep.caps, b);
          if (!(e > 0 && 1000 - e <= n - 1)) { el |= bitLo(b); eh |= bitHi(b); }
        }
      }
    }
    let ll = ul & ~el, lh = uh & ~eh;
    if (n === 0) { // stalemates: draws
      const check = this.check[stm]!, cl = check[i]!, ch = check[i + 1]!;
      und[i] &= ~(ll & ~cl); und[i + 1] &= ~(lh & ~ch);
      ll &= cl; lh &= ch;
    }
    if ((ll | lh) === 0) return 0;
    if (this.lost.length) { this.lost[stm]![i] |= ll; this.lost[stm]![i + 1] |= lh; }
    fresh[i] = ll; fresh[i + 1] = lh;
    und[i] &= ~ll; und[i + 1] &= ~lh;
    if (dtz && n >= DTZ_LONG_LOSS) this.writeLong(stm, p, ll, lh, DTZ_LONG_LOSS, n, DTZ_LONG_LOSS);
    else this.write(stm, p, ll, lh, n);
    return popcount32(ll) + popcount32(lh);
  }

  /**
   * Ply n >= 1, wins of side stm at placement p (tbgen.h's winSide): an undecided position with a move
   * to a position lost in n - 1 plies (lostLast: the losses of the previous ply), or a conversion
   * that wins in n plies, is won in n plies. Returns how many.
   */
  private winSide(p: number, stm: number, n: number, lostLast: Int32Array[]): number {
    const i = 2 * p, dtz = this.dtz, und = this.undecided[stm]!, winCode = dtz ? DTZ_WIN_BASE + n : n;
    const ul = und[i]!, uh = und[i + 1]!, opp = stm ^ 1;
    if ((ul | uh) === 0 || !this.canLose[opp]) return 0;
    const set = this.set;
    let rl = 0, rh = 0;
    if (this.next[stm]![p] === n) { // conversions that win in n plies
      this.next[stm]![p] = this.conversions(stm, p, ul, uh, n, winCode);
      rl = set[0]!; rh = set[1]!;
    }
    if (this.movers[stm]) { this.union(p, stm, ul, uh, rl, rh, lostLast[opp]!, set); rl = set[0]!; rh = set[1]!; }
    if (stm === 1) { const l = lostLast[0]!; kingFill(l[i]!, l[i + 1]!, set); rl |= set[0]!; rh |= set[1]!; }
    if (!dtz && this.epPossible && this.onStartRank(p, stm)) {
      this.decode(p);
      for (const ep of this.epPushes(stm)) {
        const q = p + (ep.to - this.sq[ep.slot]!) * UNITS[this.k - ep.slot]!;
        const lostOpp = this.lost[opp]!;
        for (let b = 0; b < 64; b++) {
          if (b === ep.mid || !has(ul & ~rl, uh & ~rh, b) || !has(lostOpp[2 * q]!, lostOpp[2 * q + 1]!, b)) continue;
          const d = this.table[this.row(opp, q) + b]!;
          const e = this.epScore(stm, ep.slot, ep.mid, ep.caps, b);
          if (e === NO_CAPTURE ? d === n - 1 : e < 0 && Math.max(d, e + 1000) === n - 1) { rl |= bitLo(b); rh |= bitHi(b); }
        }
      }
    }
    const wl = rl & ul, wh = rh & uh;
    if ((wl | wh) === 0) return 0;
    const notWon = this.notWon[stm]!;
    notWon[i] &= ~wl; notWon[i + 1] &= ~wh;
    und[i] &= ~wl; und[i + 1] &= ~wh;
    if (dtz && winCode >= DTZ_LONG_WIN) this.writeLong(stm, p, wl, wh, DTZ_LONG_WIN, n, DTZ_LONG_WIN - DTZ_WIN_BASE);
    else this.write(stm, p, wl, wh, winCode);
    return popcount32(wl) + popcount32(wh);
  }

  get progress(): [number, number] {
    if (this.dtz) return [this.levelIndex * 256 + Math.min(this.n + 1, 255), this.levelsUsed * 256 + 1];
    return [this.n + 3, Math.max(this.n + 4, this.maxConv + 4)];
  }
}

function checkInputs(m: TbMaterial, subs: readonly TbSubTableJs[], table: Uint8Array): void {
  if (m.n > JS_MAX_PIECES) throw new RangeError(`tbGenerate: the JS generator makes tables of up to ${JS_MAX_PIECES} pieces`);
  if (table.length !== tbTableSize(m)) throw new RangeError(`tbGenerate: table must have ${tbTableSize(m)} bytes`);
  for (const s of subs) if (s.data.length !== tbTableSize(s.material)) throw new RangeError(`tbGenerate: sub-table ${s.material.name} has the wrong size`);
}

/** The long values of a finished generator as (index, plies) pairs sorted by index. */
function longPairs(g: Generator): Uint32Array {
  const sorted = [...g.longs].sort((a, b) => a[0] - b[0]);
  return Uint32Array.from(sorted.flat());
}

/** Fills `table` (tbTableSize(m) bytes) synchronously; `dtz`: distance to zeroing instead of mate (sub-tables DTZ too). Returns the long values (tbgen.h: (index, plies) pairs). */
export function tbGenerateJsSync(m: TbMaterial, subs: readonly TbSubTableJs[], table: Uint8Array, dtz = false): Uint32Array {
  checkInputs(m, subs, table);
  const g = new Generator(m, table, subs, dtz);
  while (g.step());
  return longPairs(g);
}

/** The table of m, one ply per event-loop turn; `cancelled()` is polled between plies (the promise then resolves early, unfinished). */
export async function tbGenerateJs(m: TbMaterial, subs: readonly TbSubTableJs[], report?: (done: number, total: number) => void,
  cancelled?: () => boolean, dtz = false): Promise<{ table: Uint8Array; longs: Uint32Array }> {
  const table = new Uint8Array(tbTableSize(m));
  checkInputs(m, subs, table);
  const g = new Generator(m, table, subs, dtz);
  for (;;) {
    if (cancelled?.()) return { table, longs: new Uint32Array(0) };
    const more = g.step();
    const [d, t] = g.progress;
    report?.(more ? d : t, t);
    if (!more) return { table, longs: longPairs(g) };
    await new Promise<void>((resolve) => { setImmediate(resolve); });
  }
}
