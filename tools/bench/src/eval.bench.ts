import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approveAll, createRegistry, defineTool, type Registry, textResult } from '@agent-tools/core';
import { createKernelFactory, evalParameters, evalTools, type KernelLanguage } from '@agent-tools/eval';
import { measure, type Timing, timing, timingTable } from './measure.js';

/**
 * eval: kernel start (cold: a new run's first cell, which also starts the local Jupyter server; warm: a kernel
 * replaced by reset on a running server), the warm round trip of a trivial cell (`x + 1`) per language through the
 * registry, and a cell whose only work is one bridged tool call. References: the same cell sent straight to the
 * kernel session (no tool layer: no validation, rewriting or rendering), and jupyter_client talking to ipykernel
 * over ZeroMQ with no Jupyter server in between (what the server, its websocket and services cost).
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
    ...(await coldStarts(5)),
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
  timings.push(directIpykernel());
  console.log(timingTable(timings));
} finally {
  await factory.dispose();
  await registry.dispose();
  rmSync(cwd, { recursive: true, force: true });
}

/** A new run's first cell (local server + Python kernel), and that run's dispose, timed apart. */
async function coldStarts(runs: number): Promise<Timing[]> {
  const starts: number[] = [];
  const disposals: number[] = [];
  for (let i = 0; i < runs; i++) {
    const begin = performance.now();
    const fresh = run();
    await cell(fresh, '1');
    const started = performance.now();
    await fresh.dispose();
    starts.push(started - begin);
    disposals.push(performance.now() - started);
  }
  return [
    timing('cold start: new run, local Jupyter server + Python kernel + first cell', starts),
    timing('dispose of that run: kernel shut down, server stopped, nothing left', disposals),
  ];
}


/** `x + 1` on ipykernel through jupyter_client's blocking client: ZeroMQ only, timed in Python. */
function directIpykernel(): Timing {
  const script = `
import json, time
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="python3")
kc.execute_interactive("x = 1")
samples = []
for i in range(46):
    start = time.perf_counter()
    kc.execute_interactive("x + 1", output_hook=lambda msg: None)
    if i >= 5:
        samples.append((time.perf_counter() - start) * 1000)
kc.stop_channels()
km.shutdown_kernel(now=True)
print(json.dumps(samples))
`;
  const out = spawnSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8', env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' } });
  const samples = JSON.parse(out.stdout.trim().split('\n').pop() ?? '[]') as number[];
  return timing('reference: python `x + 1` via jupyter_client over ZeroMQ (no server)', samples);
}
