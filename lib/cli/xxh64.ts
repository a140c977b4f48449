/**
 * XXH64 (Yann Collet's xxHash, 64-bit variant, as its specification `doc/xxhash_spec.md` defines it),
 * streaming, on 32-bit halves so that no BigInt is made per byte: the checksum a Zstandard frame
 * carries (RFC 8878 section 3.1.1: the low 32 bits of XXH64 of the content, seed 0).
 */

// The five primes of the specification, as (high, low) 32-bit halves.
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

// The result of each 64-bit step: (RH, RL).
let RH = 0;
let RL = 0;

/** (ah, al) * (bh, bl) mod 2^64. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const mid = a1 * b0 + a0 * b1; // < 2^33, exact
  const low = a0 * b0 + (mid % 65536) * 65536; // < 2^33, exact
  const high = a1 * b1 + Math.floor(mid / 65536) + Math.floor(low / 4294967296);
  RL = low >>> 0;
  RH = (high + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/**
 * (h, l) * (ch, cl) mod 2^64: the low half is Math.imul's; the high half is the cross products'
 * low halves plus the high half of l * cl, made exact from 16-bit limbs.
 */
function mulConst(h: number, l: number, ch: number, cl: number): void {
  const a0 = l & 0xffff, a1 = l >>> 16, c0 = cl & 0xffff, c1 = cl >>> 16;
  const mid = a1 * c0 + a0 * c1 + ((a0 * c0) >>> 16); // < 2^34, exact
  RL = Math.imul(l, cl) >>> 0;
  RH = (a1 * c1 + Math.floor(mid / 65536) + Math.imul(h, cl) + Math.imul(l, ch)) >>> 0;
}

/** (ah, al) + (bh, bl) mod 2^64. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const low = al + bl;
  RL = low >>> 0;
  RH = (ah + bh + (low > 0xffffffff ? 1 : 0)) >>> 0;
}

/** (h, l) rotated left by r (0 < r < 32). */
function rotl(h: number, l: number, r: number): void {
  RH = ((h << r) | (l >>> (32 - r))) >>> 0;
  RL = ((l << r) | (h >>> (32 - r))) >>> 0;
}

/** The specification's round: rotl(acc + lane * P2, 31) * P1. */
function round(acch: number, accl: number, laneh: number, lanel: number): void {
  mul(laneh, lanel, P2H, P2L);
  add(acch, accl, RH, RL);
  rotl(RH, RL, 31);
  mul(RH, RL, P1H, P1L);
}

/** An XXH64 (seed 0) fed piece by piece. */
export class Xxh64 {
  // The four accumulators as halves: v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1.
  private readonly v = new Uint32Array(8);
  private readonly stripe = new Uint8Array(32);
  private readonly view = new DataView(this.stripe.buffer);
  private buffered = 0;
  private total = 0;

  constructor() {
    add(P1H, P1L, P2H, P2L);
    // v4 = -P1 mod 2^64: P1L is not 0, so the high half is ~P1H with no carry.
    this.v.set([RH, RL, P2H, P2L, 0, 0, (~P1H) >>> 0, (-P1L) >>> 0]);
  }

