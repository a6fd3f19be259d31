import { spawn } from 'node:child_process';
import { envMarker, markedProcesses, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';

// Issue #12's opening scenario, end to end: the harness is killed with SIGKILL while it holds a language server, a
// kernel with a background shell command, a debug session in a debuggee that forked a helper, and a worker with a
// `setsid` grandchild. Within 5 s nothing it started may be alive, checked through /proc by an environment marker
// that every process it started inherits.

const FORKER = `import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    time.sleep(600)
    os._exit(0)
print("forked", pid, flush=True)
time.sleep(600)  # line 8
`;

const CALLS = [
  'lsp {"action":"hover","file":"a.ts","line":1,"symbol":"a"}',
  'eval {"code":"!sleep 604 &\\nprint(\\"started\\")","description":"starts a background shell command"}',
  'debug {"action":"breakpoints","file":"forker.py","lines":[8]}',
  'debug {"action":"launch","program":"forker.py"}',
  'vibe_spawn {"brief":"b","label":"forker"}',
];

describe('the harness killed with SIGKILL (real servers, kernel, adapter and worker; checked through /proc)', () => {
  it('leaves no process it started alive after 5 s', { timeout: 180_000 }, async () => {
    using dir = tempDir(
      { 'tsconfig.json': '{}', 'a.ts': 'export const a = 1;\n', 'pyproject.toml': '[project]\nname = "x"\n', 'forker.py': FORKER },
      'agent-tools-harness-kill-',
    );
    const marker = envMarker();
    const harness = spawn(process.execPath, [CLI, 'repl', '--json', '--yes', '--cwd', dir.path], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...marker.env,
        AGENT_TOOLS_DEBUG: '',
        AGENT_TOOLS_VIBE: '1',
        AGENT_TOOLS_VIBE_COMMAND: `sh -c 'setsid sleep 602 & sleep 603'`,
      },
    });
    let answers: { isError: boolean }[] = [];
    let pending = '';
    harness.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      answers = [...answers, ...lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { isError: boolean })];
    });
    try {
      for (const [i, call] of CALLS.entries()) {
        harness.stdin.write(`${call}\n`);
        await waitUntil(() => answers.length > i, 120_000);
        expect(answers[i]?.isError, JSON.stringify(answers[i])).toBe(false);
      }
      const running = () => markedProcesses(marker).map((p) => p.command);
      await waitUntil(() => ['sleep 602', 'sleep 603', 'sleep 604'].every((c) => running().includes(c)), 20_000);
      // The debuggee and its forked helper share a command line.
      await waitUntil(() => running().filter((c) => c.endsWith('forker.py')).length >= 2, 20_000);
      expect(running().some((c) => c.includes('tsserver.js'))).toBe(true);
      expect(running().some((c) => c.includes('ipykernel'))).toBe(true);
    } finally {
      harness.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 5000)).toEqual([]);
  });
});
