import {
  formatProgress,
  type JsonSchema,
  type ProgressEvent,
  type Surface,
  type ToolCaller,
  type ToolResult,
  type ToolSchema,
  toStrictSchema,
} from '@agent-tools/core';
import type { JSONSchema7, Tool, ToolSet } from 'ai';
import * as ai from 'ai';
import { type ImageSpelling, modelOutput } from './model-output.js';

/** The part of a registry the adapter uses: the schemas a surface sees, and calls. */
export interface AiSdkRegistry extends ToolCaller {
  schemas(surface?: Surface | string): ToolSchema[];
}

/** How the registry's tools are offered to the AI SDK. */
export interface AiSdkToolsOptions {
  /** The surface whose tools the model sees, and on which every call runs (default: the registry's). */
  readonly surface?: Surface | string;
  /** The conversation the calls belong to, when the run has several. */
  readonly conversationId?: string;
  /** Overrides the tools' timeouts for these calls. */
  readonly timeoutMs?: number;
  /**
   * Whether a long call's progress is streamed as preliminary tool results (default `true`): `streamText` and
   * UI streams show them while the call runs; the model only ever reads the final result.
   */
  readonly progress?: boolean;
  /**
   * Schemas in OpenAI's strict form, with the tools marked `strict` (default `false`). Optional parameters become
   * nullable, and the registry reads their `null` as "not given".
   */
  readonly strict?: boolean;
}

/**
 * What a tool of the set outputs: the registry's result; while a call runs, preliminary results carry its progress
 * (`progress`), with the progress line as their text.
 */
export type AiSdkToolOutput = ToolResult & { readonly progress?: ProgressEvent };

/**
 * The tools a surface sees, as an AI SDK `ToolSet` for `generateText`, `streamText` or an `Agent`. Each tool runs
 * through `registry.call` with the call's abort signal, so validation (with the registry's messages), the
 * harness's approval callback, serialization and timeouts apply as to any other call; no second approval gate is
 * added. Results reach the model as text, images as image parts, and error results as errors.
 */
export function toAiSdkTools(registry: AiSdkRegistry, options: AiSdkToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const schema of registry.schemas(options.surface)) tools[schema.name] = toAiSdkTool(registry, schema, options);
  return tools;
}

/**
 * Whether the installed `ai` takes images in tool results as `file` parts with tagged data: ai 7, which brought
 * them together with provider file references (`uploadFile`). Feature-detected, as `ai` exports no version.
 */
const FILE_PARTS = 'uploadFile' in ai;

function toAiSdkTool(registry: AiSdkRegistry, schema: ToolSchema, options: AiSdkToolsOptions): Tool {
  const strict = options.strict === true;
  const input: JsonSchema = strict ? toStrictSchema(schema.inputSchema, schema.name) : schema.inputSchema;
  const call = (args: unknown, signal: AbortSignal | undefined, onProgress?: (event: ProgressEvent) => void) =>
    registry.call(schema.name, args, {
      ...(options.surface === undefined ? {} : { surface: options.surface }),
      ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
  return {
    type: 'dynamic',
    description: schema.description,
    // No validator: the registry validates, and its message names every bad field and says what to do.
    inputSchema: ai.jsonSchema(input as JSONSchema7),
    ...(strict ? { strict: true } : {}),
    execute:
      options.progress === false
        ? (args: unknown, { abortSignal }: { abortSignal?: AbortSignal }) => call(args, abortSignal)
        : (args: unknown, { abortSignal }: { abortSignal?: AbortSignal }) => withProgress((listener) => call(args, abortSignal, listener)),
    toModelOutput: (arg: unknown) => {
      // ai 6 and later pass { toolCallId, input, output }; ai 5 passes the output itself and spells images "media".
      const modern = typeof arg === 'object' && arg !== null && 'toolCallId' in arg && 'output' in arg;
      const output = (modern ? (arg as { output: unknown }).output : arg) as ToolResult;
      const images: ImageSpelling = modern ? (FILE_PARTS ? 'file' : 'image-data') : 'media';
      return modelOutput(output, images);
    },
  } as Tool;
}

/**
 * Runs a call and yields its progress as preliminary outputs, then its result as the last one (the AI SDK takes
 * the last value an `execute` generator yields as the final output). Reports are states, so only the latest one
 * that has not been yielded yet is kept.
 */
async function* withProgress(
  run: (listener: (event: ProgressEvent) => void) => Promise<ToolResult>,
): AsyncGenerator<AiSdkToolOutput, AiSdkToolOutput | undefined> {
  let latest: ProgressEvent | undefined;
  let result: ToolResult | undefined;
  let settled = false;
  let wake: (() => void) | undefined;
  // A caller that rejects (a harness's own ToolCaller) ends the loop too: the rejection then reaches the SDK as a tool error.
  const done = run((event) => {
    latest = event;
    wake?.();
  })
    .then((value) => {
      result = value;
    })
    .finally(() => {
      settled = true;
      wake?.();
    });
  // Awaited after the loop, where its rejection reaches the SDK; this only keeps it from being unhandled meanwhile.
  done.catch(() => {});
  for (;;) {
    if (settled) break;
    if (latest) {
      const event = latest;
      latest = undefined;
      yield { content: [{ type: 'text', text: formatProgress(event) }], isError: false, progress: event };
      continue;
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  await done;
  yield result as ToolResult;
  return undefined;
}
