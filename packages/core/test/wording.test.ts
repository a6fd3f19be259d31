import { describe, expect, it } from 'vitest';
import { capList } from '../src/caps.js';
import { countOfTotal, formatDuration, formatLimit, nounFor, plural, shownNote } from '../src/wording.js';

describe('wording', () => {
  it('words a duration the same wherever it is said', () => {
    const cases: [number, string][] = [
      [0, '0 ms'],
      [150.4, '150 ms'],
      [999, '999 ms'],
      [1000, '1 s'],
      [45_000, '45 s'],
      [60_000, '60 s'],
      [89_400, '89 s'],
      [90_000, '1 min 30 s'],
      [120_000, '2 min'],
      [29 * 60_000, '29 min'],
      [3_600_000, '1 h'],
      [3_900_000, '1 h 5 min'],
    ];
    expect(cases.map(([ms]) => formatDuration(ms))).toEqual(cases.map(([, text]) => text));
    // A clock of whole seconds never says milliseconds.
    expect([formatDuration(0, 's'), formatDuration(400, 's'), formatDuration(75_000, 's')]).toEqual(['0 s', '0 s', '75 s']);
  });

  it('words a time limit as it was set, a tenth of a second kept below 10 s', () => {
    const cases: [number, string][] = [
      [100, '100 ms'],
      [700, '700 ms'],
      [1000, '1 s'],
      [1500, '1.5 s'],
      [2049, '2 s'],
      [9_950, '10 s'],
      [20_000, '20 s'],
      [120_000, '2 min'],
    ];
    expect(cases.map(([ms]) => formatLimit(ms))).toEqual(cases.map(([, text]) => text));
  });

  it('counts nouns, regular and irregular', () => {
    expect([plural(1, 'file'), plural(0, 'file'), plural(3, 'file')]).toEqual(['1 file', '0 files', '3 files']);
    expect([plural(2, 'match'), plural(2, 'box'), plural(2, 'class'), plural(2, 'push')]).toEqual([
      '2 matches',
      '2 boxes',
      '2 classes',
      '2 pushes',
    ]);
    expect([plural(2, 'child', 'children'), nounFor(1, 'line'), nounFor(4, 'line')]).toEqual(['2 children', 'line', 'lines']);
  });

  it('says which part of a whole is shown', () => {
    expect([countOfTotal(50, 212), countOfTotal(1, 1, 'file'), countOfTotal(5, 7, 'file')]).toEqual(['50 of 212', '1 of 1 file', '5 of 7 files']);
    expect([shownNote(0, 7, 7), shownNote(0, 50, 212), shownNote(50, 50, 212)]).toEqual(['', '50 of 212 shown', '51-100 of 212 shown']);
    expect(capList([1, 2, 3], 2).note).toBe('2 of 3 shown');
  });
});
