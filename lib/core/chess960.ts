/**
 * Chess960 (Fischer random chess) in positions: castling rights kept as rook files, the FEN castling
 * field in its three spellings, and the 960 start positions.
 *
 * - Standard FEN `KQkq`: the king on e1 / e8 with the rook on h / a.
 * - X-FEN (Reinhard Scharnagl): `KQkq` name the outermost rook on that side of the king, a file
 *   letter (`A`..`H` white, `a`..`h` black) an inner rook.
 * - Shredder-FEN: always the rook's file letter (`HAha` for the standard setup).
 * A Position's castling rights are CASTLE_* bits (which rights exist) plus, per right, its rook's
 * file. In the packed layout (lib/core/types.ts) the files are stored XOR the standard file (h for
 * the king side, a for the queen side), so a standard position's words are the same as before
 * Chess960 came in: every file field 0.
 *
 * The start positions are numbered as in Scharnagl's scheme (Chess Programming Wiki: Chess960
 * Start Positions / Wikipedia: Fischer random chess numbering scheme): 518 is the standard setup.
 */
import { KING, ROOK } from './types.js';

/** The standard rook file of each right K, Q, k, q (the zero of the packed file fields). */
export const STANDARD_ROOK_FILES = [7, 0, 7, 0] as const;
/** State bit 5 of the packed layout: the position is a Chess960 position. */
export const STATE_CHESS960 = 0x20;
/** Bit of the packed word 8's high half where the 12 bits of rook file fields start (3 per right). */
export const ROOK_FILES_SHIFT = 8;

const FILE_LETTERS = 'abcdefgh';

/** Bit sq of the set whose halves are h[j], h[j + 1]. */
const bitOf = (h: ArrayLike<number>, j: number, sq: number): number => (h[j + (sq >> 5)]! >>> (sq & 31)) & 1;

/** The file of the king of colour c on its back rank, or -1 when it is elsewhere. */
export function backRankKingFile(h: ArrayLike<number>, c: number): number {
  const rank = c === 0 ? 0 : 7;
  for (let f = 0; f < 8; f++) {
    const sq = rank * 8 + f;
    if (bitOf(h, 2 * c, sq) & bitOf(h, 4 + 2 * KING, sq)) return f;
  }
  return -1;
}

/** Whether a rook of colour c stands on its back rank on file f. */
export function backRankRook(h: ArrayLike<number>, c: number, f: number): boolean {
  const sq = (c === 0 ? 0 : 56) + f;
  return (bitOf(h, 2 * c, sq) & bitOf(h, 4 + 2 * ROOK, sq)) !== 0;
}

/** The packed file fields (12 bits) of rook files per right (-1 for a right not held). */
export function rookFieldsOf(files: readonly number[]): number {
  let bits = 0;
  for (let r = 0; r < 4; r++) if (files[r]! >= 0) bits |= (files[r]! ^ STANDARD_ROOK_FILES[r]!) << (3 * r);
  return bits;
}

/** Rook file per right K, Q, k, q from the castling bits and the packed file fields; -1 when not held. */
export function rookFilesOf(castling: number, fields: number): [number, number, number, number] {
  const out: [number, number, number, number] = [-1, -1, -1, -1];
  for (let r = 0; r < 4; r++) if (castling & (1 << r)) out[r] = ((fields >> (3 * r)) & 7) ^ STANDARD_ROOK_FILES[r]!;
  return out;
}

/** The outermost rook of colour c on its back rank on the king side (r even) or queen side of a king on file kf; -1 for none. */
function outermostRook(h: ArrayLike<number>, c: number, kf: number, kingSide: boolean): number {
  if (kingSide) {
    for (let f = 7; f > kf; f--) if (backRankRook(h, c, f)) return f;
  } else {
    for (let f = 0; f < kf; f++) if (backRankRook(h, c, f)) return f;
  }
  return -1;
}

/** A castling field read: CASTLE_* bits, the packed rook file fields, and whether it makes a Chess960 position. */
export interface CastlingRead { castling: number; fields: number; chess960: boolean }

