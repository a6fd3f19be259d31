import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';

const ts = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/counter.ts': 'export class Counter {\n  #count = 0;\n  bump(): number {\n    return ++this.#count;\n  }\n}\n',
  'src/main.ts': "import { Counter } from './counter.js';\n\nexport function helper(): number {\n  return new Counter().bump();\n}\nexport const twice = helper() + helper();\n",
};

describe('lsp_rename refuses a new name the language cannot take, before anything is written', () => {
  it('typescript-language-server: not an identifier, or a reserved word where a variable is declared; a property may be one', async () => {
    await using run = startRun(ts);
    const snapshot = () => Object.keys(ts).map((file) => readFileSync(run.dir.join(file), 'utf8'));
    const before = snapshot();
    for (const name of ['1abc', 'foo-bar', 'a.b']) {
      const result = await run.call('lsp_rename', { file: 'src/main.ts', line: 3, symbol: 'helper', new_name: name });
      expect(text(result)).toBe(
        `"${name}" cannot be the new name of \`helper\` (src/main.ts:3): it is not a JavaScript identifier (a letter, \`_\` or \`$\`, then letters, digits, \`_\` or \`$\`). Nothing was changed.`,
      );
    }
    const keyword = await run.call('lsp_rename', { file: 'src/main.ts', line: 3, symbol: 'helper', new_name: 'class' });
    expect(keyword.isError).toBe(true);
    expect(text(keyword)).toMatch(/^Renaming `helper` \(src\/main\.ts:3\) to `class` was refused: src\/main\.ts would no longer parse \(3:17 .+\)\. Nothing was changed\.$/);
    expect(snapshot()).toEqual(before);
    // As a method's name a reserved word is valid JavaScript: renamed, and both files still parse.
    const method = await run.call('lsp_rename', { file: 'src/counter.ts', line: 3, symbol: 'bump', new_name: 'delete' });
    expect(method.isError, text(method)).toBe(false);
    expect(readFileSync(run.dir.join('src/main.ts'), 'utf8')).toContain('return new Counter().delete();');
    expect(text(method)).not.toContain('New diagnostics');
  });

  it('typescript-language-server: a `this` parameter is not renamed (tsserver would make it an ordinary first parameter)', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the TypeScript source under test holds a template literal
    const source = 'export function greet(this: { name: string }, greeting: string): string {\n  return `${greeting} ${this.name}`;\n}\n';
    await using run = startRun({ ...ts, 'src/greet.ts': source });
    for (const line of [1, 2]) {
      const result = await run.call('lsp_rename', { file: 'src/greet.ts', line, symbol: 'this', new_name: 'self' });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        `\`this\` (src/greet.ts:${line}) cannot be renamed: \`this\` is a keyword, not a name: a \`this\` parameter only declares the type of \`this\`, and under any other name it would become a first argument every call must pass. Nothing was changed.`,
      );
    }
    expect(readFileSync(run.dir.join('src/greet.ts'), 'utf8')).toBe(source);
  });

  it('typescript-language-server: a #private field is renamed with its #, whether the new name has one or not', async () => {
    await using run = startRun(ts);
    const bare = await run.call('lsp_rename', { file: 'src/counter.ts', line: 2, symbol: 'count', new_name: 'total' });
    expect(bare.isError, text(bare)).toBe(false);
    expect(text(bare)).toContain('Renamed `#count` (src/counter.ts:2) to `#total`: 2 edits in 1 file.');
    expect(readFileSync(run.dir.join('src/counter.ts'), 'utf8')).toBe('export class Counter {\n  #total = 0;\n  bump(): number {\n    return ++this.#total;\n  }\n}\n');
    const hashed = await run.call('lsp_rename', { file: 'src/counter.ts', line: 4, symbol: 'total', new_name: '#sum' });
    expect(hashed.isError, text(hashed)).toBe(false);
    expect(readFileSync(run.dir.join('src/counter.ts'), 'utf8')).toContain('return ++this.#sum;');
  });

  it('pyright: not an identifier, or a keyword (soft keywords like match are names)', async () => {
    const py = { 'pyproject.toml': '[project]\nname = "names"\n', 'lib.py': 'def helper():\n    return 1\n', 'use.py': 'from lib import helper\n\nx = helper()\n' };
    await using run = startRun(py);
    for (const [name, why] of [
      ['class', 'it is a Python keyword'],
      ['None', 'it is a Python keyword'],
      ['1abc', 'it is not a Python identifier (a letter or `_`, then letters, digits or `_`)'],
      ['foo-bar', 'it is not a Python identifier (a letter or `_`, then letters, digits or `_`)'],
      ['$x', 'it is not a Python identifier (a letter or `_`, then letters, digits or `_`)'],
    ]) {
      const result = await run.call('lsp_rename', { file: 'use.py', line: 3, symbol: 'helper', new_name: name });
      expect(text(result)).toBe(`"${name}" cannot be the new name of \`helper\` (use.py:3): ${why}. Nothing was changed.`);
    }
    expect(readFileSync(run.dir.join('lib.py'), 'utf8')).toBe(py['lib.py']);
    const soft = await run.call('lsp_rename', { file: 'use.py', line: 3, symbol: 'helper', new_name: 'match' });
    expect(soft.isError, text(soft)).toBe(false);
    expect(readFileSync(run.dir.join('lib.py'), 'utf8')).toBe('def match():\n    return 1\n');
  });
});
