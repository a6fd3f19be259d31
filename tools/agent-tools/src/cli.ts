#!/usr/bin/env node
import { randomUUID } from 'node:crypto';
import type { Registry, Surface } from '@agent-tools/core';
import { harnessApproval } from './approval.js';
import { type CliArgs, parseArgs, parseCallArguments, USAGE, UsageError } from './args.js';
import { assemble } from './assemble.js';
import { assumedWithoutAsking } from './assumed.js';
import { consoleToStderr } from './console-to-stderr.js';
import { formatList, formatResult, listJson, resultJson } from './output.js';
import type { Terminal } from './plugin.js';
import { surfaceNamed, workingDirectory } from './run-options.js';
import { type StatusLine, statusLine } from './status-line.js';
import { exitFlushed, writeWhole } from './stdout.js';
import { type StreamTerminal, streamTerminal } from './terminal.js';
import { replAnswer } from './transcript.js';

/** Runs the harness and returns its exit status: 0 success, 1 error result, 2 usage error. */
export async function main(argv: readonly string[]): Promise<number> {
  // The MCP server's modules (its SDK, the HTTP stack) load only for `mcp`.
  if (argv[0] === 'mcp') return (await import('./mcp/command.js')).runMcp(argv.slice(1));
  let args: CliArgs;
  let cwd: string;
  let surface: Surface;
  try {
    args = parseArgs(argv);
    if (args.command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    cwd = workingDirectory(args.cwd);
    surface = surfaceNamed(args.surface);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`agent-tools: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }

  consoleToStderr();
  const interactive = args.interactive || Boolean(process.stdin.isTTY);
  // One reader of stdin serves the REPL's commands and every prompt; `call` only reads stdin for prompts.
  let reader: StreamTerminal | undefined;
  const input = (): StreamTerminal => {
    reader ??= streamTerminal(process.stdin, process.stderr);
    return reader;
  };
  // What a long call is doing, live on the terminal (stderr: stdout stays the answers'); never in --json mode.
  const status = statusLine(process.stderr, !args.asJson);
  const human = interactive ? lazyTerminal(input, status) : undefined;

  let callArgs: unknown = {};
  if (args.command === 'call') {
    try {
      callArgs = parseCallArguments(args.json === '-' ? await readStdin() : args.json);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`agent-tools: ${error.message}\n`);
      return 2;
    }
  }

  const conversationId = randomUUID();
  const registry = await assemble({
    cwd,
    conversationId,
    surface,
    terminal: human,
    approve: harnessApproval({ yes: args.yes, terminal: human }),
    ...(args.command === 'call' ? { only: args.tool as string } : {}),
    ...(args.timeoutSeconds ? { timeoutMs: args.timeoutSeconds * 1000 } : {}),
  });
  const stop = (): void => {
    void registry.dispose().finally(() => exitFlushed(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // The reader of our answers went away (EPIPE): nothing more can be delivered, so the run ends as on SIGTERM.
  process.stdout.once('error', stop);
  try {
    switch (args.command) {
      case 'list': {
        const tools = registry.tools(surface);
        const print = args.asJson ? listJson : formatList;
        await writeWhole(process.stdout, `${print(surface.name, tools, registry.factories)}\n`);
        return 0;
      }
      case 'call': {
        const result = await registry.call(args.tool as string, callArgs, progressOptions(status));
        status.clear();
        await writeWhole(process.stdout, `${args.asJson ? resultJson(result) : formatResult(result)}\n`);
        return result.isError ? 1 : 0;
      }
      default:
        await repl(registry, input(), interactive, args.asJson, status);
        return 0;
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.stdout.off('error', stop);
    // What the model went ahead with for want of an answer, for the human to check (stderr: stdout stays parseable).
    const assumed = assumedWithoutAsking(conversationId, registry.runId);
    if (assumed) process.stderr.write(`\n${assumed}\n`);
    reader?.close();
    await registry.dispose();
  }
}

/** Reads `TOOL JSON-ARGS` lines until end of input and answers each, one call at a time. */
async function repl(registry: Registry, input: StreamTerminal, interactive: boolean, asJson: boolean, status: StatusLine): Promise<void> {
  if (interactive) input.write('agent-tools repl: type TOOL {"json":"args"}; end with Ctrl-D.\n');
  let answered = 0;
  for (;;) {
    const line = await input.readLine(interactive ? 'agent-tools> ' : '');
    if (line === undefined) return;
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    const space = text.search(/\s/);
    const tool = space === -1 ? text : text.slice(0, space);
    let result: Awaited<ReturnType<Registry['call']>>;
    try {
      result = await registry.call(tool, parseCallArguments(space === -1 ? undefined : text.slice(space + 1)), progressOptions(status));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      result = { isError: true, content: [{ type: 'text', text: error.message }] };
    }
    status.clear();
    // Awaited: the next call (and the exit after the last one) waits until this answer has left the process.
    await writeWhole(process.stdout, `${asJson ? resultJson(result) : replAnswer(tool, result, answered)}\n`);
    answered++;
  }
}

/** A terminal that only starts reading stdin when something first prompts; the status line stays off its lines. */
function lazyTerminal(input: () => StreamTerminal, status: StatusLine): Terminal {
  return {
    readLine: (prompt) => status.hold(() => input().readLine(prompt)),
    write: (text) => {
      status.clear();
      process.stderr.write(text);
    },
  };
}

/** The call options that feed the status line, when there is one. */
function progressOptions(status: StatusLine): { onProgress?: StatusLine['onProgress'] } {
  return status.onProgress ? { onProgress: status.onProgress } : {};
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

main(process.argv.slice(2)).then(
  (code) => exitFlushed(code),
  (error: unknown) => {
    process.stderr.write(`agent-tools: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return exitFlushed(1);
  },
);
