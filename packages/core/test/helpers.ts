import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Diagnostic, DiagnosticsSource, FileCheck, PendingPart } from '../src/index.js';
import { defineTool, type Tier, textResult } from '../src/index.js';

/** A temporary directory removed by `using`. */
export function scratch(): { path: string; [Symbol.dispose](): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'agent-tools-core-')));
  return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
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

/**
 * A deterministic generator of numbers in [0, 1) (mulberry32), so a generated test names its seed. (Core's tests
 * cannot use test-utils' copy: test-utils depends on core.)
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
