import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { findLanguage } from '../src/languages.js';
import { searchWorkspace } from '../src/workspace/search.js';
import { AST_GREP } from './corpus.js';
import { CORPORA, collectCorpus } from './differential/corpora.js';
import { inlineLoader, texts } from './helpers.js';

const loader = inlineLoader();
afterAll(() => loader.dispose());

/** Copies a language's corpus (see differential/corpora.ts); counts and lists the nodes of a kind in it. */
async function corpusOf(language: string, limit: number) {
  const corpus = CORPORA.find((c) => c.language === language);
  const spec = findLanguage(language);
  if (!corpus || !spec) throw new Error(language);
  const dir = tempDir();
  const files = collectCorpus(corpus, dir.path, limit, { perSource: true });
  const parser = await loader.runtime.parser(spec);
  /** The texts of the nodes of a kind (that `accept` takes), one entry per node. */
  const nodeTexts = (kind: string, accept: (node: Node) => boolean = () => true): string[] => {
    const out: string[] = [];
    for (const file of files) {
      const tree = loader.runtime.parseWith(parser, readFileSync(file, 'utf8'));
      if (!tree) continue;
      for (const node of tree.rootNode.descendantsOfType(kind)) if (node && accept(node)) out.push(node.text);
      tree.delete();
    }
    return out;
  };
  const count = (kind: string, accept?: (node: Node) => boolean): number => nodeTexts(kind, accept).length;
  const textsOfKind = (kind: string, accept?: (node: Node) => boolean): Set<string> => new Set(nodeTexts(kind, accept));
  const search = async (pattern: string) => searchWorkspace(loader, dir.path, { pattern, language });
  return { dir, count, texts: textsOfKind, search, [Symbol.asyncDispose]: async () => dir.remove() };
}

describe('a metavariable standing alone as a statement matches any statement, blocks included (real code)', () => {
  for (const language of ['c', 'cpp', 'java', 'csharp', 'dart']) {
    it(`${language}: if ($C) $S finds every if statement`, { timeout: 60_000 }, async () => {
      await using corpus = await corpusOf(language, 40);
      // Dart's grammar spells `a.b(c)` as sibling nodes (a name, then selectors), which one $C cannot span (as in
      // ast-grep): only conditions that are one node count there.
      const oneNode = (node: Node): boolean => language !== 'dart' || !node.children.some((c) => c?.type === 'selector');
      const ifs = corpus.count('if_statement', oneNode);
      expect(ifs).toBeGreaterThan(0);
      const summary = await corpus.search('if ($C) $S');
      expect(summary.totalMatches).toBe(ifs);
      const blocks = summary.results.flatMap((r) => r.matches).filter((m) => m.captures['S']?.text.startsWith('{'));
      expect(blocks.length, 'bodies in braces are among them').toBeGreaterThan(0);
    });
  }

  it('dart: $X; matches no call statement, and neither does ast-grep (the oracle agrees)', { timeout: 60_000 }, async () => {
    await using corpus = await corpusOf('dart', 40);
    // `print(x);` is a name followed by a selector holding the arguments: two nodes, which one $X cannot span.
    const calls = corpus.texts('expression_statement', (node) => node.children.some((c) => c?.type === 'selector' && c.firstChild?.type === 'argument_part'));
    expect(calls.size, 'the corpus has call statements').toBeGreaterThan(10);
    const ours = (await corpus.search('$X;')).results.flatMap((r) => r.matches.map((m) => m.text));
    expect(ours.length, 'one-node statements match').toBeGreaterThan(0);
    expect(ours.filter((text) => calls.has(text))).toEqual([]);
    // ast-grep 0.51 (another Dart grammar) reads `$X;` as a declaration with no name: no call statement either.
    const cli = execFileSync(AST_GREP, ['run', '--pattern', '$X;', '--lang', 'dart', '--json=stream', '.'], { cwd: corpus.dir.path, encoding: 'utf8' });
    const theirs = cli.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text);
    expect(theirs.filter((text) => calls.has(text))).toEqual([]);
  });

  it('cpp: { $$$ } finds every compound statement (not an initializer list)', { timeout: 60_000 }, async () => {
    await using corpus = await corpusOf('cpp', 20);
    const blocks = corpus.count('compound_statement');
    expect(blocks).toBeGreaterThan(0);
    expect((await corpus.search('{ $$$ }')).totalMatches).toBe(blocks);
  });

  it('c: for ($I = 0; $I < $N; ++$I) $$$ takes braced and bare bodies; do $B while ($C); compiles', async () => {
    const code = 'void f(void) { for (i = 0; i < n; ++i) { a(); } for (i = 0; i < n; ++i) b(); do { a(); } while (x); do a(); while (y); }';
    expect(await texts(loader, 'a.c', code, 'for ($I = 0; $I < $N; ++$I) $$$')).toHaveLength(2);
    expect(await texts(loader, 'a.c', code, 'do $B while ($C);')).toEqual(['do { a(); } while (x);', 'do a(); while (y);']);
  });

  it('typescript and tsx: if ($C) $A else $B and do $B while ($C); compile as JavaScript does', async () => {
    const code = 'function f() { if (a) b(); else c(); if (x) { y(); } else z(); do { y(); } while (x); }\n';
    for (const file of ['a.ts', 'a.tsx', 'a.js']) {
      expect(await texts(loader, file, code, 'if ($C) $A else $B')).toHaveLength(2);
      expect(await texts(loader, file, code, 'do $B while ($C);')).toEqual(['do { y(); } while (x);']);
    }
  });

  it('bash: if $C; then $$$; fi compiles and finds every if', { timeout: 60_000 }, async () => {
    await using corpus = await corpusOf('bash', 30);
    const ifs = corpus.count('if_statement');
    expect(ifs).toBeGreaterThan(0);
    expect((await corpus.search('if $C; then $$$; fi')).totalMatches).toBe(ifs);
  });
});

