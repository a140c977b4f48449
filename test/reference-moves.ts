/**
 * The public functions of the moves-and-perft topic (facade names). test/properties.test.ts leaves
 * them to test/properties-moves.test.ts, which compares native and JS on each.
 */
export const MOVE_TOPIC_FUNCTIONS = [
  'legalMoves', 'legalMovesEncoded', 'makeMove', 'perft', 'perftStats', 'perftDivide', 'perftBatch',
] as const;
