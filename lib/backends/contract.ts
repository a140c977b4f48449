/**
 * The contract both backends implement (native addon and pure-TS BigInt twin).
 *
 * The public facade (`lib/api/create-api.ts`) validates argument *types*, scalar ranges and typed-array
 * lengths before calling a backend, and allocates batch outputs, so backends receive:
 * - squares as integers 0..63, colours as 0 | 1, bitboards as bigints in 0..2^64-1;
 * - batch arrays of the right type, all of length `out.length`.
 * Backends must still range-check the *elements* of batch square arrays (a Uint8Array can hold
 * 64..255) and throw a RangeError naming the function and index; the native backend re-checks
 * everything else too (never trust JS), the JS backend need not.
 *
 * Semantics are defined once, here or (for the members derived from the declarations, see
 * DeclaredBackendMembers) in lib/api/declarations.ts; both twins must give identical answers on every input.
 */

import type { MAX_MOVES, PACKED_POSITION_WORDS, PERFT_STATS_COLUMNS, ParseInto, Position } from '../core/types.js';

/**
 * Implementation variants the Chess Programming Wiki pages show side by side. The API uses the fastest (measured in
 * bench/); the others are kept so tests can prove they agree and the bench can compare them.
 */
export interface Variants extends CheckVariants {
  /** dirSet with the King Pattern page's if/else chain (precedence slip fixed: `(pattern & line) == pattern`). */
  distantCheckLinesBranchy(kingSq: number, taboo: bigint): number;
  /** dirSet as the King Pattern page's sum of boolean compares. */
  distantCheckLinesBranchless(kingSq: number, taboo: bigint): number;
  /**
   * dirSet with SSE4.1 `_mm_cmpeq_epi64` over the 64-entry {rank, file, diag, anti} table.
   * Native only; `undefined` on the JS backend and on builds/CPUs without SSE4.1.
   */
  distantCheckLinesSse41?: (kingSq: number, taboo: bigint) => number;
  /** Multiple knight attacks, the Knight Pattern page's east/west version. */
  knightAttacksSetEastWest(knights: bigint): bigint;
  /** Multiple knight attacks, the Knight Pattern page's l1/l2/r1/r2 version ("more parallelism"). */
  knightAttacksSetParallel(knights: bigint): bigint;
}

/**
 * The members of `Backend` that lib/api/declarations.ts derives from `DECLARATIONS` (its
 * `BackendMembers`, added here by module augmentation): one per plain declaration (no `call`, no
 * `member`, not a variant) with the declaration's name, its arguments as the facade passes them
 * (checked, defaults filled) and, for a batch form, the trailing `out` it fills. The facade calls
 * them by name; their semantics are the declarations' doc comments.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeclaredBackendMembers {}

export interface Backend extends DeclaredBackendMembers, CheckBackend, MoveBackend, KbnkBackend {
  readonly name: 'native' | 'wasm' | 'js';
  /** Batch analysis (lib/batch/batch.ts drives it; native/addon/batch.cc and lib/backends/js/batch.ts implement it). */
  readonly batch: BatchBackend;
  /**
   * Which code path runs: 'sse4.1+popcnt+bmi2', 'sse4.1+popcnt' or 'portable' (native), 'wasm32+simd128'
   * or 'wasm32' (wasm), 'bigint' (js).
   */
  readonly cpuPath: string;
  readonly variants: Variants;
  /** Standard Algebraic Notation (native/core/san.h, lib/backends/js/san.ts). */
  readonly san: SanBackend;
  /** The PGN reader (native/core/pgn.h, lib/backends/js/pgn.ts). */
  readonly pgn: PgnBackend;
  /**
   * The tablebase generator of the addon (native/core/tbgen.h); null on the JS backend, whose
   * generator (lib/backends/js/tbgen.ts) lib/tablebases/tablebase.ts drives itself.
   */
  readonly tbgen: TbGenBackend | null;
  /**
   * The addon's Syzygy prober over mapped files (native/core/syzygy.h); null on the JS backend, whose
   * prober (lib/backends/js/syzygy.ts) lib/tablebases/syzygy.ts drives itself.
   */
  readonly syzygy: SyzygyBackend | null;
  /**
   * libzstd in the addon (native/addon/zstd.cc), where it was built with zstd.h and libzstd loads;
   * absent elsewhere (the JS backend, a browser): .zst input is then read by the pure-JS fzstd.
   */
  readonly zstd?: ZstdBackend;

}

