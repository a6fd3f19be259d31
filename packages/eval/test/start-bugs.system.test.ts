import { createServer, type Server } from 'node:http';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKernelFactory, evalTools, type KernelFactoryOptions } from '../src/index.js';
import { KernelSession } from '../src/jupyter/kernel-session.js';
import { DESCRIPTION } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function rig(options: KernelFactoryOptions = {}) {
  const seen: { error: unknown; context: unknown }[] = [];
  const registry = createRegistry({
    resources: { kernelFactory: createKernelFactory(options), conversationId: 'c1' },
    factories: [evalTools],
    approve: approveAll,
    onError: (error, context) => void seen.push({ error, context }),
  });
  return { registry, seen, cell: (code: string) => registry.call('eval', { code, description: DESCRIPTION }) };
}

// Issue 26, item 6: a kernel that cannot be started is answered `kernel_start_failed` ("could not be started, so
// nothing was run"); when the failure is a bug in code (a TypeError, RangeError or ReferenceError, not services',
// the network's or the kernel's failure) it also reaches onError once.
describe('a bug while a started kernel is brought up (injected with vi.spyOn: the prelude’s run throws; real Jupyter and ipykernel)', () => {
  it('is answered as the failed start, reaches onError once, and the next cell starts a kernel that works', { timeout: 120_000 }, async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'content')");
    vi.spyOn(KernelSession.prototype, 'execute').mockImplementationOnce(() => Promise.reject(bug));
    const r = rig();
    await using _ = r.registry;
    const failed = await r.cell('6 * 7');
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toBe(
      `The python kernel could not be started, so nothing was run: Could not start the python kernel "agent-tools-python": Cannot read properties of undefined (reading 'content')`,
    );
    expect(r.seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/eval' } }]);
    const next = await r.cell('6 * 7');
    expect(resultText(next)).toBe('Out[1]: 42');
    expect(r.seen).toHaveLength(1);
  });
});

/**
 * An HTTP server that starts "kernels" (answers the REST call with a model, after `delayMs`) but has no kernel channels
 * to connect to; `deleted` records the kernels shut down on it. Disposing it closes it.
 */
async function notJupyter(options: { delayMs?: number; id?: string } = {}): Promise<{ server: Server; url: string; deleted: string[] } & AsyncDisposable> {
  const deleted: string[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url?.startsWith('/api/kernels')) {
      setTimeout(() => {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id: options.id ?? 'k1', name: 'python3' }));
      }, options.delayMs ?? 0);
      return;
    }
    if (request.method === 'DELETE') deleted.push((request.url ?? '').split('?')[0] as string);
    response.writeHead(request.method === 'DELETE' ? 204 : 404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`,
    deleted,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('start failures that are not bugs (real network failures) are only answered', () => {
  it('an environment whose server refuses the connection (services’ NetworkError, a TypeError)', { timeout: 60_000 }, async () => {
    const { server, url } = await notJupyter();
    await new Promise((resolve) => server.close(resolve));
    const r = rig({ environment: () => ({ baseUrl: url, token: 'x', kernelNames: { python: 'python3' } }), requestTimeoutMs: 2000 });
    await using _ = r.registry;
    const failed = await r.cell('1');
    expect(resultText(failed)).toMatch(/^The python kernel could not be started, so nothing was run: Could not start the python kernel "python3": /);
    expect(r.seen).toEqual([]);
  });

  it('an environment whose server starts a kernel it has no channels for (the first answer times out)', { timeout: 60_000 }, async () => {
    await using jupyter = await notJupyter();
    const r = rig({ environment: () => ({ baseUrl: jupyter.url, token: 'x', kernelNames: { python: 'python3' } }), requestTimeoutMs: 2000, startTimeoutMs: 3000 });
    await using _ = r.registry;
    const failed = await r.cell('1');
    expect(resultText(failed)).toBe(
      'The python kernel could not be started, so nothing was run: Could not start the python kernel "python3": the python kernel did not answer within 3 s',
    );
    expect(r.seen).toEqual([]);
  });
});

describe('a kernel the server starts after the start was given up (a scripted HTTP server stands in for a slow Jupyter)', () => {
  it('is shut down on the server when it comes, not left running there', { timeout: 60_000 }, async () => {
    // Answers after eval stopped waiting (startTimeoutMs below).
    await using jupyter = await notJupyter({ delayMs: 1500, id: 'late1' });
    const r = rig({ environment: () => ({ baseUrl: jupyter.url, token: 'x', kernelNames: { python: 'python3' } }), requestTimeoutMs: 10_000, startTimeoutMs: 300 });
    await using _ = r.registry;
    const failed = await r.cell('1');
    expect(resultText(failed)).toBe(
      'The python kernel could not be started, so nothing was run: Could not start the python kernel "python3": the Jupyter server did not start the python3 kernel within 300 ms',
    );
    expect(jupyter.deleted).toEqual([]);
    await vi.waitFor(() => expect(jupyter.deleted).toEqual(['/api/kernels/late1']), { timeout: 10_000, interval: 100 });
  });
});
