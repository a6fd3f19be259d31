import { execFileSync } from 'node:child_process';
import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { C_FORKER, pythonForker } from './forkers.js';
import { debugRig } from './helpers.js';
import { C_CMAKE } from './programs.js';

// Issue #13 item 4: a debuggee that forks a helper and exits. The helper leaves the session (`setsid`) and outlives
// its parent, so it is re-parented away from the adapter; the session must still end, and the helper with it.

const PYTHON_FORKER = pythonForker('sys.exit(0)');

describe('a debuggee that forks a helper and exits (real adapters)', () => {
  it('debugpy: the session ends with the exit code, the helper goes with it, the next launch works', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'pyproject.toml': '[project]\nname = "forker"\n', 'forker.py': PYTHON_FORKER });
    const launched = await rig.call({ action: 'launch', program: 'forker.py' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toContain('The program exited with code 0.');
    expect(launched.text).toMatch(/forked helper \d+/);
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('exited with code 0');
    const again = await rig.call({ action: 'launch', program: 'forker.py' });
    expect(again.text).toContain('The program exited with code 0.');
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });

  it('lldb-dap: the session ends with the exit code, the helper goes with it, the next launch works', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': C_CMAKE, 'forker.c': C_FORKER });
    execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('forker'), rig.dir.join('forker.c')]);
    const launched = await rig.call({ action: 'launch', program: 'forker' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toContain('The program exited with code 0.');
    expect(launched.text).toMatch(/forked helper \d+/);
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
    const again = await rig.call({ action: 'launch', program: 'forker' });
    expect(again.text).toContain('The program exited with code 0.');
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });
});
