import { plural } from '@agent-tools/core/internal';
/** How big a rendered table may get. */
export interface TableCaps {
  /** Body rows shown at most (default 20). */
  readonly rows?: number;
  /** Columns shown at most, index columns included (default 12). */
  readonly columns?: number;
  /** Characters per cell at most (default 60). */
  readonly cell?: number;
}

interface Cell {
  readonly text: string;
  readonly header: boolean;
  readonly colspan: number;
  readonly rowspan: number;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', times: '×', hellip: '…' };

/**
 * Renders the first `<table>` of an HTML fragment (a pandas DataFrame's `text/html`) as a markdown table, capped
 * in rows, columns and cell width, and followed by a line stating the table's full size. Header rows are merged
 * per column (`A / x` for a two-level column index); spans are repeated so every row reads on its own. Returns
 * `undefined` when the fragment has no table.
 */
export function htmlTableToMarkdown(html: string, caps: TableCaps = {}): string | undefined {
  const maxRows = caps.rows ?? 20;
  const maxColumns = caps.columns ?? 12;
  const maxCell = caps.cell ?? 60;
  const table = /<table\b[^>]*>([\s\S]*?)<\/table>/i.exec(html);
  if (!table) return undefined;
  const isFrame = /class="[^"]*dataframe/i.test(table[0]);
  const head: Cell[][] = [];
  const body: Cell[][] = [];
  const theadMatch = /<thead\b[^>]*>([\s\S]*?)<\/thead>/i.exec(table[1] ?? '');
  const bodyHtml = (table[1] ?? '').replace(/<thead\b[^>]*>[\s\S]*?<\/thead>/i, '');
  if (theadMatch) head.push(...parseRows(theadMatch[1] ?? ''));
  body.push(...parseRows(bodyHtml));
  if (!theadMatch && body.length > 0 && body[0]?.every((c) => c.header)) head.push(body.shift() as Cell[]);

  const headGrid = toGrid(head);
  const bodyGrid = toGrid(body);
  const width = Math.max(0, ...headGrid.map((r) => r.length), ...bodyGrid.map((r) => r.length));
  if (width === 0) return undefined;
  const indexColumns = body[0]?.filter((c) => c.header).reduce((n, c) => n + c.colspan, 0) ?? 0;

  const header = Array.from({ length: width }, (_, col) => {
    const parts: string[] = [];
    for (const row of headGrid) {
      const text = row[col] ?? '';
      if (text && parts[parts.length - 1] !== text) parts.push(text);
    }
    return parts.join(' / ');
  });

  const dims = /(\d[\d,]*) rows? × (\d[\d,]*) columns?/.exec(html.replace(/&times;/g, '×'));
  const totalRows = dims ? Number(dims[1]?.replace(/,/g, '')) : bodyGrid.length;
  const totalColumns = dims ? Number(dims[2]?.replace(/,/g, '')) : width - indexColumns;

  let columns = [...Array(width).keys()];
  let columnsCut = false;
  if (width > maxColumns) {
    // One `…` column stands for everything cut, pandas' own `...` column included.
    columns = columns.slice(0, maxColumns).filter((c) => c < indexColumns || !isEllipsis(header[c] ?? ''));
    columnsCut = true;
  }
  let rows = bodyGrid;
  if (rows.length > maxRows) {
    const tail = Math.min(5, Math.floor(maxRows / 4));
    rows = [...rows.slice(0, maxRows - tail), Array(width).fill('…'), ...rows.slice(rows.length - tail)];
  }

  const cell = (text: string): string => {
    const clipped = text.length > maxCell ? `${text.slice(0, maxCell - 1)}…` : text;
    return clipped.replace(/\|/g, '\\|');
  };
  const line = (values: readonly string[]): string =>
    `| ${[...columns.map((c) => cell(values[c] ?? '')), ...(columnsCut ? ['…'] : [])].join(' | ')} |`;
  const lines = [line(header), `|${[...columns, ...(columnsCut ? [0] : [])].map(() => '---').join('|')}|`, ...rows.map(line)];

  const shownRows = rows.filter((r) => !r.every(isEllipsis)).length;
  const shownColumns = columns.filter((c) => c >= indexColumns && !isEllipsis(header[c] ?? '')).length;
  const noun = isFrame ? 'DataFrame' : 'table';
  const size = `${plural(totalRows, 'row')} × ${plural(totalColumns, 'column')}`;
  const shown =
    shownRows < totalRows || shownColumns < totalColumns ? `; shown: ${plural(shownRows, 'row')} × ${plural(shownColumns, 'column')}` : '';
  lines.push(`(${noun}: ${size}${shown})`);
  return lines.join('\n');
}

function isEllipsis(text: string): boolean {
  return text === '...' || text === '…';
}

function parseRows(html: string): Cell[][] {
  const rows: Cell[][] = [];
  for (const tr of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
    const cells: Cell[] = [];
    for (const td of (tr[1] ?? '').matchAll(/<(th|td)\b([^>]*)>([\s\S]*?)<\/\1>/gi)) {
      const attrs = td[2] ?? '';
      cells.push({
        text: cleanText(td[3] ?? ''),
        header: (td[1] ?? '').toLowerCase() === 'th',
        colspan: spanOf(attrs, 'colspan'),
        rowspan: spanOf(attrs, 'rowspan'),
      });
    }
    rows.push(cells);
  }
  return rows;
}

/** Lays rows with col/row spans out on a grid, repeating a spanning cell's text in every slot it covers. */
function toGrid(rows: readonly Cell[][]): string[][] {
  const grid: string[][] = [];
  const carried: ({ text: string; left: number } | undefined)[] = [];
  for (const row of rows) {
    const out: string[] = [];
    let col = 0;
    const fillCarried = (): void => {
      for (let carry = carried[col]; carry && carry.left > 0; carry = carried[col]) {
        out[col] = carry.text;
        carry.left--;
        col++;
      }
    };
    for (const cell of row) {
      fillCarried();
      for (let i = 0; i < cell.colspan; i++) {
        out[col] = cell.text;
        if (cell.rowspan > 1) carried[col] = { text: cell.text, left: cell.rowspan - 1 };
        col++;
      }
    }
    fillCarried();
    grid.push(Array.from(out, (v) => v ?? ''));
  }
  return grid;
}

function spanOf(attrs: string, name: string): number {
  const match = new RegExp(`${name}\\s*=\\s*["']?(\\d+)`, 'i').exec(attrs);
  const value = match ? Number(match[1]) : 1;
  return Number.isFinite(value) && value >= 1 ? Math.min(value, 1000) : 1;
}

function cleanText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
