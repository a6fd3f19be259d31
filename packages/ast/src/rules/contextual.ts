import type { Node } from 'web-tree-sitter';
import type { TreeSitterRuntime } from '../engine/runtime.js';
import { AstError } from '../errors.js';
import type { LanguageSpec } from '../languages.js';
import { type CompileOptions, convert, dedent, finish } from '../pattern/compile.js';
import { preprocessPattern } from '../pattern/metavars.js';
import { type CompiledPattern, PRODUCT } from '../pattern/pattern-node.js';

/**
 * ast-grep's pattern object `{ context, selector }`: the context is parsed whole and the pattern is its first node
 * (in document order, outermost first) of the selector's kind, so `class $C { $M() {} }` with selector
 * `method_definition` matches methods, which a fragment alone could not say.
 * @internal
 */
export async function compileContextual(
  runtime: TreeSitterRuntime,
  spec: LanguageSpec,
  context: string,
  selector: string,
  selectorId: number,
  options: CompileOptions,
): Promise<CompiledPattern> {
  const deviations = options.deviations ?? PRODUCT;
  const asAstGrep = options.style === 'ast-grep';
  const reading: LanguageSpec = asAstGrep ? { ...spec, quoteMetavariables: false, expando: spec.astGrepExpando ?? spec.expando } : spec;
  const text = preprocessPattern(asAstGrep ? context : dedent(context), reading);
  const tree = await runtime.parse(spec, text);
  if (!tree) throw new AstError('invalid_rule', 'The pattern context could not be parsed.');
  try {
    const found = firstOfKind(tree.rootNode, selectorId);
    if (!found) {
      throw new AstError(
        'invalid_rule',
        `\`pattern.selector\`: the context \`${context}\` has no node of kind ${selector}. Write a context that contains one (see ast_tree for how it parses).`,
      );
    }
    const root = convert(found, text, reading, { virtual: [], comments: !deviations.comments });
    if (root.type === 'meta' && root.meta.kind === 'multi') {
      throw new AstError('invalid_rule', '`pattern.selector` picks a lone $$$ run: a pattern matches one node.');
    }
    return finish(spec, context, `context, selector ${selector}`, root, deviations);
  } finally {
    tree.delete();
  }
}

function firstOfKind(node: Node, kindId: number): Node | undefined {
  if (node.typeId === kindId) return node;
  for (const child of node.children) {
    const found = firstOfKind(child, kindId);
    if (found) return found;
  }
  return undefined;
}
