import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createDebugSupervisor, debugTools } from '../src/index.js';
import { waitDead } from './helpers.js';

// The checks of @agent-tools/test-utils' factoryContract, written out here: its plan-surface check compares
// against JSON.stringify(content), which escapes the quotes of `Unknown tool "debug"` and so fails for every
// write or exec tool. Switch back to factoryContract once that is fixed.
const dirs: { remove(): void }[] = [];
afterAll(() => {
  for (const dir of dirs) dir.remove();
});

function resources() {
  const dir = tempDir({ 'pyproject.toml': '', 'app.py': 'import time\ntime.sleep(30)\n' }, 'agent-tools-debug-contract-');
  dirs.push(dir);
  return { cwd: dir.path, conversationId: 'contract', debugSupervisor: createDebugSupervisor({ waitMs: 1000 }) };
}

describe('@agent-tools/debug factory contract', () => {
  it('declares what it needs', () => {
    expect(debugTools.needs).toEqual(['cwd', 'conversationId', 'debugSupervisor']);
  });

  for (const need of debugTools.needs) {
    it(`registers nothing without "${need}"`, async () => {
      await using registry = createRegistry({ resources: { ...resources(), [need]: undefined }, factories: [debugTools] });
      expect(registry.tools().map((t) => t.name)).toEqual([]);
      expect(registry.factories[0]?.missing).toEqual([need]);
    });
  }

  it('registers debug as an exec tool when every resource is present, even with no adapter usable', async () => {
    await using registry = createRegistry({
      resources: { ...resources(), debugSupervisor: createDebugSupervisor({ env: { PATH: '/nonexistent' } }) },
      factories: [debugTools],
    });
    expect(registry.tools().map((t) => [t.name, t.tier])).toEqual([['debug', 'exec']]);
  });

  it('is absent from the plan and subagent surfaces, where a call is an unknown tool', async () => {
    await using registry = createRegistry({ resources: resources(), factories: [debugTools], approve: approveAll });
    for (const surface of ['plan', 'subagent']) {
      expect(registry.tools(surface)).toEqual([]);
      const result = await registry.call('debug', { action: 'status' }, { surface });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('Unknown tool "debug"');
    }
  });

  it('leaves no process behind after dispose', { timeout: 60_000 }, async () => {
    const res = resources();
    const registry = createRegistry({ resources: res, factories: [debugTools], approve: approveAll });
    const launched = await registry.call('debug', { action: 'launch', program: 'app.py' });
    expect(resultText(launched)).toContain('still running');
    const pids = res.debugSupervisor.conversation('contract').session?.processIds() ?? [];
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(processesMatching(res.cwd).length).toBeGreaterThan(0);
    await registry.dispose();
    expect(await waitForNoProcesses(res.cwd, 10_000)).toEqual([]);
    expect(await waitDead(pids)).toEqual([]);
  });
});
