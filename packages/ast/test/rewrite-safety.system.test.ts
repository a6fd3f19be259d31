import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstEditResult, astTools, createTreeSitterLoader } from '../src/index.js';
import { copyCorpus } from './corpus.js';

const loader = createTreeSitterLoader({ workers: 1 });
afterAll(() => loader.dispose());

function setup(files: Record<string, string>) {
  const dir = tempDir(files);
  const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
  const edit = async (args: Record<string, unknown>) => {
    const result = await registry.call('ast_edit', args);
    return { text: resultText(result), structured: result.structured as AstEditResult };
  };
  const accept = async (id = 'edit_1') => registry.call('resolve', { edit_id: id, action: 'accept' });
  return { dir, edit, accept, read: (f: string) => readFileSync(dir.join(f), 'utf8'), [Symbol.asyncDispose]: async () => dir.remove() };
}

const pyParse = (file: string): string =>
  execFileSync('/usr/bin/python3', ['-c', 'import ast,sys; print(ast.dump(ast.parse(open(sys.argv[1]).read())))', file], { encoding: 'utf8' });

describe('re-indentation never changes meaning (issue 6)', () => {
  it('go: a raw string inside a rewritten loop keeps every line exactly', async () => {
    const code = 'package p\n\nfunc f() {\n\tfor i := 0; i < n; i++ {\n\t\ts := `first\n  second\nthird`\n\t\tuse(s)\n\t}\n}\n';
    await using t = setup({ 'a.go': code });
    await t.edit({ pattern: 'for $I := 0; $I < $N; $I++ {\n\t$$$BODY\n}', rewrite: 'for $I := range $N {\n\t$$$BODY\n}', path: 'a.go' });
    await t.accept();
    expect(t.read('a.go')).toBe('package p\n\nfunc f() {\n\tfor i := range n {\n\t\ts := `first\n  second\nthird`\n\t\tuse(s)\n\t}\n}\n');
  });

  it("python: a for ... else keeps its else on the for, not under the block's last if", async () => {
    const code = 'def f(xs):\n    for x in xs:\n        if x:\n            break\n    else:\n        done()\n';
    await using t = setup({ 'a.py': code });
    const before = pyParse(t.dir.join('a.py'));
    await t.edit({ pattern: 'for $I in $X:\n    $$$BODY', rewrite: 'for $I in sorted($X):\n    $$$BODY', path: 'a.py' });
    await t.accept();
    expect(t.read('a.py')).toBe('def f(xs):\n    for x in sorted(xs):\n        if x:\n            break\n    else:\n        done()\n');
    expect(pyParse(t.dir.join('a.py'))).toBe(before.replace("iter=Name(id='xs', ctx=Load())", "iter=Call(func=Name(id='sorted', ctx=Load()), args=[Name(id='xs', ctx=Load())], keywords=[])"));
  });

  it('python: a multi-line string inside a capture moved deeper keeps its lines', async () => {
    const code = 'def f(x):\n    if x:\n        s = """a\n  b\nc"""\n        g(s)\n';
    await using t = setup({ 'a.py': code });
    await t.edit({ pattern: 'if $C:\n    $$$B', rewrite: 'if $C:\n    try:\n        $$$B\n    except E:\n        pass', path: 'a.py' });
    await t.accept();
    expect(t.read('a.py')).toBe('def f(x):\n    if x:\n        try:\n            s = """a\n  b\nc"""\n            g(s)\n        except E:\n            pass\n');
  });
});

describe('the indentation unit comes from code lines only (issue 7)', () => {
  it('a 4-space python file with an HTML string indented by 2 gets a 4-space rewrite', async () => {
    const code = 'PAGE = """\n<div>\n  <p>x</p>\n</div>\n"""\n\n\ndef f(x):\n    return g(x)\n';
    await using t = setup({ 'a.py': code });
    await t.edit({ pattern: 'return g($A)', rewrite: 'if $A:\n  return g($A)\nreturn None', path: 'a.py' });
    await t.accept();
    expect(t.read('a.py')).toContain('    if x:\n        return g(x)\n    return None\n');
  });
});

