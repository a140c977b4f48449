/**
 * The Backend of the WebAssembly core (./core.ts): the C++ of native/core compiled to wasm32, driven
 * over its linear memory. A Position's words are written straight into the module's memory (no
 * packed copy in between); a batch is one bulk copy in and one out per array, never an element at a
 * time; the PGN reader is the module's (./pgn.ts). Where the module returns "element i is bad", the
 * JS twin runs the same call to throw its own error, so every backend throws the same class with the
 * same words.
 *
 * The declared functions and their batch forms are the module's through the generated
 * ./generated/declared.ts. Answered by the JS twin on this backend (../twin-only.ts lists them with
 * the reasons): FEN text parsing (`batch.parseFenText`), SAN and the tablebase generator; `syzygy`
 * is null as on the twin (the module probes tables given as bytes, ./syzygy.ts, which
 * SyzygyTablebase.fromBytes uses; a directory of files is the addon's or the twin's). The addon-only
 * members (threads, the record formatter, analyzeFile) are absent, as on the twin.
 */
import type { Backend, BatchBackend, CheckVariants, Variants } from '../contract.js';
import type { Position } from '../../core/types.js';
import { CHECK_ANALYSIS_WORDS, MAX_MOVES, PACKED_POSITION_WORDS, PERFT_STATS_COLUMNS, PLANE_BYTES } from '../../core/types.js';
import { FEATURE_COUNT, featureWidth, isU64Feature } from '../../core/features.js';
import { writeHalves } from '../../core/position-record.js';
import { jsBackend } from '../js/index.js';
import { packedProblem } from '../../core/packed-rules.js';
import type { WasmCore } from './core.js';
import { wasmPgnBackend } from './pgn.js';
import { wasmPatternFns } from './patterns.js';
import { declaredWasmMembers } from './generated/declared.js';
import type { Scratch } from './scratch.js';

const MAX_DEPTH = 20;
const u64 = (b: bigint): bigint => BigInt.asUintN(64, b);
const align8 = (n: number): number => (n + 7) & ~7;

type Fn = (...args: never[]) => unknown;

/**
 * The JS twin's answer to a call the module refused (a bad element, a bad depth, an odd length): it
 * throws the twin's error. Should the twin accept what the module refused, that is a bug of ours.
 */
function refused(name: string, fn: Fn, args: unknown[]): never {
  (fn as (...a: unknown[]) => unknown)(...args);
  throw new Error(`wasm backend: ${name} was refused by the WebAssembly core but not by the JS backend`);
}

const goodDepth = (depth: number): boolean => Number.isInteger(depth) && depth >= 0 && depth <= MAX_DEPTH;

