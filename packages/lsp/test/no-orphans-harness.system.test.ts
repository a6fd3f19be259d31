import { writeFileSync } from 'node:fs';
import { disposeHarness, killHarness, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { FAKE_SERVER } from './helpers.js';

const harness = new URL('./harness/ls-harness.mjs', import.meta.url).pathname;

/** A project with a TypeScript file and a fake-server file: the harness's arguments. */
function project() {
  const dir = tempDir({ 'tsconfig.json': '{}', 'a.ts': 'export const a = 1;\n', 'fake.json': '{}', 'b.fake': 'b\n' }, 'agent-tools-lsp-harness-');
  const script = dir.join('script.json');
  writeFileSync(script, JSON.stringify({ capabilities: { hoverProvider: true }, methods: { 'textDocument/hover': { reply: { contents: 'up' } } } }));
  return { args: [dir.path, FAKE_SERVER, script], [Symbol.dispose]: () => dir.remove() };
}

describe('no language-server process outlives its run (real servers, checked through /proc)', () => {
  it('a SIGKILLed harness holding typescript-language-server and an escaping server: all gone within 5 s', { timeout: 120_000 }, async () => {
    using run = project();
    const { seen, survivors } = await killHarness(harness, run.args, (running) => running.some((p) => p.command === 'sleep 607'));
    const commands = seen.map((p) => p.command);
    expect(commands.some((c) => c.includes('typescript-language-server'))).toBe(true);
    expect(commands.some((c) => c.includes('tsserver.js'))).toBe(true);
    expect(survivors).toEqual([]);
  });

  it('a harness that disposes: the same processes are gone when dispose returns', { timeout: 120_000 }, async () => {
    using run = project();
    expect(await disposeHarness(harness, run.args)).toEqual([]);
  });
});
