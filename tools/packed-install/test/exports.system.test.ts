import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, workspacePackages } from '../src/workspace.js';

/** Every entry point of every published package (`exports` keys but package.json), as built in dist. */
const entries = workspacePackages().flatMap((pkg) => {
  const exports = (pkg.manifest['exports'] ?? {}) as Record<string, string | { default?: string }>;
  return Object.entries(exports)
    .filter(([key]) => key !== './package.json')
    .map(([key, target]) => {
      const file = typeof target === 'string' ? target : (target.default ?? '');
      return { spec: `${pkg.name}${key.slice(1)}`, file: join(ROOT, 'packages', pkg.dir, file) };
    });
});

/** What importing one entry point alone does in a fresh Node: the names it exports and whether it loaded child_process. */
function load(file: string): { names: string[]; childProcess: boolean } {
  const program = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});
console.log(JSON.stringify({ names: Object.keys(m).sort(), childProcess: process.moduleLoadList.includes('NativeModule child_process') }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' }));
}

describe('entry points', () => {
  // What a package exports at run time is its API: a change to a list below is a change to the product, made on
  // purpose (and a changeset says so), never by a stray `export`.
  it.each(entries.map((e) => [e.spec, e.file]))('%s exports these names', (spec, file) => {
    expect(load(file).names).toMatchSnapshot(spec);
  });

  it("core's root entry (the harness author's) and its internal entry load no child_process; the process supervisor's entry does", () => {
    expect(load(join(ROOT, 'packages/core/dist/index.js')).childProcess).toBe(false);
    expect(load(join(ROOT, 'packages/core/dist/internal.js')).childProcess).toBe(false);
    expect(load(join(ROOT, 'packages/core/dist/process.js')).childProcess).toBe(true);
  });
});
