import * as aiTest from 'ai/test';

/** One turn of the scripted model: the tool calls it makes, or the text it ends with. */
export type Turn = { readonly calls: readonly { readonly tool: string; readonly input: unknown }[] } | { readonly text: string };

/** What the model was handed at one step: the prompt and the names of the tools it was offered. */
export interface Step {
  readonly prompt: readonly PromptMessage[];
  readonly tools: readonly string[];
}

/** A prompt message, as far as these tests read it. */
export interface PromptMessage {
  readonly role: string;
  readonly content: unknown;
}

type CallOptions = { prompt: PromptMessage[]; tools?: { name: string }[] };
type MockConstructor = new (settings: {
  doGenerate: (options: CallOptions) => Promise<unknown>;
  doStream: (options: CallOptions) => Promise<unknown>;
}) => { readonly specificationVersion: string };

// `ai/test` is aliased per vitest project to ai 5, 6 or 7; each has the mock of its own model specification.
const mocks = aiTest as unknown as Record<string, MockConstructor | undefined>;
const Mock = (mocks['MockLanguageModelV4'] ?? mocks['MockLanguageModelV3'] ?? mocks['MockLanguageModelV2']) as MockConstructor;

/**
 * The SDK's own mock language model, playing a script: turn by turn it makes the given tool calls (or answers
 * with text), through `doGenerate` for `generateText` and `doStream` for `streamText`. Records every step.
 */
export function scriptedModel(turns: readonly Turn[]) {
  const steps: Step[] = [];
  let next = 0;
  let v2 = false;
  const turnFor = (options: CallOptions): Turn => {
    steps.push({ prompt: options.prompt, tools: (options.tools ?? []).map((t) => t.name) });
    return turns[next++] ?? { text: 'done' };
  };
  const finishReason = (reason: 'stop' | 'tool-calls') => (v2 ? reason : { unified: reason, raw: reason });
  const usage = () =>
    v2
      ? { inputTokens: 1, outputTokens: 1, totalTokens: 2 }
      : {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        };
  const content = (turn: Turn, step: number) =>
    'text' in turn
      ? [{ type: 'text', text: turn.text }]
      : turn.calls.map((call, i) => ({
          type: 'tool-call',
          toolCallId: `call-${step}-${i}`,
          toolName: call.tool,
          input: JSON.stringify(call.input),
        }));
  const model = new Mock({
    doGenerate: async (options) => {
      const turn = turnFor(options);
      return {
        content: content(turn, steps.length),
        finishReason: finishReason('text' in turn ? 'stop' : 'tool-calls'),
        usage: usage(),
        warnings: [],
      };
    },
    doStream: async (options) => {
      const turn = turnFor(options);
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      if ('text' in turn) {
        parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: turn.text }, { type: 'text-end', id: 't' });
      } else {
        parts.push(...content(turn, steps.length));
      }
      parts.push({ type: 'finish', finishReason: finishReason('text' in turn ? 'stop' : 'tool-calls'), usage: usage() });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  v2 = model.specificationVersion === 'v2';
  return { model, steps, specification: model.specificationVersion };
}

/** The tool results the model was handed in a step's prompt, by tool call id. */
export function toolResults(step: Step | undefined): Map<string, { toolName: string; output: unknown }> {
  const results = new Map<string, { toolName: string; output: unknown }>();
  for (const message of step?.prompt ?? []) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; toolName: string; output: unknown }[]) {
      if (part.type === 'tool-result') results.set(part.toolCallId, { toolName: part.toolName, output: part.output });
    }
  }
  return results;
}
