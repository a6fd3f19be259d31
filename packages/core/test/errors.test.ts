import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AgentToolsError,
  approveAll,
  CoreError,
  createRegistry,
  defineTool,
  errorDetail,
  errorSentence,
  isAgentToolsError,
  resolveInside,
  resultText,
  textResult,
} from '../src/index.js';
import { scratch } from './helpers.js';

/** A package's error class, as each package writes it on the base. */
class ProbeError extends AgentToolsError<'broken' | 'gone'> {
  override readonly name = 'ProbeError';
  constructor(code: 'broken' | 'gone', detail: string, options?: { hint?: string; cause?: unknown }) {
    super('probe', code, detail, options);
  }
}

/** A fresh copy of core's error module, as when a harness and a package resolve two versions of core. */
async function secondCopy(): Promise<typeof import('../src/errors.js')> {
  vi.resetModules();
  const copy = await import('../src/errors.js');
  expect(copy.AgentToolsError).not.toBe(AgentToolsError);
  return copy;
}

function throwingTool(error: unknown) {
  return defineTool({
    name: 'probe',
    tier: 'read',
    description: 'Throws.',
    parallelSafe: true,
    parameters: z.object({}),
    execute: () => {
      throw error;
    },
  });
}

describe('the error base', () => {
  it('carries package, code, detail, hint and cause; the message names the package for logs', () => {
    const cause = new Error('ENOENT');
    const error = new ProbeError('broken', 'The probe broke.', { hint: 'Call probe with action "status".', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(ProbeError);
    expect(error).toMatchObject({ name: 'ProbeError', package: 'probe', code: 'broken', detail: 'The probe broke.' });
    expect(error.hint).toBe('Call probe with action "status".');
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('[agent-tools/probe] The probe broke. Call probe with action "status".');
    expect(errorSentence(error)).toBe('The probe broke. Call probe with action "status".');
    expect(errorDetail(error)).toBe('The probe broke.');
    expect(errorSentence(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(errorDetail('plain')).toBe('plain');
  });

  it('CoreError is one of them', () => {
    using dir = scratch();
    let thrown: unknown;
    try {
      resolveInside(dir.path, '../outside');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoreError);
    expect(isAgentToolsError(thrown, 'core', 'outside_workspace')).toBe(true);
    expect(errorSentence(thrown)).not.toMatch(/^\[agent-tools/);
  });

  it('is recognised across two copies of core, by isInstance, instanceof and isAgentToolsError', async () => {
    const copy = await secondCopy();
    const foreign = new copy.CoreError('disposed', 'Gone.');
    expect(foreign instanceof CoreError).toBe(false); // a subclass from another copy is a different class...
    expect(AgentToolsError.isInstance(foreign)).toBe(true); // ...but the base knows it by its brand
    expect(foreign instanceof AgentToolsError).toBe(true);
    expect(isAgentToolsError(foreign, 'core', 'disposed')).toBe(true);
    expect(copy.AgentToolsError.isInstance(new ProbeError('gone', 'x'))).toBe(true);
    expect(errorSentence(foreign)).toBe('Gone.');
  });

  it('is not fooled by look-alikes, and instanceof a subclass stays a class check', () => {
    const lookalike = Object.assign(new Error('[agent-tools/probe] x'), { package: 'probe', code: 'broken', detail: 'x' });
    expect(AgentToolsError.isInstance(lookalike)).toBe(false);
    expect(lookalike instanceof AgentToolsError).toBe(false);
    expect(isAgentToolsError(null)).toBe(false);
    expect(new CoreError('disposed', 'x') instanceof ProbeError).toBe(false);
    expect(isAgentToolsError(new ProbeError('gone', 'x'), 'probe', 'broken')).toBe(false);
    expect(isAgentToolsError(new ProbeError('gone', 'x'), 'core')).toBe(false);
  });
});

describe('the registry renders a thrown error', () => {
  it('an AgentToolsError becomes its sentence and { error: code }, without the prefix, and is not reported as unexpected', async () => {
    const errors: unknown[] = [];
    const error = new ProbeError('broken', 'The probe broke.', { hint: 'Try again.' });
    await using registry = createRegistry({ tools: [throwingTool(error)], onError: (e) => errors.push(e) });
    const result = await registry.call('probe', {});
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'The probe broke. Try again.' }], structured: { error: 'broken' } });
    expect(errors).toEqual([]);
  });

  it('one from another copy of core too', async () => {
    const copy = await secondCopy();
    await using registry = createRegistry({ tools: [throwingTool(new copy.CoreError('invalid_path', 'The path is empty.'))] });
    const result = await registry.call('probe', {});
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'The path is empty.' }], structured: { error: 'invalid_path' } });
  });
});

describe('no sentence the model reads carries the package prefix', () => {
  const lspLike = () => new ProbeError('broken', 'The server did not answer in 10 s.', { hint: 'Call lsp with action "status".' });

  function writeTool() {
    return defineTool({
      name: 'write_probe',
      tier: 'write',
      description: 'Writes and reports diagnostics.',
      parallelSafe: false,
      parameters: z.object({}),
      execute: async (_args, ctx) => textResult(`Wrote a.ts. ${(await ctx.diagnostics.afterWrite([`${ctx.cwd}/a.ts`])).text}`),
    });
  }

  it('a diagnostics source that throws one: the written file is "not verified" with its sentence', async () => {
    using dir = scratch();
    const diagnostics = { check: async () => Promise.reject(lspLike()) };
    await using registry = createRegistry({ tools: [writeTool()], approve: approveAll, resources: { cwd: dir.path, diagnostics } });
    const text = resultText(await registry.call('write_probe', {}));
    expect(text).toBe('Wrote a.ts. a.ts was not verified: The server did not answer in 10 s. Call lsp with action "status".');
  });

  it('an approval step that throws one', async () => {
    await using registry = createRegistry({
      tools: [writeTool()],
      approve: () => {
        throw lspLike();
      },
      onError: () => undefined,
    });
    const text = resultText(await registry.call('write_probe', {}));
    expect(text).toBe(
      'write_probe was refused because the approval step failed: The server did not answer in 10 s. Call lsp with action "status".',
    );
  });

  it("the registry's last net (an unknown surface)", async () => {
    await using registry = createRegistry({ tools: [throwingTool(new Error('unused'))], onError: () => undefined });
    const text = resultText(await registry.call('probe', {}, { surface: 'bogus' }));
    expect(text).toBe('The call to probe could not be made: Unknown surface "bogus"; known surfaces: default, plan, subagent.');
  });

  it('a thrown non-AgentToolsError, one wrapping an AgentToolsError as its cause, and one from a second copy of core', async () => {
    const copy = await secondCopy();
    const cases: [unknown, string][] = [
      [new TypeError('x is undefined'), 'probe failed: x is undefined'],
      [new Error('the request failed', { cause: lspLike() }), 'probe failed: the request failed'],
      [new ProbeError('gone', 'The session ended.', { cause: lspLike() }), 'The session ended.'],
      [new copy.CoreError('disposed', 'The run was disposed.', { hint: 'Start a new run.' }), 'The run was disposed. Start a new run.'],
    ];
    for (const [thrown, sentence] of cases) {
      await using registry = createRegistry({ tools: [throwingTool(thrown)], onError: () => undefined });
      expect(resultText(await registry.call('probe', {}))).toBe(sentence);
    }
  });
});
