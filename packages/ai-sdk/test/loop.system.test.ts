import { readFileSync } from 'node:fs';
import { waitUntil } from '@agent-tools/test-utils';
import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../src/index.js';
import type { AiSdkToolOutput } from '../src/to-ai-sdk-tools.js';
import { fixture, PNG } from './fixture.js';
import { scriptedModel, type Turn, toolResults } from './scripted-model.js';

type Model = ReturnType<typeof scriptedModel>['model'];
interface StreamPart {
  readonly type: string;
  readonly preliminary?: boolean;
  readonly output?: unknown;
  readonly toolName?: string;
}

/** One agent loop, run either way the SDK offers; the parts a stream produced are kept. */
const loops = {
  async generateText(model: Model, tools: ToolSet, abortSignal?: AbortSignal) {
    const result = await generateText({ model: model as never, tools, prompt: 'Go.', stopWhen: stepCountIs(5), ...(abortSignal ? { abortSignal } : {}) });
    return { text: result.text, parts: [] as StreamPart[] };
  },
  async streamText(model: Model, tools: ToolSet, abortSignal?: AbortSignal) {
    const result = streamText({ model: model as never, tools, prompt: 'Go.', stopWhen: stepCountIs(5), ...(abortSignal ? { abortSignal } : {}) });
    const parts: StreamPart[] = [];
    for await (const part of result.fullStream) parts.push(part as StreamPart);
    return { text: await result.text, parts };
  },
};

