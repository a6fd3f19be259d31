import { describe, expect, it } from 'vitest';
import { LspError } from '../src/errors.js';
import { locateSymbol } from '../src/position/locate-symbol.js';

const text = [
  'import { items, item } from "./data";',
  '  return items.filter((item) => item.quantity < LOW);',
  'const total = order.lines.reduce((sum, line) => sum + line.price, 0);',
  'console.log("😀", value);',
  'let x = a.b.c; let y = a?.b;',
].join('\n');

function position(line: number, symbol: string | undefined, occurrence?: number) {
  const found = locateSymbol(text, line, symbol, occurrence, 'src/x.ts');
  return [found.character, found.length];
}

function failure(line: number, symbol: string | undefined, occurrence?: number): string {
  try {
    locateSymbol(text, line, symbol, occurrence, 'src/x.ts');
  } catch (error) {
    expect(error).toBeInstanceOf(LspError);
    expect((error as LspError).code).toBe('bad_position');
    return (error as LspError).detail;
  }
  throw new Error('expected a failure');
}

describe('locateSymbol: positions by line and symbol, never by column', () => {
  it('prefers whole words for identifiers', () => {
    // "item" occurs inside "items" too; the whole words win, and there are two.
    expect(failure(2, 'item')).toBe(
      '"item" occurs 2 times on line 2 of src/x.ts: `return items.filter((item) => item.quantity < LOW);`. Pass "occurrence" (1 to 2, counting from the left) to pick one.',
    );
    expect(position(2, 'item', 1)).toEqual([23, 4]);
    expect(position(2, 'item', 2)).toEqual([32, 4]);
    expect(position(2, 'items')).toEqual([9, 5]);
  });

  it('falls back to a substring when no whole word matches', () => {
    expect(position(2, 'quant')).toEqual([37, 8]);
  });

  it('points at the last segment of a qualified name', () => {
    expect(position(3, 'order.lines')).toEqual([20, 5]);
    expect(position(3, 'line.price')).toEqual([59, 5]);
    expect(position(5, 'a.b.c')).toEqual([12, 1]);
    expect(position(5, 'a?.b')).toEqual([26, 1]);
  });

  it('points at the first identifier of other substrings', () => {
    expect(position(3, '(sum')).toEqual([34, 3]);
  });

  it('counts columns in UTF-16 code units, as LSP does', () => {
    expect(position(4, 'value')).toEqual([18, 5]);
  });

  it('refuses a missing symbol and lists the names on the line', () => {
    expect(failure(1, undefined)).toBe(
      'Pass "symbol": the name to ask about as written on line 1 of src/x.ts: `import { items, item } from "./data";`. Names on that line: import, items, item, from, data. Positions are addressed by line and symbol, never by column.',
    );
  });

  it('refuses a symbol that is not on the line and says where it is', () => {
    expect(failure(1, 'reduce')).toBe(
      '"reduce" does not occur on line 1 of src/x.ts: `import { items, item } from "./data";`. It occurs on line 3. Check the line number (1-based) or read the file around it.',
    );
  });

  it('refuses an occurrence that does not exist and a line out of range', () => {
    expect(failure(2, 'items', 2)).toBe(
      '"items" occurs once on line 2 of src/x.ts: `return items.filter((item) => item.quantity < LOW);`; occurrence 2 does not exist.',
    );
    expect(failure(9, 'x')).toBe('src/x.ts has 5 lines; there is no line 9. Lines are 1-based.');
  });
});
