import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { askCard, type CardQuestion, type LineTerminal, permissionCard, type QuestionCard, terminalPort } from '../src/index.js';
import { parseLine, renderCard } from '../src/ports/render.js';
import { card, sleep, target } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, 'fixtures', 'ask-cli.mjs');

/** A terminal port over in-process streams, with everything it wrote. */
function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  const port = terminalPort({ input, output });
  return { input, port, written: () => written };
}

describe('card rendering', () => {
  it('numbers the options and says how to answer', () => {
    expect(renderCard(card(), 600_000)).toBe(
      [
        '',
        '── question ──────────────────────────────────────',
        'Which database should the service use?',
        '  The migration scripts differ.',
        '',
        "  1) Postgres   the team's default",
        '  2) SQLite     zero setup',
        '  3) MySQL',
        '',
        'Pick a number; "s" skips. Times out in 10 min.',
        '',
      ].join('\n'),
    );
  });

  it('says how to answer a multi-select card that takes text, and an open question', () => {
    expect(renderCard(card({ multiSelect: true, allowFreeText: true }), 90_000)).toContain(
      'Pick one or more numbers (like 1,3), or type your own answer; "/skip" skips. Times out in 1 min 30 s.',
    );
    expect(renderCard(card({ options: [], allowFreeText: true }), 5000)).toContain('Type your answer; "/skip" skips.');
    const permission = permissionCard({ tool: 'write', tier: 'write', args: { path: 'a.ts' }, bridged: false });
    expect(renderCard(permission, 5000)).toContain('Pick a number (or y, a, n), or type a reason to deny; "/skip" refuses.');
  });
});

/** A card of three questions, as `ask_user` builds it from `questions`. */
function threeQuestions(): QuestionCard {
  const questions: CardQuestion[] = [
    {
      header: 'Database',
      question: 'Which database should the service use?',
      options: [{ label: 'Postgres', description: "the team's default" }, { label: 'SQLite', description: 'zero setup' }],
      allowFreeText: false,
      multiSelect: false,
      recommended: 'Postgres',
    },
    { header: 'Auth', question: 'How do users sign in?', options: [{ label: 'SSO' }, { label: 'Password' }], allowFreeText: false, multiSelect: true },
    { question: 'What should the service be called?', options: [], allowFreeText: true, multiSelect: false },
  ];
  return { kind: 'question', ...(questions[0] as CardQuestion), context: 'Setting up the new service.', questions };
}

describe('a card of several questions at the terminal', () => {
  it('renders every question with its number, header, options and how to answer it', () => {
    expect(renderCard(threeQuestions(), 600_000)).toBe(
      [
        '',
        '── 3 questions ───────────────────────────────────',
        '  Setting up the new service.',
        '',
        '1/3 [Database] Which database should the service use?',
        '',
        "  1) Postgres (recommended)   the team's default",
        '  2) SQLite                   zero setup',
        '  Pick a number; "s" skips this question.',
        '',
        '2/3 [Auth] How do users sign in?',
        '',
        '  1) SSO',
        '  2) Password',
        '  Pick one or more numbers (like 1,3); "s" skips this question.',
        '',
        '3/3 What should the service be called?',
        '  Type your answer; "/skip" skips this question.',
        '',
        'Answer each question in turn; "/skip all" skips the rest. Times out in 10 min.',
        '',
      ].join('\n'),
    );
  });

  it('reads one answer per question in turn from piped lines, re-prompting a bad one', async () => {
    const { input, port, written } = streams();
    input.write('2\n3\n1,2\nstockroom\n');
    const answer = askCard(port, threeQuestions(), { target, timeoutMs: 10_000 });
    expect(await answer).toEqual({
      type: 'answered',
      answers: [
        { type: 'answered', selected: ['SQLite'] },
        { type: 'answered', selected: ['SSO', 'Password'] },
        { type: 'answered', selected: [], text: 'stockroom' },
      ],
    });
    expect(written()).toContain('1/3 answer> ');
    expect(written()).toContain('There is no option 3; pick from 1 to 2.');
    expect(written()).toContain('3/3 answer> ');
    port.close();
  });

  it('skips one question with s or /skip, and the rest with /skip all', async () => {
    const { input, port, written } = streams();
    input.write('s\n/skip all\n');
    expect(await askCard(port, threeQuestions(), { target, timeoutMs: 10_000 })).toEqual({ type: 'skipped' });
    expect(written()).toContain('→ skipped the rest');
    input.write('1\n/skip\nname\n');
    expect(await askCard(port, threeQuestions(), { target, timeoutMs: 10_000 })).toEqual({
      type: 'answered',
      answers: [{ type: 'answered', selected: ['Postgres'] }, { type: 'skipped' }, { type: 'answered', selected: [], text: 'name' }],
    });
    port.close();
  });

  it('times out as one card, whichever question it was on', async () => {
    const { input, port, written } = streams();
    input.write('1\n');
    expect(await askCard(port, threeQuestions(), { target, timeoutMs: 150 })).toEqual({ type: 'timed_out' });
    expect(written()).toContain('(no answer within 150 ms, the card timed out)');
    port.close();
  });
});

