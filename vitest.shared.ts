import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

/**
 * One workspace package's vitest config: its vitest.config.ts passes only what differs (timeouts, parallelism).
 * Tests that start processes are named `*.system.test.ts`; `AGENT_TOOLS_TESTS=unit` (what `pnpm test:unit` sets)
 * leaves them out, so the everyday run stays fast while `pnpm test` (CI) still runs everything. In that mode a test
 * that starts a process anyway fails and says to rename it (vitest.unit-guard.ts).
 */
export function packageTests(options: TestOptions = {}) {
  const unitOnly = process.env['AGENT_TOOLS_TESTS'] === 'unit';
  return defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      exclude: unitOnly ? [...configDefaults.exclude, 'test/**/*.system.test.ts'] : configDefaults.exclude,
      setupFiles: unitOnly ? [fileURLToPath(new URL('./vitest.unit-guard.ts', import.meta.url))] : [],
      // A package whose every test starts a process (test-utils) has nothing to run in unit mode, and that is fine.
      passWithNoTests: unitOnly,
      testTimeout: 20_000,
      ...options,
    },
  });
}