describe.each(Object.keys(loops) as (keyof typeof loops)[])('a full %s loop', (kind) => {
  const loop = loops[kind];

  it('calls tools of several packages; text, images and errors reach the model as such', async () => {
    await using f = fixture();
    const turns: Turn[] = [
      {
        calls: [
          { tool: 'ast_grep', input: { pattern: 'console.log($A)', path: 'src', language: 'typescript' } },
          { tool: 'ask_user', input: { question: 'Which language?', options: [{ label: 'TypeScript' }, { label: 'Go' }] } },
          { tool: 'vibe_spawn', input: { brief: 'Count the exports', label: 'exports', tier: 'fast' } },
          { tool: 'snapshot', input: {} },
          { tool: 'ast_grep', input: { pattern: 'console.log($A)', max_results: 'many' } },
        ],
      },
      { text: 'All done.' },
    ];
    const { model, steps } = scriptedModel(turns);
    const { text } = await loop(model, toAiSdkTools(f.registry, { conversationId: 'conv-1' }));
    expect(text).toBe('All done.');
    expect(steps[0]?.tools).toEqual(expect.arrayContaining(['ast_grep', 'ast_edit', 'ask_user', 'vibe_spawn', 'snapshot']));

    const results = toolResults(steps[1]);
    expect(results.size).toBe(5);
    const grep = results.get('call-1-0')?.output as { type: string; value: string };
    expect(grep.type).toBe('text');
    expect(grep.value).toContain('src/app.ts');
    expect(grep.value).toContain('console.log("hi " + name)');
    expect(results.get('call-1-1')?.output).toMatchObject({ type: 'text', value: expect.stringContaining('TypeScript') });
    expect(results.get('call-1-2')?.output).toMatchObject({ type: 'text', value: expect.stringMatching(/exports/) });

    // The image is an image part beside the text, never base64 inside text.
    const shot = results.get('call-1-3')?.output as { type: string; value: Record<string, unknown>[] };
    expect(shot.type).toBe('content');
    expect(shot.value[0]).toEqual({ type: 'text', text: 'The app after login:' });
    expect(imageOf(shot.value[1])).toEqual({ data: PNG, mediaType: 'image/png' });

    // The invalid argument comes back as an error, with the registry's message naming the field.
    const invalid = results.get('call-1-4')?.output as { type: string; value: string };
    expect(invalid.type).toBe('error-text');
    expect(invalid.value).toContain('Invalid arguments for ast_grep');
    expect(invalid.value).toContain('`max_results`');
    expect(JSON.stringify([...results.values()])).not.toContain('"isError"'); // no result object sent as JSON
  });

  it('offers a plan surface only its tools; a call to a tool absent there is an error and nothing runs', async () => {
    await using f = fixture();
    const before = readFileSync(f.dir.join('src/app.ts'), 'utf8');
    const { model, steps } = scriptedModel([
      { calls: [{ tool: 'ast_edit', input: { pattern: 'console.log($A)', rewrite: 'logger.info($A)', path: 'src', language: 'typescript' } }] },
      { text: 'Cannot edit in plan mode.' },
    ]);
    const tools = toAiSdkTools(f.registry, { surface: 'plan' });
    expect(Object.keys(tools)).not.toContain('ast_edit');
    await loop(model, tools);
    expect(steps[0]?.tools).toContain('ast_grep');
    expect(steps[0]?.tools.filter((name) => ['ast_edit', 'resolve'].includes(name))).toEqual([]);
    const output = toolResults(steps[1]).get('call-1-0')?.output as { type: string; value: unknown };
    expect(output.type).toMatch(/^error-/);
    expect(JSON.stringify(output.value)).toContain('ast_edit');
    expect(f.seen.approvals).toEqual([]);
    expect(readFileSync(f.dir.join('src/app.ts'), 'utf8')).toBe(before);
  });

  it("asks the registry's approval callback once for a write call, and adds no approval step of its own", async () => {
    await using f = fixture();
    const { model, steps } = scriptedModel([
      { calls: [{ tool: 'ast_edit', input: { pattern: 'console.log($A)', rewrite: 'logger.info($A)', path: 'src', language: 'typescript' } }] },
      { text: 'Staged.' },
    ]);
    const { parts } = await loop(model, toAiSdkTools(f.registry));
    expect(f.seen.approvals.map((a) => [a.tool, a.tier, a.bridged])).toEqual([['ast_edit', 'write', false]]);
    expect(parts.filter((p) => p.type.includes('approval'))).toEqual([]);
    const output = toolResults(steps[1]).get('call-1-0')?.output as { type: string; value: string };
    expect(output.type).toBe('text');
    expect(output.value).toMatch(/edit_\d+/);
  });

  it('forwards the abort signal: aborting the loop cancels the call in the registry', async () => {
    await using f = fixture({ release: new Promise(() => {}) });
    const { model } = scriptedModel([{ calls: [{ tool: 'slow', input: { steps: 1 } }] }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed stop')), 150);
    await loop(model, toAiSdkTools(f.registry), controller.signal).catch(() => undefined);
    await waitUntil(() => f.seen.slowAborted !== undefined);
    expect(f.seen.slowAborted).toBeDefined();
  });
});

describe('a real image and real progress', () => {
  it("an eval cell's matplotlib figure reaches the model as an image part", { timeout: 90_000 }, async () => {
    await using f = fixture();
    const code = 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [2, 4, 1])\nplt.show()';
    const { model, steps } = scriptedModel([
      { calls: [{ tool: 'eval', input: { code, description: 'Plot three points as a line chart' } }] },
      { text: 'Plotted.' },
    ]);
    await loops.generateText(model, toAiSdkTools(f.registry));
    const output = toolResults(steps[1]).get('call-1-0')?.output as { type: string; value: Record<string, unknown>[] };
    expect(output.type).toBe('content');
    const image = output.value.map(imageOf).find((i) => i?.mediaType === 'image/png');
    expect(String(image?.data).slice(0, 8)).toBe('iVBORw0K'); // a PNG, base64, as an image part
  });

  it("vibe_wait's reports of a running worker stream as preliminary results", async () => {
    await using f = fixture();
    const { model, steps } = scriptedModel([
      { calls: [{ tool: 'vibe_spawn', input: { brief: 'Count the exports', label: 'exports', tier: 'fast' } }] },
      { calls: [{ tool: 'vibe_wait', input: { worker_id: 'exports' } }] },
      { text: 'Waited.' },
    ]);
    const { parts } = await loops.streamText(model, toAiSdkTools(f.registry));
    // The SDK repeats every call's final output once as a preliminary one; the progress reports come before it.
    const reports = parts
      .filter((p) => p.type === 'tool-result' && p.preliminary && p.toolName === 'vibe_wait')
      .map((p) => (p.output as AiSdkToolOutput).progress)
      .filter((progress) => progress !== undefined);
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(reports[0]).toMatchObject({ tool: 'vibe_wait', output: expect.stringMatching(/worker exports: step \d/) });
    expect(toolResults(steps[2]).get('call-2-0')?.output).toMatchObject({ type: 'text', value: expect.stringContaining('finished: Count the exports') });
  });
});

describe('progress as preliminary tool results', () => {
  it('streams the progress of a long call while it runs; the model reads only the final result', async () => {
    let release!: () => void;
    await using f = fixture({ release: new Promise((r) => (release = r)) });
    const { model, steps } = scriptedModel([{ calls: [{ tool: 'slow', input: { steps: 3 } }] }, { text: 'Built.' }]);
    const tools = toAiSdkTools(f.registry);
    const parts: StreamPart[] = [];
    const result = streamText({ model: model as never, tools, prompt: 'Build.', stopWhen: stepCountIs(3) });
    for await (const part of result.fullStream) {
      parts.push(part as StreamPart);
      if (part.type === 'tool-result' && (part as StreamPart).preliminary) setTimeout(release, 300);
    }
    const results = parts.filter((p) => p.type === 'tool-result');
    const preliminary = results.filter((p) => p.preliminary).map((p) => p.output as AiSdkToolOutput);
    expect(preliminary.length).toBeGreaterThanOrEqual(1);
    expect(preliminary[0]?.progress).toMatchObject({ tool: 'slow', message: 'compiling module 1', progress: 1, total: 3 });
    expect(preliminary[0]?.content).toEqual([{ type: 'text', text: 'slow: compiling module 1 (33%)' }]);
    const final = results.filter((p) => !p.preliminary);
    expect(final).toHaveLength(1);
    expect(final[0]?.output).toEqual({ content: [{ type: 'text', text: 'built 3 modules' }], isError: false });
    expect(toolResults(steps[1]).get('call-1-0')?.output).toEqual({ type: 'text', value: 'built 3 modules' });
  });

  it('can be turned off: one result per call', async () => {
    await using f = fixture();
    const { model } = scriptedModel([{ calls: [{ tool: 'slow', input: { steps: 2 } }] }, { text: 'Built.' }]);
    const { parts } = await loops.streamText(model, toAiSdkTools(f.registry, { progress: false }));
    expect(parts.filter((p) => p.type === 'tool-result').map((p) => p.preliminary ?? false)).toEqual([false]);
  });
});

/** The data and media type of an image part, however the installed major spells it. */
function imageOf(part: Record<string, unknown> | undefined): { data: unknown; mediaType: unknown } | undefined {
  if (!part) return undefined;
  if (part['type'] === 'media' || part['type'] === 'image-data') return { data: part['data'], mediaType: part['mediaType'] };
  if (part['type'] === 'file' || part['type'] === 'file-data') {
    const data = part['data'] as { type?: string; data?: unknown } | string;
    return { data: typeof data === 'string' ? data : data.data, mediaType: part['mediaType'] };
  }
  return { data: part, mediaType: undefined };
}