export interface CheckVariants {
  /** Absolute pins by the Checks and Pinned Pieces page's x-ray method (xray attacks from the king, own pieces as blockers, `between` per pinner). */
  pinnedPiecesXray(pos: Position, color: number): bigint;
  /** Absolute pins by opposite ray-directions (the Checks and Pinned Pieces page's DirGolem proposal). */
  pinnedPiecesOppositeRays(pos: Position, color: number): bigint;
  /** Sliding attacks by magic multiplication (native) / the JS method (js). */
  rookAttacksMagic(sq: number, occupied: bigint): bigint;
  bishopAttacksMagic(sq: number, occupied: bigint): bigint;
  /** BMI2 PEXT-indexed sliding attacks: native on CPUs with BMI2 only, else undefined. */
  rookAttacksPext?: (sq: number, occupied: bigint) => bigint;
  bishopAttacksPext?: (sq: number, occupied: bigint) => bigint;
}

/**
 * Checks, pins and sliders. Position functions receive a validated Position (the native adapter
 * passes the words `packedOf` writes from the Position's halves, never `pos.packed`). `color` is 0 | 1; "enemy" means the other colour.
 */
export interface CheckBackend {
  /** Pieces of `byColor` attacking sq (pawns, knights, bishops, rooks, queens, king), sliders seen through `occupied`. */
  attackersTo(pos: Position, sq: number, byColor: number, occupied: bigint): bigint;
  /** Enemy pieces giving check to the king of `color`. */
  checkers(pos: Position, color: number): bigint;
  /**
   * The check a move gives: 0 none, 1 direct (the moved piece, as promoted, attacks the enemy
   * king from its target square; for castling, the rook from its new square), 2 discovered (a line
   * to the enemy king opened by the from-square or, en passant, the captured pawn's square),
   * 3 both; -1 when the move is not legal (wrong side's or no piece, impossible for the piece,
   * blocked, own king left in check, castling through or out of check, missing promotion or a
   * promotion that is not a pawn reaching the last rank). promotion: 0 none, 1 knight, 2 bishop,
   * 3 rook, 4 queen.
   */
  checkKind(pos: Position, from: number, to: number, promotion: number): number;
  /**
   * The static exchange evaluation of from -> to (promotion 0 none, 1 knight .. 4 queen) in
   * centipawns (native/core/motifs.h), or SEE_ILLEGAL when the move is not legal.
   */
  see(pos: Position, from: number, to: number, promotion: number): number;
  /** 1 when see >= threshold (centipawns), 0 when not, -1 when the move is not legal. */
  seeGe(pos: Position, from: number, to: number, promotion: number, threshold: number): number;
}

/**
 * Legal move generation and perft. Position functions receive a validated Position (the native
 * adapter passes the words `packedOf` writes, never `pos.packed`). Counts are returned as numbers (exact up to 2^53).
 */
