import type { Tablebase } from '../../lib/tablebases/tablebase.js';

/** A generated table's stored positions in slices of `slice` table entries (bounded memory): [first entry, positions]. */
export function* packedSlices(tb: Tablebase, slice = 1 << 20) {
  const size = tb.table.length;
  for (let start = 0; start < size; start += slice) yield [start, tb.packedPositions({ start, end: Math.min(size, start + slice) })] as const;
}
