/**
 * Bad input for every public function, on every backend: the error class DESIGN.md promises and
 * never a crash or a silent answer. Then the same bad input straight into the native addon (no
 * facade checks in between), which must check again and throw the same classes.
 */
import { describe, expect, it } from 'vitest';
import { DECLARATIONS, type ArgKind, type Declaration, type OutKind } from '../../lib/api/declarations.js';
import { createRequire } from 'node:module';
import { addonPath } from '../../lib/backends/native.js';
import { FenError } from '../../lib/core/position.js';
import { backends, jsApi, nativeApi } from '../support/backends.js';
import { thrown } from '../support/thrown.js';

type Kind =
  | 'square' | 'color' | 'bitboard' | 'squareOrSet' | 'optBitboard'
  | 'squares' | 'sets' | 'optSets' | 'outU64' | 'outU8' | 'outI8'
  // checks and pinned pieces (facade)
  | 'position' | 'fen' | 'uci' | 'direction' | 'optColor' | 'optBatchColor' | 'positions' | 'positionList' | 'init'
  // checks and pinned pieces (raw addon): a packed position, checkKind's numbers, the batch colour 0 | 1 | 2
  | 'packed' | 'from' | 'to' | 'promotion' | 'rawDirection' | 'batchColor'
  // moves and perft: a perft depth (0..20, perftDivide 1..20), move buffers, perft outputs
  | 'depth' | 'divideDepth' | 'moveBuffer' | 'rawMoveBuffer' | 'outF64' | 'statsOut'
  // checkAnalysisBatch's out: six words per position
  | 'outAnalysis'
  // seeGe's threshold: an integer -100000..100000
  | 'centipawns'
  // KBNK: a Position with king, bishop and knight against a lone king
  | 'kbnkPosition'
  // perft's options objects: { threads }, and { threads, signal } for the async forms
  | 'perftOptions' | 'perftAsyncOptions'
  // parseFen's { chess960 } and toFen's { shredder }
  | 'fenOptions' | 'toFenOptions';

const N = 5;

/** The test's kind for each declared argument kind (lib/api/declarations.ts) and each batch output. */
const KIND_OF: Record<ArgKind, Kind> = {
  square: 'square', color: 'color', centipawns: 'centipawns', bitboard: 'bitboard', squareOrSet: 'squareOrSet', direction: 'direction',
  depth: 'depth', divideDepth: 'divideDepth', path: 'optBitboard', optColor: 'optColor', optBitboard: 'optBitboard',
  batchColor: 'batchColor', optBatchColor: 'optBatchColor', squares: 'squares', sets: 'sets', paths: 'optSets',
  position: 'position', kbnkPosition: 'kbnkPosition', positions: 'positions', positionList: 'positionList',
  fen: 'fen', init: 'init', uci: 'uci', moveBuffer: 'moveBuffer',
  perftOptions: 'perftOptions', perftAsyncOptions: 'perftAsyncOptions', fenOptions: 'fenOptions', toFenOptions: 'toFenOptions',
};
const OUT_KIND_OF: Record<OutKind, Kind> = { u64: 'outU64', u8: 'outU8', i8: 'outI8', f64: 'outF64' };

/** Every public function and the kind of each argument, in order (facade signatures), from its declaration. */
const SPECS: [string, Kind[]][] = Object.entries(DECLARATIONS as Record<string, Declaration>).map(([name, d]) => [name, [
  ...d.args.map(([, kind]) => KIND_OF[kind]),
  ...(d.out ? [d.outWidth === 6 ? 'outAnalysis' as const : OUT_KIND_OF[d.out]] : []),
]]);

/** Facade functions with no backend twin (FEN, position building, the isInCheck convenience). */
const FACADE_ONLY = new Set(['parseFen', 'toFen', 'createPosition', 'packPositions', 'isInCheck', 'legalMovesEncoded',
  'makeMove', 'perftDivide', 'kbnkEvalSquares', 'perftAsync', 'perftStatsAsync']);
/** Optional variants: present only on some builds/CPUs. */
const OPTIONAL = new Set(['variants.distantCheckLinesSse41', 'variants.rookAttacksPext', 'variants.bishopAttacksPext']);
/** The backend (raw) signatures that differ from the facade's by more than rawKind. */
const RAW_SIGNATURES: Record<string, Kind[]> = {
  checkKind: ['packed', 'from', 'to', 'promotion'],
  see: ['packed', 'from', 'to', 'promotion'],
  seeGe: ['packed', 'from', 'to', 'promotion', 'centipawns'],
  legalMoves: ['packed', 'rawMoveBuffer'],
  perft: ['packed', 'depth'],
  perftStats: ['packed', 'depth', 'statsOut'],
  kbnkEval: ['square', 'square', 'square', 'square'],
};

