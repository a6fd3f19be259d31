import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageSpec, TreeSitterLoader } from '../../src/index.js';
import type { MatchRecord } from '../../src/match/find.js';
import type { PatternNode } from '../../src/pattern/pattern-node.js';
import { METAVAR } from '../../src/rewrite/template.js';
import type { Proposal } from '../../src/staging/propose.js';
import { outermost } from '../../src/staging/propose.js';

/** What the safety oracle found for one rewrite case, summed over its files. */
export interface SafetyVerdict {
  replacements: number;
  files: number;
  /** Tokens of the matches that the pattern, its metavariables and the template do not name, and how many survived. */
  unnamedTokens: number;
  lostTokens: string[];
  /** Files with more error nodes than before: named by the proposal's warning, or not. */
  moreErrorsNamed: number;
  moreErrorsUnnamed: string[];
  /** Replacement sites that re-parse as the template (the template, read as a pattern, matches there). */
  sites: number;
  templateShaped: number;
  /** Sites that are not the template's shape: listed by the proposal as unsafe, or not. */
  notShapedListed: number;
  notShapedUnlisted: string[];
  /** Files where the rewrite wrapped something in parentheses twice (`((2)).split`): never allowed. */
  doubled: string[];
  /** The first case of each listed kind, for the report. */
  examples: string[];
}

export function emptyVerdict(): SafetyVerdict {
  return {
    replacements: 0,
    files: 0,
    unnamedTokens: 0,
    lostTokens: [],
    moreErrorsNamed: 0,
    moreErrorsUnnamed: [],
    sites: 0,
    templateShaped: 0,
    notShapedListed: 0,
    notShapedUnlisted: [],
    doubled: [],
    examples: [],
  };
}

function leaves(tree: Tree, from: number, to: number): Node[] {
  const out: Node[] = [];
  const visit = (node: Node): void => {
    if (node.endIndex <= from || node.startIndex >= to) return;
    if (node.childCount === 0) {
      if (node.endIndex > node.startIndex && node.startIndex >= from && node.endIndex <= to) out.push(node);
      return;
    }
    for (const child of node.children) visit(child);
  };
  visit(tree.rootNode);
  return out;
}

/**
 * A token's text with its whitespace collapsed: some grammars' tokens hold the indentation before them (bash's
 * `    fi` in a string, `$(`), which a re-indented rewrite changes without losing the token.
 */
const norm = (t: string): string => t.replace(/\s+/g, ' ').trim();

/** The text with every capture of the matches replaced by NUL characters, so no occurrence can use it. */
function withoutCaptures(text: string, matches: readonly MatchRecord[]): string {
  let out = text;
  for (const match of matches) {
    for (const c of [...Object.values(match.captures), ...match.anonymous]) {
      if (c.end > c.start) out = out.slice(0, c.start) + '\0'.repeat(c.end - c.start) + out.slice(c.end);
    }
  }
  return out;
}

/** Non-overlapping occurrences of `t` in `text`. */
function occurrences(text: string, t: string): number {
  let n = 0;
  for (let i = text.indexOf(t); i >= 0; i = text.indexOf(t, i + t.length)) n++;
  return n;
}

function errorCount(tree: Tree): number {
  let n = 0;
  const visit = (node: Node): void => {
    if (node.isError || node.isMissing) {
      n++;
      return;
    }
    for (const child of node.children) if (child.hasError || child.isMissing || child.isError) visit(child);
  };
  if (tree.rootNode.hasError) visit(tree.rootNode);
  return n;
}

/** The pattern's token texts, and the kinds of its unnamed tokens (matched by kind: Ruby's `'` matches `"`). */
function patternTokens(node: PatternNode, out = { texts: new Set<string>(), kinds: new Set<number>() }) {
  if (node.type === 'leaf') {
    out.texts.add(node.text);
    if (!node.named) out.kinds.add(node.kindId);
  } else if (node.type === 'inner') for (const child of node.children) patternTokens(child, out);
  return out;
}