export interface MoveBackend {
  /**
   * Writes every legal move of the side to move to out[0..n-1] and returns n; order unspecified.
   * RangeError when out.length < MAX_MOVES (256).
   */
  legalMoves(pos: Position, out: Uint16Array): number;
  /**
   * The position after the move from -> to (promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen),
   * written to `out` (PACKED_POSITION_WORDS words, else RangeError) in the packed layout; returns
   * true, or false (out left as it was) when the move is not one of legalMoves(pos). Copy-make on the
   * board definition: a capture removes the piece on `to` (en passant: the pawn behind it), castling
   * moves the rook too, castling rights touched by from or to are lost, the halfmove clock restarts
   * after a pawn move or capture (else +1), the fullmove number grows after black's move (both
   * capped at 1000000), and the en-passant square of a double push is kept only when a legal
   * en-passant capture uses it (so equal positions have equal FENs).
   */
  makeMove(pos: Position, from: number, to: number, promotion: number, out: BigUint64Array): boolean;
  /**
   * makeMove's Position itself, where a backend makes it cheaper than through packed words (the JS
   * twin); undefined when the move is not one of legalMoves(pos).
   */
  makeMovePosition?: (pos: Position, from: number, to: number, promotion: number) => Position | undefined;
  /**
   * Leaf nodes of the legal move tree to `depth` plies: depth 0 -> 1, depth 1 -> number of legal
   * moves (bulk counting at the last ply). depth: integer 0..20, else RangeError.
   */
  perft(pos: Position, depth: number): number;
  /**
   * The chess programming wiki's "Perft Results" columns, counted over the moves of the last ply
   * (the leaf moves), written to out (length 9, else RangeError) in PERFT_STATS_COLUMNS order:
   *  0 nodes        leaf moves (= perft);
   *  1 captures     leaf moves that capture, en passant included;
   *  2 enPassant    en-passant captures;
   *  3 castles      castling moves;
   *  4 promotions   promotion moves, each promotion piece counted (a8=Q and a8=N are two);
   *  5 checks       moves giving check of any kind (direct, discovered, double; mates included);
   *  6 discoveryChecks  moves giving discovered check only (checkKind 2: a double check, 3, is not
   *                 counted here; the wiki's position 3 depth 5 gives 1292 this way);
   *  7 doubleChecks moves giving double check (checkKind 3);
   *  8 checkmates   moves after which the opponent is in check and has no legal move.
   * depth 0: nodes 1, the rest 0. depth: integer 0..20, else RangeError.
   */
  perftStats(pos: Position, depth: number, out: Float64Array): void;
  /** Native only: perft on `threads` (1..256) native threads, the tree split near the root; the same count. */
  perftThreads?: (pos: Position, depth: number, threads: number) => number;
  /** Native only: perftStats on `threads` (1..256) native threads; the same columns. */
  perftStatsThreads?: (pos: Position, depth: number, out: Float64Array, threads: number) => void;
  /**
   * Native only: perft (stats false: resolves with a new Float64Array [nodes]) or perftStats (a new
   * Float64Array of the nine columns) from the addon's async work on `threads` native threads. The
   * position is copied before the call returns. `cancel[0]` set non-zero stops the threads between
   * subtrees; the promise then resolves with null.
   */
  perftAsync?: (pos: Position, depth: number, threads: number, stats: boolean, cancel: Int32Array)
    => Promise<Float64Array | null>;
}

export interface KbnkBackend {
  /**
   * Mop-up score for the strong side (higher = better for it), from the squares: drives the weak
   * king to a corner of the bishop's colour and brings the strong king close. Exactly, with
   * chebyshev = max(|file diff|, |rank diff|) and manhattan = |file diff| + |rank diff|:
   *   (7 - cornerDistance(bishop, weakKing)) * 16
   *   + (7 - chebyshev(strongKing, weakKing)) * 4
   *   + (14 - manhattan(strongKing, weakKing))
   * An integer in 0..154 for any four squares (no legality check; `knight` does not enter the score,
   * it is in the signature so callers pass the whole material and the formula may grow in a v2).
   * Corner weight dominates: one step nearer the right corner (16) outweighs any king-distance gain
   * (at most 4 + 2 per step).
   */
  kbnkEval(strongKing: number, bishop: number, knight: number, weakKing: number): number;
}

// =====================================================================================
// Batch analysis (lib/batch/batch.ts): many packed positions, one typed array per feature.
// =====================================================================================

/**
 * `outs[f]` is the output of feature f (FEATURES order in lib/batch/batch.ts): a BigUint64Array or a
 * Uint8Array of `featureWidth(f) * n` elements for requested features, anything for the others.
 * `valid` (or null): positions whose flag is 0 are skipped and get zeros. Inconsistent positions
 * (validatePacked) are a RangeError naming the index (the outputs are then to be dropped: they may
 * hold results past it). Otherwise every element of every requested output is written (zeros for
 * skipped positions), so the caller need not zero them.
 */
