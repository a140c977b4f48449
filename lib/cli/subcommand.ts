/** The shape of a CLI subcommand module (lib/cli/<name>.ts). */
export interface Subcommand {
  /** One line for the overview. */
  readonly summary: string;
  /** The full usage text. */
  readonly usage: string;
  /** Runs with the arguments after the subcommand name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
  /**
   * True when the command writes stdout only through fd 1 (lib/cli/output.ts) and handles a closed
   * pipe itself: the CLI then never makes process.stdout, which costs a few milliseconds at start-up.
   */
  readonly writesFd1?: boolean;
}
