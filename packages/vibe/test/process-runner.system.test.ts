import { isKeeper, processesMatching, waitUntil } from '@agent-tools/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { expandTemplate } from '../src/command-template.js';
import { processRunner, splitCommandLine, WorkerList } from '../src/index.js';
import { groupMembers, removeWhenIdle, scripts } from './helpers.js';

const dirs: ReturnType<typeof scripts>[] = [];
function fixtures() {
  const dir = scripts();
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  // Every test must leave nothing behind: no script of its directory still running.
  expect(await removeWhenIdle(dirs)).toEqual([]);
});

describe('command templates', () => {
  it('split like a shell splits plain words, without running one', () => {
    expect(splitCommandLine(`agent --name 'two words' "say \\"hi\\"" a\\ b {brief} $HOME`)).toEqual([
      'agent',
      '--name',
      'two words',
      'say "hi"',
      'a b',
      '{brief}',
      '$HOME',
    ]);
    expect(() => splitCommandLine("agent 'open")).toThrow("unclosed ' quote");
  });

  it('expand placeholders inside arguments and place tier arguments', () => {
    const values = { brief: 'fix it; rm -rf /', tier: 'fast', label: 'l', id: 'w1', run: '2' };
    expect(expandTemplate(['agent', '--prompt={brief}', '-m', '{tier}'], values, ['--quick'])).toEqual([
      'agent',
      '--prompt=fix it; rm -rf /',
      '-m',
      'fast',
      '--quick',
    ]);
    expect(expandTemplate(['agent', '{tier_args}', '{id}-{run}'], values, ['--a', '--b'])).toEqual(['agent', '--a', '--b', 'w1-2']);
  });

  it('must name a program', () => {
    expect(() => processRunner({ command: '   ' })).toThrow('The worker command template is empty');
  });
});

