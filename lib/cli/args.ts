/** What the subcommands share when they read their arguments. */

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
  if (v !== 'native' && v !== 'js') throw new UsageError(`--backend must be native or js, got ${JSON.stringify(v)}`);
  return v;
}
