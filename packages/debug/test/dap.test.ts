import { PassThrough } from 'node:stream';
import { ContentLengthReader, encodeContentLength } from '@agent-tools/core/process';
import { describe, expect, it } from 'vitest';
import { type CloseReason, describeAdapterClose, describeClose } from '../src/dap/close-reason.js';
import { DapConnection } from '../src/dap/connection.js';
import { isDebugError } from '../src/errors.js';

/** A connection wired to a scripted adapter on the other end of two pipes. */
function pair(requestTimeoutMs = 1000) {
  const toAdapter = new PassThrough();
  const fromAdapter = new PassThrough();
  const connection = new DapConnection(fromAdapter, toAdapter, { name: 'scripted', requestTimeoutMs });
  const received: { seq: number; command?: string; type: string; success?: boolean; message?: string }[] = [];
  const reader = new ContentLengthReader({ message: (m) => received.push(m as never), malformed: () => undefined });
  toAdapter.on('data', (chunk: Buffer) => reader.push(chunk));
  const send = (message: object) => fromAdapter.write(encodeContentLength(message));
  return { connection, received, send, fromAdapter };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('DapConnection', () => {
  it('resolves a request with its body and delivers events', async () => {
    const { connection, received, send } = pair();
    const events: string[] = [];
    connection.onEvent((e) => events.push(e.event));
    const threads = connection.request('threads', undefined);
    await tick();
    expect(received[0]).toMatchObject({ seq: 1, type: 'request', command: 'threads' });
    send({ seq: 1, type: 'event', event: 'stopped', body: { reason: 'pause' } });
    send({ seq: 2, type: 'response', request_seq: 1, command: 'threads', success: true, body: { threads: [{ id: 1, name: 'main' }] } });
    expect(await threads).toEqual({ threads: [{ id: 1, name: 'main' }] });
    expect(events).toEqual(['stopped']);
  });

  it('turns a failed response into a sentence with the formatted error', async () => {
    const { connection, send } = pair();
    const evaluated = connection.request('evaluate', { expression: 'x' });
    await tick();
    send({
      seq: 1,
      type: 'response',
      request_seq: 1,
      command: 'evaluate',
      success: false,
      message: 'evaluate failed',
      body: { error: { id: 1, format: 'name {name} is not defined', variables: { name: 'x' } } },
    });
    await expect(evaluated).rejects.toThrow('The scripted adapter refused "evaluate": evaluate failed: name x is not defined');
  });

  it('times out a request nobody answers', async () => {
    const { connection } = pair(50);
    const error = await connection.request('threads', undefined).catch((e: unknown) => e);
    expect(isDebugError(error, 'request_timeout')).toBe(true);
    expect((error as Error).message).toBe('[agent-tools/debug] The scripted adapter did not answer "threads" within 50 ms.');
  });

  it('fails pending and later requests once the adapter closes the stream', async () => {
    const { connection, fromAdapter } = pair();
    const pending = connection.request('threads', undefined);
    fromAdapter.end();
    await expect(pending).rejects.toThrow('The scripted adapter cannot answer "threads": it closed the connection.');
    await expect(connection.request('threads', undefined)).rejects.toThrow('it closed the connection');
    expect(connection.closeReason).toEqual({ kind: 'eof' });
  });

  it('says why it closed as a typed reason, and the first reason wins', async () => {
    const { connection, fromAdapter } = pair();
    const heard: unknown[] = [];
    connection.onClose((reason) => heard.push(reason));
    fromAdapter.destroy(new Error('ECONNRESET'));
    await tick();
    expect(connection.closeReason).toEqual({ kind: 'stream_error', detail: 'ECONNRESET' });
    expect(heard).toEqual([connection.closeReason]);
    connection.close({ kind: 'ended' });
    expect(connection.closeReason?.kind).toBe('stream_error');
  });

  it('words each reason for the model, naming the adapter once', () => {
    const reasons: CloseReason[] = [
      { kind: 'eof' },
      { kind: 'malformed', detail: 'bad header' },
      { kind: 'stream_error', detail: 'ECONNRESET' },
      { kind: 'exited', detail: 'the debugpy adapter exited with code 1' },
      { kind: 'ended' },
    ];
    expect(reasons.map(describeClose)).toEqual([
      'it closed the connection',
      'it sent a malformed message (bad header)',
      'the connection failed (ECONNRESET)',
      'the debugpy adapter exited with code 1',
      'the session was ended',
    ]);
    expect(reasons.map((r) => describeAdapterClose('debugpy', r))).toEqual([
      'the debugpy adapter closed the connection',
      'the debugpy adapter sent a malformed message (bad header)',
      'the connection to the debugpy adapter failed (ECONNRESET)',
      'the debugpy adapter exited with code 1',
      'the session was ended',
    ]);
  });

  it('survives an adapter that prints stray lines and a header without a length: the session goes on', async () => {
    const { connection, send, fromAdapter } = pair();
    const events: string[] = [];
    connection.onEvent((e) => events.push(e.event));
    const threads = connection.request('threads', undefined);
    await tick();
    fromAdapter.write('adapter: loading symbols...\n');
    send({ seq: 1, type: 'event', event: 'output', body: { output: 'x' } });
    fromAdapter.write('Content-Type: text/plain\r\n\r\nnot framed\n');
    send({ seq: 2, type: 'response', request_seq: 1, command: 'threads', success: true, body: { threads: [] } });
    expect(await threads).toEqual({ threads: [] });
    expect(events).toEqual(['output']);
    expect(connection.closeReason).toBeUndefined();
  });

  it('ends the connection on a framed body that is not JSON: the adapter itself is broken', async () => {
    const { connection, fromAdapter } = pair();
    const pending = connection.request('threads', undefined);
    fromAdapter.write('Content-Length: 5\r\n\r\n{oops');
    await expect(pending).rejects.toThrow(/The scripted adapter cannot answer "threads": it sent a malformed message \(a message body is not JSON/);
    expect(connection.closeReason?.kind).toBe('malformed');
  });

  it('declines reverse requests instead of leaving the adapter waiting', async () => {
    const { received, send } = pair();
    send({ seq: 9, type: 'request', command: 'runInTerminal', arguments: { args: ['python'] } });
    await tick();
    expect(received[0]).toMatchObject({ type: 'response', request_seq: 9, command: 'runInTerminal', success: false });
  });
});