export interface BatchBackend {
  readonly featureCount: number;
  readonly planeBytes: number;
  /** Threads the native async analysis uses by default (1 on the JS backend). */
  readonly hardwareThreads: number;
  /**
   * Lines of UTF-8 text (ending at '\n') -> [packed words, status (0 ok, 1.. = FEN_STATUS field,
   * 8 = not ASCII: parse this line in JS), lineStarts (n + 1 byte offsets)]. With `into` long enough
   * for the n lines (and apart from `text`), they are written to the starts of its arrays instead and
   * the result is n. `chess960`: castling fields read as X-FEN (parseFen's `{ chess960: true }`).
   */
  parseFenText(text: Uint8Array, epd: boolean, into?: ParseInto, chess960?: boolean): [BigUint64Array, Uint8Array, Uint32Array] | number;
  analyzeBatch(words: BigUint64Array, valid: Uint8Array | null, features: number,
    outs: (BigUint64Array | Uint8Array | undefined | null)[]): void;
  /** Resolves true when done, false when `cancel[0]` became non-zero first. */
  analyzeBatchAsync(words: BigUint64Array, valid: Uint8Array | null, features: number,
    outs: (BigUint64Array | Uint8Array | undefined | null)[], threads: number, cancel: Int32Array): Promise<boolean>;
  toPlanes(words: BigUint64Array, valid: Uint8Array | null, out: Uint8Array): void;
  /**
   * see of moves[i] (a 16-bit move code) in position i into out[i]; slots `valid` marks 0 get 0.
   * Returns -1 when every move was evaluated, else 2 * i for the first invalid position i or
   * 2 * i + 1 for the first illegal move i (out then unspecified from i on).
   */
  seeBatch(words: BigUint64Array, valid: Uint8Array | null, moves: Uint16Array, out: Int16Array): number;
  /**
   * The addon's record formatter (native/addon/records.h; the JS one is lib/batch/records.ts): the
   * NDJSON or CSV bytes of analysed lines, or their count when they were written to the start of
   * `into`, and where each record starts. Native only.
   */
  formatRecords?: (text: Uint8Array, starts: Uint32Array, valid: Uint8Array, order: Uint8Array,
    outs: (BigUint64Array | Uint8Array | undefined | null)[], format: number, firstLine: number, into?: Uint8Array)
    => [Uint8Array | number, Uint32Array];
  /**
   * Every packed position's FEN as the analyze command writes it (native/addon/records.h putFen; the
   * JS writer is fenInto in lib/cli/pgn-input.ts): [the FENs one after another, where each ends];
   * with `into` long enough (and apart from `words`), they are written to its start and the first
   * element is their byte count. `prefixed`: each FEN after its length (4 bytes, little-endian: a
   * Parquet PLAIN BYTE_ARRAY value), the length word within the FEN's span. Native only.
   */
  fenTexts?: (words: BigUint64Array, into?: Uint8Array, prefixed?: boolean) => [Buffer | number, Uint32Array];
  /**
   * The opening-name row of each packed position (lib/games/openings.ts openingsOfBatch): a
   * position whose occupancy hashes into the bit set `occupancy` is looked up by its Polyglot key in
   * `keys` (ascending); out[i] is the matching entry of `rows`, or -1 (invalid, filtered out, not
   * found). Native only.
   */
  openingRows?: (words: BigUint64Array, valid: Uint8Array | null, occupancy: Uint32Array, keys: BigUint64Array, rows: Int32Array, out: Int32Array) => void;
  /**
   * The analyze command's NDJSON (format 0) or CSV (1) records of PGN positions from..to-1 (the
   * JS writer is formatChunk in lib/cli/pgn-input.ts), with the SAN read from the reader's records
   * (`san`, `games`: PgnRecords, games numbered from firstGame) and the features of `order` from
   * `outs` (as formatRecords); written to into[at..]: the byte count, or minus it when it does not
   * fit (into[at..] may then hold part of them). Native only.
   */
  pgnRecords?: (words: BigUint64Array, game: Uint32Array, ply: Uint32Array, from: number, to: number, san: Uint8Array,
    games: Int32Array, firstGame: number, gameOffset: number, outs: (BigUint64Array | Uint8Array | undefined | null)[],
    order: Uint8Array, format: number, into: Uint8Array, at: number) => number;
  /**
   * The analyze command's native pipeline (native/addon/analyze_file.cc): reads, analyses and writes
   * a plain file on the addon's own threads; resolves [stop, message, lines, errors, bytes, errno of
   * a failed write]. `onLines` makes the records of the lines it cannot finish alone. Native only.
   */
  analyzeFile?: (path: string, order: Uint8Array, format: number, strict: boolean, threads: number, bounds: Float64Array,
    maxLineBytes: number, onLines: (text: Uint8Array, starts: Uint32Array, lineNumbers: Float64Array, tooLong: string | undefined) => LineRecords,
    onProgress?: (lines: number, kib: number) => void, chess960?: boolean) => Promise<[number, string, number, number, number, number]>;
}

/**
 * The records of lines analyzeFile hands back to JS: each line's packed words where it parsed
 * (ok[i] = 1), the records concatenated (record i ends at ends[i]), the first error's text.
 */
export interface LineRecords { words: BigUint64Array; ok: Uint8Array; records: Uint8Array; ends: Uint32Array; firstError?: string }

// =====================================================================================
// Games, tablebases: the per-topic primitives each backend provides.
// =====================================================================================

