import { describe, expect, it } from 'vitest';
import { collapseCarriageReturns, stripTerminalCodes } from '../src/terminal-text.js';
import { seededRandom as random } from './helpers.js';

/** The oracle: a terminal line as an array of cells and a cursor, one character at a time. */
function terminal(text: string): string {
  const lines: string[] = [];
  let cells: string[] = [];
  let cursor = 0;
  for (const char of text) {
    if (char === '\n') {
      lines.push(cells.join(''));
      cells = [];
      cursor = 0;
    } else if (char === '\r') {
      cursor = 0;
    } else {
      cells[cursor++] = char;
    }
  }
  lines.push(cells.join(''));
  return lines.join('\n');
}

describe('collapseCarriageReturns', () => {
  it('agrees with a character-by-character terminal on generated text', () => {
    const alphabet = ['a', 'b', 'c', 'é', '\r', '\r', '\n', '\r\n', 'progress 42%'];
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      let text = '';
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      expect(collapseCarriageReturns(text), `seed ${seed}: ${JSON.stringify(text)}`).toBe(terminal(text));
    }
  });

  it('shows a progress bar as its last state and keeps what a shorter redraw did not cover', () => {
    expect(collapseCarriageReturns('10%\r20%\r100%\ndone')).toBe('100%\ndone');
    expect(collapseCarriageReturns('abcdef\rXY')).toBe('XYcdef');
    expect(collapseCarriageReturns('line\r\nnext\r\n')).toBe('line\nnext\n');
  });

  it('stays linear on one long line redrawn by a million tiny writes', () => {
    const text = `${'x'.repeat(1_000_000)}${'\rY'.repeat(1_000_000)}`;
    const shown = collapseCarriageReturns(text);
    expect(shown.length).toBe(1_000_000);
    expect(shown.startsWith('Yx')).toBe(true);
  });
});

describe('stripTerminalCodes', () => {
  const printable = ['a', 'Zz', ' ', '\t', '\n', '\r', 'é', '日本', '😀', '[31m', ']0;', '~', 'x;y'];
  const codes = [
    '\u001b[31m',
    '\u001b[0m',
    '\u001b[1;38;5;208m',
    '\u001b[2K',
    '\u001b[?25l',
    '\u001b[10;20H',
    '\u009b32m',
    '\u001b]0;title\u0007',
    '\u001b]8;;https://example.com\u001b\\',
    '\u001bM',
    '\u001b(B',
    '\u001b7',
    '\u0000',
    '\u0007',
    '\b',
    '\u007f',
    '\u0085',
  ];

  it('removes every code and keeps every printed piece in order, on generated text', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      let text = '';
      let expected = '';
      const length = Math.floor(next() * 30);
      for (let i = 0; i < length; i++) {
        if (next() < 0.5) {
          const piece = printable[Math.floor(next() * printable.length)] as string;
          text += piece;
          expected += piece;
        } else {
          text += codes[Math.floor(next() * codes.length)] as string;
        }
      }
      expect(stripTerminalCodes(text), `seed ${seed}: ${JSON.stringify(text)}`).toBe(expected);
    }
  });

  it('drops only the introducer of an OSC that never ends, so no printed text after it is lost', () => {
    expect(stripTerminalCodes('a\u001b]0;title\nb')).toBe('a0;title\nb');
  });
});
