import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  approveAll,
  createRegistry,
  type Diagnostic,
  type DiagnosticsSource,
  type FileCheck,
  resultText,
} from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type AstEditResult, astTools, createTreeSitterLoader, type ResolveResult } from '../src/index.js';

const loader = createTreeSitterLoader({ workers: 1 });
afterAll(() => loader.dispose());

/** A real checker: CPython's own parser, reporting syntax errors of written .py files. */
class PythonSyntaxChecker implements DiagnosticsSource {
  readonly checked: string[][] = [];
  async check(files: readonly string[]): Promise<readonly FileCheck[]> {
    this.checked.push([...files]);
    return files.map((file) => {
      const run = spawnSync('/usr/bin/python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1]).read())', file], {
        encoding: 'utf8',
      });
      const diagnostics: Diagnostic[] = [];
      const line = /line (\d+)/.exec(run.stderr);
      if (run.status !== 0) {
        diagnostics.push({ file, line: Number(line?.[1] ?? 1), severity: 'error', message: run.stderr.trim().split('\n').pop() ?? 'error' });
      }
      return { file, state: 'checked', diagnostics };
    });
  }
}

function setup(files: Record<string, string>, diagnostics?: DiagnosticsSource) {
  const dir = tempDir(files);
  const registry = createRegistry({
    resources: { cwd: dir.path, treeSitter: loader, ...(diagnostics ? { diagnostics } : {}) },
    factories: [astTools],
    approve: approveAll,
  });
  // The loader is shared by the tests of this file; the registry must not dispose it.
  const call = (tool: string, args: unknown) => registry.call(tool, args);
  return {
    dir,
    call,
    read: (file: string) => readFileSync(dir.join(file), 'utf8'),
    [Symbol.asyncDispose]: async () => dir.remove(),
  };
}

const PY = [
  'class Stock:',
  '    def total(self, items):',
  '        for i in range(len(items)):',
  '            item = items[i]',
  '            self.add(item)',
  '        return self.sum',
  '',
  'def report(rows):',
  '    for i in range(len(rows)):',
  '        print(rows[i])',
  '',
].join('\n');