/** The backend (raw) signature: no squares as numbers where sets go, no defaults, `out` required. */
function rawKind(k: Kind): Kind {
  if (k === 'squareOrSet' || k === 'optBitboard') return 'bitboard';
  if (k === 'optSets') return 'sets';
  if (k === 'position') return 'packed';
  if (k === 'optColor') return 'color';
  if (k === 'optBatchColor') return 'batchColor';
  if (k === 'direction') return 'rawDirection';
  if (k === 'moveBuffer') return 'rawMoveBuffer';
  return k;
}

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const KBNK = '8/8/8/8/8/8/2k5/KNB5 w - - 0 1';
const samplePosition = () => jsApi.parseFen(KIWIPETE);
const samplePositions = () => [KIWIPETE, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  '8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1'].map((f) => jsApi.parseFen(f));

/** Kiwipete's packed words with one corruption the native side must refuse. */
function corrupted(kind: 'overlap' | 'twoKings' | 'ep99' | 'noBlackKing'): BigUint64Array {
  const w = BigUint64Array.from(samplePosition().packed);
  const a1 = 1n, e2 = 1n << 12n, e8 = 1n << 60n;
  if (kind === 'overlap') w[1] |= a1; // a1 (a white rook) also in the black set
  if (kind === 'twoKings') { w[0] |= e2 ^ 0n; w[7] |= e2; w[4] &= ~e2; } // the e2 bishop becomes a second white king
  if (kind === 'ep99') w[8] = (w[8]! & ~0xff00n) | (99n << 8n);
  if (kind === 'noBlackKing') { w[1] &= ~e8; w[7] &= ~e8; }
  return w;
}
const CORRUPTIONS = ['overlap', 'twoKings', 'ep99', 'noBlackKing'] as const;

/** N packed positions with one corrupted at index 3. */
function batchWithCorrupt(kind: (typeof CORRUPTIONS)[number]): BigUint64Array {
  const out = BigUint64Array.from(jsApi.packPositions(samplePositions()));
  out.set(corrupted(kind), 30);
  return out;
}

function valid(kind: Kind): unknown {
  switch (kind) {
    case 'square': return 10;
    case 'color': return 1;
    case 'centipawns': return -50;
    case 'bitboard': case 'optBitboard': return 0x1234_5678_9abc_def0n;
    case 'squareOrSet': return 5;
    case 'squares': return Uint8Array.from([0, 9, 27, 54, 63]);
    case 'sets': case 'optSets': return BigUint64Array.from([0n, 1n, 0xffn, 0x8000_0000_0000_0000n, 0xffff_ffff_ffff_ffffn]);
    case 'outU64': return new BigUint64Array(N);
    case 'outU8': return new Uint8Array(N);
    case 'outI8': return new Int8Array(N);
    case 'outAnalysis': return new BigUint64Array(6 * N);
    case 'position': return samplePosition();
    case 'packed': return BigUint64Array.from(samplePosition().packed);
    case 'fen': return KIWIPETE;
    case 'uci': return 'e2a6';
    case 'from': return 12; // e2
    case 'to': return 40; // a6
    case 'promotion': return 0;
    case 'direction': return 'east';
    case 'rawDirection': return 2;
    case 'optColor': return 1;
    case 'optBatchColor': return 0;
    case 'batchColor': return 2;
    case 'positions': return jsApi.packPositions(samplePositions());
    case 'positionList': return samplePositions();
    case 'init': return { pieces: { white: { king: 1n << 4n }, black: { king: 1n << 60n } } };
    case 'depth': case 'divideDepth': return 1;
    case 'moveBuffer': case 'rawMoveBuffer': return new Uint16Array(256);
    case 'outF64': return new Float64Array(N);
    case 'statsOut': return new Float64Array(9);
    case 'kbnkPosition': return jsApi.parseFen(KBNK);
    case 'perftOptions': return { threads: 2 };
    case 'fenOptions': return { chess960: true };
    case 'toFenOptions': return { shredder: true };
    case 'perftAsyncOptions': return { threads: 2, signal: new AbortController().signal };
  }
}

