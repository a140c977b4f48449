/**
 * The outcome of a game read from PGN: how the rules of chess (FIDE Laws of Chess, Article 5.2,
 * 9.2, 9.3 and 9.6) end it at the last position of its main line. The readers (native/core/pgn.h
 * with native/core/outcome.h, lib/backends/js/pgn.ts with lib/backends/js/outcome.ts) write one code per game; this
 * module names it. Checked in this order (python-chess's `outcome(claim_draw=True)`):
 *
 * 1. `checkmate` (5.1.1; the winner is the side that gave mate);
 * 2. `insufficient material` of both sides (5.2.2; `isInsufficientMaterial`'s approximation);
 * 3. `stalemate` (5.2.1);
 * 4. `seventyfive moves`: 75 moves by each side without a capture or pawn move (9.6.2);
 * 5. `fivefold repetition`: the last position seen a fifth time (9.6.1);
 * 6. `fifty moves`, claimable: 50 moves without a capture or pawn move, or 49.5 and a move that makes
 *    it 50 (9.3.1 and 9.3.2: the player writes the move and claims);
 * 7. `threefold repetition`, claimable: the last position seen a third time, or a move that makes a
 *    position appear the third time (9.2.1 and 9.2.2).
 *
 * Positions count as the same (9.2.3) with the same player to move, the same pieces on the same
 * squares, the same castling rights, and an en-passant capture possible in both or in neither. The
 * history starts at the game's start position (a FEN tag's position knows nothing before it).
 */

/** What ended the game (FIDE Laws of Chess, Article 5 and 9). */
export type PgnTermination =
  | 'checkmate' | 'insufficient material' | 'stalemate' | 'seventyfive moves' | 'fivefold repetition'
  | 'fifty moves' | 'threefold repetition';

/** A game's outcome: what ends it and who won (null for the draws). */
export interface PgnOutcome {
  termination: PgnTermination;
  winner: 'white' | 'black' | null;
}

/** Terminations by code (native/core/outcome.h Termination; 0: the game goes on). */
export const OUTCOME_TERMINATIONS: readonly (PgnTermination | null)[] = [
  null, 'checkmate', 'insufficient material', 'stalemate', 'seventyfive moves', 'fivefold repetition', 'fifty moves',
  'threefold repetition',
];

const WINNERS = [null, 'white', 'black'] as const;

/** The outcome of a reader's code (termination | winner << 4), null for 0. */
export function outcomeOf(code: number): PgnOutcome | null {
  const termination = OUTCOME_TERMINATIONS[code & 15];
  return termination ? { termination, winner: WINNERS[(code >> 4) & 3] ?? null } : null;
}
