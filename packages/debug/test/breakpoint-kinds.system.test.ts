import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { debugRig, strays } from './helpers.js';
import { C_APP, GO_APP, GO_MOD, lineOf } from './programs.js';

const PY_KINDS = `def total(values):
    subtotal = 0
    for i, value in enumerate(values):
        subtotal += value  # @loop
        seen = i  # @log
    return subtotal


def check(values):
    try:
        raise ValueError("handled inside check")  # @raise
    except ValueError:
        pass
    return total(values)  # @check-return


print("sum", check([1, 2, 3, 4, 5]))
`;

const GO_KINDS = `package main

import "fmt"

func twice(v int) int {
	r := v * 2 // @go-twice
	return r
}

func main() {
	total := 0
	for i := 0; i < 5; i++ {
		total += twice(i) // @go-loop
	}
	fmt.Println("total", total)
}
`;

const C_KINDS = `#include <stdio.h>

static int twice(int v) {
  int r = v * 2; /* @c-twice */
  return r;
}

int main(void) {
  int total = 0;
  for (int i = 0; i < 5; i++) {
    total += twice(i); /* @c-loop */
    int seen = i; /* @c-log */
  }
  printf("total %d\\n", total);
  return 0;
}
`;

const CPP_THROWS = `#include <cstdio>
#include <stdexcept>

static int risky(int v) {
  if (v > 1) throw std::runtime_error("too big"); // @cpp-throw
  return v;
}

int main() {
  int caught = 0;
  for (int i = 0; i < 3; i++) {
    try {
      risky(i);
    } catch (const std::exception &) {
      caught++;
    }
  }
  std::printf("caught %d\\n", caught);
  return 0;
}
`;

const pyFiles = { 'pyproject.toml': '[project]\nname = "kinds"\n', 'app.py': PY_KINDS };
const LOOP = lineOf(PY_KINDS, '@loop');
const LOG = lineOf(PY_KINDS, '@log');

