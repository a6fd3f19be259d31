import { writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ProjectChecker } from '../src/index.js';
import { fakeServer, type Run, startRun, text } from './helpers.js';

const scripts = tempDir({}, 'agent-tools-fake-');
afterAll(() => scripts.remove());
let runs: Run[] = [];
afterEach(async () => {
  for (const run of runs) await run[Symbol.asyncDispose]();
  runs = [];
});

/** A harness's own checker: a shell command whose exit code and output the test chooses. */
function shellChecker(script: string): ProjectChecker {
  return {
    name: 'fake-check',
    plan: () => ({ command: { command: '/bin/sh', prefixArgs: [], source: 'absolute', display: '/bin/sh' }, args: ['-c', script], title: 'fake-check' }),
    parse: ({ stdout, code }, { root }) =>
      code === 0 || code === 1
        ? stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => ({ file: `${root}/${line.split(':')[0]}`, line: Number(line.split(':')[1]), severity: 'error' as const, message: line.split(':')[2] ?? '' }))
        : { failed: `fake-check exited with code ${code}` },
  };
}

function run(checker: ProjectChecker): Run {
  const script = scripts.join(`s-${runs.length}.json`);
  writeFileSync(script, '{}');
  const started = startRun({ 'fake.json': '{}', 'a.fake': 'x\n' }, { builtins: false, servers: [fakeServer(script, { projectCheck: checker })] });
  runs.push(started);
  return started;
}

describe('diagnostics "*" reports', () => {
  it('the diagnostics of a harness-supplied checker, grouped by file with their lines', async () => {
    const result = await run(shellChecker('echo "a.fake:1:bad thing"; exit 1')).lsp({ action: 'diagnostics', file: '*' });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe(
      [
        'Whole-project check of the working directory (1 project):',
        '  verified: Fake at . by fake-check: 1 error, 0 warnings',
        'a.fake (1)',
        '  1 error: bad thing',
        '      > x',
      ].join('\n'),
    );
  });

  it('a checker that fails to run as NOT VERIFIED, never clean, and as an error when nothing was verified', async () => {
    const result = await run(shellChecker('echo "internal error" >&2; exit 3')).lsp({ action: 'diagnostics', file: '*' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('  NOT VERIFIED: Fake at . by fake-check: fake-check exited with code 3');
    expect(text(result)).toContain('1 of 1 part(s) could not be verified: do not treat them as clean.');
    expect(text(result)).not.toContain('no errors or warnings');
    expect(result.structured).toMatchObject({ verified: false });
  });

  it('a checker that hangs is stopped at its timeout and NOT VERIFIED', async () => {
    const checker = { ...shellChecker('sleep 30'), timeoutMs: 300 };
    const result = await run(checker).lsp({ action: 'diagnostics', file: '*' });
    expect(text(result)).toContain('NOT VERIFIED: Fake at . by fake-check: fake-check did not finish within 300 ms and was stopped');
  });

  it('nothing to check as an error', async () => {
    const started = startRun({ 'notes.txt': 'hi\n' });
    runs.push(started);
    const result = await started.lsp({ action: 'diagnostics', file: '*' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Nothing was checked: no project root of any configured language server was found in the working directory. The project is NOT VERIFIED.');
  });

  it('the server\'s own workspace diagnostics when it offers them', async () => {
    const script = scripts.join('workspace.json');
    writeFileSync(
      script,
      JSON.stringify({
        capabilities: { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: true } },
        methods: {
          'workspace/diagnostic': {
            reply: {
              items: [
                { uri: '$ROOT/a.fake', kind: 'full', items: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: 2, message: 'from the workspace report', code: 'W7' }] },
              ],
            },
          },
        },
      }),
    );
    const started = startRun({ 'fake.json': '{}', 'a.fake': 'x\n' }, { builtins: false, servers: [fakeServer(script)] });
    runs.push(started);
    const result = await started.lsp({ action: 'diagnostics', file: '*' });
    expect(text(result)).toBe(
      [
        'Whole-project check of the working directory (1 project):',
        '  verified: Fake at . by workspace diagnostics of the server: 0 errors, 1 warning',
        'a.fake (1)',
        '  1:1 warning W7: from the workspace report',
        '      > x',
      ].join('\n'),
    );
  });
});
