import { readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyFileChanges } from '../src/file-changes.js';
import { approveAll, createRegistry, type Diagnostic, defineTool, errorResult, resolveInside, resultText, textResult, wrapWrite } from '../src/index.js';
import { deferred, diag, echoTool, ScriptedSource, scratch, writeTool } from './helpers.js';

function setup(budgetMs = 200) {
  const dir = scratch();
  const source = new ScriptedSource();
  const registry = createRegistry({
    resources: { cwd: dir.path, diagnostics: source },
    tools: [writeTool(dir.path), echoTool('look')],
    approve: approveAll,
    diagnostics: { budgetMs },
  });
  const file = join(dir.path, 'a.ts');
  return {
    source,
    registry,
    file,
    write: (content = 'x') => registry.call('write', { path: 'a.ts', content }),
    [Symbol.asyncDispose]: async () => {
      await registry.dispose();
      dir[Symbol.dispose]();
    },
  };
}

const typeError = (file: string, line: number): Diagnostic =>
  diag(file, line, "Type 'string' is not assignable to type 'number'.", { code: 2322, column: 7 });

describe('the write wrapper', () => {
  it('finds the path in the arguments pathArgument names (tried in order), and says so when it finds none', async () => {
    const dir = scratch();
    const source = new ScriptedSource();
    const save = (name: string) =>
      defineTool({
        name,
        tier: 'write',
        description: 'Save a file.',
        parallelSafe: false,
        parameters: z.object({ target: z.string().optional(), filename: z.string().optional(), text: z.string() }),
        execute: ({ target, filename, text }) => {
          writeFileSync(resolveInside(dir.path, (target ?? filename) as string).absolute, text);
          return textResult('Saved.');
        },
      });
    await using registry = createRegistry({
      resources: { cwd: dir.path, diagnostics: source },
      tools: [
        wrapWrite(save('save'), { pathArgument: ['target', 'filename'] }),
        wrapWrite(save('plain')),
        wrapWrite(save('listed'), { files: () => [] }),
      ],
      approve: approveAll,
    });
    expect(resultText(await registry.call('save', { filename: 'b.ts', text: 'x' }))).toBe('Saved.\nNo new diagnostics in b.ts.');
    expect(source.checks).toEqual([[join(dir.path, 'b.ts')]]);
    expect(resultText(await registry.call('plain', { filename: 'c.ts', text: 'x' }))).toBe(
      'Saved.\nDiagnostics not checked: no path argument (the write wrapper looks in `path`, `file_path` or `file`; a harness names another with its `pathArgument` or `files` option).',
    );
    // A files() callback that names nothing has decided so: nothing to add.
    expect(resultText(await registry.call('listed', { filename: 'd.ts', text: 'x' }))).toBe('Saved.');
    expect(source.checks).toHaveLength(1);
    dir[Symbol.dispose]();
  });

  it('writes first, then asks the source about the touched file, and appends only new diagnostics', async () => {
    await using s = setup();
    s.source.next(s.file, [typeError(s.file, 3)]);
    const first = await s.write('let a: number = "x";');
    expect(readFileSync(s.file, 'utf8')).toBe('let a: number = "x";');
    expect(s.source.checks).toEqual([[s.file]]);
    expect(resultText(first)).toBe(
      ["Wrote a.ts.", 'New diagnostics in a.ts (1):', "  3:7 error 2322: Type 'string' is not assignable to type 'number'."].join('\n'),
    );
    expect(first.structured).toMatchObject({ path: 'a.ts', diagnostics: [{ file: 'a.ts', state: 'checked', newDiagnostics: [{ ...typeError(s.file, 3), file: 'a.ts' }] }] });

    // The same error, moved four lines down: not new.
    s.source.next(s.file, [typeError(s.file, 7)]);
    expect(resultText(await s.write())).toBe('Wrote a.ts.\nNo new diagnostics in a.ts.');

    // A second copy: new.
    s.source.next(s.file, [typeError(s.file, 7), typeError(s.file, 12)]);
    expect(resultText(await s.write())).toContain("New diagnostics in a.ts (1):\n  12:7 error 2322");

    // Fixed, then back: new again.
    s.source.next(s.file, []);
    expect(resultText(await s.write())).toBe('Wrote a.ts.\nNo new diagnostics in a.ts.');
    s.source.next(s.file, [typeError(s.file, 7)]);
    expect(resultText(await s.write())).toContain('New diagnostics in a.ts (1)');
  });

  it('reports information and hints only when asked: by default errors and warnings', async () => {
    await using s = setup();
    s.source.next(s.file, [diag(s.file, 1, 'unused', { severity: 'hint' }), diag(s.file, 2, 'deprecated', { severity: 'warning' })]);
    const text = resultText(await s.write());
    expect(text).toContain('2:1 warning E1: deprecated');
    expect(text).not.toContain('unused');
  });

  it('never calls a pending check clean, and appends the late diagnostics to the next result of the run', async () => {
    await using s = setup();
    const late = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { pending: late.promise });
    const written = await s.write();
    expect(resultText(written)).toBe(
      'Wrote a.ts.\nDiagnostics of a.ts are still pending (no answer within 200 ms); they will be appended to a later result. Do not assume the file is clean.',
    );
    late.resolve([typeError(s.file, 2)]);
    await new Promise((r) => setTimeout(r, 0));
    const next = await s.registry.call('look', {});
    expect(resultText(next)).toBe(
      ['look: hi', 'Late diagnostics from an earlier write:', 'New diagnostics in a.ts (1):', "  2:7 error 2322: Type 'string' is not assignable to type 'number'."].join('\n'),
    );
    // Delivered once.
    expect(resultText(await s.registry.call('look', {}))).toBe('look: hi');
  });

  it('drops late diagnostics of a file that was written again meanwhile', async () => {
    await using s = setup();
    const stale = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { pending: stale.promise });
    await s.write('old');
    s.source.next(s.file, []);
    await s.write('new');
    stale.resolve([typeError(s.file, 1)]);
    await new Promise((r) => setTimeout(r, 0));
    expect(resultText(await s.registry.call('look', {}))).toBe('look: hi');
  });

  it('withdraws late diagnostics that arrived but were not yet read when the file is written again', async () => {
    await using s = setup();
    const stale = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { pending: stale.promise });
    await s.write('broken');
    // They arrive before the next call and wait on the board for its result...
    stale.resolve([typeError(s.file, 1)]);
    await new Promise((r) => setTimeout(r, 0));
    expect(s.registry.notices.pending()).toBe(1);
    // ...which is a write of the same file: they are about text no longer there.
    s.source.next(s.file, []);
    const fixed = await s.write('fixed');
    expect(resultText(fixed)).toBe('Wrote a.ts.\nNo new diagnostics in a.ts.');
    expect(s.registry.notices.pending()).toBe(0);
  });

  it('says when late diagnostics never arrived', async () => {
    await using s = setup();
    const gaveUp = deferred<readonly Diagnostic[] | undefined>();
    s.source.next(s.file, { pending: gaveUp.promise });
    await s.write();
    gaveUp.resolve(undefined);
    await new Promise((r) => setTimeout(r, 0));
    expect(resultText(await s.registry.call('look', {}))).toContain('Diagnostics of a.ts never arrived: the file is not verified.');
  });

  it('turns a source that overruns its budget into a pending answer delivered later', async () => {
    await using s = setup(20);
    s.source.delayMs = 2100;
    s.source.next(s.file, [typeError(s.file, 4)]);
    expect(resultText(await s.write())).toContain('Diagnostics of a.ts are still pending');
    await new Promise((r) => setTimeout(r, 200));
    expect(resultText(await s.registry.call('look', {}))).toContain('New diagnostics in a.ts (1)');
  });

  it('says why a file was not checked, and that a failing source leaves it unverified', async () => {
    await using s = setup();
    s.source.next(s.file, { unchecked: 'no language server handles .ts files here' });
    expect(resultText(await s.write())).toBe('Wrote a.ts.\na.ts was not checked: no language server handles .ts files here.');

    s.source.check = async () => {
      throw new Error('server crashed');
    };
    expect(resultText(await s.write())).toBe('Wrote a.ts.\na.ts was not verified: server crashed.');
  });

  it('takes a baseline of an existing file so problems that were already there are not blamed on the write', async () => {
    await using s = setup();
    writeFileSync(s.file, 'old content with an old problem');
    const old = diag(s.file, 1, 'old problem');
    s.source.baselineOf(s.file, [old]);
    s.source.next(s.file, [old, diag(s.file, 2, 'new problem')]);
    const text = resultText(await s.write());
    expect(s.source.baselines).toEqual([[s.file]]);
    expect(text).toContain('New diagnostics in a.ts (1):\n  2:1 error E1: new problem');
    expect(text).not.toContain('old problem');
    // The baseline is taken once per file and run.
    await s.write();
    expect(s.source.baselines).toHaveLength(1);
  });

  it('a baseline that does not arrive in time calls nothing new: the file\'s diagnostics are listed as such, and the next write compares', async () => {
    await using s = setup();
    writeFileSync(s.file, 'old content with an old problem');
    s.source.baselineOf(s.file, 'never');
    const old = diag(s.file, 1, 'old problem');
    s.source.next(s.file, [old]);
    const first = await s.write();
    expect(resultText(first)).toBe(
      "Wrote a.ts.\nDiagnostics of a.ts from before the write were not known in time, so which are new cannot be told; it has 1 now:\n  1:1 error E1: old problem",
    );
    expect(first.structured).toMatchObject({ diagnostics: [{ file: 'a.ts', state: 'checked', newDiagnostics: [], unknownBefore: [{ message: 'old problem' }] }] });
    s.source.next(s.file, [old, diag(s.file, 2, 'new problem')]);
    expect(resultText(await s.write())).toBe('Wrote a.ts.\nNew diagnostics in a.ts (1):\n  2:1 error E1: new problem');
  });

  it('leaves failed writes and runs without a source alone', async () => {
    const failing = wrapWrite(
      defineTool({
        name: 'failing',
        tier: 'write',
        description: 'Fails.',
        parallelSafe: true,
        parameters: z.object({ path: z.string() }),
        execute: () => errorResult('disk full'),
      }),
    );
    const source = new ScriptedSource();
    await using registry = createRegistry({ resources: { cwd: '/tmp', diagnostics: source }, tools: [failing], approve: approveAll });
    expect(resultText(await registry.call('failing', { path: 'x' }))).toBe('disk full');
    expect(source.checks).toEqual([]);

    using dir = scratch();
    await using bare = createRegistry({ resources: { cwd: dir.path }, tools: [writeTool(dir.path)], approve: approveAll });
    expect(resultText(await bare.call('write', { path: 'b.ts', content: '' }))).toBe('Wrote b.ts.');
  });

  it('asks for the files a custom files() names, such as those an apply_patch touched', async () => {
    const source = new ScriptedSource();
    const patch = wrapWrite(
      defineTool({
        name: 'apply_patch',
        tier: 'write',
        description: 'Applies a patch.',
        parallelSafe: false,
        parameters: z.object({ patch: z.string() }),
        execute: () => textResult('Applied.', { files: ['x.ts', 'y.ts'] }),
      }),
      { files: (_params, result) => ((result?.structured as { files?: string[] } | undefined)?.files ?? []) },
    );
    await using registry = createRegistry({ resources: { cwd: '/w', diagnostics: source }, tools: [patch], approve: approveAll });
    expect(resultText(await registry.call('apply_patch', { patch: '...' }))).toBe('Applied.\nNo new diagnostics in x.ts, y.ts.');
    expect(source.checks).toEqual([['/w/x.ts', '/w/y.ts']]);
  });

  it('holds the file\'s write lock through an asynchronous edit: a resolve of the same file waits and then refuses, nothing is lost', async () => {
    using dir = scratch();
    const file = join(dir.path, 'a.ts');
    writeFileSync(file, 'one\n');
    const paused = deferred<void>();
    const reading = deferred<void>();
    // A harness's own edit that reads and writes asynchronously, as most do.
    const edit = wrapWrite(
      defineTool({
        name: 'edit',
        tier: 'write',
        description: 'Append a line.',
        parallelSafe: false,
        parameters: z.object({ path: z.string() }),
        execute: async ({ path }) => {
          const target = resolveInside(dir.path, path);
          const before = await readFile(target.absolute, 'utf8');
          reading.resolve();
          await paused.promise;
          await writeFile(target.absolute, `${before}edited\n`);
          return textResult(`Edited ${target.relative}.`);
        },
      }),
    );
    await using registry = createRegistry({ resources: { cwd: dir.path }, tools: [edit], approve: approveAll });
    const edited = registry.call('edit', { path: 'a.ts' });
    await reading.promise;
    // The edit has read the file and not yet written it: a resolve of the same file comes in now.
    const applied = applyFileChanges([{ path: file, before: 'one\n', after: 'one\nresolved\n' }]);
    // Unlocked, the resolve would finish now; locked, it waits for the edit, so the edit is let go after a while.
    await Promise.race([applied, new Promise((resolve) => setTimeout(resolve, 2000))]);
    paused.resolve();
    expect(resultText(await edited)).toBe('Edited a.ts.');
    // Had it not waited, it would have said ok and the edit, written from what it read before, would have undone it.
    expect(await applied).toEqual({ ok: false, kind: 'changed', changed: [{ path: file, now: 'modified' }] });
    expect(readFileSync(file, 'utf8')).toBe('one\nedited\n');
  });
});
