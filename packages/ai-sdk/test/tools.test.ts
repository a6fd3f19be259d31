import { errorResult, imagePart, textResult, toolSchema } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../src/index.js';
import { modelOutput } from '../src/model-output.js';
import { fixture, PNG } from './fixture.js';

type Executable = {
  description?: string;
  inputSchema: { jsonSchema: unknown };
  strict?: boolean;
  execute: (input: unknown, options: { toolCallId: string; messages: []; abortSignal?: AbortSignal }) => unknown;
};

/** Runs a tool of the set as the SDK would, collecting what its execute yields. */
async function execute(tool: Executable, input: unknown): Promise<unknown[]> {
  const run = tool.execute(input, { toolCallId: 'c1', messages: [] });
  const outputs: unknown[] = [];
  if (run && typeof run === 'object' && Symbol.asyncIterator in run) {
    for await (const output of run as AsyncIterable<unknown>) outputs.push(output);
  } else {
    outputs.push(await run);
  }
  return outputs;
}

describe('toAiSdkTools', () => {
  it("offers each tool of the surface with its description and the registry's JSON Schema", async () => {
    await using f = fixture();
    const tools = toAiSdkTools(f.registry);
    const names = f.registry.tools().map((t) => t.name);
    expect(Object.keys(tools)).toEqual(names);
    for (const definition of f.registry.tools()) {
      const tool = tools[definition.name] as unknown as Executable;
      expect(tool.description).toBe(definition.description);
      expect(await tool.inputSchema.jsonSchema).toEqual(toolSchema(definition).inputSchema);
      expect(tool.strict).toBeUndefined();
    }
  });

  it('in strict mode offers strict schemas, and a call with null for the optional arguments runs', async () => {
    await using f = fixture();
    const grep = toAiSdkTools(f.registry, { strict: true })['ast_grep'] as unknown as Executable;
    expect(grep.strict).toBe(true);
    const schema = (await grep.inputSchema.jsonSchema) as { required: string[] };
    const plain = toolSchema(f.registry.tools().find((t) => t.name === 'ast_grep') as never).inputSchema;
    const names = Object.keys(plain['properties'] as object);
    expect(names).toContain('max_results');
    expect(schema.required).toEqual(names); // every property required, the optional ones nullable
    const nulls = Object.fromEntries(names.map((name) => [name, null]));
    const outputs = await execute(grep, { ...nulls, pattern: 'console.log($A)', path: 'src', language: 'typescript' });
    expect(outputs.at(-1)).toMatchObject({ isError: false });
  });
});

describe('modelOutput', () => {
  it('sends text alone as text, and an error result as an error', () => {
    expect(modelOutput(textResult('two matches'), 'image-data')).toEqual({ type: 'text', value: 'two matches' });
    expect(modelOutput(errorResult('No such file.'), 'image-data')).toEqual({ type: 'error-text', value: 'No such file.' });
  });

  it('sends images as image parts in the spelling of the installed major', () => {
    const result = { content: [{ type: 'text' as const, text: 'Figure 1' }, imagePart('image/png', PNG)], isError: false };
    expect(modelOutput(result, 'media')).toEqual({
      type: 'content',
      value: [{ type: 'text', text: 'Figure 1' }, { type: 'media', data: PNG, mediaType: 'image/png' }],
    });
    expect(modelOutput(result, 'image-data')).toMatchObject({
      type: 'content',
      value: [{ type: 'text' }, { type: 'image-data', data: PNG, mediaType: 'image/png' }],
    });
    expect(JSON.stringify(modelOutput(result, 'file'))).toContain('{"type":"file","data":{"type":"data","data":"iVBOR');
  });

  it('names an image that cannot travel with an error instead of dropping it silently', () => {
    const result = { content: [{ type: 'text' as const, text: 'The cell failed.' }, imagePart('image/png', PNG)], isError: true };
    expect(modelOutput(result, 'image-data')).toEqual({
      type: 'error-text',
      value: 'The cell failed.\n(1 image left out of this error)',
    });
  });
});

describe('a caller that rejects', () => {
  it('the tool rejects too (the SDK reports a tool error), with progress on or off, instead of waiting forever', async () => {
    const schema = { name: 'probe', description: 'A probe.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } };
    const caller = { schemas: () => [schema], call: () => Promise.reject(new Error('the harness lost its registry')) };
    for (const progress of [true, false]) {
      const tool = toAiSdkTools(caller as never, { progress })['probe'] as unknown as Executable;
      const outcome = await Promise.race([
        execute(tool, {}).then(
          () => 'resolved',
          (error: Error) => error.message,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2000)),
      ]);
      expect(outcome).toBe('the harness lost its registry');
    }
  });
});
