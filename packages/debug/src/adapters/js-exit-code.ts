import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * js-debug reports no exit code (no `exited` event). The launched program gets a preload that writes its exit code,
 * in the main thread, to `exit-<pid>` in the session's private folder; forks inherit the preload through
 * `execArgv` and write files of their own, so the code read is the one of the process js-debug announced first.
 */
const REPORTER = `'use strict';
if (require('node:worker_threads').isMainThread) {
  const fs = require('node:fs');
  const file = require('node:path').join(__dirname, 'exit-' + process.pid);
  process.on('exit', (code) => {
    try {
      fs.writeFileSync(file, String(code));
    } catch {
      // The session's folder is gone (it ended first), a file-system error only: nobody is left to read the code.
    }
  });
}
`;

/** Writes the preload into the session's folder and returns the Node options that load it. */
export function exitCodeRuntimeArgs(tempDir: string): string[] {
  const file = join(tempDir, 'exit-code.cjs');
  writeFileSync(file, REPORTER);
  return ['--require', file];
}

/** The exit code the program's main process wrote, when it exited normally. */
export function readExitCode(tempDir: string, pid: number): number | undefined {
  try {
    const code = Number(readFileSync(join(tempDir, `exit-${pid}`), 'utf8'));
    return Number.isInteger(code) ? code : undefined;
  } catch {
    // No file (the program did not exit through node) or an unreadable one: the code is unknown.
    return undefined;
  }
}
