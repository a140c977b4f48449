/**
 * Syzygy probing against independent truths:
 * - a retrograde solver written here, square by square, for KQvK, KRvK and KPvK (promotions lead
 *   into the solved KQvK / KRvK; KBvK and KNvK are dead draws): WDL exactly for every legal
 *   position, DTZ within the format's documented rounding (a stored n may mean n or n + 1 plies,
 *   https://syzygy-tables.info/metrics#dtz);
 * - the package's KBNK distance-to-mate table (lib/tablebases/kbnk.ts, its own retrograde generator);
 * - published values: python-chess's test data (data/endgame.epd, and the examples of its
 *   chess.syzygy documentation and test suite), the longest basic mates;
 * - the other backend, byte for byte on batch outputs;
 * - damaged, truncated and renamed files.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KBNK_DRAW, KBNK_ILLEGAL } from '../../lib/core/types.js';
import { KbnkTablebase, kbnkIndex } from '../../lib/tablebases/kbnk.js';
import {
  SYZYGY_DTZ_NONE, SYZYGY_WDL_NONE, SyzygyError, SyzygyFileError, SyzygyTablebase,
} from '../../lib/tablebases/syzygy.js';
import { jsApi, nativeApi } from '../support/backends.js';

// Positions for the probes: either backend's Position is accepted by both probers.
const { parseFen } = jsApi;

const FIXTURES = join(__dirname, '..', 'fixtures', 'syzygy');
const MODES: ('js' | 'native')[] = nativeApi ? ['js', 'native'] : ['js'];
const open = (mode: 'js' | 'native', dir = FIXTURES) => SyzygyTablebase.open(dir, { backend: mode });

// ------------------------------------------------------------------------------ the test's own solver

const F = (s: number) => s & 7, R = (s: number) => s >> 3;
/** King distance <= 1 (the same square included). */
const near = (a: number, b: number) => Math.max(Math.abs(F(a) - F(b)), Math.abs(R(a) - R(b))) <= 1;
const KING_STEPS: [number, number][] = [[1, 1], [1, 0], [1, -1], [0, 1], [0, -1], [-1, 1], [-1, 0], [-1, -1]];
const kingTargets = (s: number) => KING_STEPS.map(([df, dr]) => [F(s) + df, R(s) + dr])
  .filter(([f, r]) => f! >= 0 && f! < 8 && r! >= 0 && r! < 8).map(([f, r]) => r! * 8 + f!);
type Piece = 'Q' | 'R' | 'P';
const dirsOf = (p: Piece): [number, number][] => (p === 'R' ? KING_STEPS.filter(([a, b]) => a === 0 || b === 0) : KING_STEPS);

/** Does a white `p` on x attack `target`, with `blockers` (squares) in the way? */
function attacks(p: Piece, x: number, target: number, blockers: number[]): boolean {
  const df = F(target) - F(x), dr = R(target) - R(x);
  if (p === 'P') return dr === 1 && Math.abs(df) === 1;
  if (x === target) return false;
  const straight = df === 0 || dr === 0, diagonal = Math.abs(df) === Math.abs(dr);
  if (!(straight || (p === 'Q' && diagonal))) return false;
  const sf = Math.sign(df), sr = Math.sign(dr);
  for (let f = F(x) + sf, r = R(x) + sr; f !== F(target) || r !== R(target); f += sf, r += sr) if (blockers.includes(r * 8 + f)) return false;
  return true;
}
/** Squares a white slider on x reaches, stopping before `blockers`. */
function slides(p: Piece, x: number, blockers: number[]): number[] {
  const out: number[] = [];
  for (const [df, dr] of dirsOf(p)) {
    for (let f = F(x) + df, r = R(x) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      if (blockers.includes(r * 8 + f)) break;
      out.push(r * 8 + f);
    }
  }
  return out;
}

/** One solved ending K + piece v K, white the strong side: plies to the zeroing move or mate per position. */
interface Solved {
  piece: Piece;
  /** White to move: plies to win (>= 1), -1 = not won. Black to move: plies to being mated / zeroed (0 = mated), -1 = not lost. */
  w: Int16Array;
  b: Int16Array;
  legalW: Uint8Array;
  legalB: Uint8Array;
}
const idx = (wk: number, x: number, bk: number) => wk * 4096 + x * 64 + bk;

/**
 * Retrograde analysis by plies (Chess Programming Wiki, "Retrograde Analysis"): lost-in-0 (mated)
 * positions and winning zeroing moves (pawn moves into a position lost for black) seed a queue;
 * a black-to-move loss makes every white predecessor a win in one more ply, a white win takes one
 * from the count of black's moves of each black predecessor, which is lost when the count reaches
 * zero. Pawn moves never unmove, so a KPvK group (one pawn square) is solved after the groups it
 * moves into.
 */