/**
 * The safety oracle of one rewrite case, language-independent: after the rewrite (1) every token of a replaced
 * match that is not inside a metavariable's capture, not a token of the pattern and not written by the template
 * still occurs in the file as often as before (nothing unnamed lost; comments the proposal names as dropped
 * aside); (2) no file has more error nodes than before, unless the proposal named it; (3) each replacement
 * re-parses with the template's structure: the template, read as a pattern, matches at the replacement (inside
 * the parentheses the rewrite added), unless the proposal listed it as unsafe.
 */
export async function safetyOracle(
  loader: TreeSitterLoader,
  spec: LanguageSpec,
  pattern: string,
  template: string,
  matches: ReadonlyMap<string, { readonly text: string; readonly matches: readonly MatchRecord[] }>,
  proposal: Proposal,
  verdict: SafetyVerdict,
): Promise<void> {
  const compiled = await loader.compile(spec, pattern).catch(() => undefined);
  const literal = compiled ? patternTokens(compiled.root) : { texts: new Set<string>(), kinds: new Set<number>() };
  const templateWords = new Set(template.replace(METAVAR, ' ').match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]+/gu) ?? []);
  const templatePattern = await loader.compile(spec, template).catch(() => undefined);
  // A metavariable named twice by the pattern (`($A, $A, $B)`) names its second copy too: the template decides
  // how many copies stay, so their tokens need not survive.
  const named = [...pattern.matchAll(METAVAR)].map((m) => m[1] ?? m[2] ?? '');
  const repeated = new Set(named.filter((n, i) => n !== '_' && named.indexOf(n) !== i));
  for (const file of proposal.files) {
    const found = matches.get(file.file);
    if (!found) continue;
    verdict.files++;
    verdict.replacements += file.replacements;
    const before = await loader.runtime.parse(spec, file.original);
    const after = await loader.runtime.parse(spec, file.updated);
    if (!before || !after) continue;
    try {
      // (1) Unnamed tokens of the replaced matches.
      const { kept } = outermost(found.matches);
      const dropped = new Set(proposal.droppedComments.filter((c) => c.file === file.file).map((c) => norm(c.text)));
      const need = new Map<string, number>();
      for (const match of kept) {
        const captured = [...Object.values(match.captures), ...match.anonymous].filter((c) => c.end > c.start);
        const copies = new Set(
          Object.entries(match.captures)
            .filter(([name, c]) => repeated.has(name) && c.end > c.start)
            .flatMap(([, c]) => leaves(before, c.start, c.end).map((l) => norm(file.original.slice(l.startIndex, l.endIndex)))),
        );
        for (const leaf of leaves(before, match.start, match.end)) {
          const t = norm(file.original.slice(leaf.startIndex, leaf.endIndex));
          if (captured.some((c) => c.start <= leaf.startIndex && leaf.endIndex <= c.end) || copies.has(t)) continue;
          if (literal.texts.has(t) || (!leaf.isNamed && literal.kinds.has(leaf.typeId))) continue;
          if (templateWords.has(t) || dropped.has(t) || !t.trim()) continue;
          // A token of a comment the proposal names as dropped (Rust's `//` is a child of its line_comment).
          let extra: Node | null = leaf;
          while (extra && !extra.isExtra) extra = extra.parent;
          if (extra && dropped.has(norm(file.original.slice(extra.startIndex, extra.endIndex)))) continue;
          need.set(t, (need.get(t) ?? 0) + 1);
        }
      }
      // Counted as text, not as tokens: a context-sensitive lexer (bash) may split moved text into other tokens.
      // Occurrences that overlap a capture do not count before: the rewrite moves captured text by design, so text
      // spanning a capture's edge (`* ]]; then` after bash's `'${'*`, swapped by `$A$B` -> `$B$A`) is not kept.
      const flatBefore = norm(withoutCaptures(file.original, kept));
      const flatAfter = norm(file.updated);
      const was = new Map([...need.keys()].map((t) => [t, occurrences(flatBefore, t)]));
      const now = new Map([...need.keys()].map((t) => [t, occurrences(flatAfter, t)]));
      for (const [t, n] of need) {
        verdict.unnamedTokens += n;
        if ((now.get(t) ?? 0) < (was.get(t) ?? 0)) {
          verdict.lostTokens.push(`${JSON.stringify(pattern)} -> ${JSON.stringify(template)} in ${file.file}: ${JSON.stringify(t)} (${was.get(t)} before, ${now.get(t) ?? 0} after)`);
        }
      }
      // (4) No parentheses doubled by the rewrite.
      const doubled = doubledParentheses(after, file.updated).length - doubledParentheses(before, file.original).length;
      if (doubled > 0) verdict.doubled.push(`${JSON.stringify(pattern)} -> ${JSON.stringify(template)} in ${file.file}: ${doubledParentheses(after, file.updated).slice(0, 3).join(', ')}`);
      // (2) Error nodes.
      if (errorCount(after) > errorCount(before)) {
        if (proposal.breaks.some((b) => b.file === file.file)) verdict.moreErrorsNamed++;
        else verdict.moreErrorsUnnamed.push(file.file);
      }
      // (3) The template's structure at each replacement.
      if (!templatePattern) continue;
      const shaped = await templateMatches(loader, spec, file.updated, templatePattern);
      for (const site of proposal.sites.filter((s) => s.file === file.file)) {
        verdict.sites++;
        const ok = shaped.some((m) => (m.start === site.start || m.start === site.start + 1) && m.end >= site.end - 1);
        if (ok) verdict.templateShaped++;
        else if (proposal.unsafe.some((u) => u.file === file.file)) {
          verdict.notShapedListed++;
          if (!verdict.examples.some((e) => e.startsWith('unsafe'))) {
            verdict.examples.push(`unsafe (listed): ${JSON.stringify(pattern)} -> ${JSON.stringify(template)}: ${JSON.stringify(file.updated.slice(site.start, Math.min(site.end, site.start + 80)))}`);
          }
        }
        else verdict.notShapedUnlisted.push(`${JSON.stringify(pattern)} -> ${JSON.stringify(template)} in ${file.file}@${site.start}: ${JSON.stringify(file.updated.slice(site.start, Math.min(site.end, site.start + 80)))}`);
      }
    } finally {
      before.delete();
      after.delete();
    }
  }
}

