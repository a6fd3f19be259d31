import { writeFileSync } from 'node:fs';
import { createRegistry, toolSchema } from '@agent-tools/core';
import { factoryContract, type TempDir, tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createLspSupervisor, lspTools } from '../src/index.js';
import { fakeServer } from './helpers.js';

const scripts = tempDir({}, 'agent-tools-contract-');
const projects: TempDir[] = [];
afterAll(() => {
  scripts.remove();
  for (const project of projects) project.remove();
});
let count = 0;

/** Fresh resources for one registry: a project with the fake server, whose script path marks its processes. */
function resources() {
  const script = scripts.join(`script-${count++}.json`);
  writeFileSync(script, JSON.stringify({ capabilities: { hoverProvider: true }, methods: { 'textDocument/hover': { reply: { contents: 'x' } } } }));
  const project = tempDir({ 'fake.json': '{}', 'a.fake': 'word\n' });
  projects.push(project);
  const supervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [fakeServer(script)] });
  return { cwd: project.path, lspSupervisor: supervisor, diagnostics: supervisor, marker: script };
}

factoryContract({
  factory: lspTools,
  tools: { lsp: 'read', lsp_rename: 'write', lsp_fix: 'write' },
  resources,
  warmUp: {
    tool: 'lsp',
    args: { action: 'hover', file: 'a.fake', line: 1, symbol: 'word' },
    marker: (r) => r['marker'] as string,
  },
  harness: new URL('./harness/contract.mjs', import.meta.url),
});

describe('lspTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [lspTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ['cwd', 'lspSupervisor'] });
  });

  it('keeps lsp visible without any usable server, so status can explain', async () => {
    using project = tempDir({});
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor: createLspSupervisor({ cwd: project.path }) },
      factories: [lspTools],
    });
    expect(registry.tools('plan').map((t) => t.name)).toEqual(['lsp']);
    const status = await registry.call('lsp', { action: 'status' });
    expect(status.isError).toBe(false);
  });

  it('publishes the JSON Schemas the model sees', () => {
    const tools = lspTools.create({ cwd: '/p', lspSupervisor: createLspSupervisor({ cwd: '/p' }) } as never);
    const list = Array.isArray(tools) ? tools : (tools as { tools: typeof tools }).tools;
    for (const tool of list as Parameters<typeof toolSchema>[0][]) {
      expect(toolSchema(tool).inputSchema).toMatchSnapshot(tool.name);
    }
  });

  it('a bad argument is answered with what to pass', async () => {
    using project = tempDir({});
    await using registry = createRegistry({ resources: { cwd: project.path, lspSupervisor: createLspSupervisor({ cwd: project.path }) }, factories: [lspTools] });
    const missingLine = await registry.call('lsp', { action: 'hover', file: 'x.ts' });
    expect(missingLine.isError).toBe(true);
    expect(missingLine.content[0]).toMatchObject({ text: 'The hover action needs "file", "line" (1-based) and "symbol" (the name as written on that line).' });
    const outside = await registry.call('lsp', { action: 'diagnostics', file: '../etc/passwd' });
    expect(outside.content[0]).toMatchObject({ text: expect.stringMatching(/^The path "\.\.\/etc\/passwd" is outside the working directory/) });
    expect(outside.structured).toEqual({ error: 'outside_workspace', action: 'diagnostics' });
    const noQuery = await registry.call('lsp', { action: 'symbols' });
    expect(noQuery.content[0]).toMatchObject({ text: 'The symbols action needs "query" (a name to search the workspace for) or "file" (for its outline).' });
  });
});
