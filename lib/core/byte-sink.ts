/**
 * Output written in place into one growing buffer: no string per record for the collector to clean
 * up. The buffer is never a slice of Buffer's shared pool, so its ArrayBuffer may be transferred.
 */
export class ByteSink {
  buf: Buffer;
  n = 0;
  /**
   * `size`: the bytes to make room for at once (default 64 KB; it grows as needed). `reuse`: memory
   * to write into instead when it holds `size` bytes (its pages already mapped: a buffer given back
   * by whoever consumed an earlier sink's bytes).
   */
  constructor(size = 1 << 16, reuse?: ArrayBuffer) {
    size = Math.max(16, size);
    this.buf = reuse && reuse.byteLength >= size ? Buffer.from(reuse) : Buffer.allocUnsafeSlow(size);
  }
  /** Makes room for `k` more bytes. */
  room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const b = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(b, 0, 0, this.n);
    this.buf = b;
  }
  byte(c: number): void {
    this.room(1);
    this.buf[this.n++] = c;
  }
  /** The bytes written so far (a view of the buffer). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.n);
  }
}
