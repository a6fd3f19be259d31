import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir, unhandledRejections, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { builtinServers, createLspSupervisor, defineServer, lspTools } from '../src/index.js';
import { writeTool } from './helpers.js';

// Issue 26, item 6: a bug outside any call reaches the harness's onError once. The bug source is a harness's own
// server configuration (real pyright, real typescript-language-server): its `settings` hook, which answers pyright's
// `workspace/configuration` requests in the background, and its launch cleanup, which runs when the server exits.
const SOURCE = 'def mean_quantity(items):\n    return sum(items) / len(items)\n\n\nprint(mean_quantity([1, 2, 3]))\n';

describe('a bug in a handler of the server’s requests (injected: the harness’s settings hook throws)', () => {
  it('reaches onError once as phase background, and the call answers as without it', async () => {
    using project = tempDir({ 'pyproject.toml': '[project]\nname = "probe"\n', 'stats.py': SOURCE });
    const bug = new TypeError("Cannot read properties of undefined (reading 'analysis')");
    const base = builtinServers.pyright;
    let calls = 0;
    // The first call comes from the start (inside the call); every later one answers pyright in the background.
    const pyright = defineServer({
      ...base,
      settings: (context) => {
        calls++;
        if (calls > 1) throw bug;
        return base.settings?.(context) ?? {};
      },
    });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [pyright] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const result = await registry.call('lsp', { action: 'hover', file: 'stats.py', line: 1, symbol: 'mean_quantity' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toContain('mean_quantity');
    expect(calls).toBeGreaterThan(1);
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/lsp' } }]);
  });
});

describe('a bug when a server exits (injected: the harness’s launch cleanup throws after a crash)', () => {
  it('reaches onError once as phase background instead of an unhandled rejection, and the next call restarts it', async () => {
    using project = tempDir({
      'tsconfig.json': '{"compilerOptions":{"strict":true}}\n',
      'a.ts': 'export function lowStock(limit: number): number {\n  return limit;\n}\n',
    });
    const bug = new RangeError('the launch cleanup failed');
    const base = builtinServers.typescript;
    const typescript = defineServer({ ...base, prepareLaunch: () => ({ args: [], cleanup: () => {
      throw bug;
    } }) });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [typescript] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const hover = { action: 'hover', file: 'a.ts', line: 1, symbol: 'lowStock' };
    expect(resultText(await registry.call('lsp', hover))).toContain('lowStock');
    const [server] = lspSupervisor.running();
    expect(server?.pid).toBeGreaterThan(0);
    process.kill(server?.pid as number, 'SIGKILL');
    await waitUntil(() => seen.length > 0 || server?.state === 'crashed');
    await waitUntil(() => seen.length > 0, 2000).catch(() => undefined);
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/lsp' } }]);
    const again = await registry.call('lsp', hover);
    expect(resultText(again)).toContain('lowStock');
  });
});

describe('a bug in a configuration hook while the server starts (injected: the harness’s initializationOptions throws)', () => {
  it('is answered as the failed start it is, and reaches onError once as phase background', async () => {
    using project = tempDir({ 'tsconfig.json': '{}\n', 'a.ts': 'export const lowStock = 1;\n' });
    const bug = new TypeError("Cannot read properties of undefined (reading 'tsserver')");
    const typescript = defineServer({
      ...builtinServers.typescript,
      initializationOptions: () => {
        throw bug;
      },
    });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [typescript] });
    const seen: { error: unknown; context: unknown }[] = [];
    using unhandled = unhandledRejections();
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const result = await registry.call('lsp', { action: 'hover', file: 'a.ts', line: 1, symbol: 'lowStock' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("could not be started: Cannot read properties of undefined (reading 'tsserver')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/lsp' } }]);
    // The server killed after the failed start exits later; its exit must not surface as an unhandled rejection.
    await lspSupervisor.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled.seen).toEqual([]);
  });
});

describe('a bug of a configuration hook while a write’s diagnostics are gathered (injected: the harness’s pullDiagnostics throws)', () => {
  it('reaches onError once, and the write still says its diagnostics are unavailable', async () => {
    using project = tempDir({ 'tsconfig.json': '{"compilerOptions":{"strict":true}}\n', 'a.ts': 'export const lowStock = 1;\n' });
    const bug = new TypeError("Cannot read properties of undefined (reading 'diagnostics')");
    const base = builtinServers.typescript;
    let pulls = 0;
    // The baseline before the write pulls first; the check after the write meets the bug.
    const typescript = defineServer({
      ...base,
      pullDiagnostics: (request) => {
        pulls++;
        if (pulls > 1) throw bug;
        return base.pullDiagnostics?.(request) ?? Promise.resolve([]);
      },
    });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [typescript], requestTimeoutMs: 60_000 });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor, diagnostics: lspSupervisor },
      factories: [lspTools],
      tools: [writeTool(project.path)],
      approve: approveAll,
      diagnostics: { budgetMs: 30_000 },
      onError: (error, context) => void seen.push({ error, context }),
    });
    const result = await registry.call('write', { path: 'a.ts', content: "export const lowStock: number = 'x';\n" });
    expect(result.isError).toBe(false);
    expect(pulls).toBe(2);
    expect(resultText(result)).toContain("Cannot read properties of undefined (reading 'diagnostics')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/lsp' } }]);
  });
});

describe('a bug when a server exits because the run ends (injected: the harness’s launch cleanup throws at dispose)', () => {
  it('reaches onError once as phase background, not a process warning', async () => {
    using project = tempDir({ 'tsconfig.json': '{}\n', 'a.ts': 'export const lowStock = 1;\n' });
    const bug = new RangeError('the launch cleanup failed at shutdown');
    const typescript = defineServer({
      ...builtinServers.typescript,
      prepareLaunch: () => ({
        args: [],
        cleanup: () => {
          throw bug;
        },
      }),
    });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [typescript] });
    const seen: { error: unknown; context: unknown }[] = [];
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const registry = createRegistry({
        resources: { cwd: project.path, lspSupervisor },
        factories: [lspTools],
        onError: (error, context) => void seen.push({ error, context }),
      });
      expect(resultText(await registry.call('lsp', { action: 'hover', file: 'a.ts', line: 1, symbol: 'lowStock' }))).toContain('lowStock');
      await registry.dispose();
      // A process warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/lsp' } }]);
      expect(warnings.filter((w) => (w as { code?: string }).code === 'AGENT_TOOLS_BACKGROUND_ERROR')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
