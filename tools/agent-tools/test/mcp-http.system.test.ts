import { type ChildProcess, spawn } from 'node:child_process';
import { envMarker, markedProcesses, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { textOf } from './mcp-client.js';
import { CLI } from './run-cli.js';

/** Starts `agent-tools mcp --http` on a free port and resolves with its endpoint once it listens. */
async function startServer(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ url: URL; server: ChildProcess }> {
  const server = spawn(process.execPath, [CLI, 'mcp', '--http', '--port', '0', ...args], { env: { ...env, AGENT_TOOLS_DEBUG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  await waitUntil(() => /serving (\S+)/.test(err), 30_000);
  return { url: new URL((/serving (\S+)/.exec(err) as RegExpExecArray)[1] as string), server };
}

async function connect(url: URL) {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'http-cli-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const cell = (code: string) => ({ name: 'eval', arguments: { code, description: 'run a small python statement here' } });

describe('agent-tools mcp --http (the real CLI; processes checked through /proc)', () => {
  it('isolates the kernels of two sessions, and DELETE ends one session\'s processes only; SIGTERM ends the rest', { timeout: 120_000 }, async () => {
    await using dir = tempDir({ 'pyproject.toml': '[project]\nname = "x"\n' }, 'agent-tools-mcp-http-');
    const marker = envMarker();
    const { url, server } = await startServer(['--cwd', dir.path, '--approve', 'yes'], marker.env);
    try {
      const a = await connect(url);
      const b = await connect(url);
      expect(textOf(await a.client.callTool(cell('secret = 41 + 1\nprint(secret)')))).toContain('42');
      const other = await b.client.callTool(cell('print(secret)'));
      expect(textOf(other)).toContain('NameError');
      await a.client.callTool(cell('!sleep 621 &'));
      await b.client.callTool(cell('!sleep 622 &'));
      const running = () => markedProcesses(marker).map((p) => p.command);
      await waitUntil(() => running().includes('sleep 621') && running().includes('sleep 622'), 20_000);

      await a.transport.terminateSession();
      await waitUntil(() => !running().includes('sleep 621'), 10_000);
      expect(running()).toContain('sleep 622');
      expect(textOf(await b.client.callTool(cell('print("still here")')))).toContain('still here');
      await a.client.close();
    } finally {
      server.kill('SIGTERM');
    }
    expect(await waitForNoMarked(marker, 15_000)).toEqual([]);
  });

  it('a server killed with SIGKILL leaves no process of its sessions', { timeout: 120_000 }, async () => {
    await using dir = tempDir({ 'pyproject.toml': '[project]\nname = "x"\n' }, 'agent-tools-mcp-http-');
    const marker = envMarker();
    const { url, server } = await startServer(['--cwd', dir.path, '--approve', 'yes'], marker.env);
    try {
      const a = await connect(url);
      await a.client.callTool(cell('!sleep 623 &'));
      await waitUntil(() => markedProcesses(marker).some((p) => p.command === 'sleep 623'), 20_000);
    } finally {
      server.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 10_000)).toEqual([]);
  });

  it('refuses bad options with a usage error', async () => {
    const { run } = await import('./run-cli.js');
    const bad = await run(CLI, ['mcp', '--approve', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--approve maybe: use client, elicit, yes.');
    const stdioOnly = await run(CLI, ['mcp', '--port', '9']);
    expect(stdioOnly.stderr).toContain('--port applies to --http only.');
  });
});
