import { defineTool, textResult } from '@agent-tools/core';
import { tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BRIDGE_LIMITS } from '../src/bridge-transfer.js';
import { type EvalRun, evalRun } from './helpers.js';

// Cells that misbehave in common ways, on real kernels (ipykernel and eval's JavaScript kernel) and a real local
// Jupyter server. Each test ends the run and checks that no process of it is left.
const js = { language: 'javascript' };

/** A harness tool answering `size` characters: its path, then `x`s, then `<end>`. */
const big = defineTool({
  name: 'big',
  tier: 'read',
  parallelSafe: true,
  description: 'Answers a large text.',
  parameters: z.object({ path: z.string(), size: z.number() }),
  execute: ({ path, size }) => textResult(`${path}:${'x'.repeat(size - path.length - 6)}<end>`),
});

async function withRun(test: (run: EvalRun) => Promise<void>, factory = {}): Promise<void> {
  using dir = tempDir({}, 'agent-tools-eval-hostile-');
  const run = evalRun(dir.path, { tools: [big], factory });
  try {
    await test(run);
  } finally {
    await run.registry.dispose();
  }
  expect(await waitForNoProcesses(run.factory.stateDir)).toEqual([]);
}

describe('cells that misbehave', () => {
  it('refuses a Python cell holding a NUL or an unpaired surrogate at once and keeps the kernel; JavaScript runs them', { timeout: 120_000 }, async () => {
    await withRun(async (run) => {
      expect((await run.cell('x = 41')).result.isError).toBe(false);
      const nul = await run.cell('print("a\u0000b")\nx');
      expect(nul.result.isError).toBe(true);
      expect(nul.text).toBe(
        'The cell holds a NUL character (U+0000) at line 1, column 9: Python source cannot contain one. Inside a string write it as "\\x00" (or chr(0)). Nothing was run; the kernel and its variables are kept.',
      );
      const surrogate = await run.cell('s = "\ud800"');
      expect(surrogate.text).toBe(
        'The cell holds an unpaired surrogate (U+D800) at line 1, column 6: it has no UTF-8 form, so Python cannot read it. Inside a string write it as "\\ud800". Nothing was run; the kernel and its variables are kept.',
      );
      const next = await run.cell('x + 1');
      expect(next.text).toMatch(/^Out\[\d+\]: 42$/);
      expect(next.structured.kernel?.started).toBe(false);
      const escaped = await run.cell('len("a\\x00b")');
      expect(escaped.text).toMatch(/^Out\[\d+\]: 3$/);
      const inJs = await run.cell('const s = "a\u0000b\ud800"; [s.length, s.charCodeAt(1), s.charCodeAt(3)]', js);
      expect(inJs.text).toMatch(/^Out\[\d+\]: \[ 4, 0, 55296 \]$/);
    });
  });

  it('delivers three 4 MiB bridged results at once, and answers one over the limit with an error naming it', { timeout: 180_000 }, async () => {
    await withRun(async (run) => {
      const size = 4 * 1024 * 1024;
      const three = await run.cell(
        `r = tool.parallel([("big", {"path": p, "size": ${size}}) for p in "abc"])\n[(len(t), t[:2], t[-5:], t.count("x")) for t in r]`,
      );
      expect(three.result.isError).toBe(false);
      for (const p of 'abc') expect(three.text).toContain(`(${size}, '${p}:', '<end>', ${size - 7})`);
      expect(three.text).not.toContain('Traceback');
      expect(three.structured.bridgeCalls).toBe(3);

      const inJs = await run.cell(
        `const r = await Promise.all(["a", "b", "c"].map((p) => tool("big", { path: p, size: ${size} })));\nr.map((t) => [t.length, t.slice(-5)])`,
        js,
      );
      expect(inJs.text).toContain(`[ ${size}, '<end>' ]`);

      const over = BRIDGE_LIMITS.reply + 1024;
      const tooBig = await run.cell(`try:\n    tool("big", {"path": "huge", "size": ${over}})\nexcept ToolError as error:\n    print(error)`);
      expect(tooBig.result.isError).toBe(false);
      expect(tooBig.text).toContain(
        `answer carries at most ${BRIDGE_LIMITS.reply} characters (64 Mi). Ask for less: a range of lines, a narrower search, fewer calls in one tool.parallel().`,
      );
      expect((await run.cell('1 + 1')).text).toMatch(/^Out\[\d+\]: 2$/);
    });
  });

  it('gets all of a cell printing megabytes a second, with our own cut saying how much was dropped', { timeout: 120_000 }, async () => {
    await withRun(async (run) => {
      const flood = await run.cell(
        'import time\nline = "y" * 999\nfor burst in range(15):\n    print("\\n".join([line] * 1000))\n    time.sleep(0.2)\nprint("END")',
      );
      expect(flood.result.isError).toBe(false);
      expect(flood.text).not.toContain('IOPub');
      expect(flood.text.endsWith('\nEND')).toBe(true);
      const printed = 15 * 1000 * 1000 + 4;
      expect(flood.text).toContain(`… (${printed - 8000} characters cut) …`);

      const inJs = await run.cell('const row = "z".repeat(999);\nfor (let i = 0; i < 15000; i++) console.log(row);\nconsole.log("END")', js);
      expect(inJs.text).not.toContain('IOPub');
      expect(inJs.text.endsWith('\nEND')).toBe(true);
      expect(inJs.text).toContain(`… (${printed - 8000} characters cut) …`);
      expect((await run.cell('2 + 2')).text).toMatch(/^Out\[\d+\]: 4$/);
    });
  });

  it('interrupts a cell printing forever at the hard ceiling, not counting bridged calls, and keeps the kernel', { timeout: 120_000 }, async () => {
    await withRun(
      async (run) => {
        const forever = await run.cell('import time\ni = 0\nwhile True:\n    print(i, flush=True)\n    i += 1\n    time.sleep(0.1)', {
          timeout_seconds: 60,
        });
        expect(forever.structured.status).toBe('timeout');
        expect(forever.text).toContain(
          'The cell was interrupted after running 4 s, the most one cell may run (tool calls not counted), although it was still printing. The kernel and its variables are kept; split the work into shorter cells.',
        );
        expect((await run.cell('i > 10')).text).toMatch(/^Out\[\d+\]: True$/);

        const bridged = await run.cell('tool("slow", {"ms": 2500})\ntool("slow", {"ms": 2500})\n"both done"');
        expect(bridged.text).toMatch(/^Out\[\d+\]: 'both done'$/);

        const inJs = await run.cell('let n = 0;\nwhile (true) { console.log(n++); await new Promise((r) => setTimeout(r, 100)); }', js);
        expect(inJs.structured.status).toBe('timeout');
        expect(inJs.text).toContain('the most one cell may run');
        expect((await run.cell('n > 10', js)).text).toMatch(/^Out\[\d+\]: true$/);
      },
      { cellCeilingMs: 4000 },
    );
  });
});
