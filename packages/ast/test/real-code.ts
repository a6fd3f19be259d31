import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import type { AstEditResult, TreeSitterLoader } from '../src/index.js';
import { astTools } from '../src/index.js';

const require = createRequire(import.meta.url);

/** A file of an installed npm package (a devDependency). */
export const npmFile = (pkg: string, ...path: string[]): string => join(dirname(require.resolve(`${pkg}/package.json`)), ...path);

/** A workspace holding copies of real files (Debian or npm packages), with ast_edit and resolve on it. */
export function realWorkspace(loader: TreeSitterLoader, files: readonly string[]) {
  const dir = tempDir();
  for (const file of files) copyFileSync(file, dir.join(basename(file)));
  const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
  return {
    dir,
    call: (tool: string, args: Record<string, unknown>) => registry.call(tool, args),
    edit: async (args: Record<string, unknown>) => {
      const result = await registry.call('ast_edit', args);
      return { text: resultText(result), structured: result.structured as AstEditResult };
    },
    accept: (id = 'edit_1') => registry.call('resolve', { edit_id: id, action: 'accept' }),
    read: (file: string) => readFileSync(dir.join(file), 'utf8'),
    [Symbol.asyncDispose]: async () => dir.remove(),
  };
}

/** CPython's own parse of a file, as `ast.dump` text (throws on a syntax error). */
export const pythonAst = (file: string, expr = 'ast.parse(open(sys.argv[1]).read())'): string =>
  execFileSync('/usr/bin/python3', ['-c', `import ast,sys; print(ast.dump(${expr}))`, file], { encoding: 'utf8' });

/** gofmt's verdict on a Go file: '' when it parses. */
export const gofmtErrors = (file: string): string => {
  try {
    execFileSync('gofmt', ['-e', '-l', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
};
