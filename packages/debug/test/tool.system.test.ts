import { approveAll, createRegistry, toolSchema } from '@agent-tools/core';
import { descendantsOf, tempDir, waitDead } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { createDebugSupervisor, debugTools } from '../src/index.js';
import { debugTool } from '../src/tools/debug.js';
import { debugRig } from './helpers.js';
import { lineOf, PYTHON_APP } from './programs.js';

const files = { 'pyproject.toml': '[project]\nname = "fixture"\n', 'app.py': PYTHON_APP };
describe('the debug tool', () => {
  it('has a stable JSON Schema (what the model sees)', () => {
    const tool = debugTool(createDebugSupervisor(), { cwd: '/', conversationId: 'x' });
    expect(tool).toMatchObject({ name: 'debug', tier: 'exec', parallelSafe: false });
    expect(toolSchema(tool).inputSchema).toMatchSnapshot();
  });

  it('carries the usage guidance in its description', () => {
    const { description } = debugTool(createDebugSupervisor(), { cwd: '/', conversationId: 'x' });
    for (const phrase of ['adapters', 'breakpoints {file, lines}', 'terminate first', 'valid only until the program moves', 'gcc -g']) {
      expect(description).toContain(phrase);
    }
  });

  it('refuses a breakpoint whose kind is misspelt, instead of setting a plain one that stops', async () => {
    await using rig = debugRig(files);
    // camelCase as in the DAP: dropped silently, the logpoint became a breakpoint that stops the program.
    const line = await rig.call({ action: 'breakpoints', file: 'app.py', lines: [{ line: 3, logMessage: 'x={x}' }] });
    expect(line.isError).toBe(true);
    expect(line.text).toContain('`lines[0]`');
    expect(line.text).toContain('logMessage');
    const fn = await rig.call({ action: 'breakpoints', functions: [{ name: 'main', hitCondition: '3' }] });
    expect(fn.isError).toBe(true);
    expect(fn.text).toContain('`functions[0]`');
    expect(fn.text).toContain('hitCondition');
    const listed = await rig.call({ action: 'breakpoints' });
    expect(listed.text).toBe('No breakpoints are set.');
  });

  it('refuses a hit condition that is not a hit count ("abc" was never true on debugpy and always on lldb)', async () => {
    await using rig = debugRig(files);
    const bad = await rig.call({ action: 'breakpoints', file: 'app.py', lines: [{ line: 3, hit_condition: 'abc' }] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('`lines[0].hit_condition`');
    const good = await rig.call({ action: 'breakpoints', file: 'app.py', lines: [{ line: 3, hit_condition: ' >=  3 ' }, { line: 4, hit_condition: '%2' }] });
    expect(good.text).toContain('line 3 [hit count: >= 3]: pending');
    expect(good.text).toContain('line 4 [hit count: % 2]: pending');
  });

  it('kills the adapter and the debuggee when the registry is disposed, even in the middle of a launch', { timeout: 60_000 }, async () => {
    using dir = tempDir(files, 'agent-tools-debug-dispose-');
    const registry = createRegistry({
      resources: { cwd: dir.path, conversationId: 'c', debugSupervisor: createDebugSupervisor() },
      factories: [debugTools],
      approve: approveAll,
    });
    await registry.call('debug', { action: 'breakpoints', file: 'app.py', lines: [lineOf(PYTHON_APP, '@py-call')] });
    const before = new Set(descendantsOf(process.pid).map((p) => p.pid));
    const launching = registry.call('debug', { action: 'launch', program: 'app.py' });
    let started: { pid: number; command: string }[] = [];
    for (let i = 0; i < 200 && !started.some((p) => p.command.includes('debugpy.adapter')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      started = descendantsOf(process.pid).filter((p) => !before.has(p.pid) && /debugpy/.test(p.command));
    }
    expect(started.some((p) => p.command.includes('debugpy.adapter'))).toBe(true);
    await registry.dispose();
    const answer = await launching;
    expect(answer.isError).toBe(true);
    expect(await waitDead(started.map((p) => p.pid))).toEqual([]);
    expect(descendantsOf(process.pid).filter((p) => /debugpy|app\.py/.test(p.command))).toEqual([]);
  });

  it('starts nothing when the run ends while the adapter is being looked up', { timeout: 30_000 }, async () => {
    using dir = tempDir(files, 'agent-tools-debug-dispose-');
    const registry = createRegistry({
      resources: { cwd: dir.path, conversationId: 'c', debugSupervisor: createDebugSupervisor() },
      factories: [debugTools],
      approve: approveAll,
    });
    const before = new Set(descendantsOf(process.pid).map((p) => p.pid));
    const launching = registry.call('debug', { action: 'launch', program: 'app.py' });
    await registry.dispose();
    expect((await launching).isError).toBe(true);
    // The lookup probes Python interpreters; once they are done, the launch would have started the adapter.
    for (let quiet = 0; quiet < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      quiet = descendantsOf(process.pid).some((p) => p.command.includes('import debugpy')) ? 0 : quiet + 1;
    }
    expect(descendantsOf(process.pid).filter((p) => !before.has(p.pid) && p.command.includes('debugpy.adapter'))).toEqual([]);
  });

  it('keeps breakpoints across sessions and lists them all', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ ...files, 'lib/other.py': 'x = 1\n' });
    const call = lineOf(PYTHON_APP, '@py-call');
    await rig.call({ action: 'breakpoints', file: 'app.py', lines: [call, call] });
    await rig.call({ action: 'breakpoints', file: 'lib/other.py', lines: [1] });
    const listed = await rig.call({ action: 'breakpoints' });
    expect(listed.text).toBe(
      `Breakpoints in app.py:\n  line ${call}: pending (sent to the adapter at launch)\nBreakpoints in lib/other.py:\n  line 1: pending (sent to the adapter at launch)`,
    );
    const first = await rig.call({ action: 'launch', program: 'app.py' });
    expect(first.text).toContain(`Stopped at a breakpoint in main at app.py:${call}`);
    await rig.call({ action: 'terminate' });
    const second = await rig.call({ action: 'launch', program: 'app.py' });
    expect(second.text).toContain(`line ${call}: verified`);
    expect(second.text).toContain(`Stopped at a breakpoint in main at app.py:${call}`);
    const cleared = await rig.call({ action: 'breakpoints', file: 'app.py', lines: [] });
    expect(cleared.text).toBe('Cleared the breakpoints in app.py.');
  });
});
