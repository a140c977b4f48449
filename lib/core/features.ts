/**
 * The features batch analysis computes: names, kinds and ids, the checks of a feature list and the
 * CSV header. Apart from the analysis code (lib/batch/batch.ts re-exports all of it), so the analyze
 * command's main thread parses its arguments without loading the analysis.
 */

export type FeatureType = 'bitboard' | 'u64' | 'u8' | 'flag';

export interface FeatureInfo {
  readonly name: string;
  /** bitboard: BigUint64Array of square sets; u64: BigUint64Array of other 64-bit values; u8: Uint8Array of small numbers; flag: Uint8Array of 0 / 1. */
  readonly type: FeatureType;
  /** true: two values per position, white's then black's; false: one. */
  readonly perColor: boolean;
  readonly description: string;
}

/** Every feature analyzeBatch computes, in its native id order. */
export const FEATURES = [
  { name: 'checkers', type: 'bitboard', perColor: true,
    description: 'enemy pieces giving check to the king of each colour' },
  { name: 'pinned', type: 'bitboard', perColor: true,
    description: 'pieces of each colour absolutely pinned to their own king by enemy sliders' },
  { name: 'discoveredCheckCandidates', type: 'bitboard', perColor: true,
    description: 'pieces of each colour alone between one of its sliders and the enemy king' },
  { name: 'attacked', type: 'bitboard', perColor: true,
    description: 'squares each colour attacks (sliders blocked by the pieces on the board)' },
  { name: 'kingZoneAttacks', type: 'u8', perColor: true,
    description: "attacks on each king's zone (its square and neighbours): (enemy piece, zone square) pairs" },
  { name: 'distantCheckLines', type: 'u8', perColor: true,
    description: "the King Pattern page's dirSet of each king, taboo = own pieces | squares the enemy attacks through the king" },
  { name: 'pawnShieldIndex', type: 'u8', perColor: true,
    description: "pawnShieldIndex(color, kingSq, own pawns) of each king, 0..63" },
  { name: 'uncatchablePassers', type: 'bitboard', perColor: true,
    description: "each colour's passed pawns the enemy king cannot catch (rule of the square, side to move considered)" },
  { name: 'knightForkSquares', type: 'bitboard', perColor: true,
    description: 'squares not holding own pieces from which a knight of each colour attacks two or more of the enemy king, queens and rooks' },
  { name: 'inCheck', type: 'flag', perColor: false, description: 'the side to move is in check' },
  { name: 'legalMoveCount', type: 'u8', perColor: false,
    description: 'legal moves of the side to move (255 when the side not to move is in check: no legal position)' },
  { name: 'checkmate', type: 'flag', perColor: false, description: 'the side to move is checkmated' },
  { name: 'stalemate', type: 'flag', perColor: false, description: 'the side to move is stalemated' },
  { name: 'polyglotKey', type: 'u64', perColor: false,
    description: "the Polyglot opening-book format's key of the position (polyglotKey)" },
  { name: 'hanging', type: 'bitboard', perColor: true,
    description: "each colour's pieces other than the king that the other side attacks and it does not defend (hanging)" },
  { name: 'forks', type: 'bitboard', perColor: true,
    description: "each colour's pieces attacking two or more targets: the enemy king, enemy pieces worth more, undefended enemy pieces (forks)" },
  { name: 'relativePins', type: 'bitboard', perColor: true,
    description: "each colour's pieces pinned by an enemy slider to a piece of their own worth more, not the king (relativePins)" },
  { name: 'skewers', type: 'bitboard', perColor: true,
    description: "each colour's sliders skewering an enemy piece to a piece behind it (skewers)" },
  { name: 'discoveredAttacks', type: 'bitboard', perColor: true,
    description: "each colour's pieces alone between one of its sliders and an enemy target (discoveredAttacks)" },
] as const satisfies readonly FeatureInfo[];

/**
 * Group names a feature list may hold, each standing for its features: `motifs` for the five
 * tactical motif sets (docs/motifs.md).
 */
export const FEATURE_GROUPS: Readonly<Record<string, readonly BaseFeatureName[]>> = {
  motifs: ['hanging', 'forks', 'relativePins', 'skewers', 'discoveredAttacks'],
};

/**
 * Features answered by Syzygy tablebases (a SyzygyTablebase passed as the `syzygy` option), not part
 * of 'all': `wdl` (Int8Array, -2..2 from the side to move, SYZYGY_WDL_NONE = -128 where the tables
 * cannot answer) and `dtz` (Int16Array, SYZYGY_DTZ_NONE = -32768 likewise). Computed by
 * SyzygyTablebase.probeWdlBatch / probeDtzBatch (all cores natively).
 */
