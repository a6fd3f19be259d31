import { randomFillSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { collapseCarriageReturns } from '@agent-tools/core/internal';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { CellOutput } from '../src/jupyter/kernel-session.js';
import { CAPS, renderCell } from '../src/render/cell-result.js';
import { htmlTableToMarkdown } from '../src/render/html-table.js';
import { preparePng } from '../src/render/png.js';
import { capMiddle } from '../src/render/text.js';
import { shortenPythonTraceback } from '../src/render/traceback.js';

const frames = JSON.parse(readFileSync(new URL('./fixtures/pandas-html.json', import.meta.url), 'utf8')) as Record<string, string>;
const tracebacks = JSON.parse(readFileSync(new URL('./fixtures/ipython-tracebacks.json', import.meta.url), 'utf8')) as string[][];

function png(width: number, height: number): string {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image, { filterType: 0 }).toString('base64');
}

function render(outputs: CellOutput[], language: 'python' | 'javascript' = 'python', executionCount = 3) {
  return renderCell({
    language,
    outputs,
    executionCount,
    ended: outputs.some((o) => o.type === 'error') ? 'error' : 'ok',
    before: [],
    after: [],
    kernel: undefined,
    bridgeCalls: 0,
    rewritten: [],
  });
}

function texts(result: ReturnType<typeof render>): string {
  return result.content.flatMap((p) => (p.type === 'text' ? [p.text] : ['<image>'])).join('\n');
}

describe('renderCell', () => {
  it('never answers a failed cell with no text at all', () => {
    const result = renderCell({
      language: 'python',
      outputs: [],
      executionCount: null,
      ended: 'error',
      before: [],
      after: [],
      kernel: undefined,
      bridgeCalls: 0,
      rewritten: [],
    });
    expect(result.isError).toBe(true);
    expect(texts(result)).toBe('The cell ended (error) without output or a message.');
  });
});

describe('htmlTableToMarkdown (pandas 1.5 HTML)', () => {
  it('renders a small DataFrame with escaped cells and its size', () => {
    expect(htmlTableToMarkdown(frames['small'] as string)).toBe(
      ['|  | a | b |', '|---|---|---|', '| 0 | 1 | x\\|y |', '| 1 | 2 | <z> |', '(DataFrame: 2 rows × 2 columns)'].join('\n'),
    );
  });

  it("caps a big DataFrame's columns and states its full size from pandas' footer", () => {
    const table = htmlTableToMarkdown(frames['big'] as string) as string;
    const lines = table.split('\n');
    expect(lines[0]?.split('|').length).toBe(CAPS_COLUMNS + 3);
    expect(lines[0]).toContain('| c0 | c1 |');
    expect(table).toContain('| 999 |');
    expect(lines[lines.length - 1]).toMatch(/^\(DataFrame: 1000 rows × 30 columns; shown: 10 rows × 11 columns\)$/);
  });

  it('merges multi-level column headers and repeats row spans', () => {
    const table = htmlTableToMarkdown(frames['multi'] as string) as string;
    expect(table.split('\n')[0]).toBe('| key | n | A / x | A / y | B / x |');
    expect(table).toContain('| k | 1 | 1 | 2 | 3 |');
    expect(table).toContain('| k | 2 | 4 | 5 | 6 |');
  });

  it('puts the index name into the header', () => {
    expect(htmlTableToMarkdown(frames['named'] as string)?.split('\n')[0]).toBe('| row | v |');
  });

  it('caps rows, keeping the head and the tail', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `<tr><td>${i}</td></tr>`).join('');
    const table = htmlTableToMarkdown(`<table><tr><th>n</th></tr>${rows}</table>`, { rows: 10 }) as string;
    expect(table).toContain('| 7 |');
    expect(table).not.toContain('| 8 |');
    expect(table).toContain('| … |');
    expect(table).toContain('| 49 |');
    expect(table).toContain('(table: 50 rows × 1 column; shown: 10 rows × 1 column)');
  });

  it('returns undefined without a table', () => {
    expect(htmlTableToMarkdown('<p>no table</p>')).toBeUndefined();
  });
});

const CAPS_COLUMNS = 12;

describe('shortenPythonTraceback (IPython 8 tracebacks)', () => {
  it('keeps cell frames, collapses library frames and summarizes the chained exception', () => {
    const text = shortenPythonTraceback(tracebacks[0] as string[], 1);
    expect(text).toContain('this cell, line 5');
    expect(text).toContain('this cell, line 4, in get(name)');
    expect(text).toContain('----> 4     return df[name]');
    expect(text).toContain('… 1 frame in library code …');
    expect(text).toContain('File /usr/lib/python3/dist-packages/pandas/core/indexes/base.py:3804, in Index.get_loc');
    expect(text).not.toContain('3806     # If we have a listlike key');
    expect(text).not.toContain('hashtable_class_helper');
    expect(text).toContain("(Caused by an earlier KeyError: 'missing'; its frames are not shown.)");
    expect(text.split('\n').filter((l) => l === "KeyError: 'missing'")).toHaveLength(1);
  });

  it("drops eval's own helper frames", () => {
    const text = shortenPythonTraceback(tracebacks[1] as string[], 5);
    expect(text).toBe(['Traceback (most recent call last):', 'cell 2, line 1', '----> 1 tool("nope")', 'ToolError: Unknown tool "nope".'].join('\n'));
  });

  it('keeps a syntax error whole', () => {
    expect(shortenPythonTraceback(tracebacks[2] as string[], 3)).toBe('  this cell, line 1\n    x = (\n         ^\nSyntaxError: incomplete input');
  });
});

