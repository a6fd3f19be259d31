import { join } from 'node:path';
import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { copyPackage, lineIn } from './js-helpers.js';

describe('js adapter (real js-debug v1.112.0 DAP server)', () => {
  it('debugs an npm package\'s CLI entry (semver): breakpoint, locals, step, evaluate, exit code', { timeout: 90_000 }, async () => {
    await using rig = debugRig({});
    const pkg = copyPackage('semver', rig.dir.path, 'semver');
    const cli = join(pkg, 'bin/semver.js');
    const line = lineIn(cli, 'options = parseOptions({ loose');
    await rig.call({ action: 'breakpoints', file: 'semver/bin/semver.js', lines: [line] });
    const launched = await rig.call({ action: 'launch', program: 'semver/bin/semver.js', args: ['1.2.3', '0.9.0', '-r', '>=1.0.0'] });
    expect(launched.isError, launched.text).toBe(false);
    // semver's own package.json is the nearest root marker: the program runs there.
    expect(launched.text).toMatch(/^Launched semver\/bin\/semver\.js \["1\.2\.3","0\.9\.0","-r",">=1\.0\.0"\] with js \(js-debug 1\.112\.0 from .+\), in semver\. The program runs under node v\d+\.\d+\.\d+ \(\S+\)\./);
    expect(launched.text).toContain(`  line ${line}: verified`);
    expect(launched.text).toContain(`Stopped at a breakpoint in main at semver/bin/semver.js:${line}, thread `);
    const step = await rig.call({ action: 'step_over' });
    expect(step.text).toContain(`Stopped after the step in main at semver/bin/semver.js:${line + 2}`);
    const value = await rig.call({ action: 'evaluate', expression: 'versions.length' });
    expect(value.text).toMatch(/versions\.length \(number\) = 2$/);
    const threads = await rig.call({ action: 'threads' });
    expect(threads.text).toMatch(/thread \d+: semver\.js \[\d+\] {2}\(stopped here\)/);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toContain('  | 1.2.3');
    // Node's own lines about the debugger are not the program's output.
    expect(done.text).not.toContain('Debugger attached');
    expect(done.text).not.toContain('Waiting for the debugger');
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });

  it('reports the exit code js-debug does not (semver with no version that satisfies the range exits 1)', { timeout: 90_000 }, async () => {
    await using rig = debugRig({});
    copyPackage('semver', rig.dir.path, 'semver');
    const done = await rig.call({ action: 'launch', program: 'semver/bin/semver.js', args: ['0.9.0', '-r', '>=1.0.0'] });
    expect(done.text).toContain('The program exited with code 1.');
    const code = await rig.call({ action: 'launch', program: 'semver/bin/semver.js', args: ['2.0.0'] });
    expect(code.text).toContain('The program exited with code 0.');
  });
});
