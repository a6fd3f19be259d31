import { writeFileSync } from 'node:fs';
import { approveAll, createRegistry, defineTool, type Registry, resolveInside, resultText, textResult, wrapWrite } from '@agent-tools/core';
import { type TempDir, tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLspSupervisor, type LspSupervisor, lspTools } from '../src/index.js';

// A harness tool whose path argument is `filename`, wrapped by core's write wrapper, against a real
// typescript-language-server: with `pathArgument` it reports the new error; without, it says it did not check.
const ERROR = "error TS2322: Type 'string' is not assignable to type 'number'.";

function saveTool(cwd: string, name: string) {
  return defineTool({
    name,
    tier: 'write',
    parallelSafe: false,
    description: 'Save a file.',
    parameters: z.object({ filename: z.string(), text: z.string() }),
    execute({ filename, text }) {
      const target = resolveInside(cwd, filename);
      writeFileSync(target.absolute, text);
      return textResult(`Saved ${target.relative}.`);
    },
  });
}

describe('wrapWrite finds the written path where the harness says', () => {
  let dir: TempDir;
  let supervisor: LspSupervisor;
  let registry: Registry;
  beforeAll(async () => {
    dir = tempDir(
      {
        'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext' }, include: ['src'] }),
        'package.json': '{"type":"module"}',
        'src/ok.ts': 'export const ok = 1;\n',
      },
      'agent-tools-lsp-path-arg-',
    );
    supervisor = createLspSupervisor({ cwd: dir.path, requestTimeoutMs: 60_000 });
    registry = createRegistry({
      resources: { cwd: dir.path, lspSupervisor: supervisor, diagnostics: supervisor },
      factories: [lspTools],
      tools: [wrapWrite(saveTool(dir.path, 'save'), { pathArgument: 'filename' }), wrapWrite(saveTool(dir.path, 'save_unnamed'))],
      approve: approveAll,
      diagnostics: { budgetMs: 20_000 },
    });
    await registry.call('lsp', { action: 'diagnostics', file: 'src/ok.ts' });
  });
  afterAll(async () => {
    await registry.dispose();
    dir.remove();
  });

  it('with { pathArgument: "filename" }, reports the error the write introduced', async () => {
    const result = await registry.call('save', { filename: 'src/a.ts', text: "export const n: number = 'x';\n" });
    expect(resultText(result)).toContain('Saved src/a.ts.');
    expect(resultText(result)).toContain('New diagnostics in src/a.ts (1):');
    expect(resultText(result)).toContain(`1:14 ${ERROR}`);
  });

  it('without it, says the diagnostics were not checked instead of saying nothing', async () => {
    const result = await registry.call('save_unnamed', { filename: 'src/b.ts', text: "export const m: number = 'y';\n" });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      'Saved src/b.ts.\nDiagnostics not checked: no path argument (the write wrapper looks in `path`, `file_path` or `file`; a harness names another with its `pathArgument` or `files` option).',
    );
  });
});
