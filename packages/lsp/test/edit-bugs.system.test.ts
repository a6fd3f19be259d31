import { readFileSync } from 'node:fs';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { createLspSupervisor, lspTools } from '../src/index.js';
import { commandActionScript, fakeServer } from './helpers.js';

// Issue 26, item 6: a bug while lsp_fix applies an edit a server sent back (workspace/applyEdit) is answered as the
// declined edit it is (what was applied is undone), and reaches the harness's onError once. The bug is a real one of
// ours: an edit without a range, which nothing validates before it is applied. The server is the scripted fake one:
// no real server sends such an edit on demand.
describe('a bug applying an edit a server sent back (scripted server: an edit without a range)', () => {
  it('declines the edit, changes nothing, and reaches onError once', async () => {
    const rangeless = { changes: { '$ROOT/a.fake': [{ newText: 'one ' }] } };
    using scripted = commandActionScript([rangeless]);
    using project = tempDir({ 'fake.json': '{}', 'a.fake': 'alpha\n' });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [fakeServer(scripted.script)] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor, diagnostics: lspSupervisor },
      factories: [lspTools],
      approve: approveAll,
      diagnostics: { budgetMs: 300 },
      onError: (error, context) => void seen.push({ error, context }),
    });
    const list = await registry.call('lsp', { action: 'code_actions', file: 'a.fake', line: 1, symbol: 'alpha' });
    expect(resultText(list)).toContain('1. Fix it');
    const fixed = await registry.call('lsp_fix', { file: 'a.fake', number: 1 });
    expect(fixed.isError).toBe(true);
    expect(resultText(fixed)).toContain('could not be applied');
    expect(readFileSync(project.join('a.fake'), 'utf8')).toBe('alpha\n');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.error).toBeInstanceOf(TypeError);
    expect(seen[0]?.context).toEqual({ phase: 'call', tool: 'lsp_fix' });
  });
});
