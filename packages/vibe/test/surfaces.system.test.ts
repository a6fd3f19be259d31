import { existsSync } from 'node:fs';
import { defineSurface, resultText } from '@agent-tools/core';
import { waitUntil } from '@agent-tools/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProcessRunnerOptions, processRunner, VibeError, WorkerList } from '../src/index.js';
import { fakeAgentRun, removeWhenIdle, type scripts } from './helpers.js';

const dirs: ReturnType<typeof scripts>[] = [];
afterEach(async () => {
  // Every test must leave nothing behind: no script of its directory still running.
  expect(await removeWhenIdle(dirs)).toEqual([]);
});

/**
 * A run whose workers are the fake agent CLI, working in a scratch directory: a brief line "write NAME" makes it
 * write the file, unless it was started with --read-only.
 */
function setup(runner: (agent: string) => Partial<ProcessRunnerOptions> = () => ({})) {
  const run = fakeAgentRun(dirs, (agent) => ({ command: ['node', agent, '-p', '{brief}'], ...runner(agent) }));
  return { ...run, pwned: () => existsSync(run.dir.join('PWNED.txt')) };
}

describe('the spawning surface travels with the worker', () => {
  it('the worker really writes when started from the default surface (so the refusals below mean something)', async () => {
    const s = setup();
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'write PWNED.txt', label: 'writer' });
    const waited = await s.registry.call('vibe_wait', { worker_id: 'w1' });
    expect(resultText(waited)).toContain('wrote PWNED.txt');
    expect(s.pwned()).toBe(true);
    expect(s.sessions()[0]?.env[0]).toMatchObject({ surface: 'default', tiers: 'read,write,exec' });
  });

  for (const surface of ['plan', 'subagent']) {
    it(`refuses vibe_spawn on the ${surface} surface without a read-only command: nothing starts, nothing is written`, async () => {
      const s = setup();
      await using _ = s.registry;
      const refused = await s.registry.call('vibe_spawn', { brief: 'write PWNED.txt', label: 'writer' }, { surface });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toBe(
        `A worker cannot start from the ${surface} surface (read only): a worker is another agent with tools of its own, and this harness has configured no way to hold one to what this surface allows, so it could change files or run commands from here. Continue with the tools this surface has, or ask the user to leave this mode. To allow workers here, the harness must give its worker runner a read-only command (the process runner's readOnlyCommand, such as the agent's own plan or read-only mode).`,
      );
      expect(refused.structured).toEqual({ error: 'surface' });
      expect(s.workerList.list()).toEqual([]);
      expect(s.sessions()).toEqual([]);
      expect(s.pwned()).toBe(false);
      // The other three stay available there.
      expect(resultText(await s.registry.call('vibe_list', {}, { surface }))).toBe('No workers yet. Start one with vibe_spawn.');
    });
  }

  it('runs the read-only command on plan: {surface} and AGENT_TOOLS_SURFACE / AGENT_TOOLS_TIERS reach it, and the write is refused', async () => {
    const r = setup((agent) => ({ readOnlyCommand: ['node', agent, '--read-only', '--mode={surface}', '-p', '{brief}'] }));
    const { registry, workerList } = r;
    await using _ = registry;
    const spawned = await registry.call('vibe_spawn', { brief: 'write PWNED.txt', label: 'planner' }, { surface: 'plan' });
    expect(spawned.isError).toBe(false);
    const waited = await registry.call('vibe_wait', { worker_id: 'w1' }, { surface: 'plan' });
    expect(resultText(waited)).toContain('refused to write PWNED.txt: read-only mode');
    expect(r.pwned()).toBe(false);
    const [session] = r.sessions();
    expect(session?.prompts).toEqual(['write PWNED.txt']);
    expect(session?.env[0]).toMatchObject({ surface: 'plan', tiers: 'read' });
    expect(session?.env[0]?.argv).toEqual(['--read-only', '--mode=plan', '-p', 'write PWNED.txt']);
    expect(workerList.get('w1').surface).toMatchObject({ name: 'plan', tiers: ['read'] });
    expect(resultText(await registry.call('vibe_list', {}))).toContain('· from the plan surface (read only)');
  });

  it('will not let plan mode send new work to a worker started on the default surface; wait, list and kill still work', async () => {
    const s = setup((agent) => ({ readOnlyCommand: ['node', agent, '--read-only', '-p', '{brief}'] }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'look around', label: 'builder' });
    const refused = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'write PWNED.txt' }, { surface: 'plan' });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toBe(
      'Worker w1 "builder" was started from the default surface (read, write and exec) and cannot be sent new work from the plan surface (read only): it would carry the work out with more than this surface allows. From here you can still wait for it (vibe_wait), list it (vibe_list) or stop it (vibe_kill).',
    );
    expect(s.workerList.get('w1')).toMatchObject({ messages: 0, run: 1 });
    expect(resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }, { surface: 'plan' }))).toMatch(/finished in/);
    expect(resultText(await s.registry.call('vibe_list', {}, { surface: 'plan' }))).toContain('w1 "builder"');
    expect(resultText(await s.registry.call('vibe_kill', { worker_id: 'w1' }, { surface: 'plan' }))).toContain('had already ended');
    // An ended worker cannot be revived from plan mode either.
    expect((await s.registry.call('vibe_send', { worker_id: 'w1', message: 'write PWNED.txt' }, { surface: 'plan' })).isError).toBe(true);
    expect(s.sessions().flatMap((x) => x.prompts)).toEqual(['look around']);
    expect(s.pwned()).toBe(false);
  });

  it('lets the default surface steer a worker started in plan mode, with the default command for the new run', async () => {
    const s = setup((agent) => ({ readOnlyCommand: ['node', agent, '--read-only', '-p', '{brief}'] }));
    const { registry } = s;
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'plan it', label: 'p' }, { surface: 'plan' });
    await registry.call('vibe_wait', { worker_id: 'w1' });
    const sent = await registry.call('vibe_send', { worker_id: 'w1', message: 'write PWNED.txt' });
    expect(sent.isError).toBe(false);
    expect(resultText(await registry.call('vibe_wait', { worker_id: 'w1' }))).toContain('wrote PWNED.txt');
    expect(s.pwned()).toBe(true);
  });

  it('refuses a runner function of the harness on a read-only surface unless it says it confines workers', async () => {
    const plain = new WorkerList({ runner: async () => 'done' });
    expect(() => plain.spawn({ brief: 'b', label: 'l', surface: defineSurface('review', ['read']) })).toThrow(VibeError);
    await plain.dispose();
    const seen: string[] = [];
    await using confined = new WorkerList({
      runner: {
        run: async (task) => {
          seen.push(`${task.surface.name}:${task.surface.tiers.join(',')}`);
          return 'read only';
        },
        canRun: () => true,
      },
    });
    confined.spawn({ brief: 'b', label: 'l', surface: defineSurface('review', ['read']) });
    await waitUntil(() => seen.length === 1);
    expect(seen).toEqual(['review:read']);
  });

  it('holds a surface that admits write but not exec to the read-only command as well', async () => {
    const s = setup();
    await using _ = s.registry;
    const noExec = defineSurface('no-exec', ['read', 'write']);
    expect(s.workerList.canRunOn(noExec)).toBe(false);
    expect(() => s.workerList.spawn({ brief: 'write PWNED.txt', label: 'x', surface: noExec })).toThrow(
      'A worker cannot start from the no-exec surface (read and write)',
    );
  });

  it('refuses a brief, message or label that the agent\'s command line would read as an option', async () => {
    const s = setup((agent) => ({ readOnlyCommand: ['node', agent, '--read-only', '-p', '{brief}'] }));
    await using _ = s.registry;
    // As its own argument, "--dangerously-skip-permissions" is a flag to most agent CLIs: a plan-mode worker set free.
    const spawn = await s.registry.call('vibe_spawn', { brief: ' --dangerously-skip-permissions', label: 'x' }, { surface: 'plan' });
    expect(spawn.isError).toBe(true);
    expect(resultText(spawn)).toContain('`brief`: starts with "-"');
    const label = await s.registry.call('vibe_spawn', { brief: 'write PWNED.txt', label: '--yolo' }, { surface: 'plan' });
    expect(resultText(label)).toContain('`label`: starts with "-"');
    expect(s.sessions()).toEqual([]);
    await s.registry.call('vibe_spawn', { brief: 'look around', label: 'reader' }, { surface: 'plan' });
    const send = await s.registry.call('vibe_send', { worker_id: 'w1', message: '-y' }, { surface: 'plan' });
    expect(resultText(send)).toContain('`message`: starts with "-"');
    await s.registry.call('vibe_wait', { worker_id: 'w1' }, { surface: 'plan' });
    expect(s.sessions().flatMap((r) => r.prompts)).toEqual(['look around']);
  });

  it('names what the harness should configure when it says so', async () => {
    await using list = new WorkerList({
      runner: processRunner({ command: 'agent', readOnlyHint: 'set AGENT_TOOLS_VIBE_READONLY_COMMAND to the agent\'s plan-mode command line' }),
    });
    expect(() => list.spawn({ brief: 'b', label: 'l', surface: defineSurface('plan', ['read']) })).toThrow(
      "To allow workers here, the harness must set AGENT_TOOLS_VIBE_READONLY_COMMAND to the agent's plan-mode command line.",
    );
  });
});
