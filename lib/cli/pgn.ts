/**
 * `bitboard-patterns pgn filter FILE... [--min-elo N] [--max-elo N] [--time-control TC]
 * [--result R] [--termination T] [--eco RANGE] [--opening NAME] [--dedupe] [--out FILE(.pgn|.pgn.zst)]
 * [--backend native|js]`: the games of the files (plain, gzip or zstd, found by their bytes; '-' for
 * stdin) that pass the tag and opening filters (lib/games/pgn-filter.ts), each written as its own
 * text (lib/games/pgn-copy.ts), or with --export in the PGN export format (lib/games/pgn-write.ts,
 * variations kept: the games are read as trees, lib/games/pgn-tree.ts). A
 * bad game is reported on stderr and left out; the exit code is then 3.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { PgnError, readPgnPositions, recordsOf } from '../games/pgn.js';
import { PgnCopier } from '../games/pgn-copy.js';
import { writePgnBytes } from '../games/pgn-write.js';
import { finalPositionKey, gameFilter, type GameFilter } from '../games/pgn-filter.js';
import { UsageError, backendOf, runCommand, valueOf } from './args.js';
import { writeAllSync } from './output.js';

export const summary = 'PGN files: filter games by tags and final position, write PGN';

export const usage = `usage:
  bitboard-patterns pgn filter FILE... [options]
      Writes the games of FILE... (.pgn, .pgn.gz, .pgn.zst, or - for stdin) that pass every filter
      given, each as its own text (comments, NAGs, [%clk], [%eval] and variations kept).
      --min-elo N / --max-elo N   both WhiteElo and BlackElo at least / at most N
      --time-control TC           the TimeControl tag is TC (repeat or comma-separate for several)
      --result R                  the Result tag is R: 1-0, 0-1, 1/2-1/2 or * (repeatable)
      --termination T             the Termination tag is T, any case (repeatable)
      --eco RANGE                 the game's opening (lichess chess-openings names, by position) has
                                  an ECO code in RANGE: B90-B99, or one code like C42 (repeatable)
      --opening NAME              the game's opening name starts with NAME, any case, e.g.
                                  "Sicilian Defense" (repeatable)
      --dedupe                    only the first game ending in each position (FEN's first four fields)
      --export                    write each game again in the PGN export format (canonical SAN, 80
                                  columns; variations, comments, NAGs, clocks, evals, arrows kept);
                                  by default a game is written as its own text, normalised only
                                  where other readers need it
      --out FILE                  write to FILE (zstd-compressed when it ends in .zst) instead of stdout
      --backend native|js         the PGN reader (default: native when it loads)
  Exit code 3 when a game could not be read (reported on stderr, left out), 2 for bad usage.`;

interface FilterOptions extends GameFilter {
  files: string[];
  dedupe: boolean;
  export?: boolean;
  out?: string;
  backend?: 'native' | 'js';
}

function integerOf(flag: string, text: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new UsageError(`${flag} must be an integer 0..99999, got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseOptions(args: string[]): FilterOptions {
  const o: FilterOptions = { files: [], dedupe: false };
  const list = (a: readonly string[] | undefined, v: string): string[] => [...(a ?? []), ...v.split(',').map((s) => s.trim()).filter((s) => s !== '')];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (a === '--min-elo') o.minElo = integerOf(a, value());
    else if (a === '--max-elo') o.maxElo = integerOf(a, value());
    else if (a === '--time-control') o.timeControls = list(o.timeControls, value());
    else if (a === '--result') {
      const r = value();
      if (!['1-0', '0-1', '1/2-1/2', '*'].includes(r)) throw new UsageError(`--result must be 1-0, 0-1, 1/2-1/2 or *, got ${JSON.stringify(r)}`);
      o.results = [...(o.results ?? []), r];
    } else if (a === '--termination') o.terminations = [...(o.terminations ?? []), value()];
    else if (a === '--eco') {
      const v = value();
      if (!/^[A-Ea-e]\d\d(?:\s*-\s*[A-Ea-e]\d\d)?$/.test(v.trim())) throw new UsageError(`--eco must be a code like C42 or a range like B90-B99, got ${JSON.stringify(v)}`);
      const [lo, hi = lo] = v.toUpperCase().split('-').map((x) => x.trim());
      if (lo! > hi!) throw new UsageError(`--eco: the range ${JSON.stringify(v)} is empty (${lo} comes after ${hi})`);
      o.ecos = [...(o.ecos ?? []), v.trim()];
    } else if (a === '--opening') o.openings = [...(o.openings ?? []), value()];
    else if (a === '--dedupe') o.dedupe = true;
    else if (a === '--export') o.export = true;
    else if (a === '--out' || a === '-o') o.out = value();
    else if (a === '--backend') o.backend = backendOf(value());
    else if (a.startsWith('-') && a.length > 1) throw new UsageError(`unknown option ${a}`);
    else o.files.push(a);
  }
  if (o.files.length === 0) throw new UsageError('no input file');
  return o;
}

/** Where the PGN goes: stdout (fd 1), a file, or a zstd process writing a file. */
export interface Sink { write(bytes: Uint8Array): Promise<void>; close(): Promise<void> }