/** What one call reads: compact records (see native/core/pgn.h Output). */
export interface PgnRecords {
  games: Int32Array;
  moves: Uint16Array;
  san: Uint8Array;
  tags: Int32Array;
  comments: Int32Array;
  nags: Int32Array;
  positions: BigUint64Array;
  positionGame: Uint32Array;
  positionPly: Uint32Array;
  /** ANNOTATION_FIELDS per command (pgn-annotations.ts), with PGN_WRITE_ANNOTATIONS. */
  annotations: Int32Array;
  consumed: number;
  consumedLine: number;
}

/**
 * One read of PGN bytes into compact records: `gameBase` is added to the game index of each position
 * (positionGame); with `into`, each position array is written into the memory of the matching array
 * of `into` when its buffer has room from the array's offset on (the result is then a view of that
 * buffer), else it is new memory.
 */
export interface PgnBackend {
  read(bytes: Uint8Array, flags: number, every: number, fromPly: number, firstLine: number, gameBase?: number,
    into?: readonly [BigUint64Array, Uint32Array, Uint32Array]): PgnRecords;
  /**
   * The tree of one game's movetext bytes[start, end) from the packed position `words`, with its
   * variations (native/core/pgn_tree.h): its events written into `events` from index `at` and its
   * nodes' SAN into `sans` from `sanAt`; the number of Int32 written, or -1 (nothing written) when
   * either has no room (4 (end - start) + 4 elements of each always suffice). Where a backend has
   * none, lib/games/pgn-tree.ts reads the tree itself.
   */
  tree?(bytes: Uint8Array, start: number, end: number, words: BigUint64Array, events: Int32Array, at: number, sans: Uint8Array, sanAt: number): number;
}

/**
 * Zstandard (RFC 8878) through libzstd. A reader decompresses a stream of frames piece by piece:
 * `push(reader, input)` returns [bytes of input consumed, whether output may wait without more
 * input, ...decompressed pieces] and throws an Error ("zstd: ...") on corrupt data; `end(reader)`
 * is true when the input ended at a frame's end (false: truncated). `compress` makes one frame.
 */
export interface ZstdBackend {
  readerNew(): unknown;
  push(reader: unknown, input: Uint8Array): [number, boolean, ...Uint8Array[]];
  end(reader: unknown): boolean;
  compress(input: Uint8Array, level: number): Uint8Array;
  readonly version: string;
}

/** SAN of one position; moves as 16-bit codes (from | to << 6 | promotion << 12). */
export interface SanBackend {
  /** Canonical SAN, '' when the code is no legal move. */
  write(pos: Position, code: number): string;
  /** status | candidates << 8, the matching moves in out. */
  parse(pos: Position, san: Uint8Array, out: Uint16Array): number;
  /** [codes, sans] in generation order. */
  list(pos: Position): [Uint16Array, string[]];
}

/** The addon's tablebase generator: material names as 'KQvK', sub-endings' tables by name. */
export interface TbGenBackend {
  tbGenerate(material: string, subNames: string, subTables: Uint8Array[], table: Uint8Array, threads?: number, metric?: number): Uint32Array;
  tbGenerateAsync(material: string, subNames: string, subTables: Uint8Array[], threads: number,
    onProgress: ((done: number, total: number) => void) | undefined, cancel: Int32Array, metric?: number): Promise<[Uint8Array, Uint32Array]>;
}

/**
 * The addon's Syzygy prober. A damaged file is an Error with code BBP_SYZYGY_FILE and the fields
 * `problem` and `path`.
 */
export interface SyzygyBackend {
  syzygyOpen(paths: string[]): unknown;
  syzygyProbe(handle: unknown, packed: BigUint64Array, dtz: boolean): number;
  /** [wdl, dtz, n, then per move: move, wdl, dtz, zeroing | mate << 1], best first; null when unanswerable. */
  syzygyProbeRoot(handle: unknown, packed: BigUint64Array): Int32Array | null;
  syzygyProbeBatch(handle: unknown, packed: BigUint64Array, dtz: boolean, out: Int8Array | Int16Array, valid: Uint8Array | null, threads: number): void;
  syzygyProbeBatchAsync(handle: unknown, packed: BigUint64Array, dtz: boolean, valid: Uint8Array | null, threads: number): Promise<Int8Array | Int16Array>;
  syzygyClose(handle: unknown): void;
  syzygyVerify(handle: unknown): void;
}