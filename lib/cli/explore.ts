/**
 * `bitboard-patterns explore FILE... [--max-ply N] [--min-games K] [--format parquet|ndjson]
 * --out TREE [--book BOOK.bin]` and `bitboard-patterns explore merge TREE... --out TREE`: the opening
 * tree of PGN files (lib/games/explorer.ts), written as Parquet or NDJSON (lib/games/explorer-files.ts)
 * and as a Polyglot book on request.
 */
import { writeFileSync } from 'node:fs';
import { exploreGames, OpeningTree } from '../games/explorer.js';
import { readTree, writeTree, TreeFileError } from '../games/explorer-files.js';
import { PgnError } from '../games/pgn.js';
import { UsageError, backendOf, valueOf } from './args.js';

export const summary = 'opening tree: games and results per Polyglot key and move, Parquet / NDJSON / Polyglot book';

export const usage = `usage:
  bitboard-patterns explore FILE... --out TREE [options]
      Counts, for every position of the first plies of every game of FILE... (.pgn, .pgn.gz,
      .pgn.zst, or - for stdin), keyed by its Polyglot key, every move played: columns key
      (UINT64), move (UCI, castling as e1g1), castling, games, white, draws, black (from the Result
      tag; a game with * or no Result counts in games only). A game the reader refuses is reported
      on stderr and counts nothing; the exit code is then 3. Chess960 games are kept apart: they
      count only with --chess960, which counts nothing else.
  bitboard-patterns explore merge TREE... --out TREE [options]
      Sums trees written by explore (Parquet or NDJSON parts, e.g. of files cut at game boundaries).
  Options:
      --max-ply N               the moves of plies 0..N-1 (default 20)
      --min-games K             only rows played at least K times (default 1)
      --format parquet|ndjson   the tree's format (default parquet; ndjson when TREE ends in .ndjson)
      --out TREE                the tree file
      --book BOOK.bin           also a Polyglot book (weight = games, scaled into 16 bits if needed)
      --chess960                a tree of the Chess960 games (Variant tag, or a Shredder-FEN FEN
                                tag): castling as the king taking its own rook; standard games are
                                passed over (and Chess960 games without it), their number on stderr.
                                With merge: the parts are Chess960 trees.
      --backend native|js       the PGN reader and the keys (default: native when it loads)`;

interface ExploreOptions {
  merge: boolean;
  files: string[];
  maxPly: number;
  minGames: number;
  format?: 'parquet' | 'ndjson';
  out?: string;
  book?: string;
  backend?: 'native' | 'js';
  chess960: boolean;
}

function integerOf(flag: string, text: string, max: number): number {
  if (!/^\d{1,10}$/.test(text) || Number(text) > max) throw new UsageError(`${flag} must be an integer 0..${max}, got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseOptions(args: string[]): ExploreOptions {
  const o: ExploreOptions = { merge: args[0] === 'merge', files: [], maxPly: 20, minGames: 1, chess960: false };
  for (let i = o.merge ? 1 : 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (a === '--max-ply') o.maxPly = integerOf(a, value(), 10000);
    else if (a === '--min-games') o.minGames = integerOf(a, value(), 2 ** 32);
    else if (a === '--format') {
      const f = value();
      if (f !== 'parquet' && f !== 'ndjson') throw new UsageError(`--format must be parquet or ndjson, got ${JSON.stringify(f)}`);
      o.format = f;
    } else if (a === '--out' || a === '-o') o.out = value();
    else if (a === '--book') o.book = value();
    else if (a === '--backend') o.backend = backendOf(value());
    else if (a === '--chess960') o.chess960 = true;
    else if (a.startsWith('-') && a.length > 1) throw new UsageError(`unknown option ${a}`);
    else o.files.push(a);
  }
  if (o.files.length === 0) throw new UsageError(o.merge ? 'no tree to merge' : 'no input file');
  if (o.out === undefined && o.book === undefined) throw new UsageError('--out TREE (or --book BOOK.bin) is needed');
  return o;
}

async function explore(o: ExploreOptions): Promise<number> {
  let tree = new OpeningTree({ chess960: o.chess960 });
  let bad = 0;
  let skipped = 0;
  if (o.merge) {
    for (const file of o.files) tree = await readTree(file, tree);
  } else {
    const { inputChunks } = await import('./pgn-input.js');
    for (const file of o.files) {
      const r = await exploreGames(inputChunks(file, { bytesIn: 0 }), { maxPly: o.maxPly, backend: o.backend, chess960: o.chess960 }, tree, (g) => {
        process.stderr.write(`bitboard-patterns explore: ${file}: ${g.error!.message}\n`);
      });
      bad += r.bad;
      skipped += r.skipped;
    }
  }
  if (o.out !== undefined) {
    const format = o.format ?? (o.out.endsWith('.ndjson') || o.out.endsWith('.jsonl') ? 'ndjson' : 'parquet');
    // zstd pages when the addon (libzstd) loads, whatever backend read the games; else Snappy.
    const zstd = format === 'parquet' ? (await import('./pgn-input.js')).parquetZstd() : undefined;
    await writeTree(o.out, tree.columns(o.minGames), format, { zstd });
  }
  if (o.book !== undefined) writeFileSync(o.book, tree.polyglotBook(o.minGames));
  if (skipped) {
    process.stderr.write(`bitboard-patterns explore: ${skipped} ${o.chess960 ? 'standard' : 'Chess960'} game${skipped === 1 ? '' : 's'} not counted `
      + `(${o.chess960 ? 'the tree is of Chess960 games' : 'Chess960 games make a tree of their own: --chess960'})\n`);
  }
  if (bad) process.stderr.write(`bitboard-patterns explore: ${bad} game${bad === 1 ? '' : 's'} could not be read\n`);
  return bad ? 3 : 0;
}

export async function run(args: string[]): Promise<number> {
  try {
    return await explore(parseOptions(args));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`bitboard-patterns explore: ${e.message}\n${usage}\n`);
      return 2;
    }
    const err = e as NodeJS.ErrnoException;
    if (e instanceof TreeFileError || e instanceof PgnError || e instanceof RangeError ||
        err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'EISDIR') {
      process.stderr.write(`bitboard-patterns explore: ${err.message}\n`);
      return 1;
    }
    throw e;
  }
}
