import { execFileSync, spawn } from 'node:child_process';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';

/**
 * Every answer the CLI prints reaches its reader whole, however large and however slowly it is read: standard output
 * is asynchronous on a pipe, and a process that exits while an answer is still queued loses the rest of it.
 */
function slowRead(args: readonly string[], input: string, pauseMs: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, AGENT_TOOLS_DEBUG: '' } });
    const chunks: Buffer[] = [];
    // Nothing is read until the CLI has had time to answer and exit; then in small, slow bites.
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on('readable', function drip() {
        const chunk = child.stdout.read(16_384) as Buffer | null;
        if (chunk) {
          chunks.push(chunk);
          setTimeout(() => child.stdout.emit('readable'), 2);
        }
      });
      child.stdout.emit('readable');
    }, pauseMs);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('timed out'));
    }, 120_000);
    child.stdout.on('end', () => {
      clearTimeout(timer);
      child.on('exit', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') }));
      if (child.exitCode !== null) resolve({ code: child.exitCode, stdout: Buffer.concat(chunks).toString('utf8') });
    });
    child.stdin.end(input);
  });
}

const LINE = `${'x'.repeat(990)}\n`;

describe('answers larger than a pipe holds reach a slow reader whole', () => {
  it('call --json: a 4.9 MB answer parses as JSON and holds every line', async () => {
    await using dir = tempDir({ 'big.txt': LINE.repeat(5000) });
    const { code, stdout } = await slowRead(['call', 'read', JSON.stringify({ path: 'big.txt', limit: 5000 }), '--json', '--cwd', dir.path], '', 1500);
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as { content: { text: string }[] };
    expect(answer.content[0]?.text.split('\n').filter((line) => line.endsWith('x'.repeat(990)))).toHaveLength(5000);
  }, 180_000);

  it('repl whose input ends at once: every one of three large answers arrives, the last one whole', async () => {
    await using dir = tempDir({ 'big.txt': LINE.repeat(3000) });
    const call = `read ${JSON.stringify({ path: 'big.txt', limit: 3000 })}\n`;
    const { code, stdout } = await slowRead(['repl', '--json', '--cwd', dir.path], call.repeat(3), 1500);
    expect(code).toBe(0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { isError: boolean; content: { text: string }[] });
    expect(answers).toHaveLength(3);
    for (const answer of answers) expect(answer.content[0]?.text.length).toBeGreaterThan(3000 * 990);
  }, 180_000);

  it('a FIFO given to read, edit or write is refused by name at once, and the harness stays responsive', async () => {
    await using dir = tempDir({ 'ok.py': 'print(1)\n' });
    execFileSync('mkfifo', [dir.join('x.py')]);
    const calls = [
      `read ${JSON.stringify({ path: 'x.py' })}`,
      `edit ${JSON.stringify({ path: 'x.py', old_text: 'a', new_text: 'b' })}`,
      `write ${JSON.stringify({ path: 'x.py', content: 'print(2)\n' })}`,
      `lsp ${JSON.stringify({ action: 'symbols', file: 'x.py' })}`,
      `lsp ${JSON.stringify({ action: 'diagnostics', file: 'x.py' })}`,
      `ast_grep ${JSON.stringify({ pattern: 'print($A)', path: 'x.py' })}`,
      `read ${JSON.stringify({ path: 'ok.py' })}`,
    ];
    const { stdout } = await slowRead(['repl', '--json', '--yes', '--cwd', dir.path], `${calls.join('\n')}\n`, 0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { isError: boolean; content: { text: string }[] });
    const texts = answers.map((a) => a.content[0]?.text ?? '');
    for (const text of texts.slice(0, 5)) expect(text).toContain('"x.py" is a FIFO (named pipe), not a regular file');
    expect(texts[5]).toContain('x.py is a FIFO (named pipe), not a regular file, so it was not opened');
    expect(texts[6]).toContain('print(1)');
  }, 180_000);
});
