/**
 * `bitboard-patterns annotate FILE... (--engine-nodes N | --engine-depth D | --engine-ms T)
 * [--engines K] [--out FILE] [--force]`: every game written back with an engine evaluation after each
 * move (`[%eval 0.17]`, `[%eval #-3]`: the lichess form, from White's view) and the moves judged by
 * lichess's rule (lib/engine/advice.ts) marked `?!`, `?`, `??` (NAGs $6, $2, $4, written as the move's
 * suffix as lichess does; a NAG the move had before comes after the mark). Comments, clocks,
 * NAGs and tags are kept; a move that already carries an eval is left alone (no new eval, no mark)
 * unless --force. The games are read with the PGN reader and written with writePgn (lib/games).
 */
import { createApi } from '../api/create-api.js';
import { jsBackend } from '../backends/js/index.js';
import type { Position } from '../core/types.js';
import { PgnError, readPgn, type PgnGame } from '../games/pgn.js';
import { writePgnBytes } from '../games/pgn-write.js';
import { isChess960Variant } from '../games/pgn-tags.js';
import type { PgnEval } from '../games/pgn-annotations.js';
import { JUDGEMENT_NAG, judgeMove } from '../engine/advice.js';
import type { EngineResult } from '../engine/index.js';
import { UsageError, valueOf } from './args.js';
import { engineUsage, startPool, takeEngineOptions, withAnswers, type EngineCliOptions } from './engine-options.js';
import { sinkOf } from './pgn.js';

export const summary = 'PGN files: every game with an engine eval after each move and ?!/?/?? marks';

export const usage = `usage: bitboard-patterns annotate FILE... [options]
Writes every game of FILE... (.pgn, .pgn.gz, .pgn.zst, or - for stdin) again with [%eval] after each
move (pawns with two decimals, #N for a mate, from White's view) and the moves that lose winning
chances marked ?! (0.1), ? (0.2), ?? (0.3) as lichess's analysis does. Comments, clocks, NAGs and
tags are kept. The engine is Stockfish (on PATH, else /usr/games/stockfish) unless --engine CMD.
options:
${engineUsage}
  --engine CMD           the UCI engine to run
  --out FILE             write to FILE (zstd-compressed when it ends in .zst) instead of stdout
  --force                search and judge again the moves that already carry an eval
  --progress / --no-progress   progress on stderr (default: only when stderr is a terminal)
Exit code 3 when a game could not be read or a position not analysed (reported on stderr; a game
that cannot be read is left out), 2 for bad usage, 1 when the engine cannot start.`;

export const writesFd1 = true;

interface Options { files: string[]; out?: string; force: boolean; progress: boolean; engine: EngineCliOptions }

function parseOptions(args: string[]): Options {
  const { o: engine, rest } = takeEngineOptions(args, false);
  const o: Options = { files: [], force: false, progress: process.stderr.isTTY === true, engine };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--out' || a === '-o') o.out = valueOf(rest, a, ++i);
    else if (a === '--force') o.force = true;
    else if (a === '--progress') o.progress = true;
    else if (a === '--no-progress') o.progress = false;
    else if (a.startsWith('-') && a.length > 1) throw new UsageError(`unknown option ${a}`);
    else o.files.push(a);
  }
  if (!o.files.length) throw new UsageError('no input file');
  return o;
}

const api = createApi(jsBackend);

/** A game read, the positions to search (with their plies: 0 the start), and why it cannot be annotated. */
interface Work { game: PgnGame; plies: number[]; positions: Position[]; startSide: 0 | 1; error?: Error }

/** A move annotated anew: one whose eval is missing, or every move with --force. */
function planOf(game: PgnGame, force: boolean): Work {
  if (game.error) return { game, plies: [], positions: [], startSide: 0, error: game.error };
  const n = game.moves.length;
  const fresh = (ply: number): boolean => force || game.evals?.[ply - 1] == null;
  try {
    let pos = api.parseFen(game.startFen, { chess960: isChess960Variant(game.tags.Variant) });
    const all: Position[] = [pos];
    for (const m of game.moves) {
      pos = m === '0000' ? pos : api.makeMove(pos, m);
      all.push(pos);
    }
    // The position after each move annotated anew, and the one before it (to judge the move).
    const plies: number[] = [];
    for (let ply = 0; ply <= n; ply++) {
      const own = ply > 0 && fresh(ply);
      const before = ply < n && fresh(ply + 1) && (ply === 0 || force || game.evals?.[ply - 1] == null);
      if (own || before) plies.push(ply);
    }
    if (game.moves.includes('0000')) return { game, plies: [], positions: [], startSide: 0, error: new Error(`game ${game.game}: null moves cannot be searched`) };
    return { game, plies, positions: plies.map((p) => all[p]!), startSide: all[0]!.sideToMove };
  } catch (e) {
    return { game, plies: [], positions: [], startSide: 0, error: e as Error };
  }
}

