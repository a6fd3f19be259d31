import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { codeMask, familyOf, isIdentifierChar } from '../../src/position/code-mask.js';

/** What kind of use a picked identifier is, so that every kind is covered. */
export type Category = 'call' | 'member' | 'import' | 'type' | 'name';

/** A picked position: what the tool is given (line, symbol, occurrence) and what the oracle is given (LSP position). */
export interface Picked {
  readonly file: string;
  readonly path: string;
  readonly category: Category;
  readonly symbol: string;
  /** 1-based line and occurrence, as the tool takes them. */
  readonly line: number;
  readonly occurrence: number;
  /** 0-based LSP position. */
  readonly position: { readonly line: number; readonly character: number };
}

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default del do elif else enum except export extends false finally for from func function go if implements import in instanceof interface is lambda let new nil none not null of or package pass private protected public raise readonly return self static struct super switch this throw true try type typeof var void while with yield True False None int char void unsigned signed long short double float sizeof typedef return include define ifdef endif ifndef'
  ).split(' '),
);

/** Every identifier in code of a file, classified. */
export function identifiers(cwd: string, path: string): Picked[] {
  const text = readFileSync(path, 'utf8');
  const mask = codeMask(text, familyOf(path));
  const out: Picked[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let offset = 0;
  for (const [index, lineText] of lines.entries()) {
    const seen = new Map<string, number>();
    let i = 0;
    while (i < lineText.length) {
      const at = offset + i;
      if (mask[at] === 1 && isIdentifierChar(lineText, i) && !/[0-9]/.test(lineText[i] as string) && !isIdentifierChar(lineText, i - 1)) {
        let j = i;
        while (j < lineText.length && isIdentifierChar(lineText, j)) j++;
        const symbol = lineText.slice(i, j);
        const occurrence = (seen.get(symbol) ?? 0) + 1;
        seen.set(symbol, occurrence);
        if (symbol.length > 1 && !KEYWORDS.has(symbol) && !KEYWORDS.has(symbol.toLowerCase())) {
          out.push({
            file: relative(cwd, path),
            path,
            category: classify(lineText, i, j),
            symbol,
            line: index + 1,
            occurrence,
            position: { line: index, character: i },
          });
        }
        i = j;
      } else i++;
    }
    offset += lineText.length + (text[offset + lineText.length] === '\r' && text[offset + lineText.length + 1] === '\n' ? 2 : 1);
  }
  return out;
}

function classify(line: string, start: number, end: number): Category {
  if (/^\s*(import|from|#include|export .* from)\b/.test(line)) return 'import';
  const after = line.slice(end).trimStart();
  const before = line.slice(0, start).trimEnd();
  if (before.endsWith('.') || before.endsWith('->')) return 'member';
  if (after.startsWith('(')) return 'call';
  if (/[:<]$|\bnew$|\bextends$|\bimplements$|\bstruct$/.test(before) || /^[A-Z]/.test(line.slice(start, end))) return 'type';
  return 'name';
}

/** Up to `perCategory` positions of each category, drawn with the generator from the files. */
export function pick(cwd: string, files: readonly string[], perCategory: number, next: () => number): Picked[] {
  const all = files.flatMap((file) => identifiers(cwd, file));
  const chosen: Picked[] = [];
  for (const category of ['call', 'member', 'import', 'type', 'name'] as const) {
    const pool = all.filter((p) => p.category === category);
    for (let n = 0; n < perCategory && pool.length > 0; n++) chosen.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as Picked);
  }
  return chosen;
}
