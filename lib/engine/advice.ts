/**
 * Judging a move by the evaluations before and after it, as lichess's game analysis does (its
 * published rule, lila's `Advice`): the drop in the mover's winning chances, where winning chances
 * = 2 / (1 + e^(−0.00368208 · cp)) − 1 from the mover's view, of at least 0.1 is an inaccuracy (?!),
 * 0.2 a mistake (?), 0.3 a blunder (??). That applies when both evaluations are centipawns. With a
 * mate score on either side:
 * - the mover now gets mated (no mate before, a mate against the mover after): an inaccuracy if the
 *   mover was already below −999 cp before, a mistake below −700, else a blunder;
 * - the mover had a forced mate and lets it go (a mate for the mover before; none, or one against
 *   the mover, after): an inaccuracy if the mover is still above +999 cp after, a mistake above
 *   +700, else a blunder (a mate against the mover counts as 0 cp here);
 * - any other pair (a slower mate, a mate kept, a mate against the mover kept) is not judged.
 */
import type { EngineScore } from './uci.js';

export type MoveJudgement = 'inaccuracy' | 'mistake' | 'blunder';

/** Winning chances in −1..1 of a centipawn score (lichess's logistic curve). */
export function winningChances(cp: number): number {
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** The PGN NAG of a judgement: ?! $6, ? $2, ?? $4 (PGN standard 10: NAGs). */
export const JUDGEMENT_NAG: Record<MoveJudgement, number> = { inaccuracy: 6, mistake: 2, blunder: 4 };

/**
 * The judgement of a move played by `mover` (0 White, 1 Black) from `before` (the position it was
 * played in) to `after`, both from White's view; null when the rule finds nothing.
 */
export function judgeMove(before: EngineScore, after: EngineScore, mover: 0 | 1): MoveJudgement | null {
  const s = mover === 0 ? 1 : -1;
  if ('cp' in before && 'cp' in after) {
    const drop = winningChances(s * before.cp) - winningChances(s * after.cp);
    return drop >= 0.3 ? 'blunder' : drop >= 0.2 ? 'mistake' : drop >= 0.1 ? 'inaccuracy' : null;
  }
  const mateBefore = 'mate' in before ? s * before.mate : null;
  const mateAfter = 'mate' in after ? s * after.mate : null;
  if (mateBefore === null && mateAfter !== null && mateAfter < 0) {
    const cp = s * (before as { cp: number }).cp;
    return cp < -999 ? 'inaccuracy' : cp < -700 ? 'mistake' : 'blunder';
  }
  if (mateBefore !== null && mateBefore > 0 && (mateAfter === null || mateAfter < 0)) {
    const cp = mateAfter === null ? s * (after as { cp: number }).cp : 0;
    return cp > 999 ? 'inaccuracy' : cp > 700 ? 'mistake' : 'blunder';
  }
  return null;
}