describe('comments inside a match are kept or named (issue 8)', () => {
  it('keeps the comments a capture holds (python: comments before a block belong to the run)', async () => {
    const code = 'def f(x):\n    if x:  # why\n        # first\n        a()\n        # between\n        b()\n';
    await using t = setup({ 'a.py': code });
    const kept = await t.edit({ pattern: 'if $C:\n    $$$B', rewrite: 'if not $C:\n    $$$B', path: 'a.py' });
    expect(kept.structured.droppedComments).toEqual([]);
    for (const comment of ['# why', '# first', '# between']) expect(kept.structured.diff).toContain(comment);
    const dropped = await t.edit({ pattern: 'if $C:\n    $$$B', rewrite: 'pass', path: 'a.py' });
    expect(dropped.structured.droppedComments).toEqual([
      { file: 'a.py', line: 2, text: '# why' },
      { file: 'a.py', line: 3, text: '# first' },
      { file: 'a.py', line: 5, text: '# between' },
    ]);
    expect(dropped.text.split('\n')[1]).toContain('Loses: 3 comments inside the replaced code');
    expect(dropped.text).toContain('  a.py:2: # why\n  a.py:3: # first\n  a.py:5: # between');
  });

  it('go: the comment in front of the first statement travels with the run of statements (issue 21, item 3)', async () => {
    const code = 'package p\n\nfunc f() {\n\t// Start here.\n\ta()\n\t// then\n\tb()\n}\n';
    await using t = setup({ 'a.go': code });
    const result = await t.edit({ pattern: 'func $F() {\n\t$$$B\n}', rewrite: 'func $F() {\n\tdefer trace()\n\t$$$B\n}', path: 'a.go' });
    expect(result.structured.droppedComments).toEqual([]);
    await t.accept();
    expect(t.read('a.go')).toBe('package p\n\nfunc f() {\n\tdefer trace()\n\t// Start here.\n\ta()\n\t// then\n\tb()\n}\n');
  });

  it('go: a comment on the line of the opening brace travels with the run, which keeps its indentation', async () => {
    const code = 'package p\n\nfunc f() { // why\n\ta()\n}\n';
    await using t = setup({ 'a.go': code });
    const result = await t.edit({ pattern: 'func $F() {\n\t$$$B\n}', rewrite: 'func $F() {\n\tdefer trace()\n\t$$$B\n}', path: 'a.go' });
    expect(result.structured.droppedComments).toEqual([]);
    await t.accept();
    expect(t.read('a.go')).toBe('package p\n\nfunc f() {\n\tdefer trace()\n\t// why\n\ta()\n}\n');
  });
});

describe('a rewrite that adds syntax errors says where (issue 9)', () => {
  it('also in a file that had errors before', async () => {
    await using t = setup({ 'a.py': 'def a(:\n    pass\n\n\ny = f(1)\n' });
    const result = await t.edit({ pattern: 'f($A)', rewrite: 'f($A', path: 'a.py' });
    expect(result.text).toMatch(/Warning: after this rewrite a\.py has \d+ syntax errors? \(1 before\)/);
    expect(result.structured.breaksSyntax[0]?.before).toBe(1);
  });
});

describe('identity rewrites are no-ops on real code (python standard library)', () => {
  it('rewriting blocks to themselves changes nothing but the one-line blocks and the dropped comments', { timeout: 120_000 }, async () => {
    await using t = setup({});
    copyCorpus('/usr/lib/python3.11/json', join(t.dir.path, 'json'), (n) => n.endsWith('.py'));
    copyCorpus('/usr/lib/python3.11/email', join(t.dir.path, 'email'), (n) => n.endsWith('.py'), { limit: 12 });
    for (const [i, pattern] of ['for $I in $X:\n    $$$B', 'if $C:\n    $$$B', 'def $F($$$P):\n    $$$B', 'with $E as $V:\n    $$$B'].entries()) {
      const result = await t.edit({ pattern, rewrite: pattern, language: 'python' });
      if (!result.structured.editId) continue; // nothing to change: every match already reads as the rewrite
      const touched = new Set(result.structured.droppedComments.map((c) => c.file));
      for (const hunk of result.structured.diff.split(/^--- a\//m).slice(1)) {
        const file = hunk.slice(0, hunk.indexOf('\n'));
        const removed = hunk.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
        const added = hunk.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
        // A one-line block (`if x: return`) becomes two lines; a dropped comment disappears; nothing else moves.
        const oneLiners = removed.filter((l) => /:\s*\S/.test(l.replace(/#.*/, '').replace(/["'][^"']*["']/g, '')));
        if (oneLiners.length === 0 && !touched.has(file)) expect(added, `${pattern} in ${file}`).toEqual([]);
      }
      await t.accept(`edit_${i + 1}`);
    }
    for (const file of ['json/__init__.py', 'json/decoder.py', 'json/encoder.py']) pyParse(t.dir.join(file));
  });
});
