import { writeFileSync } from 'node:fs';
import { resultText } from '@agent-tools/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
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
