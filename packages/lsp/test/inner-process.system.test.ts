import { readFileSync } from 'node:fs';
import { descendantsOf } from '@agent-tools/core/process';
import { waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

/**
 * tsserver dies (killed, or out of memory on a large project) while typescript-language-server lives on: the
 * wrapper then answers every request with nothing. That must read as what it is, a crashed server, never as
 * "no references". Checked with the real servers; the other servers run no process of their own to lose.
 */

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** The server's own descendants whose command line matches (never another run's processes). */
function descendantsMatching(run: Run, pattern: RegExp): number[] {
  const pids = run.supervisor.status().flatMap((s) => s.instances.flatMap((i) => (i.pid === undefined ? [] : [i.pid])));
  return pids.flatMap((pid) => descendantsOf(pid).map((e) => e.pid)).filter((pid) => pattern.test(commandLine(pid)));
}

const files = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
  'src/shared.ts': 'export const shared = 1;\n',
  'src/use.ts': "import { shared } from './shared';\nexport const twice = shared * 2;\nexport const again = shared + 1;\n",
};
const references = { action: 'references', file: 'src/shared.ts', line: 1, symbol: 'shared' };

// Each case has a server of its own: three crashes within five minutes stop automatic restarts (crash_loop).
describe('typescript-language-server whose tsserver died', () => {

  it('the call that meets it is never answered as "no references": an error saying so, or the full answer after a restart', async () => {
    await using run = startRun(files);
    const before = await run.lsp(references);
    expect(text(before)).toContain('src/use.ts');
    for (let round = 0; round < 2; round++) {
      const tsservers = descendantsMatching(run, /[\\/]tsserver\.js(?:\s|$)/);
      expect(tsservers).toHaveLength(1);
      // Killed while the call is on its way: depending on who sees it first (the call's own check of the server, or
      // the wrapper's empty answer), the call fails naming tsserver, or finds it dead and restarts it first.
      const call = run.lsp(references);
      process.kill(tsservers[0] as number, 'SIGKILL');
      const met = await call;
      if (met.isError) {
        // What to do next is said once (the error's own hint), not twice in other words.
        expect(text(met).match(/restarted on the next call/g), text(met)).toHaveLength(1);
        expect(text(met)).toMatch(/^typescript-language-server \(root \.\) (could not answer textDocument\/references: its tsserver process \(pid \d+\) has exited|stopped answering: its tsserver process|stopped while a request was in flight)/);
      } else {
        expect(text(met)).toContain('4 references to `shared`');
      }
      expect(text(met)).not.toContain('No references');
      const after = await run.lsp(references);
      expect(after.isError, text(after)).toBe(false);
      expect(text(after)).toContain('4 references to `shared`');
    }
    expect(descendantsMatching(run, /[\\/]tsserver\.js(?:\s|$)/)).toHaveLength(1);
  });

  it('a death noticed by status without any call: it says crashed, naming tsserver', async () => {
    await using run = startRun(files);
    await run.lsp(references);
    const [tsserver] = descendantsMatching(run, /[\\/]tsserver\.js(?:\s|$)/);
    process.kill(tsserver as number, 'SIGKILL');
    await waitUntil(() => run.supervisor.status().some((s) => s.id === 'typescript' && s.instances.every((i) => i.state === 'crashed')), 10_000);
    const status = await run.lsp({ action: 'status' });
    expect(text(status)).toContain('tsserver process');
    expect(text(status)).not.toMatch(/typescript-language-server[^\n]*\n[^\n]*\brunning\b/);
  });

  it('a death between calls: the next answer says the server was restarted and why', async () => {
    await using run = startRun(files);
    await run.lsp(references);
    const [tsserver] = descendantsMatching(run, /[\\/]tsserver\.js(?:\s|$)/);
    process.kill(tsserver as number, 'SIGKILL');
    await waitUntil(() => run.supervisor.status().some((s) => s.id === 'typescript' && s.instances.every((i) => i.state === 'crashed')), 10_000);
    const diagnostics = await run.lsp({ action: 'diagnostics', file: 'src/use.ts' });
    expect(diagnostics.isError, text(diagnostics)).toBe(false);
    // Whichever saw it first, the wrapper's log line or status reading /proc, names the inner process.
    expect(text(diagnostics)).toMatch(
      /had stopped unexpectedly \(its tsserver process (\(pid \d+\) has exited|has exited \(the server logged "\[tsserver\] Exited\. Code: null\. Signal: SIGKILL"\))\); it was restarted/,
    );
  });
});

describe('the other servers run no process of their own that could die alone', () => {
  it('pyright, gopls and clangd answer from a single process (their background work runs in threads)', async () => {
    await using run = startRun({
      'pyproject.toml': '[project]\nname = "x"\n',
      'a.py': 'def f(x):\n    return x\n\nf(1)\n',
      'go.mod': 'module m\n\ngo 1.19\n',
      'main.go': 'package main\n\nfunc main() { println(1) }\n',
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\n',
      'm.c': 'int main(void) { return 0; }\n',
    });
    for (const [file, symbol, line] of [['a.py', 'f', 4], ['main.go', 'main', 3], ['m.c', 'main', 1]] as const) {
      const hover = await run.lsp({ action: 'hover', file, line, symbol });
      expect(hover.isError, text(hover)).toBe(false);
    }
    const servers = run.supervisor.status().flatMap((s) => s.instances.flatMap((i) => (i.pid === undefined ? [] : [{ id: s.id, pid: i.pid }])));
    expect(servers.map((s) => s.id).sort()).toEqual(['clangd', 'gopls', 'pyright']);
    for (const { id, pid } of servers) {
      // The server itself (under the keeper, the keeper's child), and at most a short-lived `go` command of gopls.
      const others = descendantsOf(pid)
        .map((e) => commandLine(e.pid))
        .filter((cmd) => !/pyright|langserver|gopls|clangd/.test(cmd) && !/^\S*go (list|env|version)/.test(cmd));
      expect(others, id).toEqual([]);
    }
  });
});
