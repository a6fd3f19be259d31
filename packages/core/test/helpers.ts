import { writeFileSync } from 'node:fs';
import { z } from 'zod';
// Core cannot depend on @agent-tools/test-utils (test-utils depends on core), so the test-utils helpers that import
// nothing of core are used from their source rather than copied here.
import { type TempDir, tempDir } from '../../../tools/test-utils/src/temp-dir.js';
import type { Diagnostic, DiagnosticsSource, FileCheck, PendingPart } from '../src/index.js';
import { defineTool, resolveInside, type Tier, textResult, wrapWrite } from '../src/index.js';

export { seededRandom } from '../../../tools/test-utils/src/seeded-random.js';

/** A temporary directory removed by `using` (test-utils' {@link tempDir}). */
export function scratch(): TempDir {
  return tempDir({}, 'agent-tools-core-');
}

/** A tool that echoes its argument, of a given tier. */
export function echoTool(name: string, tier: Tier = 'read') {
  return defineTool({
    name,
    tier,
    description: `Echo for tests (${tier}).`,
    parallelSafe: true,
    parameters: z.object({ text: z.string().default('hi') }),
    execute: ({ text }) => textResult(`${name}: ${text}`),
  });
}

/** A promise with its resolver exposed. */
export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A diagnostic of a file. */
export function diag(file: string, line: number, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { file, line, column: 1, severity: 'error', code: 'E1', message, ...extra };
}

/** `partly`: checked by some checkers, with the others' `parts` pending. */
type Partly = { partly: readonly Diagnostic[]; parts: readonly PendingPart[] };

type Script = readonly Diagnostic[] | { pending: Promise<readonly Diagnostic[] | undefined> } | { unchecked: string } | Partly;

/**
 * A diagnostics source that answers from a script: per file, the diagnostics the next check returns, or a pending
 * answer, or "unchecked", or an answer of some checkers with the others pending. Records every call.
 */
export class ScriptedSource implements DiagnosticsSource {
  readonly checks: string[][] = [];
  readonly baselines: string[][] = [];
  readonly #next = new Map<string, Script>();
  readonly #baseline = new Map<string, readonly Diagnostic[] | 'never' | Partly>();
  delayMs = 0;

  /** What the next check of `file` answers. */
  next(file: string, script: Script): this {
    this.#next.set(file, script);
    return this;
  }

  /** Enables `baseline` and sets what it answers for `file` (`'never'`: a baseline that does not arrive). */
  baselineOf(file: string, diagnostics: readonly Diagnostic[] | 'never' | Partly): this {
    this.#baseline.set(file, diagnostics);
    return this;
  }

  async check(files: readonly string[]): Promise<FileCheck[]> {
    this.checks.push([...files]);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return files.map((file): FileCheck => {
      const script = this.#next.get(file) ?? [];
      if ('pending' in script) return { file, state: 'pending', settled: script.pending };
      if ('unchecked' in script) return { file, state: 'unchecked', reason: script.unchecked };
      if ('partly' in script) return { file, state: 'checked', diagnostics: script.partly, pending: script.parts };
      return { file, state: 'checked', diagnostics: script as readonly Diagnostic[] };
    });
  }

  get baseline(): DiagnosticsSource['baseline'] {
    if (this.#baseline.size === 0) return undefined;
    return async (files) => {
      this.baselines.push([...files]);
      return files.map((file): FileCheck => {
        const diagnostics = this.#baseline.get(file) ?? [];
        if (diagnostics === 'never') return { file, state: 'pending', settled: new Promise(() => {}) };
        if ('partly' in diagnostics) return { file, state: 'checked', diagnostics: diagnostics.partly, pending: diagnostics.parts };
        return { file, state: 'checked', diagnostics };
      });
    };
  }
}

/** A harness's write tool, wrapped with one call. */
export function writeTool(cwd: string) {
  return wrapWrite(
    defineTool({
      name: 'write',
      tier: 'write',
      description: 'Write a file.',
      parallelSafe: false,
      parameters: z.object({ path: z.string(), content: z.string() }),
      execute: ({ path, content }) => {
        const target = resolveInside(cwd, path);
        writeFileSync(target.absolute, content);
        return textResult(`Wrote ${target.relative}.`, { path: target.relative });
      },
    }),
  );
}