export const SYZYGY_FEATURES = [
  { name: 'wdl', description: 'Syzygy WDL from the side to move (-2..2), -128 where the tables cannot answer' },
  { name: 'dtz', description: 'Syzygy DTZ in plies from the side to move, -32768 where the tables cannot answer' },
] as const;

/** The names FEATURES holds: computed by the backends; 'all' means these. */
export type BaseFeatureName = (typeof FEATURES)[number]['name'];
export type SyzygyFeatureName = (typeof SYZYGY_FEATURES)[number]['name'];
export type FeatureName = BaseFeatureName | SyzygyFeatureName;
type BitboardFeature = Extract<(typeof FEATURES)[number], { type: 'bitboard' | 'u64' }>['name'];
export type FeatureArray<F extends FeatureName> = F extends BitboardFeature ? BigUint64Array
  : F extends 'wdl' ? Int8Array : F extends 'dtz' ? Int16Array : Uint8Array;
/** The group names a feature list may hold (FEATURE_GROUPS). */
export type FeatureGroupName = 'motifs';
/** A feature or group name, as the group's features. */
export type ExpandedFeature<F> = F extends 'motifs' ? 'hanging' | 'forks' | 'relativePins' | 'skewers' | 'discoveredAttacks' : F;
export type BatchResults<F extends FeatureName | FeatureGroupName = BaseFeatureName> = {
  [K in ExpandedFeature<F>]: K extends FeatureName ? FeatureArray<K> : never;
};

/** The number of FEATURES (ids 0..FEATURE_COUNT-1), and their names in id order. */
export const FEATURE_COUNT = FEATURES.length;
export const FEATURE_NAMES: readonly BaseFeatureName[] = FEATURES.map((f) => f.name);
const WIDTH = FEATURES.map((f) => (f.perColor ? 2 : 1));
/** Values per position of feature `f`: 2 (white's, black's) or 1. */
export const featureWidth = (f: number): number => WIDTH[f]!;
/** Feature `f` is a bitboard (BigUint64Array output), not a small number (Uint8Array). */
export const isU64Feature = (f: number): boolean => FEATURES[f]!.type === 'bitboard' || FEATURES[f]!.type === 'u64';
/** Feature `f` is a 0 / 1 flag. */
export const isFlagFeature = (f: number): boolean => FEATURES[f]!.type === 'flag';

/** Features announced but not implemented yet (none: the move-generator features). */
export const PENDING_FEATURES = [] as const;

const NAME_TO_ID = new Map<string, number>(FEATURES.map((f, i) => [f.name, i]));

/** Feature names -> ids, checked; 'all' or undefined = every feature of FEATURES (not the Syzygy ones). */
export function featureIds(fn: string, features: readonly string[] | 'all' | undefined): number[] {
  if (features === undefined || features === 'all') return FEATURES.map((_, i) => i);
  if (!Array.isArray(features)) throw new TypeError(`${fn}: features must be an array of feature names or 'all'`);
  const ids: number[] = [];
  for (const name of features) {
    const group = typeof name === 'string' && Object.hasOwn(FEATURE_GROUPS, name) ? FEATURE_GROUPS[name] : undefined;
    if (group) {
      for (const member of group) if (!ids.includes(NAME_TO_ID.get(member)!)) ids.push(NAME_TO_ID.get(member)!);
      continue;
    }
    if ((PENDING_FEATURES as readonly unknown[]).includes(name)) {
      throw new RangeError(`${fn}: feature ${name} is not available yet: it needs the legal move generator, which this build does not have`);
    }
    const id = typeof name === 'string' ? NAME_TO_ID.get(name) : undefined;
    if (id === undefined) {
      throw new RangeError(`${fn}: unknown feature ${JSON.stringify(name)}; known: ${FEATURES.map((f) => f.name).join(', ')}, the group ${Object.keys(FEATURE_GROUPS).join(', ')} (and wdl, dtz with a Syzygy tablebase)`);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

// ---- Records for the CLI ----

/** The CSV columns of these features: `name` for one value, `name_w`, `name_b` for one per colour. */
export function featureColumns(ids: readonly number[]): string[] {
  return ids.flatMap((f) => {
    const { name, perColor } = FEATURES[f]!;
    return perColor ? [`${name}_w`, `${name}_b`] : [name];
  });
}

/** The CSV header line for these features. */
export function csvHeader(ids: readonly number[], syzygy = false): string {
  return `${['line', 'input', ...featureColumns(ids), ...(syzygy ? ['wdl', 'dtz'] : []), 'error'].join(',')}\n`;
}
