import { defineConfig } from 'vitest/config';

/** `npm run bench`'s measurements that drive the real CLIs through the test tree's fake model servers (bench/hop.ts). */
export default defineConfig({
  test: {
    include: ['test/bench/**/*.run.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 3_600_000,
  },
});
