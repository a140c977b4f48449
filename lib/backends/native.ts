/**
 * Loads the native addon and adapts it to the Backend interface.
 *
 * Search order: `BITBOARD_PATTERNS_ADDON` (an explicit .node file, e.g. a cmake-js build), then a
 * prebuild matching this platform in `prebuilds/<platform>-<arch>/` (made by prebuildify), then a
 * local build in `build/Release` (node-gyp). The addon itself is compiled for the baseline CPU and
 * checks the CPU (cpuid: SSE4.1 + POPCNT) before it uses its x86-optimised kernels, so any binary
 * that loads is safe to run; `cpuPath` says which kernels it chose ('portable', 'sse4.1+popcnt', or
 * 'sse4.1+popcnt+bmi2' when the sliders are PEXT-indexed).
 *
 * The addon's position functions take packed words (PACKED_POSITION_WORDS) instead of a Position;
 * `adaptAddon` wraps exactly those and passes the words `packedOf` writes from the Position's own
 * int32 halves into one buffer per call (never the caller's `pos.packed`); everything else passes
 * straight through.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Position } from '../core/types.js';
import type { Backend, Variants, PgnBackend, SanBackend, SyzygyBackend, TbGenBackend, ZstdBackend } from './contract.js';
import { MAX_MOVES } from '../core/types.js';
import { packedOf } from '../core/position.js';

const nodeRequire = createRequire(import.meta.url);

/**
 * The package root: the nearest folder above this file with a package.json (this file sits in
 * `lib/backends/` as a source, or in `dist/` once built).
 */
export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(start, '..');
  }
}

interface GypBuild {
  path(dir: string): string;
  parseTuple(name: string): { name: string; platforms: string[]; architectures: string[] } | undefined;
  matchTuple(platform: string, arch: string): (t: unknown) => boolean;
  compareTuples(a: unknown, b: unknown): number;
  parseTags(file: string): { file: string } | undefined;
  matchTags(runtime: string, abi: string): (t: unknown) => boolean;
  compareTags(runtime: string): (a: unknown, b: unknown) => number;
}

function prebuildPath(root: string, gyp: GypBuild): string | undefined {
  const dir = join(root, 'prebuilds');
  if (!existsSync(dir)) return undefined;
  const tuple = readdirSync(dir).map(gyp.parseTuple).filter(gyp.matchTuple(process.platform, process.arch))
    .sort(gyp.compareTuples)[0] as { name: string } | undefined;
  if (!tuple) return undefined;
  const flavours = readdirSync(join(dir, tuple.name)).map(gyp.parseTags)
    .filter(gyp.matchTags('node', process.versions.modules)).sort(gyp.compareTags('node'));
  const winner = flavours[0] as { file: string } | undefined;
  return winner && join(dir, tuple.name, winner.file);
}

/** Where the addon binary would be loaded from; throws (with the places searched) when there is none. */
export function addonPath(root = packageRoot): string {
  const explicit = process.env.BITBOARD_PATTERNS_ADDON;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`BITBOARD_PATTERNS_ADDON points at ${explicit}, which does not exist`);
    return resolve(explicit);
  }
  // A source build and no prebuilds: the file node-gyp-build would name, without loading it (a
  // start-up cost of every process and worker thread that loads the addon).
  const release = join(root, 'build', 'Release', 'bitboard_patterns.node');
  if (!existsSync(join(root, 'prebuilds')) && !process.env.BITBOARD_PATTERNS_PREBUILD && existsSync(release)) return release;
  const gyp = nodeRequire('node-gyp-build') as GypBuild;
  return prebuildPath(root, gyp) ?? gyp.path(root);
}

/** The keys of T whose function's first parameter is a Position. */
type TakingPosition<T> = { [K in keyof T]-?: NonNullable<T[K]> extends (pos: Position, ...rest: never[]) => unknown ? K : never }[keyof T];
/**
 * The Backend's functions whose first parameter is a Position, by their types. At run time the addon
 * marks each of them with `positionArity` (native/addon/args.h, from its registered signature
 * "name(pos, ...)"), so no list of them is kept.
 */
type PositionFunction = TakingPosition<Backend>;
type PositionVariant = TakingPosition<Variants>;

/** The same function taking the packed words where the backend takes a Position. */
type Packed<F> = F extends (pos: Position, ...rest: infer A) => infer R ? (packed: BigUint64Array, ...rest: A) => R : never;

/** What the addon exports: the Backend, with packed positions where the Backend has Positions. */
export type NativeAddon = Omit<Backend, 'name' | PositionFunction | 'variants' | 'san' | 'pgn' | 'tbgen' | 'syzygy'>
  & NativeSan & { pgnRead: PgnBackend['read']; pgnTree: NonNullable<PgnBackend['tree']> } & Partial<TbGenBackend> & Partial<SyzygyBackend> & Partial<NativeZstd>
  & { [K in PositionFunction]: Packed<Backend[K]> }
  & { variants: Omit<Variants, PositionVariant> & { [K in PositionVariant]: Packed<NonNullable<Variants[K]>> } };

/**
 * Copies `raw`, replacing each function the addon marks with `positionArity` by
 * (pos, ...rest) => f(packedOf(pos), ...rest).
 */
