import { approveAll, builtinSurfaces, type Surface } from '@agent-tools/core';
import { mcpTool } from '@agent-tools/mcp';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { assemble } from '../src/assemble.js';
import { staticToolList } from '../src/mcp/tool-manifest.js';
import { catalog } from '../src/plugins/catalog.js';

/** The manifest the build wrote (`pnpm build` runs write-manifest.ts after tsc). */
const MANIFEST = new URL('../dist/tool-manifest.json', import.meta.url);

async function withEnv<T>(vars: Record<string, string | undefined>, task: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  set(vars);
  try {
    return await task();
  } finally {
    set(before);
  }
}

/** What a session's assembled registry lists, as the MCP server shows it. */
async function live(cwd: string, surface: Surface, fileTools: boolean) {
  await using registry = await assemble({ cwd, approve: approveAll, surface, fileTools });
  return registry.tools(surface).map((tool) => mcpTool(tool));
}

describe('the MCP server lists tools from the build manifest, without loading a package', () => {
  for (const vibe of ['1', undefined]) {
    for (const [name, surface] of Object.entries(builtinSurfaces)) {
      for (const fileTools of [false, true]) {
        it(`lists exactly what an assembled session lists: vibe ${vibe ? 'on' : 'off'}, surface ${name}, file tools ${fileTools ? 'on' : 'off'}`, async () => {
          using dir = tempDir({ 'a.py': 'a = 1\n' });
          await withEnv({ AGENT_TOOLS_VIBE: vibe, AGENT_TOOLS_VIBE_COMMAND: vibe ? 'sh worker.sh' : undefined }, async () => {
            const listed = staticToolList(surface, fileTools, MANIFEST);
            expect(listed).toBeDefined();
            expect(listed).toEqual(await live(dir.path, surface, fileTools));
          });
        });
      }
    }
  }

  it('decides each package’s presence as its plugin does: eval without Python or a Jupyter server lists no eval', async () => {
    const evalEntry = catalog.find((entry) => entry.tools.includes('eval'));
    expect(evalEntry?.present?.()).toBe(true); // Debian's python3 is installed here
    const plugin = await evalEntry?.load();
    using dir = tempDir({});
    const env = { cwd: dir.path, conversationId: 'x', terminal: undefined };
    expect(Object.keys((await plugin?.resources(env)) ?? {})).not.toEqual([]);
    await withEnv({ AGENT_TOOLS_VIBE: undefined }, async () => {
      const vibeEntry = catalog.find((entry) => entry.tools.includes('vibe_spawn'));
      expect(vibeEntry?.present?.()).toBe(false);
      expect(await (await vibeEntry?.load())?.resources(env)).toEqual({});
    });
  });

  it('without a manifest, says so (the server then lists from the registry)', () => {
    expect(staticToolList(builtinSurfaces['default'] as Surface, true, new URL('./no-such-manifest.json', import.meta.url))).toBeUndefined();
  });
});
