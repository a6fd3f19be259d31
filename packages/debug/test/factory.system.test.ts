import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { factoryContract, processesMatching, tempDir, waitDead, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createDebugSupervisor, debugTools } from '../src/index.js';

const dirs: { remove(): void }[] = [];
afterAll(() => {
  for (const dir of dirs) dir.remove();
});

/** Fresh resources on a temporary project whose program runs long enough to be caught alive. */
function resources() {
  const dir = tempDir({ 'pyproject.toml': '', 'app.py': 'import time\ntime.sleep(30)\n' }, 'agent-tools-debug-contract-');
  dirs.push(dir);
  return { cwd: dir.path, conversationId: 'contract', debugSupervisor: createDebugSupervisor({ waitMs: 1000 }) };
}

factoryContract({
  factory: debugTools,
  resources,
  tools: { debug: 'exec' },
  warmUp: {
    tool: 'debug',
    args: { action: 'launch', program: 'app.py' },
    // The debuggee's command line holds the program's path, which is inside the fresh temporary folder.
    marker: (res) => String(res['cwd']),
  },
  harness: new URL('./harness/contract.mjs', import.meta.url),
});

describe('@agent-tools/debug factory', () => {
  it('registers debug even when no adapter is usable, so adapters can say why', async () => {
    await using registry = createRegistry({
      resources: { ...resources(), debugSupervisor: createDebugSupervisor({ env: { PATH: '/nonexistent' } }) },
      factories: [debugTools],
    });
    expect(registry.tools().map((t) => [t.name, t.tier])).toEqual([['debug', 'exec']]);
  });

  it('leaves neither the adapter nor the debuggee behind after dispose', { timeout: 60_000 }, async () => {
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
