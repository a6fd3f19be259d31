import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { ProgressEvent } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { statusLine } from '../src/status-line.js';
import { CLI, cli } from './run-cli.js';

/** Runs a command line in a pseudo-terminal (util-linux script(1)); what the terminal showed comes back. */
async function inTerminal(command: string): Promise<string> {
  const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { timeout: 60_000 });
  return stdout;
}

/** A stream that says it is a terminal of `columns` columns and records what is written. */
function fakeTerminal(columns = 60) {
  const written: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    }),
    { isTTY: true, columns },
  );
  return { stream, written };
}

const event = (over: Partial<ProgressEvent> = {}): ProgressEvent => ({
  tool: 'eval',
  path: ['eval'],
  message: 'Python cell running for 3 s',
  ...over,
});

describe('the status line', () => {
  it('draws the newest report in place with the last line of output, cut to the width, and erases itself', () => {
    const { stream, written } = fakeTerminal(60);
    const status = statusLine(stream, true);
    status.onProgress?.(event({ output: 'epoch 1\nepoch 2 loss 0.41\n' }));
    status.onProgress?.(event({ message: 'Python cell running for 4 s', output: `${'x'.repeat(100)}\n` }));
    status.clear();
    status.clear();
    expect(written).toEqual([
      '\r\x1b[2K⠋ eval: Python cell running for 3 s · epoch 2 loss 0.41',
      `\r\x1b[2K⠙ eval: Python cell running for 4 s · ${'x'.repeat(20)}…`,
      '\r\x1b[2K',
    ]);
    expect([...(written[1] ?? '').slice(5)].length).toBe(59);
  });

  it('keeps off a prompt while the human types, and is absent off a terminal or in --json mode', async () => {
    const { stream, written } = fakeTerminal();
    const status = statusLine(stream, true);
    await status.hold(async () => {
      status.onProgress?.(event());
    });
    expect(written).toEqual([]);
    status.onProgress?.(event({ output: 'a\u001b[31mred\u0007' }));
    expect(written).toEqual(['\r\x1b[2K⠋ eval: Python cell running for 3 s · a[31mred']);
    expect(statusLine(fakeTerminal().stream, false).onProgress).toBeUndefined();
    expect(statusLine(Object.assign(new Writable(), { isTTY: false }), true).onProgress).toBeUndefined();
  });
});

describe('agent-tools call in a terminal', () => {
  const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/m${i}.ts`, `console.log(${i});\n`]));
  const args = (dir: string, json: boolean) =>
    [CLI, 'call', 'ast_grep', '{"pattern":"console.log($A)","path":"src","language":"typescript"}', '--cwd', dir, ...(json ? ['--json'] : [])]
      .map((a) => `'${a}'`)
      .join(' ');

  it('shows a live status line on the terminal, erased before the answer; none in --json mode or when piped', async () => {
    using dir = tempDir(files);
    // util-linux script(1) gives the harness a pseudo-terminal; what it shows comes back on script's stdout.
    const shown = await inTerminal(`${process.execPath} ${args(dir.path, false)}`);
    expect(shown).toContain('\r\x1b[2K⠋ ast_grep: listing the typescript files under src');
    // Erased before the answer: the erase comes right after the last drawing, and the answer after that.
    const lastErase = shown.lastIndexOf('\r\x1b[2K');
    expect(shown.slice(lastErase + 5).trimStart()).toMatch(/^\S/);
    expect(shown.slice(lastErase)).toContain('src/m0.ts');
    const json = await inTerminal(`${process.execPath} ${args(dir.path, true)}`);
    expect(json).toContain('"isError":false');
    expect(json).not.toContain('\x1b[2K');
    const piped = await cli(['call', 'ast_grep', '{"pattern":"console.log($A)","path":"src","language":"typescript"}', '--cwd', dir.path]);
    expect(piped.code).toBe(0);
    expect(piped.stderr + piped.stdout).not.toContain('\x1b');
  });
});