export function sinkOf(out: string | undefined): Sink {
  if (out === undefined) return { write: async (b) => writeAllSync(1, b), close: async () => {} };
  if (!out.endsWith('.zst')) {
    const fd = openSync(out, 'w');
    return { write: async (b) => writeAllSync(fd, b), close: async () => closeSync(fd) };
  }
  // zstd compression by the zstd command line tool (Node has no zstd encoder before 22.15).
  const child = spawn('zstd', ['-q', '-f', '-3', '-o', out], { stdio: ['pipe', 'ignore', 'pipe'] });
  let failure: Error | undefined;
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const done = new Promise<void>((resolve) => {
    child.on('error', (e) => { failure = new Error(`cannot run zstd to write ${out}: ${e.message}`); resolve(); });
    child.on('close', (code) => { if (code !== 0 && !failure) failure = new Error(`zstd failed writing ${out}: ${stderr.trim()}`); resolve(); });
  });
  child.stdin.on('error', () => {});
  return {
    async write(b) {
      if (failure) throw failure;
      if (!child.stdin.write(b)) await Promise.race([new Promise((r) => child.stdin.once('drain', r)), done]);
      if (failure) throw failure;
    },
    async close() {
      child.stdin.end();
      await done;
      if (failure) throw failure;
    },
  };
}

/** The kept games' PGN bytes and the unreadable games of one chunk of input. */
type Select<C> = (chunk: C) => Promise<{ pgn: Uint8Array | null; errors: Error[] }> | { pgn: Uint8Array | null; errors: Error[] };

/**
 * Every input file's chunks (`chunks`) through `select` into the output; unreadable games are
 * reported on stderr and left out (exit code 3).
 */
async function overFiles<C>(o: FilterOptions, chunks: (input: AsyncIterable<Uint8Array>) => AsyncIterable<C>, select: Select<C>): Promise<number> {
  const sink = sinkOf(o.out);
  const { inputChunks } = await import('./pgn-input.js');
  let bad = 0;
  try {
    for (const file of o.files) {
      for await (const chunk of chunks(inputChunks(file, { bytesIn: 0 }))) {
        const { pgn, errors } = await select(chunk);
        for (const e of errors) process.stderr.write(`bitboard-patterns pgn: ${file}: ${e.message}\n`);
        bad += errors.length;
        if (pgn?.length) await sink.write(pgn);
      }
    }
  } finally {
    await sink.close();
  }
  if (bad) process.stderr.write(`bitboard-patterns pgn: ${bad} game${bad === 1 ? '' : 's'} could not be read\n`);
  return bad ? 3 : 0;
}

async function filter(o: FilterOptions): Promise<number> {
  if (!o.export) return copyFilter(o);
  const keep = gameFilter(o);
  const seen = new Set<string>();
  const chunks = (input: AsyncIterable<Uint8Array>) => readPgnPositions(input, {
    backend: o.backend, games: true, comments: true, annotations: true, variations: true });
  return overFiles(o, chunks, (chunk) => {
    const words = chunk.batch.words;
    // Each game's final position: its last main-line node (nodes come main line first, in ply order).
    const at = new Map<number, number>();
    chunk.game.forEach((g, k) => { if (chunk.mainLine![k]) at.set(g, k); });
    const out = [];
    const errors: Error[] = [];
    for (const g of chunk.games) {
      if (g.error) {
        errors.push(g.error);
        continue;
      }
      if (!keep(g)) continue;
      if (o.dedupe) {
        const key = finalPositionKey(words, at.get(g.game)! * 10);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push(g);
    }
    return { pgn: out.length ? writePgnBytes('pgn filter', out) : null, errors };
  });
}

/** The default: each kept game's own text (lib/games/pgn-copy.ts), from the reader's records. */
async function copyFilter(o: FilterOptions): Promise<number> {
  const copier = new PgnCopier(o);  // one for all the files: --dedupe spans them
  const chunks = (input: AsyncIterable<Uint8Array>) => recordsOf('pgn filter', input, copier.flags, { mode: 'all', every: 1, fromPly: 0 }, o.backend);
  return overFiles(o, chunks, (chunk) => copier.select(chunk));
}

export async function run(args: string[]): Promise<number> {
  try {
    return await runCommand('pgn', usage, args, parseOptions, { filter }, [PgnError, RangeError]);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EPIPE') return 141;
    if (err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'EISDIR' || /zstd/.test(err.message)) {
      process.stderr.write(`bitboard-patterns pgn: ${err.message}\n`);
      return 1;
    }
    throw e;
  }
}

export const writesFd1 = true;
