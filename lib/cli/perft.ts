/**
 * `bitboard-patterns perft "<fen>" <depth> [--stats] [--divide] [--threads N] [--backend native|wasm|js]`
 *
 * Counts the leaves of the legal move tree and prints them with the speed. --divide prints the
 * count below each legal move first (sorted by UCI), the way engine authors compare two
 * generators move by move; --stats adds the chess programming wiki's columns.
 */
import type { Backend } from '../backends/contract.js';
import { loadNative } from '../backends/native.js';
import { chooseBackend } from '../backends/choose.js';
import { defaultPerftThreads, MAX_PERFT_THREADS, perftCall, perftStatsCall } from '../moves/perft.js';
import { FenError, STARTING_FEN, parseFenCall } from '../core/position.js';
import type { Subcommand } from './subcommand.js';
import { UsageError } from './args.js';
import { nowMs, writeAllSync } from './output.js';

export const summary = 'perft "<fen>" <depth> [--stats] [--divide] [--threads N] [--backend native|wasm|js]: count the legal move tree';

export const usage = `usage: bitboard-patterns perft "<fen>" <depth> [--stats] [--divide] [--threads N] [--backend native|wasm|js]

Counts the leaf nodes of the legal move tree <depth> plies deep (bulk counting at the last ply)
and prints them with nodes per second. <fen> may be "startpos".
  --divide          first the count below each legal move ("e2e4: 405385"), sorted by move
  --stats           also the chess programming wiki's columns over the leaf moves: captures,
                    en passant, castles, promotions, checks, discovery checks, double checks,
                    checkmates (discovery checks exclude double checks)
  --threads <n>     native threads the tree is split over, 1..256 (default: all cores, ${defaultPerftThreads()}
                    here); the count is the same for any value; the js backend counts on one
  --backend <name>  native, wasm or js (default: the package's choice; BITBOARD_PATTERNS_BACKEND)
Exit codes: 0 done, 2 bad arguments (FEN, depth, option).

example:
  $ bitboard-patterns perft startpos 5
  perft(5) = 4865609 nodes in 0.045 s (108.1 M nodes/s, native backend, 2 threads)`;


// The backends and the API are loaded on use: the command counts with the native addon alone, so its
// start-up stays a small part of a short count.
const jsBackend = async (): Promise<Backend> => (await import('../backends/js/index.js')).jsBackend;

async function backendNamed(name: string | undefined): Promise<Backend> {
  if (name !== undefined && name !== 'native' && name !== 'wasm' && name !== 'js') {
    throw new UsageError(`--backend must be native, wasm or js, got ${JSON.stringify(name)}`);
  }
  const chosen = chooseBackend(name).name;
  if (chosen === 'wasm') return (await import('../backends/wasm/load.js')).loadWasm();
  return chosen === 'native' ? loadNative() : jsBackend();
}

const rate = (nodes: number, seconds: number): string =>
  seconds > 0 ? `${(nodes / seconds / 1e6).toFixed(1)} M nodes/s` : 'too fast to time';

export async function run(args: string[]): Promise<number> {
  const out = (line: string): void => {
    try {
      writeAllSync(1, Buffer.from(`${line}\n`));
    } catch (e) {
      // `perft ... --divide | head`: a closed pipe ends the listing quietly.
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
      throw e;
    }
  };
  try {
    const positional: string[] = [];
    let stats = false;
    let divide = false;
    let backendName: string | undefined;
    let threadsText: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--stats') stats = true;
      else if (a === '--divide') divide = true;
      else if (a === '--backend') {
        backendName = args[++i];
        if (backendName === undefined) throw new UsageError('--backend needs a value: native or js');
      } else if (a.startsWith('--backend=')) backendName = a.slice('--backend='.length);
      else if (a === '--threads') {
        threadsText = args[++i];
        if (threadsText === undefined) throw new UsageError(`--threads needs a value: an integer 1..${MAX_PERFT_THREADS}`);
      } else if (a.startsWith('--threads=')) threadsText = a.slice('--threads='.length);
      else if (a === '--help' || a === '-h') { out(usage); return 0; }
      else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
      else positional.push(a);
    }
    if (positional.length !== 2) throw new UsageError(`expected a FEN and a depth, got ${positional.length} argument(s)`);
    const [fenText, depthText] = positional as [string, string];
    if (!/^\d{1,2}$/.test(depthText)) throw new UsageError(`depth must be an integer 0..20, got ${JSON.stringify(depthText)}`);
    const depth = Number(depthText);
    if (depth > 20) throw new UsageError(`depth must be an integer 0..20, got ${depth}`);
    if (divide && depth < 1) throw new UsageError('--divide needs depth 1 or more');
    let threads = defaultPerftThreads();
    if (threadsText !== undefined) {
      threads = /^\d{1,3}$/.test(threadsText) ? Number(threadsText) : 0;
      if (threads < 1 || threads > MAX_PERFT_THREADS) {
        throw new UsageError(`--threads must be an integer 1..${MAX_PERFT_THREADS}, got ${JSON.stringify(threadsText)}`);
      }
    }
    const options = { threads, signal: undefined };
    let backend: Backend;
    try {
      backend = await backendNamed(backendName);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`the native backend cannot load: ${(e as Error).message}`);
    }
    const pos = parseFenCall(backend, fenText === 'startpos' ? STARTING_FEN : fenText);
    // Threads in use: the js backend counts on one; --divide counts move by move on one.
    const threadNote = backend.name === 'native' ? `, ${threads} thread${threads === 1 ? '' : 's'}` : '';
    const started = nowMs();
    if (divide) {
      const counts = (await import('../api/create-api.js')).createApi(backend).perftDivide(pos, depth);
      const seconds = (nowMs() - started) / 1000;
      let nodes = 0;
      for (const [move, n] of counts) {
        out(`${move}: ${n}`);
        nodes += n;
      }
      out('');
      out(`moves: ${counts.size}`);
      out(`perft(${depth}) = ${nodes} nodes in ${seconds.toFixed(3)} s (${rate(nodes, seconds)}, ${backend.name} backend)`);
    }
    if (stats) {
      const timed = nowMs();
      const s = perftStatsCall(backend, pos, depth, options);
      const seconds = (nowMs() - timed) / 1000;
      out(`perft(${depth}) = ${s.nodes} nodes in ${seconds.toFixed(3)} s (${rate(s.nodes, seconds)}, ${backend.name} backend${threadNote}, with statistics)`);
      const width = Math.max(...Object.values(s).map((v) => String(v).length));
      for (const [name, value] of Object.entries(s)) out(`  ${name.padEnd(16)}${String(value).padStart(width)}`);
    } else if (!divide) {
      const nodes = perftCall(backend, pos, depth, options);
      const seconds = (nowMs() - started) / 1000;
      out(`perft(${depth}) = ${nodes} nodes in ${seconds.toFixed(3)} s (${rate(nodes, seconds)}, ${backend.name} backend${threadNote})`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof FenError) {
      process.stderr.write(`bitboard-patterns perft: ${e.message}\n${usage.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
}

export default { summary, usage, run, writesFd1: true } satisfies Subcommand;
