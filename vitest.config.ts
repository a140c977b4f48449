import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Under the sanitizer build (scripts/build-asan.sh preloads libasan) the addon runs several times
// slower; its slowest test takes about 40% of the normal limit on a 2-core machine, so a slower CI
// machine gets three times the room there. The normal build keeps the tighter limit.
const sanitized = (process.env.LD_PRELOAD ?? '').includes('libasan');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Native addons and worker threads: forks isolate a crash to one file and never share the addon.
    pool: 'forks',
    // One test file per core: vitest's default for a run is one fewer (a single worker on a 2-core machine).
    maxWorkers: availableParallelism(),
    testTimeout: sanitized ? 180_000 : 60_000,
  },
});
