import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';

// gopls-diagnose against a scripted gopls (a real process speaking LSP) that does what gopls 0.11 does on a loaded
// machine: during gopls/diagnoseFiles it publishes a file's type errors, then publishes the file again from its
// background diagnosis with vet's analyzer alone, before its end marker. `gopls check` printed the last set and lost
// the type errors (CI met it); the real gopls cases are in gopls.system.test.ts.
const SCRIPT = fileURLToPath(new URL('../dist/project-check/checkers/gopls-diagnose.js', import.meta.url));

const FAKE_GOPLS = `#!${process.execPath}
const send = (m) => { const b = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m })); process.stdout.write('Content-Length: ' + b.length + '\\r\\n\\r\\n'); process.stdout.write(b); };
const mode = process.env.FAKE_MODE;
const range = (line, from, to) => ({ start: { line, character: from }, end: { line, character: to } });
const typeError = { range: range(2, 10, 13), severity: 1, source: 'compiler', message: 'cannot use "é" as int' };
const vet = { range: range(3, 0, 4), severity: 2, source: 'printf', message: 'format %d has arg of wrong type' };
let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    const length = Number(/Content-Length: (\\d+)/.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const m = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    if (m.method === 'initialize') send({ id: m.id, result: { capabilities: {} } });
    if (m.method === 'shutdown') send({ id: m.id, result: null });
    if (m.method === 'exit') process.exit(0);
    if (m.method === 'gopls/diagnoseFiles') {
      if (mode === 'crash') process.exit(7);
      if (mode === 'garbage') { process.stdout.write('Content-Length: 5\\r\\n\\r\\n{bad}'); continue; }
      if (mode === 'error') { send({ id: m.id, error: { code: -32603, message: 'no views' } }); continue; }
      const [uri] = m.params.files;
      send({ method: 'textDocument/publishDiagnostics', params: { uri, version: 1, diagnostics: [typeError, vet] } });
      send({ method: 'textDocument/publishDiagnostics', params: { uri, version: 1, diagnostics: [vet] } });
      send({ method: 'textDocument/publishDiagnostics', params: { uri: uri.replace('a.go', 'other.go'), diagnostics: [typeError] } });
      send({ method: 'textDocument/publishDiagnostics', params: { uri: 'gopls://diagnostics-done', diagnostics: [] } });
      send({ id: m.id, result: {} });
      // After the end marker: not the check's answer.
      send({ method: 'textDocument/publishDiagnostics', params: { uri, version: 1, diagnostics: [{ ...vet, message: 'late' }] } });
    }
  }
});
`;

function check(mode: string, source: string | Buffer = 'package a\n\nvar ü int = "é"\nfunc F() {}\n') {
  using dir = tempDir({ 'gopls': FAKE_GOPLS });
  writeFileSync(dir.join('a.go'), source);
  chmodSync(dir.join('gopls'), 0o755);
  const run = spawnSync(process.execPath, [SCRIPT, dir.join('gopls')], { cwd: dir.path, input: `${dir.join('a.go')}\0`, encoding: 'utf8', timeout: 30_000, env: { ...process.env, FAKE_MODE: mode } });
  return { ...run, file: dir.join('a.go') };
}

describe('gopls-diagnose: gopls check that keeps every answer', () => {
  it('merges every versioned publish of a file until the end marker: one JSON finding a line, byte columns, severity and source', () => {
    const { stdout, stderr, status, file } = check('normal');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    // "ü" is two bytes: the type error's UTF-16 characters 10-13 are byte columns 12-15.
    expect(stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line))).toEqual([
      { file, line: 3, column: 12, endLine: 3, endColumn: 15, severity: 1, source: 'compiler', message: 'cannot use "é" as int' },
      { file, line: 4, column: 1, endLine: 4, endColumn: 5, severity: 2, source: 'printf', message: 'format %d has arg of wrong type' },
    ]);
  });

  it("reports a file that is not UTF-8 as gopls check does (JSON would carry gopls a U+FFFD, never the compiler's error)", () => {
    const { stdout, status, file } = check('normal', Buffer.from('package a\n\nvar s = "caf\xe9"\n', 'latin1'));
    expect(status).toBe(0);
    expect(JSON.parse(stdout.split('\n')[0] as string)).toEqual({ file, line: 3, column: 13, endLine: 3, endColumn: 13, severity: 1, source: 'syntax', message: 'illegal UTF-8 encoding' });
  });

  it('fails the way gopls check does when gopls refuses the request, dies, or sends what is not JSON', () => {
    const refused = check('error');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('gopls: no views\n');
    const crashed = check('crash');
    expect(crashed.status).toBe(1);
    expect(crashed.stderr).toBe('gopls: gopls exited before the check ended (code 7)\n');
    const garbled = check('garbage');
    expect(garbled.status).toBe(1);
    // After the reason, JSON.parse's own words, which differ between Node versions.
    expect(garbled.stderr).toMatch(/^gopls: gopls sent what is not a message: a message body is not JSON \(.+\)\n$/);
  });
});