/** The error class expected; 'MoveError' by name (the class is exported by the facade, not by a module of its own). */
type Case = [label: string, value: unknown, error: typeof TypeError | typeof RangeError | typeof FenError | 'MoveError'];

const BAD_SQUARES: Case[] = [
  ['1.5', 1.5, RangeError], ['NaN', NaN, RangeError], ['-1', -1, RangeError], ['64', 64, RangeError],
  ['Infinity', Infinity, RangeError], ['-Infinity', -Infinity, RangeError],
  ["'3'", '3', TypeError], ['3n', 3n, TypeError], ['undefined', undefined, TypeError], ['null', null, TypeError],
  ['{}', {}, TypeError],
];
const BAD_COLORS: Case[] = [
  ['2', 2, RangeError], ['-1', -1, RangeError], ['0.5', 0.5, RangeError], ['NaN', NaN, RangeError],
  ["'1'", '1', TypeError], ['1n', 1n, TypeError], ['undefined', undefined, TypeError],
];
const OUT_OF_RANGE_BIGINTS: Case[] = [
  ['-1n', -1n, RangeError], ['2n**64n', 2n ** 64n, RangeError], ['-(2n**63n)', -(2n ** 63n), RangeError],
];
/** Bad values for a bitboard that may also be left out (the distance functions' path). */
const BAD_BITBOARD_VALUES: Case[] = [...OUT_OF_RANGE_BIGINTS, ["'3'", '3', TypeError], ['null', null, TypeError]];
const BAD_BITBOARDS: Case[] = [
  ...BAD_BITBOARD_VALUES, ['3 (a number)', 3, TypeError], ['0 (a number)', 0, TypeError], ['1.5', 1.5, TypeError],
  ['undefined', undefined, TypeError],
];

type AnyTypedArrayCtor = Uint8ArrayConstructor | Int8ArrayConstructor | BigUint64ArrayConstructor | Float64ArrayConstructor;

/**
 * Arrays that lie or are gone: a Proxy of a good array (no typed array to the engine), a subclass
 * whose `length` says `n` but which really holds n + 3 elements, and a detached array (its buffer
 * transferred away). Only the facade is held to these (the raw addon sees what the engine sees).
 */
function hostileArrays(Good: AnyTypedArrayCtor, n: number): Case[] {
  if (hostileRaw) return [];
  const Liar = class extends (Good as Uint8ArrayConstructor) {
    override get length() { return n; }
  };
  const detached = new Good(n);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  return [
    ['a Proxy of a good array', new Proxy(new Good(n), {}), TypeError],
    [`a subclass whose length says ${n} (holds ${n + 3})`, new Liar(n + 3), RangeError],
    ['a detached array', detached, TypeError],
  ];
}
/** Set while building the raw addon's cases (see hostileArrays). */
let hostileRaw = false;

function badArrays(good: 'squares' | 'sets'): Case[] {
  const wrongTypes: Case[] = good === 'squares'
    ? [
      ['BigUint64Array', new BigUint64Array(N), TypeError],
      ['Uint16Array', new Uint16Array(N), TypeError],
      ['Int8Array', new Int8Array(N), TypeError],
      ['plain array', [0, 1, 2, 3, 4], TypeError],
    ]
    : [
      ['Uint8Array', new Uint8Array(N), TypeError],
      ['Uint16Array', new Uint16Array(N), TypeError],
      ['BigInt64Array', new BigInt64Array(N), TypeError],
      ['plain array', [0n, 1n, 2n, 3n, 4n], TypeError],
    ];
  const Good = good === 'squares' ? Uint8Array : BigUint64Array;
  return [
    ...wrongTypes,
    ...hostileArrays(Good, N),
    ['null', null, TypeError],
    ['a bigint', 1n, TypeError],
    [`length ${N + 1}`, new Good(N + 1), RangeError],
    [`length ${N - 1}`, new Good(N - 1), RangeError],
  ];
}

