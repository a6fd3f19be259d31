import { type AddressInfo, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitDead, waitUntil } from '@agent-tools/test-utils';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { describe, expect, it } from 'vitest';
import { debugRig, fakeAdapter } from './helpers.js';

const files = { 'fake.toml': '', 'prog.fake': 'line 1\n' };

describe('faults (scriptable fake adapter: real adapters cannot crash or hang on cue)', () => {
  it('the fake adapter speaks DAP, as checked by @vscode/debugadapter-testsupport', { timeout: 20_000 }, async () => {
    const script = fileURLToPath(new URL('./fixtures/fake-adapter.mjs', import.meta.url));
    const client = new DebugClient(process.execPath, script, 'fake', { env: { ...process.env, FAKE_MODE: 'normal' } });
    await client.start();
    try {
      await client.initializeRequest();
      // DebugClient.launch() would send initialize again; send launch ourselves (see ENVIRONMENT.md).
      const initialized = client.waitForEvent('initialized');
      await client.launchRequest({ program: 'prog.fake' } as never);
      await initialized;
      const set = await client.setBreakpointsRequest({ source: { path: '/prog.fake' }, breakpoints: [{ line: 1 }, { line: 150 }] });
      expect(set.body.breakpoints.map((b) => b.verified)).toEqual([true, false]);
      const stopped = client.waitForEvent('stopped');
      await client.configurationDoneRequest();
      expect((await stopped).body.reason).toBe('breakpoint');
    } finally {
      await client.stop();
    }
  });

  it('an attach to a port that does not speak DAP fails, and the connection is closed, not left half-open', { timeout: 30_000 }, async () => {
    // The server never closes its side: a socket only ended by us stayed open and kept the harness from exiting.
    const sockets = new Set<Socket>();
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      // It keeps writing, so it learns when our side is gone for good (a reset), not only half-closed.
      const timer = setInterval(() => socket.write(' '), 100);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        sockets.delete(socket);
      });
      socket.write('Content-Length: 99999\r\n\r\n{');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      await using rig = debugRig({ 'pyproject.toml': '' }, { requestTimeoutMs: 700 });
      const attached = await rig.call({ action: 'attach', port, adapter: 'debugpy' });
      expect(attached.isError).toBe(true);
      expect(attached.text).toContain('did not answer "initialize" within 700 ms');
      await waitUntil(() => sockets.size === 0, 5000).catch(() => undefined);
      expect(sockets.size).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('a request the adapter never answers times out with a sentence, and the session stays usable', { timeout: 30_000 }, async () => {
    await using rig = debugRig(files, { adapters: [fakeAdapter('hang-on-threads')], requestTimeoutMs: 700 });
    await rig.call({ action: 'breakpoints', file: 'prog.fake', lines: [1] });
    const launched = await rig.call({ action: 'launch', program: 'prog.fake' });
    expect(launched.text).toContain('Stopped at a breakpoint in main');
    const threads = await rig.call({ action: 'threads' });
    expect(threads.isError).toBe(true);
    expect(threads.text).toBe('The fake adapter did not answer "threads" within 700 ms.');
    const stack = await rig.call({ action: 'stack' });
    expect(stack.isError).toBe(false);
    expect(stack.text).toContain('frame 7: main');
    const pids = rig.pids();
    expect(pids.length).toBe(1);
    await rig.call({ action: 'terminate' });
    expect(await waitDead(pids)).toEqual([]);
  });

  it('an adapter that crashes mid-session ends it, says how, and is gone', { timeout: 30_000 }, async () => {
    await using rig = debugRig(files, { adapters: [fakeAdapter('crash-on-continue')] });
    await rig.call({ action: 'breakpoints', file: 'prog.fake', lines: [1] });
    await rig.call({ action: 'launch', program: 'prog.fake' });
    const pids = rig.pids();
    const answer = await rig.call({ action: 'continue' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('The debug adapter died unexpectedly (the fake adapter exited with code 3; its last stderr: fake adapter: segmentation fault in continue)');
    expect(await waitDead(pids)).toEqual([]);
    const next = await rig.call({ action: 'variables', reference: 1 });
    expect(next.text).toContain('No debug session is running in this conversation. The last session: The debug adapter died unexpectedly');
  });

  it('an adapter that dies at start fails the launch with its stderr', { timeout: 30_000 }, async () => {
    await using rig = debugRig(files, { adapters: [fakeAdapter('exit-at-start')] });
    const answer = await rig.call({ action: 'launch', program: 'prog.fake' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('The fake adapter exited with code 4 while the session was starting.');
    expect(answer.text).toContain('fake adapter: cannot start (missing runtime)');
    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('The session failed to start');
  });

  it('a malformed message from the adapter ends the session cleanly', { timeout: 30_000 }, async () => {
    await using rig = debugRig(files, { adapters: [fakeAdapter('malformed')], waitMs: 3000 });
    const answer = await rig.call({ action: 'launch', program: 'prog.fake' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('sent a malformed message');
    expect(rig.pids()).toEqual([]);
  });

  it('reports the adapter\'s reason for an unverified breakpoint, and a run without breakpoints to its exit', { timeout: 30_000 }, async () => {
    await using rig = debugRig(files, { adapters: [fakeAdapter('normal')] });
    await rig.call({ action: 'breakpoints', file: 'prog.fake', lines: [150] });
    const launched = await rig.call({ action: 'launch', program: 'prog.fake' });
    expect(launched.text).toContain('line 150: NOT verified — line 150 is past the end of the file (the program will not stop here)');
    await rig.call({ action: 'breakpoints', file: 'prog.fake', lines: [] });
    await rig.call({ action: 'terminate' });
    const clean = await rig.call({ action: 'launch', program: 'prog.fake' });
    expect(clean.text).toContain('No breakpoints are set.');
    expect(clean.text).toContain('The program exited with code 0.');
    expect(clean.text).toContain('fake program started');
  });

  it('caps output in answers, says how much was cut, and output reads the newest part', { timeout: 30_000 }, async () => {
    await using rig = debugRig(files, { adapters: [fakeAdapter('loud')] });
    await rig.call({ action: 'breakpoints', file: 'prog.fake', lines: [1] });
    const launched = await rig.call({ action: 'launch', program: 'prog.fake' });
    expect(launched.text).toContain('Program output since the last answer (the newest 1980 of 9021 characters printed; call output for up to 4000):\n  | line 235 ');
    expect(launched.text).toContain('Stopped at a breakpoint in main (no source), thread 1.');
    expect(launched.text).toContain('line 300 ....................');
    expect(launched.text).not.toContain('line 001');
    const output = await rig.call({ action: 'output' });
    expect(output.text).toMatch(/^Program output \(the newest 3990 of 9021 characters printed\):\nline 168 /);
    expect(output.text.endsWith('line 300 ....................\n')).toBe(true);
    const again = await rig.call({ action: 'stack' });
    expect(again.text).not.toContain('Program output');
  });
});
