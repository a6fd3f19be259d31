import { readFileSync } from 'node:fs';
import { seededRandom, tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { findLanguage } from '../src/languages.js';
import type { CompiledPattern } from '../src/pattern/pattern-node.js';
import { searchWorkspace } from '../src/workspace/search.js';
import { CORPORA, collectCorpus } from './differential/corpora.js';
import { inlineLoader } from './helpers.js';

/**
 * Literal content is compared (issue bug 1), swept over every language on real code: each string, character,
 * number, regex or heredoc literal of the corpus, used as a pattern, must only find that same literal text.
 * Grammars whose string node has only its quotes as children (so a matcher comparing children alone would find
 * `f("b")` for `f("a")`) are covered by comparing the text between a node's children.
 */
const LITERAL = /string|char|number|integer|float|regex|heredoc|rune/;
/** Quote style is not content: Lua's `'a'` and `"a"` are one string to the grammar, as to ast-grep. */
const unquoted = (text: string): string => text.replace(/['"]/g, '"');

const loader = inlineLoader();
afterAll(() => loader.dispose());

/** Languages without literal values: HTML's and Markdown's text is not a literal node. */
const NO_LITERALS = new Set(['html', 'markdown']);

for (const corpus of CORPORA) {
  if (NO_LITERALS.has(corpus.language)) continue;
  describe(`literal content matters: ${corpus.language} (${corpus.from})`, () => {
    const dir = tempDir();
    afterAll(() => dir.remove());

    it('every literal found is the literal searched for', { timeout: 120_000 }, async () => {
      const spec = findLanguage(corpus.language);
      if (!spec) throw new Error(corpus.language);
      const files = collectCorpus(corpus, dir.path, 12, { perSource: true });
      const parser = await loader.runtime.parser(spec);
      const literals = new Map<string, string>();
      for (const file of files) {
        const tree = loader.runtime.parseWith(parser, readFileSync(file, 'utf8'));
        if (!tree) continue;
        const visit = (node: Node): void => {
          const text = node.text;
          if (node.isNamed && LITERAL.test(node.type) && !node.type.endsWith('content') && !node.hasError && text.length >= 3 && text.length <= 40 && !text.includes('\n') && /\w/.test(text)) {
            literals.set(text, node.type);
          }
          for (const child of node.namedChildren) visit(child);
        };
        visit(tree.rootNode);
        tree.delete();
      }
      const rnd = seededRandom(7);
      const sample = [...literals].sort(() => rnd() - 0.5).slice(0, 12);
      expect(sample.length, 'the corpus has literals').toBeGreaterThan(0);
      let found = 0;
      for (const [literal, kind] of sample) {
        let summary: Awaited<ReturnType<typeof searchWorkspace>>;
        try {
          summary = await searchWorkspace(loader, dir.path, { pattern: literal, language: corpus.language });
        } catch {
          continue; // a literal that is no pattern on its own (a JSON key alone, a bash word) proves nothing here
        }
        const pattern = summary.pattern as CompiledPattern;
        if (pattern.root.type === 'meta') continue;
        // A string whose only child is its content stands for that content (ast-grep's descent): Kotlin, Lua; a
        // literal whose only child is a token stands for that token (Solidity's `5 days` for its unit `days`).
        const descended = pattern.root.type === 'leaf' ? [pattern.root.text] : [];
        const same = new Set([unquoted(literal), ...(pattern.root.kind === kind ? [] : [literal.slice(1, -1), ...descended])]);
        const texts = summary.results.flatMap((r) => r.matches.map((m) => m.text));
        found += texts.length;
        expect(texts.filter((t) => !same.has(unquoted(t))), `${kind} ${literal}`).toEqual([]);
      }
      expect(found, `the ${corpus.language} literals were found where they came from`).toBeGreaterThan(0);
    });
  });
}
