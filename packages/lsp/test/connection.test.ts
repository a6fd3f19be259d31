import { PassThrough } from 'node:stream';
import { encodeContentLength } from '@agent-tools/core/process';
import { waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { LspError } from '../src/errors.js';
import { METHOD_NOT_FOUND, RpcConnection, RpcResponseError } from '../src/rpc/connection.js';

/** A connection over in-memory pipes: what the client writes, and a way to play the server. */
function wire() {
  const toClient = new PassThrough();
  const toServer = new PassThrough();
  const sent: Array<Record<string, unknown>> = [];
  let buffer = '';
  toServer.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (;;) {
      const match = /^Content-Length: (\d+)\r\n\r\n/.exec(buffer);
      if (!match) return;
      const end = match[0].length + Number(match[1]);
      if (buffer.length < end) return;
      sent.push(JSON.parse(buffer.slice(match[0].length, end)));
      buffer = buffer.slice(end);
    }
  });
  const notifications: Array<[string, unknown]> = [];
  const malformed: string[] = [];
  const connection = new RpcConnection({
    name: 'fake (root .)',
    input: toClient,
    output: toServer,
    onNotification: (method, params) => notifications.push([method, params]),
    onRequest: (method) => {
      if (method === 'workspace/configuration') return [{ a: 1 }];
      throw new RpcResponseError(METHOD_NOT_FOUND, `Unhandled method ${method}`);
    },
    onMalformed: (reason) => malformed.push(reason),
  });
  const serverSays = (message: object) => toClient.write(encodeContentLength(message));
  // Waits for what the pipes deliver a few ticks later (a fixed 20 ms sleep failed on a loaded machine).
  const settle = (check: () => boolean) => waitUntil(check, 5000);
  return { connection, sent, notifications, malformed, serverSays, settle, toClient };
}

describe('RpcConnection (vscode-jsonrpc behind core\'s bounded reader)', () => {
  it('answers requests, maps error codes, and routes $/progress to notifications', async () => {
    const w = wire();
    const hover = w.connection.requestRaw('textDocument/hover', { x: 1 }, { timeoutMs: 5000 });
    await w.settle(() => w.sent.length >= 1);
    const id = w.sent[0]?.['id'];
    w.serverSays({ jsonrpc: '2.0', id, result: { contents: 'hi' } });
    expect(await hover).toEqual({ contents: 'hi' });
    const missing = w.connection.requestRaw('callHierarchy/outgoingCalls', {}, { timeoutMs: 5000 });
    await w.settle(() => w.sent.length >= 2);
    w.serverSays({ jsonrpc: '2.0', id: w.sent[1]?.['id'], error: { code: -32601, message: 'method not found' } });
    await expect(missing).rejects.toMatchObject({ code: 'unsupported', detail: 'fake (root .) answered callHierarchy/outgoingCalls with an error: method not found' });
    w.serverSays({ jsonrpc: '2.0', method: '$/progress', params: { token: 't', value: { kind: 'begin', title: 'indexing' } } });
    w.serverSays({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'x' } });
    await w.settle(() => w.notifications.length >= 2);
    expect(w.notifications.map(([m]) => m)).toEqual(['$/progress', 'window/logMessage']);
  });

  it('a request that hangs times out naming the server and the method, and $/cancelRequest is sent', async () => {
    const w = wire();
    const hung = w.connection.requestRaw('textDocument/references', {}, { timeoutMs: 100 });
    await expect(hung).rejects.toMatchObject({ code: 'timeout', detail: 'fake (root .) did not answer textDocument/references within 100 ms.' });
    await w.settle(() => w.sent.some((m) => m['method'] === '$/cancelRequest'));
    expect(w.sent.find((m) => m['method'] === '$/cancelRequest')).toMatchObject({ params: { id: w.sent[0]?.['id'] } });
  });

  it('answers the server\'s requests, with an error for methods it does not handle', async () => {
    const w = wire();
    w.serverSays({ jsonrpc: '2.0', id: 7, method: 'workspace/configuration', params: { items: [{}] } });
    w.serverSays({ jsonrpc: '2.0', id: 8, method: 'x/unknown', params: {} });
    await w.settle(() => w.sent.length >= 2);
    expect(w.sent).toContainEqual({ jsonrpc: '2.0', id: 7, result: [{ a: 1 }] });
    expect(w.sent).toContainEqual({ jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'Unhandled method x/unknown' } });
  });

  it('counts what is not a message, keeps reading, and closing fails what is in flight with the reason', async () => {
    const w = wire();
    w.toClient.write('a log line on stdout\n');
    w.serverSays({ jsonrpc: '2.0' });
    const pending = w.connection.requestRaw('textDocument/hover', {}, { timeoutMs: 5000 });
    await w.settle(() => w.malformed.length >= 2);
    expect(w.malformed.length).toBeGreaterThanOrEqual(2);
    expect(w.malformed).toContain('a message is neither a request, a response nor a notification');
    w.connection.close(new LspError('server_exited', 'fake (root .) stopped.'));
    await expect(pending).rejects.toMatchObject({ code: 'server_exited', detail: 'fake (root .) stopped.' });
    await expect(w.connection.requestRaw('x', {}, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'server_exited' });
  });
});
