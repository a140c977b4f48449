/** CRC-32 as zlib and PNG compute it (reflected polynomial 0xEDB88320, initial and final xor 0xFFFFFFFF). */
let table: Int32Array | undefined;

function crcTable(): Int32Array {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  return table;
}

/** The CRC-32 of the bytes of every part, in order (as if they were one array). */
export function crc32(...parts: Uint8Array[]): number {
  const t = crcTable();
  let c = -1;
  for (const bytes of parts) for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
