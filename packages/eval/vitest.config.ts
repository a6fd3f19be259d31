import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real Jupyter servers and kernels: one test file at a time keeps a shared 2-core machine responsive.
    fileParallelism: false,
  },
});
