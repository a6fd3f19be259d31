import { descendantsOf, listProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';

describe('dispose leaves no process behind (real servers)', () => {
  it('typescript-language-server with its tsserver, pyright, gopls and clangd all exit', { timeout: 120_000 }, async () => {
    const run = startRun({
      'tsconfig.json': '{}',
      'a.ts': 'export const a = 1;\n',
      'pyproject.toml': '[project]\nname = "x"\n',
      'b.py': 'b = 1\n',
      'go/go.mod': 'module example.com/x\n\ngo 1.19\n',
      'go/c.go': 'package x\n\nvar C = 1\n',
      'c/compile_flags.txt': '-Wall\n',
      'c/d.c': 'int d = 1;\n',
    });
    for (const [file, symbol] of [['a.ts', 'a'], ['b.py', 'b'], ['go/c.go', 'C'], ['c/d.c', 'd']] as const) {
      const result = await run.lsp({ action: 'hover', file, line: file.endsWith('.go') ? 3 : 1, symbol });
      expect(result.isError, text(result)).toBe(false);
    }
    const children = descendantsOf(process.pid);
    const commands = children.map((p) => p.command).join('\n');
    expect(commands).toContain('typescript-language-server');
    expect(commands).toContain('tsserver.js');
    expect(commands).toContain('pyright/langserver.index.js');
    expect(commands).toContain('gopls');
    expect(commands).toContain('clangd');
    await run[Symbol.asyncDispose]();
    const alive = new Set(listProcesses().map((p) => p.pid));
    expect(children.filter((p) => alive.has(p.pid))).toEqual([]);
  });
});
