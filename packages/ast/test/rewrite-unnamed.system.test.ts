import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { gofmtErrors, npmFile, pythonAst, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

const PY = '/usr/lib/python3.11';
const TRY_PASS = 'try:\n    $$$BODY\nexcept $E:\n    pass';

/** Lines of a file from `from` on that start a clause (`else:`, `except ...:`, `finally:`). */
const clauses = (text: string): string[] => text.split('\n').filter((l) => /^\s*(else|except|finally|elif)\b.*:\s*$/.test(l));

describe('code after what the pattern names stays (issue 21, item 1)', () => {
  it('python try/except/else (argparse.py, subprocess.py): the else and the second handler survive a handler rewrite', async () => {
    await using t = realWorkspace(loader, [`${PY}/argparse.py`, `${PY}/subprocess.py`]);
    const before = { argparse: t.read('argparse.py'), subprocess: t.read('subprocess.py') };
    const result = await t.edit({ pattern: TRY_PASS, rewrite: 'try:\n    $$$BODY\nexcept $E:\n    _ignored()', language: 'python' });
    expect(result.structured.replacements).toBeGreaterThan(0);
    await t.accept();
    const after = { argparse: t.read('argparse.py'), subprocess: t.read('subprocess.py') };
    // Every clause line is still there, with only handlers' bodies changed.
    expect(clauses(after.argparse)).toEqual(clauses(before.argparse));
    expect(clauses(after.subprocess)).toEqual(clauses(before.subprocess));
    expect(after.argparse).toContain(
      '        try:\n            get_subactions = action._get_subactions\n        except AttributeError:\n            _ignored()\n        else:\n            self._indent()\n            yield from get_subactions()\n            self._dedent()\n',
    );
    // CPython reads both files, with as many handlers and else blocks as before.
    for (const name of ['argparse', 'subprocess'] as const) {
      const count = (dump: string, what: string) => dump.split(what).length;
      const now = pythonAst(t.dir.join(`${name}.py`));
      await using original = realWorkspace(loader, [`${PY}/${name}.py`]);
      const was = pythonAst(original.dir.join(`${name}.py`));
      for (const what of ['ExceptHandler(', 'orelse=[]', 'finalbody=[]']) expect(count(now, what), `${name}: ${what}`).toBe(count(was, what));
    }
  });

  it('python: a rewrite that cannot keep the else (contextlib.suppress) leaves those matches alone and names them', async () => {
    await using t = realWorkspace(loader, [`${PY}/argparse.py`]);
    const result = await t.edit({ pattern: TRY_PASS, rewrite: 'with contextlib.suppress($E):\n    $$$BODY', path: 'argparse.py' });
    expect(result.text).toMatch(/Not rewritten: \d+ match(es)? where the code after what the pattern names would not parse/);
    expect(result.structured.untouched).toContainEqual(expect.objectContaining({ file: 'argparse.py', line: 648, reason: 'tail' }));
    await t.accept();
    const after = t.read('argparse.py');
    expect(after).toContain('        try:\n            get_subactions = action._get_subactions\n        except AttributeError:\n            pass\n        else:\n');
    pythonAst(t.dir.join('argparse.py'));
  });

  it("go: if/else in strings.go keeps every else when the if's block is rewritten", async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/strings/strings.go']);
    const before = t.read('strings.go');
    const result = await t.edit({ pattern: 'if $C {\n\t$$$B\n}', rewrite: 'if $C {\n\ttrace()\n\t$$$B\n}', path: 'strings.go' });
    expect(result.structured.breaksSyntax).toEqual([]);
    await t.accept();
    const after = t.read('strings.go');
    expect(after.match(/} else/g)?.length).toBe(before.match(/} else/g)?.length);
    expect(gofmtErrors(t.dir.join('strings.go'))).toBe('');
  });

  it('rust: if let ... else in regex (re_unicode.rs) keeps its else, and a rewrite into a match leaves it alone', async () => {
    await using t = realWorkspace(loader, ['/usr/share/cargo/registry/regex-1.7.1/src/re_unicode.rs']);
    const kept = await t.edit({ pattern: 'if let Some($X) = $E {\n    $$$B\n}', rewrite: 'if let Some($X) = $E {\n    $$$B\n    done();\n}', path: 're_unicode.rs' });
    expect(kept.structured.diff).toContain('+                done();\n             } else {\n                 map.entry(&slot, &m);');
    expect(kept.structured.breaksSyntax).toEqual([]);
    const dissolved = await t.edit({ pattern: 'if let Some($X) = $E {\n    $$$B\n}', rewrite: 'match $E {\n    Some($X) => {\n        $$$B\n    }\n    None => {}\n}', path: 're_unicode.rs' });
    expect(dissolved.structured.untouched).toContainEqual(expect.objectContaining({ file: 're_unicode.rs', line: 1019, reason: 'tail' }));
    expect(dissolved.structured.breaksSyntax).toEqual([]);
  });

  it('javascript (zod parse.js): if/else keeps its else, and the comment opening the block stays in it', async () => {
    await using t = realWorkspace(loader, [npmFile('zod', 'v4', 'core', 'parse.js')]);
    const before = t.read('parse.js');
    const result = await t.edit({ pattern: 'if ($C) {\n  $$$B\n}', rewrite: 'if ($C) {\n  trace();\n  $$$B\n}', path: 'parse.js' });
    expect(result.structured.droppedComments).toEqual([]);
    expect(result.structured.keptTails).toBeGreaterThan(0);
    await t.accept();
    const after = t.read('parse.js');
    expect(after).toContain(
      '    if (fallbackRun) {\n        trace();\n        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound\n        ctx[COMPILE_FALLBACK] = true;\n        result = fallbackRun({ value, issues: [] }, ctx);\n    }\n    else {\n        result = schema._zod.run({ value, issues: [] }, ctx);\n    }\n',
    );
    expect(after.match(/\belse\b/g)?.length).toBe(before.match(/\belse\b/g)?.length);
    execFileSync(process.execPath, ['--check', t.dir.join('parse.js')]);
  });

  it('javascript: `return $A` keeps the `;` it does not name (ast-grep deletes it)', async () => {
    await using t = realWorkspace(loader, []);
    execFileSync('sh', ['-c', `printf 'function f(x) {\\n  return x;\\n}\\n' > ${t.dir.join('a.js')}`]);
    await t.edit({ pattern: 'return $A', rewrite: 'return wrap($A)', path: 'a.js' });
    await t.accept();
    expect(t.read('a.js')).toBe('function f(x) {\n  return wrap(x);\n}\n');
  });

  it('a match whose rewrite would delete an unnamed token in the middle (`async`) is left alone and named', async () => {
    await using t = realWorkspace(loader, []);
    execFileSync('sh', ['-c', `printf 'async function f(a) {\\n  return a;\\n}\\nfunction g(b) {\\n  return b;\\n}\\n' > ${t.dir.join('a.js')}`]);
    const result = await t.edit({ pattern: 'function $F($$$P) { $$$B }', rewrite: 'const $F = ($$$P) => { $$$B };', path: 'a.js' });
    expect(result.structured.untouched).toEqual([expect.objectContaining({ file: 'a.js', line: 1, reason: 'unnamed', text: 'async' })]);
    expect(result.text.split('\n').slice(0, 3).join('\n')).toContain('a.js:1');
    await t.accept();
    expect(t.read('a.js')).toBe('async function f(a) {\n  return a;\n}\nconst g = (b) => { return b; };\n');
  });
});
