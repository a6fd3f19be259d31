import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { cli, SAMPLE } from './run-cli.js';

/** A project with the sample worker agent, which writes the file a "write NAME" brief names unless read-only. */
function project() {
  const dir = tempDir({ 'src/a.ts': 'export const a = 1;\n' });
  copyFileSync(join(SAMPLE, 'vibe', 'worker.sh'), dir.join('worker.sh'));
  return dir;
}

const VIBE = { AGENT_TOOLS_VIBE: '1', AGENT_TOOLS_VIBE_COMMAND: 'sh worker.sh', AGENT_TOOLS_VIBE_READONLY_COMMAND: '' };
const SPAWN = 'vibe_spawn {"brief":"write PWNED.txt","label":"writer"}';
const WAIT = 'vibe_wait {"worker_id":"writer"}';

function answers(stdout: string): { isError: boolean; content: { text: string }[] }[] {
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe('vibe workers in the harness keep to the surface they were started from', () => {
  it('the sample worker writes on the default surface (the control)', async () => {
    using dir = project();
    const { code, stdout } = await cli(['repl', '--json', '--cwd', dir.path], { input: `${SPAWN}\n${WAIT}\n`, env: VIBE });
    expect(code).toBe(0);
    expect(answers(stdout)[1]?.content[0]?.text).toContain('Wrote PWNED.txt.');
    expect(existsSync(dir.join('PWNED.txt'))).toBe(true);
  });

  it('refuses vibe_spawn in plan mode without AGENT_TOOLS_VIBE_READONLY_COMMAND, and nothing is written', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'vibe_spawn', '{"brief":"write PWNED.txt","label":"writer"}', '--surface', 'plan', '--cwd', dir.path], {
      env: VIBE,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('A worker cannot start from the plan surface (read only)');
    expect(stdout).toContain("the harness must set AGENT_TOOLS_VIBE_READONLY_COMMAND to the worker agent's command line in its own read-only or plan mode.");
    expect(existsSync(dir.join('PWNED.txt'))).toBe(false);
  });

  it('runs the read-only command in plan mode, and that worker cannot write', async () => {
    using dir = project();
    const env = { ...VIBE, AGENT_TOOLS_VIBE_READONLY_COMMAND: 'sh worker.sh --read-only' };
    const { code, stdout } = await cli(['repl', '--json', '--surface', 'plan', '--cwd', dir.path], { input: `${SPAWN}\n${WAIT}\n`, env });
    expect(code).toBe(0);
    const [spawned, waited] = answers(stdout);
    expect(spawned?.isError).toBe(false);
    expect(waited?.content[0]?.text).toContain('Read-only mode (surface plan): did not write PWNED.txt.');
    expect(existsSync(dir.join('PWNED.txt'))).toBe(false);
  });

  it('announces a worker that ended on the next result, once', async () => {
    using dir = project();
    const input = [
      'vibe_spawn {"brief":"look around","label":"scout"}',
      'vibe_spawn {"brief":"slow: a long review","label":"reviewer"}',
      // While this wait on the reviewer runs out, the scout finishes: its notice rides on the wait's answer.
      'vibe_wait {"worker_id":"reviewer","timeout_seconds":3}',
      'read {"path":"src/a.ts"}',
    ].join('\n');
    const { code, stdout } = await cli(['repl', '--json', '--cwd', dir.path], { input, env: VIBE });
    expect(code).toBe(0);
    const [, , waited, read] = answers(stdout);
    expect(waited?.content.map((c) => c.text).join('\n')).toMatch(
      /is still running[\s\S]*\nBackground workers:\nWorker w1 "scout" finished in \d+ (ms|s): \[good worker w1, run 1\] Looked at 1 files in src\/\. Task: "look around"\. — call vibe_wait with worker_id "w1" for its result in full\.$/,
    );
    expect(read?.content.map((c) => c.text).join('\n')).not.toContain('Background workers');
  });
});
