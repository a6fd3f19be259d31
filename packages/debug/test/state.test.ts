import { writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { outputView } from '../src/format/output.js';
import { BreakpointBook } from '../src/session/breakpoints.js';
import { chooseFilters } from '../src/session/configure.js';
import { OutputBuffer } from '../src/session/output-buffer.js';
import { parseExitStatus } from '../src/session/session.js';
import { SourceFiles } from '../src/session/source-files.js';

describe('OutputBuffer', () => {
  it('keeps the newest characters, counts what was cut, and reads from a position', () => {
    const buffer = new OutputBuffer(10);
    buffer.append('0123456789');
    const mark = buffer.total;
    buffer.append('abc\r\ndef\r\n');
    expect(buffer.total).toBe(18);
    expect(buffer.since(mark, 100)).toEqual({ text: 'abc\ndef\n', total: 8, cut: false, partialLine: false, redrawn: false });
    expect(buffer.since(mark, 4)).toEqual({ text: 'def\n', total: 8, cut: true, partialLine: false, redrawn: false });
    // Position 0 is older than what is kept: the answer counts it as cut.
    expect(buffer.since(0, 100)).toEqual({ text: '89abc\ndef\n', total: 18, cut: true, partialLine: true, redrawn: false });
  });

  it('joins a "\\r\\n" split across two writes into one line end', () => {
    const buffer = new OutputBuffer();
    buffer.append('one\r');
    buffer.append('\ntwo\r');
    buffer.append('\n');
    expect(buffer.since(0, 100)).toMatchObject({ text: 'one\ntwo\n', total: 8, redrawn: false });
  });

  it('shows carriage-return progress as its last state, and counts every character printed', () => {
    const buffer = new OutputBuffer(1000);
    let printed = 0;
    for (let i = 0; i <= 100_000; i++) {
      const piece = `\rprogress ${i}`;
      buffer.append(piece);
      printed += piece.length;
    }
    buffer.append('\ndone\n');
    const slice = buffer.since(0, 4000);
    expect(slice.text).toBe('progress 100000\ndone\n');
    expect(slice).toMatchObject({ cut: true, partialLine: false, redrawn: true });
    expect(slice.total).toBe(buffer.total);
    expect(buffer.total).toBe(printed + 6);
  });

  it('keeps the end of one line longer than the limit', () => {
    const buffer = new OutputBuffer(100);
    buffer.append(`${'a'.repeat(500)}END\n`);
    expect(buffer.since(0, 50)).toMatchObject({ text: `${'a'.repeat(46)}END\n`, total: 504, cut: true, partialLine: true });
  });
});

describe('OutputBuffer line merging', () => {
  it('keeps a stdout line whole when stderr writes while it is being printed, and flushes partial lines on read', () => {
    const buffer = new OutputBuffer();
    buffer.append('total', 'stdout');
    buffer.append('warning: low stock\n', 'stderr');
    buffer.append(' 7', 'stdout');
    buffer.append('\n', 'stdout');
    buffer.append('no newline yet', 'stdout');
    expect(buffer.since(0, 100).text).toBe('warning: low stock\ntotal 7\nno newline yet');
  });
});

describe('outputView', () => {
  it('never answers a long last line as nothing: its end is shown behind a marker', () => {
    const view = outputView({ text: `${'z'.repeat(3999)}\n`, total: 10_000, cut: true, partialLine: true, redrawn: false });
    expect(view.text).toBe(`…${'z'.repeat(3999)}\n`);
    expect(view.note).toBe('the newest 4000 of 10000 characters printed, the first line cut at its start');
  });

  it('starts a cut output at a line boundary when that keeps most of it', () => {
    const view = outputView({ text: 'ine\nwhole line\n', total: 90, cut: true, partialLine: true, redrawn: true });
    expect(view).toEqual({
      text: 'whole line\n',
      note: 'the newest 11 of 90 characters printed; carriage-return redraws show their last state',
    });
  });

  it('shows a long cut line behind the marker rather than dropping it for a short last line', () => {
    const view = outputView({ text: `${'w'.repeat(50)}\nEND\n`, total: 900, cut: true, partialLine: true, redrawn: false });
    expect(view).toEqual({ text: `…${'w'.repeat(50)}\nEND\n`, note: 'the newest 55 of 900 characters printed, the first line cut at its start' });
  });
});

describe('BreakpointBook', () => {
  it('dedupes and sorts lines, records verification in request order, updates from events, and resets', () => {
    const book = new BreakpointBook();
    book.set('/p/a.py', [{ line: 9 }, { line: 3 }, { line: 9, condition: 'x > 1' }]);
    expect(book.get('/p/a.py').map((e) => [e.line, e.state, e.condition])).toEqual([
      [3, 'pending', undefined],
      [9, 'pending', 'x > 1'],
    ]);
    const before = book.version;
    book.apply(book.get('/p/a.py'), [{ id: 1, verified: true, line: 4 }, { id: 2, verified: false, message: 'no code' }]);
    expect(book.version).toBeGreaterThan(before);
    expect(book.get('/p/a.py')).toEqual([
      { line: 3, state: 'verified', id: 1, actualLine: 4 },
      { line: 9, condition: 'x > 1', state: 'unverified', id: 2, message: 'no code' },
    ]);
    book.update({ id: 2, verified: true, line: 9 });
    expect(book.get('/p/a.py')[1]).toEqual({ line: 9, condition: 'x > 1', state: 'verified', id: 2 });
    book.reset();
    expect(book.get('/p/a.py').every((e) => e.state === 'pending' && e.id === undefined)).toBe(true);
    expect(book.set('/p/a.py', [])).toEqual([]);
    expect(book.size).toBe(0);
  });

  it('an adapter repeating what it said is no news: version moves only when a state changes', () => {
    const book = new BreakpointBook();
    book.set('/p/app.js', [{ line: 4 }]);
    book.apply(book.get('/p/app.js'), [{ id: 1, verified: true, line: 4 }]);
    book.recordExceptions({ applied: ['uncaught'], offered: [], unknown: [] });
    const settled = book.version;
    // js-debug: the same answer from another process's session, then a `breakpoint` event saying it again.
    book.apply(book.get('/p/app.js'), [{ id: 1, verified: true, line: 4 }]);
    book.update({ id: 1, verified: true, line: 4 });
    book.recordExceptions({ applied: ['uncaught'], offered: [], unknown: [] });
    book.markHit(1);
    expect(book.version).toBe(settled);
    book.update({ id: 1, verified: true, line: 5 });
    expect(book.version).toBeGreaterThan(settled);
  });

  it('answers only for the breakpoints that were sent, leaving refused ones as they are', () => {
    const book = new BreakpointBook();
    const [plain, hit] = book.set('/p/a.go', [{ line: 5 }, { line: 8, hitCondition: '3' }]);
    book.refuse(hit!, 'no hit conditions');
    book.apply(book.get('/p/a.go'), [{ id: 7, verified: true }]);
    expect(plain).toMatchObject({ state: 'verified', id: 7 });
    expect(hit).toMatchObject({ state: 'unsupported', message: 'no hit conditions' });
  });
});

describe('chooseFilters', () => {
  const debugpy = [
    { filter: 'raised', label: 'Raised Exceptions', default: false },
    { filter: 'uncaught', label: 'Uncaught Exceptions', default: true },
    { filter: 'userUnhandled', label: 'User Uncaught Exceptions', default: false },
  ];
  const lldb = [
    { filter: 'cpp_catch', label: 'C++ Catch', default: false },
    { filter: 'cpp_throw', label: 'C++ Throw', default: false },
  ];

  it('maps uncaught, all, ids and nothing onto what each adapter offers', () => {
    expect(chooseFilters(['uncaught'], debugpy)).toEqual({ applied: ['uncaught'], unknown: [] });
    expect(chooseFilters(['all'], debugpy)).toEqual({ applied: ['raised', 'uncaught'], unknown: [] });
    expect(chooseFilters(['userUnhandled', 'nope'], debugpy)).toEqual({ applied: ['userUnhandled'], unknown: ['nope'] });
    expect(chooseFilters([], debugpy)).toEqual({ applied: [], unknown: [] });
    expect(chooseFilters(['uncaught'], lldb)).toEqual({ applied: [], unknown: [] });
    expect(chooseFilters(['all'], lldb)).toEqual({ applied: ['cpp_throw'], unknown: [] });
    expect(chooseFilters(['all'], [])).toEqual({ applied: [], unknown: [] });
  });
});

describe('parseExitStatus', () => {
  it('reads lldb-dap and delve console lines, the last one winning', () => {
    expect(parseExitStatus('Process 11349 exited with status = 3 (0x00000003) \n')).toBe(3);
    expect(parseExitStatus('Process 1 has exited with status 0\nProcess 2 has exited with status -1\n')).toBe(-1);
    expect(parseExitStatus('Detaching\n')).toBeUndefined();
  });
});

describe('SourceFiles', () => {
  it('reads a file once while it is unchanged, and again once it changes', () => {
    using dir = tempDir({ 'a.py': 'one\ntwo\n' }, 'agent-tools-debug-sources-');
    const sources = new SourceFiles();
    const first = sources.lines(dir.join('a.py'));
    expect(first).toEqual(['one', 'two', '']);
    expect(sources.lines(dir.join('a.py'))).toBe(first);
    writeFileSync(dir.join('a.py'), 'one\ntwo\nthree\n');
    expect(sources.lines(dir.join('a.py'))).toEqual(['one', 'two', 'three', '']);
    expect(sources.lines(dir.join('missing.py'))).toBeUndefined();
  });
});

describe('systemClock', () => {
  it('holds a session limit of Infinity or past 2^31 ms instead of firing at once', async () => {
    // setTimeout fires such a delay after 1 ms: ttlMs Infinity ended every session "at its Infinity-minute limit".
    const fired: number[] = [];
    const timers = [Number.POSITIVE_INFINITY, 40 * 24 * 3600_000].map((ms) => systemClock.setTimer(() => fired.push(ms), ms));
    const short = systemClock.setTimer(() => fired.push(5), 5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fired).toEqual([5]);
    for (const timer of [...timers, short]) timer.cancel();
  });
});
