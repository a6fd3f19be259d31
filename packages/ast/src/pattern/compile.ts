import type { Node } from 'web-tree-sitter';
import type { TreeSitterRuntime } from '../engine/runtime.js';
import { AstError } from '../errors.js';
import type { LanguageSpec, PatternContext } from '../languages.js';
import { metaVarOf, preprocessPattern } from './metavars.js';
import { type CompiledPattern, ERROR_KIND_ID, type PatternNode } from './pattern-node.js';

/** Why one rung of the ladder refused the pattern, for the unparseable error. */
interface Refusal {
  readonly context: string;
  /** Offset into the (dedented) pattern where the parse went wrong. */
  readonly offset: number;
  readonly reason: string;
}

/**
 * Compiles a pattern for a language: parses it inside each context of the language's ladder (statement,
 * expression, class member, declaration, top level) and uses the first that accepts it without errors.
 * Throws an `unparseable_pattern` {@link AstError} naming the language and where the parse failed when
 * no context accepts it: a pattern is never searched and silently found nowhere.
 */
export async function compilePattern(
  runtime: TreeSitterRuntime,
  spec: LanguageSpec,
  source: string,
): Promise<CompiledPattern> {
  const pattern = dedent(source);
  if (!pattern.trim()) {
    throw new AstError('invalid_pattern', 'The pattern is empty; pass a code fragment such as `foo($A)`.');
  }
  const prepared = preprocessPattern(pattern, spec);
  const parser = await runtime.parser(spec);
  const refusals: Refusal[] = [];
  // First every rung strictly (no syntax error at all); then, as ast-grep does, tolerating error nodes that a
  // metavariable explains (`switch $X { $$$ }` in Go: the grammar wants case clauses where $$$ stands).
  for (const lenient of [false, true]) {
    for (const context of spec.contexts) {
      const { text, start, end } = scaffold(prepared, context);
      const tree = runtime.parseWith(parser, text);
      if (!tree) continue;
      try {
        const root = tree.rootNode;
        if (root.hasError && !(lenient && explainedByMetavariables(root, text, spec))) {
          if (!lenient) refusals.push(refusal(root, context, start, end, prepared));
          continue;
        }
        const node =
          exactNode(root, start, end, text) ??
          (context.tail ? exactNode(root, start, end + context.tail.length, text) : undefined);
        if (!node) {
          if (!lenient) refusals.push({ context: context.name, offset: pattern.length, reason: 'not a single node' });
          continue;
        }
        const compiled = convert(descend(node), text, spec);
        if (compiled.type === 'meta' && compiled.meta.kind === 'multi') {
          throw new AstError(
            'invalid_pattern',
            `A pattern cannot be a lone $$$ run: it matches one node. Use $NAME, or put the $$$ run inside a larger fragment such as \`foo($$$ARGS)\`.`,
          );
        }
        return finish(spec, source, lenient ? `${context.name} (with a metavariable where the grammar expects other syntax)` : context.name, compiled);
      } finally {
        tree.delete();
      }
    }
  }
  throw unparseable(spec, pattern, refusals);
}

function refusal(root: Node, context: PatternContext, start: number, end: number, prepared: string): Refusal {
  const bad = firstError(root);
  // An error region reaching the end of the fragment means it stops in the middle of something.
  const incomplete = bad !== undefined && !bad.isMissing && bad.endIndex >= end && bad.startIndex < end;
  const offset = bad ? patternOffset(incomplete ? end : bad.startIndex, start, prepared, context) : 0;
  const reason = bad?.isMissing ? `missing ${bad.type}` : incomplete ? 'the fragment is incomplete' : 'syntax error';
  return { context: context.name, offset, reason };
}

/** Whether every error of a parse holds a metavariable (and nothing is missing), so the metavariable caused it. */
function explainedByMetavariables(root: Node, text: string, spec: LanguageSpec): boolean {
  const probe = spec.quoteMetavariables ? /"\$/ : new RegExp(`${escapeRegExp(spec.expando)}(?:[A-Z_]|${escapeRegExp(spec.expando)}{2})`);
  let ok = true;
  const visit = (node: Node): void => {
    if (!ok) return;
    if (node.isMissing) {
      ok = false;
      return;
    }
    if (node.isError) {
      if (!probe.test(text.slice(node.startIndex, node.endIndex))) ok = false;
      return;
    }
    for (const child of node.children) if (child.hasError || child.isMissing || child.isError) visit(child);
  };
  visit(root);
  return ok;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An operator token: two or more characters, none a letter, digit, underscore or space. */
const OPERATOR = /^[^\w\s]{2,}$/;

function finish(spec: LanguageSpec, source: string, context: string, root: PatternNode): CompiledPattern {
  const literals = new Set<string>();
  const singles = new Set<string>();
  const multis = new Set<string>();
  let anchor: CompiledPattern['anchor'];
  const visit = (node: PatternNode, depth: number): void => {
    if (node.type === 'leaf') {
      // Named leaves (identifiers, literals) must match by text. Of the unnamed tokens, which match by kind,
      // only operators of two or more characters are used: their text is their kind, never zero-width (as an
      // automatic `;` is) and never spelled otherwise (as a case-insensitive keyword could be).
      if (node.named ? node.text : OPERATOR.test(node.text) && node.text === node.kind) {
        literals.add(node.text);
        if (node.kindId !== ERROR_KIND_ID && (!anchor || node.text.length > anchor.text.length)) {
          anchor = { text: node.text, kindId: node.kindId, depth };
        }
      }
    } else if (node.type === 'meta') {
      if (node.meta.name) (node.meta.kind === 'multi' ? multis : singles).add(node.meta.name);
    } else {
      for (const child of node.children) visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return {
    language: spec.id,
    source,
    root,
    context,
    literals: [...literals].sort((a, b) => b.length - a.length),
    ...(anchor ? { anchor } : {}),
    singles: [...singles],
    multis: [...multis],
  };
}

/** The pattern with surrounding blank lines removed and its common indentation stripped. */
export function dedent(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && !lines[0]?.trim()) lines.shift();
  while (lines.length > 0 && !lines[lines.length - 1]?.trim()) lines.pop();
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines
    .map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)?.[0].length ?? 0)))
    .join('\n')
    .trimEnd();
}

