import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

/**
 * One workspace package's vitest config: its vitest.config.ts passes only what differs (timeouts, parallelism).
 * Tests that start processes are named `*.system.test.ts`; `AGENT_TOOLS_TESTS=unit` (what `pnpm test:unit` sets)
 * leaves them out, so the everyday run stays fast while `pnpm test` (CI) still runs everything.
 */
export function packageTests(options: TestOptions = {}) {
  const unitOnly = process.env['AGENT_TOOLS_TESTS'] === 'unit';
  return defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      exclude: unitOnly ? [...configDefaults.exclude, 'test/**/*.system.test.ts'] : configDefaults.exclude,
      testTimeout: 20_000,
      ...options,
    },
  });
}
