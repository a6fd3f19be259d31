import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { debugRig, strays } from './helpers.js';
import { GO_MOD } from './programs.js';

const pyproject = { 'pyproject.toml': '[project]\nname = "fixture"\n' };

/** 32 MiB of carriage-return progress and no newline at all, then a last state longer than every redraw. */
const PROGRESS = `import sys

piece = "progress " + "x" * 40
written = 0
i = 0
while written < 32 * 1024 * 1024:
    text = f"\\rstep {i:08d} {piece}"
    sys.stdout.write(text)
    written += len(text)
    i += 1
last = f"\\rstep {i:08d} finished after {written} characters of progress, exiting now"
sys.stdout.write(last)
sys.stdout.flush()
`;

/** A last line longer than any output cap: 10 000 characters, then its end marker. */
const LONG_LAST_LINE = `print("first line")
print("z" * 10000 + " END-OF-LONG-LINE")
`;

/** 3 MiB of two-, three- and four-byte characters in one write: pipe chunks end inside them. */
const GO_UNICODE = `package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	os.Stdout.WriteString(strings.Repeat("é€😀", 256*1024))
	fmt.Println()
	fmt.Println("END")
}
`;

const C_LONG_LAST_LINE = `#include <stdio.h>
int main(void) {
  puts("first line");
  for (int i = 0; i < 10000; i++) putchar('z');
  puts(" END-OF-LONG-LINE");
  return 0;
}
`;

describe('debuggee output under hostile programs (real adapters)', () => {
  it('takes 32 MiB of carriage-return progress without a newline and shows its last state (debugpy)', { timeout: 120_000 }, async () => {
    await using rig = debugRig({ ...pyproject, 'progress.py': PROGRESS });
    const launched = await rig.call({ action: 'launch', program: 'progress.py' });
    expect(launched.isError).toBe(false);
    expect(launched.text).toContain('The program exited with code 0.');
    const last = /step (\d{8}) finished after (\d+) characters of progress, exiting now/.exec(launched.text);
    expect(last).not.toBeNull();
    const written = Number(last?.[2]);
    expect(written).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    const printed = written + `\rstep ${last?.[1]} finished after ${written} characters of progress, exiting now`.length;
    // One visible line: the terminal's view of the redraws, with how much was printed in all.
    expect(launched.text).toContain(
      `Program output since the last answer (the newest ${last?.[0].length} of ${printed} characters printed; carriage-return redraws show their last state; call output for up to 4000):\n  | ${last?.[0]}\n`,
    );

    const output = await rig.call({ action: 'output' });
    expect(output.isError).toBe(false);
    expect(output.text).toBe(
      `Program output (the newest ${last?.[0].length} of ${printed} characters printed; carriage-return redraws show their last state):\n${last?.[0]}`,
    );
    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('No debug session is running. The last one: The program exited with code 0.');
    expect(await strays(rig)).toEqual([]);
  });

  it('shows colour codes and control characters as a terminal would: not at all (debugpy)', { timeout: 60_000 }, async () => {
    const printed = '\u001b[1;31mred\u001b[0m plain\u0000\u0007\n';
    const program = `import sys\nsys.stdout.write(${JSON.stringify(printed)})\nsys.stdout.flush()\n`;
    await using rig = debugRig({ ...pyproject, 'colours.py': program });
    const launched = await rig.call({ action: 'launch', program: 'colours.py' });
    expect(launched.text).toContain('The program exited with code 0.');
    expect(launched.text).toContain('Program output since the last answer:\n  | red plain\n');
    const output = await rig.call({ action: 'output' });
    expect(output.text).toBe(`Program output (${printed.length} characters):\nred plain\n`);
  });

  it('shows the end of a last line longer than the output cap, cut with a marker (debugpy)', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ ...pyproject, 'long.py': LONG_LAST_LINE });
    const launched = await rig.call({ action: 'launch', program: 'long.py' });
    expect(launched.text).toContain('The program exited with code 0.');
    expect(launched.text).not.toContain('printed nothing');
    expect(launched.text).toContain(
      `Program output since the last answer (the newest 4000 of 10029 characters printed, the first line cut at its start; call output for up to 4000):\n  | …${'z'.repeat(3982)} END-OF-LONG-LINE\n`,
    );
    const output = await rig.call({ action: 'output' });
    expect(output.text).toBe(
      `Program output (the newest 4000 of 10029 characters printed, the first line cut at its start):\n…${'z'.repeat(3982)} END-OF-LONG-LINE\n`,
    );
    const relaunch = await rig.call({ action: 'launch', program: 'long.py' });
    expect(relaunch.text).toContain('END-OF-LONG-LINE');
    expect(await strays(rig)).toEqual([]);
  });

  it('shows the end of a last line longer than the output cap on a pseudo-terminal (lldb-dap)', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': 'project(app C)\n', 'long.c': C_LONG_LAST_LINE });
    execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('long'), rig.dir.join('long.c')]);
    const launched = await rig.call({ action: 'launch', program: 'long' });
    expect(launched.text).toContain('The program exited with code 0.');
    expect(launched.text).toMatch(/\(the newest 4000 of 100(29|30|31) characters printed, the first line cut at its start; call output for up to 4000\):\n {2}\| …z+ END-OF-LONG-LINE\n/);
    const output = await rig.call({ action: 'output' });
    expect(output.text).toMatch(/^Program output \(the newest 4000 of \d+ characters printed, the first line cut at its start\):\n…z{3982} END-OF-LONG-LINE\n$/);
    expect(await strays(rig)).toEqual([]);
  });

  it('keeps multi-byte characters whole across pipe chunks (delve, whose debuggee writes to its stdout)', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'go.mod': GO_MOD, 'main.go': GO_UNICODE });
    const launched = await rig.call({ action: 'launch', program: 'main.go' });
    expect(launched.text).toContain('The program exited with code 0.');
    const output = await rig.call({ action: 'output' });
    expect(output.text).toMatch(/^Program output \(the newest 4000 of 1048581 characters printed, the first line cut at its start\):\n…[é€😀]+\nEND\n$/u);
    expect(output.text).not.toContain('\ufffd');
    expect(rig.supervisor.conversation('conv-1').session?.output.since(0, 2_000_000).text).not.toContain('\ufffd');
    expect(await strays(rig)).toEqual([]);
  });
});
