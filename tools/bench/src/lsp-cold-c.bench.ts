import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRegistry, resultText } from '@agent-tools/core';
import { createLspSupervisor, lspTools } from '@agent-tools/lsp';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { measure, type Timing, timingTable } from './measure.js';

/**
 * lsp, cold references on a C project: curl's 112 C examples (Debian's libcurl4-doc) with a compilation database,
 * a fresh copy and a fresh clangd each run (no index on disk). Ours: the time until `references` to `CURL` answers,
 * which waits for clangd's background index and so is complete. Reference, in the same run: clangd asked directly
 * the way a generic client does, at once (fast, and incomplete), and polled until the count stops changing (the
 * time a generic client needs to a complete answer, if it knew to wait).
 */
const EXAMPLES = '/usr/share/doc/libcurl4/examples';

function project(): { dir: string; line: number } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-tools-lsp-bench-c-'));
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.c')).sort();
  for (const file of files) cpSync(join(EXAMPLES, file), join(dir, file));
  writeFileSync(join(dir, 'compile_commands.json'), JSON.stringify(files.map((file) => ({ directory: dir, file, arguments: ['cc', '-c', file] }))));
  const line = readFileSync(join(dir, 'simple.c'), 'utf8').split('\n').findIndex((l) => /^\s*CURL \*curl;/.test(l));
  return { dir, line };
}

const counts: number[] = [];

async function ours(): Promise<void> {
  const { dir, line } = project();
  const supervisor = createLspSupervisor({ cwd: dir });
  const registry = createRegistry({ resources: { cwd: dir, lspSupervisor: supervisor }, factories: [lspTools] });
  try {
    const result = await registry.call('lsp', { action: 'references', file: 'simple.c', line: line + 1, symbol: 'CURL' });
    const head = resultText(result).split('\n')[0] ?? '';
    if (result.isError || head.startsWith('INCOMPLETE')) throw new Error(head);
    counts.push(Number(/^(\d+) references/.exec(head)?.[1]));
  } finally {
    await registry.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** clangd driven directly; `poll` asks until two answers 250 ms apart agree. */
async function direct(poll: boolean): Promise<void> {
  const { dir, line } = project();
  const child: ChildProcess = spawn('clangd-19', ['--log=error', '--limit-references=0'], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout as NodeJS.ReadableStream), new StreamMessageWriter(child.stdin as NodeJS.WritableStream));
  connection.onRequest(() => null);
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: { window: { workDoneProgress: true } } });
    connection.sendNotification('initialized', {});
    const uri = pathToFileURL(join(dir, 'simple.c')).href;
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'c', version: 1, text: readFileSync(join(dir, 'simple.c'), 'utf8') } });
    const ask = async (): Promise<number> => {
      const refs = (await connection.sendRequest('textDocument/references', { textDocument: { uri }, position: { line, character: 2 }, context: { includeDeclaration: true } })) as unknown[] | null;
      return refs?.length ?? 0;
    };
    let count = await ask();
    if (poll) {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const again = await ask();
        if (again === count && count > 1) break;
        count = again;
      }
    }
    (poll ? polled : immediate).push(count);
  } finally {
    connection.dispose();
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
const immediate: number[] = [];
const polled: number[] = [];

const timings: Timing[] = [];
timings.push(await measure('cold references to a complete answer, C (curl examples, 112 files): lsp', ours, 3, 0));
timings.push(await measure('reference: clangd asked directly at once (incomplete)', () => direct(false), 3, 0));
timings.push(await measure('reference: clangd asked directly, polled until the count is stable', () => direct(true), 3, 0));
console.log(timingTable(timings));
console.log(`\nreferences found: lsp ${counts.join(', ')}; clangd at once ${immediate.join(', ')}; clangd polled ${polled.join(', ')}`);
