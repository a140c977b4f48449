/**
 * KBNK (Chess Programming Wiki: KBNK Endgame) in plain JS numbers; twin of `native/core/kbnk.h`.
 *
 * - `cornerDistance`: the KBNK Endgame page's branch-free bit twiddle, in int32 arithmetic (`Math.imul` keeps the
 *   multiplication modulo 2^32 exactly like the C `int` version).
 * - `kbnkEval`: the mop-up score of the contract (lib/backend.ts).
 * - `kbnkGenerate`: the distance-to-mate table of layout v1 (lib/backend.ts): the KBNvK case of the
 *   general set-wise retrograde generator (lib/js/tbgen.ts), whose layout 1 for KBNvK is layout v1.
 */
import { KBNK_TABLE_SIZE } from '../backend.js';
import { tbGenerateJs, tbGenerateJsSync, tbParse, tbTableSize, type TbSubTableJs } from './tbgen.js';

// ---------------------------------------------------------------------------- evaluation

/**
 * The KBNK Endgame page's manhattanDistance2ClosestCornerOfBishopSquareColor: Manhattan distance of king square
 * `k` to the closest corner of the colour of bishop square `b` (0..7).
 */
export function cornerDistance(b: number, k: number): number {
  b = Math.imul(-1879048192, b) >> 31; // 0 | -1 to mirror: the sign bit is the parity of file + rank
  k = (k >> 3) + ((k ^ b) & 7); // rank + (mirrored) file
  k = ((Math.imul(15, k >> 3) ^ k) - (k >> 3)); // if (k > 7) k = 14 - k
  return k;
}

/** The contract's mop-up score (lib/backend.ts): 0..154, higher = better for the strong side. */
export function kbnkEval(strongKing: number, bishop: number, _knight: number, weakKing: number): number {
  const df = Math.abs((strongKing & 7) - (weakKing & 7));
  const dr = Math.abs((strongKing >> 3) - (weakKing >> 3));
  return (7 - cornerDistance(bishop, weakKing)) * 16 + (7 - Math.max(df, dr)) * 4 + (14 - df - dr);
}

// ---------------------------------------------------------------------------- generator

/** The sub-endings KBNvK converts into (KBvK, KNvK; both draws), made with the general generator. */
function kbnkSubTables(): TbSubTableJs[] {
  const kk = tbParse('kbnkGenerate', 'KvK');
  const kkTable = tbGenerateJsSync(kk, [], new Uint8Array(tbTableSize(kk)));
  return ['KBvK', 'KNvK'].map((name) => {
    const m = tbParse('kbnkGenerate', name);
    return { material: m, data: tbGenerateJsSync(m, [{ material: kk, data: kkTable }], new Uint8Array(tbTableSize(m))) };
  });
}

function checkTable(table: Uint8Array): void {
  if (!(table instanceof Uint8Array) || table.length !== KBNK_TABLE_SIZE) {
    throw new RangeError(`kbnkGenerate: table must be a Uint8Array of KBNK_TABLE_SIZE (${KBNK_TABLE_SIZE}) bytes`);
  }
}

/** Fills `table` (KBNK_TABLE_SIZE bytes, layout v1) with the distance-to-mate table. */
export function kbnkGenerate(table: Uint8Array): void {
  checkTable(table);
  tbGenerateJsSync(tbParse('kbnkGenerate', 'KBNvK'), kbnkSubTables(), table);
}

/** The same, one ply per event-loop turn, `report(done, total)` after each (the last with done === total). */
export async function kbnkGenerateJs(report?: (done: number, total: number) => void): Promise<Uint8Array> {
  return tbGenerateJs(tbParse('kbnkGenerate', 'KBNvK'), kbnkSubTables(), report);
}
