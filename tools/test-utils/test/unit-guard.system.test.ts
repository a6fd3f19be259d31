import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type TempDir, tempDir } from '../src/temp-dir.js';

// The repository's vitest.shared.ts and vitest.unit-guard.ts, exercised on a package made up for the test: vitest
// runs in its own process, as `pnpm test:unit` (AGENT_TOOLS_TESTS=unit) and `pnpm test` run it.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

function pkg(tests: Record<string, string>): TempDir {
  const dir = tempDir(
    {
      'vitest.config.ts': `import { packageTests } from ${JSON.stringify(join(ROOT, 'vitest.shared.ts'))};\nexport default packageTests();\n`,
      ...Object.fromEntries(Object.entries(tests).map(([name, body]) => [`test/${name}`, body])),
    },
    'agent-tools-unit-guard-',
  );
  // `vitest` resolves from the made-up package as from any package of the repository.
  symlinkSync(join(ROOT, 'node_modules'), dir.join('node_modules'));
  return dir;
}

function vitest(dir: TempDir, mode: 'unit' | 'all'): { status: number | null; output: string } {
  const env = { ...process.env, AGENT_TOOLS_TESTS: mode === 'unit' ? 'unit' : '' };
  const run = spawnSync(process.execPath, [VITEST, 'run'], { cwd: dir.path, env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const STARTS = `import { execFileSync } from 'node:child_process';\nimport { it } from 'vitest';\nit('starts true', () => { execFileSync('true'); });\n`;
const SWALLOWS = `import { spawnSync } from 'node:child_process';\nimport { it } from 'vitest';\nit('hides the failure', () => { try { spawnSync('true'); } catch {} });\n`;
const FIFO = `import { execFileSync } from 'node:child_process';\nimport { existsSync } from 'node:fs';\nimport { join } from 'node:path';\nimport { expect, it } from 'vitest';\nit('makes a fifo', () => { const p = join(process.cwd(), 'f'); execFileSync('mkfifo', [p]); expect(existsSync(p)).toBe(true); });\n`;

describe('pnpm test:unit refuses a process in a unit test (real vitest runs)', () => {
  it('fails a unit test that starts a process, saying to rename its file', { timeout: 180_000 }, () => {
    using dir = pkg({ 'starts.test.ts': STARTS });
    const { status, output } = vitest(dir, 'unit');
    expect(status).toBe(1);
    expect(output).toContain('a unit test started a process (execFileSync "true"): name the test file *.system.test.ts');
  });

  it('fails the file even when the code under test swallows the refusal', { timeout: 180_000 }, () => {
    using dir = pkg({ 'swallows.test.ts': SWALLOWS });
    const { status, output } = vitest(dir, 'unit');
    expect(status).toBe(1);
    expect(output).toContain('this file started processes (spawnSync("true")): name it *.system.test.ts');
  });

  it('leaves a *.system.test.ts file out in unit mode and runs it, process and all, in the full run', { timeout: 180_000 }, () => {
    using dir = pkg({ 'starts.system.test.ts': STARTS });
    const unit = vitest(dir, 'unit');
    expect(unit.status).toBe(0);
    expect(unit.output).toContain('No test files found');
    const all = vitest(dir, 'all');
    expect(all.status).toBe(0);
    expect(all.output).toMatch(/1 passed/);
  });

  it('lets mkfifo through: Node cannot make a FIFO itself', { timeout: 180_000 }, () => {
    using dir = pkg({ 'fifo.test.ts': FIFO });
    const { status, output } = vitest(dir, 'unit');
    expect(output).toMatch(/1 passed/);
    expect(status).toBe(0);
  });
});