describe('text helpers', () => {
  it('shows streams and values without terminal codes or control characters', () => {
    const result = render([
      { type: 'stream', name: 'stdout', text: '\u001b[0;31mred\u001b[0m plain\u0000\u0007\n' },
      { type: 'result', data: { 'text/plain': '\u001b[1mbold\u001b[0m\u0000' }, executionCount: 3 },
    ]);
    expect(texts(result)).toBe('red plain\nOut[3]: bold');
  });

  it('shows what a terminal shows of carriage returns', () => {
    expect(collapseCarriageReturns('10%\r50%\r100%\ndone\r\n')).toBe('100%\ndone\n');
  });

  it('cuts the middle and counts what it cut', () => {
    const text = capMiddle('a'.repeat(100) + 'b'.repeat(100), 40);
    expect(text).toMatch(/^a{10}\n… \(160 characters cut\) …\nb{30}$/);
  });
});

describe('preparePng', () => {
  it('leaves small images alone', () => {
    const data = png(300, 200);
    expect(preparePng(data)).toEqual({ mimeType: 'image/png', data, width: 300, height: 200 });
  });

  it('scales an image that barely compresses down until it fits the byte budget', () => {
    const noise = new PNG({ width: 400, height: 400 });
    randomFillSync(noise.data);
    const data = PNG.sync.write(noise, { filterType: 0 }).toString('base64');
    expect(data.length).toBeGreaterThan(200_000);
    const image = preparePng(data, 1024, 200_000);
    expect(image.data.length).toBeLessThanOrEqual(200_000);
    expect(image.width).toBeLessThan(400);
    expect(image.original).toEqual({ width: 400, height: 400 });
  });

  it('scales large images down to the longer side', () => {
    const image = preparePng(png(3000, 1500), 1024);
    expect(image).toMatchObject({ width: 1024, height: 512, original: { width: 3000, height: 1500 } });
    const decoded = PNG.sync.read(Buffer.from(image.data, 'base64'));
    expect([decoded.width, decoded.height]).toEqual([1024, 512]);
    expect(decoded.data[0]).toBe(200);
  });
});

describe('renderCell', () => {
  it('shows streams, displays and the result in order, with stderr marked', () => {
    const result = render([
      { type: 'stream', name: 'stdout', text: 'a\n' },
      { type: 'stream', name: 'stdout', text: 'b\n' },
      { type: 'stream', name: 'stderr', text: 'warn\n' },
      { type: 'display', data: { 'text/plain': 'shown' }, metadata: {} },
      { type: 'result', data: { 'text/plain': '42' }, executionCount: 3 },
    ]);
    expect(result.isError).toBe(false);
    expect(texts(result)).toBe('a\nb\n[stderr]\nwarn\nshown\nOut[3]: 42');
  });

  it('returns figures as image parts between the text', () => {
    const result = render([
      { type: 'stream', name: 'stdout', text: 'before\n' },
      { type: 'display', data: { 'image/png': png(2048, 1024), 'text/plain': '<Figure size 2048x1024 with 1 Axes>' }, metadata: {} },
      { type: 'stream', name: 'stdout', text: 'after\n' },
    ]);
    expect(result.content.map((p) => p.type)).toEqual(['text', 'image', 'text']);
    expect(texts(result)).toContain('[image 1: image/png 1024×512, scaled down from 2048×1024] <Figure size 2048x1024 with 1 Axes>');
    expect(result.structured?.images).toBe(1);
  });

  it(`shows at most ${CAPS.images} images`, () => {
    const outputs: CellOutput[] = Array.from({ length: 6 }, () => ({ type: 'display', data: { 'image/png': png(10, 10) }, metadata: {} }));
    const result = render(outputs);
    expect(result.content.filter((p) => p.type === 'image')).toHaveLength(CAPS.images);
    expect(texts(result)).toContain('(2 more images not shown)');
  });

  it('renders a DataFrame result as a table under its Out label', () => {
    const result = render([{ type: 'result', data: { 'text/plain': '   a  b', 'text/html': frames['small'] as string }, executionCount: 3 }]);
    expect(texts(result)).toMatch(/^Out\[3\]:\n\| {2}\| a \| b \|/);
  });

  it('caps a flood of output and counts the cut', () => {
    const result = render([{ type: 'stream', name: 'stdout', text: 'x'.repeat(100_000) }]);
    expect(texts(result).length).toBeLessThan(CAPS.stream + 100);
    expect(texts(result)).toContain('characters cut');
  });

  it('drops outputs cleared by clear_output', () => {
    const result = render([
      { type: 'stream', name: 'stdout', text: 'progress 1\n' },
      { type: 'clear' },
      { type: 'stream', name: 'stdout', text: 'progress 2\n' },
    ]);
    expect(texts(result)).toBe('progress 2');
  });

  it('marks errors and says "(no output)" for a silent cell', () => {
    expect(render([{ type: 'error', ename: 'E', evalue: 'v', traceback: ['E: v'] }], 'javascript').isError).toBe(true);
    expect(texts(render([]))).toBe('(no output)');
  });
});
