import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernelFactory, evalTools } from '../src/index.js';
import { DESCRIPTION } from './helpers.js';

// A local server that cannot start must fail the cell with a sentence that says why, quickly, every time.
const dir = tempDir({}, 'agent-tools-eval-server-');
afterAll(() => dir.remove());

async function firstCell(python: string) {
  await using registry = createRegistry({
    resources: { cwd: dir.path, kernelFactory: createKernelFactory({ cwd: dir.path, python, startTimeoutMs: 20_000 }) },
    factories: [evalTools],
    approve: approveAll,
  });
  const first = await registry.call('eval', { code: '1', description: DESCRIPTION });
  const second = await registry.call('eval', { code: '1', description: DESCRIPTION });
  return [first, second];
}

describe('a local server that cannot start', () => {
  it('reports a missing interpreter', async () => {
    const [first, second] = await firstCell('/nonexistent/python3');
    expect(first?.isError).toBe(true);
    expect(resultText(first as never)).toMatch(
      /^The python kernel could not be started, so nothing was run: Could not start a local Jupyter server with \/nonexistent\/python3: spawn \/nonexistent\/python3 ENOENT/,
    );
    expect(resultText(first as never)).toContain('apt install jupyter-server python3-ipykernel');
    expect(resultText(second as never)).toBe(resultText(first as never));
  });

  it('reports an interpreter that exits before listening', async () => {
    const [first] = await firstCell('/bin/false');
    expect(resultText(first as never)).toContain('Could not start a local Jupyter server with /bin/false: it exited (code 1) before listening.');
  });
});
