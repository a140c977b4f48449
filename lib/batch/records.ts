/**
 * The analyze command's NDJSON and CSV records: formatting is the CLI's business, not part of the
 * Backend contract. The native addon carries a formatter of its own (byte-identical, tested in
 * test/batch/batch.test.ts), used when the addon is the backend; this is the JS one.
 */
import type { Backend, BatchBackend } from '../backends/contract.js';
import { FEATURE_NAMES, featureWidth, isFlagFeature } from '../core/features.js';
import { csvQuote, lineAt, trimAscii } from '../core/lines.js';

type Outs = (BigUint64Array | Uint8Array | undefined | null)[];

/**
 * NDJSON (format 0) or CSV (1) records of the valid lines, features in `order`; invalid lines get
 * no bytes (the caller writes their error records). Returns [bytes, recordStarts (n + 1)]. The bytes
 * may be a view of the start of `into` when they fit there (the native formatter does that; a caller
 * that formats chunk after chunk reuses one buffer instead of fresh memory per chunk).
 */
export type RecordFormatter = (text: Uint8Array, lineStarts: Uint32Array, valid: Uint8Array, order: Uint8Array,
  outs: Outs, format: number, firstLine: number, into?: Uint8Array) => [Uint8Array, Uint32Array];

export const formatRecordsJs: RecordFormatter = (text, starts, valid, order, outs, format, firstLine) => {
  const n = valid.length;
  const parts: string[] = [];
  const recordStarts = new Uint32Array(n + 1);
  const encoder = new TextEncoder();
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    recordStarts[i] = bytes;
    if (!valid[i]) continue;
    const input = trimAscii(lineAt(text, starts, i));
    let rec = format === 0 ? `{"line":${firstLine + i},"input":${JSON.stringify(input)}` : `${firstLine + i},${csvQuote(input)}`;
    for (const f of order) {
      const width = featureWidth(f);
      const o = outs[f]!;
      const values: string[] = [];
      for (let k = 0; k < width; k++) {
        const v = o[i * width + k]!;
        if (typeof v === 'bigint') values.push(format === 0 ? `"0x${v.toString(16)}"` : `0x${v.toString(16)}`);
        else if (isFlagFeature(f) && format === 0) values.push(v ? 'true' : 'false');
        else values.push(String(v));
      }
      rec += format === 0 ? `,"${FEATURE_NAMES[f]}":${width === 2 ? `[${values.join(',')}]` : values[0]}` : `,${values.join(',')}`;
    }
    rec += format === 0 ? '}\n' : ',\n';
    parts.push(rec);
    bytes += Buffer.byteLength(rec);
  }
  recordStarts[n] = bytes;
  return [encoder.encode(parts.join('')), recordStarts];
};

/** The addon's formatter: the bytes, or their count when they were written to the start of `into`. */
type NativeFormatter = NonNullable<BatchBackend['formatRecords']>;

const nativeFormatters = new WeakMap<NativeFormatter, RecordFormatter>();

/** The formatter for a backend: the addon's own when it is the native backend, else the JS one. */
export function recordFormatter(b: Backend): RecordFormatter {
  const native = b.name === 'native' ? b.batch.formatRecords : undefined;
  if (!native) return formatRecordsJs;
  let f = nativeFormatters.get(native);
  if (!f) {
    f = (text, starts, valid, order, outs, format, firstLine, into) => {
      const [bytes, recordStarts] = native(text, starts, valid, order, outs, format, firstLine, into);
      return [typeof bytes === 'number' ? into!.subarray(0, bytes) : bytes, recordStarts];
    };
    nativeFormatters.set(native, f);
  }
  return f;
}
