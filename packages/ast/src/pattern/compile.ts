import type { Node } from 'web-tree-sitter';
import type { TreeSitterRuntime } from '../engine/runtime.js';
import { AstError } from '../errors.js';
import type { LanguageSpec, PatternContext } from '../languages.js';
import { ownText } from '../match/same-code.js';
import { readingCaveat } from './caveat.js';
import { enclosingConstruct, misreadClause } from './enclosing.js';
import { metaVarOf, preprocessPattern } from './metavars.js';
import { notReadable } from './not-readable.js';
import { type CompiledPattern, type Deviations, ERROR_KIND_ID, isEllipsis, isTrivial, type PatternNode, PRODUCT } from './pattern-node.js';
import { lostMetavariables, withReadings } from './readings.js';
import { withStatementSemicolons } from './semicolons.js';

/** How a pattern is compiled: the product's context ladder, or exactly as ast-grep reads it (for the differential). */
export interface CompileOptions {
  /** `ladder` (default): the context ladder. `ast-grep`: parsed alone at top level, errors and comments kept. */
  readonly style?: 'ladder' | 'ast-grep';
  /** The matcher's deviations from ast-grep; default all on. */
  readonly deviations?: Deviations;
}

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
 * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
 */
export async function compilePattern(
  runtime: TreeSitterRuntime,
  spec: LanguageSpec,
  source: string,
  options: CompileOptions = {},
): Promise<CompiledPattern> {
  const main = await compileReading(runtime, spec, source, options);
  if (options.style === 'ast-grep') return main;
  const read =
    (options.deviations ?? PRODUCT).readings && spec.readingProbes
      ? await withReadings(main, spec, (probed, probing) => compileReading(runtime, { ...spec, probing }, probed, options))
      : main;
  const caveat = readingCaveat(read, spec);
  return caveat ? { ...read, caveat } : read;
}

/** One reading of a pattern: as ast-grep reads it where that is clean, else the first rung of the ladder. */
async function compileReading(
  runtime: TreeSitterRuntime,
  language: LanguageSpec,
  source: string,
  options: CompileOptions,
): Promise<CompiledPattern> {
  const spec = (options.deviations ?? PRODUCT).wildcards && language.expando === '_' ? { ...language, wildcardUnderscore: true } : language;
  const pattern = dedent(source);
  if (!pattern.trim()) {
    throw new AstError('invalid_pattern', 'The pattern is empty; pass a code fragment such as `foo($A)`.');
  }
  const deviations = options.deviations ?? PRODUCT;
  const parser = await runtime.parser(spec);
  if (options.style === 'ast-grep') return compileAsAstGrep(runtime, parser, spec, source, deviations, 'any');
  const refusals: Refusal[] = [];
  // A clause word read as a name, or a clause alone read only with a metavariable where the grammar wanted other
  // syntax: error recovery, so unparseable (as the same clause without metavariables is).
  let misread: string | undefined;
  // A reading that holds fewer metavariables than the pattern writes (C#'s `try $_ $A` read as the keyword alone,
  // Markdown's `$A` inside a line of text) is kept only when no other reading holds them all.
  let lossy: CompiledPattern | undefined;
  const accept = (compiled: CompiledPattern | undefined): CompiledPattern | undefined => {
    if (compiled && !spec.probing && lostMetavariables(compiled).length > 0) {
      lossy ??= compiled;
      return undefined;
    }
    if (!compiled || spec.probing) return compiled;
    const clause = misreadClause(spec.id, pattern, patternLeaves(compiled.root), compiled.context.includes('where the grammar expects other syntax'));
    if (!clause) return compiled;
    misread = `\`${clause}\` is read here as ${compiled.context.includes('where the grammar expects') ? 'part of a fragment the grammar only accepts by error recovery' : `a name (the fragment reads as ${compiled.root.type === 'inner' ? `a ${compiled.root.kind}` : 'something else'})`}, not as the clause.`;
    return undefined;
  };
  // Where ast-grep reads the fragment alone without a syntax error, that reading is the pattern: we agree with
  // it. The ladder is for fragments that only parse in context (`errors.New($MSG)` in Go, `free($P)` in C).
  const clean = accept(await compileAsAstGrep(runtime, parser, spec, source, deviations, 'clean').catch(notReadable));
  if (clean) return clean;
  for (const expando of spec.fallbackExpando ? [spec.expando, spec.fallbackExpando] : [spec.expando]) {
    const found = accept(await climbLadder(runtime, parser, { ...spec, expando }, source, pattern, deviations, refusals));
    if (found) return found;
  }
  // Nothing in context parses, but ast-grep's reading steps over the error to a clean node (`static` in C).
  const stepped = accept(await compileAsAstGrep(runtime, parser, spec, source, deviations, 'clean-node').catch(notReadable));
  if (stepped) return stepped;
  if (lossy) return lossy;
  const error = unparseable(spec, pattern, refusals, misread);
  // A clause that only exists inside a larger construct (`except $E:` without its `try:`): suggest the construct,
  // once it is proved to compile.
  const enclosing = spec.probing ? undefined : enclosingConstruct(spec.id, pattern);
  if (enclosing) {
    const ok = await compilePattern(runtime, spec, enclosing.suggestion, options).then(
      () => true,
      (failed: unknown) => notReadable(failed) ?? false,
    );
    if (ok) {
      throw new AstError(
        'unparseable_pattern',
        `${error.message}\n\`${enclosing.clause}\` only appears inside a larger construct, and a pattern is one complete node: write the enclosing construct, e.g.\n${enclosing.suggestion}`,
      );
    }
  }
  throw error;
}

