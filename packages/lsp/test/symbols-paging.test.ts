import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { SymbolInformation } from 'vscode-languageserver-protocol';
import { nameMatches } from '../src/format/symbols.js';
import { DirectClient } from './differential/direct-client.js';
import { rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 1 for workspace symbols: a search longer than a page, paged through, is exactly the server's own
// answer asked directly, kept to the names that contain the query and to the working directory (item 10's rule).
describe('workspace symbols in pages', () => {
  it('rxjs "e": pages concatenated equal tsserver\'s own list of matching names in the project', { timeout: 600_000 }, async () => {
    const query = 'e';
    using oracleDir = tempDir({}, 'agent-tools-oracle-');
    const files = rxjs.prepare(oracleDir.path);
    await using oracle = await DirectClient.start(oracleDir.path, rxjs.server(oracleDir.path));
    oracle.open(files[0] as string);
    await oracle.idle();
    const raw = (await oracle.stable<SymbolInformation[]>('workspace/symbol', { query })) ?? [];
    const expected = raw
      .filter((s) => nameMatches(s.name, query))
      .map((s) => ({ file: relative(oracleDir.path, fileURLToPath(s.location.uri)), line: s.location.range.start.line + 1, name: s.name }))
      .filter((s) => !s.file.startsWith('..'))
      .map((s) => `${s.file}:${s.line}:${s.name}`)
      .sort();
    expect(expected.length).toBeGreaterThan(100);

    await using run = startRun({}, { indexWaitMs: 300_000 });
    rxjs.prepare(run.dir.path);
    const got: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined && pages < 50) {
      const result = await run.lsp({ action: 'symbols', query, offset });
      expect(result.isError, text(result)).toBe(false);
      const data = result.structured as { total: number; next?: number; symbols: Array<{ file: string; line: number; name: string }> };
      expect(data.total).toBe(expected.length);
      got.push(...data.symbols.map((s) => `${s.file}:${s.line}:${s.name}`));
      offset = data.next;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(got.length).toBe(new Set(got).size);
    expect([...got].sort()).toEqual(expected);
    // path keeps one folder.
    const folder = await run.lsp({ action: 'symbols', query, path: join('internal', 'observable') });
    expect((folder.structured as { total: number }).total).toBe(expected.filter((k) => k.startsWith('internal/observable/')).length);
  });
});
