import { Console } from 'node:console';

/**
 * Sends everything `console` would print on standard output to standard error. Standard output carries the answers
 * (`call`, `repl`, `list`, `--json` parsed by scripts) and, over stdio, the MCP stream: a line a library logs there
 * (@jupyterlab/services announces each websocket it reopens with `console.debug`) would be read as part of an answer,
 * or by an MCP client as a malformed message. The methods are replaced on the one `console` object, so modules that
 * kept a reference to it are covered too.
 */
export function consoleToStderr(): void {
  const stderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<string, unknown>;
  const source = stderr as unknown as Record<string, unknown>;
  for (const key of Object.keys(target)) {
    const method = source[key];
    if (typeof target[key] === 'function' && typeof method === 'function') target[key] = method.bind(stderr);
  }
}