/** The context ladder with one expando: the first rung that accepts the pattern, strictly, then leniently. */
async function climbLadder(
  runtime: TreeSitterRuntime,
  parser: Awaited<ReturnType<TreeSitterRuntime['parser']>>,
  spec: LanguageSpec,
  source: string,
  pattern: string,
  deviations: Deviations,
  refusals: Refusal[],
): Promise<CompiledPattern | undefined> {
  const prepared = preprocessPattern(pattern, spec);
  const semicolons = spec.statementSemicolons ? withStatementSemicolons(prepared, spec.expando, spec.statementSemicolons) : undefined;
  // First every rung strictly (no syntax error at all); then, as ast-grep does, tolerating error nodes that a
  // metavariable explains (`switch $X { $$$ }` in Go: the grammar wants case clauses where $$$ stands).
  for (const lenient of [false, true]) {
    for (const context of spec.contexts) {
      // A statement rung is tried again with a `;` after each metavariable standing alone as a statement (`if ($C)
      // $S` in C); those `;` are not the pattern's, so the metavariable matches any statement.
      const variants = [{ body: prepared, virtual: [] as { start: number; end: number }[] }];
      if (semicolons && context.name === 'statement') variants.push(semicolons);
      for (const variant of variants) {
        const { text, start, end } = scaffold(variant.body, context);
        const tree = runtime.parseWith(parser, text);
        if (!tree) continue;
        try {
          const root = tree.rootNode;
          if (root.hasError && !(lenient && explainedByMetavariables(root, text, spec))) {
            if (!lenient && variant.virtual.length === 0) refusals.push(refusal(root, context, start, end, prepared));
            continue;
          }
          const node =
            exactNode(root, start, end, text) ??
            (context.tail ? exactNode(root, start, end + context.tail.length, text) : undefined);
          // (`end` counts the suffixes added inside the fragment; a tail sits after it.)
          if (!node) {
            if (!lenient) refusals.push({ context: context.name, offset: pattern.length, reason: 'not a single node' });
            continue;
          }
          const shift = start - (context.indent?.length ?? 0);
          const virtual = variant.virtual.map((v) => ({ start: v.start + shift, end: v.end + shift }));
          if (context.tail) virtual.push({ start: end, end: end + context.tail.length });
          const compiled = convert(descend(node, deviations.ownText), text, spec, { virtual, comments: !deviations.comments });
          // A pattern rooted in an error finds nothing meaningful: it is unparseable, not a silent empty search.
          if (compiled.type === 'inner' && compiled.kindId === ERROR_KIND_ID) continue;
          assertNotLoneRun(compiled);
          const name = lenient ? `${context.name} (with a metavariable where the grammar expects other syntax)` : context.name;
          return finish(spec, source, name, compiled, deviations);
        } finally {
          tree.delete();
        }
      }
    }
  }
  return undefined;
}

