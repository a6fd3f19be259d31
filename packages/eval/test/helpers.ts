import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApprovalCallback,
  approveAll,
  createRegistry,
  defineTool,
  type Registry,
  resultText,
  type Surface,
  type ToolResult,
  textResult,
} from '@agent-tools/core';
import { z } from 'zod';
import { createKernelFactory, type EvalStructured, evalTools, type KernelFactory, type KernelFactoryOptions } from '../src/index.js';

/** A description of the right length for test cells. */
export const DESCRIPTION = 'runs one cell of the eval tests';

/** The harness tools a bridged cell can call: `read`, `write` (write tier) and `slow` (sleeps). */
export function harnessTools(log: string[] = []) {
  return [
    defineTool({
      name: 'read',
      tier: 'read',
      parallelSafe: true,
      description: 'Reads a fake file.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        log.push(`read ${path}`);
        return textResult(`contents of ${path}`, { path, lines: 3 });
      },
    }),
    defineTool({
      name: 'write',
      tier: 'write',
      parallelSafe: false,
      description: 'Writes a fake file.',
      parameters: z.object({ path: z.string(), content: z.string() }),
      execute: ({ path }) => {
        log.push(`write ${path}`);
        return textResult(`wrote ${path}`);
      },
    }),
    defineTool({
      name: 'slow',
      tier: 'read',
      parallelSafe: true,
      description: 'Waits, then answers.',
      parameters: z.object({ ms: z.number() }),
      execute: async ({ ms }, ctx) => {
        log.push(`slow ${ms} start`);
        await sleep(ms, undefined, { signal: ctx.signal });
        log.push(`slow ${ms} end`);
        return textResult(`waited ${ms} ms`);
      },
    }),
  ];
}

/** A run with eval and the fake harness tools. */
export interface EvalRun {
  readonly registry: Registry;
  readonly factory: KernelFactory;
  readonly log: string[];
  /** Runs a cell and returns the answer with its text. */
  cell(code: string, extra?: Record<string, unknown>, options?: { signal?: AbortSignal; surface?: string; conversationId?: string }): Promise<Answer>;
}

/** An eval answer with its text and structured part at hand. */
export interface Answer {
  readonly result: ToolResult;
  readonly text: string;
  readonly structured: EvalStructured;
}

/** Assembles a registry with eval for `cwd`; dispose the registry to stop everything. */
export function evalRun(
  cwd: string,
  options: {
    approve?: ApprovalCallback;
    surfaces?: Surface[];
    factory?: KernelFactoryOptions;
    conversationId?: string;
    /** More harness tools cells may call. */
    tools?: readonly ReturnType<typeof defineTool>[];
  } = {},
): EvalRun {
  const log: string[] = [];
  const factory = createKernelFactory({ cwd, ...options.factory });
  const registry = createRegistry({
    resources: { cwd, conversationId: options.conversationId ?? 'conversation-1', kernelFactory: factory },
    factories: [evalTools],
    tools: [...harnessTools(log), ...(options.tools ?? [])],
    approve: options.approve ?? approveAll,
    ...(options.surfaces ? { surfaces: options.surfaces } : {}),
  });
  return {
    registry,
    factory,
    log,
    async cell(code, extra = {}, callOptions = {}) {
      const result = await registry.call('eval', { code, description: DESCRIPTION, ...extra }, callOptions);
      return { result, text: resultText(result), structured: result.structured as EvalStructured };
    },
  };
}
