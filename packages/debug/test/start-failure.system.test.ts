import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { debugRig, strays } from './helpers.js';
import { GO_APP, GO_MOD, lineOf } from './programs.js';

const BROKEN = `package main

import "fmt"

func main() {
	x := 1
	fmt.Println("hi", y)
}
`;

describe('a program that does not build (delve, real adapter)', () => {
  it('answers with the compiler messages at their file:line, then launches the fixed program', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'svc/go.mod': GO_MOD, 'svc/main.go': BROKEN });
    const failed = await rig.call({ action: 'launch', program: 'svc/main.go' });
    expect(failed.isError).toBe(true);
    expect(failed.text).not.toContain('Check the debug console');
    expect(failed.text).toMatch(/^The delve adapter refused "launch": Failed to launch: Build error\.\nWhat it printed while starting:\n/);
    // The compiler's lines, with paths relative to the working directory (go printed them relative to svc/).
    expect(failed.text).toMatch(/\n {2}\| svc\/main\.go:6:2: .*\bx\b.*\n/);
    expect(failed.text).toMatch(/\n {2}\| svc\/main\.go:7:20: undefined: y/);
    expect(await strays(rig)).toEqual([]);
    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('No debug session is running. The last one: The session failed to start: The delve adapter refused "launch"');

    writeFileSync(rig.dir.join('svc/main.go'), GO_APP);
    const call = lineOf(GO_APP, '@go-call');
    await rig.call({ action: 'breakpoints', file: 'svc/main.go', lines: [call] });
    const fixed = await rig.call({ action: 'launch', program: 'svc/main.go' });
    expect(fixed.isError).toBe(false);
    expect(fixed.text).toContain(`Stopped at a breakpoint in main.main at svc/main.go:${call}`);
    await rig.call({ action: 'terminate' });
    expect(await strays(rig)).toEqual([]);
  });
});
