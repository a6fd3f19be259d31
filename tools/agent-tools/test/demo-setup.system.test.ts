import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEBUG_DEMO_MODULES } from '../src/plugins/debug.js';
import { EVAL_DEMO_MODULES } from '../src/plugins/eval.js';
import { DEMO_SETUP_COMMAND, SYSTEM_PYTHON } from '../src/python-modules.js';

// The README's first command must set up everything the demo shows: the Debian packages it installs (asked of the
// script itself) must provide every Python module a demo step checks for (asked of dpkg and apt on this machine).
const ROOT = join(import.meta.dirname, '..', '..', '..');

function run(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

describe("the README's first command", () => {
  it('is the demo set-up command the demo names when something is missing, then the demo', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const first = /```sh\n([^`]*)```/.exec(readme)?.[1]?.trim();
    expect(first).toBe(`${DEMO_SETUP_COMMAND} && pnpm demo`);
  });

  it('installs the Debian packages that provide every Python module the debug and eval demos need', () => {
    const [script, ...flags] = DEMO_SETUP_COMMAND.replace(/^sh /, '').split(' ');
    const listed = run('sh', [script as string, ...flags, '--list']).trim().split('\n');
    expect(listed.length).toBeGreaterThan(0);
    // What those packages pull in (Depends and Pre-Depends only: what apt installs with --no-install-recommends).
    const closure = new Set(
      run('apt-cache', ['depends', '--recurse', '--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances', ...listed])
        .split('\n')
        .map((line) => line.replace(/^\s*(\|?(Pre)?Depends:\s*)?/, '').replace(/:any$/, '').trim())
        .filter((name) => /^[a-z0-9][a-z0-9+.-]+$/.test(name)),
    );
    for (const module of [...DEBUG_DEMO_MODULES, ...EVAL_DEMO_MODULES]) {
      const file = run(SYSTEM_PYTHON, ['-c', `import ${module}; print(${module}.__file__)`]).trim();
      const owner = run('dpkg', ['-S', file]).split(':')[0] as string;
      expect(closure.has(owner), `${module} (${file}) comes from ${owner}, which ${DEMO_SETUP_COMMAND} does not install`).toBe(true);
    }
  });
});