function scaffold(pattern: string, context: PatternContext): { text: string; start: number; end: number } {
  const indent = context.indent ?? '';
  const body = indent ? pattern.split('\n').map((l) => (l ? indent + l : l)).join('\n') : pattern;
  const start = context.before.length + indent.length;
  const end = context.before.length + body.length;
  return { text: context.before + body + (context.tail ?? '') + context.after, start, end };
}

/** Maps an offset in the scaffolded text back to the dedented pattern (undoing the indentation). */
function patternOffset(index: number, start: number, prepared: string, context: PatternContext): number {
  const indent = context.indent?.length ?? 0;
  let rel = index - start;
  if (rel <= 0) return 0;
  if (indent) {
    // Every line after the first carries `indent` extra characters.
    let offset = 0;
    let line = 0;
    for (let i = 0; i < prepared.length && offset < rel; i++) {
      offset++;
      if (prepared[i] === '\n') {
        line++;
        offset += indent;
      }
    }
    rel -= line * indent;
  }
  return Math.max(0, Math.min(prepared.length, rel));
}

function firstError(node: Node): Node | undefined {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child.isError || child.isMissing || child.hasError) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The outermost node spanning [start, end), if any; a node that also takes the whitespace after the fragment
 * (a preprocessor line takes its newline) counts as spanning it.
 */
function exactNode(root: Node, start: number, end: number, text: string): Node | undefined {
  let node: Node | null = root;
  let loose: Node | undefined;
  while (node) {
    if (node.startIndex === start) {
      if (node.endIndex === end) return node;
      if (!loose && node.endIndex > end && !text.slice(end, node.endIndex).trim()) loose = node;
    }
    let next: Node | null = null;
    for (const child of node.children) {
      if (child.startIndex <= start && child.endIndex >= end && !(child.startIndex === child.endIndex && start !== end)) {
        next = child;
        break;
      }
    }
    node = next;
  }
  return loose;
}

/** ast-grep's rule: a node with a single child stands for that child (an expression statement, its call). */
function descend(node: Node): Node {
  let current = node;
  for (;;) {
    const count = current.childCount;
    const second = count === 2 ? current.child(1) : null;
    const single = count === 1 || (count === 2 && second !== null && (second.isMissing || second.type === ''));
    const first = single ? current.child(0) : null;
    if (!first) return current;
    current = first;
  }
}

function convert(node: Node, text: string, spec: LanguageSpec): PatternNode {
  const own = text.slice(node.startIndex, node.endIndex);
  const meta = metaVarOf(own, spec);
  if (meta) return { type: 'meta', meta };
  if (node.childCount === 0) {
    return { type: 'leaf', kindId: node.typeId, kind: node.type, named: node.isNamed || node.isError, text: own };
  }
  const children: PatternNode[] = [];
  // Comments in a pattern are not part of its shape, just as comments in the code are not.
  for (const child of node.children) {
    if (!child.isMissing && (!child.isExtra || child.isError)) children.push(convert(child, text, spec));
  }
  return { type: 'inner', kindId: node.typeId, kind: node.type, children };
}

function unparseable(spec: LanguageSpec, pattern: string, refusals: readonly Refusal[]): AstError {
  const best = refusals.reduce<Refusal | undefined>((a, b) => (!a || b.offset > a.offset ? b : a), undefined);
  const contexts = spec.contexts.map((c) => c.name).join(', ');
  let where = '';
  if (best) {
    const before = pattern.slice(0, best.offset);
    const line = before.split('\n').length;
    const column = best.offset - (before.lastIndexOf('\n') + 1);
    const lineText = pattern.split('\n')[line - 1] ?? '';
    where = ` It fails at line ${line}, column ${column + 1} (${best.reason}, read as ${best.context}):\n  ${lineText}\n  ${' '.repeat(column)}^\n`;
  }
  return new AstError(
    'unparseable_pattern',
    `The pattern is unparseable as ${spec.id}: no context (${contexts}) accepts it.${where || ' '}` +
      `Write a complete ${spec.id} expression, statement or declaration (one node); metavariables are $NAME (one node), $$$NAME (zero or more nodes) and $_ (any node, not bound).`,
  );
}
