import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createRegistry, defineTool, type Registry, textResult } from '@agent-tools/core';
import { tempDir, unhandledRejections } from '@agent-tools/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type ClientCapabilities, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type HttpServerOptions, type McpSessionContext, serveHttp, sessionDirectory } from '../src/index.js';
import { newTrace, sessionRegistry, type Trace } from './fixture.js';

const dir = tempDir({}, 'agent-tools-mcp-http-');
afterAll(() => dir.remove());

/** A registry per session with a memory of its own, so one session can look for another's state. */
function isolated(traces: Trace[]) {
  return (session: McpSessionContext): Registry => {
    const trace = newTrace();
    traces.push(trace);
    const memory: string[] = [];
    const base = sessionRegistry(dir.path, trace)(session);
    const remember = defineTool({
      name: 'remember',
      tier: 'read',
      description: 'Remembers a word; answers every word this session remembered.',
      parameters: z.object({ word: z.string().optional() }),
      parallelSafe: true,
      execute: ({ word }) => {
        if (word) memory.push(word);
        return textResult(memory.join(',') || '(nothing)');
      },
    });
    return createRegistry({
      resources: { questionPort: session.questionPort, targetSpace: session.targetSpace, base },
      tools: [...base.tools(), remember],
      approve: session.approve,
      progressIntervalMs: 10,
    });
  };
}

async function client(url: URL, capabilities: ClientCapabilities = {}, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const c = new Client({ name: 'http-test', version: '1.0.0' }, { capabilities });
  await c.connect(transport);
  return { client: c, transport };
}

const text = (result: object): string => ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

async function server(traces: Trace[], options: HttpServerOptions = {}) {
  return serveHttp(isolated(traces), { port: 0, ...options });
}

describe('Streamable HTTP: one run per session', () => {
  it('keeps two concurrent sessions apart, and both run at once', async () => {
    const traces: Trace[] = [];
    await using http = await server(traces);
    const a = await client(http.url);
    const b = await client(http.url);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    await a.client.callTool({ name: 'remember', arguments: { word: 'alpha' } });
    await b.client.callTool({ name: 'remember', arguments: { word: 'beta' } });
    expect(text(await a.client.callTool({ name: 'remember', arguments: {} }))).toBe('alpha');
    expect(text(await b.client.callTool({ name: 'remember', arguments: {} }))).toBe('beta');
    // slow is serialized within a run; two runs do not wait for each other.
    const both = await Promise.all([a, b].map((s) => s.client.callTool({ name: 'slow', arguments: { steps: 3 } })));
    expect(both.map(text)).toEqual(['counted to 3', 'counted to 3']);
    expect(http.sessions).toBe(2);
    await a.client.close();
    await b.client.close();
  });

  it('ends a session on DELETE: its run is disposed and its id is then unknown (404)', async () => {
    const traces: Trace[] = [];
    await using http = await server(traces);
    const a = await client(http.url);
    await a.client.listTools();
    const id = a.transport.sessionId as string;
    await a.transport.terminateSession();
    await expect.poll(() => traces[0]?.disposed).toBe(1);
    expect(http.sessions).toBe(0);
    const late = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(late.status).toBe(404);
    await a.client.close();
  });

  it('ends a session after the idle timeout, not while a call is open', async () => {
    const traces: Trace[] = [];
    await using http = await server(traces, { idleTimeoutMs: 400 });
    const a = await client(http.url);
    const long = await a.client.callTool({ name: 'slow', arguments: { steps: 25 } }); // ~750 ms, longer than the timeout
    expect(text(long)).toBe('counted to 25');
    expect(traces[0]?.disposed).toBe(0);
    await expect.poll(() => traces[0]?.disposed, { timeout: 5000 }).toBe(1);
    expect(http.sessions).toBe(0);
    await a.client.close();
  });

  it('a session whose close fails at the idle timeout tells onError, not the process (injected: the transport close rejects)', async () => {
    using unhandled = unhandledRejections();
    const failure = new Error('the transport could not close');
    const close = vi.spyOn(StreamableHTTPServerTransport.prototype, 'close').mockRejectedValueOnce(failure);
    try {
      const errors: unknown[] = [];
      await using http = await server([], { idleTimeoutMs: 200, onError: (error) => void errors.push(error) });
      const a = await client(http.url);
      await a.client.listTools();
      await expect.poll(() => errors, { timeout: 5000 }).toEqual([failure]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled.seen).toEqual([]);
      await a.client.close();
    } finally {
      close.mockRestore();
    }
  });

  it('a client that disconnects mid-call does not hurt the server; its session ends at the idle timeout', async () => {
    const traces: Trace[] = [];
    await using http = await server(traces, { idleTimeoutMs: 500 });
    const gone = await client(http.url);
    const call = gone.client.callTool({ name: 'slow', arguments: { steps: 10 } }).catch(() => 'dropped');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await gone.transport.close(); // aborts the open request: the connection goes, no DELETE, no cancellation
    expect(await call).toBe('dropped');
    const other = await client(http.url);
    expect(text(await other.client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('echo: still here');
    await expect.poll(() => traces[0]?.disposed, { timeout: 5000 }).toBe(1);
    await other.client.close();
  });

  it('closing the server ends every session', async () => {
    const traces: Trace[] = [];
    const http = await server(traces);
    const a = await client(http.url);
    const b = await client(http.url);
    await Promise.all([a.client.listTools(), b.client.listTools()]);
    await http.close();
    expect(traces.map((t) => t.disposed)).toEqual([1, 1]);
  });

  it('asks ask_user through elicitation and sends progress over the request stream', async () => {
    await using http = await server([]);
    const a = await client(http.url, { elicitation: {} });
    a.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { q1: 'yes' } }));
    const asked = await a.client.callTool({ name: 'ask_user', arguments: { question: 'Go?', options: [{ label: 'yes' }, { label: 'no' }] } });
    expect(text(asked)).toBe('The user chose "yes".');
    const seen: number[] = [];
    await a.client.callTool({ name: 'slow', arguments: { steps: 4 } }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(seen.length).toBeGreaterThan(0);
    await a.client.close();
  });

  it('answers a request storm across sessions without losing one', async () => {
    await using http = await server([]);
    const sessions = await Promise.all(Array.from({ length: 4 }, () => client(http.url)));
    const calls = sessions.flatMap((s, i) =>
      Array.from({ length: 25 }, (_, j) => s.client.callTool({ name: 'echo', arguments: { text: `${i}-${j}` } })),
    );
    const results = await Promise.all(calls);
    expect(results.map(text)).toEqual(sessions.flatMap((_, i) => Array.from({ length: 25 }, (_, j) => `echo: ${i}-${j}`)));
    await Promise.all(sessions.map((s) => s.client.close()));
  });
});

