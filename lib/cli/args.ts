/** What the subcommands share when they read their arguments. */
import type { BackendChoice } from '../backends/variable.js';

/** A command-line mistake: the subcommand prints it (with its usage) and exits with code 2. */
export class UsageError extends Error {}

/** The argument at `at`, the value of `flag`; a UsageError when the arguments end first. */
export function valueOf(args: readonly string[], flag: string, at: number): string {
  const v = args[at];
  if (v === undefined) throw new UsageError(`${flag} needs a value`);
  return v;
}

/** A `--backend` value: 'native' or 'js', else a UsageError. */
export function backendOf(v: string): 'native' | 'js' {
  if (v === 'wasm') throw new UsageError('--backend must be native or js: this command has no WebAssembly path');
  if (v !== 'native' && v !== 'js') throw new UsageError(`--backend must be native or js, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * The backend of a command that runs on the addon or the JS twin, as BITBOARD_PATTERNS_BACKEND asks:
 * 'js' and 'native' as written ('native' explicit: no fallback), nothing or 'wasm' the addon with the JS twin
 * as its fallback. 'wasm' is said on stderr, since the command cannot honour it.
 */
export function commandBackend(command: string, requested: BackendChoice): { backend: 'native' | 'js'; explicit: boolean } {
  if (requested === 'wasm') {
    process.stderr.write(`bitboard-patterns ${command}: BITBOARD_PATTERNS_BACKEND=wasm, but this command has no WebAssembly path; it runs on the addon (the JS backend if the addon cannot load)\n`);
  }
  return { backend: requested === 'js' ? 'js' : 'native', explicit: requested === 'native' };
}

/** A `--threads` value: an integer 1..max written in decimal digits, else a UsageError. */
export function threadsOf(text: string, max: number): number {
  return positiveIntOf('--threads', text, max);
}

/** The value of `flag`: an integer 1..max written in decimal digits, else a UsageError naming the flag. */
export function positiveIntOf(flag: string, text: string, max: number): number {
  const v = /^\d{1,15}$/.test(text) ? Number(text) : 0;
  if (v < 1 || v > max) throw new UsageError(`${flag} must be an integer 1..${max}, got ${JSON.stringify(text)}`);
  return v;
}

/**
 * Runs `bitboard-patterns TOOL COMMAND OPTIONS...` (`args` = [COMMAND, ...OPTIONS]): the options parsed
 * by `parse`, then `commands[COMMAND]`. A UsageError prints the message and `usage` (exit code 2), an
 * error of `expected` classes its message (exit code 1); anything else is a bug and is thrown.
 */
export async function runCommand<O>(tool: string, usage: string, args: readonly string[], parse: (options: string[]) => O,
  commands: Record<string, (options: O) => number | Promise<number>>,
  expected: readonly (abstract new (...a: never[]) => Error)[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    const f = command === undefined ? undefined : Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (!f) throw new UsageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
    return await f(parse(rest));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`bitboard-patterns ${tool}: ${e.message}\n${usage}\n`);
      return 2;
    }
    if (expected.some((c) => e instanceof c)) {
      process.stderr.write(`bitboard-patterns ${tool}: ${(e as Error).message}\n`);
      return 1;
    }
    throw e;
  }
}

/** The options the table commands (kbnk, tb) share, and the words that are not options. */
export interface TableOptions { out?: string; table?: string; backend?: 'native' | 'js'; threads?: number; json: boolean; rest: string[] }

/**
 * Reads `args` into `o`: first `own` (a command's own options; it returns true when it took `a`,
 * reading a value with `value()`), then --out/-o, --table, --json, --backend, --threads; another
 * `-x` is a UsageError; anything else goes to `o.rest`.
 */
export function tableOptions<O extends TableOptions>(args: readonly string[], o: O,
  own: (a: string, value: () => string) => boolean = () => false): O {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => valueOf(args, a, ++i);
    if (own(a, value)) continue;
    if (a === '--out' || a === '-o') o.out = value();
    else if (a === '--table') o.table = value();
    else if (a === '--json') o.json = true;
    else if (a === '--backend') o.backend = backendOf(value());
    else if (a === '--threads') o.threads = threadsOf(value(), 1024);
    else if (a.startsWith('-') && a.length > 1) throw new UsageError(`unknown option ${a}`);
    else o.rest.push(a);
  }
  return o;
}
