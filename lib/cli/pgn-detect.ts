/**
 * Whether the analyze command's input is PGN (`--input pgn`, or a file whose bytes say so), and the
 * PGN part of its usage text: what the main thread needs before it loads the PGN reader
 * (lib/cli/pgn-input.ts) or the FEN / EPD line pipeline.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const VALUE_OPTIONS = new Set(['--first-game', '--features', '--format', '--backend', '--threads', '--input', '--per', '--tags', '--every', '--from-ply', '--select', '--syzygy', '--out', '--row-group']);

export const pgnUsage = `PGN input (--input pgn, or a .pgn / .pgn.gz / .pgn.zst file recognised by its bytes):
  --per position|game    one record per position (default) or per game
                         (per game: with "outcome" and "termination", the rules' end of the game)
  --tags A,B             tags copied into per-game records (default Event,White,Black,Result)
  --select all|final     every position (default) or each game's final one
  --every N              every Nth ply;  --from-ply K   from ply K on
  --first-game N         number the games from N (a part of a file split at game boundaries)
  --format csv and --syzygy DIR (per position) work as on FEN input.
  --format parquet [--out FILE]  the same columns as CSV, typed (lib/cli/analyze-parquet.ts: square
                         sets UINT64, counts UINT8, flags BOOLEAN), written to FILE or stdout in row
                         groups as the games are read; zstd pages with the addon, else Snappy.
  --row-group N          Parquet: rows per row group (default 65536)
  --features clock,eval  (per position, with the others) the [%clk] in seconds and the [%eval] of
                         the move that led to the position: "clock", "eval_cp", "eval_mate"
                         (null / empty where absent; not part of 'all').
  --variations           (per position) a record for the position after every node of each game's
                         tree, side lines too, with "node" (its id: 0 the start, then preorder),
                         "parent" (null at the start) and "main_line"; not with --select/--every
  --features opening     (per position, with the others) "eco" and "opening": the game's opening
                         so far, the last named position of the lichess data set along its moves
                         (null / empty while none is).
  Bad games become {"game","line","column","error",...} records in their place.`;

function fileArgument(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) { i++; continue; }
    if (!a.startsWith('-') || a === '-') return a;
  }
  return undefined;
}

/** True when the analyze arguments ask for PGN input (explicitly, or a file whose bytes say so). */
export async function isPgnInput(args: string[]): Promise<boolean> {
  const at = args.indexOf('--input');
  if (at >= 0) return args[at + 1] === 'pgn';
  const file = fileArgument(args);
  if (file === undefined || file === '-') return false;
  let head: Buffer;
  try {
    // Read at once (a few kilobytes): no event-loop turns at start-up.
    const fd = openSync(file, 'r');
    try {
      head = Buffer.alloc(4096);
      head = head.subarray(0, readSync(fd, head, 0, head.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false; // the FEN path reports the unreadable file
  }
  if (ZSTD_MAGIC.every((b, i) => head[i] === b)) return true;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    // zlib is loaded only for gzip input.
    const { gunzipSync } = await import('node:zlib');
    try { head = gunzipSync(head, { finishFlush: 2 /* Z_SYNC_FLUSH: a prefix is enough */ }); } catch { return false; }
  }
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  for (;;) {
    while (i < head.length && (head[i] === 32 || (head[i]! >= 9 && head[i]! <= 13))) i++;
    if (head[i] !== 0x25 && head[i] !== 0x3b) break; // '%' escape lines and ';' comment lines
    while (i < head.length && head[i] !== 10) i++;
  }
  return head[i] === 0x5b; // '['
}