describe('Streamable HTTP: who may talk to it', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const post = (url: URL, headers: Record<string, string>, body: unknown = init) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('refuses a foreign Origin and a rebound Host with 403 (DNS rebinding)', async () => {
    await using http = await server([]);
    expect((await post(http.url, { origin: 'https://evil.example' })).status).toBe(403);
    const rebound = new URL(http.url);
    // fetch will not forge Host; node:http can.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(rebound, { method: 'POST', headers: { host: `evil.example:${rebound.port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    expect(status).toBe(403);
    const local = await post(http.url, { origin: `http://localhost:${http.url.port}` });
    expect(local.status).toBe(200);
  });

  it('wants the bearer token when one is set', async () => {
    await using http = await server([], { token: 's3cret' });
    const none = await post(http.url, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(http.url, { authorization: 'Bearer wrong!' })).status).toBe(401);
    const a = await client(http.url, {}, { authorization: 'Bearer s3cret' });
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0);
    await a.client.close();
  });

  it('answers malformed JSON and a request without a session with JSON-RPC errors, and keeps serving', async () => {
    await using http = await server([]);
    const bad = await post(http.url, {}, '{not json');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: -32700 } });
    const orphan = await post(http.url, {}, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(orphan.status).toBe(400);
    const a = await client(http.url);
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0);
    await a.client.close();
  });
});

describe('session working directory from client roots', () => {
  const base = dir.join('allowed');
  mkdirSync(dir.join('allowed/project'), { recursive: true });
  mkdirSync(dir.join('elsewhere'), { recursive: true });

  async function rootedSession(root: string | undefined) {
    const seen: string[] = [];
    const http = await serveHttp(
      async (session) => {
        const cwd = await sessionDirectory(session, { cwd: dir.path, rootsBase: base });
        seen.push(cwd);
        return createRegistry({ resources: { cwd } });
      },
      { port: 0 },
    );
    const a = await client(http.url, root === undefined ? {} : { roots: {} });
    if (root !== undefined) a.client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(root).href }] }));
    const listed = await a.client.listTools().then(
      () => 'ok',
      (error: Error) => error.message,
    );
    await a.client.close();
    await http.close();
    return { seen, listed };
  }

  it('uses a root inside the allowed base', async () => {
    expect(await rootedSession(dir.join('allowed/project'))).toEqual({ seen: [dir.join('allowed/project')], listed: 'ok' });
  });

  it('uses the server directory for a client without roots', async () => {
    expect(await rootedSession(undefined)).toEqual({ seen: [dir.path], listed: 'ok' });
  });

  it('refuses a root outside the base with a clear error', async () => {
    const { seen, listed } = await rootedSession(dir.join('elsewhere'));
    expect(seen).toEqual([]);
    expect(listed).toContain(`is outside ${base}, the only directory this server accepts roots under`);
  });

  it('refuses a root that leaves the base through a symbolic link', async () => {
    const { symlinkSync } = await import('node:fs');
    symlinkSync(dir.join('elsewhere'), dir.join('allowed/link'));
    const { listed } = await rootedSession(dir.join('allowed/link'));
    expect(listed).toContain('is outside');
  });
});
