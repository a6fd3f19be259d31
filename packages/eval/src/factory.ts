import { defineFactory } from '@agent-tools/core';
import type { KernelFactory } from './jupyter/kernel-factory.js';
import { evalTool } from './tools/eval.js';

declare module '@agent-tools/core' {
  interface Resources {
    /** Where eval's kernels come from: see `createKernelFactory`. */
    kernelFactory?: KernelFactory;
  }
}

/**
 * The factory of @agent-tools/eval: registers `eval` when the run has a `kernelFactory` (see
 * `createKernelFactory`). The kernel factory is a resource, so the registry disposes it with the run, which shuts
 * every kernel down and stops the local Jupyter server.
 */
export const evalTools = defineFactory({
  name: '@agent-tools/eval',
  needs: ['kernelFactory'],
  create: ({ kernelFactory }, run) => {
    // Bugs in the kernels' message and event handlers, outside any call, go to the run's onError.
    const stop = (run && kernelFactory.onBackgroundError?.(run.reportError)) || (() => undefined);
    return { tools: [evalTool(kernelFactory)], dispose: stop };
  },
});