/**
 * ast-grep's reading of a pattern: the fragment parsed alone, the root required to hold one node, descended while
 * a node has a single child; errors and comments kept. Used to prove where our ladder and ast-grep part ways.
 */
async function compileAsAstGrep(
  runtime: TreeSitterRuntime,
  parser: Awaited<ReturnType<TreeSitterRuntime['parser']>>,
  spec: LanguageSpec,
  source: string,
  deviations: Deviations,
  accept: 'clean' | 'clean-node' | 'any',
): Promise<CompiledPattern> {
  const asAstGrep: LanguageSpec = { ...spec, quoteMetavariables: false, expando: spec.astGrepExpando ?? spec.expando };
  const text = preprocessPattern(source, asAstGrep);
  const tree = runtime.parseWith(parser, text);
  if (!tree) throw new AstError('unparseable_pattern', 'The pattern could not be parsed.');
  try {
    const root = tree.rootNode;
    if (root.childCount === 0 || !isSingle(root)) {
      throw new AstError('unparseable_pattern', `ast-grep reads \`${source}\` as ${root.childCount === 0 ? 'no node' : 'several nodes'}.`);
    }
    const node = descend(root, deviations.ownText);
    // An error the descent stepped over (ast-grep's `static`: an ERROR holding one specifier) does not matter.
    const broken = accept === 'clean' ? root.hasError : accept === 'clean-node' && (node.hasError || node.isMissing);
    if (broken) throw new AstError('unparseable_pattern', 'The fragment alone has a syntax error.');
    const compiled = convert(node, text, asAstGrep, { virtual: [], comments: !deviations.comments });
    assertNotLoneRun(compiled);
    return finish(spec, source, accept === 'any' ? 'top level (as ast-grep reads it)' : 'fragment on its own', compiled, deviations);
  } finally {
    tree.delete();
  }
}

