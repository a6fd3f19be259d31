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
      'Pass "symbol": the name to ask about as written on line 1 of src/x.ts: `import { items, item } from "./data";`. Names on that line: import, items, item, from. Positions are addressed by line and symbol, never by column.',
    );
  });

  it('refuses a symbol that is not on the line and says where it is', () => {
    expect(failure(1, 'reduce')).toBe(
      '"reduce" does not occur on line 1 of src/x.ts: `import { items, item } from "./data";`. It occurs as a whole name on line 3. Check the line number (1-based) or read the file around it.',
    );
  });

  it('refuses an occurrence that does not exist and a line out of range', () => {
    expect(failure(2, 'items', 2)).toBe(
      '"items" occurs once on line 2 of src/x.ts: `return items.filter((item) => item.quantity < LOW);`; occurrence 2 does not exist.',
    );
    expect(failure(9, 'x')).toBe('src/x.ts has 5 lines; there is no line 9. Lines are 1-based.');
  });

  it('counts only identifiers in code: never inside a string or a comment', () => {
    const source = "import { lowStock } from './inventory.js';\nconst fruit = 'banana'; // nan is not a number\n";
    const error = (line: number, symbol: string): string => {
      try {
        locateSymbol(source, line, symbol, undefined, 'src/a.ts');
      } catch (thrown) {
        return (thrown as LspError).detail;
      }
      throw new Error('expected a failure');
    };
    // "n" occurs in "inventory" (a string) and nowhere in code: an error, not the n of a string.
    expect(error(1, 'n')).toBe(
      '"n" occurs on line 1 of src/a.ts: `import { lowStock } from \'./inventory.js\';` only inside a string or a comment, which is not a symbol. Address a name written in code.',
    );
    expect(error(2, 'nan')).toContain('only inside a string or a comment');
    expect(error(2, 'banana')).toContain('only inside a string or a comment');
    // Occurrences are counted over code: "fruit" once, though a comment could repeat it.
    expect(locateSymbol('let fruit = 1; // fruit\n', 1, 'fruit', undefined, 'a.ts')).toMatchObject({ character: 4, length: 5 });
  });

  it('knows the lexical state at the start of a line (block comments, multi-line strings, interpolations)', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test holds a template literal.
    const ts = ['/* one', '   total inside a comment */ const total = 1;', 'const s = `${total} and total`;'].join('\n');
    expect(locateSymbol(ts, 2, 'total', undefined, 'a.ts')).toMatchObject({ character: 35 });
    expect(locateSymbol(ts, 3, 'total', undefined, 'a.ts')).toMatchObject({ character: 13 });
    const py = ['doc = """', 'total here is text', '"""', 'x = f"{total} total"  # total'].join('\n');
    expect(() => locateSymbol(py, 2, 'total', undefined, 'a.py')).toThrow(/only inside a string or a comment/);
    expect(locateSymbol(py, 4, 'total', undefined, 'a.py')).toMatchObject({ character: 7 });
    const go = ['var raw = `', 'total`', 'var total = 2'].join('\n');
    expect(() => locateSymbol(go, 2, 'total', undefined, 'a.go')).toThrow(/only inside a string/);
    const c = ['char q = \'"\'; int total = 3; /* "total" */'].join('\n');
    expect(locateSymbol(c, 1, 'total', undefined, 'a.c')).toMatchObject({ character: 18 });
  });

  it('matches whole identifiers by code point, outside the BMP too', () => {
    const source = 'const 𐐀foo = 1; const foo = 2;\n';
    // "foo" is not a whole word inside "𐐀foo": the only whole match is the second declaration.
    expect(locateSymbol(source, 1, 'foo', undefined, 'a.ts')).toMatchObject({ character: 23, length: 3 });
    expect(locateSymbol(source, 1, '𐐀foo', undefined, 'a.ts')).toMatchObject({ character: 6, length: 5 });
  });
});

describe('locateSymbol: where a line comment ends', () => {
  it('in JavaScript a // comment ends at U+2028 and U+2029: a name after one on the same LSP line is code', () => {
    const ts = 'const v = helper(); // helper\u2028helper(); // helper\u2029 helper;\n';
    expect(locateSymbol(ts, 1, 'helper', 2, 'a.ts').character).toBe(30);
    expect(locateSymbol(ts, 1, 'helper', 3, 'a.ts').character).toBe(51);
    expect(() => locateSymbol(ts, 1, 'helper', 4, 'a.ts')).toThrow(/occurs 3 times/);
  });

  it('a file with old Mac line ends (CR only): a comment ends at its line', () => {
    const py = '# helper is used below\rx = helper()\r';
    expect(locateSymbol(py, 2, 'helper', undefined, 'a.py')).toMatchObject({ line: 1, character: 4 });
    const c = '// helper\rint x = helper();\r';
    expect(locateSymbol(c, 2, 'helper', undefined, 'a.c')).toMatchObject({ line: 1, character: 8 });
  });
});
