import { writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeServer, startRun, text } from './helpers.js';

const scripts = tempDir({}, 'agent-tools-fake-');
afterAll(() => scripts.remove());
const location = { uri: '$ROOT/a.fake', range: { start: { line: 0, character: 6 }, end: { line: 0, character: 11 } } };

/** A server like pyright: it logs a line once it has enumerated the workspace, perhaps later than starting waits. */
function loadingServer(logAfterMs: { message: string; delayMs: number } | undefined) {
  const path = scripts.join(`loading-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ capabilities: { referencesProvider: true }, ...(logAfterMs ? { logAfterMs } : {}), methods: { 'textDocument/references': { reply: [location] } } }));
  return fakeServer(path, { readyPattern: /^Found \d+ source files?/m, readyTimeoutMs: 300 });
}

const references = { action: 'references', file: 'a.fake', line: 1, symbol: 'world' };

describe('a server that has not said it loaded the workspace (scripted, like pyright)', () => {
  it('answers INCOMPLETE in the first line once the wait runs out, never a short list that looks complete', async () => {
    await using run = startRun({ 'fake.json': '{}', 'a.fake': 'hello world\n' }, { builtins: false, servers: [loadingServer(undefined)], indexWaitMs: 500 });
    const result = await run.lsp(references);
    expect(text(result)).toMatch(
      /^INCOMPLETE: fake-server \(root \.\) is still loading the workspace \(it has not said it found every source file\) after a wait of [\d.]+ s; this answer may miss results\./,
    );
    expect(result.structured).toMatchObject({ incomplete: expect.stringContaining('still loading the workspace') });
  });

  it('a query made while it loads waits for the line, then answers complete', async () => {
    const server = loadingServer({ message: 'Found 1 source file', delayMs: 1500 });
    await using run = startRun({ 'fake.json': '{}', 'a.fake': 'hello world\n' }, { builtins: false, servers: [server], indexWaitMs: 30_000 });
    const result = await run.lsp(references);
    expect(text(result)).toBe('1 reference to `world` (a.fake:1):\na.fake\n  1:7  hello world');
    expect(run.supervisor.running()[0]?.loaded).toBe(true);
  });
});
