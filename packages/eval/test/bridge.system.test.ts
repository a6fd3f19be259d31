import { type ApprovalRequest, defineSurface } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalRun, evalRun } from './helpers.js';

// Cells calling the harness's tools over the kernel's stdin channel, through the real registry.
const dir = tempDir({}, 'agent-tools-eval-bridge-');
const approvals: ApprovalRequest[] = [];
let run: EvalRun;
const js = { language: 'javascript' };
const noWrite = defineSurface('no-write', ['read', 'exec']);

beforeAll(() => {
  run = evalRun(dir.path, {
    surfaces: [noWrite],
    approve: (request) => {
      approvals.push(request);
      if (request.tool === 'write') return { approved: false, reason: 'writes are off in this test' };
      return true;
    },
  });
});
afterAll(async () => {
  await run.registry.dispose();
  dir.remove();
});

describe('the tool bridge from Python', () => {
  it('calls an allowed tool and returns its text and structured data', async () => {
    const answer = await run.cell('text = tool("read", {"path": "src/app.py"})\nprint(text)\ntext.structured');
    expect(answer.result.isError).toBe(false);
    expect(answer.text).toMatch(/^contents of src\/app\.py\nOut\[\d+\]: \{'path': 'src\/app\.py', 'lines': 3\}$/);
    expect(answer.structured.bridgeCalls).toBe(1);
    expect(run.log).toContain('read src/app.py');
  });

  it('raises ToolError when the approval callback denies the call', async () => {
    approvals.length = 0;
    const answer = await run.cell('tool("write", {"path": "x.txt", "content": "hi"})');
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toMatch(/ToolError: The user did not allow this write call\. Reason given: writes are off in this test/);
    expect(approvals.map((a) => ({ tool: a.tool, bridged: a.bridged }))).toEqual([
      { tool: 'eval', bridged: false },
      { tool: 'write', bridged: true },
    ]);
    expect(run.log).not.toContain('write x.txt');
  });

  it('lets the cell catch the ToolError and read the answer', async () => {
    const answer = await run.cell('try:\n    tool("write", {"path": "x.txt", "content": "hi"})\nexcept ToolError as error:\n    caught = error.result.is_error\ncaught');
    expect(answer.text).toMatch(/Out\[\d+\]: True$/);
  });

  it('answers a tool absent from the surface as unknown', async () => {
    const answer = await run.cell('tool("write", {"path": "x.txt", "content": "hi"})', {}, { surface: 'no-write' });
    expect(answer.text).toMatch(
      /ToolError: Unknown tool "write": it is not available on the "no-write" surface, which admits read and exec-tier tools only \(write is write-tier\)\. Do not retry it here\. The tools available here are: eval, read, slow\./,
    );
  });

  it('refuses eval calling itself', async () => {
    const answer = await run.cell('tool("eval", {"code": "1", "description": "nested cell that cannot ever run"})');
    expect(answer.text).toContain('eval cannot be called from inside its own call');
  });

  it('runs tool.parallel calls concurrently and returns failures in place', async () => {
    run.log.length = 0;
    const answer = await run.cell(
      'results = tool.parallel([("slow", {"ms": 300}), ("slow", {"ms": 301}), ("nope", {})])\n[type(r).__name__ for r in results]',
    );
    expect(answer.text).toMatch(/Out\[\d+\]: \['ToolText', 'ToolText', 'ToolError'\]$/);
    const firstEnd = run.log.findIndex((entry) => entry.endsWith('end'));
    expect(run.log.slice(0, firstEnd).sort()).toEqual(['slow 300 start', 'slow 301 start']);
  });

  it('serves calls made from worker threads', async () => {
    const answer = await run.cell(
      'from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(3) as pool:\n    texts = list(pool.map(lambda p: tool("read", {"path": p}), ["a", "b", "c"]))\ntexts',
    );
    expect(answer.text).toMatch(/Out\[\d+\]: \['contents of a', 'contents of b', 'contents of c'\]$/);
  });

  it('pauses the idle budget while a bridged call is in flight', async () => {
    const bridged = await run.cell('tool("slow", {"ms": 2500})', { timeout_seconds: 1 });
    expect(bridged.result.isError).toBe(false);
    expect(bridged.text).toMatch(/Out\[\d+\]: 'waited 2500 ms'$/);
    const idle = await run.cell('import time\ntime.sleep(2.5)', { timeout_seconds: 1 });
    expect(idle.structured.status).toBe('timeout');
  });

  it('reports a bad argument as an error the cell can read', async () => {
    const answer = await run.cell('tool("read", {"path": object()})');
    expect(answer.text).toContain('TypeError: tool() arguments must be JSON data');
  });
});

describe('the tool bridge from JavaScript', () => {
  it('returns the text, and the whole answer through tool.result', async () => {
    const answer = await run.cell('const text = await tool("read", { path: "a.ts" })\nconst full = await tool.result("read", { path: "b.ts" });\n[text, full.structured.path, full.isError]', js);
    expect(answer.text).toMatch(/Out\[\d+\]: \[ 'contents of a\.ts', 'b\.ts', false \]$/);
    expect(answer.structured.bridgeCalls).toBe(2);
  });

  it('throws ToolError on a denied call', async () => {
    const answer = await run.cell('await tool("write", { path: "x", content: "y" })', js);
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toMatch(/^ToolError: The user did not allow this write call/);
  });

  it('sends calls started together as one batch that runs concurrently', async () => {
    run.log.length = 0;
    const answer = await run.cell('(await Promise.all([tool("slow", { ms: 300 }), tool("slow", { ms: 301 })])).length', js);
    expect(answer.text).toMatch(/Out\[\d+\]: 2$/);
    const firstEnd = run.log.findIndex((entry) => entry.endsWith('end'));
    expect(run.log.slice(0, firstEnd).sort()).toEqual(['slow 300 start', 'slow 301 start']);
  });

  it('pauses the idle budget while a bridged call is in flight', async () => {
    const answer = await run.cell('await tool("slow", { ms: 2500 })', { ...js, timeout_seconds: 1 });
    expect(answer.text).toMatch(/Out\[\d+\]: 'waited 2500 ms'$/);
  });
});
