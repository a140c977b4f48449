/** The engine topic's public surface: a pool of UCI engines (the `bitboard-patterns/engine` subpath, Node only). */
export { EnginePool, findEngine, type EnginePoolOptions, type EnginePoolStats, type EngineResult } from './pool.js';
export { EngineError, liveEngines, type EngineProblem } from './process.js';
export type { EngineAnalysis, EngineLimit, EngineLine, EngineScore } from './uci.js';
export { winningChances, judgeMove, JUDGEMENT_NAG, type MoveJudgement } from './advice.js';