/**
 * The FEN castling field `text` on the sets `h` (16 int32 halves): a CastlingRead, or the reason it
 * is bad (a string). Without `chess960` the field is standard (`KQkq` in that order) or
 * Shredder-FEN (file letters only, which makes a Chess960 position); with it, X-FEN or
 * Shredder-FEN letters in any order, each right at most once.
 */
export function readCastlingField(text: string, h: ArrayLike<number>, chess960: boolean): CastlingRead | string {
  if (text === '-') return { castling: 0, fields: 0, chess960 };
  if (text === '') return "must be '-' or castling letters";
  if (!chess960 && /^K?Q?k?q?$/.test(text)) {
    let castling = 0;
    for (let r = 0; r < 4; r++) if (text.includes('KQkq'[r]!)) castling |= 1 << r;
    return { castling, fields: 0, chess960: false };
  }
  if (!chess960 && !/^[A-Ha-h]+$/.test(text)) {
    return "must be '-', some of KQkq in that order (each at most once), or Shredder-FEN file letters (A-H, a-h)";
  }
  if (!/^[KQkqA-Ha-h]+$/.test(text) || text.length > 4) {
    return "must be '-' or at most four of KQkq and file letters (A-H white, a-h black)";
  }
  const files = [-1, -1, -1, -1];
  for (const ch of text) {
    const c = ch === ch.toUpperCase() ? 0 : 1;
    const kf = backRankKingFile(h, c);
    const side = c === 0 ? 'white' : 'black';
    if (kf < 0) return `castling ${ch} needs the ${side} king on its first rank`;
    let file: number, kingSide: boolean;
    const lower = ch.toLowerCase();
    if (lower === 'k' || lower === 'q') {
      kingSide = lower === 'k';
      file = outermostRook(h, c, kf, kingSide);
      if (file < 0) return `castling ${ch} needs a ${side} rook on the ${kingSide ? 'king' : 'queen'}'s side of the king on its first rank`;
    } else {
      file = FILE_LETTERS.indexOf(lower);
      if (file === kf) return `castling ${ch} names the king's own file`;
      if (!backRankRook(h, c, file)) return `castling ${ch} needs a ${side} rook on ${lower}${c === 0 ? 1 : 8}`;
      kingSide = file > kf;
    }
    const r = 2 * c + (kingSide ? 0 : 1);
    if (files[r]! >= 0) return `two ${side} ${kingSide ? 'king' : 'queen'}-side castling rights`;
    files[r] = file;
  }
  let castling = 0;
  for (let r = 0; r < 4; r++) if (files[r]! >= 0) castling |= 1 << r;
  return { castling, fields: rookFieldsOf(files), chess960: true };
}

/** The castling field of a position: standard `KQkq`, X-FEN (default for Chess960) or Shredder-FEN. */
export function castlingFieldOf(h: ArrayLike<number>, castling: number, fields: number, chess960: boolean, shredder: boolean): string {
  if (castling === 0) return '-';
  const files = rookFilesOf(castling, fields);
  let out = '';
  for (let r = 0; r < 4; r++) {
    if (files[r]! < 0) continue;
    const c = r >> 1;
    let letter: string;
    if (shredder) letter = FILE_LETTERS[files[r]!]!;
    else if (!chess960) letter = 'kq'[r & 1]!;
    else {
      const kf = backRankKingFile(h, c);
      letter = outermostRook(h, c, kf, (r & 1) === 0) === files[r] ? 'kq'[r & 1]! : FILE_LETTERS[files[r]!]!;
    }
    out += c === 0 ? letter.toUpperCase() : letter;
  }
  return out;
}

/**
 * parseFen's castling rule for Chess960, on halves and the state: each right held has the king of
 * its colour on its first rank and a rook of that colour on that rank at the right's file, on the
 * right's side of the king; the file fields of rights not held are zero. A standard position (no
 * Chess960 bit) has every file field zero and the king and rook on the standard squares (checked
 * elsewhere). Returns the problem, or undefined. `h` is an Int32Array when `at` is not 0.
 */
