import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Native addons and worker threads: forks isolate a crash to one file and never share the addon.
    pool: 'forks',
    testTimeout: 60_000,
  },
});
