import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';

describe('a FIFO given to debug is refused by name, never opened', () => {
  it('as the program to launch and as the file of breakpoints', async () => {
    await using rig = debugRig({ 'pyproject.toml': '[project]\nname = "fixture"\n' });
    execFileSync('mkfifo', [rig.dir.join('x.py')]);
    const launch = await rig.call({ action: 'launch', program: 'x.py' });
    expect(launch.isError).toBe(true);
    expect(launch.text).toContain('"x.py" is a FIFO (named pipe), not a regular file');
    const breakpoints = await rig.call({ action: 'breakpoints', file: 'x.py', lines: [1] });
    expect(breakpoints.isError).toBe(true);
    expect(breakpoints.text).toContain('"x.py" is a FIFO (named pipe), not a regular file');
  });
});
