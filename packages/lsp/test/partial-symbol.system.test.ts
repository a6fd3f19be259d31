import { describe, expect, it } from 'vitest';
import type { LspError } from '../src/errors.js';
import { locateSymbol } from '../src/position/locate-symbol.js';
import { rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 3: `symbol` is a substring, but a whole identifier wins over part of one; an answer given for a
// longer identifier says so in its first line; the "it occurs on lines" hint names whole-name lines first.
describe('a symbol that is part of a longer name', () => {
  it('on rxjs types.ts: hover, definition and references at line 162 "Observer" say they answer for NextObserver', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    rxjs.prepare(run.dir.path);
    const args = { file: 'internal/types.ts', line: 162, symbol: 'Observer' };
    const first = 'is part of `NextObserver` on line 162; answering for `NextObserver` (`Observer` itself is a whole name on lines';
    for (const action of ['hover', 'definition', 'references']) {
      const result = await run.lsp({ action, ...args });
      expect(result.isError, text(result)).toBe(false);
      expect(text(result).split('\n')[0], action).toContain(`\`Observer\` ${first}`);
    }
    const hover = text(await run.lsp({ action: 'hover', ...args }));
    expect(hover).toContain('interface NextObserver<T>');
    // The whole name on its own line is about Observer, with no such note.
    const whole = text(await run.lsp({ action: 'hover', file: 'internal/types.ts', line: 192, symbol: 'Observer' }));
    expect(whole.split('\n')[0]).not.toContain('is part of');
    expect(whole).toContain('interface Observer<T>');
    // A rename never renames the longer name.
    const rename = await run.call('lsp_rename', { ...args, new_name: 'Watcher' });
    expect(rename.isError).toBe(true);
    expect(text(rename)).toContain('"Observer" is only part of `NextObserver` on line 162 of internal/types.ts; nothing was changed.');
  });

  it('the hint of a missing symbol names lines where it is a whole name first', () => {
    const source = ['const NextObserver = 1;', 'const x = 2;', 'type Observer = number;', 'const y = NextObserverish;'].join('\n');
    try {
      locateSymbol(source, 2, 'Observer', undefined, 'a.ts');
      throw new Error('expected a failure');
    } catch (error) {
      expect((error as LspError).detail).toContain('It occurs as a whole name on line 3, and inside longer names on 1, 4.');
    }
    const only = ['const NextObserver = 1;', 'const x = 2;'].join('\n');
    expect(() => locateSymbol(only, 2, 'Observer', undefined, 'a.ts')).toThrow('It occurs only inside longer names, on line 1.');
  });

  it('a whole identifier on the line wins over one that contains it', () => {
    const source = 'const obs: NextObserver = asObserver(Observer);\n';
    expect(locateSymbol(source, 1, 'Observer', undefined, 'a.ts')).toMatchObject({ character: 37, length: 8 });
    expect(locateSymbol(source, 1, 'Observer', undefined, 'a.ts').within).toBeUndefined();
    expect(locateSymbol('const obs: NextObserver = 1;\n', 1, 'Observer', undefined, 'a.ts')).toMatchObject({ character: 11, length: 12, within: 'NextObserver' });
  });
});
