import { writeFileSync } from 'node:fs';
import { resultText } from '@agent-tools/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { findLanguage } from '../src/languages.js';
import { realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

describe('a fragment that parses only by error recovery is unparseable, with the enclosing construct (issue 21, item 5)', () => {
  it('python: `except $E:` and `except ImportError:` answer alike, and the suggestion finds the handlers (argparse.py)', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/python3.11/argparse.py']);
    const answers: string[] = [];
    for (const pattern of ['except $E:\n    pass', 'except AttributeError:\n    pass']) {
      const result = await t.call('ast_grep', { pattern, path: 'argparse.py' });
      expect(result.isError).toBe(true);
      const text = resultText(result);
      expect(text).toContain('unparseable as python');
      expect(text).toContain('`except` only appears inside a larger construct');
      answers.push(text.slice(text.indexOf('e.g.')));
    }
    expect(answers[0]).toContain('try:\n    $$$BODY\nexcept $E:\n    pass');
    const suggested = await t.call('ast_grep', { pattern: 'try:\n    $$$BODY\nexcept $E:\n    pass', path: 'argparse.py' });
    expect(resultText(suggested)).toMatch(/^\d+ match(es)? of/);
    expect(resultText(suggested)).toContain('$E: AttributeError');
  });

  it('go: `case $X:` suggests its switch; `switch $X { $$$ }` still compiles (the error there is the metavariable)', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/strings/strings.go']);
    const clause = await t.call('ast_grep', { pattern: 'case $X:', path: 'strings.go' });
    expect(clause.isError).toBe(true);
    expect(resultText(clause)).toContain('switch $_ {\ncase $X:\n}');
    const whole = await t.call('ast_grep', { pattern: 'switch $X { $$$ }', path: 'strings.go' });
    expect(whole.isError).toBe(false);
  });

  it('c: else alone names its construct', async () => {
    await using t = realWorkspace(loader, []);
    for (const [language, pattern, construct] of [
      ['c', 'else { $$$B }', 'if ($_) {\n  $$$BODY\n} else { $$$B }'],
    ] as const) {
      const result = await t.call('ast_grep', { pattern, language });
      expect(result.isError, `${language}: ${pattern}`).toBe(true);
      expect(resultText(result), language).toContain(`only appears inside a larger construct, and a pattern is one complete node: write the enclosing construct, e.g.\n${construct}`);
    }
  });

  it('rust: `else { $$$B }` and `else { b(); }` are both unparseable with the if they belong to (regex re_unicode.rs)', async () => {
    await using t = realWorkspace(loader, ['/usr/share/cargo/registry/regex-1.7.1/src/re_unicode.rs']);
    for (const pattern of ['else { $$$B }', 'else { $B }', 'else { None }', 'else { b(); }']) {
      const result = await t.call('ast_grep', { pattern, path: 're_unicode.rs' });
      expect(result.isError, pattern).toBe(true);
      expect(resultText(result), pattern).toContain('unparseable as rust');
      expect(resultText(result), pattern).toContain(`e.g.\nif $_ {\n    $$$BODY\n} ${pattern}`);
    }
    const suggested = await t.call('ast_grep', { pattern: 'if $_ {\n    $$$BODY\n} else { $$$B }', path: 're_unicode.rs' });
    expect(resultText(suggested)).toMatch(/^\d+ match(es)? of/);
  });

  // Every language with clause words: a clause fragment with metavariables and the same fragment without them answer
  // alike (both unparseable, or both the same kind of node), so a model learns nothing false from either.
  const CLAUSE_FRAGMENTS: Readonly<Record<string, readonly string[]>> = {
    rust: ['else { $$$B }', 'else { $B }', 'else if $C { $$$B }'],
    python: ['except $E:\n    pass', 'else:\n    $$$B', 'elif $C:\n    $$$B', 'finally:\n    $$$B', 'case $P:\n    $$$B'],
    go: ['case $X:', 'default:\n\t$$$B', 'else { $$$B }', 'case $X:\n\t$$$B'],
    c: ['else { $$$B }', 'case $X:', 'else return $X;'],
    cpp: ['else { $$$B }', 'case $X:', 'catch ($E) { $$$B }'],
    csharp: ['else { $$$B }', 'catch ($T $E) { $$$B }', 'finally { $$$B }'],
    java: ['else { $$$B }', 'catch ($T $E) { $$$B }', 'finally { $$$B }', 'case $X:'],
    javascript: ['else { $$$B }', 'catch ($E) { $$$B }', 'finally { $$$B }', 'case $X:'],
    typescript: ['else { $$$B }', 'catch ($E) { $$$B }', 'finally { $$$B }'],
    tsx: ['else { $$$B }', 'finally { $$$B }'],
    dart: ['else { $$$B }', 'catch ($E) { $$$B }'],
    kotlin: ['else { $$$B }', 'catch ($E: $T) { $$$B }', 'finally { $$$B }'],
    swift: ['else { $$$B }', 'catch { $$$B }', 'case $X:'],
    scala: ['else { $$$B }', 'case $X => $$$B'],
    php: ['else { $$$B }', 'elseif ($C) { $$$B }', 'catch ($T $E) { $$$B }'],
    ruby: ['rescue $E\n  $$$B', 'else\n  $$$B', 'elsif $C\n  $$$B', 'when $X\n  $$$B', 'ensure\n  $$$B'],
    lua: ['else $$$B', 'elseif $C then $$$B'],
    bash: ['elif $C; then $$$B', 'else $$$B'],
  };
  /** The fragment without metavariables: a run is one call statement, a single one a name. */
  const concrete = (language: string, pattern: string): string => {
    const semi = ['rust', 'c', 'cpp', 'csharp', 'java', 'javascript', 'typescript', 'tsx', 'dart', 'php'].includes(language) ? ';' : '';
    const call = language === 'ruby' || language === 'bash' ? 'b' : `b()${semi}`;
    return pattern
      .replace(/\$\$\$[A-Z_]+/g, call)
      .replace(/\$([A-Z_]+)/g, (_, name: string) => language === 'php' && name !== 'T' ? `$${name.toLowerCase()}` : name === 'T' || name === 'E' ? 'Error' : `${name.toLowerCase()}1`);
  };
  for (const [language, fragments] of Object.entries(CLAUSE_FRAGMENTS)) {
    it(`${language}: each clause fragment answers alike with and without metavariables`, async () => {
      const spec = findLanguage(language);
      if (!spec) throw new Error(language);
      const outcome = async (pattern: string): Promise<string> =>
        loader.compile(spec, pattern).then(
          (c) => `compiles to ${c.root.type === 'inner' ? c.root.kind : c.root.type}`,
          (e: Error) => `unparseable${e.message.includes('only appears inside a larger construct') ? ', with the enclosing construct' : ''}`,
        );
      for (const fragment of fragments) {
        const plain = concrete(language, fragment);
        expect(await outcome(fragment), `${fragment} / ${plain}`).toBe(await outcome(plain));
      }
    });
  }

  it("python: `case` is a soft keyword, so `case = $X` stays a pattern (an assignment), while `case $P:` is a clause", async () => {
    const spec = findLanguage('python');
    if (!spec) throw new Error('python');
    expect((await loader.compile(spec, 'case = $X')).root).toMatchObject({ kind: 'assignment' });
    await expect(loader.compile(spec, 'case $P:\n    pass')).rejects.toThrow('only appears inside a larger construct');
  });

  it('javascript: `catch (e) {}` reads as a method named catch; the no-match answer says how to write the clause', async () => {
    await using t = realWorkspace(loader, []);
    writeFileSync(t.dir.join('a.js'), 'try { a(); } catch (e) {}\n');
    const result = await t.call('ast_grep', { pattern: 'catch ($E) {}', path: 'a.js' });
    expect(resultText(result)).toContain('whose root is method_definition');
    expect(resultText(result)).toContain('If you meant the `catch` clause of a larger construct, a pattern is one complete node: write the construct, e.g. `try { $$$BODY } catch ($E) {}`');
    const clause = await t.call('ast_grep', { pattern: 'try { $$$BODY } catch ($E) {}', path: 'a.js' });
    expect(resultText(clause)).toMatch(/^1 match of/);
  });
});
