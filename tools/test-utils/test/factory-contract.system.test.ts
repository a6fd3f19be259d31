import { defineTool, errorResult, textResult } from '@agent-tools/core';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { afterDisposeProblems, contractRegistry, disposeTwiceProblems, emptyCallProblems } from '../src/contract-checks.js';
import { harnessDeath } from '../src/harness-death.js';
import { factoryContract, tempDir } from '../src/index.js';
import { factory, resources, type SleeperServer } from './fixtures/sleeper.mjs';

declare module '@agent-tools/core' {
  interface Resources {
    sleeperServer?: SleeperServer;
  }
}

const project = tempDir({});
afterAll(() => project.remove());
const harness = new URL('./fixtures/sleeper.mjs', import.meta.url);

// The contract run against a factory with read, write and exec tools and real processes on core's supervisor.
factoryContract({
  factory,
  resources: () => resources(project.path),
  tools: { sleeper_start: 'read', sleeper_write: 'write', sleeper_exec: 'exec' },
  warmUp: { tool: 'sleeper_start', args: { seconds: 1 }, marker: project.path },
  harness,
});

// Every check must be able to fail: each is run here against a tool or resource that breaks it.
describe('the contract checks catch what breaks them', () => {
  const needsPath = defineTool({
    name: 'needs_path',
    tier: 'read',
    description: 'd',
    parallelSafe: true,
    parameters: z.object({ path: z.string().optional() }),
    execute: () => textResult('x'),
  });

  it('{}: accepted despite a required field, refused without naming one, or a crash', () => {
    const required = defineTool({ ...needsPath, parameters: z.object({ path: z.string() }) });
    expect(emptyCallProblems(required, textResult('fine'))).toEqual(['needs_path accepted {} although it requires path']);
    expect(emptyCallProblems(needsPath, errorResult('Something is missing.'))).toEqual([
      'needs_path refused {} without naming a parameter (path): Something is missing.',
    ]);
    expect(emptyCallProblems(needsPath, errorResult('needs_path failed: x is undefined'))[0]).toMatch(/crashed on \{\}/);
    expect(emptyCallProblems(needsPath, errorResult('The action needs "path".'))).toEqual([]);
    expect(emptyCallProblems(required, errorResult('- `path` is required (expected string).'))).toEqual([]);
  });

  it('after dispose: an answer as if nothing happened, a crash, or a hang', () => {
    const call = { tool: 'needs_path', args: {} };
    expect(afterDisposeProblems(call, textResult('ok'))).toHaveLength(1);
    expect(afterDisposeProblems(call, errorResult('needs_path failed: closed'))).toHaveLength(1);
    expect(afterDisposeProblems(call, errorResult('needs_path did not finish within 30 s and was cancelled. Try a smaller request.'))).toHaveLength(1);
    expect(afterDisposeProblems(call, errorResult('The server was shut down.'))).toEqual([]);
    // The model never reads a log prefix, nor two full stops where sentences were joined (an ellipsis is fine).
    expect(afterDisposeProblems(call, errorResult('[agent-tools/lsp] The server was shut down.'))).toHaveLength(1);
    expect(afterDisposeProblems(call, errorResult('It failed: install x (apt install x).. Try again.'))).toHaveLength(1);
    expect(afterDisposeProblems(call, errorResult('It was cut… and ... then shut down.'))).toEqual([]);
    expect(emptyCallProblems(needsPath, errorResult('[agent-tools/x] `path` is required.'))).toHaveLength(1);
  });

  it('dispose twice: a resource whose second dispose throws, or one that hangs', async () => {
    let disposed = 0;
    const fragile = {
      dispose() {
        disposed++;
        if (disposed > 1) throw new Error('already disposed');
      },
    };
    const hanging = { dispose: () => new Promise(() => undefined) };
    const { registry, errors } = contractRegistry({ cwd: '/tmp' }, factory);
    const problems = await disposeTwiceProblems(registry, { fragile, hanging } as never, errors, 100);
    expect(problems).toContain('disposing fragile: already disposed');
    expect(problems).toContain('disposing hanging: did not finish disposing within 100 ms');
  });

  it('harness death: a process started outside the supervisor survives a SIGKILLed harness, and is reported', { timeout: 60_000 }, async () => {
    await using dir = tempDir({});
    const outcome = await harnessDeath({
      module: new URL('./fixtures/escaping.mjs', import.meta.url),
      dir: dir.path,
      call: { tool: 'escape', args: {} },
      death: 'sigkill',
      budgetMs: 1000,
    });
    expect(outcome.started).toBeGreaterThan(0);
    expect(outcome.survivors.map((p) => p.command)).toEqual([expect.stringContaining('sleep')]);
  });
});
