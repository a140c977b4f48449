/**
 * What `analyze --engine` and `annotate` share: the engine options of the command line, the pool
 * they start, and answers matched to the records or games they belong to, in input order.
 */
import type { Position } from '../core/types.js';
import type { EngineLimit, EnginePool, EngineResult } from '../engine/index.js';
import { UsageError, positiveIntOf, valueOf } from './args.js';

export interface EngineCliOptions {
  /** The engine's program; undefined: stockfish on PATH, then /usr/games/stockfish. */
  command?: string;
  limit?: EngineLimit;
  engines?: number;
  multiPv?: number;
  fresh: boolean;
  hash?: number;
}

export const engineUsage = `  --engine-nodes N | --engine-depth D | --engine-ms T
                         the search of each position: N nodes, depth D, or T milliseconds
  --engines K            engine processes (default: all cores)
  --multipv M            lines per position (the columns describe the best)
  --hash MB              the engines' Hash option
  --fresh                deterministic: each search after ucinewgame, Threads=1 (with
                         --engine-nodes or --engine-depth the answers repeat run to run)`;

/**
 * Takes the engine options out of `args` (the rest is returned for the command's own parser).
 * `engineFlag`: the command has `--engine [CMD]` (analyze); its value is optional (a following
 * word that is not an option and not an existing input is not taken: give CMD with a path or before
 * another option).
 */
export function takeEngineOptions(args: readonly string[], engineFlag: boolean): { engine: boolean; o: EngineCliOptions; rest: string[] } {
  const o: EngineCliOptions = { fresh: false };
  const rest: string[] = [];
  let engine = false;
  const limit = (l: EngineLimit): void => {
    if (o.limit) throw new UsageError('give one of --engine-nodes, --engine-depth, --engine-ms');
    o.limit = l;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (engineFlag && a === '--engine') {
      engine = true;
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('-') && /[/\\]|^stockfish/.test(next) && !/\.(pgn|epd|fen|txt|gz|zst)$/.test(next)) { o.command = next; i++; }
    } else if (a === '--engine-command' || (!engineFlag && a === '--engine')) { o.command = value(); engine = true; }
    else if (a === '--engine-nodes') limit({ nodes: positiveIntOf(a, value(), 2 ** 40) });
    else if (a === '--engine-depth') limit({ depth: positiveIntOf(a, value(), 245) });
    else if (a === '--engine-ms') limit({ movetime: positiveIntOf(a, value(), 2 ** 31 - 1) });
    else if (a === '--engines') o.engines = positiveIntOf(a, value(), 1024);
    else if (a === '--multipv') o.multiPv = positiveIntOf(a, value(), 256);
    else if (a === '--hash') o.hash = positiveIntOf(a, value(), 1 << 20);
    else if (a === '--fresh') o.fresh = true;
    else rest.push(a);
  }
  const usedEngineOption = o.limit !== undefined || o.engines !== undefined || o.multiPv !== undefined || o.fresh || o.hash !== undefined;
  if (engineFlag && !engine && usedEngineOption) throw new UsageError('the engine options need --engine');
  if ((engine || !engineFlag) && !o.limit) throw new UsageError('give the search: --engine-nodes N, --engine-depth D or --engine-ms T');
  if (o.limit && o.multiPv !== undefined) o.limit = { ...o.limit, multiPv: o.multiPv };
  return { engine, o, rest };
}

/** The pool the options ask for. */
export async function startPool(o: EngineCliOptions): Promise<EnginePool> {
  const { EnginePool } = await import('../engine/index.js');
  const options: Record<string, number> = {};
  if (o.hash !== undefined) options.Hash = o.hash;
  if (!o.fresh) options.Threads = 1;
  return EnginePool.start({ command: o.command, engines: o.engines, fresh: o.fresh, options });
}

/**
 * Items (records, games) with the positions each needs searched, to each item with its answers,
 * in input order; items are read as the pool needs more positions (backpressure).
 */
export async function* withAnswers<T>(pool: EnginePool, limit: EngineLimit, items: AsyncIterable<T>, positionsOf: (item: T) => Position[]): AsyncGenerator<{ item: T; answers: EngineResult[] }> {
  const waiting: { item: T; need: number; answers: EngineResult[] }[] = [];
  async function* positions(): AsyncGenerator<Position> {
    for await (const item of items) {
      const ps = positionsOf(item);
      waiting.push({ item, need: ps.length, answers: [] });
      yield* ps;
    }
  }
  const ready = function* (): Generator<{ item: T; answers: EngineResult[] }> {
    while (waiting.length && waiting[0]!.answers.length === waiting[0]!.need) {
      const w = waiting.shift()!;
      yield { item: w.item, answers: w.answers };
    }
  };
  for await (const answer of pool.analyseAll(positions(), limit)) {
    let k = 0; // the first item still missing answers: this answer is its next
    while (waiting[k]!.answers.length === waiting[k]!.need) k++;
    waiting[k]!.answers.push(answer);
    yield* ready();
  }
  yield* ready();
}
