/**
 * The King Pattern, Knight Pattern and KBNK Endgame members of the WebAssembly backend that no plain
 * declaration gives (native/wasm/bbp_wasm_patterns.cc): KBNK's evaluation by squares and the
 * variants. The declared functions and their batch forms are generated (./generated/declared.ts).
 */
import type { Backend } from '../contract.js';
import type { WasmCore } from './core.js';

export function wasmPatternFns(core: WasmCore): Partial<Backend> {
  const x = core.x;
  const u64 = (b: bigint): bigint => BigInt.asUintN(64, b);
  return {
    kbnkEval: (sk: number, b: number, n: number, wk: number) => x.bbp_kbnk_eval(sk, b, n, wk),
    variants: Object.freeze({
      distantCheckLinesBranchy: (sq: number, taboo: bigint) => x.bbp_distant_check_lines_branchy(sq, taboo),
      distantCheckLinesBranchless: (sq: number, taboo: bigint) => x.bbp_distant_check_lines(sq, taboo),
      knightAttacksSetEastWest: (set: bigint) => u64(x.bbp_knight_attacks_set_east_west(set)),
      knightAttacksSetParallel: (set: bigint) => u64(x.bbpd_knightAttacksSet(set)),
    }),
  } as Partial<Backend>;
}
