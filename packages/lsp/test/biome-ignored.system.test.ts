import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';
import { BIOME_PROJECT, linkPackages } from './lint-project.js';

// A file the project's Biome configuration leaves out (`files.includes`): Biome's server publishes nothing for it, so
// its diagnostics were awaited until they timed out on every call ("INCOMPLETE: … did not report diagnostics in time")
// and every write to it said Biome's part was pending. Biome's own CLI tells which files it ignores. Real servers:
// tsserver and the project's Biome (2.5.12, ultracite's preset).
const loose = 'export function twice(n: number): number {\n  return n == 1 ? 2 : n * 2;\n}\n';
const files = {
  ...BIOME_PROJECT,
  'biome.jsonc': '{ "extends": ["./ultracite-core.biome.jsonc"], "files": { "includes": ["**", "!src/gen/**"] } }\n',
  'src/gen/loose.ts': loose,
  'src/loose.ts': loose,
};

describe("a file the project's Biome configuration ignores", () => {
  it('is said to be ignored by biome at once, not awaited until it times out; other files are linted as before', async () => {
    // A wait that would run out (60 s) fails the test's own timeout: the answer must not wait for Biome at all.
    await using run = startRun(files, { requestTimeoutMs: 60_000 }, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' }, { biome: '@biomejs/biome/bin/biome' });
    const ignored = await run.lsp({ action: 'diagnostics', file: 'src/gen/loose.ts' });
    expect(text(ignored)).toBe("No errors or warnings in src/gen/loose.ts (checked by typescript-language-server; biome ignores this file by the project's configuration).");
    expect(ignored.structured).toMatchObject({ ignoredBy: ['biome'] });
    const linted = text(await run.lsp({ action: 'diagnostics', file: 'src/loose.ts' }));
    expect(linted).toContain('(checked by typescript-language-server, biome).');
    expect(linted).toContain('2:12 error lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion. [biome]');
    const written = text(await run.call('write', { path: 'src/gen/more.ts', content: 'export const same = (n: number): boolean => n == 1;\n' }));
    expect(written).toBe('Wrote src/gen/more.ts.\nNo new diagnostics in src/gen/more.ts.');
  }, 50_000);
});
