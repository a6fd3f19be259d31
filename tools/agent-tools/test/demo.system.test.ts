import { describe, expect, it } from 'vitest';
import { DEMO, run } from './run-cli.js';

describe('the demo (the README main job)', () => {
  it('runs every step on a copy of the sample project and ends as expected', { timeout: 240_000 }, async () => {
    const { code, stdout, stderr } = await run(DEMO, [], { timeoutMs: 230_000 });
    expect(stderr).toBe('');
    expect(stdout).toContain('Demo finished: every step ended as expected.');
    expect(stdout).not.toContain('✗ expected');
    // The main job shows every package: on a machine set up by the README's first command, no demo is skipped.
    expect(stdout).not.toContain('Skipping the');
    expect(code).toBe(0);
  });
});
