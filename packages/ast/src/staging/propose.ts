import { readRegularFile } from '@agent-tools/core/internal';
import type { Tree } from 'web-tree-sitter';
import type { LanguageSpec } from '../languages.js';
import type { TreeSitterLoader } from '../loader.js';
import type { MatchRecord } from '../match/find.js';
import { preprocessPattern } from '../pattern/metavars.js';
import { indentUnit } from '../rewrite/indent.js';
import { type RenderContext, type Rendered, renderReplacement, type Wrapping } from '../rewrite/render.js';
import { checkStructure, isParenthesized, type StructureCheck } from '../rewrite/structure.js';
import type { RewriteTemplate } from '../rewrite/template.js';
import { lostCode, namedPart } from '../rewrite/unnamed-code.js';
import type { FileMatches } from '../workspace/search.js';
import type { StagedFile } from './edit-store.js';
import { errorLines } from './syntax.js';

/** A comment inside a replaced match that the rewrite does not carry over. */
export interface DroppedComment {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/** A file the rewrite leaves with more syntax errors than it had. */
export interface BrokenFile {
  readonly file: string;
  /** 1-based lines of the syntax errors after the rewrite. */
  readonly lines: readonly number[];
  /** How many it had before. */
  readonly before: number;
}

/** A match that was found but not rewritten, and why. */
export interface UntouchedMatch {
  readonly file: string;
  /** 1-based lines of the match. */
  readonly line: number;
  readonly endLine: number;
  /** `unnamed`: the rewrite would delete code the pattern does not name; `tail`: keeping that code does not parse. */
  readonly reason: 'unnamed' | 'tail';
  /** The code concerned (what would be deleted, or what follows the named part). */
  readonly text: string;
  /** 1-based line of that code. */
  readonly at: number;
}

/** A replacement whose operator binding could not be proved unchanged (re-parsed, it is not the template's shape). */
export interface UnsafeReplacement {
  readonly file: string;
  /** 1-based line in the rewritten file. */
  readonly line: number;
  readonly text: string;
  /** Where parentheses were tried and did not help: captures that no longer read as one node, or `the replacement`. */
  readonly parts: readonly string[];
}

/** Where a replacement got parentheses so it binds as the template says. */
export interface Parenthesized {
  readonly file: string;
  /** 1-based line of the match in the original file. */
  readonly line: number;
  /** What got them: capture names (`$X`) or `the replacement`. */
  readonly parts: readonly string[];
}

/** The files an edit would change, and what it left alone. */
export interface Proposal {
  readonly files: readonly StagedFile[];
  readonly replacements: number;
  /** Matches nested inside a replaced match (the outermost wins). */
  readonly innerLeft: number;
  /** Files the rewrite leaves with more syntax errors than before. */
  readonly breaks: readonly BrokenFile[];
  /** Comments inside replaced matches, outside every capture the rewrite uses: the rewrite deletes them. */
  readonly droppedComments: readonly DroppedComment[];
  /** Files left out because they changed during the search or are not valid UTF-8. */
  readonly unstable: readonly string[];
  /** Matches reported and not rewritten (the rewrite would delete unnamed code, or keeping it would not parse). */
  readonly untouched: readonly UntouchedMatch[];
  /** Replacements that keep unnamed code after the part the pattern names (an `else:` after the `except`). */
  readonly keptTails: number;
  /** Replacements that got parentheses so they bind as the template says. */
  readonly parenthesized: readonly Parenthesized[];
  /** Replacements whose binding could not be made safe: listed before anything is accepted. */
  readonly unsafe: readonly UnsafeReplacement[];
  /** Where each replacement sits in its file's new text (UTF-16 offsets), for checks of the result. */
  readonly sites: readonly { readonly file: string; readonly start: number; readonly end: number }[];
}

/**
 * What a proposal protects; each is on by default and can be turned off to reproduce ast-grep's rewrite (the
 * differential proves the reason of every file that differs that way).
 */
export interface Safety {
  /** Code the pattern does not name is never deleted: unnamed code after the named part stays, and a match with unnamed code inside is left alone. */
  readonly keepUnnamed: boolean;
  /** Parentheses where a replacement or a capture would bind to a neighbouring operator otherwise. */
  readonly parenthesize: boolean;
  /** Comments between a capture and the pattern's code next to it travel with the capture. */
  readonly commentsTravel: boolean;
}

/** The product's proposals. */
export const SAFE: Safety = { keepUnnamed: true, parenthesize: true, commentsTravel: true };

/** One replacement of a file being planned. */
interface Planned {
  readonly match: MatchRecord;
  /** The part replaced (the match, or its named part). */
  readonly span: MatchRecord;
  rendered: Rendered;
  wrap: Wrapping;
}

/** Whether the unnamed end a match keeps after its replacement is only comments (`return b'' # eof`), no code. */
function onlyComments(p: Planned, text: string): boolean {
  let rest = text.slice(p.span.end, p.match.end);
  for (const c of [...(p.match.comments ?? [])].sort((a, b) => b.start - a.start)) {
    if (c.start >= p.span.end && c.end <= p.match.end) rest = rest.slice(0, c.start - p.span.end) + rest.slice(c.end - p.span.end);
  }
  return rest.trim() === '';
}

/**
 * How a placed replacement re-parses. The kept unnamed end (an `else:`, a trailing comment) follows the replacement
 * as it followed the named part, so the node may re-parse around it as it did before: that is the template's shape
 * too. Where the end does not fit the replacement, the replacement alone is checked (the end is then reported as
 * not rewritable, not the replacement as unsafe).
 */
function structureAt(tree: Tree, start: number, p: Planned, oneNode: ReadonlySet<string> | undefined): StructureCheck {
  const alone = checkStructure(tree, start, p.rendered.text.length, p.rendered.placed, oneNode);
  if (p.span === p.match || (alone.whole && alone.split.length === 0)) return alone;
  const withEnd = checkStructure(tree, start, p.rendered.text.length + (p.match.end - p.span.end), p.rendered.placed, oneNode);
  return withEnd.whole && withEnd.split.length === 0 ? withEnd : alone;
}

/**
 * Computes the new content of every matching file: the outermost of nested matches replaced, each up to the end
 * of what its pattern names. Each file's bytes are checked against the text that was matched, so the staged
 * original is exactly what is on disk. A match whose rewrite would delete code the pattern does not name is left
 * alone and reported; a replacement that would bind to a neighbouring operator gets parentheses (proved by
 * re-parsing); every comment the rewrite would delete and every file it would leave with more syntax errors is named.
 */
export async function propose(
  loader: TreeSitterLoader,
  spec: LanguageSpec,
  results: readonly FileMatches[],
  template: RewriteTemplate,
  safety: Safety = SAFE,
): Promise<Proposal> {
  const files: StagedFile[] = [];
  const breaks: BrokenFile[] = [];
  const droppedComments: DroppedComment[] = [];
  const unstable: string[] = [];
  const untouched: UntouchedMatch[] = [];
  const parenthesized: Parenthesized[] = [];
  const unsafe: UnsafeReplacement[] = [];
  const sites: { file: string; start: number; end: number }[] = [];
  let replacements = 0;
  let innerLeft = 0;
  let keptTails = 0;
  const parse = async (text: string): Promise<Tree | undefined> => loader.runtime.parse(spec, text);
  const oneNode = await templateKinds(template.text, spec, parse);
  for (const result of results) {
    const text = result.text;
    if (text === undefined) continue;
    const bytes = await readRegularFile(result.absolute).then(
      (read) => read.bytes,
      () => undefined,
    );
    if (!bytes?.equals(Buffer.from(text, 'utf8'))) {
      unstable.push(result.file);
      continue;
    }
    const stringLines = new Set(result.stringLines ?? []);
    const ctx: RenderContext = { source: text, stringLines, unit: indentUnit(text, stringLines), commentsTravel: safety.commentsTravel };
    const { kept, inner } = outermost(result.matches);
    innerLeft += inner + result.nested;
    let plan: Planned[] = [];
    for (const match of kept) {
      if (safety.keepUnnamed) {
        const lost = lostCode(match, template.text);
        if (lost.length > 0) {
          const first = lost[0] as (typeof lost)[number];
          untouched.push({ file: result.file, line: match.startRow + 1, endLine: match.endRow + 1, reason: 'unnamed', text: first.text, at: first.row + 1 });
          continue;
        }
      }
      const span = safety.keepUnnamed ? namedPart(match, text) : match;
      const rendered = renderReplacement(template, span, ctx);
      if (rendered.text === span.text) continue;
      plan.push({ match, span, rendered, wrap: {} });
    }
    if (plan.length === 0) continue;

    let built = assemble(text, plan);
    let tree = await parse(built.text);
    try {
      if (safety.parenthesize && tree) {
        // Where a replacement or a capture does not re-parse as one unit, parentheses are tried; those that make
        // it one parenthesized node stay, the others are reverted and listed as unsafe.
        const retry: Planned[] = [];
        for (const [i, p] of plan.entries()) {
          const check = structureAt(tree, built.starts[i] as number, p, oneNode);
          if (check.whole && check.split.length === 0) continue;
          // A capture that is the whole replacement (a template of just `$A`) gets one pair, not two.
          const spans = p.rendered.placed.filter((c) => c.start === 0 && c.end === p.rendered.text.length).map((c) => c.name);
          const captures = check.whole ? check.split : check.split.filter((n) => !spans.includes(n));
          p.wrap = { whole: !check.whole || captures.length < check.split.length, captures: new Set(captures) };
          p.rendered = renderReplacement(template, p.span, ctx, p.wrap);
          retry.push(p);
        }
        if (retry.length > 0) {
          built = assemble(text, plan);
          tree.delete();
          tree = await parse(built.text);
          for (const [i, p] of plan.entries()) {
            if (!retry.includes(p) || !tree) continue;
            const start = built.starts[i] as number;
            const check = structureAt(tree, start, p, oneNode);
            const wrapped = [...(p.wrap.captures ?? [])].map((n) => `$${n}`);
            const parensHold =
              (!p.wrap.whole || isParenthesized(tree.rootNode, start, start + p.rendered.text.length)) &&
              p.rendered.placed.every((c) => !p.wrap.captures?.has(c.name) || isParenthesized(tree?.rootNode as Tree['rootNode'], start + c.start, start + c.end));
            if (check.whole && check.split.length === 0 && parensHold) {
              parenthesized.push({ file: result.file, line: p.match.startRow + 1, parts: [...wrapped, ...(p.wrap.whole ? ['the replacement'] : [])] });
              continue;
            }
            const parts = [...(p.wrap.whole ? ['the replacement'] : []), ...wrapped];
            p.wrap = {};
            p.rendered = renderReplacement(template, p.span, ctx);
            // The original line, as every other list of the proposal gives it (earlier replacements move the new ones).
            unsafe.push({ file: result.file, line: p.match.startRow + 1, text: firstLine(p.rendered.text), parts });
          }
          built = assemble(text, plan);
          tree?.delete();
          tree = await parse(built.text);
        }
      }
      let after = tree ? errorLines(tree) : [];
      let before: number[] | undefined;
      const beforeLines = async (): Promise<number[]> => {
        if (!before) {
          const original = await parse(text);
          before = original ? errorLines(original) : [];
          original?.delete();
        }
        return before;
      };
      if (after.length > 0 && safety.keepUnnamed && plan.some((p) => p.span !== p.match)) {
        // Keeping the code after a match's named part must give valid code; where it does not (`a() else: ...`
        // after a rewrite that dissolves the `if`), the match is reported and not rewritten.
        const count = (await beforeLines()).length;
        const failing: Planned[] = [];
        for (const p of plan) {
          if (p.span === p.match) continue;
          const alone = await parse(assemble(text, [p]).text);
          if (alone && errorLines(alone).length > count) failing.push(p);
          alone?.delete();
        }
        if (failing.length > 0) {
          for (const p of failing) {
            untouched.push({
              file: result.file,
              line: p.match.startRow + 1,
              endLine: p.match.endRow + 1,
              reason: 'tail',
              text: text.slice(p.span.end, p.match.end).trim(),
              at: lineAt(text, p.span.end) + (/^\s*\n/.test(text.slice(p.span.end)) ? 1 : 0),
            });
          }
          plan = plan.filter((p) => !failing.includes(p));
          if (plan.length === 0) continue;
          built = assemble(text, plan);
          tree?.delete();
          tree = await parse(built.text);
          after = tree ? errorLines(tree) : [];
        }
      }
      if (after.length > 0) {
        // Errors merge and lines move, so a count alone can hide a new error: any error on a line that had none
        // before is reported too (erring on the side of a warning in a file that was already broken).
        const known = new Set(await beforeLines());
        if (after.length > known.size || after.some((line) => !known.has(line))) {
          breaks.push({ file: result.file, lines: after, before: known.size });
        }
      }
    } finally {
      tree?.delete();
    }
    for (const p of plan) {
      if (p.span !== p.match && !onlyComments(p, text)) keptTails++;
      const lost = (p.match.comments ?? []).filter(
        (c) => c.end <= p.span.end && !p.rendered.used.some((u) => u.start <= c.start && c.end <= u.end),
      );
      droppedComments.push(...lost.map((c) => ({ file: result.file, line: c.row + 1, text: c.text })));
    }
    for (const [i, p] of plan.entries()) {
      const start = built.starts[i] as number;
      sites.push({ file: result.file, start, end: start + p.rendered.text.length });
    }
    replacements += plan.length;
    files.push({ file: result.file, absolute: result.absolute, original: text, updated: built.text, replacements: plan.length });
  }
  return { files, replacements, innerLeft, breaks, droppedComments, unstable, untouched, keptTails, parenthesized, unsafe, sites };
}

/** The file with the planned replacements applied front to back, and where each replacement starts in it. */
function assemble(text: string, plan: readonly Planned[]): { text: string; starts: number[] } {
  let out = '';
  let at = 0;
  const starts: number[] = [];
  for (const p of plan) {
    out += text.slice(at, p.span.start);
    starts.push(out.length);
    out += p.rendered.text;
    at = p.span.end;
  }
  return { text: out + text.slice(at), starts };
}

/** 1-based line of an offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

/** Keeps the outermost of nested matches (tree nodes nest or are disjoint), in document order. */
export function outermost(matches: readonly MatchRecord[]): { kept: MatchRecord[]; inner: number } {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: MatchRecord[] = [];
  let inner = 0;
  let end = -1;
  for (const match of sorted) {
    if (match.start < end || (match.start === end && match.end === end && kept.length > 0)) {
      inner++;
      continue;
    }
    kept.push(match);
    end = match.end;
  }
  return { kept, inner };
}

/**
 * The kinds a template is, read alone with its metavariables as names, where it is one clean node spanning all of
 * it (not a run of statements, not a `$$$` run): that node and the nodes it is by a single child (an expression
 * statement and its call). Each replacement must then re-parse as one node of one of these kinds.
 */
async function templateKinds(template: string, spec: LanguageSpec, parse: (text: string) => Promise<Tree | undefined>): Promise<Set<string> | undefined> {
  // (A template that is one metavariable is whatever its capture is.)
  if (/\$\$\$/.test(template) || !template.trim() || /^\$\$?[A-Z_][A-Z0-9_]*$/.test(template.trim())) return undefined;
  const text = preprocessPattern(template, spec);
  const tree = await parse(text);
  if (!tree) return undefined;
  try {
    const root = tree.rootNode;
    if (root.hasError) return undefined;
    const top = root.children.filter((c) => !c.isExtra);
    let node = top.length === 1 ? top[0] : undefined;
    if (!node || node.startIndex !== text.length - text.trimStart().length || node.endIndex !== text.trimEnd().length) return undefined;
    const kinds = new Set<string>();
    while (node) {
      kinds.add(node.type);
      const inner: typeof top = node.children.filter((c) => !c.isExtra);
      const only = inner.length === 1 ? inner[0] : undefined;
      node = only && only.startIndex === node.startIndex && only.endIndex === node.endIndex ? only : undefined;
    }
    return kinds;
  } finally {
    tree.delete();
  }
}
