import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { SymbolInformation } from 'vscode-languageserver-protocol';
import { nameMatches } from '../src/format/symbols.js';
import { DirectClient } from './differential/direct-client.js';
import { type RealProject, requests, rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 1 for workspace symbols: a search longer than a page, paged through, is exactly the server's own
// answer asked directly, kept to the names that contain the query and to the working directory (item 10's rule):
// every page says in its first line that it is a cut and where the next one starts, no symbol comes twice, none is
// missing. On tsserver and pyright, the servers that do not cut their own answers (gopls and clangd stop at 100,
// less than two pages).
const cases: ReadonlyArray<{ server: string; project: RealProject; query: string; folder: string }> = [
  { server: 'tsserver', project: rxjs, query: 'e', folder: join('internal', 'observable') },
  { server: 'pyright', project: requests, query: 'e', folder: 'requests' },
];

describe('workspace symbols in pages', () => {
  for (const c of cases) {
    it(`${c.server} "${c.query}": pages concatenated equal the server's own list of matching names in the project`, { timeout: 600_000 }, async () => {
      using oracleDir = tempDir({}, 'agent-tools-oracle-');
      const files = c.project.prepare(oracleDir.path);
      await using oracle = await DirectClient.start(oracleDir.path, c.project.server(oracleDir.path));
      oracle.open(files[0] as string);
      await oracle.idle();
      const raw = (await oracle.stable<SymbolInformation[]>('workspace/symbol', { query: c.query })) ?? [];
      const expected = raw
        .filter((s) => nameMatches(s.name, c.query))
        .map((s) => ({ file: relative(oracleDir.path, fileURLToPath(s.location.uri)), line: s.location.range.start.line + 1, name: s.name }))
        .filter((s) => !s.file.startsWith('..'))
        .map((s) => `${s.file}:${s.line}:${s.name}`)
        .sort();
      expect(expected.length).toBeGreaterThan(200);

      await using run = startRun({}, { indexWaitMs: 300_000 });
      c.project.prepare(run.dir.path);
      const got: string[] = [];
      let offset: number | undefined = 0;
      let pages = 0;
      while (offset !== undefined && pages < 50) {
        const result = await run.lsp({ action: 'symbols', query: c.query, offset });
        const said = text(result);
        expect(result.isError, said).toBe(false);
        const data = result.structured as { total: number; next?: number; symbols: Array<{ file: string; line: number; name: string }> };
        expect(data.total).toBe(expected.length);
        // The first line says this is a cut, which part, and where the next page starts.
        const shown = offset === 0 ? `${data.symbols.length} of ${data.total}` : `${offset + 1}-${offset + data.symbols.length} of ${data.total}`;
        const rest = data.next === undefined ? 'the last page' : `next page: "offset": ${data.next}`;
        expect(said.split('\n')[0]).toBe(`${data.total} symbols matching "${c.query}" (${shown} shown; ${rest}):`);
        if (data.next !== undefined) expect(said).toContain(`Next page: lsp {"action":"symbols","query":"${c.query}","offset":${data.next}}`);
        got.push(...data.symbols.map((s) => `${s.file}:${s.line}:${s.name}`));
        offset = data.next;
        pages++;
      }
      expect(pages).toBeGreaterThan(2);
      expect(got.length).toBe(new Set(got).size);
      expect([...got].sort()).toEqual(expected);
      // path keeps one folder.
      const folder = await run.lsp({ action: 'symbols', query: c.query, path: c.folder });
      expect((folder.structured as { total: number }).total).toBe(expected.filter((k) => k.startsWith(`${c.folder}/`)).length);
    });
  }
});
