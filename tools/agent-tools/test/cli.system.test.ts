import { existsSync, readFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

function project() {
  return tempDir({ 'src/a.ts': 'export const a = 1;\n', 'notes.txt': 'one\ntwo\n' });
}

describe('agent-tools list', () => {
  it('lists the tools of the default surface with their tiers', async () => {
    using dir = project();
    const { code, stdout } = await cli(['list', '--cwd', dir.path]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Tools on the "default" surface \(\d+\):/);
    expect(stdout).toMatch(/\n {2}read +read +Read a text file/);
    expect(stdout).toMatch(/\n {2}write +write +Create or overwrite/);
    expect(stdout).toMatch(/\n {2}edit +write +Replace exact text/);
  });

  it('hides write and exec tools on the plan surface', async () => {
    using dir = project();
    const { code, stdout } = await cli(['list', '--surface', 'plan', '--json', '--cwd', dir.path]);
    expect(code).toBe(0);
    const listing = JSON.parse(stdout) as { surface: string; tools: { name: string; tier: string }[] };
    expect(listing.surface).toBe('plan');
    expect(listing.tools.map((t) => t.name)).toContain('read');
    expect(listing.tools.filter((t) => t.tier !== 'read')).toEqual([]);
  });

  it('gives every tool its JSON Schema under --json', async () => {
    using dir = project();
    const { stdout } = await cli(['list', '--json', '--cwd', dir.path]);
    const listing = JSON.parse(stdout) as { tools: { name: string; description: string; inputSchema: { type: string; properties: object } }[] };
    const write = listing.tools.find((t) => t.name === 'write');
    expect(write?.inputSchema).toMatchObject({ type: 'object', required: ['path', 'content'], additionalProperties: false });
    for (const tool of listing.tools) expect(tool.inputSchema.type).toBe('object');
  });
});

describe('agent-tools call', () => {
  it('prints the text of a success result and exits 0', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'read', '{"path":"notes.txt"}', '--cwd', dir.path]);
    expect(code).toBe(0);
    expect(stdout).toBe('notes.txt\n    1\tone\n    2\ttwo\n');
  });

  it('prints one JSON object under --json', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'read', '{"path":"notes.txt","limit":1}', '--cwd', dir.path, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      isError: false,
      content: [{ type: 'text', text: 'notes.txt\n    1\tone\n(lines 1-1 of 2 shown; continue with offset 2)' }],
      structured: { path: 'notes.txt', lines: 2 },
    });
  });

  it('exits 1 for an error result: unknown tool, bad arguments, a path outside the working directory', async () => {
    using dir = project();
    const unknown = await cli(['call', 'nope', '{}', '--cwd', dir.path, '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Unknown tool "nope"/) }] });
    const invalid = await cli(['call', 'read', '{"path":3}', '--cwd', dir.path]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain('`path` must be a string, got number 3.');
    const outside = await cli(['call', 'read', '{"path":"../../etc/passwd"}', '--cwd', dir.path]);
    expect(outside.code).toBe(1);
    expect(outside.stdout).toContain('is outside the working directory');
  });

  it('exits 2 for usage errors, with the usage on stderr', async () => {
    using dir = project();
    for (const args of [
      ['call', 'read', '{not json', '--cwd', dir.path],
      ['call', 'read', '[1]', '--cwd', dir.path],
      ['call', '--cwd', dir.path],
      ['list', '--bogus'],
      ['frobnicate'],
      [],
      ['list', '--surface', 'admin', '--cwd', dir.path],
      ['list', '--cwd', `${dir.path}/missing`],
    ]) {
      const { code, stderr, stdout } = await cli(args);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr).toMatch(/^agent-tools: /);
      expect(stdout).toBe('');
    }
  });

  it('reads the arguments from standard input with -', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'read', '-', '--cwd', dir.path], { input: '{"path":"src/a.ts"}' });
    expect(code).toBe(0);
    expect(stdout).toContain('export const a = 1;');
  });

  it('refuses write calls without a terminal and without --yes (fail-closed), and writes nothing', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'write', '{"path":"b.ts","content":"x"}', '--cwd', dir.path]);
    expect(code).toBe(1);
    expect(stdout).toContain('The user did not allow this write call.');
    expect(existsSync(dir.join('b.ts'))).toBe(false);
  });

  it('runs write calls with --yes', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'write', '{"path":"b.ts","content":"x"}', '--cwd', dir.path, '--yes']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Created b\.ts \(1 line\)\./);
    expect(readFileSync(dir.join('b.ts'), 'utf8')).toBe('x');
  });

  it('answers a write call on the plan surface as an unknown tool', async () => {
    using dir = project();
    const { code, stdout } = await cli(['call', 'write', '{"path":"b.ts","content":"x"}', '--surface', 'plan', '--cwd', dir.path, '--yes']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Unknown tool "write"/);
  });
});

