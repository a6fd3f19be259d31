import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { builtinAdapters, createDebugSupervisor, debugTools } from '../src/index.js';

// Issue 26, item 6: a bug outside any call reaches the harness's onError once. The bug source is a harness's own
// adapter configuration (real debugpy): its `outputNoise`, which the session applies to every `output` event the
// adapter sends, is a RegExp subclass whose replace throws. The event handler runs from the adapter's stream: before,
// the throw escaped the stream's data handler and ended the process.
const PROGRAM = 'print("hello from the debuggee")\nprint("second line")\n';

describe('a bug in a handler of the adapter’s events (injected: the harness’s outputNoise throws)', () => {
  it('reaches onError once as phase background, and the launch answers as without it', { timeout: 60_000 }, async () => {
    using project = tempDir({ 'pyproject.toml': '[project]\nname = "probe"\n', 'app.py': PROGRAM });
    const bug = new TypeError("Cannot read properties of undefined (reading 'output')");
    class Faulty extends RegExp {
      override [Symbol.replace](): string {
        throw bug;
      }
    }
    const debugpy = builtinAdapters().find((adapter) => adapter.id === 'debugpy');
    if (!debugpy) throw new Error('debugpy is not a built-in adapter');
    const debugSupervisor = createDebugSupervisor({ adapters: [{ ...debugpy, outputNoise: new Faulty('never') }] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, conversationId: 'c1', debugSupervisor },
      factories: [debugTools],
      approve: approveAll,
      onError: (error, context) => void seen.push({ error, context }),
    });
    const launched = await registry.call('debug', { action: 'launch', program: 'app.py' });
    expect(launched.isError).toBe(false);
    expect(resultText(launched)).toContain('The program exited with code 0.');
    // Each output event threw the same bug; it is told once.
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/debug' } }]);
  });
});

describe('a bug in an adapter configuration’s hook while a session starts (injected: launchArguments throws)', () => {
  it('is answered as the failed start, and reaches onError once as phase background', { timeout: 60_000 }, async () => {
    using project = tempDir({ 'pyproject.toml': '[project]\nname = "probe"\n', 'app.py': PROGRAM });
    const bug = new TypeError("Cannot read properties of undefined (reading 'justMyCode')");
    const debugpy = builtinAdapters().find((adapter) => adapter.id === 'debugpy');
    if (!debugpy) throw new Error('debugpy is not a built-in adapter');
    const debugSupervisor = createDebugSupervisor({
      adapters: [
        {
          ...debugpy,
          launchArguments: () => {
            throw bug;
          },
        },
      ],
    });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, conversationId: 'c1', debugSupervisor },
      factories: [debugTools],
      approve: approveAll,
      onError: (error, context) => void seen.push({ error, context }),
    });
    const launched = await registry.call('debug', { action: 'launch', program: 'app.py' });
    expect(launched.isError).toBe(true);
    expect(resultText(launched)).toContain("Cannot read properties of undefined (reading 'justMyCode')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/debug' } }]);
  });
});

describe('a bug in reading where an adapter listens (injected: the harness’s transport `listening` pattern throws)', () => {
  it('fails the start at once naming the bug, reaches onError once, and does not escape the stream’s data handler', { timeout: 60_000 }, async () => {
    using project = tempDir({ 'go.mod': 'module probe\n\ngo 1.19\n', 'main.go': 'package main\n\nfunc main() {}\n' });
    const bug = new TypeError("Cannot read properties of undefined (reading 'port')");
    class Faulty extends RegExp {
      override exec(): RegExpExecArray | null {
        throw bug;
      }
    }
    const delve = builtinAdapters().find((adapter) => adapter.id === 'delve');
    if (!delve) throw new Error('delve is not a built-in adapter');
    const debugSupervisor = createDebugSupervisor({ adapters: [{ ...delve, transport: { kind: 'tcp', listening: new Faulty('listening at') } }] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, conversationId: 'c1', debugSupervisor },
      factories: [debugTools],
      approve: approveAll,
      onError: (error, context) => void seen.push({ error, context }),
    });
    const launched = await registry.call('debug', { action: 'launch', program: 'main.go' });
    expect(launched.isError).toBe(true);
    expect(resultText(launched)).toContain("Cannot read properties of undefined (reading 'port')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/debug' } }]);
  });
});
