/** The leading whitespace of the line that contains `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, Math.max(start, offset)))?.[0] ?? '';
}

/**
 * A line moved the way its block moves: a block whose first line was indented `from` now starts at `to`. A line
 * indented deeper keeps its extra indentation; a line left of the block's first line (Python's `else:` after the
 * block of a `for`) moves by the same amount, never further right. `undefined` when the indentation is mixed in a
 * way that cannot be moved exactly (the caller keeps the line). `indentOnly` treats `line` as an indentation.
 */
export function reindentLine(line: string, from: string, to: string, indentOnly = false): string | undefined {
  if (!indentOnly && !line.trim()) return '';
  const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
  if (lead.startsWith(from)) return to + line.slice(from.length);
  if (from.startsWith(lead)) {
    const lack = from.slice(lead.length);
    if (to.endsWith(lack)) return to.slice(0, to.length - lack.length) + line.slice(lead.length);
  }
  return undefined;
}

/**
 * The file's indentation unit, measured on code lines only (a line inside a multi-line string is its value, not
 * the file's style): a tab, or its smallest indentation in spaces; `undefined` when it has none.
 */
export function indentUnit(source: string, stringLines: ReadonlySet<number>): string | undefined {
  let tabs = 0;
  let smallest = Infinity;
  for (const m of source.matchAll(/^([ \t]+)\S/gm)) {
    if (stringLines.has(m.index ?? -1)) continue;
    const lead = m[1] as string;
    if (lead.startsWith('\t')) tabs++;
    else if (lead.length < smallest) smallest = lead.length;
  }
  if (tabs > 0 && (smallest === Infinity || tabs > 2)) return '\t';
  return smallest >= 2 && smallest <= 8 ? ' '.repeat(smallest) : undefined;
}

/**
 * The template with its indentation re-expressed in the file's unit (tabs, or its width of spaces): a rewrite
 * written with four spaces lands in a tab-indented Go file as tabs.
 */
export function styleTemplate(template: string, fileUnit: string | undefined): string {
  const lines = template.split('\n');
  const spaces = lines.slice(1).map((l) => /^ */.exec(l)?.[0].length ?? 0).filter((n, i) => n > 0 && lines[i + 1]?.trim());
  if (spaces.length === 0 || lines.some((l) => l.startsWith('\t'))) return template;
  const unit = Math.min(...spaces);
  if (!fileUnit || fileUnit === ' '.repeat(unit)) return template;
  return lines
    .map((line) => {
      const lead = /^ */.exec(line)?.[0].length ?? 0;
      return fileUnit.repeat(Math.floor(lead / unit)) + ' '.repeat(lead % unit) + line.slice(lead);
    })
    .join('\n');
}
