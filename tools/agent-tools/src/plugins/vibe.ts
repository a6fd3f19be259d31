import { processRunner, splitCommandLine, VibeError, vibeTools, WorkerList, type WorkerRunner } from '@agent-tools/vibe';
import { logBug } from '../bug-log.js';
import type { DemoStep, HarnessPlugin } from '../plugin.js';
import { vibeMode } from './presence.js';

/** A setting of the environment, trimmed; undefined when unset or blank. */
function setting(name: string): string | undefined {
  return process.env[name]?.trim() || undefined;
}

/**
 * Vibe mode is off unless asked for: `AGENT_TOOLS_VIBE=1` turns it on, `AGENT_TOOLS_VIBE_COMMAND` is the worker
 * agent's command template (placeholders `{brief}`, `{tier}`, `{label}`, `{id}`, `{run}`, `{surface}`, `{session}`,
 * `{tier_args}`; without `{brief}` the brief goes to standard input), `AGENT_TOOLS_VIBE_READONLY_COMMAND` the one for
 * workers started in plan mode or as a read-only subagent (without it they are refused there),
 * `AGENT_TOOLS_VIBE_RESUME_COMMAND` / `AGENT_TOOLS_VIBE_RESUME_READONLY_COMMAND` continue a session (`{session}`),
 * `AGENT_TOOLS_VIBE_SESSION_PATTERN` reads the session id from the agent's output (a regular expression whose first
 * group is the id), `AGENT_TOOLS_VIBE_FAST_ARGS` / `AGENT_TOOLS_VIBE_GOOD_ARGS` add arguments per tier, and
 * `AGENT_TOOLS_VIBE_MAX` caps how many workers run at once (default 4). Workers run in the working directory and see
 * `VIBE_TIER`, `VIBE_WORKER_ID`, `VIBE_LABEL`, `VIBE_RUN`, `AGENT_TOOLS_SURFACE` and `AGENT_TOOLS_TIERS`.
 */
function runnerFromEnv(): WorkerRunner {
  const command = setting('AGENT_TOOLS_VIBE_COMMAND');
  try {
    if (!command) {
      throw new VibeError(
        'not_configured',
        'vibe mode is on (AGENT_TOOLS_VIBE=1) but AGENT_TOOLS_VIBE_COMMAND names no worker command; set it to the agent\'s command line, such as "my-agent -p {brief}"',
      );
    }
    const args = (name: string): readonly string[] => splitCommandLine(process.env[name] ?? '');
    const readOnlyCommand = setting('AGENT_TOOLS_VIBE_READONLY_COMMAND');
    const resumeCommand = setting('AGENT_TOOLS_VIBE_RESUME_COMMAND');
    const resumeReadOnly = setting('AGENT_TOOLS_VIBE_RESUME_READONLY_COMMAND');
    const pattern = setting('AGENT_TOOLS_VIBE_SESSION_PATTERN');
    return processRunner({
      command,
      ...(readOnlyCommand ? { readOnlyCommand } : {}),
      ...(resumeCommand
        ? {
            resume: {
              command: resumeCommand,
              ...(resumeReadOnly ? { readOnlyCommand: resumeReadOnly } : {}),
              ...(pattern ? { sessionPattern: sessionPattern(pattern) } : {}),
            },
          }
        : {}),
      readOnlyHint:
        "set AGENT_TOOLS_VIBE_READONLY_COMMAND to the worker agent's command line in its own read-only or plan mode",
      tiers: { fast: { args: args('AGENT_TOOLS_VIBE_FAST_ARGS') }, good: { args: args('AGENT_TOOLS_VIBE_GOOD_ARGS') } },
    });
  } catch (error) {
    // A misconfigured harness still registers the tools, so the model hears why no worker can start. It starts
    // nothing on any surface, so it may answer on every surface.
    return { run: () => Promise.reject(error), canRun: () => true };
  }
}

function sessionPattern(source: string): RegExp {
  try {
    return new RegExp(source, 'm');
  } catch (error) {
    throw new VibeError('invalid_template', `AGENT_TOOLS_VIBE_SESSION_PATTERN is not a regular expression: ${(error as Error).message}`);
  }
}

const vibeDemo: readonly DemoStep[] = [
  {
    title: 'vibe_spawn returns at once with a worker id (the worker is the sample script vibe/worker.sh)',
    tool: 'vibe_spawn',
    args: { brief: 'List the exported functions of src/inventory.ts', label: 'exports', tier: 'fast' },
  },
  {
    title: 'A second worker on a long task',
    tool: 'vibe_spawn',
    args: { brief: 'slow: review src/report.ts for error handling', label: 'reviewer' },
  },
  { title: 'vibe_list: tier, status, time and output of each', tool: 'vibe_list', args: {} },
  {
    title: 'vibe_send: the sample worker cannot resume a session, so it restarts with the message appended, and says so',
    tool: 'vibe_send',
    args: { worker_id: 'w1', message: 'Also list the exported types.' },
  },
  { title: 'vibe_wait returns the result of the restarted run', tool: 'vibe_wait', args: { worker_id: 'w1' } },
  {
    title: 'vibe_wait with a short timeout says the worker is still running',
    tool: 'vibe_wait',
    args: { worker_id: 'w2', timeout_seconds: 0.5 },
  },
  { title: 'vibe_kill stops it with its whole process group', tool: 'vibe_kill', args: { worker_id: 'reviewer' } },
  { title: 'vibe_list after the work', tool: 'vibe_list', args: {} },
  ...readOnlySteps(),
  { title: 'An unknown worker id is an error that names the known ones', tool: 'vibe_wait', args: { worker_id: 'w9' }, expectError: true },
];

/** Plan mode: a worker starts only with a read-only command, which the sample worker honours. */
function readOnlySteps(): DemoStep[] {
  const spawn = { tool: 'vibe_spawn', args: { brief: 'write NOTES.md with a summary', label: 'planner' }, surface: 'plan' };
  if (setting('AGENT_TOOLS_VIBE_READONLY_COMMAND') === undefined) {
    return [
      {
        title: 'In plan mode vibe_spawn is refused: no read-only worker command is configured, and a worker could write',
        ...spawn,
        expectError: true,
      },
    ];
  }
  return [
    { title: 'In plan mode the worker runs the read-only command (AGENT_TOOLS_VIBE_READONLY_COMMAND)', ...spawn },
    { title: 'It did not write: its read-only mode refused', tool: 'vibe_wait', args: { worker_id: 'planner' }, surface: 'plan' },
  ];
}

const offDemo: readonly DemoStep[] = [
  {
    title:
      'Vibe mode is off, so the vibe tools are absent (run with AGENT_TOOLS_VIBE=1 AGENT_TOOLS_VIBE_COMMAND="sh vibe/worker.sh" to see them)',
    tool: 'vibe_list',
    args: {},
    expectError: true,
  },
];

/** @agent-tools/vibe in the harness: a worker list only in vibe mode, with the process runner over the env's command. */
export const vibePlugin: HarnessPlugin = {
  factory: vibeTools,
  resources: (env) => {
    if (!vibeMode()) return {};
    const max = Number(process.env['AGENT_TOOLS_VIBE_MAX'] ?? 4);
    return {
      workerList: new WorkerList({
        runner: runnerFromEnv(),
        cwd: env.cwd,
        maxRunning: Number.isFinite(max) && max >= 1 ? max : 4,
        onError: (error) => logBug(error, 'vibe worker'),
      }),
    };
  },
  demo: vibeMode() ? vibeDemo : offDemo,
};
