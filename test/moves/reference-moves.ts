import { DECLARATIONS, type Declaration } from '../../lib/api/declarations.js';

/**
 * The public functions of the moves-and-perft topic (facade names), from their declarations
 * (topic 'moves'). test/patterns/properties.test.ts leaves them to test/moves/properties-moves.test.ts, which
 * compares native and JS on each.
 */
export const MOVE_TOPIC_FUNCTIONS: readonly string[] = Object.entries(DECLARATIONS as Record<string, Declaration>)
  .filter(([name, d]) => d.topic === 'moves' && !name.includes('.')).map(([name]) => name);
