import { execFileSync, spawn } from 'node:child_process';
import { waitDead } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig, freePort } from './helpers.js';
import { GO_APP, GO_MOD, lineOf } from './programs.js';

describe('debug with delve on a Go module (real adapter, DAP over TCP)', () => {
  it('launches in the module folder, stops at a breakpoint, inspects a map, steps, and exits with the code', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'svc/go.mod': GO_MOD, 'svc/main.go': GO_APP });
    const call = lineOf(GO_APP, '@go-call');
    const set = await rig.call({ action: 'breakpoints', file: 'svc/main.go', lines: [call, 400] });
    expect(set.text).toContain('pending');

    const launched = await rig.call({ action: 'launch', program: 'svc/main.go' });
    expect(launched.isError).toBe(false);
    expect(launched.text).toMatch(/with delve \(\S+dlv dap \(TCP/);
    expect(launched.text).toContain('in svc.');
    expect(launched.text).toContain(`line ${call}: verified`);
    expect(launched.text).toMatch(/line 400: NOT verified — could not find statement/);
    expect(launched.text).toContain(`Stopped at a breakpoint in main.main at svc/main.go:${call}`);
    expect(launched.text).toContain('p (main.point) = main.point {X: 3, Y: 4}');
    expect(launched.text).toContain('start 3 1');
    const pids = rig.pids();
    expect(pids.length).toBeGreaterThanOrEqual(2);

    const snapshot = launched.structured.snapshot;
    const stock = snapshot.locals.variables.items.find((v: { name: string }) => v.name === 'stock');
    const entries = await rig.call({ action: 'variables', reference: stock.reference });
    const a = entries.structured.items.find((v: { name: string }) => v.name === '"a"');
    const slice = await rig.call({ action: 'variables', reference: a.reference });
    expect(slice.text).toContain('[1] (int) = 2');

    const stack = await rig.call({ action: 'stack' });
    expect(stack.structured.frames[0]).toMatchObject({ name: 'main.main', line: call });
    const scopes = await rig.call({ action: 'scopes', frame_id: stack.structured.frames[0].id });
    expect(scopes.text).toMatch(/Locals: reference \d+/);
    const evaluated = await rig.call({ action: 'evaluate', expression: 'p.X + p.Y' });
    expect(evaluated.text).toContain('(int) = 7');

    const stepIn = await rig.call({ action: 'step_in' });
    expect(stepIn.text).toContain('in main.twice at svc/main.go');
    const inner = await rig.call({ action: 'stack' });
    const caller = inner.structured.frames[1];
    const inCaller = await rig.call({ action: 'evaluate', expression: 'len(stock)', frame_id: caller.id });
    expect(inCaller.text).toContain('= 1');
    const over = await rig.call({ action: 'step_over' });
    expect(over.text).toContain(`svc/main.go:${lineOf(GO_APP, '@go-twice')}`);
    const out = await rig.call({ action: 'step_out' });
    expect(out.text).toContain('in main.main at svc/main.go');

    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 3.');
    expect(done.text).toContain('warning 8');
    expect(await waitDead(pids)).toEqual([]);
  });

  it('terminate ends a stopped session and kills dlv and the program', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'go.mod': GO_MOD, 'main.go': GO_APP });
    await rig.call({ action: 'breakpoints', file: 'main.go', lines: [lineOf(GO_APP, '@go-twice')] });
    const launched = await rig.call({ action: 'launch', program: '.' });
    expect(launched.text).toContain('Stopped at a breakpoint in main.twice at main.go');
    const pids = rig.pids();
    const ended = await rig.call({ action: 'terminate' });
    expect(ended.text).toContain('Terminated delve on .');
    expect(await waitDead(pids)).toEqual([]);
  });

  it('attaches to a headless delve server (connect), stops at a breakpoint, and sees the program end', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'go.mod': GO_MOD, 'main.go': GO_APP });
    execFileSync('go', ['build', '-gcflags=all=-N -l', '-o', rig.dir.join('app'), '.'], { cwd: rig.dir.path });
    const port = await freePort();
    const server = spawn('dlv', ['exec', '--headless', `--listen=127.0.0.1:${port}`, '--accept-multiclient', rig.dir.join('app')], {
      cwd: rig.dir.path,
      stdio: 'ignore',
    });
    try {
      const call = lineOf(GO_APP, '@go-call');
      await rig.call({ action: 'breakpoints', file: 'main.go', lines: [call] });
      const attached = await rig.call({ action: 'attach', port });
      expect(attached.text).toContain(`Attached delve to the debuggee on 127.0.0.1:${port}`);
      expect(attached.text).toContain(`Stopped at a breakpoint in main.main at main.go:${call}`);
      const done = await rig.call({ action: 'continue' });
      expect(done.structured.state).toBe('ended');
    } finally {
      server.kill('SIGKILL');
    }
  });
});
