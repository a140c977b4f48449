/**
 * The KBNK table file (the KBNK tablebase of lib/tablebases/kbnk.ts, also read by Tablebase as its
 * KBNvK table): the checked format both read and write, kept apart from either so that neither
 * tablebase module imports the other.
 *
 * File format v1 (little-endian), 24-byte header then the table:
 *   0  8 bytes  magic "BBP-KBNK"
 *   8  u16      format version (1)
 *  10  u16      table layout version (1)
 *  12  u32      flags (0; any other value is refused)
 *  16  u32      table length in bytes (KBNK_TABLE_SIZE)
 *  20  u32      CRC-32 (IEEE 802.3, as zlib) of the table bytes
 *  24  ...      the table
 * Anything else (short, long, other magic, versions, flags, length, checksum, or a byte no table
 * can hold) is a KbnkFileError, so a damaged file is never probed.
 */
import { KBNK_DRAW, KBNK_ILLEGAL, KBNK_TABLE_SIZE } from '../core/types.js';
import { crc32 } from '../core/crc32.js';
import { ProblemError } from '../core/coded-error.js';

/** Magic bytes at the start of a table file. */
export const KBNK_FILE_MAGIC = 'BBP-KBNK';
/** The file format version this build writes and reads. */
export const KBNK_FILE_VERSION = 1;
/** The table layout version (lib/core/types.ts) this build writes and reads. */
export const KBNK_LAYOUT_VERSION = 1;
/** Bytes before the table in a file. */
export const KBNK_FILE_HEADER_SIZE = 24;
/** The longest mate: 33 moves (65 plies with the strong side to move, 66 with the weak side to move). */
export const KBNK_LONGEST_MATE = 33;

/** Why a table file was refused. */
export type KbnkFileProblem = 'truncated' | 'magic' | 'version' | 'layout' | 'flags' | 'length' | 'checksum' | 'content';

/** A table file (or buffer) that is not a valid KBNK table: `problem` says which check failed. */
export class KbnkFileError extends ProblemError<KbnkFileProblem> {
  override readonly name = 'KbnkFileError';
}

/**
 * Every KbnkTablebase, so that Tablebase.fromKbnk can recognise one without importing its class.
 * Only KbnkTablebase's constructor adds to it.
 */
export const KBNK_TABLES = new WeakSet<object>();

/** The file image (header + table) of a layout-v1 table. */
export function kbnkFileImage(table: Uint8Array): Buffer {
  const out = Buffer.alloc(KBNK_FILE_HEADER_SIZE + KBNK_TABLE_SIZE);
  out.write(KBNK_FILE_MAGIC, 0, 'latin1');
  out.writeUInt16LE(KBNK_FILE_VERSION, 8);
  out.writeUInt16LE(KBNK_LAYOUT_VERSION, 10);
  out.writeUInt32LE(0, 12);
  out.writeUInt32LE(KBNK_TABLE_SIZE, 16);
  out.writeUInt32LE(crc32(table), 20);
  out.set(table, KBNK_FILE_HEADER_SIZE);
  return out;
}

/** The table of a file image, checked; a KbnkFileError says what is wrong with a damaged or foreign one. */
export function readKbnkFile(data: Uint8Array): Uint8Array {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < KBNK_FILE_HEADER_SIZE) {
    throw new KbnkFileError('truncated', `not a KBNK table: ${buf.length} bytes, shorter than the ${KBNK_FILE_HEADER_SIZE}-byte header`);
  }
  if (buf.toString('latin1', 0, 8) !== KBNK_FILE_MAGIC) {
    throw new KbnkFileError('magic', `not a KBNK table: the file does not start with ${JSON.stringify(KBNK_FILE_MAGIC)}`);
  }
  const version = buf.readUInt16LE(8), layout = buf.readUInt16LE(10), flags = buf.readUInt32LE(12);
  const length = buf.readUInt32LE(16), checksum = buf.readUInt32LE(20);
  if (version !== KBNK_FILE_VERSION) {
    throw new KbnkFileError('version', `KBNK table file format version ${version}; this build reads version ${KBNK_FILE_VERSION}`);
  }
  if (layout !== KBNK_LAYOUT_VERSION) {
    throw new KbnkFileError('layout', `KBNK table layout version ${layout}; this build reads layout ${KBNK_LAYOUT_VERSION}`);
  }
  if (flags !== 0) throw new KbnkFileError('flags', `KBNK table file has unknown flags 0x${flags.toString(16)}`);
  if (length !== KBNK_TABLE_SIZE) {
    throw new KbnkFileError('length', `KBNK table length field says ${length} bytes; layout 1 has ${KBNK_TABLE_SIZE}`);
  }
  const body = buf.length - KBNK_FILE_HEADER_SIZE;
  if (body < length) throw new KbnkFileError('truncated', `KBNK table file is truncated: ${body} of ${length} table bytes`);
  if (body > length) throw new KbnkFileError('length', `KBNK table file has ${body - length} bytes after the table`);
  const table = Uint8Array.from(buf.subarray(KBNK_FILE_HEADER_SIZE));
  const actual = crc32(table);
  if (actual !== checksum) {
    throw new KbnkFileError('checksum', `KBNK table checksum mismatch (file says 0x${checksum.toString(16)}, table has 0x${actual.toString(16)}): the file is corrupted`);
  }
  checkKbnkContent(table);
  return table;
}

/** Every byte is a ply count (< 128), KBNK_DRAW or KBNK_ILLEGAL: anything else cannot be a table. */
export function checkKbnkContent(table: Uint8Array): void {
  for (let i = 0; i < table.length; i++) {
    const v = table[i]!;
    if (v >= 128 && v !== KBNK_DRAW && v !== KBNK_ILLEGAL) {
      throw new KbnkFileError('content', `KBNK table byte ${i} holds ${v}, which no table can hold`);
    }
  }
}

