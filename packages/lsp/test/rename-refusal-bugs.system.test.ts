import { writeFileSync } from 'node:fs';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { createLspSupervisor, lspTools } from '../src/index.js';
import { fakeServer } from './helpers.js';

// Issue 26, item 6: when a server refuses a rename because the new name exists (gopls' "conflicts with … in same
// block"), the refusal names where with the server's workspace symbols. A server that cannot answer that search
// leaves the sentence without the place; a bug of ours reading its answer (a symbol without a location, which
// nothing validates) reaches onError once instead of being dropped. The server is the scripted fake one: no real
// server sends such a symbol on demand.
function setup(workspaceSymbol: unknown) {
  const scriptDir = tempDir({}, 'agent-tools-lsp-script-');
  const script = scriptDir.join('script.json');
  writeFileSync(
    script,
    JSON.stringify({
      capabilities: { renameProvider: true, workspaceSymbolProvider: true },
      methods: {
        'textDocument/rename': { error: 'renaming this func "alpha" to "beta" conflicts with func in same block' },
        'workspace/symbol': workspaceSymbol,
      },
    }),
  );
  return scriptDir;
}

describe('a rename refused for a name that exists (scripted server)', () => {
  it('a bug reading the workspace symbols (a symbol without a location) reaches onError once', async () => {
    using scriptDir = setup({ reply: [{ name: 'beta', kind: 12 }] });
    using project = tempDir({ 'fake.json': '{}', 'a.fake': 'alpha\nbeta\n' });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [fakeServer(scriptDir.join('script.json'))] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      approve: approveAll,
      onError: (error, context) => void seen.push({ error, context }),
    });
    const result = await registry.call('lsp_rename', { file: 'a.fake', line: 1, symbol: 'alpha', new_name: 'beta' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^lsp_rename failed: Cannot read properties of undefined \(reading 'uri'\)/);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.error).toBeInstanceOf(TypeError);
    expect(seen[0]?.context).toEqual({ phase: 'call', tool: 'lsp_rename' });
  });

  it('a server that cannot search its symbols leaves the refusal without the place, and nothing is reported', async () => {
    using scriptDir = setup({ error: 'no workspace symbols today' });
    using project = tempDir({ 'fake.json': '{}', 'a.fake': 'alpha\nbeta\n' });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [fakeServer(scriptDir.join('script.json'))] });
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      approve: approveAll,
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call('lsp_rename', { file: 'a.fake', line: 1, symbol: 'alpha', new_name: 'beta' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('`beta` already exists, a func in the same block as `alpha`; choose another name. Nothing changed.');
    expect(seen).toEqual([]);
  });
});