function badOut(kind: 'outU64' | 'outU8' | 'outI8'): Case[] {
  const [Good, Wrong] = kind === 'outU64' ? [BigUint64Array, Uint8Array] as const
    : kind === 'outU8' ? [Uint8Array, Int8Array] as const : [Int8Array, Uint8Array] as const;
  return [
    ...hostileArrays(Good, N),
    [`${Wrong.name}`, new Wrong(N), TypeError],
    ['Uint16Array', new Uint16Array(N), TypeError],
    ['plain array', [0, 0, 0, 0, 0], TypeError],
    ['null', null, TypeError],
    [`length ${N + 1}`, new Good(N + 1), RangeError],
    [`length ${N - 1}`, new Good(N - 1), RangeError],
  ];
}

function badValues(kind: Kind, raw: boolean): Case[] {
  switch (kind) {
    case 'square': return BAD_SQUARES;
    case 'color': return BAD_COLORS;
    case 'centipawns': return [
      ['0.5', 0.5, RangeError], ['100001', 100001, RangeError], ['-100001', -100001, RangeError], ['NaN', NaN, RangeError],
      ["'0'", '0', TypeError], ['0n', 0n, TypeError], ['null', null, TypeError], ['undefined', undefined, TypeError],
    ];
    case 'bitboard': return BAD_BITBOARDS;
    case 'optBitboard': return BAD_BITBOARD_VALUES; // undefined means "all squares" here
    case 'squareOrSet': return [...BAD_SQUARES.filter(([, v]) => typeof v !== 'bigint'), ...OUT_OF_RANGE_BIGINTS];
    case 'squares': return badArrays('squares');
    case 'sets': return badArrays('sets');
    case 'optSets': return badArrays('sets'); // undefined means "all squares" here
    case 'outU64': case 'outU8': case 'outI8':
      return raw ? [...badOut(kind), ['undefined', undefined, TypeError]] : badOut(kind);
    case 'outAnalysis': return [
      ['Uint8Array', new Uint8Array(6 * N), TypeError], ['BigInt64Array', new BigInt64Array(6 * N), TypeError],
      ['plain array', new Array(6 * N).fill(0n), TypeError], ['null', null, TypeError],
      ...(raw ? [['undefined', undefined, TypeError] as Case] : []),
      [`length ${N} (one word per position)`, new BigUint64Array(N), RangeError],
      [`length ${6 * N + 1}`, new BigUint64Array(6 * N + 1), RangeError], [`length ${6 * N - 6}`, new BigUint64Array(6 * N - 6), RangeError],
    ];
    case 'position': return [
      ['{}', {}, TypeError], ['null', null, TypeError], ['undefined', undefined, TypeError],
      ['a FEN string', KIWIPETE, TypeError], ['a copy of a position', { ...samplePosition() }, TypeError],
      ['a copy carrying the old registered brand', { ...samplePosition(), [Symbol.for('bitboard-patterns.Position')]: true }, TypeError],
      ['an object inheriting from a position', Object.create(samplePosition()), TypeError],
      ['its packed words', samplePosition().packed, TypeError], ['42', 42, TypeError],
    ];
    case 'packed': return [
      ['Uint8Array', new Uint8Array(10), TypeError], ['BigInt64Array', new BigInt64Array(10), TypeError],
      ['plain array', Array.from(samplePosition().packed), TypeError], ['null', null, TypeError],
      ['a Position', samplePosition(), TypeError],
      ['length 9', new BigUint64Array(9), RangeError], ['length 11', new BigUint64Array(11), RangeError],
      ...CORRUPTIONS.map((c): Case => [`corrupted: ${c}`, corrupted(c), RangeError]),
      ['all zeros', new BigUint64Array(10), RangeError],
    ];
    case 'fen': return [
      ['42', 42, TypeError], ['null', null, TypeError], ['undefined', undefined, TypeError],
      ["'x'", 'x', FenError], ['a 100 kB string', 'x'.repeat(100_000), FenError],
    ];
    case 'uci': return [
      ['42', 42, TypeError], ['null', null, TypeError], ['undefined', undefined, TypeError],
      ["'e2e9'", 'e2e9', 'MoveError'], ["''", '', 'MoveError'], ["'a1a2' (own piece)", 'a1a2', 'MoveError'],
      ["'e2a6q'", 'e2a6q', 'MoveError'], ['a 100 kB string', 'e2e4'.repeat(25_000), 'MoveError'],
    ];
    case 'from': case 'to': return BAD_SQUARES;
    case 'promotion': return [
      ['5', 5, RangeError], ['-1', -1, RangeError], ['1.5', 1.5, RangeError], ["'q'", 'q', TypeError], ['undefined', undefined, TypeError],
    ];
    case 'direction': return [
      ['8', 8, RangeError], ['-1', -1, RangeError], ['1.5', 1.5, RangeError], ['NaN', NaN, RangeError],
      ["'north'", 'north', RangeError], ['null', null, TypeError], ['2n', 2n, TypeError], ['undefined', undefined, TypeError],
    ];
    case 'rawDirection': return [
      ['8', 8, RangeError], ['-1', -1, RangeError], ['1.5', 1.5, RangeError], ["'east'", 'east', TypeError],
      ['undefined', undefined, TypeError],
    ];
    case 'optColor': return BAD_COLORS.filter(([, v]) => v !== undefined);
    case 'optBatchColor': return BAD_COLORS.filter(([, v]) => v !== undefined && v !== 2);
    case 'batchColor': return [['3', 3, RangeError], ['-1', -1, RangeError], ['0.5', 0.5, RangeError], ["'1'", '1', TypeError], ['undefined', undefined, TypeError]];
    case 'positions': return [
      ['Uint8Array', new Uint8Array(10 * N), TypeError], ['BigInt64Array', new BigInt64Array(10 * N), TypeError],
      ['plain array', new Array(10 * N).fill(0n), TypeError], ['null', null, TypeError],
      ...(raw ? [['undefined', undefined, TypeError] as Case] : []),
      ['length 45 (not a multiple of 10)', new BigUint64Array(45), RangeError],
      [`length ${10 * (N + 1)}`, BigUint64Array.from(jsApi.packPositions([...samplePositions(), samplePosition()])), RangeError],
      ...CORRUPTIONS.map((c): Case => [`position 3 corrupted: ${c}`, batchWithCorrupt(c), RangeError]),
    ];
    case 'positionList': return [
      ['42', 42, TypeError], ['null', null, TypeError], ['a Position', samplePosition(), TypeError],
      ['[position, {}]', [samplePosition(), {}], TypeError], ['[position, null]', [samplePosition(), null], TypeError],
      ['[a FEN]', [KIWIPETE], TypeError],
    ];
    case 'init': return [['42', 42, TypeError], ['null', null, TypeError], ['{ pieces: 42 }', { pieces: 42 }, TypeError]];
    case 'depth': case 'divideDepth': return [
      ['-1', -1, RangeError], ['21', 21, RangeError], ['1.5', 1.5, RangeError], ['NaN', NaN, RangeError],
      ['Infinity', Infinity, RangeError], ["'3'", '3', TypeError], ['3n', 3n, TypeError], ['null', null, TypeError],
      ['undefined', undefined, TypeError], ...(kind === 'divideDepth' ? [['0', 0, RangeError] as Case] : []),
    ];
    case 'moveBuffer': case 'rawMoveBuffer': return [
      ['Uint8Array', new Uint8Array(256), TypeError], ['Int16Array', new Int16Array(256), TypeError],
      ['Uint32Array', new Uint32Array(256), TypeError], ['plain array', new Array(256).fill(0), TypeError],
      ['null', null, TypeError], ['length 255', new Uint16Array(255), RangeError], ['length 0', new Uint16Array(0), RangeError],
      ...(kind === 'rawMoveBuffer' ? [['undefined', undefined, TypeError] as Case] : []),
    ];
    case 'outF64': return [
      ['Float32Array', new Float32Array(N), TypeError], ['BigUint64Array', new BigUint64Array(N), TypeError],
      ['plain array', [0, 0, 0, 0, 0], TypeError], ['null', null, TypeError],
      [`length ${N + 1}`, new Float64Array(N + 1), RangeError], [`length ${N - 1}`, new Float64Array(N - 1), RangeError],
      ...(raw ? [['undefined', undefined, TypeError] as Case] : []),
    ];
    case 'statsOut': return [
      ['Float32Array', new Float32Array(9), TypeError], ['BigUint64Array', new BigUint64Array(9), TypeError],
      ['null', null, TypeError], ['undefined', undefined, TypeError],
      ['length 8', new Float64Array(8), RangeError], ['length 10', new Float64Array(10), RangeError],
    ];
    case 'kbnkPosition': return [
      ...badValues('position', raw),
      ['Kiwipete (not KBNK)', samplePosition(), RangeError],
      ['KNNK', jsApi.parseFen('8/8/8/8/8/8/2k5/KNN5 w - - 0 1'), RangeError],
      ['KBNK with a black pawn', jsApi.parseFen('8/p7/8/8/8/8/2k5/KNB5 w - - 0 1'), RangeError],
      ['KBN against KB', jsApi.parseFen('7b/8/8/8/8/8/2k5/KNB5 w - - 0 1'), RangeError],
    ];
    case 'perftOptions': return badPerftOptions();
    case 'fenOptions': return [['42', 42, TypeError], ['null', null, TypeError], ["{ chess960: 'yes' }", { chess960: 'yes' }, TypeError]];
    case 'toFenOptions': return [['42', 42, TypeError], ['null', null, TypeError], ['{ shredder: 1 }', { shredder: 1 }, TypeError]];
    case 'perftAsyncOptions': {
      const signal = new AbortController().signal;
      return [
        ...badPerftOptions(),
        ['{ signal: {} }', { signal: {} }, TypeError],
        ['{ signal: null }', { signal: null }, TypeError],
        ['{ signal: a Proxy of an AbortSignal }', { signal: new Proxy(signal, {}) }, TypeError],
        ['{ signal: an object inheriting from an AbortSignal }', { signal: Object.create(signal) }, TypeError],
        ['{ signal: an AbortController }', { signal: new AbortController() }, TypeError],
        ['a signal getter that throws', { get signal() { throw new Error('getter'); } }, TypeError],
      ];
    }
  }
}

