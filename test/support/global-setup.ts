/**
 * Every test file runs with TMPDIR pointing at a folder of this run's own; when the run ends the
 * folder must be empty: a test that leaves files or folders behind fails the run, naming them.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'bbp-vitest-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length) {
      // vitest reports an error thrown here but keeps its exit code: set ours too.
      process.exitCode = 1;
      throw new Error(`tests left ${left.length} entries in the temp folder: ${left.join(', ')}`);
    }
  };
}
