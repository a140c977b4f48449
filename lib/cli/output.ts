/**
 * Writing the commands' output to stdout through file descriptor 1 itself. A command that writes
 * this way never makes process.stdout, whose stream costs a few milliseconds at start-up (more on a
 * pipe), and its writes block until all bytes are taken, from any thread.
 */
import { writeSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `bytes` to `fd`, blocking (also on a non-blocking pipe: EAGAIN waits 1 ms and tries
 * again). Other errors (EPIPE when the reader closed the pipe) are thrown.
 */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/**
 * For the commands that write through process.stdout: a reader that closes the pipe early (`| head`)
 * calls `onEpipe` (by default the command ends quietly, with the shell's code for SIGPIPE); any other
 * failed write ends it with a message and exit code 1.
 */
export function guardStdout(onEpipe: () => void = () => process.exit(141)): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') return onEpipe();
    process.stderr.write(`bitboard-patterns: cannot write the output: ${e.message}\n`);
    process.exit(1);
  });
}

/** Clock in milliseconds for the commands' timings (process.hrtime: `performance` loads a module on first use). */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
