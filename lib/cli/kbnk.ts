/**
 * `bitboard-patterns kbnk generate --out kbnk.bin [--backend native|js] [--threads N]`
 * `bitboard-patterns kbnk probe "<fen>" [--table kbnk.bin] [--json]`
 */
import { createApi } from '../api/create-api.js';
import { jsBackend } from '../backends/js/index.js';
import { KbnkFileError, KbnkTablebase, type KbnkGenerateOptions, type KbnkProgress } from '../tablebases/kbnk.js';
import { FenError } from '../core/position.js';
import { UsageError, runCommand, tableOptions, type TableOptions } from './args.js';

export const summary = 'KBNK tablebase: generate a distance-to-mate table, probe a position';

export const usage = `usage:
  bitboard-patterns kbnk generate --out <file> [--backend native|js] [--threads N]
      Generates the KBNK distance-to-mate table (5 MB) and writes it to <file>; a progress bar on
      stderr when stderr is a terminal. Default backend: native when it loads, else js.
  bitboard-patterns kbnk probe "<fen>" [--table <file>] [--backend native|js] [--json]
      Prints the result for the side to move (win / loss / draw), the distance to mate in moves
      and plies, and the best move (UCI). Without --table the table is generated in memory first.`;



function parseOptions(args: string[]): TableOptions {
  return tableOptions(args, { json: false, rest: [] });
}

/** A one-line progress bar on stderr, redrawn in place; nothing when stderr is not a terminal. */
function progressBar(label: string): { onProgress?: (p: KbnkProgress) => void; finish(): void } {
  if (!process.stderr.isTTY) return { finish() {} };
  const width = 30;
  let drawn = false;
  return {
    onProgress({ done, total }) {
      const filled = Math.round((width * done) / Math.max(total, 1));
      const percent = Math.floor((100 * done) / Math.max(total, 1));
      process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}% step ${done}/${total}`);
      drawn = true;
    },
    finish() {
      if (drawn) process.stderr.write('\n');
    },
  };
}

async function generate(o: TableOptions, label: string): Promise<{ tb: KbnkTablebase; seconds: number }> {
  const bar = progressBar(label);
  const options: KbnkGenerateOptions = { onProgress: bar.onProgress };
  if (o.backend) options.backend = o.backend;
  if (o.threads) options.threads = o.threads;
  const t0 = performance.now();
  try {
    const tb = await KbnkTablebase.generate(options);
    return { tb, seconds: (performance.now() - t0) / 1000 };
  } finally {
    bar.finish();
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');

async function runGenerate(o: TableOptions): Promise<number> {
  if (!o.out) throw new UsageError('kbnk generate needs --out <file>');
  if (o.rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(o.rest[0])}`);
  const { tb, seconds } = await generate(o, 'generating');
  tb.save(o.out);
  const s = tb.stats();
  const w = s.strongToMove, b = s.weakToMove;
  process.stdout.write([
    `wrote ${o.out} (${fmt(tb.toBuffer().length)} bytes) in ${seconds.toFixed(2)} s`,
    `strong side to move: ${fmt(w.legal)} legal, ${fmt(w.wins)} wins, ${fmt(w.draws)} draws, longest mate ${(w.longestPlies + 1) >> 1} moves (${w.longestPlies} plies)`,
    `weak side to move:   ${fmt(b.legal)} legal, ${fmt(b.losses)} losses, ${fmt(b.draws)} draws, longest mate ${(b.longestPlies + 1) >> 1} moves (${b.longestPlies} plies)`,
  ].join('\n') + '\n');
  return 0;
}

async function runProbe(o: TableOptions): Promise<number> {
  if (o.rest.length !== 1) throw new UsageError('kbnk probe needs one FEN (in quotes)');
  if (o.threads !== undefined && o.table) throw new UsageError('--threads applies only when the table is generated');
  const pos = createApi(jsBackend).parseFen(o.rest[0]!);
  const tb = o.table ? KbnkTablebase.load(o.table) : (await generate(o, 'generating the table')).tb;
  const probe = tb.probe(pos);
  const best = tb.bestMove(pos);
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ ...probe, bestMove: best })}\n`);
    return 0;
  }
  const dtm = probe.dtm === null ? '-' : `mate in ${probe.dtm} (${probe.plies} plies)`;
  process.stdout.write([
    `result: ${probe.result} (for the side to move)`,
    `dtm: ${dtm}`,
    `best move: ${best ?? '(none: the side to move has no legal move)'}`,
  ].join('\n') + '\n');
  return 0;
}

export function run(args: string[]): Promise<number> {
  return runCommand('kbnk', usage, args, parseOptions, { generate: runGenerate, probe: runProbe }, [KbnkFileError, FenError, RangeError]);
}