/**
 * Parentheses directly around a parenthesized node (`((2))`), as texts: the rewrite's parenthesize step must never
 * add a second pair. Every grammar here names its parenthesized nodes `parenthesized…`.
 */
export function doubledParentheses(tree: Tree, text: string): string[] {
  const out: string[] = [];
  const visit = (node: Node): void => {
    if (/parenthesized/.test(node.type)) {
      const inner = node.namedChildren.filter((c): c is Node => c !== null && !c.isExtra);
      const only = inner.length === 1 ? inner[0] : undefined;
      if (only && /parenthesized/.test(only.type) && only.startIndex - node.startIndex <= 1 && node.endIndex - only.endIndex <= 1) {
        out.push(text.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 60)));
      }
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(tree.rootNode);
  return out;
}

async function templateMatches(
  loader: TreeSitterLoader,
  spec: LanguageSpec,
  text: string,
  pattern: Awaited<ReturnType<TreeSitterLoader['compile']>>,
): Promise<{ start: number; end: number }[]> {
  const { findMatches } = await import('../../src/match/find.js');
  const tree = await loader.runtime.parse(spec, text);
  if (!tree) return [];
  try {
    return findMatches(tree, text, pattern).map((m) => ({ start: m.start, end: m.end }));
  } finally {
    tree.delete();
  }
}