/** The Backend over an instantiated core. */
export function wasmBackendOf(core: WasmCore): Backend {
  const x = core.x;
  const POS = core.alloc(PACKED_POSITION_WORDS * 8);
  const POS2 = core.alloc(PACKED_POSITION_WORDS * 8);
  const MOVES = core.alloc(MAX_MOVES * 2);
  const STATS = core.alloc(PERFT_STATS_COLUMNS.length * 8);
  const OUTS = core.alloc(FEATURE_COUNT * 4);

  // One scratch block for the arrays of a batch call, grown as needed and kept.
  const scratch = core.scratchBlock();
  /** Pointers to regions of the given byte sizes (8-byte aligned) in the scratch block. */
  function regions(...sizes: number[]): number[] {
    const out: number[] = [];
    let at = scratch(sizes.reduce((s, n) => s + align8(n), 0));
    for (const n of sizes) {
      out.push(at);
      at += align8(n);
    }
    return out;
  }
  const copyIn = (ptr: number, a: ArrayBufferView): void => {
    if (a.byteLength > 0) core.u8.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), ptr);
  };
  const copyOut = (a: ArrayBufferView, ptr: number): void => {
    if (a.byteLength > 0) new Uint8Array(a.buffer, a.byteOffset, a.byteLength).set(core.u8.subarray(ptr, ptr + a.byteLength));
  };
  const put = (pos: Position): number => {
    writeHalves(pos, core.i32, POS >> 2);
    return POS;
  };

  const positionBatch = (kind: number, name: 'checkersBatch' | 'pinnedPiecesBatch' | 'discoveredCheckCandidatesBatch') =>
    (positions: BigUint64Array, color: number, out: BigUint64Array): void => {
      const n = out.length;
      if (positions.length !== n * PACKED_POSITION_WORDS) refused(name, jsBackend[name], [positions, color, out]);
      const [p, o] = regions(8 * positions.length, 8 * n) as [number, number];
      copyIn(p, positions);
      if (x.bbp_position_batch(kind, p, color, o, n) !== n) refused(name, jsBackend[name], [positions, color, out]);
      copyOut(out, o);
    };

  /** analyzeBatch over positions [0, n) of arrays already checked; returns the first bad index, or n. */
  function analyze(words: BigUint64Array, valid: Uint8Array | null, features: number,
    outs: (BigUint64Array | Uint8Array | undefined | null)[]): number {
    const n = words.length / PACKED_POSITION_WORDS;
    const sizes = [8 * words.length, valid ? n : 0];
    for (let f = 0; f < FEATURE_COUNT; f++) sizes.push(features & (1 << f) ? n * featureWidth(f) * (isU64Feature(f) ? 8 : 1) : 0);
    const ptrs = regions(...sizes);
    copyIn(ptrs[0]!, words);
    if (valid) copyIn(ptrs[1]!, valid);
    const table = core.i32;
    for (let f = 0; f < FEATURE_COUNT; f++) table[(OUTS >> 2) + f] = features & (1 << f) ? ptrs[2 + f]! : 0;
    const done = x.bbp_analyze(ptrs[0]!, valid ? ptrs[1]! : 0, n, features, OUTS);
    for (let f = 0; f < FEATURE_COUNT; f++) {
      const o = outs[f];
      if (features & (1 << f) && o) copyOut(o, ptrs[2 + f]!);
    }
    return done;
  }

  /** Throws the twin's error when the arrays do not have the shapes analyzeBatch needs. */
  function checkShapes(name: string, words: BigUint64Array, valid: Uint8Array | null, features: number,
    outs: (BigUint64Array | Uint8Array | undefined | null)[]): void {
    const n = words.length / PACKED_POSITION_WORDS;
    let ok = Number.isInteger(n) && (!valid || valid.length === n) && outs.length === FEATURE_COUNT;
    for (let f = 0; ok && f < FEATURE_COUNT; f++) {
      if (!(features & (1 << f))) continue;
      const o = outs[f];
      ok = !!o && o.length === n * featureWidth(f) && (isU64Feature(f) ? o instanceof BigUint64Array : o instanceof Uint8Array);
    }
    if (!ok) refused(name, jsBackend.batch.analyzeBatch, [words, valid, features, outs]);
  }

  const invalid = (fn: string, words: BigUint64Array, i: number): RangeError =>
    new RangeError(`${fn}: position ${i} is not valid: ${packedProblem(words, i * PACKED_POSITION_WORDS)}`);

  const batch: BatchBackend = {
    featureCount: FEATURE_COUNT,
    planeBytes: PLANE_BYTES,
    hardwareThreads: 1,
    parseFenText: jsBackend.batch.parseFenText,
    analyzeBatch(words, valid, features, outs): void {
      checkShapes('analyzeBatch', words, valid, features, outs);
      const bad = analyze(words, valid, features, outs);
      if (bad !== words.length / PACKED_POSITION_WORDS) throw invalid('analyzeBatch', words, bad);
    },
    async analyzeBatchAsync(words, valid, features, outs, _threads, cancel): Promise<boolean> {
      checkShapes('analyzeBatchAsync', words, valid, features, outs);
      // Its own copy of the inputs, read in chunks between turns of the event loop (one thread).
      words = words.length ? words.slice() : new BigUint64Array(0);
      valid = valid ? (valid.length ? valid.slice() : new Uint8Array(0)) : null;
      const n = words.length / PACKED_POSITION_WORDS;
      const chunk = 8192;
      for (let begin = 0; ; begin += chunk) {
        await new Promise<void>((resolve) => { setTimeout(resolve, 0); });
        if (cancel[0] !== 0) return false;
        if (begin >= n) return true;
        const end = Math.min(n, begin + chunk);
        const part = outs.map((o, f) => (o && features & (1 << f) ? o.subarray(begin * featureWidth(f), end * featureWidth(f)) : o));
        const bad = analyze(words.subarray(begin * PACKED_POSITION_WORDS, end * PACKED_POSITION_WORDS),
          valid ? valid.subarray(begin, end) : null, features, part);
        if (bad !== end - begin) throw invalid('analyzeBatchAsync', words, begin + bad);
      }
    },
    seeBatch(words, valid, moves, out): number {
      const n = words.length / PACKED_POSITION_WORDS;
      if (!Number.isInteger(n) || (valid && valid.length !== n) || moves.length !== n || out.length !== n) {
        refused('seeBatch', jsBackend.batch.seeBatch, [words, valid, moves, out]);
      }
      const [w, v, m, o] = regions(8 * words.length, valid ? n : 0, 2 * n, 2 * n) as [number, number, number, number];
      copyIn(w, words);
      if (valid) copyIn(v, valid);
      copyIn(m, moves);
      const bad = x.bbp_see_batch(w, valid ? v : 0, m, o, n);
      copyOut(out, o);
      return bad;
    },
    toPlanes(words, valid, out): void {
      const n = words.length / PACKED_POSITION_WORDS;
      if (!Number.isInteger(n) || (valid && valid.length !== n) || out.length !== n * PLANE_BYTES) {
        refused('toPlanes', jsBackend.batch.toPlanes, [words, valid, out]);
      }
      const [w, v, o] = regions(8 * words.length, valid ? n : 0, out.length) as [number, number, number];
      copyIn(w, words);
      if (valid) copyIn(v, valid);
      const bad = x.bbp_to_planes(w, valid ? v : 0, o, n);
      if (bad !== n) throw invalid('toPlanes', words, bad);
      copyOut(out, o);
    },
  };

  const rook = (sq: number, occ: bigint): bigint => u64(x.bbpd_rookAttacks(sq, occ));
  const bishop = (sq: number, occ: bigint): bigint => u64(x.bbpd_bishopAttacks(sq, occ));
  const scratchOps: Scratch = {
    batch(name, args, inputs, out, call): void {
      const twin = (jsBackend as unknown as Record<string, Fn>)[name]!;
      const n = out.length;
      if (inputs.some((a) => (a as unknown as { length: number }).length !== n)) refused(name, twin, args);
      const p = regions(...inputs.map((a) => a.byteLength), out.byteLength);
      inputs.forEach((a, i) => copyIn(p[i]!, a));
      if (call(p, n) !== n) refused(name, twin, args);
      copyOut(out, p[inputs.length]!);
    },
  };
  const checkVariants: CheckVariants = Object.freeze({
    pinnedPiecesXray: (pos: Position, color: number) => u64(x.bbp_pinned_pieces_xray(put(pos), color)),
    pinnedPiecesOppositeRays: (pos: Position, color: number) => u64(x.bbp_pinned_pieces_opposite_rays(put(pos), color)),
    rookAttacksMagic: rook,
    bishopAttacksMagic: bishop,
  });

  const patterns = wasmPatternFns(core);
  return Object.freeze({
    ...jsBackend,
    ...declaredWasmMembers(x, scratchOps, put),
    ...patterns,
    variants: Object.freeze({ ...patterns.variants, ...checkVariants }) as Variants,
    name: 'wasm' as const,
    cpuPath: core.simd ? 'wasm32+simd128' : 'wasm32',
    // Moves are made by the module's makeMove below, not the twin's shortcut.
    makeMovePosition: undefined,
    batch: Object.freeze(batch),
    pgn: wasmPgnBackend(core),

    attackersTo: (pos: Position, sq: number, byColor: number, occupied: bigint) =>
      u64(x.bbp_attackers_to(put(pos), sq, byColor, occupied)),
    checkers: (pos: Position, color: number) => u64(x.bbp_checkers(put(pos), color)),
    checkKind: (pos: Position, from: number, to: number, promotion: number) => x.bbp_check_kind(put(pos), from, to, promotion),
    see: (pos: Position, from: number, to: number, promotion: number) => x.bbp_see(put(pos), from, to, promotion),
    seeGe: (pos: Position, from: number, to: number, promotion: number, threshold: number) =>
      x.bbp_see_ge(put(pos), from, to, promotion, threshold),
    checkersBatch: positionBatch(0, 'checkersBatch'),
    pinnedPiecesBatch: positionBatch(1, 'pinnedPiecesBatch'),
    discoveredCheckCandidatesBatch: positionBatch(2, 'discoveredCheckCandidatesBatch'),
    checkAnalysisBatch(positions: BigUint64Array, out: BigUint64Array): void {
      const n = positions.length / PACKED_POSITION_WORDS;
      if (!Number.isInteger(n) || out.length !== n * CHECK_ANALYSIS_WORDS) {
        refused('checkAnalysisBatch', jsBackend.checkAnalysisBatch, [positions, out]);
      }
      const [p, o] = regions(8 * positions.length, 8 * out.length) as [number, number];
      copyIn(p, positions);
      if (x.bbp_check_analysis_batch(p, o, n) !== n) refused('checkAnalysisBatch', jsBackend.checkAnalysisBatch, [positions, out]);
      copyOut(out, o);
    },

    legalMoves(pos: Position, out: Uint16Array): number {
      if (out.length < MAX_MOVES) refused('legalMoves', jsBackend.legalMoves, [pos, out]);
      const count = x.bbp_legal_moves(put(pos), MOVES, MAX_MOVES);
      if (count > MAX_MOVES) return jsBackend.legalMoves(pos, out);  // a board with extra pieces: the twin's answer
      out.set(core.u16.subarray(MOVES >> 1, (MOVES >> 1) + count));
      return count;
    },
    makeMove(pos: Position, from: number, to: number, promotion: number, out: BigUint64Array): boolean {
      if (out.length !== PACKED_POSITION_WORDS) refused('makeMove', jsBackend.makeMove, [pos, from, to, promotion, out]);
      if (x.bbp_make_move(put(pos), from, to, promotion, POS2) !== 1) return false;
      out.set(core.u64.subarray(POS2 >> 3, (POS2 >> 3) + PACKED_POSITION_WORDS));
      return true;
    },
    perft(pos: Position, depth: number): number {
      if (!goodDepth(depth)) refused('perft', jsBackend.perft, [pos, depth]);
      return x.bbp_perft(put(pos), depth);
    },
    perftStats(pos: Position, depth: number, out: Float64Array): void {
      if (!goodDepth(depth) || out.length !== PERFT_STATS_COLUMNS.length) refused('perftStats', jsBackend.perftStats, [pos, depth, out]);
      x.bbp_perft_stats(put(pos), depth, STATS);
      out.set(core.f64.subarray(STATS >> 3, (STATS >> 3) + PERFT_STATS_COLUMNS.length));
    },
    perftBatch(positions: BigUint64Array, depth: number, out: Float64Array): void {
      const n = out.length;
      if (!goodDepth(depth) || positions.length < n * PACKED_POSITION_WORDS) refused('perftBatch', jsBackend.perftBatch, [positions, depth, out]);
      const [p, o] = regions(8 * n * PACKED_POSITION_WORDS, 8 * n) as [number, number];
      copyIn(p, positions.subarray(0, n * PACKED_POSITION_WORDS));
      if (x.bbp_perft_batch(p, depth, o, n) !== n) refused('perftBatch', jsBackend.perftBatch, [positions, depth, out]);
      copyOut(out, o);
    },
  });
}
