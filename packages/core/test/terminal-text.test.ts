import { describe, expect, it } from 'vitest';
import { collapseCarriageReturns } from '../src/index.js';
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
