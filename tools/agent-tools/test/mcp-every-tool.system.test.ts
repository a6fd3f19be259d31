import { cpSync } from 'node:fs';
import type { ContentPart, ToolResult } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { DemoOutcome, DemoStep } from '../src/plugin.js';
import { stdioClient } from './mcp-client.js';
import { SAMPLE } from './run-cli.js';

// Every package's demo calls (the README's main job: lsp, ast, debug, eval, ask and vibe with their real servers,
// adapters and kernels) made through the real `agent-tools mcp` over stdio instead of the registry: each must end as
// the demo expects, an error result where it shows a refusal. Plan-surface steps go to a second server started with
// `--surface plan`, where a write or exec tool is an unknown tool (a JSON-RPC error, counted as the error expected).
const env = { AGENT_TOOLS_VIBE: '1', AGENT_TOOLS_VIBE_COMMAND: 'sh vibe/worker.sh' };
// The vibe plugin picks its demo when it loads: with vibe mode on, as the server below runs.
Object.assign(process.env, env);
// The built plugins, as the server runs them; through a variable so typechecking (which may run before this package's
// own build) does not need dist/.
const builtPlugins = '../dist/plugins/index.js';
const { plugins } = (await import(builtPlugins)) as typeof import('../src/plugins/index.js');

describe('every tool through agent-tools mcp (stdio, real servers)', () => {
  it('runs each package demo step with the outcome the demo expects', { timeout: 300_000 }, async () => {
    await using dir = tempDir({}, 'agent-tools-mcp-demo-');
    cpSync(SAMPLE, dir.path, { recursive: true });
    await using main = await stdioClient(['--cwd', dir.path, '--approve', 'yes', '--file-tools'], { env });
    await using plan = await stdioClient(['--cwd', dir.path, '--surface', 'plan'], { env });
    const steps: DemoStep[] = [];
    for (const plugin of plugins) {
      const blocker = await plugin.demoBlocker?.({ cwd: dir.path, conversationId: 'demo', terminal: undefined });
      expect(blocker, `${plugin.factory.name} demo blocked`).toBeUndefined();
      steps.push(...(plugin.demo ?? []));
    }
    const listed = new Set((await main.client.listTools()).tools.map((t) => t.name));
    const outcomes: DemoOutcome[] = [];
    const called = new Set<string>();
    for (const step of steps) {
      const args = typeof step.args === 'function' ? (step.args as (e: readonly DemoOutcome[]) => unknown)(outcomes) : step.args;
      const link = step.surface === 'plan' ? plan : main;
      const result: ToolResult = await link.client.callTool({ name: step.tool, arguments: args as Record<string, unknown> }).then(
        (r) => ({ content: r.content as ContentPart[], isError: r.isError === true, structured: r.structuredContent }),
        (error: Error) => ({ content: [{ type: 'text', text: error.message }], isError: true }),
      );
      outcomes.push({ step, result });
      called.add(step.tool);
      expect(result.isError, `${step.title}\n${JSON.stringify(result.content).slice(0, 2000)}`).toBe(step.expectError ?? false);
    }
    // No demo step applies a code action: lsp_fix without a list first must say to ask for one.
    const fix = await main.client.callTool({ name: 'lsp_fix', arguments: { file: 'src/report.ts', number: 1 } });
    expect(fix.isError).toBe(true);
    expect(JSON.stringify(fix.content)).toContain('code_actions');
    called.add('lsp_fix');
    // A tool no demo step calls (one added since) still answers over MCP: with no arguments, a result that names
    // what to pass, never a protocol error.
    for (const name of listed) {
      if (called.has(name) || ['read', 'write', 'edit'].includes(name)) continue;
      const bare = await main.client.callTool({ name, arguments: {} });
      expect(bare.isError, `${name}: ${JSON.stringify(bare.content)}`).toBe(true);
      expect((bare.content as { text?: string }[])[0]?.text?.length ?? 0, name).toBeGreaterThan(20);
    }
  });
});
