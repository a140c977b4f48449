/**
 * `bitboard-patterns/tablebases`: the KBNK Endgame page's evaluation and tablebase, generated tables
 * of any material up to five pieces, and Syzygy probing. The KBNK functions are the default
 * facade's (lib/api/facade.ts chooses the backend).
 *
 * @module bitboard-patterns/tablebases
 */
import { api } from './api/facade.js';

export * from './tablebases/index.js';
export const { cornerDistance, manhattanDistance, kbnkEval, kbnkEvalSquares } = api;
