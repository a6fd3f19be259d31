import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { DirectClient } from './differential/direct-client.js';
import { requests } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, items 7-9 on real code: hover documentation in the server's order and unescaped (pyright on requests),
// type_definition when the server knows no type (pyright, gopls), and servers' refusals said as what they mean
// (gopls on Go's net/textproto).

function textproto(dir: string): void {
  const source = '/usr/lib/go/src/net/textproto';
  for (const file of readdirSync(source).filter((f) => f.endsWith('.go'))) cpSync(join(source, file), join(dir, file));
  writeFileSync(join(dir, 'go.mod'), 'module example.com/textproto\n\ngo 1.19\n');
}

describe('hover documentation (item 7)', () => {
  it('pyright\'s hover of json keeps the docstring in its order, unescaped, long ones capped', { timeout: 300_000 }, async () => {
    using oracleDir = tempDir({}, 'agent-tools-oracle-');
    const files = requests.prepare(oracleDir.path);
    await using oracle = await DirectClient.start(oracleDir.path, requests.server(oracleDir.path));
    oracle.open(files[0] as string);
    await oracle.idle();
    const uri = oracle.open(join(oracleDir.path, 'requests/compat.py'));
    const raw = ((await oracle.stable<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 36, character: 11 } })).contents as MarkupContent).value;

    await using run = startRun({}, { indexWaitMs: 300_000 });
    requests.prepare(run.dir.path);
    const result = await run.lsp({ action: 'hover', file: 'requests/compat.py', line: 37, symbol: 'json' });
    const body = text(result);
    const { signature, documentation } = result.structured as { signature: string; documentation: string };
    expect(signature).toBe('(module) json');
    expect(documentation.startsWith('JSON (JavaScript Object Notation) <https://json.org> is a subset of')).toBe(true);
    expect(body).not.toMatch(/&lt;|&gt;|&amp;|\\_/);
    expect(body.indexOf('Encoding basic Python object hierarchies:')).toBeLessThan(body.indexOf('>>> import json'));
    expect(body).toMatch(/\n… \(\d+ more lines\)$/);
    // Every line shown appears in the server's hover, in the same order (escapes undone on both sides).
    const unescaped = raw.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\\_/g, '_').replace(/\\([*`])/g, '$1');
    let at = 0;
    for (const line of documentation.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const found = unescaped.indexOf(line, at);
      expect(found, `"${line}" out of the server's order`).toBeGreaterThanOrEqual(at);
      at = found + line.length;
    }
    const chardet = text(await run.lsp({ action: 'hover', file: 'requests/compat.py', line: 13, symbol: 'chardet' }));
    expect(chardet).toContain('at <https://github.com/Ousret/charset_normalizer>.');
  });
});

describe('type_definition when the server knows no type (item 8)', () => {
  it('pyright: an unannotated parameter is not its own type; a typed variable still has one', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    requests.prepare(run.dir.path);
    const unknown = await run.lsp({ action: 'type_definition', file: 'requests/sessions.py', line: 67, symbol: 'session_setting' });
    expect(text(unknown)).toBe(
      'The server knows no type for `session_setting` (requests/sessions.py:67): it answers with the declaration of `session_setting` itself (requests/sessions.py:61), which is not a type. Use hover to see what it infers there.',
    );
    expect(unknown.structured).toMatchObject({ total: 0, noType: true });
    const known = await run.lsp({ action: 'type_definition', file: 'requests/compat.py', line: 22, symbol: '_ver' });
    expect(text(known)).toMatch(/^1 type definition of `_ver` \(requests\/compat.py:22\):\n\S+ \S+sys\/__init__.pyi \(outside the working directory\)\n {2}\d+:\d+ {2}class _version_info/);
  });

  it('gopls: a package name has no type, said so', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    textproto(run.dir.path);
    const result = await run.lsp({ action: 'type_definition', file: 'reader.go', line: 5, symbol: 'textproto' });
    expect(text(result)).toBe('gopls knows no type for `textproto` (reader.go:5) (a package name, a keyword or a built-in has none). Use hover to see what it is.');
  });
});

describe('servers\' refusals said as what they mean (item 9)', () => {
  it('gopls: a rename onto an existing name names it and where it is; nothing changed', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    textproto(run.dir.path);
    const before = readFileSync(join(run.dir.path, 'reader.go'), 'utf8');
    const result = await run.call('lsp_rename', { file: 'reader.go', line: 99, symbol: 'trim', new_name: 'TrimBytes' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('`TrimBytes` already exists (textproto.go:135), a func in the same block as `trim`; choose another name. Nothing changed.');
    expect(readFileSync(join(run.dir.path, 'reader.go'), 'utf8')).toBe(before);
    const none = await run.lsp({ action: 'references', file: 'reader.go', line: 5, symbol: 'package' });
    expect(text(none)).toBe(
      'gopls finds no symbol at `package` (reader.go:5): it answers only for names it declares or uses (not a keyword, a package clause, a label or a comment). Address another name on the line, or another line.',
    );
  });
});
