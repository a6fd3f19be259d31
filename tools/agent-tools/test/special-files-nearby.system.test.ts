import { execFileSync } from 'node:child_process';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

/**
 * A FIFO the model never named, beside the file it did: a project file the tools read on their own (tsconfig.json
 * to find a TypeScript program's compiled output, a Go folder's sources to find `package main`, compile_flags.txt
 * to give clangd its flags, a .gitignore to honour its rules). Opened for reading, a FIFO with no writer blocks the
 * thread that opens it until someone writes: on the main thread the harness no longer answers anything, SIGTERM
 * included. Each case runs the real CLI with a hard timeout (a hang fails the test) and expects the usual answer,
 * the FIFO left unread.
 */

interface Case {
  readonly name: string;
  readonly files: Record<string, string>;
  readonly fifo: string;
  readonly args: readonly string[];
  readonly answer: string;
}

const CASES: readonly Case[] = [
  {
    name: 'debug launch of a .ts file whose tsconfig.json is a FIFO',
    files: { 'a.ts': 'console.log(1);\n', 'package.json': '{}' },
    fifo: 'tsconfig.json',
    args: ['call', 'debug', '{"action":"launch","program":"a.ts"}', '--yes'],
    answer: 'it is TypeScript and the project has no way to run it',
  },
  {
    name: 'debug launch of a Go folder whose only .go file is a FIFO',
    files: { 'go.mod': 'module g\n\ngo 1.21\n' },
    fifo: 'z.go',
    args: ['call', 'debug', '{"action":"launch","program":"."}', '--yes'],
    answer: 'delve launches a package with package main, and . has none',
  },
  {
    name: 'lsp symbols of a C file whose compile_flags.txt is a FIFO',
    files: { 'm.c': 'int main(void) { return 0; }\n' },
    fifo: 'compile_flags.txt',
    args: ['call', 'lsp', '{"action":"symbols","file":"m.c"}'],
    answer: '1: function main',
  },
  {
    name: 'ast_grep in a folder whose .gitignore is a FIFO',
    files: { 'a.py': 'x = 1\n' },
    fifo: '.gitignore',
    args: ['call', 'ast_grep', '{"pattern":"x = $A","language":"python"}'],
    answer: '1: x = 1',
  },
];

describe('a FIFO beside the named file never blocks the harness', () => {
  for (const c of CASES) {
    it(c.name, { timeout: 120_000 }, async () => {
      await using dir = tempDir(c.files, 'agent-tools-fifo-nearby-');
      execFileSync('mkfifo', [dir.join(c.fifo)]);
      // cli() kills the process and fails after the timeout: a harness blocked on the FIFO never answers.
      const run = await cli([...c.args, '--cwd', dir.path], { timeoutMs: 90_000 });
      expect(run.stdout).toContain(c.answer);
    });
  }
});
