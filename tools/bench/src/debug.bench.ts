import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approveAll, createRegistry, type Registry, resultText } from '@agent-tools/core';
import { createDebugSupervisor, type DebugSupervisor, debugTools } from '@agent-tools/debug';
import { type Timing, timingTable } from './measure.js';

/**
 * debug: the time from `launch` to the answer at the first breakpoint (adapter start, configuration, run to the
 * breakpoint, snapshot), and of a `step_over` round trip (step plus the snapshot: stack, scopes, locals, source),
 * for debugpy on Python, lldb-dap on C built with gcc -g and js-debug on Node.js. The reference rows under each step
 * are the bare DAP round trip on the same session and transport (`next`, then the `stopped` event; no snapshot), and
 * that round trip followed by the requests a snapshot needs (stackTrace, scopes, variables) sent bare, each as soon
 * as the one it depends on has answered: the cost of the answer's information without this package's work; its last
 * row is those requests alone, after the stop (when they alone cost more than half the bare `next`, no client
 * reaches 1.5x the `next` with that information). Each run does one of each, side by side,
 * so all see the same machine load. Last, the harness's CPU time for a debuggee printing
 * 32 MiB with `\r` line endings against the same bytes with `\n`: output handling must be linear whatever the
 * line endings.
 */
/** Prints `size` characters of progress ending in `\r` (or `\n`), with no other newline. */
const FLOOD = `import sys
size, end = int(sys.argv[1]), sys.argv[2] == "n" and "\\n" or "\\r"
piece = "progress " + "x" * 40 + end
for _ in range(size // len(piece)):
    sys.stdout.write(piece)
sys.stdout.flush()
`;

const PY = `def work(n):
    total = 0
    for i in range(n):
        total += i * 2  # @bp
    return total


print(work(100000))
`;

const JS = `function work(n) {
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += i * 2; // @bp
  }
  return total;
}

console.log(work(100000));
`;

const C = `#include <stdio.h>
int main(void) {
  long total = 0;
  for (long i = 0; i < 100000; i++) {
    total += i * 2; /* @bp */
  }
  printf("%ld\\n", total);
  return 0;
}
`;

interface Case {
  /** The id DEBUG_BENCH picks it by (py, c, js); the output rows are "output". */
  readonly id: string;
  readonly name: string;
  readonly dir: string;
  readonly file: string;
  readonly program: string;
  readonly line: number;
}

function lineOf(source: string): number {
  return source.split('\n').findIndex((l) => l.includes('@bp')) + 1;
}

const root = mkdtempSync(join(tmpdir(), 'agent-tools-debug-bench-'));
const pyDir = join(root, 'py');
const cDir = join(root, 'c');
const jsDir = join(root, 'js');
execFileSync('mkdir', ['-p', pyDir, cDir, jsDir]);
writeFileSync(join(jsDir, 'package.json'), '{"name":"bench","private":true}\n');
writeFileSync(join(jsDir, 'work.js'), JS);
writeFileSync(join(pyDir, 'pyproject.toml'), '[project]\nname = "bench"\n');
writeFileSync(join(pyDir, 'work.py'), PY);
writeFileSync(join(pyDir, 'flood.py'), FLOOD);
writeFileSync(join(cDir, 'CMakeLists.txt'), 'project(bench C)\n');
writeFileSync(join(cDir, 'work.c'), C);
execFileSync('gcc', ['-g', '-O0', '-o', join(cDir, 'work'), join(cDir, 'work.c')]);

/** DEBUG_BENCH=js,py picks rows (py, c, js, output); all by default. */
const only = process.env['DEBUG_BENCH']?.split(',').map((s) => s.trim());
const picked = (id: string): boolean => !only || only.includes(id);

const cases: Case[] = [
  { id: 'py', name: 'debugpy (Python)', dir: pyDir, file: 'work.py', program: 'work.py', line: lineOf(PY) },
  { id: 'c', name: 'lldb-dap-19 (C, gcc -g)', dir: cDir, file: 'work.c', program: 'work', line: lineOf(C) },
  { id: 'js', name: 'js-debug 1.112 (Node.js)', dir: jsDir, file: 'work.js', program: 'work.js', line: lineOf(JS) },
].filter((c) => picked(c.id));

function rig(dir: string): { registry: Registry; supervisor: DebugSupervisor } {
  const supervisor = createDebugSupervisor();
  const registry = createRegistry({
    resources: { cwd: dir, conversationId: 'bench', debugSupervisor: supervisor },
    factories: [debugTools],
    approve: approveAll,
  });
  return { registry, supervisor };
}

async function call(registry: Registry, args: object, expect: string): Promise<void> {
  const result = await registry.call('debug', args);
  const text = resultText(result);
  if (result.isError || !text.includes(expect)) throw new Error(`unexpected answer to ${JSON.stringify(args)}: ${text}`);
}

/** A timing row from samples already taken. */
function summarize(label: string, samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { label, runs: sorted.length, medianMs: median, minMs: sorted[0] as number, maxMs: sorted.at(-1) as number };
}

/** The harness's CPU milliseconds (this process, not the debuggee) for launching a program that prints and exits. */
async function outputCpu(dir: string, program: string, args: string[]): Promise<number> {
  const { registry } = rig(dir);
  try {
    const before = process.cpuUsage();
    await call(registry, { action: 'launch', program, args }, 'The program exited with code 0.');
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  } finally {
    await registry.dispose();
  }
}