function assertNotLoneRun(compiled: PatternNode): void {
  if (compiled.type === 'meta' && compiled.meta.kind === 'multi') {
    throw new AstError(
      'invalid_pattern',
      `A pattern cannot be a lone $$$ run: it matches one node. Use $NAME, or put the $$$ run inside a larger fragment such as \`foo($$$ARGS)\`.`,
    );
  }
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
  const e = escapeRegExp(spec.expando);
  const metavariables = spec.quoteMetavariables ? /"\$[^"]*"/g : new RegExp(`(?:${e}){1,3}[A-Z_][A-Z0-9_]*|(?:${e}){3}`, 'gu');
  let ok = true;
  const visit = (node: Node): void => {
    if (!ok) return;
    if (node.isMissing) {
      ok = false;
      return;
    }
    if (node.isError) {
      // The error must hold a metavariable and nothing but metavariables and punctuation: `switch $X { $$$ }` in
      // Go (the grammar wants case clauses where $$$ stands), not `except $E:` alone in Python, whose error is the
      // `except` keyword outside a `try` (that one only parses by error recovery: unparseable, as `except E:` is).
      const errorText = text.slice(node.startIndex, node.endIndex);
      if (!probe.test(errorText) || /[\p{L}\p{N}_]/u.test(errorText.replace(metavariables, ''))) ok = false;
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

/** @internal */
export function finish(spec: LanguageSpec, source: string, context: string, root: PatternNode, deviations: Deviations): CompiledPattern {
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
      // Unnamed tokens right after a `$$$` are not matched on their own (as in ast-grep: `$$$ || n > $A` finds
      // `n > 0 && n < m`), so a match need not contain them.
      let afterRun = false;
      for (const child of node.children) {
        afterRun = isEllipsis(child) || (afterRun && isTrivial(child));
        if (!(afterRun && isTrivial(child))) visit(child, depth + 1);
      }
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
    deviations,
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

/** ast-grep's rule for a node with one child (or one and an empty or missing one after it). */
function isSingle(node: Node): boolean {
  const count = node.childCount;
  if (count === 1) return true;
  const second = count === 2 ? node.child(1) : null;
  // web-tree-sitter names a symbol whose name is empty (Go's implicit end-of-file terminator) "ERROR".
  return second !== null && (second.isMissing || (!second.isError && second.tree.language.types[second.typeId] === ''));
}

/**
 * ast-grep's rule: a node with a single child stands for that child (an expression statement, its call). Where text
 * outside a node's children must match (`ownText`), a child that leaves some of the node's text out does not
 * stand for it: CSS's `#333333` is a color_value whose only child is the `#`, and read as the `#` alone it would
 * find every color.
 */
function descend(node: Node, ownText = false): Node {
  let current = node;
  while (isSingle(current)) {
    const first = current.child(0);
    if (!first) break;
    if (ownText && current.text.trim() !== first.text.trim()) break;
    current = first;
  }
  return current;
}

interface ConvertOptions {
  /** Text the compiler added (a rung's tail `;`, a statement metavariable's `;`): not the pattern's. */
  readonly virtual: readonly { readonly start: number; readonly end: number }[];
  /** Keep comments as pattern nodes (ast-grep does); otherwise they are not part of the shape. */
  readonly comments: boolean;
}

/** A parsed node as a pattern node (metavariables read, the compiler's additions left out). @internal */
export function convert(node: Node, text: string, spec: LanguageSpec, options: ConvertOptions): PatternNode {
  const own = text.slice(node.startIndex, node.endIndex);
  // Reading a pattern with a metavariable replaced by a probe token: the outermost node spelling it is that
  // metavariable (`int` in `sizeof(int)` is a type_descriptor: `$T` read as a type).
  const probe = spec.probing?.find((p) => p.text === own);
  if (probe) return { type: 'meta', meta: probe.meta };
  // A metavariable standing alone as a statement, closed by text the compiler added: it is the statement.
  const meta = metaVarOf(withoutVirtual(own, node.startIndex, options.virtual), spec);
  if (meta) return { type: 'meta', meta };
  if (node.childCount === 0) {
    return { type: 'leaf', kindId: node.typeId, kind: node.type, named: node.isNamed || node.isError, text: own };
  }
  const kept = node.children.filter((c) => !c.isMissing && (options.comments || !c.isExtra || c.isError));
  const children = kept.map((child) => convert(child, text, spec, options));
  const gaps = ownText(node, text);
  return { type: 'inner', kindId: node.typeId, kind: node.type, children, ...(gaps ? { ownText: gaps } : {}) };
}

/** A node's text without the compiler's additions inside it. */
function withoutVirtual(own: string, at: number, virtual: ConvertOptions['virtual']): string {
  let out = own;
  for (let i = virtual.length - 1; i >= 0; i--) {
    const v = virtual[i] as { start: number; end: number };
    if (v.start >= at && v.end <= at + own.length) out = out.slice(0, v.start - at) + out.slice(v.end - at);
  }
  return out;
}

/** The leaves of a compiled pattern. */
function patternLeaves(node: PatternNode, out: { named: boolean; kind: string; text: string }[] = []): { named: boolean; kind: string; text: string }[] {
  if (node.type === 'leaf') out.push({ named: node.named, kind: node.kind, text: node.text });
  else if (node.type === 'inner') for (const child of node.children) patternLeaves(child, out);
  return out;
}

function unparseable(spec: LanguageSpec, pattern: string, refusals: readonly Refusal[], misread?: string): AstError {
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
    `The pattern is unparseable as ${spec.id}: no context (${contexts}) accepts it.${misread ? ` ${misread}` : ''}${where || ' '}` +
      `Write a complete ${spec.id} expression, statement or declaration (one node); metavariables are $NAME (one node), $$$NAME (zero or more nodes) and $_ (any node, not bound).`,
  );
}
