import { packageTests } from '../../vitest.shared.js';

/** The same suite against each supported `ai` major: `ai` (and `ai/test`) resolve to that major's package. */
function major(name: string, pkg: string | undefined) {
  return {
    extends: true as const,
    test: { name },
    resolve: { alias: pkg ? [{ find: /^ai(\/.*)?$/, replacement: `${pkg}$1` }] : [] },
  };
}

export default packageTests({
  testTimeout: 30_000,
  projects: [major('ai 5', 'ai-v5'), major('ai 6', undefined), major('ai 7', 'ai-v7')],
});