/** Like `measure`, but only the part of each run wrapped in `timed` counts (setup and teardown do not). */
async function timeEach(
  label: string,
  runs: number,
  warmup: number,
  run: (timed: (task: () => Promise<void>) => Promise<void>) => Promise<void>,
): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    await run(async (task) => {
      const start = performance.now();
      await task();
      if (i >= warmup) samples.push(performance.now() - start);
    });
  }
  samples.sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  const median = samples.length % 2 ? (samples[mid] as number) : ((samples[mid - 1] as number) + (samples[mid] as number)) / 2;
  return { label, runs, medianMs: median, minMs: samples[0] as number, maxMs: samples.at(-1) as number };
}

type Session = NonNullable<ReturnType<DebugSupervisor['conversation']>['session']>;

/**
 * The requests a stop snapshot sends, bare: stackTrace (4 frames), the top frame's scopes, then the locals scope's
 * variables, and for js-debug the block scopes in front of the function's own ("Block: i" before "Local: work"),
 * together, as the snapshot fetches them.
 */
async function snapshotRequests(session: Session, thread: number): Promise<void> {
  const frames = await session.request('stackTrace', { threadId: thread, startFrame: 0, levels: 4 });
  const top = frames.stackFrames[0];
  if (!top) throw new Error('no frame');
  const { scopes } = await session.request('scopes', { frameId: top.id });
  const hinted = scopes.findIndex((scope) => scope.presentationHint === 'locals');
  const first = hinted >= 0 ? hinted : scopes.findIndex((scope) => !scope.expensive);
  if (first < 0) return;
  const locals = [scopes[first]];
  if (/^Block\b/.test(scopes[first]?.name ?? '')) {
    for (const scope of scopes.slice(first + 1)) {
      if (scope.expensive || !/^(Block|Local)\b/.test(scope.name)) break;
      locals.push(scope);
      if (/^Local\b/.test(scope.name)) break;
    }
  }
  await Promise.all(
    locals.map((scope) => scope && session.request('variables', { variablesReference: scope.variablesReference, start: 0, count: 21 })),
  );
}

try {
  const timings: Timing[] = [];
  for (const c of cases) {
    const { registry, supervisor } = rig(c.dir);
    try {
      await call(registry, { action: 'breakpoints', file: c.file, lines: [c.line] }, 'pending');
      // Launch to the first breakpoint; the terminate between runs is not timed.
      timings.push(
        await timeEach(`${c.name}: launch → first breakpoint answer`, 7, 1, async (timed) => {
          await timed(() => call(registry, { action: 'launch', program: c.program }, 'Stopped at a breakpoint'));
          await call(registry, { action: 'terminate' }, 'Terminated');
        }),
      );
      await call(registry, { action: 'launch', program: c.program }, 'Stopped at a breakpoint');
      await call(registry, { action: 'breakpoints', file: c.file, lines: [] }, 'Cleared');
      const session = supervisor.conversation('bench').session;
      if (!session) throw new Error('no session');
      const steps: number[] = [];
      const bare: number[] = [];
      const needed: number[] = [];
      const requestsAlone: number[] = [];
      for (let i = 0; i < 3 + 21; i++) {
        let start = performance.now();
        await call(registry, { action: 'step_over' }, 'Stopped after the step');
        if (i >= 3) steps.push(performance.now() - start);
        const thread = session.lastThreadId ?? 1;
        start = performance.now();
        await session.resume('next', thread);
        if ((await session.settle(10_000)) !== 'stopped') throw new Error('did not stop');
        if (i >= 3) bare.push(performance.now() - start);
        // The adapter's own share of a snapshot: the requests it needs, sent bare, each as soon as the one it depends on
        // has answered; timed with the `next` before them and alone.
        start = performance.now();
        await session.resume('next', thread);
        if ((await session.settle(10_000)) !== 'stopped') throw new Error('did not stop');
        const stopped = performance.now();
        await snapshotRequests(session, thread);
        if (i >= 3) {
          needed.push(performance.now() - start);
          requestsAlone.push(performance.now() - stopped);
        }
      }
      timings.push(summarize(`${c.name}: step_over round trip (with snapshot)`, steps));
      timings.push(summarize(`${c.name}: reference: bare DAP next → stopped, same session, side by side`, bare));
      timings.push(summarize(`${c.name}: reference: bare next, then the snapshot's requests (stackTrace, scopes, variables), side by side`, needed));
      timings.push(summarize(`${c.name}: reference: of that, the snapshot's requests alone, after the stop`, requestsAlone));
    } finally {
      await registry.dispose();
    }
  }
  if (picked('output')) {
    const flood = String(32 * 1024 * 1024);
    const cpu: Record<string, number[]> = { r: [], n: [] };
    for (let i = 0; i < 5; i++) {
      for (const end of ['r', 'n'] as const) cpu[end]?.push(await outputCpu(pyDir, 'flood.py', [flood, end]));
    }
    timings.push(summarize('debugpy: harness CPU ms for 32 MiB of output ending in \\r (no newline at all)', cpu.r ?? []));
    timings.push(summarize('debugpy: reference: harness CPU ms for the same 32 MiB ending in \\n', cpu.n ?? []));
  }
  console.log(timingTable(timings));
} finally {
  rmSync(root, { recursive: true, force: true });
}
