import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { builtinServers, createLspSupervisor, defineServer, lspTools } from '../src/index.js';

// Issue 26, item 6: code_actions asks the server for the line's diagnostics first (quick fixes are computed from
// them) and goes on without them when the server cannot give them. A bug while getting them is no such answer: it
// reaches the harness's onError once and the call says it failed. Real typescript-language-server; the bug is the
// harness's own `pullDiagnostics` hook.
describe('a bug while code_actions gets the line’s diagnostics (injected: the harness’s pullDiagnostics throws)', () => {
  it('reaches onError once, and the model reads "lsp failed: …"', async () => {
    using project = tempDir({
      'tsconfig.json': '{"compilerOptions":{"strict":true}}\n',
      'a.ts': "export const lowStock: number = 'none';\n",
    });
    const bug = new TypeError("Cannot read properties of undefined (reading 'semanticDiagnostics')");
    const typescript = defineServer({
      ...builtinServers.typescript,
      pullDiagnostics: () => {
        throw bug;
      },
    });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [typescript], requestTimeoutMs: 60_000 });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const result = await registry.call('lsp', { action: 'code_actions', file: 'a.ts', line: 1, symbol: 'lowStock' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("lsp failed: Cannot read properties of undefined (reading 'semanticDiagnostics')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'call', tool: 'lsp' } }]);
  });
});
