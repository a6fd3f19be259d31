import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { approveAll } from '@agent-tools/core';
import { assemble } from './assemble.js';
import { formatResult } from './output.js';
import type { DemoOutcome, DemoStep } from './plugin.js';
import { plugins } from './plugins/index.js';
import { exitFlushed } from './stdout.js';

/** The sample project that ships with the harness. */
export const SAMPLE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'sample');

/** The harness's own steps: its file tools, the write wrapper, and the surfaces at work. */
const coreSteps: readonly DemoStep[] = [
  { title: 'Read a file of the sample project', tool: 'read', args: { path: 'src/inventory.ts', limit: 12 } },
  {
    title: 'Edit it through the wrapped edit tool (diagnostics of the write are appended when a server runs)',
    tool: 'edit',
    args: { path: 'src/inventory.ts', old_text: 'const LOW_STOCK = 5;', new_text: 'const LOW_STOCK = 3;' },
  },
  {
    title: 'Plan mode does not see write tools: the call is answered as an unknown tool',
    tool: 'edit',
    args: { path: 'src/inventory.ts', old_text: 'x', new_text: 'y' },
    surface: 'plan',
    expectError: true,
  },
  {
    title: 'A path outside the working directory is refused',
    tool: 'read',
    args: { path: '../../etc/passwd' },
    expectError: true,
  },
];

/**
 * The README's main job: assembles every package for a copy of the sample project and makes a series of calls
 * that show the tools working. Exits 1 when a step does not end as expected.
 */
async function demo(): Promise<number> {
  const cwd = mkdtempSync(join(tmpdir(), 'agent-tools-demo-'));
  cpSync(SAMPLE_DIR, cwd, { recursive: true });
  const registry = await assemble({ cwd, approve: approveAll });
  let failures = 0;
  try {
    out(`agent-tools demo on a copy of the sample project: ${cwd}\n`);
    out(`Tools (default surface): ${registry.tools().map((t) => t.name).join(', ')}`);
    out(`Tools (plan surface):    ${registry.tools('plan').map((t) => t.name).join(', ')}`);
    for (const f of registry.factories.filter((f) => !f.registered)) {
      out(`Not registered here: ${f.name} (missing ${f.missing.join(', ')})`);
    }
    const env = { cwd, conversationId: 'demo', terminal: undefined };
    const steps: DemoStep[] = [...coreSteps];
    for (const plugin of plugins) {
      const blocker = plugin.demo?.length ? await plugin.demoBlocker?.(env) : undefined;
      if (blocker) out(`Skipping the ${plugin.factory.name} demo: ${blocker}`);
      else steps.push(...(plugin.demo ?? []));
    }
    const outcomes: DemoOutcome[] = [];
    for (const [index, step] of steps.entries()) {
      const args = typeof step.args === 'function' ? (step.args as (e: readonly DemoOutcome[]) => unknown)(outcomes) : step.args;
      out(`\n▸ ${index + 1}. ${step.title}`);
      out(`  $ ${step.tool} ${JSON.stringify(args)}${step.surface ? `   (surface: ${step.surface})` : ''}`);
      const result = await registry.call(step.tool, args, step.surface ? { surface: step.surface } : {});
      outcomes.push({ step, result });
      out(indent(formatResult(result)));
      if (result.isError !== (step.expectError ?? false)) {
        failures++;
        out(`  ✗ expected ${step.expectError ? 'an error' : 'success'}`);
      }
    }
  } finally {
    await registry.dispose();
    rmSync(cwd, { recursive: true, force: true });
  }
  out(failures === 0 ? '\nDemo finished: every step ended as expected.' : `\nDemo finished with ${failures} unexpected outcome(s).`);
  return failures === 0 ? 0 : 1;
}

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

demo().then(
  (code) => exitFlushed(code),
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return exitFlushed(1);
  },
);