function packPositions<T extends object>(raw: T): T {
  const adapted = { ...raw } as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'function' || typeof (value as { positionArity?: unknown }).positionArity !== 'number') continue;
    const fn = value as (packed: unknown, ...rest: unknown[]) => unknown;
    // The facade has checked the Position; its packed words come from the package's own record of it.
    // By the function's arity, without a rest array: spreading one into an addon function takes a
    // slow call path.
    switch ((value as { positionArity: number }).positionArity) {
      case 1: adapted[name] = (pos: Position) => fn(packedOf(pos)); break;
      case 2: adapted[name] = (pos: Position, a: unknown) => fn(packedOf(pos), a); break;
      case 3: adapted[name] = (pos: Position, a: unknown, b: unknown) => fn(packedOf(pos), a, b); break;
      case 4: adapted[name] = (pos: Position, a: unknown, b: unknown, c: unknown) => fn(packedOf(pos), a, b, c); break;
      case 5: adapted[name] = (pos: Position, a: unknown, b: unknown, c: unknown, d: unknown) => fn(packedOf(pos), a, b, c, d); break;
      default: adapted[name] = (pos: Position, ...rest: unknown[]) => fn(packedOf(pos), ...rest);
    }
  }
  return adapted as T;
}

interface NativeSan {
  sanWrite(pos: BigUint64Array, code: number): string;
  sanParse(pos: BigUint64Array, san: Uint8Array, out: Uint16Array): number;
  sanList(pos: BigUint64Array, out: Uint8Array, moves: Uint16Array): number;
}

/** The SAN primitives of the addon as Backend.san (positions passed as the package's packed words). */
function nativeSanBackend(addon: NativeSan): SanBackend {
  const text = Buffer.alloc(MAX_MOVES * 9);
  const moves = new Uint16Array(MAX_MOVES);
  return {
    write: (pos, code) => addon.sanWrite(packedOf(pos), code),
    parse: (pos, san, out) => addon.sanParse(packedOf(pos), san, out),
    list(pos) {
      const r = addon.sanList(packedOf(pos), text, moves);
      const n = r % 512;
      const bytes = Math.floor(r / 512);
      const sans = n === 0 ? [] : text.toString('latin1', 0, bytes - 1).split(' ');
      return [moves.slice(0, n), sans];
    },
  };
}

/** The addon's zstd functions (native/addon/zstd.cc), as Backend.zstd. */
interface NativeZstd {
  zstdReaderNew: ZstdBackend['readerNew'];
  zstdReaderPush: ZstdBackend['push'];
  zstdReaderEnd: ZstdBackend['end'];
  zstdCompress: ZstdBackend['compress'];
  zstdVersion: string;
}

/** The Backend view of a loaded addon. */
export function adaptAddon(addon: NativeAddon): Backend {
  const variants = Object.freeze(packPositions(addon.variants)) as unknown as Variants;
  const adapted = packPositions(addon) as unknown as Omit<Backend, 'name' | 'variants' | 'san' | 'pgn' | 'tbgen' | 'syzygy'>;
  const { tbGenerate, tbGenerateAsync } = addon;
  const tbgen = tbGenerate && tbGenerateAsync ? Object.freeze({ tbGenerate, tbGenerateAsync }) : null;
  const syzygy = addon.syzygyOpen ? Object.freeze({
    syzygyOpen: addon.syzygyOpen, syzygyProbe: addon.syzygyProbe!, syzygyProbeRoot: addon.syzygyProbeRoot!,
    syzygyProbeBatch: addon.syzygyProbeBatch!, syzygyProbeBatchAsync: addon.syzygyProbeBatchAsync!,
    syzygyClose: addon.syzygyClose!, syzygyVerify: addon.syzygyVerify!,
  }) : null;
  const pgn = Object.freeze({ read: addon.pgnRead, tree: addon.pgnTree });
  // libzstd, where the addon was built with zstd.h and found libzstd when it loaded (native/addon/zstd.cc).
  const zstd: ZstdBackend | undefined = addon.zstdReaderNew ? Object.freeze({
    readerNew: addon.zstdReaderNew, push: addon.zstdReaderPush!, end: addon.zstdReaderEnd!,
    compress: addon.zstdCompress!, version: addon.zstdVersion!,
  }) : undefined;
  return Object.freeze({ ...adapted, variants, san: nativeSanBackend(addon), pgn, tbgen, syzygy, ...(zstd && { zstd }), name: 'native' as const });
}

/**
 * The command that builds the addon from where the user stands: inside a project that installed the
 * package (it sits in node_modules) npm rebuilds the dependency; in a clone of this repository, the
 * package's own script.
 */
export function buildCommand(root = packageRoot): string {
  return /[\\/]node_modules[\\/]/.test(root) ? 'npm rebuild bitboard-patterns' : 'npm run build:native';
}

/** Loads the addon and returns it as a Backend; throws an Error saying why when it cannot. */
export function loadNative(root = packageRoot): Backend {
  // One Backend (or load error) per addon path: callers (the PGN readers, SAN, books) ask on every call.
  const key = `${root}\0${process.env.BITBOARD_PATTERNS_ADDON ?? ''}\0${process.env.BITBOARD_PATTERNS_PREBUILD ?? ''}`;
  let result = loaded.get(key);
  if (!result) {
    try {
      result = loadFrom(root);
    } catch (e) {
      result = e as Error;  // a failure is kept too: the JS fallback asks again on every call
    }
    loaded.set(key, result);
  }
  if (result instanceof Error) throw result;
  return result;
}
const loaded = new Map<string, Backend | Error>();

function loadFrom(root: string): Backend {
  let file: string;
  try {
    file = addonPath(root);
  } catch (e) {
    throw new Error(`no native build of bitboard-patterns found (run \`${buildCommand(root)}\`, which needs `
      + `python3, make and a C++17 compiler): ${(e as Error).message.trim()}`, { cause: e });
  }
  let addon: NativeAddon;
  try {
    addon = nodeRequire(file) as NativeAddon;
  } catch (e) {
    throw new Error(`the native addon ${file} failed to load: ${(e as Error).message}`, { cause: e });
  }
  return adaptAddon(addon);
}

