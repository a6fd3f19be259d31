import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';
import { BIOME_PROJECT, linkPackages, packageDir } from './lint-project.js';

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
    expect(text(ignored)).toBe("No errors or warnings in src/gen/loose.ts (checked by typescript-language-server; not by biome: its configuration ignores this file).");
    expect(ignored.structured).toMatchObject({ ignoredBy: ['biome'] });
    const linted = text(await run.lsp({ action: 'diagnostics', file: 'src/loose.ts' }));
    expect(linted).toContain('(checked by typescript-language-server, biome).');
    expect(linted).toContain('2:12 error lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion. [biome]');
    const written = text(await run.call('write', { path: 'src/gen/more.ts', content: 'export const same = (n: number): boolean => n == 1;\n' }));
    expect(written).toBe('Wrote src/gen/more.ts.\nNo new diagnostics in src/gen/more.ts.');
  }, 50_000);

  it('a write of several files, ignored and not, asks Biome once for all of them, and once only while nothing changed', async () => {
    await using run = startRun(files, { requestTimeoutMs: 60_000 }, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' });
    // The project's biome: Biome itself behind a script that logs each run's arguments.
    const log = run.dir.join('biome-runs.log');
    const bin = run.dir.join('node_modules', '.bin', 'biome');
    mkdirSync(run.dir.join('node_modules', '.bin'), { recursive: true });
    writeFileSync(bin, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${process.execPath}' '${packageDir('ultracite-biome')}/bin/biome' "$@"\n`);
    chmodSync(bin, 0o755);
    // Ignored files beside one Biome lints (it then lists only what it processed, not what it ignored).
    const many = {
      'src/gen/a.ts': 'export const a = 1;\n',
      'src/gen/b.ts': 'export const b = 2;\n',
      'src/gen/c.ts': 'export const c = 3;\n',
      'src/d.ts': 'export const d = (n: number): boolean => n == 1;\n',
    };
    const written = text(await run.call('write_many', { files: many }));
    expect(written).not.toContain('pending');
    expect(written).toContain('New diagnostics in src/d.ts (1):\n  1:44 error lint/suspicious/noDoubleEquals');
    const lints = () => readFileSync(log, 'utf8').split('\n').filter((line) => line.startsWith('lint '));
    expect(lints()).toHaveLength(1);
    expect(lints()[0]).toContain('src/gen/a.ts src/gen/b.ts src/gen/c.ts src/d.ts');
    // Asked again without a change: the answer is known.
    expect(text(await run.lsp({ action: 'diagnostics', file: 'src/gen/b.ts' }))).toContain('not by biome: its configuration ignores this file');
    expect(lints()).toHaveLength(1);
  }, 50_000);

  it('a write of the configuration that stops ignoring a folder: Biome lints its files from then on, nothing waits', async () => {
    await using run = startRun(files, { requestTimeoutMs: 60_000 }, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' }, { biome: '@biomejs/biome/bin/biome' });
    expect(text(await run.lsp({ action: 'diagnostics', file: 'src/gen/loose.ts' }))).toContain('not by biome: its configuration ignores this file');
    await run.call('write', { path: 'biome.jsonc', content: '{ "extends": ["./ultracite-core.biome.jsonc"] }\n' });
    const now = text(await run.lsp({ action: 'diagnostics', file: 'src/gen/loose.ts' }));
    expect(now).toContain('(checked by typescript-language-server, biome).');
    expect(now).toContain('lint/suspicious/noDoubleEquals');
  }, 50_000);
});
