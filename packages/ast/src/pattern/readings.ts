import type { LanguageSpec } from '../languages.js';
import type { CompiledPattern, PatternNode } from './pattern-node.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How many times a metavariable stands in a compiled pattern. */
function metaCount(node: PatternNode, name: string): number {
  if (node.type === 'meta') return node.meta.name === name ? 1 : 0;
  if (node.type === 'leaf') return 0;
  return node.children.reduce((n, c) => n + metaCount(c, name), 0);
}

/**
 * A pattern with the other readings the grammar has for its metavariables. Each single metavariable is replaced
 * in turn by each of the language's probe tokens (`int` in C): where that reading compiles to another shape with
 * the same root (C's `sizeof(int)` holds a type_descriptor where `sizeof($T)` holds a parenthesized expression),
 * it becomes an alternative root, and the answer says so. Literals are those every reading has; the anchor is kept
 * only where every reading has the same one.
 */
export async function withReadings(
  main: CompiledPattern,
  spec: LanguageSpec,
  compile: (source: string, probing: { text: string; name: string }) => Promise<CompiledPattern>,
): Promise<CompiledPattern> {
  const alternatives: CompiledPattern[] = [];
  const readings: string[] = [];
  const seen = new Set([JSON.stringify(main.root)]);
  for (const name of main.singles) {
    for (const probe of spec.readingProbes ?? []) {
      if (new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(probe.text)}(?![\\p{L}\\p{N}_])`, 'u').test(main.source)) continue;
      const probed = main.source.replace(new RegExp(`\\$${name}(?![A-Z0-9_])`, 'g'), () => probe.text);
      const other = await compile(probed, { text: probe.text, name }).catch(() => undefined);
      // A reading is another shape of the same code: the metavariable must still be one node in it (a probe that
      // merged with a neighbour into one token is no reading), and a pattern that is a metavariable has one.
      if (!other || other.root.type === 'meta' || main.root.type === 'meta' || metaCount(other.root, name) !== metaCount(main.root, name)) continue;
      const key = JSON.stringify(other.root);
      if (seen.has(key)) continue;
      seen.add(key);
      alternatives.push(other);
      readings.push(`\`$${name}\` read as ${main.root.type === 'inner' && other.root.type === 'inner' && other.root.kind !== main.root.kind ? `a ${main.root.kind} and as ${probe.what} in a ${other.root.kind}` : `an expression and as ${probe.what}`} (as in \`${probed.replace(/\s+/g, ' ').slice(0, 80)}\`)`);
    }
  }
  if (alternatives.length === 0) return main;
  const literals = main.literals.filter((l) => alternatives.every((a) => a.literals.includes(l)));
  const sameAnchor = alternatives.every((a) => JSON.stringify(a.anchor) === JSON.stringify(main.anchor));
  const { anchor: _anchor, ...rest } = main;
  return {
    ...rest,
    ...(sameAnchor && main.anchor ? { anchor: main.anchor } : {}),
    literals,
    alternatives: alternatives.map((a) => a.root),
    readings,
  };
}
