import { describe, expect, it } from 'vitest';
import { KEEP, OutputLog } from '../src/output-log.js';
import { renderCell } from '../src/render/cell-result.js';
import { capMiddle } from '../src/render/text.js';

describe('OutputLog', () => {
  it('merges stream chunks and keeps a flood bounded, counting the middle it drops', () => {
    const log = new OutputLog();
    log.push({ type: 'stream', name: 'stdout', text: 'first\n' });
    for (let i = 0; i < 5000; i++) log.push({ type: 'stream', name: 'stdout', text: `${'x'.repeat(99)}\n` });
    log.push({ type: 'stream', name: 'stdout', text: 'last\n' });
    expect(log.outputs).toHaveLength(1);
    const [stream] = log.outputs;
    if (stream?.type !== 'stream') throw new Error('expected a stream');
    expect(stream.text.length).toBe(KEEP.stream);
    expect(stream.text.startsWith('first\n')).toBe(true);
    expect(stream.text.endsWith('last\n')).toBe(true);
    expect(stream.text.length + (stream.cut ?? 0)).toBe(6 + 5000 * 100 + 5);
  });

  it('reports every character cut, in the log and at rendering, once', () => {
    const log = new OutputLog();
    log.push({ type: 'stream', name: 'stdout', text: 'a'.repeat(200_000) });
    const result = renderCell({
      language: 'python',
      outputs: log.outputs,
      executionCount: 1,
      ended: 'ok',
      before: [],
      after: [],
      kernel: undefined,
      bridgeCalls: 0,
      rewritten: [],
    });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text).toContain(`… (${200_000 - 8000} characters cut) …`);
  });

  it('counts displays beyond the limit instead of keeping them', () => {
    const log = new OutputLog();
    for (let i = 0; i < KEEP.displays + 7; i++) log.push({ type: 'display', data: { 'text/plain': String(i) }, metadata: {} });
    expect(log.outputs).toHaveLength(KEEP.displays);
    expect(log.droppedDisplays).toBe(7);
  });
});

describe('capMiddle with an earlier cut', () => {
  it('adds the earlier cut to the count even when the text now fits', () => {
    expect(capMiddle('abcdef', 100, 50)).toBe('abcdef'.slice(0, 25) + '\n… (50 characters cut) …\n');
  });
});
