import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKernelSpecs, type JupyterEnvironment } from '../src/index.js';
import { evalRun } from './helpers.js';

// A second, stock Jupyter server stands in for a conversation's isolated environment: eval must run that
// conversation's kernels there, never start or stop the environment, and leave no kernel behind on it.
const envDir = tempDir({ 'inside-env.txt': 'env\n' }, 'agent-tools-eval-env-');
const runDir = tempDir({}, 'agent-tools-eval-envrun-');
let server: ChildProcess;
let environment: JupyterEnvironment;

beforeAll(async () => {
  const port = await freePort();
  const token = randomBytes(16).toString('hex');
  const data = envDir.join('.jupyter-data');
  mkdirSync(data, { recursive: true });
  server = spawn(
    '/usr/bin/python3',
    ['-m', 'jupyter_server', '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--ServerApp.port_retries=0', '--ServerApp.open_browser=False', `--ServerApp.root_dir=${envDir.path}`, ...(process.getuid?.() === 0 ? ['--allow-root'] : [])],
    {
      env: { ...process.env, JUPYTER_TOKEN: token, JUPYTER_DATA_DIR: data, JUPYTER_RUNTIME_DIR: envDir.join('.jupyter-runtime'), JUPYTER_CONFIG_DIR: envDir.join('.jupyter-config'), PYDEVD_DISABLE_FILE_VALIDATION: '1' },
      stdio: 'ignore',
    },
  );
  environment = { baseUrl: `http://127.0.0.1:${port}/`, token };
  for (let i = 0; i < 200 && !(await kernelsOnEnvironment().catch(() => undefined)); i++) await new Promise((r) => setTimeout(r, 100));
});
afterAll(async () => {
  server.kill('SIGTERM');
  await waitForNoProcesses(envDir.path, 10_000);
  envDir.remove();
  runDir.remove();
});

async function kernelsOnEnvironment(): Promise<{ id: string; name: string }[]> {
  const response = await fetch(`${environment.baseUrl}api/kernels`, { headers: { Authorization: `token ${environment.token}` } });
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as { id: string; name: string }[];
}

describe('a conversation with an isolated environment', () => {
  it("runs Python in the environment's Jupyter server and never starts a local one", async () => {
    const run = evalRun(runDir.path, { conversationId: 'isolated', factory: { environment: (id) => (id === 'isolated' ? environment : undefined) } });
    const answer = await run.cell('import os\nprint(open("inside-env.txt").read().strip())\nos.getcwd()');
    expect(answer.result.isError).toBe(false);
    expect(answer.text).toBe(`env\nOut[1]: '${realpathSync(envDir.path)}'`);
    expect(answer.structured.kernel?.where).toBe('environment');
    const remote = await kernelsOnEnvironment();
    expect(remote.map((k) => k.id)).toEqual([answer.structured.kernel?.id]);
    // The bridge rides the environment kernel's stdin channel just the same.
    expect((await run.cell('tool("read", {"path": "a"})')).text).toMatch(/Out\[2\]: 'contents of a'$/);
    expect(existsSync(run.factory.stateDir)).toBe(false);
    expect(processesMatching(run.factory.stateDir)).toEqual([]);
    await run.registry.dispose();
    expect(await kernelsOnEnvironment()).toEqual([]);
    expect(server.exitCode).toBeNull();
  });

  it('says clearly when the environment has no JavaScript kernel', async () => {
    const run = evalRun(runDir.path, { factory: { environment: () => environment } });
    const answer = await run.cell('1 + 1', { language: 'javascript' });
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toMatch(/^The javascript kernel could not be started, so nothing was run: The isolated environment's Jupyter server has no javascript kernel \(it has: python3\)\. Install eval's kernel specs there with installKernelSpecs\(\)/);
    await run.registry.dispose();
  });

  it("runs JavaScript there once eval's kernel specs are installed, and keeps other conversations local", async () => {
    installKernelSpecs(envDir.join('.jupyter-data'));
    const run = evalRun(runDir.path, { conversationId: 'isolated', factory: { environment: (id) => (id === 'isolated' ? environment : undefined) } });
    const remote = await run.cell('process.cwd()', { language: 'javascript' });
    expect(remote.text).toBe(`Out[1]: '${realpathSync(envDir.path)}'`);
    expect((await kernelsOnEnvironment()).map((k) => k.name)).toEqual(['agent-tools-javascript']);
    const local = await run.registry.call('eval', { code: 'process.cwd()', description: 'print the working directory of the kernel', language: 'javascript' }, { conversationId: 'on-host' });
    expect(JSON.stringify(local.content)).toContain(realpathSync(runDir.path));
    expect(local.structured).toMatchObject({ kernel: { where: 'local' } });
    await run.registry.dispose();
    expect(await kernelsOnEnvironment()).toEqual([]);
    expect(await waitForNoProcesses(run.factory.stateDir, 10_000)).toEqual([]);
  });

  it('reports an environment whose server does not answer', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}/`;
    const run = evalRun(runDir.path, { factory: { environment: () => ({ baseUrl: nobody, token: 'x' }), requestTimeoutMs: 2000 } });
    const answer = await run.cell('1');
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toMatch(/^The python kernel could not be started, so nothing was run: The isolated environment's Jupyter server at http:\/\/127\.0\.0\.1:\d+\/ did not answer/);
    await run.registry.dispose();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
