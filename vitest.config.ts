import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // Two files at a time on CI's two cores: most tests wait on agents and terminals, not the CPU.
    maxWorkers: 2,
    // No retries: a test that passes only on a second try hides a bug, in the test or in the product.
    retry: 0,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