describe('reading typed answers', () => {
  const single = card();
  const multi = card({ multiSelect: true });
  const open = card({ allowFreeText: true });
  const permission = permissionCard({ tool: 'write', tier: 'write', args: { path: 'a.ts' }, bridged: false });
  it.each([
    [single, '2', { outcome: { type: 'answered', selected: ['SQLite'] } }],
    [single, ' sqlite ', { outcome: { type: 'answered', selected: ['SQLite'] } }],
    [single, 's', { outcome: { type: 'skipped' } }],
    [single, '/skip', { outcome: { type: 'skipped' } }],
    [single, '1,2', { retry: 'Pick just one number, from 1 to 3.' }],
    [single, '7', { retry: 'There is no option 7; pick from 1 to 3.' }],
    [single, 'maybe', { retry: 'Please answer with a number from 1 to 3, or "s" to skip.' }],
    [single, '', { retry: 'Pick a number; "s" skips.' }],
    [multi, '1, 3', { outcome: { type: 'answered', selected: ['Postgres', 'MySQL'] } }],
    [multi, '3 1 3', { outcome: { type: 'answered', selected: ['MySQL', 'Postgres'] } }],
    [open, 'skip', { outcome: { type: 'answered', selected: [], text: 'skip' } }],
    [open, '/skip', { outcome: { type: 'skipped' } }],
    [open, '5', { outcome: { type: 'answered', selected: [], text: '5' } }],
    [open, 'Use DuckDB', { outcome: { type: 'answered', selected: [], text: 'Use DuckDB' } }],
    [permission, 'y', { outcome: { type: 'answered', selected: ['Allow once'] } }],
    [permission, 'A', { outcome: { type: 'answered', selected: ['Allow for this run'] } }],
    [permission, 'no', { outcome: { type: 'answered', selected: ['Deny'] } }],
    [permission, '2', { outcome: { type: 'answered', selected: ['Allow for this run'] } }],
    [permission, 'not on main', { outcome: { type: 'answered', selected: [], text: 'not on main' } }],
    [open, 'y', { outcome: { type: 'answered', selected: [], text: 'y' } }],
  ])('%#: reads %j', (c, line, expected) => {
    expect(parseLine(c, line)).toEqual(expected);
  });
});

describe('terminal port over plain streams', () => {
  it('renders the card, re-prompts on a bad line, and returns the chosen option', async () => {
    const { input, port, written } = streams();
    const answer = askCard(port, card(), { target, timeoutMs: 10_000 });
    await waitUntil(() => written().includes('answer> '));
    input.write('9\n');
    await waitUntil(() => written().includes('There is no option 9'));
    input.write('2\n');
    expect(await answer).toEqual({ type: 'answered', selected: ['SQLite'] });
    expect(written()).toContain('Which database should the service use?');
    expect(written()).toContain('→ SQLite');
    port.close();
  });

  it('keeps answers typed ahead of the card, one per card in turn', async () => {
    const { input, port } = streams();
    input.write('1\nmy own words\n');
    const first = askCard(port, card(), { target, timeoutMs: 10_000 });
    const second = askCard(port, card({ options: [], allowFreeText: true }), { target, timeoutMs: 10_000 });
    expect(await first).toEqual({ type: 'answered', selected: ['Postgres'] });
    expect(await second).toEqual({ type: 'answered', selected: [], text: 'my own words' });
    port.close();
  });

  it('times out, says so, and leaves the next line for the next card', async () => {
    const { input, port, written } = streams();
    expect(await askCard(port, card(), { target, timeoutMs: 100 })).toEqual({ type: 'timed_out' });
    expect(written()).toContain('(no answer within 100 ms, the question timed out)');
    const next = askCard(port, card(), { target, timeoutMs: 10_000 });
    input.write('3\n');
    expect(await next).toEqual({ type: 'answered', selected: ['MySQL'] });
    port.close();
  });

  it('detaches when the input ends: the open card and later ones fail closed', async () => {
    const { input, port } = streams();
    const open = askCard(port, card(), { target, timeoutMs: 10_000 });
    await sleep(20);
    input.end();
    expect(await open).toEqual({ type: 'unavailable', reason: 'the terminal input ended' });
    expect(port.attached).toBe(false);
    expect(await askCard(port, card(), { target, timeoutMs: 10_000 })).toEqual({
      type: 'unavailable',
      reason: 'the terminal input ended',
    });
  });
});