/** The game with the new evals and marks. */
function annotated(w: Work, answers: EngineResult[], force: boolean): { game: PgnGame; failed: Error[] } {
  const g = w.game;
  const n = g.moves.length;
  const evals: (PgnEval | null)[] = Array.from({ length: n }, (_, i) => g.evals?.[i] ?? null);
  const searched = new Map<number, PgnEval | null>();
  const failed: Error[] = [];
  w.plies.forEach((ply, k) => {
    const a = answers[k]!;
    if ('error' in a) {
      failed.push(a.error);
      searched.set(ply, null);
    } else {
      searched.set(ply, a.score);
    }
  });
  const fresh = (ply: number): boolean => force || g.evals?.[ply - 1] == null;
  /** The eval of the position after `ply` plies: searched, else the one the game carries. */
  const evalAt = (ply: number): PgnEval | null => (searched.has(ply) ? searched.get(ply)! : ply > 0 ? g.evals?.[ply - 1] ?? null : null);
  const kept = g.nags ?? [];
  const marks: { ply: number; nag: number }[] = [];
  for (let ply = 1; ply <= n; ply++) {
    if (!fresh(ply)) continue;
    const after = evalAt(ply);
    // A checkmated position has no score to write (the engine says mate 0).
    evals[ply - 1] = after && 'mate' in after && after.mate === 0 ? null : after;
    const before = evalAt(ply - 1);
    if (!before || !after) continue;
    const judgement = judgeMove(before, after, ((w.startSide + ply - 1) % 2) as 0 | 1);
    // Move assessments are NAGs 1..6 (PGN standard 10); a move that has one keeps it.
    // The mark goes first among its move's NAGs, so it is written as the move's suffix (`?!`, `?`, `??`).
    if (judgement && !kept.some((x) => x.ply === ply && x.nag >= 1 && x.nag <= 6)) marks.push({ ply, nag: JUDGEMENT_NAG[judgement] });
  }
  // A stable sort by ply: each mark before the NAGs its move had.
  const nags = [...marks, ...kept].sort((a, b) => a.ply - b.ply);
  return { game: { ...g, evals, nags }, failed };
}

async function annotate(o: Options): Promise<number> {
  const { inputChunks } = await import('./pgn-input.js');
  const pool = await startPool(o.engine);
  const sink = sinkOf(o.out);
  let bad = 0;
  let games = 0;
  let positions = 0;
  const started = Date.now();
  const progress = o.progress ? setInterval(() => {
    const s = pool.stats;
    process.stderr.write(`\r${games} games, ${positions} positions, ${Math.round(positions / Math.max(1e-3, (Date.now() - started) / 1000))}/s, cache hits ${(100 * s.hitRate).toFixed(1)}%   `);
  }, 250) : undefined;
  progress?.unref();
  async function* works(): AsyncGenerator<Work> {
    for (const file of o.files) {
      for await (const game of readPgn(inputChunks(file, { bytesIn: 0 }), { comments: true, annotations: true })) yield planOf(game, o.force);
    }
  }
  try {
    for await (const { item: w, answers } of withAnswers(pool, o.engine.limit!, works(), (w) => w.positions)) {
      if (w.error) {
        bad++;
        process.stderr.write(`bitboard-patterns annotate: ${w.error.message}\n`);
        continue;
      }
      const { game, failed } = annotated(w, answers, o.force);
      for (const e of failed) process.stderr.write(`bitboard-patterns annotate: game ${game.game}: a position could not be analysed: ${e.message}\n`);
      if (failed.length) bad++;
      await sink.write(writePgnBytes('annotate', game, { suffixes: true }));
      games++;
      positions += w.positions.length;
    }
  } finally {
    if (progress) clearInterval(progress);
    await pool.close();
    await sink.close();
  }
  if (o.progress) process.stderr.write(`\r${games} games, ${positions} positions, cache hits ${(100 * pool.stats.hitRate).toFixed(1)}%\n`);
  return bad ? 3 : 0;
}

export async function run(args: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(args);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`bitboard-patterns annotate: ${e.message}\n${usage}\n`);
      return 2;
    }
    throw e;
  }
  try {
    return await annotate(o);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EPIPE') return 141;
    if (err.name === 'EngineError' || e instanceof PgnError || err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'EISDIR' || /zstd/.test(err.message)) {
      process.stderr.write(`bitboard-patterns annotate: ${err.message}\n`);
      return 1;
    }
    throw e;
  }
}