describe('processRunner with real scripts standing in for agents', () => {
  it('runs an agent that finishes: brief on stdin, tier and ids in the environment, stdout as the result', async () => {
    const dir = fixtures();
    await using list = new WorkerList({
      runner: processRunner({ command: ['sh', dir.script('finish')], tiers: { fast: { env: { MODEL: 'small' } } } }),
    });
    list.spawn({ brief: 'rename total to sum\nin src/a.ts', label: 'renamer', tier: 'fast' });
    const { worker, ended } = await list.wait('w1', 10_000);
    expect(ended).toBe(true);
    expect(worker.status).toBe('finished');
    expect(worker.result?.output).toBe('worker w1 (renamer) tier=fast run=1 model=small\nbrief lines: 2\ndone: in src/a.ts');
  });

  it('passes the brief as one argument when the template asks for it, and the tier arguments where it says', async () => {
    const dir = fixtures();
    await using list = new WorkerList({
      runner: processRunner({
        command: `sh '${dir.script('args')}' --tier {tier} {tier_args} {brief}`,
        tiers: { good: { args: ['--model', 'big'] } },
      }),
    });
    list.spawn({ brief: "it's a brief; $(whoami)", label: 'args' });
    const { worker } = await list.wait('w1', 10_000);
    expect(worker.result?.output).toBe(
      ['arg: [--tier]', 'arg: [good]', 'arg: [--model]', 'arg: [big]', "arg: [it's a brief; $(whoami)]", 'stdin: []', 'env: MODEL= VIBE_TIER=good'].join('\n'),
    );
  });

  it('reports an agent that fails with its output, its stderr and its exit code', async () => {
    const dir = fixtures();
    await using list = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('fail')] }) });
    list.spawn({ brief: 'b', label: 'parser' });
    const { worker } = await list.wait('w1', 10_000);
    expect(worker.status).toBe('failed');
    expect(worker.result).toEqual({
      ok: false,
      output: 'partial work on parser\nstderr:\nboom: cannot parse src/a.ts',
      detail: 'exit code 3',
    });
  });

  it('kills a hanging agent with its whole process group', async () => {
    const dir = fixtures();
    await using list = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('hang')] }) });
    list.spawn({ brief: 'never ends', label: 'hang' });
    await waitUntil(() => list.get('w1').output.includes('working'));
    const pid = list.get('w1').pid as number;
    await waitUntil(() => groupMembers(pid).length === 3);
    const { worker, wasRunning } = await list.kill('w1');
    expect(wasRunning).toBe(true);
    expect(worker.status).toBe('killed');
    expect(worker.result?.output).toBe('never ends\nworking');
    expect(groupMembers(pid)).toEqual([]);
  });

  it('kills an agent that ignores SIGTERM, children included, with SIGKILL after the grace period', async () => {
    const dir = fixtures();
    await using list = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('stubborn')], killGraceMs: 300 }) });
    list.spawn({ brief: 'b', label: 'stubborn' });
    await waitUntil(() => list.get('w1').output.includes('ignoring SIGTERM'));
    const pid = list.get('w1').pid as number;
    await waitUntil(() => groupMembers(pid).length === 3);
    const started = Date.now();
    const { worker } = await list.kill('w1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(worker.status).toBe('killed');
    expect(groupMembers(pid)).toEqual([]);
  });

  it('cleans up what an agent left running in its group when it exits', async () => {
    const dir = fixtures();
    await using list = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('leaves-child')] }) });
    list.spawn({ brief: 'b', label: 'messy' });
    const { worker } = await list.wait('w1', 10_000);
    expect(worker).toMatchObject({ status: 'finished', result: { output: 'finished, but left a child running' } });
    expect(groupMembers(worker.pid as number)).toEqual([]);
  });

  it('restarts a running agent on send: the old group is gone, the new run reads the longer brief', async () => {
    const dir = fixtures();
    await using list = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('hang')] }) });
    list.spawn({ brief: 'first brief', label: 'steered' });
    await waitUntil(() => list.get('w1').output.includes('working'));
    const firstPid = list.get('w1').pid as number;
    const sent = await list.send('w1', 'use tabs');
    expect(sent.run).toBe(2);
    expect(groupMembers(firstPid)).toEqual([]);
    await waitUntil(() => list.get('w1').output.includes('working'));
    const now = list.get('w1');
    expect(now.pid).not.toBe(firstPid);
    expect(now.output).toContain('first brief\n\n--- Message 1 from the lead ---');
    expect(now.output).toContain('use tabs\nworking');
    await list.kill('w1');
  });

  it('says a wait timed out, then returns the result once the agent finishes', async () => {
    const dir = fixtures();
    await using list = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('slow')] }) });
    list.spawn({ brief: 'b', label: 'slow' });
    const early = await list.wait('w1', 100);
    expect(early.ended).toBe(false);
    expect(early.worker.status).toBe('running');
    const late = await list.wait('w1', 10_000);
    expect(late.ended).toBe(true);
    expect(late.worker.result?.output).toBe('thinking\nslow result');
  });

  it('fails a worker whose command does not exist, saying so', async () => {
    await using list = new WorkerList({ runner: processRunner({ command: '/nonexistent/agent --flag' }) });
    list.spawn({ brief: 'b', label: 'ghost' });
    const { worker } = await list.wait('w1', 5000);
    expect(worker).toMatchObject({
      status: 'failed',
      pid: undefined,
      result: { ok: false, detail: 'could not start `/nonexistent/agent`: spawn /nonexistent/agent ENOENT' },
    });
  });

  it('kills every worker, stubborn ones included, when the list is disposed', async () => {
    const dir = fixtures();
    const list = new WorkerList({ runner: processRunner({ command: ['sh', '{label}'], killGraceMs: 200 }) });
    list.spawn({ brief: 'b', label: dir.script('hang') });
    list.spawn({ brief: 'b', label: dir.script('stubborn') });
    await waitUntil(() => list.list().every((w) => w.output !== ''));
    const pids = list.list().map((w) => w.pid as number);
    // The two scripts, once each has forked its sleeps: a fork not yet turned into `sleep` still shows the script's
    // command line for an instant, so the count is awaited rather than read once.
    const scriptsRunning = () => processesMatching(dir.path).filter((p) => !isKeeper(p)).length;
    await waitUntil(() => pids.every((pid) => groupMembers(pid).length === 3) && scriptsRunning() === 2);
    await list.dispose();
    expect(list.list().map((w) => w.status)).toEqual(['killed', 'killed']);
    for (const pid of pids) expect(groupMembers(pid)).toEqual([]);
  });
});
