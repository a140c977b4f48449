/**
 * The King Pattern, Knight Pattern and KBNK Endgame functions of the WebAssembly backend
 * (native/wasm/bbp_wasm_patterns.cc): the set functions, the path fills and distances, the fork
 * moves, dirSet and KBNK as single calls, and every batch form over the module's memory. The
 * single-call table lookups (kingAttacks, pawnShieldMask, pawnShieldIndex, kingMoveTargets,
 * caughtableArea, uncatchablePassers) are the JS twin's: a lookup costs less than the call.
 */
import type { Backend } from '../contract.js';
import { SET_FUNCTIONS } from '../../core/types.js';
import { jsBackend } from '../js/index.js';
import type { WasmCore } from './core.js';

/** How backend.ts lends its scratch memory: regions by byte size, bulk copies in and out. */
export interface Scratch {
  regions(...sizes: number[]): number[];
  copyIn(ptr: number, a: ArrayBufferView): void;
  copyOut(a: ArrayBufferView, ptr: number): void;
  refused(name: string, fn: (...a: never[]) => unknown, args: unknown[]): never;
}

type Fns = Record<string, unknown>;

export function wasmPatternFns(core: WasmCore, m: Scratch): Partial<Backend> {
  const x = core.x;
  const u64 = (b: bigint): bigint => BigInt.asUintN(64, b);
  const twin = jsBackend as unknown as Record<string, (...a: never[]) => unknown>;

  /**
   * A batch form: `inputs` copied in, `out` copied back; `call` gets their addresses and n and
   * returns n (or nothing) when done, else the bad element's index (the twin then throws).
   */
  function batch(name: string, args: unknown[], inputs: ArrayBufferView[], out: ArrayBufferView & { length: number },
    call: (p: number[], n: number) => number | void): void {
    const n = out.length;
    if (inputs.some((a) => (a as unknown as { length: number }).length !== n)) m.refused(name, twin[name]!, args);
    const p = m.regions(...inputs.map((a) => a.byteLength), out.byteLength);
    inputs.forEach((a, i) => m.copyIn(p[i]!, a));
    const done = call(p, n);
    if (done !== undefined && done !== n) m.refused(name, twin[name]!, args);
    m.copyOut(out, p[inputs.length]!);
  }

  const fns: Fns = {};
  SET_FUNCTIONS.forEach((name, id) => {
    fns[name] = (set: bigint) => u64(x.bbp_set_fn(id, set));
    fns[`${name}Batch`] = (sets: BigUint64Array, out: BigUint64Array) =>
      batch(`${name}Batch`, [sets, out], [sets], out, ([i, o], n) => { x.bbp_set_fn_batch(id, i!, o!, n); });
  });
  (['kingAttacks', 'knightAttacks'] as const).forEach((name, id) => {
    fns[`${name}Batch`] = (squares: Uint8Array, out: BigUint64Array) =>
      batch(`${name}Batch`, [squares, out], [squares], out, ([s, o], n) => x.bbp_square_fn_batch(id, s!, o!, n));
  });
  Object.assign(fns, {
    pawnShieldMaskBatch: (color: number, sqs: Uint8Array, out: BigUint64Array) =>
      batch('pawnShieldMaskBatch', [color, sqs, out], [sqs], out, ([s, o], n) => x.bbp_pawn_shield_mask_batch(color, s!, o!, n)),
    pawnShieldIndexBatch: (color: number, sqs: Uint8Array, pawns: BigUint64Array, out: Uint8Array) =>
      batch('pawnShieldIndexBatch', [color, sqs, pawns, out], [sqs, pawns], out,
        ([s, p, o], n) => x.bbp_pawn_shield_index_batch(color, s!, p!, o!, n)),
    kingMoveTargetsBatch: (sqs: Uint8Array, taboo: BigUint64Array, out: BigUint64Array) =>
      batch('kingMoveTargetsBatch', [sqs, taboo, out], [sqs, taboo], out, ([s, t, o], n) => x.bbp_king_move_targets_batch(s!, t!, o!, n)),
    distantCheckLines: (sq: number, taboo: bigint) => x.bbp_distant_check_lines(sq, taboo),
    distantCheckLinesBatch: (sqs: Uint8Array, taboo: BigUint64Array, out: Uint8Array) =>
      batch('distantCheckLinesBatch', [sqs, taboo, out], [sqs, taboo], out, ([s, t, o], n) => x.bbp_distant_check_lines_batch(s!, t!, o!, n)),
    caughtableAreaBatch: (kingColor: number, stm: number, sqs: Uint8Array, out: BigUint64Array) =>
      batch('caughtableAreaBatch', [kingColor, stm, sqs, out], [sqs], out, ([s, o], n) => x.bbp_caughtable_area_batch(kingColor, stm, s!, o!, n)),
    uncatchablePassersBatch: (passers: BigUint64Array, kingColor: number, stm: number, sqs: Uint8Array, out: BigUint64Array) =>
      batch('uncatchablePassersBatch', [passers, kingColor, stm, sqs, out], [passers, sqs], out,
        ([p, s, o], n) => x.bbp_uncatchable_passers_batch(p!, kingColor, stm, s!, o!, n)),
    kingPathFill: (from: bigint, path: bigint) => u64(x.bbp_king_path_fill(from, path)),
    kingPathFillBatch: (from: BigUint64Array, path: BigUint64Array, out: BigUint64Array) =>
      batch('kingPathFillBatch', [from, path, out], [from, path], out, ([f, p, o], n) => { x.bbp_king_path_fill_batch(f!, p!, o!, n); }),
    squaresAreConnected: (from: bigint, to: bigint, path: bigint) => x.bbp_squares_connected(from, to, path) === 1,
    squaresAreConnectedBatch: (from: BigUint64Array, to: BigUint64Array, path: BigUint64Array, out: Uint8Array) =>
      batch('squaresAreConnectedBatch', [from, to, path, out], [from, to, path], out,
        ([f, t, p, o], n) => { x.bbp_squares_connected_batch(f!, t!, p!, o!, n); }),
    kingDistance: (from: number, to: number, path: bigint) => x.bbp_distance(0, from, to, path),
    knightDistance: (from: number, to: number, path: bigint) => x.bbp_distance(1, from, to, path),
    kingDistanceBatch: (from: Uint8Array, to: Uint8Array, path: BigUint64Array, out: Int8Array) =>
      batch('kingDistanceBatch', [from, to, path, out], [from, to, path], out, ([f, t, p, o], n) => x.bbp_distance_batch(0, f!, t!, p!, o!, n)),
    knightDistanceBatch: (from: Uint8Array, to: Uint8Array, path: BigUint64Array, out: Int8Array) =>
      batch('knightDistanceBatch', [from, to, path, out], [from, to, path], out, ([f, t, p, o], n) => x.bbp_distance_batch(1, f!, t!, p!, o!, n)),
    knightForkMoves: (k: bigint, t: bigint, own: bigint, pa: bigint, ka: bigint) => u64(x.bbp_knight_fork_moves(k, t, own, pa, ka)),
    knightForkMovesBatch: (k: BigUint64Array, t: BigUint64Array, own: BigUint64Array, pa: BigUint64Array, ka: BigUint64Array, out: BigUint64Array) =>
      batch('knightForkMovesBatch', [k, t, own, pa, ka, out], [k, t, own, pa, ka], out,
        ([a, b, c, d, e, o], n) => { x.bbp_knight_fork_moves_batch(a!, b!, c!, d!, e!, o!, n); }),
    cornerDistance: (bishop: number, king: number) => x.bbp_corner_distance(bishop, king),
    manhattanDistance: (a: number, b: number) => x.bbp_manhattan_distance(a, b),
    kbnkEval: (sk: number, b: number, n: number, wk: number) => x.bbp_kbnk_eval(sk, b, n, wk),
    variants: Object.freeze({
      distantCheckLinesBranchy: (sq: number, taboo: bigint) => x.bbp_distant_check_lines_branchy(sq, taboo),
      distantCheckLinesBranchless: (sq: number, taboo: bigint) => x.bbp_distant_check_lines(sq, taboo),
      knightAttacksSetEastWest: (set: bigint) => u64(x.bbp_knight_attacks_set_east_west(set)),
      knightAttacksSetParallel: (set: bigint) => u64(x.bbp_set_fn(2, set)),
    }),
  });
  return fns as Partial<Backend>;
}
