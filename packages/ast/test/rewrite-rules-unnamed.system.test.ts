import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { gofmtErrors, npmFile, pythonAst, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

const PY = '/usr/lib/python3.11';
const TRY_PASS = 'try:\n    $$$BODY\nexcept $E:\n    pass';
const HANDLER = 'try:\n    $$$BODY\nexcept $E:\n    _ignored()';

/** The clause lines of a file (`else:`, `except ...:`, `finally:`, `elif ...:`). */
const clauses = (text: string): string[] => text.split('\n').filter((l) => /^\s*(else|except|finally|elif)\b.*:\s*$/.test(l));

/** The files a rewrite writes, by name. */
async function rewritten(files: readonly string[], args: Record<string, unknown>): Promise<{ texts: Record<string, string>; text: string; structured: Awaited<ReturnType<ReturnType<typeof realWorkspace>['edit']>>['structured'] }> {
  await using t = realWorkspace(loader, files);
  const result = await t.edit(args);
  if (result.structured.editId) await t.accept(result.structured.editId);
  const texts = Object.fromEntries(files.map((f) => [f.split('/').pop() as string, t.read(f.split('/').pop() as string)]));
  return { texts, text: result.text, structured: result.structured };
}

describe('rule-object rewrites keep what their patterns do not name, as pattern rewrites do (issue 21, item 1)', () => {
  it('python argparse.py/subprocess.py: a rule with the try/except pattern (alone, or with others in `all`) keeps every else and handler', async () => {
    const files = [`${PY}/argparse.py`, `${PY}/subprocess.py`];
    const byPattern = await rewritten(files, { pattern: TRY_PASS, rewrite: HANDLER, language: 'python' });
    const byRule = await rewritten(files, { rule: JSON.stringify({ pattern: TRY_PASS }), rewrite: HANDLER, language: 'python' });
    // Two patterns on one node (`all`): what neither names is kept too.
    const byAll = await rewritten(files, {
      rule: JSON.stringify({ all: [{ kind: 'try_statement' }, { pattern: TRY_PASS }, { pattern: 'try:\n    $$$BODY\nexcept $E:\n    $$$H' }] }),
      rewrite: HANDLER,
      language: 'python',
    });
    // (A rule's pattern reads comments as ast-grep does, so its matches can differ from the pattern's: compare
    // the rule forms with each other, and each with the original's clauses.)
    expect(byPattern.structured.keptTails).toBeGreaterThan(0);
    expect(byRule.structured.keptTails).toBeGreaterThan(0);
    expect(byAll.structured.keptTails).toBeGreaterThan(0);
    await using original = realWorkspace(loader, files);
    for (const name of ['argparse.py', 'subprocess.py']) {
      expect(clauses(byRule.texts[name] as string), name).toEqual(clauses(original.read(name)));
      expect(clauses(byAll.texts[name] as string), name).toEqual(clauses(original.read(name)));
    }
    // argparse.py:648: the else after the rewritten handler is still there, and CPython reads the file.
    expect(byRule.texts['argparse.py']).toContain(
      '        except AttributeError:\n            _ignored()\n        else:\n            self._indent()\n            yield from get_subactions()\n',
    );
    const count = (dump: string, what: string) => dump.split(what).length;
    await using t = realWorkspace(loader, files);
    for (const name of ['argparse.py', 'subprocess.py']) {
      const was = pythonAst(t.dir.join(name));
      await using after = realWorkspace(loader, []);
      const { writeFileSync } = await import('node:fs');
      writeFileSync(after.dir.join(name), byRule.texts[name] as string);
      const now = pythonAst(after.dir.join(name));
      for (const what of ['ExceptHandler(', 'orelse=[]', 'finalbody=[]']) expect(count(now, what), `${name}: ${what}`).toBe(count(was, what));
    }
  });

  it('python: a rule whose rewrite cannot keep the else (contextlib.suppress) leaves argparse.py:648 alone and names it', async () => {
    const { texts, text, structured } = await rewritten([`${PY}/argparse.py`], {
      rule: JSON.stringify({ pattern: TRY_PASS }),
      rewrite: 'with contextlib.suppress($E):\n    $$$BODY',
      language: 'python',
    });
    expect(text).toMatch(/^\(proposed\)[^\n]*\nNot rewritten: 2 matches where the code after what the pattern names would not parse/);
    expect(structured.untouched).toContainEqual(expect.objectContaining({ file: 'argparse.py', line: 648, reason: 'tail' }));
    expect(texts['argparse.py']).toContain('        try:\n            get_subactions = action._get_subactions\n        except AttributeError:\n            pass\n        else:\n');
    expect(texts['argparse.py']).toContain('with contextlib.suppress(ValueError):');
  });

  it('a rule that names the node by kind alone replaces it whole (it names all of it), as ast-grep does', async () => {
    const { texts, structured } = await rewritten([`${PY}/argparse.py`], {
      rule: JSON.stringify({ kind: 'try_statement', has: { pattern: 'get_subactions = action._get_subactions', stopBy: 'end' } }),
      rewrite: 'pass',
      language: 'python',
    });
    expect(structured.replacements).toBe(1);
    expect(structured.keptTails).toBe(0);
    expect(texts['argparse.py']).not.toContain('yield from get_subactions()');
  });

  it('go strings.go: a rule with `if $C { $$$B }` keeps every else, gofmt reads the result', async () => {
    const before = (await rewritten(['/usr/lib/go/src/strings/strings.go'], { pattern: 'zzz_never($A)', rewrite: '$A' })).texts['strings.go'] as string;
    const { texts, structured } = await rewritten(['/usr/lib/go/src/strings/strings.go'], {
      rule: JSON.stringify({ pattern: 'if $C {\n\t$$$B\n}', inside: { kind: 'function_declaration', stopBy: 'end' } }),
      rewrite: 'if $C {\n\ttrace()\n\t$$$B\n}',
    });
    expect(structured.keptTails).toBeGreaterThan(0);
    const after = texts['strings.go'] as string;
    expect(after.match(/} else/g)?.length).toBe(before.match(/} else/g)?.length);
    await using t = realWorkspace(loader, []);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(t.dir.join('strings.go'), after);
    expect(gofmtErrors(t.dir.join('strings.go'))).toBe('');
  });

  it('javascript (zod): a rule whose pattern does not name `async` leaves async functions alone and says so', async () => {
    const file = npmFile('zod', 'v4', 'core', 'schemas.js');
    const { text, structured } = await rewritten([file], {
      rule: JSON.stringify({ pattern: 'function $F($$$P) { $$$B }', kind: 'function_declaration' }),
      rewrite: 'function $F($$$P) {\n  trace();\n  $$$B\n}',
      language: 'javascript',
    });
    const unnamed = structured.untouched.filter((u) => u.reason === 'unnamed');
    expect(unnamed.length).toBeGreaterThan(0);
    expect(unnamed.every((u) => u.text === 'async')).toBe(true);
    expect(unnamed).toContainEqual(expect.objectContaining({ file: 'schemas.js', line: 133 }));
    expect(structured.replacements).toBeGreaterThan(0);
    expect(text).toMatch(/Not rewritten:[^\n]*async/);
  });
});
