import type { LanguageSpec } from '../languages.js';
import { type CompiledPattern, ERROR_KIND_ID, type PatternNode } from './pattern-node.js';
import { lostMetavariables } from './readings.js';

function leaves(node: PatternNode, out: { kind: string; text: string }[] = []): { kind: string; text: string }[] {
  if (node.type === 'leaf') out.push({ kind: node.kind, text: node.text });
  else if (node.type === 'inner') for (const child of node.children) leaves(child, out);
  return out;
}

/** The first error node of a reading that holds no metavariable (in HTML, any: a tag name must be repeated). */
function unexplainedError(node: PatternNode, html: boolean): PatternNode | undefined {
  if (node.type !== 'inner') return undefined;
  if ((node.kindId === ERROR_KIND_ID || /erroneous/.test(node.kind)) && (!holdsMeta(node) || html)) return node;
  for (const child of node.children) {
    const found = unexplainedError(child, html);
    if (found) return found;
  }
  return undefined;
}

/** Whether a pattern node holds a metavariable. */
function holdsMeta(node: PatternNode): boolean {
  return node.type === 'meta' || (node.type === 'inner' && node.children.some(holdsMeta));
}

/**
 * What the answer must say first about how a pattern was read, where the reading may not be the code the model
 * means and no other reading was matched: a metavariable the grammar does not read as one (Markdown's `$A` in a
 * line of text, HTML's in a text node), a fragment that parses only by error recovery, or Haskell's juxtaposition
 * (`$A $B` is an application; an operator or a definition's `= …` cannot be a metavariable). Each says what to
 * write instead. `undefined` when the pattern reads plainly.
 */
export function readingCaveat(compiled: CompiledPattern, spec: LanguageSpec): string | undefined {
  if (compiled.alternatives?.length) return undefined;
  const root = compiled.root.type === 'inner' || compiled.root.type === 'leaf' ? compiled.root.kind : 'metavariable';
  const lost = lostMetavariables(compiled);
  if (lost.length > 0) {
    const spelled = lost.map((m) => m.replace(/\$/g, spec.expando));
    const inside = leaves(compiled.root).find((l) => spelled.some((s) => l.text.includes(s)));
    const names = lost.map((m) => `\`${m}\``).join(', ');
    return (
      `Read differently: ${names} ${lost.length === 1 ? 'is' : 'are'} not read as ${lost.length === 1 ? 'a metavariable' : 'metavariables'} here — the ${spec.id} grammar reads ${lost.length === 1 ? 'it' : 'them'} as part of ${inside ? `a ${inside.kind} (\`${inside.text.slice(0, 40)}\`)` : `the ${root}'s text`}, which only matches that text literally. ` +
      `Write that code literally, or put each metavariable where a whole node of the grammar stands${lost.every((m) => m === '$_') ? ' (a named one such as `$X` may read where `$_` does not)' : ''}.`
    );
  }
  // Error recovery that a metavariable explains (Go's `switch $X { $$$ }`) reads as meant; a part the grammar
  // rejects although no metavariable stands in it (HTML's `<$A>…</blockquote>`: the end tag names no open tag) does not.
  const rejected = compiled.context.includes('where the grammar expects') ? unexplainedError(compiled.root, spec.id === 'html') : undefined;
  if (rejected) {
    const text = leaves(rejected).map((l) => l.text).join('');
    return (
      `Read by error recovery: the ${spec.id} grammar rejects \`${text.slice(0, 40)}\` here, so the pattern is read as a ${root} with that part in error and may not match the code you mean. ` +
      `Write a whole ${spec.id} node whose parts agree${spec.id === 'html' ? ' (an end tag repeats its start tag: `<$A>…</$A>`)' : ''}, or check the reading with ast_tree.`
    );
  }
  const first = compiled.root.type === 'inner' ? compiled.root.children[0] : undefined;
  if (spec.id === 'haskell' && compiled.root.type === 'inner' && compiled.root.kind === 'bind' && first?.type === 'meta') {
    return (
      `Read as a pattern binding (\`${first.meta.kind === 'multi' ? `$$$${first.meta.name ?? ''}` : `$${first.meta.name ?? '_'}`}\` the whole left side): a function's defining clause, with its name and arguments, is not one. ` +
      'To find those, write the name and a run for the arguments: `name $$$ARGS = $BODY`.'
    );
  }
  if (spec.id === 'haskell' && compiled.root.type === 'inner' && compiled.root.kind === 'apply' && holdsMeta(compiled.root)) {
    return (
      'Read as an application (a function applied to its arguments): here a metavariable stands for one expression, never for an operator or a definition\'s `= …`. ' +
      'To find those, write them literally: `$A ++ $B` for an operator, `name $A = $B` for a definition.'
    );
  }
  return undefined;
}
