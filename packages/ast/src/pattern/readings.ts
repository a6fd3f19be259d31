import type { LanguageSpec, Probing } from '../languages.js';
import type { MetaVar } from './metavars.js';
import { notReadable } from './not-readable.js';
import type { CompiledPattern, PatternNode } from './pattern-node.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A metavariable as a key: its kind and name (`$_` and `$$$` are anonymous). */
function metaKey(meta: MetaVar): string {
  return `${meta.kind}:${meta.name ?? '_'}`;
}

/** How many times each metavariable stands in a compiled pattern. */
function metaCounts(node: PatternNode, out = new Map<string, number>()): Map<string, number> {
  if (node.type === 'meta') out.set(metaKey(node.meta), (out.get(metaKey(node.meta)) ?? 0) + 1);
  else if (node.type === 'inner') for (const child of node.children) metaCounts(child, out);
  return out;
}

function sameCounts(a: Map<string, number>, b: Map<string, number>): boolean {
  return a.size === b.size && [...a].every(([k, n]) => b.get(k) === n);
}

/**
 * The metavariables written in a pattern, as groups probed together: every occurrence of a named one (a repeated
 * `$A` is one code), each anonymous one (`$_`, `$$$`) alone. Metavariables glued to other characters of a token
 * (`foo$A`) are one token there, not a node, and are left out.
 */
export function metavariableGroups(source: string): { label: string; meta: MetaVar; sites: { start: number; end: number }[] }[] {
  const groups = new Map<string, { label: string; meta: MetaVar; sites: { start: number; end: number }[] }>();
  for (const m of source.matchAll(/(?<![\p{L}\p{N}_$])(\$\$\$(?:[A-Z_][A-Z0-9_]*)?|\$\$?[A-Z_][A-Z0-9_]*)(?![\p{L}\p{N}_$])/gu)) {
    const text = m[1] as string;
    const start = m.index ?? 0;
    const multi = text.startsWith('$$$');
    const name = text.replace(/^\$+/, '');
    const anonymous = name === '' || name.startsWith('_');
    const meta: MetaVar = multi
      ? { kind: 'multi', name: anonymous ? undefined : name }
      : { kind: 'single', name: anonymous ? undefined : name, named: !text.startsWith('$$') };
    const key = anonymous ? `${text}@${start}` : text;
    const group = groups.get(key) ?? { label: text, meta, sites: [] };
    group.sites.push({ start, end: start + text.length });
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The source with each group's sites replaced by its probe's text. */
function substitute(source: string, choice: readonly { sites: readonly { start: number; end: number }[]; text: string }[]): string {
  const edits = choice.flatMap((c) => c.sites.map((s) => ({ ...s, text: c.text }))).sort((a, b) => b.start - a.start);
  let out = source;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Combinations of at most this many groups are probed together, where one metavariable at a time is not enough. */
const MAX_COMBINED = 3;

/**
 * A pattern with the other readings the grammar has for its metavariables. Each metavariable (`$A`, `$_`, `$$$`)
 * is replaced in turn by each of the language's probe tokens (`int` in C): where that reading compiles to another
 * shape (C's `sizeof(int)` holds a type_descriptor where `sizeof($T)` holds a parenthesized expression), it becomes
 * an alternative root, and the answer says so. Where the pattern itself was read only by error recovery, the
 * metavariables are also probed together (Go's `func $R Name() $B` is a method only with a receiver and a
 * block). Literals are those every reading has; the anchor is kept only where every reading has the same one.
 */
export async function withReadings(
  main: CompiledPattern,
  spec: LanguageSpec,
  compile: (source: string, probing: readonly Probing[]) => Promise<CompiledPattern>,
): Promise<CompiledPattern> {
  const alternatives: CompiledPattern[] = [];
  const readings: string[] = [];
  const seen = new Set([JSON.stringify(main.root)]);
  const counts = metaCounts(main.root);
  const probes = (spec.readingProbes ?? []).filter(
    (probe) => !new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(probe.text)}(?![\\p{L}\\p{N}_])`, 'u').test(main.source),
  );
  const groups = metavariableGroups(main.source);
  const tryReading = async (choice: { group: (typeof groups)[number]; probe: (typeof probes)[number] }[]): Promise<void> => {
    const probed = substitute(
      main.source,
      choice.map((c) => ({ sites: c.group.sites, text: c.probe.text })),
    );
    const other = await compile(
      probed,
      choice.map((c) => ({ text: c.probe.text, meta: c.group.meta })),
    ).catch(notReadable);
    // A reading is another shape of the same code: every metavariable must still be one node in it (a probe that
    // merged with a neighbour into one token is no reading), and a pattern that is a metavariable has one.
    if (!other || other.root.type === 'meta' || main.root.type === 'meta' || !sameCounts(metaCounts(other.root), counts)) return;
    // A clean pattern's other readings are clean too: a probe that only parses by error recovery reads nothing.
    if (lenient(other) && !lenient(main)) return;
    const key = JSON.stringify(other.root);
    if (seen.has(key)) return;
    seen.add(key);
    alternatives.push(other);
    const whats = choice.map((c) => `as ${c.probe.what}`).join(' and ');
    const labels = choice.map((c) => `\`${c.group.label}\``).join(' and ');
    const otherKind = main.root.type === 'inner' && other.root.type === 'inner' && other.root.kind !== main.root.kind;
    readings.push(
      `${labels} read as ${otherKind && main.root.type === 'inner' && other.root.type === 'inner' ? `a ${main.root.kind} and ${whats} in a ${other.root.kind}` : `an expression and ${whats}`} (as in \`${probed.replace(/\s+/g, ' ').slice(0, 80)}\`)`,
    );
  };
  for (const group of groups) for (const probe of probes) await tryReading([{ group, probe }]);
  // Read by error recovery or losing a metavariable: the metavariables together may make the construct.
  if ((lenient(main) || !sameCounts(counts, expectedCounts(groups)))) {
    const probed = groups.slice(0, MAX_COMBINED);
    const choices: { group: (typeof groups)[number]; probe: (typeof probes)[number] }[][] = [[]];
    for (const group of probed) {
      const next: typeof choices = [];
      for (const choice of choices) {
        next.push(choice);
        for (const probe of probes) if (!choice.some((c) => c.probe.text === probe.text)) next.push([...choice, { group, probe }]);
      }
      choices.splice(0, choices.length, ...next);
    }
    for (const choice of choices) if (choice.length > 1) await tryReading(choice);
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

function lenient(compiled: CompiledPattern): boolean {
  return compiled.context.includes('where the grammar expects');
}

/** The metavariables a pattern's text writes, counted as a compiled pattern counts them. */
export function expectedCounts(groups: ReturnType<typeof metavariableGroups>): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of groups) out.set(metaKey(g.meta), (out.get(metaKey(g.meta)) ?? 0) + g.sites.length);
  return out;
}

/** The metavariables a pattern's text writes that its compiled reading does not hold as metavariables. */
export function lostMetavariables(compiled: CompiledPattern): string[] {
  const counts = metaCounts(compiled.root);
  const lost: string[] = [];
  for (const g of metavariableGroups(compiled.source)) {
    const key = metaKey(g.meta);
    const have = counts.get(key) ?? 0;
    if (have < g.sites.length && !lost.includes(g.label)) lost.push(g.label);
    counts.set(key, Math.max(0, have - g.sites.length));
  }
  return lost;
}
