import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';

// Over stdio, standard output is the MCP stream. A library of ours that logs with console (@jupyterlab/services says
// "Starting WebSocket: …" with console.debug when it reopens a kernel's socket) must not write there. The noise is
// injected with --import: once the server has answered its first message, every console method that prints on
// standard output is called.
const NOISE = `
const write = process.stdout.write.bind(process.stdout);
let armed = false;
process.stdout.write = (...args) => {
  if (!armed) {
    armed = true;
    setImmediate(() => {
      console.log('noise-log');
      console.info('noise-info');
      console.debug('noise-debug');
      console.dir({ value: 'noise-dir' });
      console.table([{ value: 'noise-table' }]);
    });
  }
  return write(...args);
};
`;

describe('agent-tools mcp over stdio keeps standard output for the protocol', () => {
  it("sends what console prints (a library's log lines) to standard error", async () => {
    await using dir = tempDir({ 'noise.mjs': NOISE }, 'agent-tools-mcp-noise-');
    const child = spawn(process.execPath, ['--import', dir.join('noise.mjs'), CLI, 'mcp', '--cwd', dir.path], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    let listed = false;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no tools/list answer; stderr: ${stderr.slice(0, 2000)}`)), 50_000);
      const look = () => {
        if (!listed && stdout.includes('"id":1')) {
          listed = true;
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        }
        // The noise is printed right after the first answer: by the second, it is on one stream or the other.
        if (stdout.includes('"id":2') && (stderr + stdout).includes('noise-table')) {
          clearTimeout(timer);
          resolve();
        } else setTimeout(look, 50);
      };
      look();
    });
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = stdout.split('\n').filter((line) => line.trim() !== '');
    for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
    expect(lines.map((line) => (JSON.parse(line) as { id?: number }).id)).toEqual([1, 2]);
    for (const word of ['noise-log', 'noise-info', 'noise-debug', 'noise-dir', 'noise-table']) expect(stderr).toContain(word);
  });
});

// The same for `call --json`, whose standard output a script parses: the noise comes as the process exits, after the
// answer was written.
const EXIT_NOISE = `process.on('exit', () => { console.log('noise-at-exit'); console.info('noise-info-at-exit'); });`;

describe('agent-tools call --json keeps standard output for the answer', () => {
  it("sends what console prints to standard error, so the answer parses", async () => {
    await using dir = tempDir({ 'noise.mjs': EXIT_NOISE }, 'agent-tools-call-noise-');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', dir.join('noise.mjs'), CLI, 'call', 'ast_tree', '{"code":"x","language":"javascript"}', '--json', '--cwd', dir.path],
      { timeout: 60_000 },
    );
    expect((JSON.parse(stdout) as { isError: boolean }).isError).toBe(false);
    expect(stderr).toContain('noise-at-exit');
    expect(stderr).toContain('noise-info-at-exit');
  });
});
