import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  approveAll,
  createRegistry,
  defineTool,
  type Registry,
  type RunDiagnosticsOptions,
  resolveInside,
  resultText,
  type ToolResult,
  textResult,
  wrapWrite,
} from '@agent-tools/core';
import { type TempDir, tempDir } from '@agent-tools/test-utils';
import { z } from 'zod';
import { createLspSupervisor, defineServer, type LspSupervisor, type LspSupervisorOptions, lspTools, type ServerConfig } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The scriptable fake server. */
export const FAKE_SERVER = join(here, 'fixtures', 'fake-server.mjs');

/** A harness-style write tool wrapped by core's write wrapper, as a harness has it. */
export function writeTool(cwd: string) {
  return wrapWrite(
    defineTool({
      name: 'write',
      tier: 'write',
      parallelSafe: false,
      // Tests may give the write hook budgets of minutes (every dependent's diagnostics, on a loaded machine).
      timeoutMs: 900_000,
      description: 'Write a file.',
      parameters: z.object({ path: z.string(), content: z.string() }),
      execute({ path, content }) {
        const target = resolveInside(cwd, path);
        writeFileSync(target.absolute, content);
        return textResult(`Wrote ${target.relative}.`);
      },
    }),
  );
}

/** A harness-style multi-file writer (like apply_patch): writes every file, then the write hook checks them all. */
export function writeManyTool(cwd: string) {
  const parameters = z.object({ files: z.record(z.string(), z.string()) });
  return wrapWrite(
    defineTool({
      name: 'write_many',
      tier: 'write',
      parallelSafe: false,
      description: 'Write several files at once.',
      parameters,
      execute({ files }) {
        for (const [path, content] of Object.entries(files)) writeFileSync(resolveInside(cwd, path).absolute, content);
        return textResult(`Wrote ${Object.keys(files).length} files.`);
      },
    }),
    { files: (params: z.output<typeof parameters>) => Object.keys(params.files) },
  );
}

/** A run: a temp project, a supervisor as both lspSupervisor and diagnostics source, the lsp tools and a write tool. */
export interface Run extends AsyncDisposable {
  readonly dir: TempDir;
  readonly supervisor: LspSupervisor;
  readonly registry: Registry;
  /** Calls `lsp` and returns the result. */
  lsp(args: Record<string, unknown>): Promise<ToolResult>;
  /** Calls a tool and returns the result. */
  call(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
}

/** Sets up a run on a temp project with the given files. */
export function startRun(
  files: Record<string, string>,
  options: Partial<LspSupervisorOptions> = {},
  budgetMs = 8000,
  diagnostics: Omit<RunDiagnosticsOptions, 'budgetMs'> = {},
): Run {
  const dir = tempDir(files, 'agent-tools-lsp-');
  // Cold starts on a loaded machine can take longer than production's 20 s.
  const supervisor = createLspSupervisor({ cwd: dir.path, requestTimeoutMs: 60_000, ...options });
  const registry = createRegistry({
    resources: { cwd: dir.path, lspSupervisor: supervisor, diagnostics: supervisor },
    factories: [lspTools],
    tools: [writeTool(dir.path), writeManyTool(dir.path)],
    approve: approveAll,
    // Generous in tests: a slow shared machine must not turn a check into "pending".
    diagnostics: { budgetMs, ...diagnostics },
  });
  return {
    dir,
    supervisor,
    registry,
    lsp: (args) => registry.call('lsp', args),
    call: (tool, args) => registry.call(tool, args),
    async [Symbol.asyncDispose]() {
      await registry.dispose();
      dir.remove();
    },
  };
}

/** The text of a result. */
export function text(result: ToolResult): string {
  return resultText(result);
}

/** A fake server configuration running the fake server with a script. */
export function fakeServer(scriptPath: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return defineServer({
    id: 'fake',
    name: 'fake-server',
    languages: 'Fake',
    extensions: { '.fake': 'fake' },
    rootMarkers: ['fake.json'],
    binaries: [process.execPath],
    args: [FAKE_SERVER, scriptPath],
    ...overrides,
  });
}

/**
 * A scripted server offering one code action whose command sends back `edits` (workspace edits, `$ROOT` for the
 * project) through workspace/applyEdit, as ESLint's and tsserver's commands do. Returns the folder holding the script.
 */
export function commandActionScript(edits: readonly object[], title = 'Fix it'): TempDir & { readonly script: string } {
  const dir = tempDir({}, 'agent-tools-lsp-script-');
  const script = dir.join('script.json');
  writeFileSync(
    script,
    JSON.stringify({
      capabilities: { codeActionProvider: true, executeCommandProvider: { commands: ['fake.fix'] } },
      publishOnSync: [],
      methods: {
        'textDocument/codeAction': { reply: [{ title, command: { title, command: 'fake.fix' } }] },
        'workspace/executeCommand': { applyEdits: edits, reply: null },
      },
    }),
  );
  return Object.assign(dir, { script });
}
