import { chmodSync, writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { defineServer } from '../src/index.js';
import { FAKE_SERVER, fakeServer, type Run, startRun, text } from './helpers.js';

let runs: Run[] = [];
afterEach(async () => {
  for (const run of runs) await run[Symbol.asyncDispose]();
  runs = [];
});
function track(run: Run): Run {
  runs.push(run);
  return run;
}

describe('which server can answer: root marker and binary, decided at call time', () => {
  it('a file without a root marker up to the working directory gets no server, and status says which marker', async () => {
    const run = track(startRun({ 'loose/x.ts': 'export const x = 1;\n' }));
    const result = await run.lsp({ action: 'hover', file: 'loose/x.ts', line: 1, symbol: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'typescript-language-server (TypeScript/JavaScript) cannot answer for loose/x.ts: no root marker (tsconfig.json, jsconfig.json, package.json) was found from loose up to the working directory. Create the project\'s configuration file there, or work in a folder that has one. Call lsp with action "status" to see where servers can start.',
    );
    expect(result.structured).toMatchObject({ error: 'no_root' });
    const status = await run.lsp({ action: 'status', file: 'loose/x.ts' });
    expect(text(status)).toMatch(/typescript-language-server \(TypeScript\/JavaScript;[^\n]*\n {2}cannot start here: no root marker \(tsconfig.json, jsconfig.json, package.json\) in the working directory or its subfolders; binary /);
    expect(run.supervisor.running()).toEqual([]);
  });

  it('a missing binary is reported with every place that was searched', async () => {
    const missing = defineServer({
      id: 'nowhere',
      name: 'nowhere-ls',
      languages: 'Nowhere',
      extensions: { '.nw': 'nowhere' },
      rootMarkers: ['nowhere.toml'],
      binaries: ['agent-tools-no-such-language-server'],
      args: [],
    });
    const run = track(startRun({ 'nowhere.toml': '', 'src/a.nw': 'x\n' }, { servers: [missing] }));
    const result = await run.lsp({ action: 'definition', file: 'src/a.nw', line: 1, symbol: 'x' });
    expect(text(result)).toBe(
      'nowhere-ls (Nowhere) cannot answer for src/a.nw: its binary (agent-tools-no-such-language-server) was not found (looked in node_modules/.bin, .venv/bin, venv/bin (from . up to the working directory), $PATH). Install it, or tell the user it is missing. Call lsp with action "status" to see every server and where it was looked for.',
    );
    const status = await run.lsp({ action: 'status' });
    expect(text(status)).toContain(
      'nowhere-ls (Nowhere; .nw)\n  cannot start here: its binary was not found (looked in node_modules/.bin, .venv/bin, venv/bin (from . up to the working directory), $PATH)',
    );
    expect(status.structured).toMatchObject({ servers: expect.arrayContaining([expect.objectContaining({ id: 'nowhere', missing: ['binary'], roots: ['.'] })]) });
  });

  it('reports both when both are missing', async () => {
    const run = track(startRun({ 'a.zz': 'x\n' }, {
      servers: [defineServer({ id: 'zz', name: 'zz-ls', languages: 'ZZ', extensions: { '.zz': 'zz' }, rootMarkers: ['zz.json'], binaries: ['agent-tools-no-zz'], args: [] })],
    }));
    const result = await run.lsp({ action: 'hover', file: 'a.zz', line: 1, symbol: 'x' });
    expect(text(result)).toContain('no root marker (zz.json) was found from . up to the working directory, and its binary (agent-tools-no-zz) was not found');
    expect(run.supervisor.status().find((s) => s.id === 'zz')?.missing).toEqual(['root marker', 'binary']);
  });

  it('an extension no server handles is named', async () => {
    const run = track(startRun({ 'README.md': '# hi\n' }));
    const result = await run.lsp({ action: 'hover', file: 'README.md', line: 1, symbol: 'hi' });
    expect(text(result)).toMatch(/^No language server is configured for \.md files \(README\.md\)\. Servers exist for: \.ts /);
  });

  it('the nearest root marker wins, and a project-local binary comes before $PATH', async () => {
    using scripts = tempDir({ 'script.json': JSON.stringify({ capabilities: { hoverProvider: true }, methods: { 'textDocument/hover': { reply: { contents: 'local' } } } }) });
    const launcher = `#!/bin/sh\nexec "${process.execPath}" "${FAKE_SERVER}" "${scripts.join('script.json')}"\n`;
    const run = track(
      startRun(
        { 'fake.json': '{}', 'pkg/fake.json': '{}', 'pkg/a.fake': 'word\n', 'pkg/node_modules/.bin/fake-ls': launcher },
        { servers: [fakeServer(scripts.join('script.json'), { binaries: ['fake-ls'], args: [] })], builtins: false, env: { ...process.env, PATH: scripts.path } },
      ),
    );
    chmodSync(run.dir.join('pkg/node_modules/.bin/fake-ls'), 0o755);
    writeFileSync(scripts.join('fake-ls'), '#!/bin/sh\nexit 9\n', { mode: 0o755 });
    const result = await run.lsp({ action: 'hover', file: 'pkg/a.fake', line: 1, symbol: 'word' });
    expect(text(result)).toBe('local');
    const status = await run.lsp({ action: 'status', file: 'pkg/a.fake' });
    expect(text(status)).toContain('running for pkg: pid');
    expect(text(status)).toContain('binary pkg/node_modules/.bin/fake-ls');
    expect(text(status)).toContain('For pkg/a.fake: fake-server answers, with root pkg.');
  });

  it('reload restarts the server of a root and status shows the new process', async () => {
    using scripts = tempDir({ 'script.json': JSON.stringify({ capabilities: { hoverProvider: true }, methods: { 'textDocument/hover': { reply: { contents: 'hi' } } } }) });
    const run = track(startRun({ 'fake.json': '{}', 'a.fake': 'word\n' }, { servers: [fakeServer(scripts.join('script.json'))], builtins: false }));
    await run.lsp({ action: 'hover', file: 'a.fake', line: 1, symbol: 'word' });
    const before = run.supervisor.running()[0]?.pid;
    const reload = await run.lsp({ action: 'reload' });
    const after = run.supervisor.running()[0]?.pid;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(text(reload)).toBe(`fake-server (root .) restarted: pid ${before} → ${after}.`);
    const status = await run.lsp({ action: 'status' });
    expect(text(status)).toContain(`running for .: pid ${after}`);
    expect(text(status)).toContain('started 2 times');
  });

  it('reload with nothing running says so', async () => {
    const run = track(startRun({ 'tsconfig.json': '{}' }));
    const result = await run.lsp({ action: 'reload' });
    expect(text(result)).toBe('No language server has run yet, so none was restarted; servers start on first use.');
  });
});