describe('ast_edit', () => {
  it('stages instead of writing, with an edit id and a unified diff preview', async () => {
    await using t = setup({ 'src/a.ts': 'foo(1);\nfoo(2, 3);\n', 'src/b.ts': 'const x = foo();\n' });
    const result = await t.call('ast_edit', { pattern: 'foo($$$ARGS)', rewrite: 'bar($$$ARGS)', language: 'typescript' });
    const text = resultText(result);
    expect(result.isError).toBe(false);
    expect(text).toMatch(/^\(proposed\) 3 replacements in 2 files: src\/a\.ts \(2\), src\/b\.ts \(1\)\. .*call resolve with edit_id "edit_1"/);
    expect(text).toContain('--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n-foo(1);\n-foo(2, 3);\n+bar(1);\n+bar(2, 3);');
    expect(t.read('src/a.ts')).toBe('foo(1);\nfoo(2, 3);\n');
    expect((result.structured as AstEditResult).editId).toBe('edit_1');
  });

  it('keeps a $$$ list with its original separators', async () => {
    await using t = setup({ 'a.py': 'foo(a,b,   c)\nfoo(\n    x,\n    y,\n)\n' });
    await t.call('ast_edit', { pattern: 'foo($$$ARGS)', rewrite: 'bar($$$ARGS)', path: 'a.py' });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.py')).toBe('bar(a,b,   c)\nbar(\n    x,\n    y,\n)\n');
  });

  it('keeps the layout of an indented multi-line call it rewrites around', async () => {
    const code = 'function f() {\n  return foo(\n    a,\n    b,\n  );\n}\n';
    await using t = setup({ 'a.ts': code });
    await t.call('ast_edit', { pattern: 'foo($$$ARGS)', rewrite: 'wrap(bar($$$ARGS))', path: 'a.ts' });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.ts')).toBe('function f() {\n  return wrap(bar(\n    a,\n    b,\n  ));\n}\n');
  });

  it('re-indents a multi-line python rewrite to each match, so the file stays valid', async () => {
    await using t = setup({ 'stock.py': PY });
    const result = await t.call('ast_edit', {
      pattern: 'for $I in range(len($L)):\n    $$$BODY',
      rewrite: 'for $I, _ in enumerate($L):\n    $$$BODY',
      path: 'stock.py',
    });
    expect(resultText(result)).toContain('(proposed) 2 replacements in 1 file');
    expect(resultText(result)).not.toContain('no longer parses');
    const accepted = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(accepted.isError).toBe(false);
    expect(t.read('stock.py')).toBe(
      [
        'class Stock:',
        '    def total(self, items):',
        '        for i, _ in enumerate(items):',
        '            item = items[i]',
        '            self.add(item)',
        '        return self.sum',
        '',
        'def report(rows):',
        '    for i, _ in enumerate(rows):',
        '        print(rows[i])',
        '',
      ].join('\n'),
    );
    execFileSync('/usr/bin/python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1]).read())', t.dir.join('stock.py')]);
  });

  it('re-indents captured multi-line code into a deeper block', async () => {
    await using t = setup({ 'a.py': 'def f(x):\n    if x:\n        a()\n        b()\n' });
    await t.call('ast_edit', {
      pattern: 'if $C:\n    $$$BODY',
      rewrite: 'if $C:\n    try:\n        $$$BODY\n    except Exception:\n        pass',
      path: 'a.py',
    });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.py')).toBe(
      'def f(x):\n    if x:\n        try:\n            a()\n            b()\n        except Exception:\n            pass\n',
    );
  });

  it('rewrites the outermost of nested matches and says how many inner ones were left', async () => {
    await using t = setup({ 'a.js': 'foo(foo(1));\nfoo(2);\n' });
    const result = await t.call('ast_edit', { pattern: 'foo($A)', rewrite: 'bar($A)', path: 'a.js' });
    expect(resultText(result)).toContain('(proposed) 2 replacements in 1 file');
    expect(resultText(result)).toContain('1 match nested inside a replaced match was left as it is (the outermost match wins)');
    expect((result.structured as AstEditResult).innerMatchesLeft).toBe(1);
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.js')).toBe('bar(foo(1));\nbar(2);\n');
  });

  it('warns when the rewrite leaves a file that no longer parses', async () => {
    await using t = setup({ 'a.py': 'x = f(1)\n' });
    const result = await t.call('ast_edit', { pattern: 'f($A)', rewrite: 'f($A', path: 'a.py' });
    expect(resultText(result)).toContain('Warning: after this rewrite a.py has 1 syntax error (0 before), at line 1.');
  });

  it('refuses a rewrite using metavariables the pattern does not capture', async () => {
    await using t = setup({ 'a.py': 'f(1)\n' });
    const result = await t.call('ast_edit', { pattern: 'f($A)', rewrite: 'g($B, $A)', path: 'a.py' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('The rewrite uses $B, which the pattern does not capture (it captures: $A)');
  });

  it('stages nothing when nothing matches, and says what was searched', async () => {
    await using t = setup({ 'a.py': 'f(1)\n' });
    const result = await t.call('ast_edit', { pattern: 'g($A)', rewrite: 'h($A)', path: 'a.py' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toContain('Nothing to edit. No match for `g($A)` in a.py (python).');
    const resolved = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(resultText(resolved)).toContain('There is no staged edit "edit_1" in this run. No edit is waiting');
  });

  it('deletes the matches with an empty rewrite', async () => {
    await using t = setup({ 'a.ts': 'debugger;\nrun();\n' });
    await t.call('ast_edit', { pattern: 'debugger;', rewrite: '', path: 'a.ts' });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.ts')).toBe('\nrun();\n');
  });
});

describe('resolve', () => {
  let files: Record<string, string>;
  beforeEach(() => {
    files = { 'a.py': 'old(1)\n', 'b/b.py': 'old(2)\n', 'c/c.py': 'x = old(3)\n' };
  });

  it('accepts once; a second use of the id says it was already accepted', async () => {
    await using t = setup(files);
    await t.call('ast_edit', { pattern: 'old($A)', rewrite: 'new($A)', language: 'python' });
    const accepted = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(resultText(accepted)).toBe('Applied edit_1: 3 replacements in 3 files (a.py, b/b.py, c/c.py).');
    expect([t.read('a.py'), t.read('b/b.py'), t.read('c/c.py')]).toEqual(['new(1)\n', 'new(2)\n', 'x = new(3)\n']);
    const again = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(again.isError).toBe(true);
    expect(resultText(again)).toContain('edit_1 was already accepted');
  });

  it('rejects the whole edit when one of several files changed since staging, and writes none of them', async () => {
    await using t = setup(files);
    await t.call('ast_edit', { pattern: 'old($A)', rewrite: 'new($A)', language: 'python' });
    writeFileSync(t.dir.join('b/b.py'), 'old(2)  # edited by hand\n');
    const result = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Rejected edit_1: 1 file changed since the edit was staged (b/b.py). Nothing was written.');
    expect((result.structured as ResolveResult).changed).toEqual(['b/b.py']);
    expect([t.read('a.py'), t.read('b/b.py'), t.read('c/c.py')]).toEqual(['old(1)\n', 'old(2)  # edited by hand\n', 'x = old(3)\n']);
    const again = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(resultText(again)).toContain('edit_1 was rejected (b/b.py changed after it was staged)');
  });

  it('discards without writing; unknown ids list the edits waiting', async () => {
    await using t = setup(files);
    await t.call('ast_edit', { pattern: 'old($A)', rewrite: 'new($A)', language: 'python' });
    await t.call('ast_edit', { pattern: 'old($A)', rewrite: 'newer($A)', language: 'python' });
    const unknown = await t.call('resolve', { edit_id: 'edit_9', action: 'accept' });
    expect(resultText(unknown)).toContain('Edits waiting: edit_1, edit_2.');
    const discarded = await t.call('resolve', { edit_id: 'edit_1', action: 'discard' });
    expect(resultText(discarded)).toBe('Discarded edit_1; nothing was written.');
    expect(t.read('a.py')).toBe('old(1)\n');
    expect(resultText(await t.call('resolve', { edit_id: 'edit_1', action: 'accept' }))).toContain('edit_1 was discarded earlier');
    expect((await t.call('resolve', { edit_id: 'edit_2', action: 'accept' })).isError).toBe(false);
    expect(t.read('a.py')).toBe('newer(1)\n');
  });

  it('restores every file already replaced when a later rename fails, and keeps the edit staged', async () => {
    await using t = setup(files);
    await t.call('ast_edit', { pattern: 'old($A)', rewrite: 'new($A)', language: 'python' });
    // An immutable file cannot be replaced, even by root: the third rename fails after two succeeded.
    execFileSync('chattr', ['+i', t.dir.join('c/c.py')]);
    try {
      const failed = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
      expect(failed.isError).toBe(true);
      expect(resultText(failed)).toContain('the files already replaced were restored (a.py, b/b.py), so nothing changed. The edit is still staged');
      expect([t.read('a.py'), t.read('b/b.py'), t.read('c/c.py')]).toEqual(['old(1)\n', 'old(2)\n', 'x = old(3)\n']);
      for (const sub of ['.', 'b', 'c']) {
        expect(readdirSync(t.dir.join(sub)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      }
    } finally {
      execFileSync('chattr', ['-i', t.dir.join('c/c.py')]);
    }
    expect((await t.call('resolve', { edit_id: 'edit_1', action: 'accept' })).isError).toBe(false);
    expect(t.read('c/c.py')).toBe('x = new(3)\n');
  });

  it('sends accepted writes through the run diagnostics hook, so new problems show up', async () => {
    const checker = new PythonSyntaxChecker();
    await using t = setup({ 'ok.py': 'x = f(1)\n', 'bad.py': 'y = f(2)\n' }, checker);
    await t.call('ast_edit', { pattern: 'f($A)', rewrite: 'f($A', language: 'python' });
    const result = await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(result.isError).toBe(false);
    const text = resultText(result);
    expect(text).toContain('Applied edit_1: 2 replacements in 2 files (bad.py, ok.py).');
    expect(text).toMatch(/bad\.py[\s\S]*SyntaxError/);
    expect(checker.checked.at(-1)).toEqual([t.dir.join('bad.py'), t.dir.join('ok.py')]);
  });
});

describe('rewrites fit the file', () => {
  it('writes the template indentation in the file unit: tabs in Go', async () => {
    const code = 'package p\n\nfunc f() error {\n\tif err := g(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n';
    await using t = setup({ 'a.go': code });
    await t.call('ast_edit', {
      pattern: 'if err := $CALL; err != nil {\n    return err\n}',
      rewrite: 'if err := $CALL; err != nil {\n    return fmt.Errorf("g: %w", err)\n}',
      path: 'a.go',
    });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.go')).toBe(
      'package p\n\nfunc f() error {\n\tif err := g(); err != nil {\n\t\treturn fmt.Errorf("g: %w", err)\n\t}\n\treturn nil\n}\n',
    );
  });

  it('an empty $$$ run takes its separator, or its whole line, with it', async () => {
    await using t = setup({ 'a.py': 'foo()\nfoo(1, 2)\n\ndef f(x):\n    if x:\n        go()\n' });
    await t.call('ast_edit', { pattern: 'foo($$$A)', rewrite: 'bar($$$A, extra)', path: 'a.py' });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.py')).toBe('bar(extra)\nbar(1, 2, extra)\n\ndef f(x):\n    if x:\n        go()\n');
    await t.call('ast_edit', {
      pattern: 'if $C:\n    $S\n    $$$REST',
      rewrite: 'if not $C:\n    return\n$S\n$$$REST',
      path: 'a.py',
    });
    await t.call('resolve', { edit_id: 'edit_2', action: 'accept' });
    expect(t.read('a.py')).toBe('bar(extra)\nbar(1, 2, extra)\n\ndef f(x):\n    if not x:\n        return\n    go()\n');
  });

  it('keeps CRLF line endings', async () => {
    await using t = setup({ 'a.ts': 'function f() {\r\n  return g(1);\r\n}\r\n' });
    await t.call('ast_edit', { pattern: 'return g($A);', rewrite: 'const v = g($A);\nreturn v;', path: 'a.ts' });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.ts')).toBe('function f() {\r\n  const v = g(1);\r\n  return v;\r\n}\r\n');
  });
});

describe('rewrite templates', () => {
  it('leave identifiers that start with $ and an upper-case letter as code ($ZodType), substituting only metavariables', async () => {
    await using t = setup({ 'a.ts': 'const s = make(x);\n' });
    const result = await t.call('ast_edit', { pattern: 'make($A)', rewrite: 'make<$ZodType>($A)', path: 'a.ts' });
    expect(result.isError).toBe(false);
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.ts')).toBe('const s = make<$ZodType>(x);\n');
  });

  it('substitute two metavariables written together ($B$A, a shell concatenation), but not a name running on ($A$b)', async () => {
    await using t = setup({ 'a.sh': 'PATH=$PATH:/usr/sbin\n' });
    await t.call('ast_edit', { pattern: '$A$B', rewrite: '$B$A', path: 'a.sh', language: 'bash' });
    await t.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(t.read('a.sh')).toBe('PATH=:/usr/sbin$PATH\n');
    await using u = setup({ 'a.ts': 'const s = make(x);\n' });
    await u.call('ast_edit', { pattern: 'make($A)', rewrite: 'make($A$b)', path: 'a.ts' });
    await u.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(u.read('a.ts')).toBe('const s = make($A$b);\n');
  });
});
