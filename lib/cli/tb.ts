/**
 * `bitboard-patterns tb generate <material> [--metric dtm|dtz] [--out DIR] [--backend native|js] [--threads N]`
 * `bitboard-patterns tb probe "<fen>" --table FILE [--sub FILE ...] [--json]`
 * `bitboard-patterns tb stats FILE [--json]`
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createApi } from '../api/create-api.js';
import { jsBackend } from '../backends/js/index.js';
import { FenError } from '../core/position.js';
import { Tablebase, TablebaseFileError, tablebaseMaterial, type TablebaseGenerateOptions, type TablebaseProgress, type TablebaseSideStats } from '../tablebases/tablebase.js';
import { UsageError, runCommand, tableOptions, type TableOptions } from './args.js';

export const summary = 'endgame tablebases (2..5 pieces, DTM or DTZ): generate, probe, stats';

export const usage = `usage:
  bitboard-patterns tb generate <material> [--metric dtm|dtz] [--out DIR] [--with-sub-endings]
                    [--backend native|js] [--threads N]
      Generates the distance-to-mate (dtm, default) or Syzygy distance-to-zeroing (dtz) table of
      <material> (e.g. KQvKR, KPvK; sub-endings first) and writes DIR/<material>.bbptb (DTZ:
      DIR/<material>.dtz.bbptb; with --with-sub-endings every sub-ending's table too); a progress bar
      on stderr when it is a terminal. Prints the counts per side to move.
  bitboard-patterns tb probe "<fen>" --table FILE [--sub FILE ...] [--json]
      WDL, DTM (moves, + the side to move mates, - it is mated) or DTZ (plies to the next capture,
      pawn move or mate, signed alike) and the best move. Moves into a sub-ending (captures,
      promotions) need its table of the same metric: --sub, or files next to FILE.
  bitboard-patterns tb stats FILE [--json]
      Legal positions, wins, draws, losses per side to move, counts per distance, the longest win.`;


interface Options extends TableOptions { subs: string[]; metric?: string; withSubs: boolean }

function parseOptions(args: string[]): Options {
  const o: Options = { json: false, withSubs: false, subs: [], rest: [] };
  return tableOptions(args, o, (a, value) => {
    if (a === '--sub') o.subs.push(value());
    else if (a === '--metric') o.metric = value();
    else if (a === '--with-sub-endings') o.withSubs = true;
    else return false;
    return true;
  });
}

function progressBar(): { onProgress?: (p: TablebaseProgress) => void; finish(): void } {
  if (!process.stderr.isTTY) return { finish() {} };
  const width = 30;
  let drawn = false;
  return {
    onProgress({ material, done, total }) {
      const filled = Math.min(width, Math.round((width * done) / Math.max(total, 1)));
      process.stderr.write(`\r\x1b[K${material.padEnd(8)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ply ${done}/${total}`);
      drawn = true;
    },
    finish() { if (drawn) process.stderr.write('\n'); },
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');
const sideLine = (label: string, s: TablebaseSideStats, unit = 'moves') =>
  `${label}: ${fmt(s.legal)} legal, ${fmt(s.wins)} wins, ${fmt(s.draws)} draws, ${fmt(s.losses)} losses, longest win ${s.longestWin} ${unit}` +
  (s.cursedWins || s.blessedLosses ? ` (${fmt(s.cursedWins)} cursed wins, ${fmt(s.blessedLosses)} blessed losses)` : '');

async function runGenerate(o: Options): Promise<number> {
  if (o.rest.length !== 1) throw new UsageError('tb generate needs one material, e.g. KQvKR');
  if (o.metric !== undefined && o.metric !== 'dtm' && o.metric !== 'dtz') throw new UsageError(`--metric must be dtm or dtz, got ${JSON.stringify(o.metric)}`);
  const m = tablebaseMaterial('tb generate', o.rest[0]!);
  const dir = o.out ?? '.';
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  const bar = progressBar();
  const options: TablebaseGenerateOptions = { metric: o.metric === 'dtz' ? 'dtz' : 'dtm', onProgress: bar.onProgress };
  if (o.backend) options.backend = o.backend;
  if (o.threads) options.threads = o.threads;
  const t0 = performance.now();
  let tb: Tablebase;
  try {
    tb = await Tablebase.generate(m.name, options);
  } finally {
    bar.finish();
  }
  const seconds = (performance.now() - t0) / 1000;
  const written: string[] = [];
  const save = (t: Tablebase) => { const f = join(dir, `${t.name}${t.metric === 'dtz' ? '.dtz' : ''}.bbptb`); t.save(f); written.push(f); };
  save(tb);
  if (o.withSubs) {
    const seen = new Set<string>([tb.name]);
    const walk = (t: Tablebase) => { for (const s of t.subTables().values()) if (!seen.has(s.name)) { seen.add(s.name); save(s); walk(s); } };
    walk(tb);
  }
  const s = tb.stats();
  process.stdout.write([
    `${tb.name}: generated in ${seconds.toFixed(2)} s (sub-endings included); wrote ${written.join(', ')}`,
    sideLine('white to move', s.whiteToMove, tb.metric === 'dtz' ? 'plies to zeroing' : 'moves'),
    sideLine('black to move', s.blackToMove, tb.metric === 'dtz' ? 'plies to zeroing' : 'moves'),
  ].join('\n') + '\n');
  return 0;
}

/** The table in FILE and the sub-ending tables (from --sub, or every .bbptb file next to it that loads). */
async function loadFamily(o: Options): Promise<Tablebase> {
  if (!o.table) throw new UsageError('tb probe needs --table FILE');
  const { readdirSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  let subFiles = o.subs;
  if (!subFiles.length) {
    const dir = dirname(o.table);
    subFiles = readdirSync(dir).filter((f) => f.endsWith('.bbptb')).map((f) => join(dir, f)).filter((f) => f !== o.table);
  }
  const metric = Tablebase.load(o.table).metric;
  const subs = subFiles.map((f) => Tablebase.load(f)).filter((t) => t.metric === metric);
  return Tablebase.load(o.table, subs);
}

async function runProbe(o: Options): Promise<number> {
  if (o.rest.length !== 1) throw new UsageError('tb probe needs one FEN (in quotes)');
  const pos = createApi(jsBackend).parseFen(o.rest[0]!);
  const tb = await loadFamily(o);
  const probe = tb.probe(pos);
  const best = tb.bestMove(pos);
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ ...probe, bestMove: best })}\n`);
    return 0;
  }
  let what: string, distance: string;
  if (probe.dtz !== undefined) {
    const d = Math.abs(probe.dtz);
    const kind = ['loss', 'blessed loss (a draw under the 50-move rule)', 'draw', 'cursed win (a draw under the 50-move rule)', 'win'][probe.wdl + 2]!;
    what = probe.wdl === 0 ? 'draw' : probe.dtz === 0 ? 'loss: checkmated' : `${kind}: zeroing in ${d} ${d === 1 ? 'ply' : 'plies'}`;
    distance = `dtz: ${probe.dtz}`;
  } else {
    const dtm = probe.dtm ?? 0;
    what = probe.wdl === 0 ? 'draw' : probe.wdl > 0 ? `win: mates in ${dtm}` : dtm === 0 ? 'loss: checkmated' : `loss: mated in ${-dtm}`;
    distance = `dtm: ${dtm}`;
  }
  process.stdout.write([`wdl: ${probe.wdl} (${what}, for the side to move)`, distance, `best move: ${best ?? '(none)'}`].join('\n') + '\n');
  return 0;
}

async function runStats(o: Options): Promise<number> {
  if (o.rest.length !== 1) throw new UsageError('tb stats needs one table file');
  const tb = Tablebase.load(o.rest[0]!);
  const s = tb.stats();
  const unit = tb.metric === 'dtz' ? 'plies to zeroing' : 'moves';
  if (o.json) {
    process.stdout.write(`${JSON.stringify(s)}\n`);
    return 0;
  }
  const lines = [s.material, sideLine('white to move', s.whiteToMove, unit), sideLine('black to move', s.blackToMove, unit), `${tb.metric}  wins(wtm)  losses(wtm)  wins(btm)  losses(btm)`];
  const rows = Math.max(s.whiteToMove.winsByDtm.length, s.whiteToMove.lossesByDtm.length, s.blackToMove.winsByDtm.length, s.blackToMove.lossesByDtm.length);
  for (let d = 0; d < rows; d++) {
    const c = [s.whiteToMove.winsByDtm[d], s.whiteToMove.lossesByDtm[d], s.blackToMove.winsByDtm[d], s.blackToMove.lossesByDtm[d]].map((x) => fmt(x ?? 0).padStart(11));
    if (c.some((x) => x.trim() !== '0')) lines.push(`${String(d).padStart(3)} ${c.join(' ')}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export function run(args: string[]): Promise<number> {
  return runCommand('tb', usage, args, parseOptions, { generate: runGenerate, probe: runProbe, stats: runStats },
    [TablebaseFileError, FenError, RangeError, TypeError]);
}
