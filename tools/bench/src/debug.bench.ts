import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approveAll, createRegistry, type Registry, resultText } from '@agent-tools/core';
import { createDebugSupervisor, type DebugSupervisor, debugTools } from '@agent-tools/debug';
import { measure, type Timing, timingTable } from './measure.js';

/**
 * debug: the time from `launch` to the answer at the first breakpoint (adapter start, configuration, run to the
 * breakpoint, snapshot), and of a `step_over` round trip (step plus the snapshot: threads, stack, scopes,
 * locals), for debugpy on Python and lldb-dap on C built with gcc -g. The reference row under each step is the
 * bare DAP round trip on the same session (`next`, then the `stopped` event; no snapshot), so the difference is
 * what the snapshot costs.
 */
const PY = `def work(n):
    total = 0
    for i in range(n):
        total += i * 2  # @bp
    return total


print(work(100000))
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
execFileSync('mkdir', ['-p', pyDir, cDir]);
writeFileSync(join(pyDir, 'pyproject.toml'), '[project]\nname = "bench"\n');
writeFileSync(join(pyDir, 'work.py'), PY);
writeFileSync(join(cDir, 'CMakeLists.txt'), 'project(bench C)\n');
writeFileSync(join(cDir, 'work.c'), C);
execFileSync('gcc', ['-g', '-O0', '-o', join(cDir, 'work'), join(cDir, 'work.c')]);

const cases: Case[] = [
  { name: 'debugpy (Python)', dir: pyDir, file: 'work.py', program: 'work.py', line: lineOf(PY) },
  { name: 'lldb-dap-19 (C, gcc -g)', dir: cDir, file: 'work.c', program: 'work', line: lineOf(C) },
];

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
      timings.push(await measure(`${c.name}: step_over round trip (with snapshot)`, () => call(registry, { action: 'step_over' }, 'Stopped after the step'), 21, 3));
      const session = supervisor.conversation('bench').session;
      if (!session) throw new Error('no session');
      timings.push(
        await measure(
          `${c.name}: reference: bare DAP next → stopped, same session`,
          async () => {
            await session.resume('next', session.lastThreadId ?? 1);
            if ((await session.settle(10_000)) !== 'stopped') throw new Error('did not stop');
          },
          21,
          3,
        ),
      );
    } finally {
      await registry.dispose();
    }
  }
  console.log(timingTable(timings));
} finally {
  rmSync(root, { recursive: true, force: true });
}
