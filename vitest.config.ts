import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // Two files at a time on CI's two cores: most tests wait on agents and terminals, not the CPU.
    maxWorkers: 2,
    // In CI a test that fails once is run again (and says so in the report): two files at a time on two
    // cores make a timing-sensitive end-to-end test fail now and then; one that fails twice fails the run.
    retry: process.env.CI === 'true' ? 1 : 0,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
