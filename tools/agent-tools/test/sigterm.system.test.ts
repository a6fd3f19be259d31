import { spawn } from 'node:child_process';
import { envMarker, markedProcesses, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';

/**
 * SIGTERM reaches the harness during every kind of call: nothing a tool does may block its main thread (a FIFO opened
 * for reading did, until only SIGKILL ended it). Each case starts the real CLI, waits until the call is under way, sends
 * SIGTERM, and expects the run disposed (exit 130) within 10 s, and nothing it started alive 5 s later (/proc).
 */

const LOOP = 'import time\nprint("started", flush=True)\ntime.sleep(600)\nprint("never")  # line 4\n';
const files: Record<string, string> = { 'tsconfig.json': '{}', 'pyproject.toml': '[project]\nname = "x"\n', 'loop.py': LOOP, 'ok.txt': 'ok\n' };
const many: Record<string, string> = { ...files };
for (let i = 0; i < 4000; i++) many[`gen/f${i}.ts`] = `export function f${i}(a: number) {\n  return [a, a + ${i}].filter((x) => x > 0).map((x) => x * 2);\n}\n`;

interface Case {
  readonly name: string;
  /** Lines for `repl --json`; the last one is the call that is interrupted. */
  readonly calls: readonly string[];
  /** True once the last call is under way (given the run's processes). */
  readonly underway: (commands: readonly string[], answers: number) => boolean;
  /** How long after that the signal is sent (default 500 ms). */
  readonly settleMs?: number;
  readonly files?: Record<string, string>;
}

const CASES: readonly Case[] = [
  {
    name: 'eval running a cell',
    calls: [`eval ${JSON.stringify({ code: 'import time\ntime.sleep(600)', description: 'sleeps ten minutes to be interrupted' })}`],
    underway: (commands) => commands.some((c) => c.includes('ipykernel')),
  },
  {
    name: 'debug launch waiting for its first stop',
    calls: ['debug {"action":"breakpoints","file":"loop.py","lines":[4]}', 'debug {"action":"launch","program":"loop.py"}'],
    underway: (commands, answers) => answers >= 1 && commands.some((c) => c.endsWith('loop.py')),
  },
  {
    name: 'vibe_wait on a worker that runs for ten minutes',
    calls: ['vibe_spawn {"brief":"b","label":"sleeper"}', 'vibe_wait {"worker_id":"w1","timeout_seconds":600}'],
    underway: (commands, answers) => answers >= 1 && commands.includes('sleep 611'),
  },
  {
    name: 'lsp starting a cold server',
    calls: ['lsp {"action":"references","file":"gen/f1.ts","line":1,"symbol":"f1"}'],
    underway: (commands) => commands.some((c) => c.includes('typescript-language-server')),
    files: { ...files, 'gen/f1.ts': 'export function f1() {}\n' },
  },
  {
    name: 'ast_grep over 4,000 files',
    calls: ['read {"path":"ok.txt"}', 'ast_grep {"pattern":"$F($X, $X)","path":"gen","language":"typescript","max_results":5}'],
    underway: (_, answers) => answers >= 1,
    settleMs: 100,
    files: many,
  },
  {
    name: 'ask_user waiting for the human',
    calls: ['read {"path":"ok.txt"}', 'ask_user {"question":"Which one?","options":[{"label":"a"},{"label":"b"}]}'],
    underway: (_, answers) => answers >= 1,
  },
];

describe('SIGTERM during each kind of call disposes the run', () => {
  for (const c of CASES) {
    it(c.name, { timeout: 120_000 }, async () => {
      await using dir = tempDir(c.files ?? files, 'agent-tools-sigterm-');
      const marker = envMarker();
      const harness = spawn(process.execPath, [CLI, 'repl', '--json', '--yes', '--interactive', '--cwd', dir.path], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...marker.env, AGENT_TOOLS_DEBUG: '', AGENT_TOOLS_VIBE: '1', AGENT_TOOLS_VIBE_COMMAND: 'sleep 611' },
      });
      let answers = 0;
      harness.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        answers += chunk.split('\n').filter((line) => line.startsWith('{')).length;
      });
      harness.stderr.resume();
      const exited = new Promise<{ code: number | null; at: number }>((resolve) => harness.on('exit', (code) => resolve({ code, at: Date.now() })));
      for (const call of c.calls) harness.stdin.write(`${call}\n`);
      try {
        const commands = () => markedProcesses(marker).map((p) => p.command);
        await waitUntil(() => c.underway(commands(), answers), 60_000);
        // Under way, and still waiting for its answer.
        await new Promise((resolve) => setTimeout(resolve, c.settleMs ?? 500));
        expect(answers).toBe(c.calls.length - 1);
        const sent = Date.now();
        harness.kill('SIGTERM');
        const exit = await Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000))]);
        expect(exit, 'the harness did not exit within 10 s of SIGTERM').toBeDefined();
        expect(exit?.code).toBe(130);
        expect((exit?.at ?? Infinity) - sent).toBeLessThan(10_000);
      } finally {
        harness.kill('SIGKILL');
      }
      expect(await waitForNoMarked(marker, 5000)).toEqual([]);
    });
  }
});