describe('agent-tools repl', () => {
  it('answers each line in order, one JSON object per line, with state lasting between calls', async () => {
    using dir = project();
    const input = [
      '# a comment, then a blank line',
      '',
      'write {"path":"c.ts","content":"export const c = 3;\\n"}',
      'read {"path":"c.ts"}',
      'read {not json',
      'nope {}',
      'read',
    ].join('\n');
    const { code, stdout } = await cli(['repl', '--json', '--yes', '--cwd', dir.path], { input });
    expect(code).toBe(0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { isError: boolean; content: { text: string }[] });
    expect(answers.map((a) => a.isError)).toEqual([false, false, true, true, true]);
    expect(answers[1]?.content[0]?.text).toContain('export const c = 3;');
    expect(answers[2]?.content[0]?.text).toMatch(/^The arguments are not valid JSON/);
    expect(answers[4]?.content[0]?.text).toContain('`path` is required');
  });

  it('keeps a staged edit of one line for the resolve of a later line', async () => {
    using dir = tempDir({ 'app.py': 'def f(x):\n    print(x)\n' });
    const input = [
      'ast_edit {"pattern":"print($X)","rewrite":"log($X)","path":"app.py"}',
      'resolve {"edit_id":"edit_1","action":"accept"}',
      'resolve {"edit_id":"edit_1","action":"accept"}',
    ].join('\n');
    const { code, stdout } = await cli(['repl', '--json', '--yes', '--cwd', dir.path], { input });
    expect(code).toBe(0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { isError: boolean });
    expect(answers.map((a) => a.isError)).toEqual([false, false, true]);
    expect(readFileSync(dir.join('app.py'), 'utf8')).toBe('def f(x):\n    log(x)\n');
  });

  it('prints plain text results without --json and exits 0 at end of input', async () => {
    using dir = project();
    const { code, stdout } = await cli(['repl', '--cwd', dir.path], { input: 'read {"path":"notes.txt","limit":1}\n' });
    expect(code).toBe(0);
    expect(stdout).toBe('── read ──\nnotes.txt\n    1\tone\n(lines 1-1 of 2 shown; continue with offset 2)\n');
  });
});

describe('approval at the terminal', () => {
  it('asks a human at the terminal before each write, and honours allow, deny and allow-for-this-run', async () => {
    using dir = project();
    const input = [
      'write {"path":"denied.ts","content":"x"}',
      'n',
      'write {"path":"once.ts","content":"x"}',
      'y',
      'edit {"path":"once.ts","old_text":"x","new_text":"y"}',
      'a',
      'edit {"path":"once.ts","old_text":"y","new_text":"z"}',
    ].join('\n');
    const { code, stdout, stderr } = await cli(['repl', '--interactive', '--json', '--cwd', dir.path], { input });
    expect(code).toBe(0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { isError: boolean });
    expect(answers.map((a) => a.isError)).toEqual([true, false, false, false]);
    expect(existsSync(dir.join('denied.ts'))).toBe(false);
    expect(readFileSync(dir.join('once.ts'), 'utf8')).toBe('z');
    // Three prompts: the allow-for-this-run answer covered the last edit.
    expect(stderr.match(/Allow\?/g)).toHaveLength(3);
  });
});
