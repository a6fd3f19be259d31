import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type AnyToolDefinition, createRegistry } from '@agent-tools/core';
import { serveRegistry } from '@agent-tools/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { measure, type Timing, timingTable } from './measure.js';

/**
 * mcp: what serving the registry over MCP costs.
 * - Start-up: spawn of `agent-tools mcp` to the answer of the first tools/list over stdio, side by side with
 *   `agent-tools list --json` (the same registry assembled and listed, printed and exited).
 * - Per call: the same `read` call (a 13-line file) made directly on a registry, through serveRegistry over an
 *   in-memory transport, and through the real CLI over stdio pipes. 200 calls per sample.
 * - Memory: the server process's resident set with 20 concurrent Streamable HTTP sessions (each listed its tools
 *   and made one call), against the same process with none.
 */
const require = createRequire(import.meta.url);
const harness = dirname(require.resolve('@agent-tools/harness/package.json'));
const CLI = join(harness, 'dist/cli.js');
const SAMPLE = join(harness, 'sample');
// The harness's own read tool, the one `agent-tools mcp --file-tools` serves.
const { fileTools } = (await import(join(harness, 'dist/file-tools/index.js'))) as { fileTools: (cwd: string) => AnyToolDefinition[] };
const CALLS = 200;
const READ = { path: 'src/report.ts' };
const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>;

async function stdioClient(args: readonly string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--cwd', SAMPLE, ...args], env, stderr: 'ignore' }));
  return client;
}

function listJson(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'list', '--json', '--cwd', SAMPLE], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? '';
  return Number(/(\d+)/.exec(line)?.[1] ?? 0);
}

const timings: Timing[] = [];

timings.push(
  await measure('reference: spawn `agent-tools list --json` until it exits', listJson, 5),
  await measure('spawn `agent-tools mcp` until the first tools/list answer (stdio)', async () => {
    const client = await stdioClient([]);
    await client.listTools();
    await client.close();
  }, 5),
);

const direct = createRegistry({ resources: { cwd: SAMPLE }, tools: fileTools(SAMPLE) });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
const served = await serveRegistry(serverSide, createRegistry({ resources: { cwd: SAMPLE }, tools: fileTools(SAMPLE) }));
const memoryClient = new Client({ name: 'bench', version: '1' });
await memoryClient.connect(clientSide);
const stdio = await stdioClient(['--file-tools']);
timings.push(
  await measure(`reference: ${CALLS} direct registry.call of read`, async () => {
    for (let i = 0; i < CALLS; i++) await direct.call('read', READ);
  }),
  await measure(`${CALLS} tools/call of read through serveRegistry (in-memory transport)`, async () => {
    for (let i = 0; i < CALLS; i++) await memoryClient.callTool({ name: 'read', arguments: READ });
  }),
  await measure(`${CALLS} tools/call of read through \`agent-tools mcp\` (stdio pipes, another process)`, async () => {
    for (let i = 0; i < CALLS; i++) await stdio.callTool({ name: 'read', arguments: READ });
  }),
);
await Promise.all([memoryClient.close(), stdio.close(), served.closed, direct.dispose()]);
console.log(timingTable(timings));
const [reference, memory, piped] = timings.slice(2).map((t) => t.medianMs / CALLS) as [number, number, number];
console.log(
  `\nPer call (median sample / ${CALLS}): direct ${(reference * 1000).toFixed(0)} µs, in-memory MCP +${((memory - reference) * 1000).toFixed(0)} µs, stdio MCP +${((piped - reference) * 1000).toFixed(0)} µs.`,
);

// Memory: one server process, 0 then 20 sessions.
const server = spawn(process.execPath, [CLI, 'mcp', '--http', '--port', '0', '--cwd', SAMPLE, '--file-tools'], { stdio: ['ignore', 'ignore', 'pipe'] });
let banner = '';
server.stderr.on('data', (chunk: Buffer) => {
  banner += chunk.toString();
});
try {
  while (!/serving (\S+)/.test(banner)) await new Promise((resolve) => setTimeout(resolve, 50));
  const url = new URL((/serving (\S+)/.exec(banner) as RegExpExecArray)[1] as string);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = rssKb(server.pid as number);
  const clients: Client[] = [];
  for (let i = 0; i < 20; i++) {
    const client = new Client({ name: `bench-${i}`, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.listTools();
    await client.callTool({ name: 'read', arguments: READ });
    clients.push(client);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const loaded = rssKb(server.pid as number);
  console.log(
    `\nHTTP server resident set: ${(idle / 1024).toFixed(1)} MiB with no session, ${(loaded / 1024).toFixed(1)} MiB with 20 sessions: ${((loaded - idle) / 20 / 1024).toFixed(2)} MiB per session (language servers, kernels and adapters start only when a call needs them, and are not counted).`,
  );
  await Promise.all(clients.map((c) => c.close()));
} finally {
  server.kill('SIGTERM');
}
