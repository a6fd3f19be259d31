import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // npm installs from the registry (a fresh machine has an empty cache) and whole-project typechecks.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
