import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { searchPath } from '@agent-tools/core/internal';
import type { HitCondition, HitConditionTranslation } from '../session/hit-condition.js';
import type { AdapterConfig } from './adapter.js';
import { findMatching } from './locate.js';

/** lldb-dap and its older name lldb-vscode, unversioned or with Debian's version suffix. */
const BINARY = /^lldb-(dap|vscode)(-\d+(\.\d+)*)?$/;

/**
 * lldb: `lldb-dap` over stdio, for native executables (C, C++, Rust, ...) built with debug information. Debian
 * ships it as `lldb-dap-19` (older releases: `lldb-vscode-14`..`-16`), so every name of that shape on
 * `$PATH` and in the LLVM install folders counts: unversioned first, then the newest, lldb-dap before
 * lldb-vscode. `llvmDirs: false` skips the LLVM install folders (tests of the name ranking).
 */
export function lldbAdapter(options: { readonly llvmDirs?: boolean } = {}): AdapterConfig {
  return {
    id: 'lldb',
    languages: 'C, C++, Rust and other native code',
    extensions: [],
    executables: true,
    rootMarkers: ['Cargo.toml', 'CMakeLists.txt', 'Makefile'],
    transport: { kind: 'stdio' },
    adapterId: 'lldb-dap',
    evaluateContext: 'watch',
    // lldb-dap prints a logpoint's message as console text, and the process's state changes the same way.
    consoleLogpoints: { adapterLines: /^Process \d+ (launched|exited|stopped|resuming|detached)\b/, errorLines: /^Log message has error: / },
    logMessageProblem: lldbLogMessageProblem,
    exceptionNote: 'a crash, a signal or an uncaught C++ exception (which aborts) stops the program by itself',
    async locate(ctx) {
      // $PATH first (what the user chose), then the LLVM install folders.
      const found =
        findMatching(BINARY, searchPath(ctx.env), rankName)[0] ??
        (options.llvmDirs === false ? undefined : findMatching(BINARY, llvmDirs(), rankName)[0]);
      if (!found) {
        return {
          found: false,
          reason:
            'no lldb-dap, lldb-dap-NN, lldb-vscode or lldb-vscode-NN on PATH or in /usr/lib/llvm-*/bin (apt install lldb-19 provides lldb-dap-19)',
        };
      }
      return { found: true, command: { command: found, args: [] }, summary: found };
    },
    hitCondition: lldbHitCondition,
    launchArguments: ({ program, args, root }) => ({
      program,
      args: [...args],
      cwd: root,
      stopOnEntry: false,
      // Without it a struct shows as "point @ 0x7ffd..."; with it, as "{x:3, y:4}" (lldb-dap 17+).
      enableAutoVariableSummaries: true,
    }),
    attach: {
      via: 'adapter',
      listenHint: 'start the program under `lldb-server gdbserver 127.0.0.1:PORT ./prog` (or `gdbserver 127.0.0.1:PORT ./prog`)',
      // An lldb-server or gdbserver listening on the port (`lldb-server gdbserver 127.0.0.1:PORT ./prog`).
      arguments: ({ host, port }) => ({ 'gdb-remote-port': port, 'gdb-remote-hostname': host, enableAutoVariableSummaries: true }),
    },
  };
}

/** Lower is better: lldb-dap, lldb-dap-NN (newest first), lldb-vscode, lldb-vscode-NN. */
function rankName(name: string): number {
  const match = BINARY.exec(name);
  const version = match?.[2] ? Number.parseFloat(match[2].slice(1)) : undefined;
  const base = match?.[1] === 'dap' ? 0 : 10_000;
  return version === undefined ? base : base + 1000 - Math.min(version, 999);
}

function llvmDirs(): string[] {
  const dirs: string[] = [];
  try {
    for (const name of readdirSync('/usr/lib')) {
      if (name.startsWith('llvm-')) dirs.push(join('/usr/lib', name, 'bin'));
    }
  } catch {
    // No /usr/lib here.
  }
  return [...dirs.sort().reverse(), '/opt/homebrew/opt/llvm/bin', '/usr/local/opt/llvm/bin'];
}

/**
 * lldb-dap reads a hit condition as a count N and ignores the hits before it (any other text as no condition, so it
 * stopped at every hit): ">= N" and "> N" can be kept, the rest cannot.
 */
function lldbHitCondition({ op, count }: HitCondition): HitConditionTranslation {
  // lldb-dap ignores count - 1 hits: "0" would underflow into "never".
  if (op === '>=') return { text: String(Math.max(1, count)) };
  if (op === '>') return { text: String(count + 1) };
  const suggestion = op === '==' && count >= 1 ? `: pass hit_condition ">= ${count}" for the ${ordinal(count)} hit and every later one` : '';
  return { unsupported: `lldb-dap can only stop from a hit on (it ignores the hits before)${suggestion}` };
}

function ordinal(n: number): string {
  const names = ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
  if (n < names.length) return names[n] as string;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * lldb-dap reads backslash escapes in a log message's text its own way, and takes every `{…}` (nested braces included)
 * as an expression; a message it cannot read leaves a plain breakpoint that stops the program.
 */
function lldbLogMessageProblem(message: string): string | undefined {
  if (message.includes('\\')) {
    return 'lldb-dap reads backslash escapes in a log message its own way and makes a logpoint it cannot read a breakpoint that stops: leave the backslash out';
  }
  if (/\{[^}]*\{/.test(message)) {
    return 'lldb-dap has no way to print a literal brace: every {…} is an expression, so leave literal braces out';
  }
  return undefined;
}
