import { existsSync } from 'node:fs';
import { resultText } from '@agent-tools/core';
import { waitUntil } from '@agent-tools/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProcessRunnerOptions, processRunner } from '../src/index.js';
import { fakeAgentRun, removeWhenIdle, type scripts } from './helpers.js';

const dirs: ReturnType<typeof scripts>[] = [];
afterEach(async () => {
  // Every test must leave nothing behind: no script of its directory still running.
  expect(await removeWhenIdle(dirs)).toEqual([]);
});

/** A run whose workers are the fake agent CLI, which records every session it serves in `state/`. */
function setup(options: (agent: string) => Omit<ProcessRunnerOptions, 'env'>) {
  return fakeAgentRun(dirs, options);
}

describe('vibe_send continues the worker\'s session when the runner can resume', () => {
  it('with a session id the runner makes up: the second run resumes it with only the new message', async () => {
    const s = setup((agent) => ({
      command: ['node', agent, '--session-id', '{session}', '-p', '{brief}'],
      resume: { command: ['node', agent, '--resume', '{session}', '-p', '{brief}'] },
    }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'write the parser', label: 'parser' });
    const first = resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }));
    const [recorded] = s.sessions();
    expect(recorded?.prompts).toEqual(['write the parser']);
    expect(s.workerList.get('w1').session).toBe(recorded?.session);
    expect(first).toContain(`session ${recorded?.session}, turn 1`);

    const sent = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'also handle comments' });
    expect(resultText(sent)).toBe(
      'Sent to w1 "parser" (run 2, 1 message so far): it continues its session with your message. It runs in the background; call vibe_wait with worker_id "w1" for its result.',
    );
    expect(sent.structured).toMatchObject({ resumed: true });
    const second = resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(second).toContain(`session ${recorded?.session}, turn 2`);
    expect(second).toContain('context: write the parser | also handle comments');
    // One session only, resumed: no second session was started from scratch.
    expect(s.sessions()).toHaveLength(1);
    expect(s.sessions()[0]?.env.map((e) => e.argv.slice(0, 2))).toEqual([
      ['--session-id', recorded?.session],
      ['--resume', recorded?.session],
    ]);
    expect(s.sessions()[0]?.env.map((e) => e.vibeSession)).toEqual([recorded?.session, recorded?.session]);
    expect(resultText(await s.registry.call('vibe_list', {}))).toContain('run 2 (1 message, session continued)');
  });

  it('with the session id read from the agent\'s output (resume.sessionPattern), brief on stdin', async () => {
    const s = setup((agent) => ({
      command: ['node', agent, '--announce'],
      resume: { command: ['node', agent, '--announce', '--resume', '{session}'], sessionPattern: /^session: (\S+)$/m },
    }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'first task', label: 'reader' });
    await s.registry.call('vibe_wait', { worker_id: 'w1' });
    const id = s.sessions()[0]?.session;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.workerList.get('w1').session).toBe(id);
    await s.registry.call('vibe_send', { worker_id: 'w1', message: 'second task' });
    expect(resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }))).toContain('context: first task | second task');
    expect(s.sessions()).toHaveLength(1);
  });

  it('interrupts a running worker and resumes it, telling it that it was stopped', async () => {
    const s = setup((agent) => ({
      command: ['node', agent, '--session-id', '{session}', '--sleep', '60000', '-p', '{brief}'],
      resume: { command: ['node', agent, '--resume', '{session}', '-p', '{brief}'] },
    }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'long task', label: 'busy' });
    await waitUntil(() => s.sessions().length === 1);
    const firstPid = s.workerList.get('w1').pid as number;
    const sent = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'change of plan' });
    expect(resultText(sent)).toContain('(run 2, 1 message so far): it continues its session with your message.');
    expect(() => process.kill(firstPid, 0)).toThrow();
    const waited = resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(waited).toContain('turn 2');
    expect(s.sessions()[0]?.prompts[1]).toBe(
      '(The lead stopped your previous run to send you this; continue from where you were.)\nchange of plan',
    );
  });

  it('restarts from scratch, and says why, when the first run reported no session', async () => {
    const s = setup((agent) => ({
      command: ['node', agent],
      resume: { command: ['node', agent, '--resume', '{session}'], sessionPattern: /^session: (\S+)$/m },
    }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'task', label: 'mute' });
    await s.registry.call('vibe_wait', { worker_id: 'w1' });
    const sent = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'more' });
    expect(resultText(sent)).toContain(
      'it restarted from scratch with your message appended to its brief, because its earlier run reported no session to continue.',
    );
    expect(sent.structured).toMatchObject({ resumed: false });
    await s.registry.call('vibe_wait', { worker_id: 'w1' });
    // Two separate sessions, the second told the whole brief.
    expect(s.sessions().map((r) => r.prompts.length)).toEqual([1, 1]);
    expect(s.sessions().some((r) => r.prompts[0]?.startsWith('task\n\n--- Message 1 from the lead ---'))).toBe(true);
  });

  it('does not resume a session id read from the output that the resume command would read as an option', async () => {
    const s = setup(() => ({
      // The worker's own output decides the id: "--no-sandbox" would land in the resume command as a flag.
      command: ['sh', '-c', 'printf "session: --no-sandbox\\n" >&2; echo "first run"'],
      resume: { command: ['sh', '-c', 'echo "resumed: $*"', 'agent', '--resume', '{session}', '{brief}'], sessionPattern: /^session: (\S+)$/m },
    }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'task', label: 'sly' });
    expect(resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }))).toContain('first run');
    expect(s.workerList.get('w1').session).toBeUndefined();
    const sent = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'more' });
    expect(resultText(sent)).toContain('because its earlier run reported no session to continue');
    expect(resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }))).not.toContain('resumed');
  });

  it('resumes on a read-only surface only with a read-only resume command', async () => {
    const s = setup((agent) => ({
      command: ['node', agent, '--session-id', '{session}', '-p', '{brief}'],
      readOnlyCommand: ['node', agent, '--read-only', '--session-id', '{session}', '-p', '{brief}'],
      resume: {
        command: ['node', agent, '--resume', '{session}', '-p', '{brief}'],
        readOnlyCommand: ['node', agent, '--read-only', '--resume', '{session}', '-p', '{brief}'],
      },
    }));
    await using _ = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'study it', label: 'planner' }, { surface: 'plan' });
    await s.registry.call('vibe_wait', { worker_id: 'w1' }, { surface: 'plan' });
    await s.registry.call('vibe_send', { worker_id: 'w1', message: 'write PWNED.txt' }, { surface: 'plan' });
    const waited = resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }, { surface: 'plan' }));
    expect(waited).toContain('turn 2, read-only');
    expect(waited).toContain('refused to write PWNED.txt');
    expect(existsSync(s.dir.join('PWNED.txt'))).toBe(false);
  });

  it('checks the resume configuration up front', () => {
    expect(() => processRunner({ command: 'agent -p {brief}', resume: { command: 'agent --continue -p {brief}' } })).toThrow(
      'resume.command must pass the session to continue as {session}',
    );
    expect(() => processRunner({ command: 'agent -p {brief}', resume: { command: 'agent --resume {session}' } })).toThrow(
      'put {session} in command',
    );
    expect(() =>
      processRunner({ command: 'agent {session}', resume: { command: 'agent --resume {session}', readOnlyCommand: 'agent --ro {session}' } }),
    ).toThrow('resume.readOnlyCommand is set but readOnlyCommand is not');
  });
});
