import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { createLspSupervisor, lspTools } from '../src/index.js';

describe('a bug inside an lsp tool (injected: the supervisor throws a TypeError)', () => {
  it.each([
    ['lsp', { action: 'hover', file: 'a.txt', line: 1, symbol: 'word' }],
    ['lsp_rename', { file: 'a.txt', line: 1, symbol: 'word', new_name: 'other' }],
  ])('%s: reaches the harness onError once, and the model gets "<tool> failed: …"', async (name, args) => {
    using project = tempDir({ 'a.txt': 'word\n' });
    const supervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [] });
    const bug = new TypeError("Cannot read properties of undefined (reading 'config')");
    supervisor.serverFor = () => Promise.reject(bug);
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor: supervisor },
      factories: [lspTools],
      approve: async () => true,
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call(name, args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(`${name} failed: Cannot read properties of undefined (reading 'config')`);
    expect(seen).toEqual([bug]);
  });
});
