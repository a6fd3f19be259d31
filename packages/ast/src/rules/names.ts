import type { Language } from 'web-tree-sitter';

/** Names close to a misspelt one: same letters in another case, a prefix or part of it, or a few edits away. */
export function closeNames(wrong: string, names: readonly string[], max = 6): string[] {
  const w = wrong.toLowerCase();
  const scored = names.map((name) => {
    const n = name.toLowerCase();
    let score = distance(w, n);
    if (n === w) score = -2;
    else if (n.includes(w) || w.includes(n)) score = Math.min(score, 1);
    return { name, score };
  });
  const limit = Math.max(2, Math.floor(wrong.length / 3));
  return scored
    .filter((s) => s.score <= limit)
    .sort((a, b) => a.score - b.score || a.name.length - b.name.length || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = saved;
    }
  }
  return row[b.length] as number;
}

/** The named, visible node kinds of a grammar (what `kind` can name), sorted. */
export function namedKinds(language: Language): string[] {
  const out = new Set<string>();
  for (let id = 0; id < language.nodeTypeCount; id++) {
    const name = language.nodeTypeForId(id);
    if (name && language.nodeTypeIsNamed(id) && language.nodeTypeIsVisible(id)) out.add(name);
  }
  return [...out].sort();
}

/** The field names of a grammar, sorted. */
export function fieldNames(language: Language): string[] {
  return language.fields.filter((f): f is string => typeof f === 'string' && f.length > 0).sort();
}
