import { writeFileSync } from 'node:fs';
import { envMarker, markedProcesses, startHarnessProcess, tempDir, waitForNoMarked } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { FAKE_SERVER } from './helpers.js';

const harness = new URL('./harness/ls-harness.mjs', import.meta.url).pathname;

/** A project with a TypeScript file and a fake-server file, and the harness started on it. */
function startOn(env: NodeJS.ProcessEnv) {
  const dir = tempDir({ 'tsconfig.json': '{}', 'a.ts': 'export const a = 1;\n', 'fake.json': '{}', 'b.fake': 'b\n' }, 'agent-tools-lsp-harness-');
  const script = dir.join('script.json');
  writeFileSync(script, JSON.stringify({ capabilities: { hoverProvider: true }, methods: { 'textDocument/hover': { reply: { contents: 'up' } } } }));
  return { dir, ...startHarnessProcess(harness, [dir.path, FAKE_SERVER, script], env) };
}

describe('no language-server process outlives its run (real servers, checked through /proc)', () => {
  it('a SIGKILLed harness holding typescript-language-server and an escaping server: all gone within 5 s', { timeout: 120_000 }, async () => {
    const marker = envMarker();
    const { child, said, dir } = startOn(marker.env);
    try {
      await said('ready');
      const commands = markedProcesses(marker).map((p) => p.command);
      expect(commands.some((c) => c.includes('typescript-language-server'))).toBe(true);
      expect(commands.some((c) => c.includes('tsserver.js'))).toBe(true);
      expect(commands).toContain('sleep 607');
    } finally {
      child.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 5000)).toEqual([]);
    dir.remove();
  });

  it('a harness that disposes: the same processes are gone when dispose returns', { timeout: 120_000 }, async () => {
    const marker = envMarker();
    const { child, said, dir } = startOn({ ...marker.env, HARNESS_DISPOSE: '1' });
    await said('disposed');
    expect(markedProcesses(marker).filter((p) => p.pid !== child.pid)).toEqual([]);
    dir.remove();
  });
});
