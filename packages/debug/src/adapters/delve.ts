import { basename, dirname, join } from 'node:path';
import { findExecutable, searchPath } from '@agent-tools/core/internal';
import type { AdapterConfig } from './adapter.js';

/**
 * delve: `dlv dap`, which speaks DAP over TCP only. It is started with `--listen=127.0.0.1:0` in the Go
 * module's folder (it resolves the package from there), prints the port the kernel chose, and the supervisor
 * connects to it. The program is built into the session's temporary folder, not into the user's tree.
 */
export function delveAdapter(): AdapterConfig {
  return {
    id: 'delve',
    languages: 'Go',
    extensions: ['.go'],
    folders: true,
    rootMarkers: ['go.mod'],
    transport: { kind: 'tcp', listening: /listening at:\s*\S*?:(\d+)/ },
    adapterId: 'go',
    // delve repeats its prefix ("Unable to evaluate expression: Unable to evaluate expression: ...") and names no fix.
    evaluateHint: (message) =>
      /function calls not allowed without using 'call'/.test(message)
        ? 'delve runs a function only when asked: prefix the expression with `call ` (call total(xs)); the call runs in the stopped program and may change its state'
        : undefined,
    exceptionNote: 'it stops on an unrecovered panic and on a fatal runtime error by itself',
    async locate(ctx) {
      const home = ctx.env['HOME'];
      const gopath = ctx.env['GOPATH'];
      const dirs = [
        ...searchPath(ctx.env),
        ...(gopath ? [join(gopath, 'bin')] : []),
        ...(home ? [join(home, 'go', 'bin')] : []),
      ];
      const dlv = findExecutable('dlv', dirs);
      if (!dlv) return { found: false, reason: 'dlv is not on PATH, in $GOPATH/bin or in ~/go/bin (apt install delve)' };
      const go = findExecutable('go', [...searchPath(ctx.env), '/usr/local/go/bin', '/usr/lib/go/bin']);
      if (!go) return { found: false, reason: `dlv is at ${dlv}, but go is not on PATH: delve builds the program with it` };
      const env = searchPath(ctx.env).includes(dirname(go)) ? undefined : { PATH: `${dirname(go)}:${ctx.env['PATH'] ?? ''}` };
      return {
        found: true,
        command: { command: dlv, args: ['dap', '--listen=127.0.0.1:0'], cwd: ctx.root, ...(env ? { env } : {}) },
        summary: `${dlv} dap (TCP, built with ${go})`,
      };
    },
    launchArguments: ({ program, args, root, tempDir }) => {
      // A .go file stands for its package; a _test.go file for the package's tests.
      const isFile = program.endsWith('.go');
      return {
        mode: isFile && basename(program).endsWith('_test.go') ? 'test' : 'debug',
        program: isFile ? dirname(program) : program,
        args: [...args],
        cwd: root,
        output: join(tempDir, 'debug-bin'),
        stopOnEntry: false,
      };
    },
    attach: {
      via: 'connect',
      listenHint: 'start a headless delve server with `dlv debug --headless --listen=127.0.0.1:PORT --accept-multiclient` (or `dlv exec --headless ... ./prog`)',
      arguments: () => ({ mode: 'remote', request: 'attach' }),
    },
  };
}
