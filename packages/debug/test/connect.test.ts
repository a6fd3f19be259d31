import { createServer, type Server } from 'node:net';
import { isAgentToolsError } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { connectToServer } from '../src/process/adapter-process.js';
import { freePort } from './helpers.js';

function listen(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.on('error', () => undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('attach: connecting to a debug server (real sockets)', () => {
  it('retries a refused connection until the server listens', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const late = new Promise<Server>((resolve) => setTimeout(() => resolve(listen(port)), 400));
    const adapter = await connectToServer('probe', port, 1000, 10_000);
    const server = await late;
    try {
      expect(adapter.pid).toBeUndefined();
    } finally {
      await adapter.kill(0);
      server.close();
    }
  });

  it('gives up after its budget with an adapter_start_failed error that names the refusal', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await connectToServer('probe', port, 1000, 300).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(isAgentToolsError(error, 'debug', 'adapter_start_failed')).toBe(true);
    expect((error as Error).message).toMatch(/Could not connect to the probe debug server on 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
    expect(((error as Error).cause as NodeJS.ErrnoException | undefined)?.code).toBe('ECONNREFUSED');
  });
});