/** perft's options: not an object, a bad thread count, a property whose read throws. */
function badPerftOptions(): Case[] {
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    ['42', 42, TypeError], ['null', null, TypeError], ["'fast'", 'fast', TypeError],
    ['{ threads: 0 }', { threads: 0 }, RangeError], ['{ threads: 257 }', { threads: 257 }, RangeError],
    ['{ threads: 1.5 }', { threads: 1.5 }, RangeError], ['{ threads: NaN }', { threads: NaN }, RangeError],
    ["{ threads: '2' }", { threads: '2' }, TypeError], ['{ threads: 2n }', { threads: 2n }, TypeError],
    ['{ threads: null }', { threads: null }, TypeError],
    ['a threads getter that throws', { get threads() { throw new RangeError('getter'); } }, TypeError],
    ['a Proxy whose get trap throws', new Proxy({}, { get() { throw new Error('trap'); } }), TypeError],
    ['a revoked Proxy', revocable.proxy, TypeError],
  ];
}

type AnyFn = (...args: unknown[]) => unknown;

function lookup(target: object, name: string): AnyFn | undefined {
  let v: unknown = target;
  for (const part of name.split('.')) v = (v as Record<string, unknown>)?.[part];
  return v as AnyFn | undefined;
}

function expectError(err: Error, want: Case[2]) {
  if (want === 'MoveError') expect(err.name, err.message).toBe('MoveError');
  else expect(err, `${err.name}: ${err.message}`).toBeInstanceOf(want);
}

