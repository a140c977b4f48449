/** Everything public that does not depend on the backend: types, constants, square helpers. */
export type { Bitboard, Square, Color, KnightDirection } from './backend.js';
export { WHITE, BLACK, KNIGHT_DIRECTIONS } from './backend.js';
export { ALL_SQUARES, type Api } from './api.js';
export { parseSquare, squareName, bitboardOf, squaresOf } from './squares.js';