describe('terminal port over a harness line interface', () => {
  /** A line interface like the harness's: one reader, lines handed out in order, reads cannot be cancelled. */
  function harnessTerminal() {
    const lines: string[] = [];
    const readers: ((line: string | undefined) => void)[] = [];
    let written = '';
    const terminal: LineTerminal = {
      readLine(prompt) {
        written += prompt;
        const line = lines.shift();
        if (line !== undefined) return Promise.resolve(line);
        return new Promise((resolve) => readers.push(resolve));
      },
      write(text) {
        written += text;
      },
    };
    return {
      terminal,
      type(line: string) {
        const reader = readers.shift();
        if (reader) reader(line);
        else lines.push(line);
      },
      waiting: () => readers.length,
      written: () => written,
    };
  }

  it('answers a card through readLine', async () => {
    const h = harnessTerminal();
    const port = terminalPort(h.terminal);
    const answer = askCard(port, card({ multiSelect: true }), { target, timeoutMs: 10_000 });
    await waitUntil(() => h.waiting() === 1);
    h.type('1,2');
    expect(await answer).toEqual({ type: 'answered', selected: ['Postgres', 'SQLite'] });
    expect(h.written()).toContain('── question');
  });

  it('reuses the read a withdrawn card left waiting, so the next card gets the next line', async () => {
    const h = harnessTerminal();
    const port = terminalPort(h.terminal);
    const controller = new AbortController();
    const first = askCard(port, card(), { target, signal: controller.signal, timeoutMs: 10_000 });
    await waitUntil(() => h.waiting() === 1);
    controller.abort();
    expect(await first).toEqual({ type: 'withdrawn' });
    expect(h.written()).toContain('(the question was withdrawn)');
    const second = askCard(port, card(), { target, timeoutMs: 10_000 });
    await sleep(20);
    expect(h.waiting()).toBe(1);
    h.type('2');
    expect(await second).toEqual({ type: 'answered', selected: ['SQLite'] });
  });

  it('says so when a line arrives after its card was withdrawn, instead of swallowing it silently', async () => {
    const h = harnessTerminal();
    const port = terminalPort(h.terminal);
    expect(await askCard(port, card(), { target, timeoutMs: 50 })).toEqual({ type: 'timed_out' });
    h.type('status');
    await waitUntil(() => h.written().includes('(ignored "status"'));
    expect(h.written()).toContain('(ignored "status": the question it would have answered was withdrawn; type it again)');
  });

  it('a readLine that rejects fails that card saying why and tells the harness; it is not the end of input, the next card reads again', async () => {
    const failure = new Error('the terminal was detached');
    let reads = 0;
    const terminal: LineTerminal = {
      readLine: () => (++reads === 1 ? Promise.reject(failure) : Promise.resolve('2')),
      write: () => {},
    };
    const port = terminalPort(terminal);
    const seen: unknown[] = [];
    port.onBackgroundError((error) => seen.push(error));
    expect(await askCard(port, card(), { target, timeoutMs: 10_000 })).toEqual({ type: 'unavailable', reason: 'the terminal could not be read: the terminal was detached' });
    expect(seen).toEqual([failure]);
    expect(port.attached).toBe(true);
    expect(await askCard(port, card(), { target, timeoutMs: 10_000 })).toEqual({ type: 'answered', selected: ['SQLite'] });
  });
});

/** Runs the fixture program (a terminal port over its own stdin/stderr), feeding it `stdin`. */
function runFixture(command: string, args: string[], stdin: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
    child.stdin.end(stdin);
  });
}

describe('terminal port in a real process', () => {
  it('renders to stderr and reads answers from piped stdin', async () => {
    const { stdout, stderr, code } = await runFixture('node', [fixture, JSON.stringify(card({ multiSelect: true }))], 'x\n1,3\n');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ outcome: { type: 'answered', selected: ['Postgres', 'MySQL'] }, attached: false });
    expect(stderr).toContain('── question');
    expect(stderr).toContain("  1) Postgres   the team's default");
    expect(stderr).toContain('Please answer with a number from 1 to 3 (several separated by commas), or "s" to skip.');
    expect(stderr).toContain('→ Postgres, MySQL');
  });

  it('answers a card of several questions from piped stdin', async () => {
    const { stdout, stderr, code } = await runFixture('node', [fixture, JSON.stringify(threeQuestions())], 'x\n2\n1\n/skip\n');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).outcome).toEqual({
      type: 'answered',
      answers: [{ type: 'answered', selected: ['SQLite'] }, { type: 'answered', selected: ['SSO'] }, { type: 'skipped' }],
    });
    expect(stderr).toContain('── 3 questions');
    expect(stderr).toContain('Please answer with a number from 1 to 2, or "s" to skip.');
    expect(stderr).toContain('2/3 answer> ');
  });

  it('fails closed when stdin is already at its end', async () => {
    const { stdout } = await runFixture('node', [fixture, JSON.stringify(card())], '');
    expect(JSON.parse(stdout).outcome).toEqual({ type: 'unavailable', reason: 'the terminal input ended' });
  });

  it('works in a pseudo-terminal (util-linux script), with line editing on', async () => {
    const command = `node ${fixture} '${JSON.stringify(card({ options: [], allowFreeText: true }))}'`;
    const { stdout, code } = await runFixture('script', ['-qec', command, '/dev/null'], 'use DuckDB\n');
    expect(code).toBe(0);
    // In a pseudo-terminal stdout and stderr share the screen: the card, the echoed answer, then the JSON.
    expect(stdout).toContain('Type your answer; "/skip" skips.');
    expect(stdout).toContain('answer> ');
    const json = stdout.slice(stdout.indexOf('{"outcome"')).split(/\r?\n/)[0] as string;
    expect(JSON.parse(json)).toEqual({ outcome: { type: 'answered', selected: [], text: 'use DuckDB' }, attached: false });
  });
});
