import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { envMarker, markedProcesses, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { stdioClient, textOf } from './mcp-client.js';
import { CLI } from './run-cli.js';

const PROJECT = {
  'tsconfig.json': '{}',
  'a.ts': 'export const answer: number = 42;\nexport function twice(n: number): number {\n  return n * 2;\n}\n',
  'pyproject.toml': '[project]\nname = "x"\n',
};

describe('agent-tools mcp over stdio (the SDK client spawning the real CLI)', () => {
  it('lists the tools with tier annotations, and plan mode lists only read-tier tools', async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    await using full = await stdioClient(['--cwd', dir.path, '--file-tools']);
    const tools = (await full.client.listTools()).tools;
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['lsp', 'lsp_rename', 'ast_grep', 'ast_edit', 'resolve', 'debug', 'eval', 'ask_user', 'read', 'write', 'edit']));
    const tier = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(tier['ast_grep']).toMatchObject({ readOnlyHint: true });
    expect(tier['ast_edit']).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tier['eval']).toMatchObject({ readOnlyHint: false, idempotentHint: false });

    await using plan = await stdioClient(['--cwd', dir.path, '--surface', 'plan']);
    const planNames = (await plan.client.listTools()).tools.map((t) => t.name);
    expect(planNames).toEqual(['lsp', 'ast_grep', 'ast_tree', 'ask_user']);
    await expect(plan.client.callTool({ name: 'eval', arguments: { code: '1', description: 'x' } })).rejects.toThrow(/Unknown tool "eval"/);
  });

  it('without --file-tools serves no read/write/edit; with them a write reports new diagnostics', { timeout: 90_000 }, async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    await using bare = await stdioClient(['--cwd', dir.path]);
    expect((await bare.client.listTools()).tools.map((t) => t.name)).not.toContain('write');
    await using link = await stdioClient(['--cwd', dir.path, '--file-tools']);
    const written = await link.client.callTool({ name: 'write', arguments: { path: 'b.ts', content: 'export const b: string = 1;\n' } });
    // A cold language server may answer after the write's wait: then the diagnostics come with a later result.
    let seen = textOf(written);
    for (let i = 0; i < 20 && !/not assignable to type 'string'/.test(seen); i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      seen = textOf(await link.client.callTool({ name: 'read', arguments: { path: 'a.ts', limit: 1 } }));
    }
    expect(seen).toMatch(/not assignable to type 'string'/);
  });

  it('asks ask_user through elicitation and answers with the choice', async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    await using link = await stdioClient(['--cwd', dir.path], { capabilities: { elicitation: {} } });
    link.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { q1: 'tabs' } }));
    const result = await link.client.callTool({ name: 'ask_user', arguments: { question: 'Indent?', options: [{ label: 'tabs' }, { label: 'spaces' }] } });
    expect(textOf(result)).toBe('The user chose "tabs".');
  });

  it('elicit approval: a denied eval does not run, an allowed one does', { timeout: 90_000 }, async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    await using link = await stdioClient(['--cwd', dir.path, '--approve', 'elicit'], { capabilities: { elicitation: {} } });
    const answers = ['Deny', 'Allow once'];
    link.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { q1: answers.shift() } }));
    const code = "open('ran.txt','w').write('1'); print(6*7)";
    const denied = await link.client.callTool({ name: 'eval', arguments: { code, description: 'write a marker file and print a number' } });
    expect(denied.isError).toBe(true);
    const allowed = await link.client.callTool({ name: 'eval', arguments: { code, description: 'write a marker file and print a number' } });
    expect(textOf(allowed)).toContain('42');
  });

  it('cancelling a running eval cell (notifications/cancelled) keeps the kernel and its state', { timeout: 90_000 }, async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    await using link = await stdioClient(['--cwd', dir.path, '--approve', 'yes']);
    const cell = (code: string) => ({ name: 'eval', arguments: { code, description: 'run a small python statement here' } });
    expect(textOf(await link.client.callTool(cell('kept = 41\nprint(kept)')))).toContain('41');
    const controller = new AbortController();
    // Uninterrupted, the cell would end after 60 s by writing a marker, and the next cell would wait for it.
    const long = link.client.callTool(cell("import time\nfor _ in range(600):\n    time.sleep(0.1)\nopen('finished.txt', 'w').write('1')"), undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('enough'),
    });
    setTimeout(() => controller.abort('enough'), 3000).unref();
    await expect(long).rejects.toThrow();
    expect(textOf(await link.client.callTool(cell('print(kept + 1)')))).toContain('42');
    expect(existsSync(dir.join('finished.txt'))).toBe(false);
  });

  it('a cancelled debug launch leaves no process of the program, and no session', { timeout: 90_000 }, async () => {
    await using dir = tempDir({ ...PROJECT, 'slow.py': 'import time\nprint("started", flush=True)\ntime.sleep(600)\n' }, 'agent-tools-mcp-');
    const marker = envMarker();
    await using link = await stdioClient(['--cwd', dir.path, '--approve', 'yes'], { env: marker.env });
    const controller = new AbortController();
    // Once started, the launch reports that it waits for a breakpoint that never comes; that report cancels it.
    const launch = link.client.callTool({ name: 'debug', arguments: { action: 'launch', program: 'slow.py' } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        if (/still running/.test(p.message ?? '')) controller.abort('enough');
      },
    });
    await expect(launch).rejects.toThrow();
    const program = () => markedProcesses(marker).filter((p) => p.command.endsWith('slow.py'));
    expect(await waitUntil(() => program().length === 0, 10_000).then(() => [], () => program())).toEqual([]);
    const status = await link.client.callTool({ name: 'debug', arguments: { action: 'status' } });
    expect(textOf(status)).toMatch(/^No debug session is running/);
  });

  it('answers a large result whole to a slow reader before exiting at end of input', async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    writeFileSync(dir.join('big.txt'), `${'x'.repeat(200)}\n`.repeat(5000));
    const server = spawn(process.execPath, [CLI, 'mcp', '--cwd', dir.path, '--file-tools'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read', arguments: { path: 'big.txt', limit: 5000 } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    ];
    server.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
    // Nobody reads for a while: the answers (about 1 MB) wait in the pipe and in the server's buffer.
    server.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const chunks: Buffer[] = [];
    server.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    server.stdout.resume();
    const code = await new Promise<number | null>((resolve) => server.on('close', resolve));
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    const answers = lines.map((line) => JSON.parse(line) as { id: number; result: { content?: { text: string }[] } });
    answers.sort((a, b) => a.id - b.id);
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers[1]?.result.content?.[0]?.text.split('\n').length).toBeGreaterThan(5000);
    expect(code).toBe(0);
  });

  it('survives a malformed message and answers the next request', async () => {
    const server = spawn(process.execPath, [CLI, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    server.stdin.write('this is not json\n');
    server.stdin.write('{"jsonrpc":"2.0","id":"x","method":42}\n');
    server.stdin.end(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    const code = await new Promise<number | null>((resolve) => server.on('close', resolve));
    expect(JSON.parse(out.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ id: 1, result: { serverInfo: { name: 'agent-tools' } } });
    expect(code).toBe(0);
  });
});

describe('nothing outlives an MCP session (checked through /proc)', () => {
  async function startEverything(link: Awaited<ReturnType<typeof stdioClient>>, marker: ReturnType<typeof envMarker>) {
    const hover = await link.client.callTool({ name: 'lsp', arguments: { action: 'hover', file: 'a.ts', line: 2, symbol: 'twice' } });
    expect(hover.isError, textOf(hover)).toBeFalsy();
    const cell = await link.client.callTool({ name: 'eval', arguments: { code: '!sleep 611 &\nprint("started")', description: 'start a background sleep and say so' } });
    expect(textOf(cell)).toContain('started');
    await waitUntil(() => markedProcesses(marker).some((p) => p.command === 'sleep 611'), 20_000);
    expect(markedProcesses(marker).some((p) => p.command.includes('tsserver'))).toBe(true);
  }

  it('session end (the client closes) leaves no process', { timeout: 120_000 }, async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    const marker = envMarker();
    const link = await stdioClient(['--cwd', dir.path, '--approve', 'yes'], { env: marker.env });
    await startEverything(link, marker);
    await link.client.close();
    expect(await waitForNoMarked(marker, 10_000)).toEqual([]);
  });

  it('a client killed with SIGKILL leaves no process', { timeout: 120_000 }, async () => {
    await using dir = tempDir(PROJECT, 'agent-tools-mcp-');
    const marker = envMarker();
    // The client is a process of its own, so it can be killed without warning.
    const script = `
      import { Client } from '@modelcontextprotocol/sdk/client/index.js';
      import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
      const transport = new StdioClientTransport({ command: process.execPath, args: ${JSON.stringify([CLI, 'mcp', '--cwd', dir.path, '--approve', 'yes'])}, env: process.env });
      const client = new Client({ name: 'doomed', version: '1' });
      await client.connect(transport);
      await client.callTool({ name: 'lsp', arguments: { action: 'hover', file: 'a.ts', line: 2, symbol: 'twice' } });
      await client.callTool({ name: 'eval', arguments: { code: '!sleep 612 &\\nprint(1)', description: 'start a background sleep and say so' } });
      console.log('ready');
      setInterval(() => {}, 1000);
    `;
    const client = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...marker.env, AGENT_TOOLS_DEBUG: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    client.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await waitUntil(() => out.includes('ready'), 90_000);
      await waitUntil(() => markedProcesses(marker).some((p) => p.command === 'sleep 612'), 20_000);
      expect(markedProcesses(marker).some((p) => p.command.includes('ipykernel'))).toBe(true);
    } finally {
      client.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 10_000)).toEqual([]);
  });
});