describe('a trailing $$$ takes every node up to the end (go, real code)', () => {
  it('func ($R *$T) Close() error { $$$BODY } captures the whole body, one line or many', { timeout: 60_000 }, async () => {
    await using corpus = await corpusOf('go', 40);
    const summary = await corpus.search('func ($R *$T) $M() error {\n\t$$$BODY\n}');
    const matches = summary.results.flatMap((r) => r.matches);
    expect(matches.length).toBeGreaterThan(3);
    expect(matches.some((m) => !m.text.includes('\n')), 'one-line bodies are among them').toBe(true);
    for (const m of matches) {
      // The run is the block's statements; comments in front of the first are the block's own (and a rewrite
      // that drops them says so, see edit.system.test.ts).
      const body = m.text.slice(m.text.indexOf(') error {') + ') error {'.length, m.text.lastIndexOf('}')).trim().replace(/^(?:\/\/.*\n\s*)+/, '');
      expect(m.captures['BODY']?.text, m.text).toBe(body);
    }
  });

  it('if $C { $$$B } on a one-line block captures every statement; if $C { $S } matches multi-statement blocks', async () => {
    const code = 'package p\nfunc f() {\n\tif x { a(); b() }\n\tif y { c() }\n}\n';
    const found = await searchWorkspaceText('a.go', code, 'if $C {\n\t$$$B\n}');
    expect(found.map((m) => m.captures['B']?.text)).toEqual(['a(); b()', 'c()']);
    expect(await texts(loader, 'a.go', code, 'if $C { $S }')).toHaveLength(2);
  });
});

async function searchWorkspaceText(file: string, code: string, pattern: string) {
  await using dir = tempDir({ [file]: code });
  const summary = await searchWorkspace(loader, dir.path, { pattern, path: file });
  return summary.results.flatMap((r) => r.matches);
}
