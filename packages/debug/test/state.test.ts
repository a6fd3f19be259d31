import { describe, expect, it } from 'vitest';
import { BreakpointBook } from '../src/session/breakpoints.js';
import { OutputBuffer } from '../src/session/output-buffer.js';
import { parseExitStatus } from '../src/session/session.js';

describe('OutputBuffer', () => {
  it('keeps the newest characters, counts what was cut, and reads from a position', () => {
    const buffer = new OutputBuffer(10);
    buffer.append('0123456789');
    const mark = buffer.total;
    buffer.append('abc\r\ndef\r\n');
    expect(buffer.total).toBe(18);
    expect(buffer.since(mark, 100)).toEqual({ text: 'abc\ndef\n', total: 8, cut: 0 });
    expect(buffer.since(mark, 4)).toEqual({ text: 'def\n', total: 8, cut: 4 });
    // Position 0 is older than what is kept: the answer counts it as cut.
    expect(buffer.since(0, 100)).toEqual({ text: '89abc\ndef\n', total: 18, cut: 8 });
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

describe('BreakpointBook', () => {
  it('dedupes and sorts lines, records verification in request order, updates from events, and resets', () => {
    const book = new BreakpointBook();
    book.set('/p/a.py', [9, 3, 9]);
    expect(book.get('/p/a.py').map((e) => [e.line, e.state])).toEqual([
      [3, 'pending'],
      [9, 'pending'],
    ]);
    book.apply('/p/a.py', [{ id: 1, verified: true, line: 4 }, { id: 2, verified: false, message: 'no code' }]);
    expect(book.get('/p/a.py')).toEqual([
      { line: 3, state: 'verified', id: 1, actualLine: 4 },
      { line: 9, state: 'unverified', id: 2, message: 'no code' },
    ]);
    book.update({ id: 2, verified: true, line: 9 });
    expect(book.get('/p/a.py')[1]).toEqual({ line: 9, state: 'verified', id: 2 });
    book.reset();
    expect(book.get('/p/a.py').every((e) => e.state === 'pending' && e.id === undefined)).toBe(true);
    expect(book.set('/p/a.py', [])).toEqual([]);
    expect(book.size).toBe(0);
  });
});

describe('parseExitStatus', () => {
  it('reads lldb-dap and delve console lines, the last one winning', () => {
    expect(parseExitStatus('Process 11349 exited with status = 3 (0x00000003) \n')).toBe(3);
    expect(parseExitStatus('Process 1 has exited with status 0\nProcess 2 has exited with status -1\n')).toBe(-1);
    expect(parseExitStatus('Detaching\n')).toBeUndefined();
  });
});
