import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // Searches start worker threads and the agreement test runs ast-grep: two test files at a time is plenty.
    maxWorkers: 2,
  },
});