function solve(piece: Piece, promotions?: { Q: Solved; R: Solved }, pawnKpk?: Solved): Solved {
  const n = 64 * 64 * 64;
  const s: Solved = pawnKpk ?? {
    piece, w: new Int16Array(n).fill(-1), b: new Int16Array(n).fill(-1), legalW: new Uint8Array(n), legalB: new Uint8Array(n),
  };
  const groups: number[][] = piece === 'P'
    ? [6, 5, 4, 3, 2, 1].map((r) => [0, 1, 2, 3, 4, 5, 6, 7].map((f) => r * 8 + f))
    : [Array.from({ length: 64 }, (_, i) => i)];
  const legal = (wk: number, x: number, bk: number) => wk !== x && x !== bk && !near(wk, bk) && (piece !== 'P' || (R(x) >= 1 && R(x) <= 6));
  for (const group of groups) {
    const count = new Int8Array(n);
    const drawB = new Uint8Array(n);
    const queue: number[] = [];
    for (const x of group) {
      for (let wk = 0; wk < 64; wk++) {
        for (let bk = 0; bk < 64; bk++) {
          if (!legal(wk, x, bk)) continue;
          const i = idx(wk, x, bk);
          s.legalB[i] = 1;
          s.legalW[i] = attacks(piece, x, bk, [wk]) ? 0 : 1;
          let moves = 0, capture = false;
          for (const t of kingTargets(bk)) {
            if (t === wk || near(t, wk)) continue;
            if (t === x) { if (!near(wk, x)) capture = true; continue; }
            if (!attacks(piece, x, t, [wk])) moves++;
          }
          if (capture) drawB[i] = 1;
          else if (moves === 0) { if (attacks(piece, x, bk, [wk])) { s.b[i] = 0; queue.push(i * 2 + 1); } else drawB[i] = 1; }
          count[i] = moves;
        }
      }
    }
    if (piece === 'P') {
      for (const x of group) {
        for (let wk = 0; wk < 64; wk++) {
          for (let bk = 0; bk < 64; bk++) {
            const i = idx(wk, x, bk);
            if (!s.legalB[i] || !s.legalW[i]) continue;
            const one = x + 8;
            if (one === wk || one === bk) continue;
            const targets = [one];
            if (R(x) === 1 && x + 16 !== wk && x + 16 !== bk) targets.push(x + 16);
            let win = false;
            for (const to of targets) {
              if (R(to) === 7) win ||= promotions!.Q.b[idx(wk, to, bk)]! >= 0 || promotions!.R.b[idx(wk, to, bk)]! >= 0;
              else win ||= s.b[idx(wk, to, bk)]! >= 0;
            }
            if (win) { s.w[i] = 1; queue.push(i * 2); }
          }
        }
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const e = queue[head]!, i = e >> 1;
      const wk = i >> 12, x = (i >> 6) & 63, bk = i & 63;
      if (e & 1) { // black lost: white predecessors win one ply later
        const d = s.b[i]! + 1;
        const preds: number[] = [];
        for (const f of kingTargets(wk)) if (f !== x && f !== bk && !near(f, bk)) preds.push(idx(f, x, bk));
        if (piece !== 'P') for (const f of slides(piece, x, [wk, bk])) preds.push(idx(wk, f, bk));
        for (const p of preds) {
          if (s.legalW[p] && s.legalB[p] && s.w[p] === -1) { s.w[p] = d; queue.push(p * 2); }
        }
      } else { // white won: black predecessors lose once every move loses
        const d = s.w[i]! + 1;
        for (const f of kingTargets(bk)) {
          if (f === wk || f === x || near(f, wk)) continue;
          const p = idx(wk, x, f);
          if (!s.legalB[p] || drawB[p] || s.b[p] !== -1) continue;
          if (--count[p] === 0) { s.b[p] = d; queue.push(p * 2 + 1); }
        }
      }
    }
  }
  return s;
}

const KQK = solve('Q');
const KRK = solve('R');
const KPK = solve('P', { Q: KQK, R: KRK });

/** python-chess's numbers from the solver's plies. */
const truthWdl = (s: Solved, white: boolean, i: number) => (white ? (s.w[i]! >= 0 ? 2 : 0) : (s.b[i]! >= 0 ? -2 : 0));
const truthPlies = (s: Solved, white: boolean, i: number) => (white ? s.w[i]! : s.b[i]!);

const BIT = Array.from({ length: 64 }, (_, i) => 1n << BigInt(i));
const TYPE_OF: Record<Piece, number> = { P: 0, R: 3, Q: 4 };
/** Packed words (lib/core/types.ts layout) of white K + piece v black K; `mirror`: colours swapped and ranks flipped. */
function pack(out: BigUint64Array, at: number, piece: Piece | 'B' | 'N', wk: number, x: number, bk: number, whiteToMove: boolean, mirror = false): void {
  const m = mirror ? 56 : 0;
  const strong = BIT[wk ^ m]! | BIT[x ^ m]!, weak = BIT[bk ^ m]!;
  out.fill(0n, at, at + 10);
  out[at + (mirror ? 1 : 0)] = strong;
  out[at + (mirror ? 0 : 1)] = weak;
  const type = piece === 'B' ? 2 : piece === 'N' ? 1 : TYPE_OF[piece];
  out[at + 2 + type] = BIT[x ^ m]!;
  out[at + 7] = BIT[wk ^ m]! | BIT[bk ^ m]!;
  const stm = whiteToMove !== mirror ? 0 : 1;
  out[at + 8] = BigInt(stm | (64 << 8));
  out[at + 9] = 1n;
}

/** Every legal position of a solved ending (both sides to move), every `stride`-th one. */
function positionsOf(s: Solved, stride: number, mirror: boolean) {
  const list: { i: number; white: boolean }[] = [];
  let k = 0;
  for (let i = 0; i < 64 * 64 * 64; i++) {
    for (const white of [true, false]) {
      if (!(white ? s.legalW[i] && s.legalB[i] : s.legalB[i])) continue;
      if (k++ % stride === 0) list.push({ i, white });
    }
  }
  const words = new BigUint64Array(list.length * 10);
  list.forEach(({ i, white }, j) => pack(words, j * 10, s.piece, i >> 12, (i >> 6) & 63, i & 63, white, mirror));
  return { list, words };
}

/** WDL of every `wdlStride`-th legal position exactly, DTZ of every `dtzStride`-th within the rounding. */
function checkAgainstSolver(tb: SyzygyTablebase, s: Solved, wdlStride: number, dtzStride: number, mirror: boolean) {
  {
    const { list, words } = positionsOf(s, wdlStride, mirror);
    const wdl = tb.probeWdlBatch(words);
    const expectedWdl = Int8Array.from(list, ({ i, white }) => truthWdl(s, white, i));
    if (!Buffer.from(wdl.buffer).equals(Buffer.from(expectedWdl.buffer))) {
      const j = wdl.findIndex((v, k) => v !== expectedWdl[k]);
      const { i, white } = list[j]!;
      expect.fail(`WDL differs at ${white ? 'w' : 'b'} wk=${i >> 12} x=${(i >> 6) & 63} bk=${i & 63}: ${wdl[j]} vs solver ${expectedWdl[j]}`);
    }
  }
  const { list, words } = positionsOf(s, dtzStride, mirror);
  const dtz = tb.probeDtzBatch(words);
  let dtzBad = 0, rounded = 0, first = '';
  list.forEach(({ i, white }, j) => {
    const plies = truthPlies(s, white, i);
    const got = dtz[j]!;
    let ok: boolean;
    if (plies < 0) ok = got === 0;
    else if (plies === 0) ok = got === -1; // mated: python-chess's -1
    else {
      const sign = white ? 1 : -1;
      ok = Math.sign(got) === sign && Math.abs(got) <= plies && plies <= Math.abs(got) + 1;
      if (ok && Math.abs(got) !== plies) rounded++;
    }
    if (!ok && dtzBad++ === 0) first = `${white ? 'w' : 'b'} wk=${i >> 12} x=${(i >> 6) & 63} bk=${i & 63}: dtz ${got}, solver ${plies} plies`;
  });
  expect(dtzBad, first).toBe(0);
  return { n: list.length, rounded };
}

// ------------------------------------------------------------------------------ tests

describe('the test solver itself', () => {
  it('finds the published longest basic mates: KQK mate in 10, KRK mate in 16 (plies 19 and 31 with the winner to move)', () => {
    // Longest wins, e.g. Chess Programming Wiki "Endgame Tablebases" / Wikipedia "Checkmate": queen 10 moves, rook 16 moves.
    expect(KQK.w.reduce((a, v) => Math.max(a, v), 0)).toBe(19);
    expect(KRK.w.reduce((a, v) => Math.max(a, v), 0)).toBe(31);
  });
});

describe.each(MODES)('%s backend', (mode) => {
  const tb = open(mode);
  afterAll(() => tb.close());
  // native: WDL of every legal position, DTZ of every 5th; JS (slower): samples
  const [wdlStride, dtzStride] = mode === 'js' ? [13, 61] : [1, 5];

  for (const [name, s] of [['KQvK', KQK], ['KRvK', KRK], ['KPvK', KPK]] as const) {
    it(`${name}: WDL of ${mode === 'js' ? 'every 13th' : 'every'} legal position equals the solver's, DTZ within the rounding`, () => {
      checkAgainstSolver(tb, s, wdlStride, dtzStride, false);
    });
    it(`${name} with colours swapped (black strong): the same values`, () => {
      checkAgainstSolver(tb, s, wdlStride * 3, dtzStride * 3, true);
    });
  }

  it('KBNvK: WDL and DTZ agree with the KBNK distance-to-mate table on sampled positions', async () => {
    const kb = await KbnkTablebase.generate({ backend: mode });
    let seed = 12345;
    const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % 64; };
    const samples: { sk: number; b: number; n: number; wk: number; strongToMove: boolean; mirror: boolean; v: number }[] = [];
    while (samples.length < (mode === 'js' ? 1500 : 12000)) {
      const sk = rnd(), b = rnd(), n = rnd(), wk = rnd();
      if (new Set([sk, b, n, wk]).size < 4) continue;
      const strongToMove = (rnd() & 1) === 0;
      const v = kb.table[kbnkIndex(strongToMove, sk, b, n, wk)]!;
      if (v === KBNK_ILLEGAL) continue;
      samples.push({ sk, b, n, wk, strongToMove, mirror: (rnd() & 1) === 1, v });
    }
    const words = new BigUint64Array(samples.length * 10);
    samples.forEach((p, j) => {
      const m = p.mirror ? 56 : 0, at = j * 10;
      const strong = BIT[p.sk ^ m]! | BIT[p.b ^ m]! | BIT[p.n ^ m]!, weak = BIT[p.wk ^ m]!;
      words[at + (p.mirror ? 1 : 0)] = strong;
      words[at + (p.mirror ? 0 : 1)] = weak;
      words[at + 3] = BIT[p.n ^ m]!;
      words[at + 4] = BIT[p.b ^ m]!;
      words[at + 7] = BIT[p.sk ^ m]! | BIT[p.wk ^ m]!;
      words[at + 8] = BigInt((p.strongToMove !== p.mirror ? 0 : 1) | (64 << 8));
      words[at + 9] = 1n;
    });
    const wdl = tb.probeWdlBatch(words), dtz = tb.probeDtzBatch(words);
    const wrong: string[] = [];
    samples.forEach((p, j) => {
      const where = `KBNK sk=${p.sk} b=${p.b} n=${p.n} wk=${p.wk} ${p.strongToMove ? 'strong' : 'weak'} to move: wdl ${wdl[j]} dtz ${dtz[j]}, table ${p.v}`;
      const got = Math.abs(dtz[j]!);
      let ok: boolean;
      if (p.v === KBNK_DRAW) ok = wdl[j] === 0 && dtz[j] === 0;
      else if (wdl[j] !== (p.strongToMove ? 2 : -2)) ok = false;
      else if (p.v === 0) ok = dtz[j] === -1; // mated
      else ok = Math.sign(dtz[j]!) === (p.strongToMove ? 1 : -1) && got <= p.v && p.v <= got + 1;
      if (!ok) wrong.push(where);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(samples.filter((p) => p.v !== KBNK_DRAW).length).toBeGreaterThan(samples.length / 2);
  });

  it('python-chess\'s published endgame.epd values (WDL and DTZ) for every position whose tables are fixtures', () => {
    const have = new Set(readdirSync(FIXTURES).filter((f) => f.endsWith('.rtbw')).map((f) => f.slice(0, -5)));
    const materialOf = (board: string) => {
      const side = (upper: boolean) => 'KQRBNP'.split('').map((c) => (upper ? c : c.toLowerCase()).repeat([...board].filter((x) => x === (upper ? c : c.toLowerCase())).length)).join('').toUpperCase();
      return [`${side(true)}v${side(false)}`, `${side(false)}v${side(true)}`];
    };
    let checked = 0;
    for (const line of readFileSync(join(FIXTURES, 'endgame.epd'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const [board, stm, castling, ep, ...ops] = line.split(' ');
      if (!materialOf(board!).some((m) => have.has(m))) continue;
      const text = ops.join(' ');
      const wdl = Number(/(?:^|; )wdl (-?\d+)/.exec(text)![1]), dtz = Number(/dtz (-?\d+)/.exec(text)![1]);
      const pos = parseFen(`${board} ${stm} ${castling} ${ep} 0 1`);
      expect([tb.probeWdl(pos), tb.probeDtz(pos)], line).toEqual([wdl, dtz]);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('hand-checked positions', () => {
    const cases: [string, number, number | null, string][] = [
      // python-chess documentation of probe_wdl / probe_dtz (chess.syzygy): KBNvK, black to move
      ['8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1', -2, -53, 'python-chess docs'],
      // python-chess test suite, test_wdl_ep: a drawn KPvKP won only by the en-passant capture
      ['8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2', 2, null, 'python-chess test_wdl_ep'],
      // python-chess test suite, test_dtz_ep: en passant turns the DTZ around
      ['8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1', 2, 1, 'python-chess test_dtz_ep'],
      // python-chess test suite, test_probe_wdl_table (KRvKP, no capture possible)
      ['8/8/2K5/4P3/8/8/8/3r3k b - - 1 1', 0, 0, 'python-chess test_probe_wdl_table'],
      ['8/8/2K5/8/4P3/8/8/3r3k b - - 1 1', 2, null, 'python-chess test_probe_wdl_table'],
      // python-chess test suite, test_probe_pawnless_wdl_table (KBNvK)
      ['7B/5kNK/8/8/8/8/8/8 w - - 0 1', 2, null, 'python-chess KBNvK'],
      ['8/8/1NkB4/8/7K/8/8/8 w - - 1 1', 0, 0, 'python-chess KBNvK'],
      ['8/8/8/2n5/2b1K3/2k5/8/8 w - - 0 1', -2, null, 'python-chess KBNvK'],
      // python-chess test_probe_wdl_tablebase: winning KRvKB seen from the losing side
      ['7k/6b1/6K1/8/8/8/8/3R4 b - - 12 7', -2, null, 'python-chess KRvKB'],
      // the rules: checkmated (python-chess gives DTZ -1), stalemate
      ['k7/1Q6/1K6/8/8/8/8/8 b - - 0 1', -2, -1, 'checkmate'],
      ['k7/8/1QK5/8/8/8/8/8 b - - 0 1', 0, 0, 'stalemate'],
      // bare kings after a capture: KvK is a draw
      ['8/8/8/8/8/k7/2q5/2K5 w - - 0 1', 0, 0, 'the king takes the queen'],
      // wrong rook pawn is a draw only with a bishop; with a lone pawn the defender in front draws
      ['7k/8/7K/7P/8/8/8/8 w - - 0 1', 0, 0, 'rook pawn, defender in the corner'],
    ];
    for (const [fen, wdl, dtz, source] of cases) {
      const pos = parseFen(fen);
      expect(tb.probeWdl(pos), `${fen} (${source})`).toBe(wdl);
      if (dtz !== null) expect(tb.probeDtz(pos), `${fen} (${source})`).toBe(dtz);
    }
  });

  it('refuses castling rights, too many pieces and missing tables with a SyzygyError reason; get* give null', () => {
    const castling = parseFen('4k3/8/8/8/8/8/8/4K2R w K - 0 1');
    expect(() => tb.probeWdl(castling)).toThrow(SyzygyError);
    try { tb.probeWdl(castling); } catch (e) { expect((e as SyzygyError).reason).toBe('castling'); }
    const five = parseFen('4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1');
    try { tb.probeDtz(five); expect.fail('no error'); } catch (e) { expect((e as SyzygyError).reason).toBe('too-many-pieces'); }
    const missing = parseFen('4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1'); // KNNvK is not a fixture
    try { tb.probeWdl(missing); expect.fail('no error'); } catch (e) { expect((e as SyzygyError).reason).toBe('missing-table'); }
    expect(tb.getWdl(missing)).toBeNull();
    expect(tb.getDtz(castling)).toBeNull();
    const words = new BigUint64Array(30);
    words.set(castling.packed, 0);
    words.set(five.packed, 10);
    words.set(missing.packed, 20);
    expect([...tb.probeWdlBatch(words)]).toEqual([SYZYGY_WDL_NONE, SYZYGY_WDL_NONE, SYZYGY_WDL_NONE]);
    expect([...tb.probeDtzBatch(words)]).toEqual([SYZYGY_DTZ_NONE, SYZYGY_DTZ_NONE, SYZYGY_DTZ_NONE]);
  });

  it('bad arguments: TypeError / RangeError', () => {
    expect(() => tb.probeWdl({} as never)).toThrow(TypeError);
    expect(() => tb.probeWdlBatch([1, 2] as never)).toThrow(TypeError);
    expect(() => tb.probeWdlBatch(new BigUint64Array(7))).toThrow(RangeError);
    expect(() => tb.probeDtzBatch(new BigUint64Array(10), new Int16Array(2))).toThrow(TypeError);
    expect(() => SyzygyTablebase.open(join(FIXTURES, 'nope'), { backend: mode })).toThrow(SyzygyFileError);
  });

  it('garbage packed words (overlapping sets, no king, pawn on the last rank) give NONE, not a crash', () => {
    const words = new BigUint64Array(30);
    words.set(parseFen('4k3/8/8/8/8/8/4P3/4K3 w - - 0 1').packed, 0);
    words[0] |= words[1]!; // white and black overlap
    words.set(parseFen('4k3/8/8/8/8/8/4P3/4K3 w - - 0 1').packed, 10);
    words[17] = 0n; // no kings
    words.set(parseFen('4k3/8/8/8/8/8/4P3/4K3 w - - 0 1').packed, 20);
    words[20] = (words[20]! & ~(1n << 12n)) | (1n << 7n); // the pawn moved to h1
    words[22] = 1n << 7n;
    expect([...tb.probeWdlBatch(words)]).toEqual([SYZYGY_WDL_NONE, SYZYGY_WDL_NONE, SYZYGY_WDL_NONE]);
  });

  it('async batches: the same bytes as the synchronous ones, inputs copied before the work starts', async () => {
    const { words } = positionsOf(KRK, 97, false);
    const syncWdl = tb.probeWdlBatch(words), syncDtz = tb.probeDtzBatch(words);
    const copy = words.slice();
    const pending = tb.probeWdlBatchAsync(copy);
    copy.fill(0n); // the batch must not see this
    const wdl = await pending;
    expect(Buffer.from(wdl.buffer).equals(Buffer.from(syncWdl.buffer))).toBe(true);
    const dtz = await tb.probeDtzBatchAsync(words, 2);
    expect(dtz).toBeInstanceOf(Int16Array);
    expect(Buffer.from(dtz.buffer).equals(Buffer.from(syncDtz.buffer))).toBe(true);
    // closing while a batch runs: the batch still completes (native unmaps after it)
    const other = open(mode);
    const running = other.probeWdlBatchAsync(words);
    other.close();
    if (mode === 'native') expect(Buffer.from((await running).buffer).equals(Buffer.from(syncWdl.buffer))).toBe(true);
    else await expect(running).rejects.toThrow(/closed/);
  });

  it('probeRoot: every legal move with its WDL and DTZ, the best first', () => {
    const pos = parseFen('8/8/8/8/8/2k5/8/K6Q w - - 0 1'); // KQvK: white mates
    const root = tb.probeRoot(pos);
    expect(root.wdl).toBe(2);
    expect(root.moves.length).toBeGreaterThan(10);
    expect(root.best).toBe(root.moves[0]!.uci);
    const best = root.moves[0]!;
    expect(best.wdl).toBe(2);
    // the best move wins fastest: its dtz equals the position's (within the one-ply rounding)
    expect(Math.abs(best.dtz - root.dtz)).toBeLessThanOrEqual(1);
    for (const m of root.moves) if (m.wdl === 2) expect(m.dtz).toBeGreaterThanOrEqual(best.dtz);
    // a move that hangs the queen is a draw
    const mated = tb.probeRoot(parseFen('k7/1Q6/1K6/8/8/8/8/8 b - - 0 1'));
    expect(mated.moves).toEqual([]);
    expect(mated.best).toBeNull();
  });
});

// ------------------------------------------------------------------------------ probeRoot

/** FEN of white K + piece v black K (solver squares), white the strong side. */
function fenOf(piece: Piece, wk: number, x: number, bk: number, whiteToMove: boolean): string {
  const board: string[] = new Array(64).fill('');
  board[wk] = 'K'; board[x] = piece; board[bk] = 'k';
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) rows.push(board.slice(r * 8, r * 8 + 8).map((p) => p || '1').join('').replace(/1+/g, (ones) => String(ones.length)));
  return `${rows.join('/')} ${whiteToMove ? 'w' : 'b'} - - 0 1`;
}
const squareOf = (name: string) => (Number(name[1]) - 1) * 8 + 'abcdefgh'.indexOf(name[0]!);

describe.each(MODES)('probeRoot (%s)', (mode) => {
  const tb = open(mode);
  afterAll(() => tb.close());

  // Each root move against the solver: the position after it is looked up (a capture of the piece,
  // or a promotion to a bishop or knight, is a draw); a winning move's plies to its zeroing move or
  // mate are 1 for a zeroing or mating move, else one more than the solver's plies after it, which
  // the move's DTZ gives within the format's one-ply rounding.
  for (const [name, s] of [['KQvK', KQK], ['KRvK', KRK], ['KPvK', KPK]] as const) {
    it(`${name}: every move's WDL and DTZ from the solver, the best move the fastest win`, () => {
      let checked = 0, seed = 5;
      const rnd = (m: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >> 4) % m; };
      while (checked < (mode === 'js' ? 40 : 150)) {
        const i = rnd(64 * 64 * 64), white = rnd(2) === 0;
        if (!(white ? s.legalW[i] && s.legalB[i] : s.legalB[i])) continue;
        const wk = i >> 12, x = (i >> 6) & 63, bk = i & 63;
        const root = tb.probeRoot(parseFen(fenOf(s.piece, wk, x, bk, white)));
        const where = `${fenOf(s.piece, wk, x, bk, white)}`;
        expect(root.wdl, where).toBe(truthWdl(s, white, i));
        let bestPlies = Infinity;
        const pliesOf = new Map<string, number>();
        for (const m of root.moves) {
          const from = squareOf(m.uci.slice(0, 2)), to = squareOf(m.uci.slice(2, 4)), promo = m.uci[4];
          let childWdl: number, childPlies: number; // from the side that moved
          if (white) {
            const nwk = from === wk ? to : wk, nx = from === x ? to : x;
            const table = promo === 'q' ? KQK : promo === 'r' ? KRK : s;
            const c = idx(nwk, nx, bk);
            if (promo === 'b' || promo === 'n') [childWdl, childPlies] = [0, -1];
            else [childWdl, childPlies] = [table.b[c]! >= 0 ? 2 : 0, table.b[c]!];
          } else if (to === x) {
            [childWdl, childPlies] = [0, -1];
          } else {
            const c = idx(wk, x, to);
            [childWdl, childPlies] = [s.w[c]! >= 0 ? -2 : 0, s.w[c]!];
          }
          expect(m.wdl, `${where} ${m.uci}`).toBe(childWdl);
          expect(m.zeroing, `${where} ${m.uci}`).toBe(to === x || (s.piece === 'P' && from === x));
          expect(m.mate, `${where} ${m.uci}`).toBe(childWdl === 2 && childPlies === 0);
          if (childWdl === 0) expect(m.dtz).toBe(0);
          else {
            const plies = m.zeroing || m.mate ? 1 : childPlies + 1;
            expect(Math.sign(m.dtz), `${where} ${m.uci}`).toBe(Math.sign(childWdl));
            expect(Math.abs(m.dtz) <= plies && plies <= Math.abs(m.dtz) + 1, `${where} ${m.uci}: dtz ${m.dtz}, ${plies} plies`).toBe(true);
            if (childWdl > 0) { bestPlies = Math.min(bestPlies, plies); pliesOf.set(m.uci, plies); }
          }
        }
        expect(root.best).toBe(root.moves[0]?.uci ?? null);
        const top = Math.max(...root.moves.map((m) => m.wdl));
        if (root.moves.length) expect(root.moves[0]!.wdl).toBe(top);
        if (top === 2) expect(pliesOf.get(root.best!)! <= bestPlies + 1, `${where}: best ${root.best}`).toBe(true);
        checked++;
      }
    });
  }
});

describe.runIf(MODES.length === 2)('probeRoot: native and JS agree', () => {
  it('the same moves, values and order on random 3-4 piece positions, en passant included', () => {
    const js = open('js'), native = open('native');
    const fens = ['8/8/8/8/8/2k5/8/K6Q w - - 0 1', 'k7/1Q6/1K6/8/8/8/8/8 b - - 0 1', '8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1', '8/8/8/8/k2Pp3/8/8/4K3 b - d3 0 1'];
    let seed = 17;
    const rnd = (m: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >> 4) % m; };
    const materials = ['KQvKR', 'KPvKP', 'KRvKP', 'KBNvK', 'KQvKP', 'KRvKR'];
    while (fens.length < 80) {
      const [w, b] = materials[rnd(materials.length)]!.split('v') as [string, string];
      const board: string[] = new Array(64).fill('');
      for (const [side, upper] of [[w, true], [b, false]] as const) {
        for (const c of side) {
          let sq: number;
          do sq = rnd(64); while (board[sq] || (c === 'P' && (sq < 8 || sq >= 56)));
          board[sq] = upper ? c : c.toLowerCase();
        }
      }
      const rows: string[] = [];
      for (let r = 7; r >= 0; r--) rows.push(board.slice(r * 8, r * 8 + 8).map((p) => p || '1').join('').replace(/1+/g, (ones) => String(ones.length)));
      const fen = `${rows.join('/')} ${rnd(2) ? 'w' : 'b'} - - 0 1`;
      try { parseFen(fen); fens.push(fen); } catch { /* an illegal placement */ }
    }
    let moves = 0;
    for (const fen of fens) {
      const pos = parseFen(fen);
      expect(native.probeRoot(pos), fen).toEqual(js.probeRoot(pos));
      moves += native.probeRoot(pos).moves.length;
    }
    expect(moves).toBeGreaterThan(300);
    // a table the moves lead to is missing: the same SyzygyError on both
    const dir = mkdtempSync(join(tmpdir(), 'syzygy-root-'));
    try {
      copyFileSync(join(FIXTURES, 'KQvKR.rtbw'), join(dir, 'KQvKR.rtbw'));
      copyFileSync(join(FIXTURES, 'KQvKR.rtbz'), join(dir, 'KQvKR.rtbz'));
      const pos = parseFen('8/8/8/3k4/8/3r4/8/K2Q4 w - - 0 1');
      for (const tb of [open('js', dir), open('native', dir)]) {
        let reason = '';
        try { tb.probeRoot(pos); } catch (e) { expect(e).toBeInstanceOf(SyzygyError); reason = (e as SyzygyError).reason; }
        expect(reason).toBe('missing-table');
        tb.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    js.close();
    native.close();
  });
});

// ------------------------------------------------------------------------------ both backends, damage

describe.runIf(MODES.length === 2)('native and JS agree', () => {
  it('byte-identical batch outputs on every KQvKR and KPvKP position of a random sample', () => {
    const js = open('js'), native = open('native');
    let seed = 99;
    const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed >> 8; };
    const n = 4000;
    const words = new BigUint64Array(n * 10);
    let k = 0;
    while (k < n) {
      const sq = [rnd() % 64, rnd() % 64, rnd() % 64, rnd() % 64];
      if (new Set(sq).size < 4) continue;
      const pawns = (k & 1) === 1;
      if (pawns && [sq[2]!, sq[3]!].some((s) => s < 8 || s >= 56)) continue;
      const at = k * 10;
      const white = BIT[sq[0]!]! | BIT[sq[2]!]!, black = BIT[sq[1]!]! | BIT[sq[3]!]!;
      words.fill(0n, at, at + 10);
      words[at] = white; words[at + 1] = black;
      if (pawns) words[at + 2] = BIT[sq[2]!]! | BIT[sq[3]!]!;
      else { words[at + 6] = BIT[sq[2]!]!; words[at + 5] = BIT[sq[3]!]!; }
      words[at + 7] = BIT[sq[0]!]! | BIT[sq[1]!]!;
      words[at + 8] = BigInt((rnd() & 1) | (64 << 8));
      words[at + 9] = 1n;
      k++;
    }
    const a = js.probeWdlBatch(words), b = native.probeWdlBatch(words);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    const c = js.probeDtzBatch(words), d = native.probeDtzBatch(words);
    expect(Buffer.from(c.buffer).equals(Buffer.from(d.buffer))).toBe(true);
    expect([...a].filter((v) => v !== SYZYGY_WDL_NONE).length).toBeGreaterThan(n / 3);
    js.close();
    native.close();
  });

  // The native decoder starts a walk through a block at a symbol boundary it noted on the block's
  // first use; the JS one walks from the block's start. Damage inside the compressed blocks must
  // still give both the same value or both a SyzygyFileError.
  it('damaged compressed blocks: the same value or the same SyzygyFileError on both backends', () => {
    const dir = mkdtempSync(join(tmpdir(), 'syzygy-agree-'));
    try {
      const file = readFileSync(join(FIXTURES, 'KQvKR.rtbw'));
      let seed = 31;
      const rnd = (m: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >> 4) % m; };
      const positions: BigUint64Array[] = [];
      while (positions.length < 150) {
        const sq = [rnd(64), rnd(64), rnd(64), rnd(64)];
        if (new Set(sq).size < 4) continue;
        const w = new BigUint64Array(10);
        w[0] = BIT[sq[0]!]! | BIT[sq[2]!]!; w[1] = BIT[sq[1]!]! | BIT[sq[3]!]!;
        w[6] = BIT[sq[2]!]!; w[5] = BIT[sq[3]!]!; w[7] = BIT[sq[0]!]! | BIT[sq[1]!]!;
        w[8] = BigInt(rnd(2) | (64 << 8)); w[9] = 1n;
        positions.push(w);
      }
      const outcome = (tb: SyzygyTablebase, w: BigUint64Array) => {
        try { return tb.probeWdlBatch(w)[0]; } catch (e) { expect(e).toBeInstanceOf(SyzygyFileError); return `error ${(e as SyzygyFileError).problem}`; }
      };
      let errors = 0, values = 0;
      for (let trial = 0; trial < 16; trial++) {
        const bad = Uint8Array.from(file);
        // past the header and symbol tables: the sparse index, the block sizes and the blocks
        for (let f = 0, flips = 1 + rnd(40); f < flips; f++) bad[1024 + rnd(bad.length - 1024)] ^= 1 << rnd(8);
        const sub = mkdtempSync(join(dir, 't'));
        writeFileSync(join(sub, 'KQvKR.rtbw'), bad);
        for (const other of ['KQvK.rtbw', 'KRvK.rtbw', 'KQvKQ.rtbw', 'KRvKR.rtbw']) copyFileSync(join(FIXTURES, other), join(sub, other));
        const js = open('js', sub), native = open('native', sub);
        for (const w of positions) {
          const a = outcome(js, w), b = outcome(native, w);
          expect(b, `trial ${trial}`).toBe(a);
          if (typeof a === 'string') errors++; else values++;
        }
        js.close();
        native.close();
      }
      expect(errors).toBeGreaterThan(0);
      expect(values).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Fathom (github.com/jdart1/Fathom, Debian's libfathom-dev) is an independent C prober: where it is
// installed (the bench installs and uses it too) its WDL must equal ours on random positions.
const FATHOM = existsSync('/usr/include/tbprobe.h') && (existsSync('/usr/lib/x86_64-linux-gnu/libfathom.so') || existsSync('/usr/lib/libfathom.so'));
describe.runIf(FATHOM)('Fathom agrees (libfathom-dev installed)', () => {
  it.each(MODES)('WDL of random legal positions of every fixture table (%s)', (mode) => {
    const dir = mkdtempSync(join(tmpdir(), 'syzygy-fathom-'));
    try {
      const exe = join(dir, 'fathom');
      execFileSync('gcc', ['-O2', join(__dirname, '..', '..', 'bench', 'syzygy-fathom.c'), '-lfathom', '-o', exe], { stdio: 'pipe' });
      const materials = readdirSync(FIXTURES).filter((f) => f.endsWith('.rtbw')).map((f) => f.slice(0, -5));
      let seed = 4242;
      const rnd = (m: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >> 7) % m; };
      const n = mode === 'js' ? 1500 : 6000;
      const words = new BigUint64Array(n * 10);
      for (let k = 0; k < n;) {
        const [w, b] = materials[rnd(materials.length)]!.split('v') as [string, string];
        const board: string[] = new Array(64).fill('');
        for (const [side, upper] of [[w, true], [b, false]] as const) {
          for (const c of side) {
            let sq: number;
            do sq = rnd(64); while (board[sq]);
            board[sq] = upper ? c : c.toLowerCase();
          }
        }
        const rows: string[] = [];
        for (let r = 7; r >= 0; r--) rows.push(board.slice(r * 8, r * 8 + 8).map((p) => p || '1').join('').replace(/1+/g, (ones) => String(ones.length)));
        try {
          words.set(parseFen(`${rows.join('/')} ${rnd(2) ? 'w' : 'b'} - - 0 1`).packed, k * 10);
          k++;
        } catch { /* an illegal placement: draw again */ }
      }
      writeFileSync(join(dir, 'in.bin'), Buffer.from(words.buffer));
      execFileSync(exe, [FIXTURES, join(dir, 'in.bin'), join(dir, 'out.bin'), '1'], { stdio: 'pipe' });
      const fathom = readFileSync(join(dir, 'out.bin'));
      const ours = open(mode).probeWdlBatch(words);
      expect(Buffer.from(ours.buffer).equals(fathom)).toBe(true);
      expect([...ours].filter((v) => v !== 0).length).toBeGreaterThan(n / 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(MODES)('damaged files (%s)', (mode) => {
  const dir = mkdtempSync(join(tmpdir(), 'syzygy-damage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const kqk = readFileSync(join(FIXTURES, 'KQvK.rtbw'));
  const probe = parseFen('8/8/8/8/8/2k5/8/K6Q w - - 0 1');

  function withFile(name: string, bytes: Uint8Array): SyzygyTablebase {
    const sub = mkdtempSync(join(dir, 'x'));
    writeFileSync(join(sub, name), bytes);
    copyFileSync(join(FIXTURES, 'KQvK.rtbz'), join(sub, name.replace('.rtbw', '.rtbz')));
    return open(mode, sub);
  }
  const fileError = (f: () => unknown) => {
    try { f(); } catch (e) { expect(e).toBeInstanceOf(SyzygyFileError); return (e as SyzygyFileError).problem; }
    return 'no error';
  };

  it('wrong magic', () => {
    const bad = Uint8Array.from(kqk); bad[0] ^= 0xff;
    expect(fileError(() => withFile('KQvK.rtbw', bad).probeWdl(probe))).toBe('magic');
  });
  it('truncated at many lengths', () => {
    for (const len of [0, 3, 16, 80, 144, kqk.length - 64, kqk.length - 16, kqk.length - 1]) {
      expect(fileError(() => withFile('KQvK.rtbw', kqk.subarray(0, len)).probeWdl(probe)), `length ${len}`).not.toBe('no error');
    }
  });
  it('open with verify: true reports a damaged table at once', () => {
    const bad = Uint8Array.from(kqk); bad[1] ^= 0x55;
    const sub = mkdtempSync(join(dir, 'v'));
    writeFileSync(join(sub, 'KQvK.rtbw'), bad);
    expect(fileError(() => SyzygyTablebase.open(sub, { backend: mode, verify: true }))).toBe('magic');
    expect(SyzygyTablebase.open(FIXTURES, { backend: mode, verify: true }).tables.length).toBe(21);
  });
  it('a KQvK file renamed to KRvK', () => {
    const problem = fileError(() => withFile('KRvK.rtbw', kqk).probeWdl(parseFen('8/8/8/8/8/2k5/8/K6R w - - 0 1')));
    expect(problem).toBe('material');
  });
  it('random byte flips: a SyzygyFileError or a value in range, never another exception or a hang', () => {
    let seed = 7;
    const rnd = (m: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >> 4) % m; };
    const positions = ['8/8/8/8/8/2k5/8/K6Q w - - 0 1', '8/8/8/8/8/2k5/8/K6Q b - - 0 1', '3k4/8/8/8/8/8/8/KQ6 b - - 0 1', '7k/8/8/8/8/8/8/1Q5K w - - 0 1'].map((f) => parseFen(f));
    let errors = 0;
    for (let trial = 0; trial < 60; trial++) {
      const bad = Uint8Array.from(kqk);
      const flips = 1 + rnd(4);
      // half the trials hit the header and symbol tables (the first 256 bytes), half anywhere
      for (let f = 0; f < flips; f++) bad[trial & 1 ? rnd(Math.min(256, bad.length)) : rnd(bad.length)] ^= 1 << rnd(8);
      const t = withFile('KQvK.rtbw', bad);
      for (const p of positions) {
        try {
          const v = t.probeWdl(p);
          expect(v >= -2 && v <= 2).toBe(true);
        } catch (e) {
          if (!(e instanceof SyzygyFileError)) throw e;
          errors++;
        }
      }
      t.close();
    }
    expect(errors).toBeGreaterThan(0);
  });
});