/** The bad-input cases of one function: one argument replaced at a time. */
function cases(kinds: Kind[], raw: boolean) {
  hostileRaw = raw;
  const out: { label: string; args: () => unknown[]; error: Case[2]; elementIndex?: number }[] = [];
  kinds.forEach((kind, i) => {
    const k = raw ? rawKind(kind) : kind;
    const base = () => kinds.map((kk) => valid(raw ? rawKind(kk) : kk));
    for (const [label, value, error] of badValues(k, raw)) {
      out.push({ label: `argument ${i} (${k}) = ${label}`, args: () => base().map((v, j) => (j === i ? value : v)), error });
    }
    if (k === 'squares') {
      for (const bad of [64, 255]) {
        out.push({
          label: `argument ${i} (${k}) with element 3 = ${bad}`,
          args: () => base().map((v, j) => (j === i ? Uint8Array.from([1, 2, 3, bad, 4]) : v)),
          error: RangeError,
          elementIndex: 3,
        });
      }
    }
  });
  out.push({ label: 'no arguments', args: () => [], error: TypeError });
  return out;
}

describe.each(backends)('%s', (_name, api) => {
  const specs = SPECS.filter(([name]) => lookup(api, name) !== undefined);

  it('covers every function of the API', () => {
    // The batch API's argument errors are tested in batch.test.ts (seeBatch's in test/motifs/see.test.ts).
    const batchTopic = new Set(['PositionBatch', 'analyzeBatch', 'analyzeBatchAsync', 'toPlanes', 'seeBatch']);
    const functions = Object.entries(api).filter(([k, v]) => typeof v === 'function' && !batchTopic.has(k)).map(([k]) => k);
    const variants = Object.entries(api.variants).filter(([, v]) => typeof v === 'function').map(([k]) => `variants.${k}`);
    expect(specs.map(([n]) => n).sort()).toEqual([...functions, ...variants].sort());
  });

  describe.each(specs)('%s', (name, kinds) => {
    const f = lookup(api, name)!;

    it('accepts the valid arguments the cases below start from', () => {
      expect(() => f(...kinds.map(valid))).not.toThrow();
      if (kinds.some((k) => k.startsWith('out'))) {
        // Without `out` (and without the optional path) it allocates the result itself.
        const args = kinds.map(valid).slice(0, kinds.findIndex((k) => k.startsWith('out')));
        expect(f(...args)).toHaveLength(kinds.includes('outAnalysis') ? 6 * N : N);
      }
    });

    it.each(cases(kinds, false).map((c) => [c.label, c] as const))('%s', (_label, c) => {
      const err = thrown(() => f(...c.args()));
      expectError(err, c.error);
      const fnName = name.replace('variants.', '');
      // FenError and MoveError name the FEN field / the move instead of the function.
      if (c.error !== FenError && c.error !== 'MoveError') expect(err.message).toContain(fnName);
      if (c.elementIndex !== undefined) expect(err.message).toMatch(new RegExp(`\\b${c.elementIndex}\\b`));
    });
  });
});

