import { askTools, memoryPort } from '@agent-tools/ask';
import { astTools, createTreeSitterLoader } from '@agent-tools/ast';
import {
  type ApprovalRequest,
  createRegistry,
  defineTool,
  imagePart,
  type Registry,
  textResult,
} from '@agent-tools/core';
import { createKernelFactory, evalTools } from '@agent-tools/eval';
import { type TempDir, tempDir } from '@agent-tools/test-utils';
import { vibeTools, WorkerList } from '@agent-tools/vibe';
import { z } from 'zod';

/** A 1×1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** What the fixture's tools saw, for assertions. */
export interface Seen {
  readonly approvals: ApprovalRequest[];
  /** Whether the slow tool's call saw its signal aborted, and why. */
  slowAborted?: unknown;
}

/** A screenshot tool of the harness's own: one text part and one image part. */
const snapshot = defineTool({
  name: 'snapshot',
  tier: 'read',
  description: 'Take a screenshot of the running app.',
  parallelSafe: true,
  parameters: z.object({}),
  execute: () => ({ content: [{ type: 'text', text: 'The app after login:' }, imagePart('image/png', PNG)], isError: false }),
});

/** A long call that reports progress until it is released or aborted. */
function slowTool(seen: Seen, release: Promise<void>) {
  return defineTool({
    name: 'slow',
    tier: 'read',
    description: 'Build the project, reporting progress.',
    parallelSafe: true,
    parameters: z.object({ steps: z.number().int().min(1).default(3) }),
    async execute({ steps }, ctx) {
      ctx.signal.addEventListener('abort', () => {
        seen.slowAborted = ctx.signal.reason ?? true;
      });
      for (let i = 1; i <= steps; i++) {
        ctx.reportProgress({ message: `compiling module ${i}`, progress: i, total: steps });
        await new Promise((r) => setTimeout(r, 30));
      }
      await Promise.race([release, new Promise((r) => ctx.signal.addEventListener('abort', r))]);
      return textResult(`built ${steps} modules`);
    },
  });
}

/**
 * A registry with tools of several packages on a small project: ast (ast_grep, ast_edit, resolve), ask (ask_user,
 * answered by an in-memory port), vibe (workers run by a function), and two harness tools (an image, progress).
 */
export function fixture(options: { release?: Promise<void> } = {}): {
  registry: Registry;
  seen: Seen;
  dir: TempDir;
  [Symbol.asyncDispose](): Promise<void>;
} {
  const dir = tempDir({
    'src/app.ts': 'export function greet(name: string) {\n  console.log("hi " + name);\n}\nconsole.log("start");\n',
  });
  const seen: Seen = { approvals: [] };
  const port = memoryPort({ respond: () => ({ type: 'answered', selected: ['TypeScript'] }) });
  const registry = createRegistry({
    resources: {
      cwd: dir.path,
      conversationId: 'conv-1',
      treeSitter: createTreeSitterLoader(),
      questionPort: port,
      targetSpace: { id: 'conv-1', name: 'the test' },
      workerList: new WorkerList({
        cwd: dir.path,
        // A worker that prints a line every 300 ms for a while, then finishes with its brief.
        runner: async function* (task) {
          for (let i = 1; i <= 4; i++) {
            yield `worker ${task.label}: step ${i}\n`;
            await new Promise((r) => setTimeout(r, 300));
          }
          yield `worker ${task.label} finished: ${task.brief}\n`;
        },
      }),
      // Free until a cell runs: the Jupyter server starts at the first eval call.
      kernelFactory: createKernelFactory({ cwd: dir.path }),
    },
    factories: [astTools, askTools, vibeTools, evalTools],
    tools: [snapshot, slowTool(seen, options.release ?? Promise.resolve())],
    approve: (request) => {
      seen.approvals.push(request);
      return true;
    },
  });
  return {
    registry,
    seen,
    dir,
    async [Symbol.asyncDispose]() {
      await registry.dispose();
      dir[Symbol.dispose]();
    },
  };
}
