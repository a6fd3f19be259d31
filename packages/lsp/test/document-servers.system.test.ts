import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

// JSON, CSS, HTML, YAML, shell scripts and Dockerfiles through their real servers, installed with this package.
const files = {
  'package.json': '{"name":"docs","private":true}',
  'schema.json': JSON.stringify({ type: 'object', properties: { $schema: { type: 'string' }, port: { type: 'number' } }, required: ['port'], additionalProperties: false }),
};

describe('servers of single documents', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files, {}, 20_000);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('JSON: a schema error against the schema the document names', async () => {
    const written = await run.call('write', { path: 'config.json', content: '{\n  "$schema": "./schema.json",\n  "port": "80",\n  "host": 1\n}\n' });
    expect(text(written)).toContain('New diagnostics in config.json');
    const result = await run.lsp({ action: 'diagnostics', file: 'config.json' });
    const body = text(result);
    expect(body, body).toContain('config.json: 0 errors, 2 warnings (checked by vscode-json-language-server).');
    expect(body).toContain('3:11 warning: Incorrect type. Expected "number". [json]');
    expect(body).toContain('4:3 warning: Property host is not allowed. [json]');
  });

  it('JSON: a syntax error', async () => {
    const written = await run.call('write', { path: 'broken.json', content: '{ "a": 1,, }\n' });
    expect(text(written)).toMatch(/1:\d+ error \d+: (Value expected|Property expected)/);
  });

  it('CSS: an unknown property and a syntax error', async () => {
    const written = await run.call('write', { path: 'site.css', content: 'a { colr: red; }\nb { color: }\n' });
    const body = text(written);
    expect(body, body).toContain("1:5 warning unknownProperties: Unknown property: 'colr' [css]");
    expect(body).toContain('2:12 error css-propertyvalueexpected: property value expected [css]');
  });

  it('YAML: a syntax error and a duplicate key', async () => {
    const written = await run.call('write', { path: 'ci.yml', content: 'name: ci\nname: again\nsteps:\n  - run: [a\n' });
    const body = text(written);
    expect(body, body).toContain('2:1 error 0: Map keys must be unique [YAML]');
    expect(body).toContain('5:1 error 0: Flow sequence in block collection must be sufficiently indented and end with a ] [YAML]');
  });

  it('Dockerfile: an unknown instruction and a missing argument', async () => {
    const written = await run.call('write', { path: 'Dockerfile', content: 'FROM node:20\nRUNN echo hi\nEXPOSE\n' });
    const body = text(written);
    expect(body, body).toContain('New diagnostics in Dockerfile');
    expect(body).toContain('2:1 error 38: Unknown instruction: RUNN [dockerfile-utils]');
    expect(body).toContain('3:1 error 2: Instruction has no arguments [dockerfile-utils]');
  });

  it('status lists every document server with its root', async () => {
    const body = text(await run.lsp({ action: 'status' }));
    for (const name of ['vscode-json-language-server', 'vscode-css-language-server', 'yaml-language-server', 'docker-langserver']) {
      expect(body).toMatch(new RegExp(`${name} \\([^)]*\\)\\n  running for \\.: pid \\d+`));
    }
  });
});

describe('shell scripts (bash-language-server)', () => {
  const unused = '#!/bin/bash\ncd /tmp\nleft=1\n';

  it('with shellcheck on the search path: its findings', async () => {
    await using run = startRun({ 'package.json': '{}' }, {}, 20_000);
    const written = text(await run.call('write', { path: 'run.sh', content: unused }));
    expect(written, written).toContain('3:1 warning SC2034: left appears unused. Verify use (or export if used externally). [shellcheck]');
    expect(text(await run.lsp({ action: 'status' }))).toContain('runs /usr/bin/shellcheck for its lint findings');
  });

  it('without shellcheck: no findings, and status says why', async () => {
    // A search path without /usr/bin (where Debian's shellcheck is); the server itself runs under the harness's Node.
    await using run = startRun({ 'package.json': '{}' }, { env: { ...process.env, PATH: '/nonexistent' } }, 20_000);
    const written = text(await run.call('write', { path: 'run.sh', content: unused }));
    expect(written).toBe('Wrote run.sh.\nNo new diagnostics in run.sh.');
    const status = text(await run.lsp({ action: 'status' }));
    expect(status).toMatch(/bash-language-server \(Bash\/sh[^)]*\)\n {2}running for \.: pid \d+/);
    expect(status).toContain('shellcheck was not found on the search path: no lint findings (apt install shellcheck)');
  });
});
