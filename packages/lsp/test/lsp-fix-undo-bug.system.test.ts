import { readFileSync } from 'node:fs';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { createLspSupervisor, lspTools } from '../src/index.js';
import { commandActionScript, fakeServer } from './helpers.js';

// The undo's write is made to throw a TypeError by replacing applyEditPlan: nothing a harness sets and no server
// answer reaches the undo's own code, whose only expected failure is applyEditPlan's edit_failed (an LspError).
const breakUndo = vi.hoisted(() => ({ calls: 0, bug: new TypeError('injected: a bug while restoring') }));
vi.mock('../src/edits/workspace-edit.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/edits/workspace-edit.js')>();
  return {
    ...real,
    applyEditPlan: async (...args: Parameters<typeof real.applyEditPlan>) => {
      // The first call applies the command's first edit; the second is the undo after its second edit is declined.
      if (++breakUndo.calls === 2) throw breakUndo.bug;
      return real.applyEditPlan(...args);
    },
  };
});

// Issue 26, item 6: when a command's later edit is declined (here: it names a file outside the working directory,
// an LspError, only answered), lsp_fix undoes what the earlier ones applied. A bug while undoing is told to onError
// once; the answer still says restoring failed. Scripted fake server (its command sends the two edits back).
describe('a bug while lsp_fix undoes a declined command (injected with vi.mock into applyEditPlan; scripted server)', () => {
  it('reaches onError once and the answer says restoring failed', async () => {
    const first = { changes: { '$ROOT/a.fake': [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'one ' }] } };
    const outside = { changes: { 'file:///etc/agent-tools-outside.fake': [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'x' }] } };
    using scripted = commandActionScript([first, outside]);
    using project = tempDir({ 'fake.json': '{}', 'a.fake': 'alpha\n' });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [fakeServer(scripted.script)] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      approve: approveAll,
      onError: (error, context) => void seen.push({ error, context }),
    });
    const list = await registry.call('lsp', { action: 'code_actions', file: 'a.fake', line: 1, symbol: 'alpha' });
    expect(resultText(list)).toContain('1. Fix it');
    const fixed = await registry.call('lsp_fix', { file: 'a.fake', number: 1 });
    expect(fixed.isError).toBe(true);
    expect(resultText(fixed)).toContain('outside the working directory');
    expect(resultText(fixed)).toContain('restoring what it had already changed failed: injected: a bug while restoring');
    // The first edit stays: the undo is what failed.
    expect(readFileSync(project.join('a.fake'), 'utf8')).toBe('one alpha\n');
    expect(breakUndo.calls).toBe(2);
    expect(seen).toEqual([{ error: breakUndo.bug, context: { phase: 'call', tool: 'lsp_fix' } }]);
  });
});
