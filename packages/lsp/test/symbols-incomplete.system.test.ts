import { writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeServer, startRun, text } from './helpers.js';

const scripts = tempDir({}, 'agent-tools-fake-');
afterAll(() => scripts.remove());
const symbol = { name: 'Session', kind: 5, location: { uri: '$ROOT/a.fake', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 7 } } } };

function script(name: string, workspaceSymbol: unknown): string {
  const path = scripts.join(`${name}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ capabilities: { workspaceSymbolProvider: true }, methods: { 'workspace/symbol': workspaceSymbol } }));
  return path;
}

describe('a workspace symbol search that could not ask every server says so first (scripted servers)', () => {
  it('one server answers, another does not in time: INCOMPLETE in the first line, naming it', async () => {
    const answers = fakeServer(script('answers', { reply: [symbol] }));
    const hangs = fakeServer(script('hangs', { hang: true }), { id: 'slow', name: 'slow-server', extensions: { '.slow': 'slow' }, rootMarkers: ['slow.json'] });
    await using run = startRun({ 'fake.json': '{}', 'a.fake': 'Session\n', 'slow.json': '{}', 'b.slow': 'x\n' }, { builtins: false, servers: [answers, hangs], requestTimeoutMs: 1000 });
    const result = await run.lsp({ action: 'symbols', query: 'Session' });
    expect(result.isError).toBe(false);
    expect(text(result).split('\n')[0]).toBe(
      'INCOMPLETE: not every server was searched (slow-server (root .) did not answer workspace/symbol within 1 s.); this answer may miss results. Call again in a moment for the complete answer.',
    );
    expect(text(result)).toContain('1 symbol matching "Session":\na.fake');
    expect(result.structured).toMatchObject({ incomplete: expect.stringContaining('slow-server'), total: 1 });
  });

  it('no server answers: an error, never "No symbol matches"', async () => {
    const hangs = fakeServer(script('hangs', { hang: true }));
    await using run = startRun({ 'fake.json': '{}', 'a.fake': 'Session\n' }, { builtins: false, servers: [hangs], requestTimeoutMs: 1000 });
    const result = await run.lsp({ action: 'symbols', query: 'Session' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^No language server could search the workspace for "Session": fake-server \(root \.\) did not answer workspace\/symbol within 1 s\./);
    expect(text(result)).not.toContain('No symbol matches');
  });
});