describe('a corrupted position in a batch is a RangeError naming its index', () => {
  const targets: [string, AnyFn][] = backends.map(([name, api]) => [`${name} facade`, api.checkAnalysisBatch as AnyFn]);
  if (nativeApi) {
    const raw = createRequire(import.meta.url)(addonPath()) as Record<string, AnyFn>;
    targets.push(['raw addon', raw.checkAnalysisBatch!]);
  }
  const batchNames = ['checkersBatch', 'pinnedPiecesBatch', 'discoveredCheckCandidatesBatch'] as const;
  it.each(targets)('checkAnalysisBatch, %s', (_name, f) => {
    for (const c of CORRUPTIONS) {
      const err = thrown(() => f(batchWithCorrupt(c), new BigUint64Array(6 * N)));
      expect(err, `${c}: ${err.message}`).toBeInstanceOf(RangeError);
      expect(err.message).toContain('checkAnalysisBatch');
      expect(err.message).toMatch(/position 3\b/);
    }
  });
  it.each(backends)('the single-colour batch forms, %s', (_name, api) => {
    for (const name of batchNames) {
      for (const c of CORRUPTIONS) {
        const err = thrown(() => api[name](batchWithCorrupt(c), 2));
        expect(err, `${name} ${c}`).toBeInstanceOf(RangeError);
        expect(err.message).toContain(name);
        expect(err.message).toMatch(/position 3\b/);
      }
    }
  });
});

describe.skipIf(!nativeApi)('raw native addon (no facade checks)', () => {
  // The addon as loaded, before lib/backends/native.ts adapts it (its position functions take packed words).
  const raw = nativeApi ? (createRequire(import.meta.url)(addonPath()) as object) : {};
  const specs = SPECS.filter(([name]) => !FACADE_ONLY.has(name) && lookup(raw, name) !== undefined)
    .map(([name, kinds]): [string, Kind[]] => [name, RAW_SIGNATURES[name] ?? kinds.map(rawKind)]);

  it('exports every backend function', () => {
    const missing = SPECS.map(([n]) => n).filter((n) => !OPTIONAL.has(n) && !FACADE_ONLY.has(n) && !lookup(raw, n));
    expect(missing).toEqual([]);
  });

  describe.each(specs)('%s', (name, kinds) => {
    const f = lookup(raw, name)!;

    it('accepts the valid arguments the cases below start from', () => {
      expect(() => f(...kinds.map(valid))).not.toThrow();
    });

    it.each(cases(kinds, true).map((c) => [c.label, c] as const))('%s', (_label, c) => {
      const err = thrown(() => f(...c.args()));
      expectError(err, c.error);
      if (c.elementIndex !== undefined) {
        expect(err.message).toContain(name.replace(/^variants\./, ''));
        expect(err.message).toMatch(new RegExp(`\\b${c.elementIndex}\\b`));
      }
    });
  });
});
