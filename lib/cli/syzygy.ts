/**
 * `bitboard-patterns syzygy probe "<fen>" --tb <dir> [--tb <dir> ...] [--backend native|js] [--json]`
 */
import { createApi } from '../api/create-api.js';
import { jsBackend } from '../backends/js/index.js';
import type { Position } from '../core/types.js';
import { FenError } from '../core/position.js';
import { SyzygyError, SyzygyFileError, SyzygyTablebase } from '../tablebases/syzygy.js';
import { UsageError, backendOf, valueOf } from './args.js';

export const summary = 'Syzygy tablebases: WDL, DTZ and the best line of a position';

export const usage = `usage:
  bitboard-patterns syzygy probe "<fen>" --tb <dir> [--tb <dir> ...] [--backend native|js] [--json] [--max-plies N]
      Prints the WDL (from the side to move: win, cursed win, draw, blessed loss, loss), the DTZ
      (plies to the next capture, pawn move or mate) and the best line by the tables (UCI moves,
      until mate, a draw, or --max-plies, default 200). Exit code 3 when the tables cannot answer
      (castling rights, too many pieces, a table not found).`;

const WDL_WORDS: Record<string, string> = { '-2': 'loss', '-1': 'blessed loss', 0: 'draw', 1: 'cursed win', 2: 'win' };


interface Options { dirs: string[]; backend?: 'native' | 'js'; json: boolean; maxPlies: number; rest: string[] }

function parseOptions(args: string[]): Options {
  const o: Options = { dirs: [], json: false, maxPlies: 200, rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (a === '--tb' || a === '--syzygy') o.dirs.push(value());
    else if (a === '--json') o.json = true;
    else if (a === '--backend') {
      o.backend = backendOf(value());
    } else if (a === '--max-plies') {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 0 || v > 10000) throw new UsageError(`--max-plies must be an integer 0..10000, got ${JSON.stringify(args[i])}`);
      o.maxPlies = v;
    } else if (a.startsWith('-') && a.length > 1) throw new UsageError(`unknown option ${a}`);
    else o.rest.push(a);
  }
  return o;
}

/** The best line: best moves by the tables until mate, a draw (DTZ 0 after a zeroing move into a dead draw), or the limit. */
function bestLine(tb: SyzygyTablebase, start: Position, maxPlies: number): { moves: string[]; end: string } {
  const api = createApi(jsBackend);
  const moves: string[] = [];
  let pos = start;
  for (let ply = 0; ply < maxPlies; ply++) {
    let root;
    try {
      root = tb.probeRoot(pos);
    } catch (e) {
      if (e instanceof SyzygyError) return { moves, end: `stopped: ${e.message}` };
      throw e;
    }
    if (!root.best) return { moves, end: api.isInCheck(pos) ? 'checkmate' : 'stalemate' };
    if (root.wdl === 0 && ply > 0) return { moves, end: 'draw' };
    moves.push(root.best);
    pos = api.makeMove(pos, root.best);
    if ((pos.colors[0] | pos.colors[1]) === pos.pieces[5]) return { moves, end: 'draw (bare kings)' };
  }
  return { moves, end: `stopped after ${maxPlies} plies` };
}

export async function run(args: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(args);
    const [command, fen, ...extra] = o.rest;
    if (command !== 'probe') throw new UsageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
    if (fen === undefined) throw new UsageError('probe needs a FEN');
    if (extra.length) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    if (!o.dirs.length) throw new UsageError('--tb <dir> is required');
    const api = createApi(jsBackend);
    let pos: Position;
    try {
      pos = api.parseFen(fen);
    } catch (e) {
      if (e instanceof FenError) { process.stderr.write(`bitboard-patterns syzygy: ${e.message}\n`); return 2; }
      throw e;
    }
    const tb = SyzygyTablebase.open(o.dirs, o.backend ? { backend: o.backend } : {});
    try {
      let wdl: number, dtz: number;
      try {
        wdl = tb.probeWdl(pos);
        dtz = tb.probeDtz(pos);
      } catch (e) {
        if (e instanceof SyzygyError) {
          if (o.json) process.stdout.write(`${JSON.stringify({ fen, error: e.reason, message: e.message })}\n`);
          else process.stderr.write(`bitboard-patterns syzygy: ${e.message}\n`);
          return 3;
        }
        throw e;
      }
      const line = bestLine(tb, pos, o.maxPlies);
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ fen, wdl, dtz, result: WDL_WORDS[String(wdl)], best: line.moves[0] ?? null, line: line.moves, end: line.end, backend: tb.backend })}\n`);
      } else {
        process.stdout.write([
          `fen:  ${fen}`,
          `wdl:  ${wdl} (${WDL_WORDS[String(wdl)]} for the side to move)`,
          `dtz:  ${dtz}`,
          `best: ${line.moves[0] ?? '(none)'}`,
          `line: ${line.moves.join(' ')}${line.moves.length ? ' ' : ''}(${line.end})`,
        ].join('\n') + '\n');
      }
      return 0;
    } finally {
      tb.close();
    }
  } catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`bitboard-patterns syzygy: ${e.message}\n${usage}\n`); return 2; }
    if (e instanceof SyzygyFileError) { process.stderr.write(`bitboard-patterns syzygy: damaged table: ${e.message}\n`); return 1; }
    throw e;
  }
}
