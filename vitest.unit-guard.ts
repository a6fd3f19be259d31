/**
 * Setup file of `pnpm test:unit` (AGENT_TOOLS_TESTS=unit): a test file that is not named `*.system.test.ts` may not
 * start a process. Without this, a process-starting test with the wrong name would quietly make the unit run slow
 * again; with it, the test fails at once and says what to rename. The functions are replaced on the module object
 * and re-synced to the ESM named exports, so `import { spawn } from 'node:child_process'` sees the guard too.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll } from 'vitest';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

const attempts: string[] = [];

const original = { ...childProcess };

function refuse(name: (typeof STARTERS)[number]) {
  return (command: unknown, ...rest: unknown[]) => {
    // Node cannot make a FIFO itself: `mkfifo` is a file-system call in a process's clothes, as quick as a write.
    if (name === 'execFileSync' && command === 'mkfifo') {
      return (original.execFileSync as (...args: unknown[]) => unknown)(command, ...rest);
    }
    attempts.push(`${name}(${JSON.stringify(command)})`);
    throw new Error(
      `a unit test started a process (${name} ${JSON.stringify(command)}): name the test file *.system.test.ts`,
    );
  };
}

const mutable = childProcess as unknown as Record<string, unknown>;
for (const name of STARTERS) mutable[name] = refuse(name);
syncBuiltinESMExports();

// The code under test may catch the thrown error and answer something else: fail the file anyway.
afterAll(() => {
  if (attempts.length > 0) {
    throw new Error(`this file started processes (${attempts.join(', ')}): name it *.system.test.ts`);
  }
});