export function chess960CastlingProblem(h: ArrayLike<number>, at: number, castling: number, fields: number): string | undefined {
  for (let r = 0; r < 4; r++) {
    if (!(castling & (1 << r))) {
      if ((fields >> (3 * r)) & 7) return 'the rook file of a castling right not held must be zero';
      continue;
    }
    const c = r >> 1;
    const file = ((fields >> (3 * r)) & 7) ^ STANDARD_ROOK_FILES[r]!;
    const kf = backRankKingFile(at === 0 ? h : (h as Int32Array).subarray(at), c);
    const ok = kf >= 0 && backRankRook(at === 0 ? h : (h as Int32Array).subarray(at), c, file) && ((r & 1) === 0 ? file > kf : file < kf);
    if (!ok) return CHESS960_CASTLING_PROBLEMS[r];
  }
  return undefined;
}

export const CHESS960_CASTLING_PROBLEMS = [
  'Chess960 castling right K needs the white king on the first rank and a white rook there on its h side at the right\'s file',
  'Chess960 castling right Q needs the white king on the first rank and a white rook there on its a side at the right\'s file',
  'Chess960 castling right k needs the black king on the eighth rank and a black rook there on its h side at the right\'s file',
  'Chess960 castling right q needs the black king on the eighth rank and a black rook there on its a side at the right\'s file',
];

// ---- Start positions (Scharnagl's numbering) ----

/** The placement of knights on the five squares left after bishops and queen, per knight code 0..9. */
const KNIGHT_PAIRS = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]] as const;

/** White's first rank of start position n (0..959) as piece letters a..h, e.g. 518 -> 'RNBQKBNR'. */
export function chess960BackRank(n: number): string {
  const rank: string[] = Array(8).fill('');
  rank[(n % 4) * 2 + 1] = 'B';
  n = Math.floor(n / 4);
  rank[(n % 4) * 2] = 'B';
  n = Math.floor(n / 4);
  const empty = (): number[] => rank.flatMap((p, f) => (p === '' ? [f] : []));
  rank[empty()[n % 6]!] = 'Q';
  n = Math.floor(n / 6);
  const [a, b] = KNIGHT_PAIRS[n]!;
  const five = empty();
  rank[five[a]!] = 'N';
  rank[five[b]!] = 'N';
  const [r1, k, r2] = empty();
  rank[r1!] = 'R';
  rank[k!] = 'K';
  rank[r2!] = 'R';
  return rank.join('');
}

/** The FEN (X-FEN: KQkq) of Chess960 start position n. */
export function chess960StartFen(n: number): string {
  const rank = chess960BackRank(n);
  return `${rank.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${rank} w KQkq - 0 1`;
}

/** The number (0..959) of a white first rank given as piece letters a..h, or -1 when it is no Chess960 start rank. */
export function chess960NumberOfBackRank(rank: string): number {
  if (!/^[RNBQK]{8}$/.test(rank)) return -1;
  const bishops = [...rank].flatMap((p, f) => (p === 'B' ? [f] : []));
  if (bishops.length !== 2 || (bishops[0]! + bishops[1]!) % 2 !== 1) return -1;
  const light = bishops.find((f) => f % 2 === 1)!, dark = bishops.find((f) => f % 2 === 0)!;
  const rest = [...rank].filter((p) => p !== 'B');
  const queen = rest.indexOf('Q');
  const five = rest.filter((p) => p !== 'Q');
  const knights = five.flatMap((p, i) => (p === 'N' ? [i] : []));
  const code = KNIGHT_PAIRS.findIndex(([x, y]) => x === knights[0] && y === knights[1]);
  if (queen < 0 || code < 0 || knights.length !== 2) return -1;
  const n = ((code * 6 + queen) * 4 + dark / 2) * 4 + (light - 1) / 2;
  return chess960BackRank(n) === rank ? n : -1;
}
