import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { approveAll, defineSurface } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { assemble } from '../src/assemble.js';
import { catalog, isStandalone } from '../src/plugins/catalog.js';
import { plugins } from '../src/plugins/index.js';

/** Real code nobody here wrote (Debian's python3-requests, installed by the ast package's apt-packages.txt). */
const REQUESTS = '/usr/lib/python3/dist-packages/requests';

/** With vibe mode on, so every package registers every tool; no process starts. */
async function withVibe<T>(task: () => Promise<T>): Promise<T> {
  const before = { vibe: process.env['AGENT_TOOLS_VIBE'], command: process.env['AGENT_TOOLS_VIBE_COMMAND'] };
  process.env['AGENT_TOOLS_VIBE'] = '1';
  process.env['AGENT_TOOLS_VIBE_COMMAND'] = 'sh worker.sh';
  try {
    return await task();
  } finally {
    for (const [key, name] of [
      ['vibe', 'AGENT_TOOLS_VIBE'],
      ['command', 'AGENT_TOOLS_VIBE_COMMAND'],
    ] as const) {
      if (before[key] === undefined) delete process.env[name];
      else process.env[name] = before[key];
    }
  }
}

describe('packages load when their first tool is called (the catalog of plugins/catalog.ts)', () => {
  it('names, in listing order, exactly the plugins and tools the eager list registers', async () => {
    await withVibe(async () => {
      using dir = tempDir({ 'a.ts': 'export const a = 1;\n' });
      const loaded = await Promise.all(catalog.map((entry) => entry.load()));
      expect(loaded).toEqual([...plugins]);
      await using registry = await assemble({ cwd: dir.path, approve: approveAll, plugins: loaded });
      const registered = registry.factories.map((f) => f.tools);
      expect(registered).toEqual(catalog.map((entry) => [...entry.tools]));
      for (const entry of catalog) for (const tool of entry.standalone) expect(entry.tools).toContain(tool);
      // A standalone tool reads and calls nothing else.
      for (const tool of registry.tools().filter((t) => isStandalone(t.name))) expect(tool.tier).toBe('read');
    });
  });

  it('a run for one standalone call assembles only its package; any other call assembles them all', async () => {
    using dir = tempDir({ 'a.ts': 'export const a = 1;\n' });
    const names = async (only: string): Promise<string[]> => {
      await using registry = await assemble({ cwd: dir.path, approve: approveAll, only });
      return registry.factories.map((f) => f.name);
    };
    expect(await names('ast_grep')).toEqual(['@agent-tools/ast']);
    expect(await names('lsp')).toEqual(['@agent-tools/lsp']);
    expect(await names('read')).toEqual([]);
    const all = catalog.map((_, i) => plugins[i]?.factory.name);
    expect(await names('ast_edit')).toEqual(all);
    expect(await names('no_such_tool')).toEqual(all);
  });

  it('ast_grep answers the same from its package alone as from every package (requests, real code)', async () => {
    using dir = tempDir({});
    for (const file of readdirSync(REQUESTS).filter((f) => f.endsWith('.py'))) copyFileSync(join(REQUESTS, file), join(dir.path, file));
    const answer = async (only: string | undefined) => {
      await using registry = await assemble({ cwd: dir.path, approve: approveAll, ...(only ? { only } : {}) });
      return await registry.call('ast_grep', { pattern: 'def $F($$$A): $$$B', language: 'python' });
    };
    const alone = await answer('ast_grep');
    expect(alone.isError, JSON.stringify(alone.content)).toBe(false);
    expect(JSON.stringify(alone.content)).toContain('235 matches');
    expect(alone).toEqual(await answer(undefined));
  });

  it('a standalone tool the surface hides is answered as by the whole run, naming what the surface has', async () => {
    using dir = tempDir({ 'a.ts': 'export const a = 1;\n' });
    // A surface that sees only exec tools: ast_grep is hidden, and the answer names debug, eval and the vibe tools.
    const surface = defineSurface('exec-only', ['exec']);
    await using partial = await assemble({ cwd: dir.path, approve: approveAll, surface, only: 'ast_grep' });
    await using whole = await assemble({ cwd: dir.path, approve: approveAll, surface });
    const answer = await partial.call('ast_grep', { pattern: 'a', language: 'typescript' });
    expect(answer.isError).toBe(true);
    expect(answer).toEqual(await whole.call('ast_grep', { pattern: 'a', language: 'typescript' }));
    expect(partial.factories.map((f) => f.name)).toEqual(whole.factories.map((f) => f.name));
  });
});
