import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approveAll, createRegistry, defineTool, type Registry, textResult } from '@agent-tools/core';
import { createKernelFactory, evalParameters, evalTools, type KernelLanguage } from '@agent-tools/eval';
import { measure, timingTable } from './measure.js';

/**
 * eval: kernel start (cold: a new run's first cell, which also starts the local Jupyter server; warm: a kernel
 * replaced by reset on a running server), the warm round trip of a trivial cell (`x + 1`) per language through the
 * registry, and a cell whose only work is one bridged tool call. The reference is the same cell sent straight to
 * the kernel session (no tool layer: no validation, rewriting or rendering).
 */
const cwd = mkdtempSync(join(tmpdir(), 'agent-tools-eval-bench-'));
const noop = defineTool({
  name: 'noop',
  tier: 'read',
  parallelSafe: true,
  description: 'Answers at once.',
  // An empty object schema (zod is not a dependency of the benchmarks; eval's schema provides one).
  parameters: evalParameters.pick({}),
  execute: () => textResult('ok'),
});
const description = 'adds one to x for the benchmark';

function run(): Registry {
  return createRegistry({
    resources: { cwd, conversationId: 'bench', kernelFactory: createKernelFactory({ cwd }) },
    factories: [evalTools],
    tools: [noop],
    approve: approveAll,
  });
}

async function cell(registry: Registry, code: string, language: KernelLanguage = 'python', reset = false): Promise<void> {
  const result = await registry.call('eval', { code, description, language, reset });
  if (result.isError) throw new Error(JSON.stringify(result.content));
}

const registry = run();
const factory = createKernelFactory({ cwd });
try {
  const timings = [
    await measure(
      'cold start: new run, local Jupyter server + Python kernel + first cell',
      async () => {
        const fresh = run();
        await cell(fresh, '1');
        await fresh.dispose();
      },
      5,
      1,
    ),
    await measure('Python kernel start on a running server (reset + first cell)', () => cell(registry, 'x = 1', 'python', true), 5, 1),
    await measure('JavaScript kernel start on a running server (reset + first cell)', () => cell(registry, 'const x = 1', 'javascript', true), 5, 1),
  ];
  await cell(registry, 'x = 1');
  await cell(registry, 'var x = 1', 'javascript');
  timings.push(
    await measure('warm round trip, Python `x + 1` (eval tool)', () => cell(registry, 'x + 1'), 41, 5),
    await measure('warm round trip, JavaScript `x + 1` (eval tool)', () => cell(registry, 'x + 1', 'javascript'), 41, 5),
    await measure('bridged call, Python `tool("noop")` (eval tool)', () => cell(registry, 'tool("noop")'), 41, 5),
    await measure('bridged call, JavaScript `await tool("noop")` (eval tool)', () => cell(registry, 'await tool("noop")', 'javascript'), 41, 5),
  );
  for (const language of ['python', 'javascript'] as const) {
    const { session } = await factory.acquire('reference', language);
    const handlers = { onOutput: () => undefined, onInput: async () => '' };
    await session.execute(language === 'python' ? 'x = 1' : 'var x = 1', handlers);
    timings.push(
      await measure(`reference: ${language} \`x + 1\` sent straight to the kernel session`, () => session.execute('x + 1', handlers), 41, 5),
    );
  }
  console.log(timingTable(timings));
} finally {
  await factory.dispose();
  await registry.dispose();
  rmSync(cwd, { recursive: true, force: true });
}
