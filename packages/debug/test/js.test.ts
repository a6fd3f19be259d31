import { join } from 'node:path';
import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { copyPackage, lineIn } from './js-helpers.js';

describe('js adapter (real js-debug v1.112.0 DAP server)', () => {
  it('debugs an npm package\'s CLI entry (semver): breakpoint, locals, step, evaluate, exit', { timeout: 90_000 }, async () => {
    await using rig = debugRig({});
    const pkg = copyPackage('semver', rig.dir.path, 'semver');
    const cli = join(pkg, 'bin/semver.js');
    const line = lineIn(cli, 'options = parseOptions({ loose');
    await rig.call({ action: 'breakpoints', file: 'semver/bin/semver.js', lines: [line] });
    const launched = await rig.call({ action: 'launch', program: 'semver/bin/semver.js', args: ['1.2.3', '0.9.0', '-r', '>=1.0.0'] });
    console.log(launched.text);
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toContain(`Stopped at a breakpoint in main at semver/bin/semver.js:${line}`);
    const step = await rig.call({ action: 'step_over' });
    console.log(step.text);
    const value = await rig.call({ action: 'evaluate', expression: 'versions.length' });
    console.log(value.text);
    const threads = await rig.call({ action: 'threads' });
    console.log(threads.text);
    const done = await rig.call({ action: 'continue' });
    console.log(done.text);
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });
});