describe('breakpoint kinds (real adapters)', () => {
  it('debugpy: a condition, a logpoint and a function breakpoint, verified at launch and kept to', { timeout: 90_000 }, async () => {
    await using rig = debugRig(pyFiles);
    const set = await rig.call({
      action: 'breakpoints',
      file: 'app.py',
      lines: [{ line: LOOP, condition: 'i == 3' }, { line: LOG, log_message: 'i={i} subtotal={subtotal}' }],
      functions: ['check'],
    });
    expect(set.isError).toBe(false);
    expect(set.text).toBe(
      [
        'No session yet: these are sent at launch, and the launch answer says which the adapter verified.',
        'Breakpoints in app.py:',
        `  line ${LOOP} [condition: i == 3]: pending (sent to the adapter at launch)`,
        `  line ${LOG} [logpoint: "i={i} subtotal={subtotal}"]: pending (sent to the adapter at launch)`,
        'Function breakpoints:',
        '  check: pending (sent to the adapter at launch)',
      ].join('\n'),
    );

    const launched = await rig.call({ action: 'launch', program: 'app.py' });
    expect(launched.isError).toBe(false);
    expect(launched.text).toContain(`  line ${LOOP} [condition: i == 3]: verified\n`);
    expect(launched.text).toContain(`  line ${LOG} [logpoint: "i={i} subtotal={subtotal}"]: verified (it prints to output and does not stop)\n`);
    expect(launched.text).toContain('Function breakpoints:\n  check: verified\n');
    expect(launched.text).toContain(
      'Exceptions ["uncaught"]: stops on uncaught ("Uncaught Exceptions"); debugpy also offers raised ("Raised Exceptions"), userUnhandled ("User Uncaught Exceptions"): pass exceptions ["all"] or filter ids.',
    );
    // The caught ValueError does not stop the program by default; the function breakpoint does.
    expect(launched.text).toMatch(/Stopped at function breakpoint check in check at app\.py:\d+/);

    const atCondition = await rig.call({ action: 'continue' });
    expect(atCondition.text).toContain(`Stopped at a breakpoint (line ${LOOP} [condition: i == 3]) in total at app.py:${LOOP}`);
    expect(atCondition.text).toContain('i (int) = 3');
    expect(atCondition.text).toContain('  | i=0 subtotal=1\n  | i=1 subtotal=3\n  | i=2 subtotal=6');
    expect(atCondition.text).not.toContain('i=3 subtotal');

    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toContain('i=3 subtotal=10');
    expect(done.text).toContain('i=4 subtotal=15');
    expect(done.text).toContain('sum 15');
    const output = await rig.call({ action: 'output' });
    expect(output.text.match(/i=\d subtotal=\d+/g)).toEqual(['i=0 subtotal=1', 'i=1 subtotal=3', 'i=2 subtotal=6', 'i=3 subtotal=10', 'i=4 subtotal=15']);
    expect(await strays(rig)).toEqual([]);
  });

  it('debugpy: exceptions ["all"] stops where a caught exception is raised; [] during the session turns it off', { timeout: 90_000 }, async () => {
    await using rig = debugRig(pyFiles);
    const set = await rig.call({ action: 'breakpoints', exceptions: ['all'] });
    expect(set.text).toContain('Exceptions: ["all"] (the filters are chosen at launch from what the adapter offers).');
    const launched = await rig.call({ action: 'launch', program: 'app.py' });
    expect(launched.text).toContain(
      'Exceptions ["all"]: stops on raised ("Raised Exceptions"), uncaught ("Uncaught Exceptions"); debugpy also offers userUnhandled ("User Uncaught Exceptions"): pass exceptions ["all"] or filter ids.',
    );
    expect(launched.text).toContain(`Stopped on an exception in check at app.py:${lineOf(PY_KINDS, '@raise')}`);
    expect(launched.text).toContain('Exception: ValueError: handled inside check');

    const off = await rig.call({ action: 'breakpoints', exceptions: ['bogus'] });
    expect(off.text).toContain('Sent to the running debugpy session:');
    expect(off.text).toContain('Exceptions ["bogus"]: no exception filter is set; debugpy offers raised');
    expect(off.text).toContain('debugpy does not offer "bogus".');
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toContain('sum 15');
    expect(await strays(rig)).toEqual([]);
  });

  it('debugpy: a condition it cannot evaluate is reported; a condition with a hit condition (debugpy stops when either holds) is refused', { timeout: 90_000 }, async () => {
    await using rig = debugRig(pyFiles);
    await rig.call({ action: 'breakpoints', file: 'app.py', lines: [{ line: LOOP, condition: 'i ==' }, { line: LOG, condition: 'i >= 0', hit_condition: '4' }] });
    const done = await rig.call({ action: 'launch', program: 'app.py' });
    expect(done.text).toContain(
      `  line ${LOG} [condition: i >= 0; hit count: 4]: NOT set — debugpy stops when either the condition or the hit condition holds, not only when both do: give one of them`,
    );
    // debugpy does not stop on a broken condition; it only says so in an "important" message, once per hit.
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toContain('The debugpy adapter warned:\n  ! 5 times: pydevd: Error while evaluating expression in conditional breakpoint: i ==\n');
    expect(done.text).toContain('  ! SyntaxError: invalid syntax\n');
    expect(await strays(rig)).toEqual([]);
  });

  it('debugpy: a dotted function breakpoint name, which it never matches, is refused with the name it matches', { timeout: 90_000 }, async () => {
    await using rig = debugRig(pyFiles);
    await rig.call({ action: 'breakpoints', functions: ['app.check', 'total'] });
    const launched = await rig.call({ action: 'launch', program: 'app.py' });
    // debugpy answered "verified" for any name and compared it with the function's bare name, so this never stopped.
    expect(launched.text).toContain(
      'Function breakpoints:\n  app.check: NOT set — debugpy matches a function breakpoint by the function\'s own name, without module or class: use "check" (it stops in every function of that name)\n  total: verified',
    );
    expect(launched.text).toMatch(/Stopped at function breakpoint total in total at app\.py:\d+/);
    expect((await rig.call({ action: 'continue' })).text).toContain('The program exited with code 0.');
    expect(await strays(rig)).toEqual([]);
  });

  it('delve: a conditional function breakpoint stops there; a hit condition it lacks is refused, not set plain', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'go.mod': GO_MOD, 'main.go': GO_KINDS });
    const loop = lineOf(GO_KINDS, '@go-loop');
    await rig.call({ action: 'breakpoints', file: 'main.go', lines: [{ line: loop, hit_condition: '3' }], functions: [{ name: 'main.twice', condition: 'v == 2' }] });
    const launched = await rig.call({ action: 'launch', program: 'main.go' });
    expect(launched.isError).toBe(false);
    expect(launched.text).toContain(
      `  line ${loop} [hit count: 3]: NOT set — the delve adapter does not support hit conditions (hit_condition), so it was not set (a plain breakpoint would stop where you did not ask)`,
    );
    expect(launched.text).toContain('Function breakpoints:\n  main.twice [condition: v == 2]: verified');
    expect(launched.text).toContain(
      'Exceptions: the delve adapter offers no exception filters; it stops on an unrecovered panic and on a fatal runtime error by itself.',
    );
    expect(launched.text).toMatch(/Stopped at function breakpoint main\.twice \[condition: v == 2\] in main\.twice at main\.go:\d+/);
    expect(launched.text).toContain('v (int) = 2');
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toContain('total 20');
    expect(await strays(rig)).toEqual([]);
  });

  it('delve: a logpoint that is only an expression ("{v}") leaves the adapter\'s own lines, and the exit code, alone', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'go.mod': GO_MOD, 'main.go': GO_APP });
    const twice = lineOf(GO_APP, '@go-twice');
    await rig.call({ action: 'breakpoints', file: 'main.go', lines: [{ line: twice, log_message: '{v}' }] });
    const done = await rig.call({ action: 'launch', program: 'main.go' });
    // delve says the exit status only on its console: a template matching any line took it for logpoint output.
    expect(done.text).toContain('The program exited with code 3.');
    expect(done.text).toMatch(/\| .*4\n/);
    expect(done.text).not.toMatch(/Detaching|has exited with status|dlv help/);
    expect(await strays(rig)).toEqual([]);
  });

  it('lldb-dap: a logpoint that is only an expression ("{v}") does not take lldb\'s own console lines for its output', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': 'project(app C)\n', 'app.c': C_APP });
    execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('app'), rig.dir.join('app.c')]);
    await rig.call({ action: 'breakpoints', file: 'app.c', lines: [{ line: lineOf(C_APP, '@c-twice'), log_message: '{v}' }] });
    const done = await rig.call({ action: 'launch', program: 'app' });
    expect(done.text).toContain('The program exited with code 3.');
    expect(done.text).toContain('  | 4\n');
    expect(done.text).not.toMatch(/Process \d+ exited/);
    expect(await strays(rig)).toEqual([]);
  });

  it('lldb-dap: a logpoint it cannot read is refused, not left to stop; one whose expression fails still shows', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': 'project(kinds C)\n', 'kinds.c': C_KINDS });
    execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('kinds'), rig.dir.join('kinds.c')]);
    const loop = lineOf(C_KINDS, '@c-loop');
    const log = lineOf(C_KINDS, '@c-log');
    const twice = lineOf(C_KINDS, '@c-twice');
    await rig.call({
      action: 'breakpoints',
      file: 'kinds.c',
      lines: [
        { line: twice, log_message: 'tab\\tv={v}' },
        { line: loop, log_message: 'set {{i}}' },
        { line: log, log_message: 'bad={nosuch} i={i}' },
      ],
    });
    const done = await rig.call({ action: 'launch', program: 'kinds' });
    // lldb-dap made the first a plain breakpoint that stopped (its error went to its console), and printed the
    // third's failed expression over several lines, which were taken for lldb's own and hidden.
    expect(done.text).toContain(`  line ${twice} [logpoint: "tab\\\\tv={v}"]: NOT set — lldb-dap reads backslash escapes in a log message`);
    expect(done.text).toContain(`  line ${loop} [logpoint: "set {{i}}"]: NOT set — lldb-dap has no way to print a literal brace`);
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toMatch(/\| bad=<error: [^\n]*undeclared identifier 'nosuch'/);
    expect(done.text).toContain('i=4\n');
    expect(await strays(rig)).toEqual([]);
  });

  it('lldb-dap: a hit condition, a logpoint (console output) and a function breakpoint', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': 'project(kinds C)\n', 'kinds.c': C_KINDS });
    execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('kinds'), rig.dir.join('kinds.c')]);
    const loop = lineOf(C_KINDS, '@c-loop');
    const log = lineOf(C_KINDS, '@c-log');
    await rig.call({
      action: 'breakpoints',
      file: 'kinds.c',
      lines: [{ line: loop, hit_condition: '>= 3' }, { line: log, log_message: 'after i={i} total={total}' }],
    });
    const launched = await rig.call({ action: 'launch', program: 'kinds' });
    expect(launched.text).toContain(`  line ${loop} [hit count: >= 3]: verified\n`);
    expect(launched.text).toContain('Exceptions ["uncaught"]: lldb has no filter for uncaught exceptions (a crash, a signal or an uncaught C++ exception (which aborts) stops the program by itself); lldb offers cpp_catch ("C++ Catch")');
    expect(launched.text).toContain(`Stopped at a breakpoint (line ${loop} [hit count: >= 3]) in main at kinds.c:${loop}`);
    expect(launched.text).toContain('i (int) = 2');
    expect(launched.text).toContain('  | after i=0 total=0\n  | after i=1 total=2');
    // ">= 3": the third hit and every later one (lldb-dap took ">= 3" for no hit condition and stopped at the first).
    const fourth = await rig.call({ action: 'continue' });
    expect(fourth.text).toContain(`Stopped at a breakpoint (line ${loop} [hit count: >= 3]) in main at kinds.c:${loop}`);
    expect(fourth.text).toContain('i (int) = 3');

    const fn = await rig.call({ action: 'breakpoints', file: 'kinds.c', lines: [], functions: ['twice'] });
    expect(fn.text).toContain('Cleared the breakpoints in kinds.c.\nSent to the running lldb session:\nFunction breakpoints:\n  twice: verified');
    const inTwice = await rig.call({ action: 'continue' });
    expect(inTwice.text).toMatch(/Stopped at function breakpoint twice in twice at kinds\.c:\d+/);
    expect(inTwice.text).toContain('v (int) = 3');
    const cleared = await rig.call({ action: 'breakpoints', functions: [] });
    expect(cleared.text).toContain('Cleared the function breakpoints.');
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 0.');
    expect(done.text).toContain('total 20');
    expect(await strays(rig)).toEqual([]);
  });

  it('lldb-dap: a hit condition it cannot keep ("3": the third hit only) is refused, not set as "from the third on"', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': 'project(kinds C)\n', 'kinds.c': C_KINDS });
    execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('kinds'), rig.dir.join('kinds.c')]);
    const loop = lineOf(C_KINDS, '@c-loop');
    const log = lineOf(C_KINDS, '@c-log');
    await rig.call({ action: 'breakpoints', file: 'kinds.c', lines: [{ line: loop, hit_condition: '3' }, { line: log, hit_condition: '% 2' }] });
    const done = await rig.call({ action: 'launch', program: 'kinds' });
    expect(done.text).toContain(
      `  line ${loop} [hit count: 3]: NOT set — lldb-dap can only stop from a hit on (it ignores the hits before): pass hit_condition ">= 3" for the third hit and every later one`,
    );
    expect(done.text).toContain(`  line ${log} [hit count: % 2]: NOT set — lldb-dap can only stop from a hit on`);
    expect(done.text).toContain('The program exited with code 0.');
    expect(await strays(rig)).toEqual([]);
  });

  it('lldb-dap: exceptions ["all"] on C++ stops at the throw; the default lets a caught exception pass', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'CMakeLists.txt': 'project(throws CXX)\n', 'throws.cpp': CPP_THROWS });
    execFileSync('g++', ['-g', '-O0', '-o', rig.dir.join('throws'), rig.dir.join('throws.cpp')]);
    const plain = await rig.call({ action: 'launch', program: 'throws' });
    expect(plain.text).toContain('The program exited with code 0.');
    expect(plain.text).toContain('caught 1');

    const all = await rig.call({ action: 'breakpoints', exceptions: ['all'] });
    expect(all.text).toContain('Exceptions: ["all"] (the filters are chosen at launch from what the adapter offers).');
    const launched = await rig.call({ action: 'launch', program: 'throws' });
    expect(launched.text).toContain('Exceptions ["all"]: stops on cpp_throw ("C++ Throw"), objc_throw ("Objective-C Throw"); lldb also offers cpp_catch');
    expect(launched.text).toContain('Stopped on an exception in __cxa_throw (no source)');
    expect(launched.text).toContain('Exception: cpp_throw: C++ Throw');
    expect(launched.text).toContain(`Called from: ::risky(int) (throws.cpp:${lineOf(CPP_THROWS, '@cpp-throw')})`);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 0.');
    expect(await strays(rig)).toEqual([]);
  });
});
