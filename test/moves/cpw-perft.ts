/**
 * The chess programming wiki's "Perft Results" (https://www.chessprogramming.org/Perft_Results), one
 * copy of the published numbers in test/fixtures/cpw-perft.json for the perft tests, the threaded
 * perft tests and the sample positions of other tests: per position its FEN, the node counts for
 * depth 1.. and, where the wiki prints them, the statistics rows in PERFT_STATS_COLUMNS order.
 */
import CPW_FILE from '../fixtures/cpw-perft.json' with { type: 'json' };

/** A statistics row in PERFT_STATS_COLUMNS order; null where the wiki has no such column. */
export type StatsRow = (number | null)[];
export interface CpwPosition {
  name: string;
  fen: string;
  /** Node counts, depth 1.. */
  nodes: number[];
  /** Statistics rows, depth 1..; empty where the wiki prints none. */
  stats: StatsRow[];
}

type FileEntry = { name: string; fen: string; nodes?: number[]; stats?: StatsRow[]; mirrorOf?: string };
const entries = (CPW_FILE as { positions: FileEntry[] }).positions;

/** The positions in the wiki's order; a mirrored position carries the numbers of the one it mirrors. */
export const CPW_POSITIONS: CpwPosition[] = entries.map((e) => {
  const numbers = e.mirrorOf === undefined ? e : entries.find((o) => o.name === e.mirrorOf)!;
  return { name: e.name, fen: e.fen, nodes: numbers.nodes!, stats: numbers.stats ?? [] };
});

export function cpw(name: string): CpwPosition {
  const p = CPW_POSITIONS.find((x) => x.name === name);
  if (!p) throw new Error(`no CPW position named ${name}`);
  return p;
}

export const START = cpw('initial position').fen;
export const KIWIPETE = cpw('Kiwipete').fen;
export const POSITION_3 = cpw('position 3').fen;
export const POSITION_4 = cpw('position 4').fen;
export const POSITION_4_MIRRORED = cpw('position 4 mirrored').fen;
export const POSITION_5 = cpw('position 5').fen;
export const POSITION_6 = cpw('position 6').fen;
