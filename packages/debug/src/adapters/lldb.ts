import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AdapterConfig } from './adapter.js';
import { searchPath } from '@agent-tools/core';
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