  /** The four lanes of the stripes of bytes[at, end) (a multiple of 32 bytes) into the accumulators. */
  private consume(bytes: Uint8Array, at: number, end: number): void {
    const v = this.v;
    // Whole 32-bit words where the bytes are aligned (on a little-endian machine), else byte by byte.
    const words = LITTLE_ENDIAN && ((bytes.byteOffset + at) & 3) === 0
      ? new Int32Array(bytes.buffer, bytes.byteOffset + at, (end - at) >> 2) : undefined;
    for (let lane = 0; lane < 4; lane++) {
      let h = v[2 * lane]!, l = v[2 * lane + 1]!;
      for (let p = at + 8 * lane; p < end; p += 32) {
        // acc += input * P2; acc = rotl(acc, 31); acc *= P1: the 64-bit products on 16-bit limbs.
        let il: number, ih: number;
        if (words) {
          il = words[(p - at) >> 2]! >>> 0;
          ih = words[((p - at) >> 2) + 1]! >>> 0;
        } else {
          il = (bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> 0;
          ih = (bytes[p + 4]! | (bytes[p + 5]! << 8) | (bytes[p + 6]! << 16) | (bytes[p + 7]! << 24)) >>> 0;
        }
        mulConst(ih, il, P2H, P2L);
        const sum = l + RL;
        l = sum >>> 0;
        h = (h + RH + (sum > 0xffffffff ? 1 : 0)) >>> 0;
        const rh = ((h << 31) | (l >>> 1)) >>> 0;
        const rl = ((l << 31) | (h >>> 1)) >>> 0;
        mulConst(rh, rl, P1H, P1L);
        h = RH;
        l = RL;
      }
      v[2 * lane] = h;
      v[2 * lane + 1] = l;
    }
  }

  update(bytes: Uint8Array): void {
    this.total += bytes.length;
    let i = 0;
    if (this.buffered > 0) {
      const take = Math.min(32 - this.buffered, bytes.length);
      this.stripe.set(bytes.subarray(0, take), this.buffered);
      this.buffered += take;
      i = take;
      if (this.buffered < 32) return;
      this.consume(this.stripe, 0, 32);
      this.buffered = 0;
    }
    const whole = i + ((bytes.length - i) & ~31);
    if (whole > i) this.consume(bytes, i, whole);
    i = whole;
    this.stripe.set(bytes.subarray(i), 0);
    this.buffered = bytes.length - i;
  }

  /** The low 32 bits of the hash of everything given (what a Zstandard frame stores). */
  low32(): number {
    return this.digest()[1];
  }

  /** The hash as (high, low) halves. */
  digest(): [number, number] {
    const v = this.v;
    let h: number, l: number;
    if (this.total >= 32) {
      rotl(v[0]!, v[1]!, 1); let ah = RH, al = RL;
      rotl(v[2]!, v[3]!, 7); add(ah, al, RH, RL); ah = RH; al = RL;
      rotl(v[4]!, v[5]!, 12); add(ah, al, RH, RL); ah = RH; al = RL;
      rotl(v[6]!, v[7]!, 18); add(ah, al, RH, RL); ah = RH; al = RL;
      for (let i = 0; i < 4; i++) {
        round(0, 0, v[2 * i]!, v[2 * i + 1]!);
        mul((ah ^ RH) >>> 0, (al ^ RL) >>> 0, P1H, P1L);
        add(RH, RL, P4H, P4L);
        ah = RH; al = RL;
      }
      h = ah; l = al;
    } else {
      h = P5H; l = P5L;
    }
    // The length, mod 2^64 (a JS number of bytes stays below 2^53).
    add(h, l, Math.floor(this.total / 4294967296) >>> 0, this.total >>> 0);
    h = RH; l = RL;
    const d = this.view;
    const n = this.buffered;
    let p = 0;
    for (; p + 8 <= n; p += 8) {
      round(0, 0, d.getUint32(p + 4, true), d.getUint32(p, true));
      rotl((h ^ RH) >>> 0, (l ^ RL) >>> 0, 27);
      mul(RH, RL, P1H, P1L);
      add(RH, RL, P4H, P4L);
      h = RH; l = RL;
    }
    if (p + 4 <= n) {
      mul(0, d.getUint32(p, true), P1H, P1L);
      rotl((h ^ RH) >>> 0, (l ^ RL) >>> 0, 23);
      mul(RH, RL, P2H, P2L);
      add(RH, RL, P3H, P3L);
      h = RH; l = RL;
      p += 4;
    }
    for (; p < n; p++) {
      mul(0, this.stripe[p]!, P5H, P5L);
      rotl((h ^ RH) >>> 0, (l ^ RL) >>> 0, 11);
      mul(RH, RL, P1H, P1L);
      h = RH; l = RL;
    }
    // Avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32.
    l = (l ^ (h >>> 1)) >>> 0;
    mul(h, l, P2H, P2L); h = RH; l = RL;
    l = (l ^ ((l >>> 29) | (h << 3))) >>> 0;
    h = (h ^ (h >>> 29)) >>> 0;
    mul(h, l, P3H, P3L); h = RH; l = RL;
    l = (l ^ h) >>> 0;
    return [h, l];
  }
}
