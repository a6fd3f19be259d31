import { createRegistry, toolSchema } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, fixtureTools, newTrace, PNG, sessionRegistry } from './fixture.js';

const dir = tempDir({}, 'agent-tools-mcp-');
afterAll(() => dir.remove());

describe('tools/list', () => {
  it('answers from listTools without assembling the session; the first call assembles it, and answered() waits for it', async () => {
    const trace = newTrace();
    let assembled = 0;
    const make = sessionRegistry(dir.path, trace);
    const listed = [{ name: 'echo', inputSchema: { type: 'object' as const } }];
    await using link = await connect(
      (session) => {
        assembled++;
        return make(session);
      },
      { listTools: () => listed },
    );
    expect((await link.client.listTools()).tools).toEqual(listed);
    expect(assembled).toBe(0);
    await link.session.answered();
    const calling = link.client.callTool({ name: 'slow', arguments: { steps: 5 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The call counts five 30 ms steps: the next turn of the event loop finds it still being answered.
    const waiting = link.session.answered().then(() => 'answered');
    expect(await Promise.race([waiting, new Promise((resolve) => setImmediate(() => resolve('pending')))])).toBe('pending');
    expect(await waiting).toBe('answered');
    expect(assembled).toBe(1);
    expect((await calling).content).toEqual([{ type: 'text', text: 'counted to 5' }]);
  });

  it('lists the surface with the registry schemas, titles and tier annotations', async () => {
    const trace = newTrace();
    await using link = await connect(sessionRegistry(dir.path, trace));
    const { tools } = await link.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ask_user', 'echo', 'picture', 'touch', 'slow']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const [echo] = fixtureTools(dir.path, trace);
    expect(byName['echo']?.inputSchema).toEqual(toolSchema(echo as never).inputSchema);
    expect(byName['echo']?.description).toBe('Echoes its text.');
    expect(byName['ask_user']?.title).toBe('Ask the user');
    expect(byName['echo']?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName['touch']?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(byName['slow']?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('lists only read-tier tools on the plan surface, and answers a call to a write tool as an unknown tool', async () => {
    const trace = newTrace();
    await using link = await connect(sessionRegistry(dir.path, trace), { surface: 'plan' });
    const { tools } = await link.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ask_user', 'echo', 'picture']);
    const error = await link.client.callTool({ name: 'touch', arguments: { file: 'a' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    // The registry's own words: why it is not here, and what is.
    expect((error as McpError).message).toContain(
      'Unknown tool "touch": it is not available on the "plan" surface, which admits read-tier tools only (touch is write-tier). Do not retry it here.',
    );
    expect((error as McpError).message).toContain('The tools available here are: ask_user, echo, picture.');
    expect(trace.touched).toEqual([]);
  });
});

describe('tools/call', () => {
  it('answers text with structured content, images as image content, and bad arguments as an isError result', async () => {
    await using link = await connect(sessionRegistry(dir.path, newTrace()));
    const echo = await link.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(echo).toEqual({ content: [{ type: 'text', text: 'echo: hi' }], structuredContent: { echo: 'hi' } });
    const picture = await link.client.callTool({ name: 'picture', arguments: {} });
    expect(picture.content).toEqual([{ type: 'text', text: 'a dot' }, { type: 'image', mimeType: 'image/png', data: PNG }]);
    const bad = await link.client.callTool({ name: 'echo', arguments: { text: 3 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('text');
    const unknown = await link.client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('sends progress notifications for a request with a progress token, growing each time', async () => {
    await using link = await connect(sessionRegistry(dir.path, newTrace()));
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await link.client.callTool({ name: 'slow', arguments: { steps: 5 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 5' }]);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]).toMatchObject({ progress: 1, total: 5, message: 'slow: step 1 (20%)' });
    for (let i = 1; i < seen.length; i++) expect((seen[i]?.progress ?? 0) > (seen[i - 1]?.progress ?? 0)).toBe(true);
  });

  it('aborts a call on notifications/cancelled, and the next call runs', async () => {
    const trace = newTrace();
    await using link = await connect(sessionRegistry(dir.path, trace));
    const controller = new AbortController();
    const call = link.client.callTool({ name: 'slow', arguments: { steps: 1000 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('enough'),
    });
    await expect(call).rejects.toThrow();
    await expect.poll(() => trace.cancelled).toBe(1);
    const next = await link.client.callTool({ name: 'slow', arguments: { steps: 1 } });
    expect(next.content).toEqual([{ type: 'text', text: 'counted to 1' }]);
  });

  it('appends a notice posted between calls to the next result of that session only', async () => {
    const a = createRegistry({ tools: fixtureTools(dir.path, newTrace()) });
    const b = createRegistry({ tools: fixtureTools(dir.path, newTrace()) });
    await using one = await connect(a);
    await using two = await connect(b);
    a.notices.post({ text: 'worker w1 finished', heading: 'Background:' });
    const other = await two.client.callTool({ name: 'echo', arguments: { text: 'b' } });
    expect(JSON.stringify(other.content)).not.toContain('w1');
    const first = await one.client.callTool({ name: 'echo', arguments: { text: 'a' } });
    expect(first.content).toEqual([
      { type: 'text', text: 'echo: a' },
      { type: 'text', text: 'Background:\nworker w1 finished' },
    ]);
    const again = await one.client.callTool({ name: 'echo', arguments: { text: 'a' } });
    expect(again.content).toHaveLength(1);
  });

  it('disposes a registry it made when the session ends, and leaves a given one alone', async () => {
    const trace = newTrace();
    const link = await connect(sessionRegistry(dir.path, trace));
    await link.client.listTools();
    await link.client.close();
    await link.session.closed;
    expect(trace.disposed).toBe(1);

    const given = createRegistry({ tools: fixtureTools(dir.path, newTrace()) });
    const other = await connect(given);
    await other.client.close();
    await other.session.closed;
    expect(given.disposed).toBe(false);
  });
});

describe('ask_user through elicitation', () => {
  const question = {
    question: 'Which database?',
    context: 'The schema depends on it.',
    options: [{ label: 'SQLite', description: 'a file' }, { label: 'Postgres' }],
    recommended: 'SQLite',
  };

  async function ask(answer: (params: unknown) => unknown, args: unknown = question, timeoutMs = 5000) {
    const link = await connect(sessionRegistry(dir.path, newTrace(), timeoutMs), {}, { elicitation: { form: {} } });
    const asked: unknown[] = [];
    link.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer(request.params) as never;
    });
    const result = await link.client.callTool({ name: 'ask_user', arguments: args as Record<string, unknown> });
    await link.client.close();
    return { result, asked, text: (result.content as { text: string }[]).map((c) => c.text).join('\n') };
  }

  it('shows one question as a form with the options as an enum, and returns the answer', async () => {
    const { result, asked, text } = await ask(() => ({ action: 'accept', content: { q1: 'Postgres' } }));
    expect(asked).toEqual([
      {
        mode: 'form',
        message: 'Which database?\n\nThe schema depends on it.\n\nLeave it empty, or decline, to skip it.',
        requestedSchema: {
          type: 'object',
          properties: {
            q1: { type: 'string', title: 'Which database?', description: 'SQLite: a file\nRecommended: SQLite.', enum: ['SQLite', 'Postgres'] },
          },
        },
      },
    ]);
    expect(result.isError).toBeFalsy();
    expect(text).toBe('The user chose "Postgres".');
  });

  it('puts several questions on one form, each skippable, with free text and multiple choice', async () => {
    const args = {
      questions: [
        { question: 'Which checks?', options: [{ label: 'lint' }, { label: 'test' }, { label: 'types' }], multi_select: true },
        { question: 'Anything else?' },
        { question: 'Deploy?', options: [{ label: 'yes' }, { label: 'no' }], allow_free_text: true },
      ],
    };
    const { asked, text } = await ask(() => ({ action: 'accept', content: { q1: ['lint', 'types'], q3_text: 'only on Fridays' } }), args);
    const schema = (asked[0] as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;
    expect(Object.keys(schema.properties)).toEqual(['q1', 'q2', 'q3', 'q3_text']);
    expect(schema.properties['q1']).toMatchObject({ type: 'array', items: { type: 'string', enum: ['lint', 'test', 'types'] } });
    expect(text).toContain('The user answered 2 of 3 questions on the card:');
    expect(text).toContain('1. Which checks? → chose 2 options: "lint", "types".');
    expect(text).toContain('2. Anything else? → skipped.');
    expect(text).toContain('3. Deploy? → wrote: "only on Fridays".');
    expect(text).toContain('For the skipped question 2: Proceed on a clearly stated assumption');
  });

  it.each([
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
    ['an empty form', { action: 'accept', content: {} }],
  ])('takes %s as a skip: success, proceed on the recommended option', async (_, answer) => {
    const { result, text } = await ask(() => answer);
    expect(result.isError).toBeFalsy();
    expect(text).toContain('The user skipped this question without answering.');
    expect(text).toContain('You recommended "SQLite": assume it');
  });

  it('times out when the client never answers, with the timeout instruction, and withdraws the form', async () => {
    const { result, text } = await ask(() => new Promise(() => {}), question, 300);
    expect(result.isError).toBe(true);
    expect(text).toContain('Nobody answered within 300 ms, so the question timed out.');
  });

  it('fails closed at once when the client has no elicitation capability', async () => {
    await using link = await connect(sessionRegistry(dir.path, newTrace()));
    const result = await link.client.callTool({ name: 'ask_user', arguments: question });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('the MCP client did not declare the elicitation capability');
  });

  it('reports an elicitation answer that breaks the form as a failure, not an answer', async () => {
    const { result, text } = await ask(() => ({ action: 'accept', content: { q1: 'MySQL' } }));
    expect(result.isError).toBe(true);
    expect(text).toContain('could not be asked');
  });
});

describe('approval', () => {
  async function touch(approval: 'client' | 'elicit' | 'yes', answer?: unknown) {
    const trace = newTrace();
    const capabilities = answer === undefined ? {} : { elicitation: {} };
    const link = await connect(sessionRegistry(dir.path, trace), { approval }, capabilities);
    const asked: unknown[] = [];
    if (answer !== undefined) {
      link.client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return answer as never;
      });
    }
    const result = await link.client.callTool({ name: 'touch', arguments: { file: 'approved.txt' } });
    await link.client.close();
    return { result, trace, asked, text: JSON.stringify(result.content) };
  }

  it('client and yes run write calls without asking', async () => {
    expect((await touch('client')).trace.touched).toEqual(['approved.txt']);
    expect((await touch('yes')).trace.touched).toEqual(['approved.txt']);
  });

  it('elicit asks on a permission form and runs the call when allowed', async () => {
    const { trace, asked } = await touch('elicit', { action: 'accept', content: { q1: 'Allow once' } });
    expect((asked[0] as { message: string }).message).toContain('Allow touch on approved.txt?');
    expect(trace.touched).toEqual(['approved.txt']);
  });

  it('elicit refuses when the human denies, declines, or the client cannot elicit', async () => {
    const denied = await touch('elicit', { action: 'accept', content: { q1: 'Deny', q1_text: 'not now' } });
    expect(denied.result.isError).toBe(true);
    expect(denied.text).toContain('not now');
    const declined = await touch('elicit', { action: 'decline' });
    expect(declined.result.isError).toBe(true);
    const trace = newTrace();
    await using link = await connect(sessionRegistry(dir.path, trace), { approval: 'elicit' });
    const result = await link.client.callTool({ name: 'touch', arguments: { file: 'x' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('elicitation capability');
    expect([...denied.trace.touched, ...declined.trace.touched, ...trace.touched]).toEqual([]);
  });
});
