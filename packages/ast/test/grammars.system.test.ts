import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { grammarFile } from '../src/engine/runtime.js';
import { allocateScannerState } from '../src/engine/scanner-state.js';
import type { LanguageId } from '../src/index.js';
import { findLanguage } from '../src/languages.js';
import { AST_GREP } from './corpus.js';
import { inlineLoader, texts } from './helpers.js';

const require = createRequire(import.meta.url);
const loader = inlineLoader();
afterAll(() => loader.dispose());

const specOf = (id: LanguageId) => {
  const spec = findLanguage(id);
  if (!spec) throw new Error(id);
  return spec;
};

/**
 * The prebuilt Swift grammar's scanner allocated its state with `calloc(0, 4)`: in wasm that state overlaps
 * memory the parser uses, so a file's tree depended on what was parsed before it. The grammar is repaired as it
 * loads (src/engine/scanner-state.ts).
 */
describe("a scanner that allocates no state gets its state (Swift's prebuilt grammar)", () => {
  it('a real file with #if directives parses the same, without syntax errors, however often and after whatever', async () => {
    const file = join(dirname(require.resolve('@capacitor/background-runner/package.json')), 'ios/Sources/CapacitorBackgroundRunner/CapacitorAPI/Reachability.swift');
    const reachability = readFileSync(file, 'utf8');
    const parser = await loader.runtime.parser(specOf('swift'));
    const errors: number[] = [];
    for (const text of [reachability, 'let x = 1\n', reachability, reachability, '#"raw"#', reachability]) {
      const tree = loader.runtime.parseWith(parser, text);
      if (!tree) throw new Error('parse stopped');
      if (text === reachability) errors.push(tree.rootNode.descendantsOfType('ERROR').length);
      tree.delete();
    }
    expect(errors).toEqual([0, 0, 0, 0]);
  });

  it('the wasm file is repaired in exactly one byte, and a repaired file is left alone', () => {
    const original = readFileSync(grammarFile(specOf('swift'), undefined));
    const repaired = allocateScannerState(original);
    const changed = [...repaired].map((byte, i) => (byte === original[i] ? -1 : i)).filter((i) => i >= 0);
    expect(changed).toHaveLength(1);
    expect([original[changed[0] as number], repaired[changed[0] as number]]).toEqual([0, 1]);
    expect(allocateScannerState(repaired)).toBe(repaired);
  });

  it('every other grammar loads byte for byte as shipped; bytes that are no wasm module too', () => {
    for (const id of ['bash', 'c', 'cpp', 'csharp', 'dart', 'go', 'java', 'javascript', 'json', 'kotlin', 'lua', 'python', 'ruby', 'rust', 'tsx', 'typescript'] as const) {
      const bytes = readFileSync(grammarFile(specOf(id), undefined));
      expect(allocateScannerState(bytes), id).toBe(bytes);
    }
    const junk = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 2, 200]);
    expect(allocateScannerState(junk)).toBe(junk);
  });
});

describe('Swift raw strings (tree-sitter-swift 0.7.1)', () => {
  const code = 'let re = #"\\d+"#\nlet s = "plain"\nlet t = #"say "hi""#\nfunc f() { print(#"\\d+"#) }\n';

  it.each([
    ['#"\\d+"#', ['#"\\d+"#', '#"\\d+"#']],
    ['let $A = #"\\d+"#', ['let re = #"\\d+"#']],
    ['#"say "hi""#', ['#"say "hi""#']],
    ['print(#"\\d+"#)', ['print(#"\\d+"#)']],
  ])('%s parses as a pattern and finds what ast-grep finds', async (pattern, expected) => {
    expect(await texts(loader, 'a.swift', code, pattern)).toEqual(expected);
    await using dir = tempDir({ 'a.swift': code });
    const cli = execFileSync(AST_GREP, ['run', '--pattern', pattern, '--lang', 'swift', '--json=stream', '.'], { cwd: dir.path, encoding: 'utf8' });
    expect(cli.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text)).toEqual(expected);
  });
});
