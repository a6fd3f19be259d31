import { writeFileSync } from 'node:fs';
import { formatProgress, type ProgressEvent } from '@agent-tools/core';
import { isKeeper, processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LspSupervisorOptions } from '../src/index.js';
import { fakeServer, type Run, startRun, text } from './helpers.js';

interface Script {
  readonly [key: string]: unknown;
}

const scripts = tempDir({}, 'agent-tools-fake-');
afterAll(() => scripts.remove());
let runs: Run[] = [];

afterEach(async () => {
  for (const run of runs) await run[Symbol.asyncDispose]();
  runs = [];
});

/** A run whose only server is the fake one, scripted; the script's path marks its processes. */
function fakeRun(script: Script, options: Partial<LspSupervisorOptions> = {}, budgetMs?: number): { run: Run; marker: string } {
  const marker = scripts.join(`script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(marker, JSON.stringify({ capabilities: { hoverProvider: true, textDocumentSync: 1 }, ...script }));
  const run = startRun(
    { 'fake.json': '{}', 'a.fake': 'hello world\n' },
    { builtins: false, servers: [fakeServer(marker)], ...options },
    budgetMs,
  );
  runs.push(run);
  return { run, marker };
}

const hover = { action: 'hover', file: 'a.fake', line: 1, symbol: 'world' };

describe('faults of a language server (scripted fake server process)', () => {
  it('a crash fails the call in flight, and the next call restarts the server and says so', async () => {
    const once = scripts.join(`crashed-${Date.now()}`);
    const { run } = fakeRun({ methods: { 'textDocument/hover': { crashOnceFile: once, code: 3, reply: { contents: 'answer after restart' } } } });
    const crashed = await run.lsp(hover);
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toContain('fake-server (root .) stopped while a request was in flight: it exited with code 3');
    expect(text(crashed)).toContain('fake server: crashing as scripted');
    expect(text(crashed)).toContain('It will be restarted on the next call.');
    const pid = run.supervisor.running()[0]?.pid;
    expect(pid).toBeUndefined();

    const answered = await run.lsp(hover);
    expect(answered.isError).toBe(false);
    expect(text(answered)).toContain('answer after restart');
    expect(text(answered)).toMatch(/Note: fake-server \(root \.\) had stopped unexpectedly \(it exited with code 3[^\n]*\); it was restarted for this call \(new pid \d+\)/);
    const status = await run.lsp({ action: 'status' });
    expect(text(status)).toContain('started 2 times');
  });

  it('a hanging request times out with a message naming the server, and the server keeps serving', async () => {
    const { run } = fakeRun(
      { methods: { 'textDocument/hover': [{ hang: true }, { reply: { contents: 'second answer' } }] } },
      { requestTimeoutMs: 400 },
    );
    const hung = await run.lsp(hover);
    expect(hung.isError).toBe(true);
    expect(text(hung)).toContain('fake-server (root .) did not answer textDocument/hover within 400 ms.');
    expect(text(hung)).toContain('call lsp with action "reload" if it keeps hanging');
    const next = await run.lsp(hover);
    expect(text(next)).toContain('second answer');
  });

  it('garbage, bodies that are not JSON and headers without a length are skipped', async () => {
    const { run } = fakeRun({
      methods: { 'textDocument/hover': { garbage: 'this is a log line on stdout\n', badJson: 2, noLength: true, reply: { contents: 'clean answer' } } },
    });
    const result = await run.lsp(hover);
    expect(text(result)).toBe('clean answer');
    expect(run.supervisor.running()[0]?.malformed.count).toBeGreaterThanOrEqual(3);
    expect(text(await run.lsp(hover))).toBe('clean answer');
  });

  it('a flood of notifications is absorbed with bounded memory', async () => {
    const { run } = fakeRun({ methods: { 'textDocument/hover': { flood: 20_000, floodSize: 2000, reply: { contents: 'after the flood' } } } });
    const result = await run.lsp(hover);
    expect(text(result)).toBe('after the flood');
    expect(run.supervisor.running()[0]?.log.length).toBeLessThanOrEqual(100);
  });

  it('an oversized message is skipped without being buffered', async () => {
    const { run } = fakeRun(
      { methods: { 'textDocument/hover': { oversize: 3_000_000, reply: { contents: 'small answer' } } } },
      { framing: { maxMessageBytes: 1_000_000 } },
    );
    const result = await run.lsp(hover);
    expect(text(result)).toBe('small answer');
    expect(run.supervisor.running()[0]?.malformed.last).toContain('a message of 3000000 bytes exceeds the limit of 1000000 bytes');
  });

  it('a server that keeps sending malformed output is killed and restarted on the next call', async () => {
    const { run, marker } = fakeRun(
      {
        stateFile: scripts.join(`malformed-${Date.now()}`),
        methods: { 'textDocument/hover': { badJson: 20 } },
        afterRestart: { methods: { 'textDocument/hover': { reply: { contents: 'fresh server' } } } },
      },
      { maxMalformed: 5 },
    );
    const first = await run.lsp(hover);
    expect(first.isError).toBe(true);
    expect(text(first)).toContain('it sent more than 5 malformed messages within 10 s');
    expect(await waitForNoProcesses(marker, 5000)).toEqual([]);
    const second = await run.lsp(hover);
    expect(text(second)).toContain('fresh server');
  });

  it('an initialize that hangs fails the start within the start timeout and leaves no process', async () => {
    const { run, marker } = fakeRun({ initialize: { hang: true } }, { startTimeoutMs: 500 });
    const result = await run.lsp(hover);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('fake-server (root .) could not be started: fake-server (root .) did not answer initialize within 500 ms.');
    expect(await waitForNoProcesses(marker, 5000)).toEqual([]);
  });

  it('a server that exits at start reports its exit code and stderr', async () => {
    const { run } = fakeRun({ initialize: { crash: 2 } });
    const result = await run.lsp(hover);
    expect(text(result)).toContain('fake-server (root .) could not be started: exited with code 2');
  });

  it('stops restarting after repeated crashes until reload', async () => {
    const { run } = fakeRun({ methods: { 'textDocument/hover': { crash: 4 } } }, { maxCrashes: 2 });
    await run.lsp(hover);
    await run.lsp(hover);
    const third = await run.lsp(hover);
    expect(third.isError).toBe(true);
    expect(text(third)).toContain('fake-server (root .) failed 2 times in the last 5 minutes');
    expect(text(third)).toContain('Call lsp with action "reload"');
    const reload = await run.lsp({ action: 'reload', file: 'a.fake' });
    expect(text(reload)).toMatch(/^fake-server \(root \.\) started: pid \d+ \(it was not running\)\.$/);
  });

  it('a slow shutdown (no answer, SIGTERM ignored) is killed with its children on dispose', async () => {
    const { run, marker } = fakeRun(
      { shutdown: 'hang', ignoreSigterm: true, ignoreStdinEnd: true, spawnChild: true, methods: { 'textDocument/hover': { reply: { contents: 'up' } } } },
      { shutdownGraceMs: 300 },
    );
    expect(text(await run.lsp(hover))).toBe('up');
    expect(processesMatching(marker).filter((p) => !isKeeper(p)).length).toBe(2);
    const started = Date.now();
    await run.registry.dispose();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waitForNoProcesses(marker, 5000)).toEqual([]);
  });

  it('diagnostics that miss the inline budget are pending, never clean, and arrive with a later call', async () => {
    const { run } = fakeRun(
      {
        publishOnSync: [{ range: { start: { line: 0, character: 6 }, end: { line: 0, character: 11 } }, severity: 1, message: 'late problem', code: 'F1' }],
        publishDelayMs: 1500,
      },
      {},
      300,
    );
    const write = await run.call('write', { path: 'b.fake', content: 'hello world\n' });
    expect(text(write)).toContain('Diagnostics of b.fake are still pending');
    expect(text(write)).toContain('Do not assume the file is clean.');
    expect(text(write)).not.toContain('No new diagnostics');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const later = await run.lsp({ action: 'status' });
    expect(text(later)).toContain('Late diagnostics from an earlier write:');
    expect(text(later)).toContain('1:7 error F1: late problem');
  });

  it('waits for the publish of the version just written, not an older one', async () => {
    const { run } = fakeRun({
      publishOnSync: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, severity: 2, message: 'seen', code: 'W' }],
    });
    const write = await run.call('write', { path: 'c.fake', content: 'first\n' });
    expect(text(write)).toContain('1:1 warning W: seen');
    const second = await run.call('write', { path: 'c.fake', content: 'second\n' });
    expect(text(second)).toContain('No new diagnostics in c.fake.');
  });

  it('for a server that publishes without versions, waits out several passes and keeps the last', async () => {
    const problem = (message: string) => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: 1, message });
    const { run } = fakeRun({ unversioned: true, passGapMs: 120, publishPasses: [[problem('syntax pass')], [problem('syntax pass'), problem('semantic pass')]] });
    const write = await run.call('write', { path: 'd.fake', content: 'text\n' });
    expect(text(write)).toContain('New diagnostics in d.fake (2):');
    expect(text(write)).toContain('1:1 error: semantic pass');
  });

  it('an action the server does not offer is refused before it is sent', async () => {
    const { run } = fakeRun({});
    const result = await run.lsp({ action: 'implementation', file: 'a.fake', line: 1, symbol: 'world' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('fake-server does not offer implementation. Try definition, references or hover instead.');
  });

  it('any server\'s work-done progress is awaited before answering; past the budget the answer says INCOMPLETE first', async () => {
    const progress = { title: 'indexing', message: '37/112', percentage: 33 };
    const { run } = fakeRun({ progressOnOpen: { ...progress, endAfterMs: 600 }, methods: { 'textDocument/hover': { reply: { contents: 'complete' } } } });
    const started = Date.now();
    const waited = await run.lsp(hover);
    expect(text(waited)).toBe('complete');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);

    const { run: slow } = fakeRun({ progressOnOpen: progress, methods: { 'textDocument/hover': { reply: { contents: 'partial' } } } }, { indexWaitMs: 200 });
    const partial = await slow.lsp(hover);
    expect(text(partial)).toMatch(
      /^INCOMPLETE: fake-server \(root \.\) is still indexing 37\/112 \(33%\) after a wait of [\d.]+ s; this answer may miss results\. Call again in a moment for the complete answer\.\npartial$/,
    );
    expect(partial.structured).toMatchObject({ incomplete: expect.stringContaining('indexing 37/112 (33%)') });
    expect(text(await slow.lsp({ action: 'status' }))).toContain('busy: indexing 37/112 (33%)');
  });

  it("a query waiting for the index says what it waits for to the call's progress listener (the harness's status line)", async () => {
    const progress = { title: 'indexing', message: '37/112', percentage: 33 };
    const { run } = fakeRun({ progressOnOpen: { ...progress, endAfterMs: 800 }, methods: { 'textDocument/hover': { reply: { contents: 'complete' } } } });
    const events: ProgressEvent[] = [];
    const result = await run.registry.call('lsp', hover, { onProgress: (event) => events.push(event) });
    expect(text(result)).toBe('complete');
    expect(events[0]).toMatchObject({ tool: 'lsp', message: 'waiting for fake-server (root .): indexing 37/112', progress: 33, total: 100 });
    // As a status line shows it: the share once.
    expect(formatProgress(events[0] as ProgressEvent)).toBe('lsp: waiting for fake-server (root .): indexing 37/112 (33%)');
  });
});
